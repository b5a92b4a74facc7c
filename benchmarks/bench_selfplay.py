"""Random self-play through the public protocol: actions/s and rounds/s, one process and
several; and memory over many rounds (it must stay flat).

    .venv/bin/python benchmarks/bench_selfplay.py [--game trick-of-the-dead] [--rounds 20000]
        [--memory-rounds 100000] [-o KEY=VALUE] [--baseline DIR [--repeats 5]]

``--baseline DIR`` measures another checkout of torite (e.g. ``git worktree add /tmp/before
HEAD~5``) in the same run: the bare protocol loop of both, alternating, in fresh processes,
``--repeats`` times each, and prints the medians and their ratio, so a change is judged on one
machine at one time.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from torite.engine.registry import make_game
from torite.sim import simulate


def loop(game_id: str, options: dict[str, Any], rounds: int, seed: int = 0) -> tuple[int, float]:
    """The bare protocol loop: to_act, legal_actions, a uniform choice, apply."""
    game = make_game(game_id, options)
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(rounds):
        state = game.new_state(i, dealer=i % game.num_players, max_rounds=1)
        while not state.is_over():
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
                actions += 1
    return actions, time.perf_counter() - start


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loop_in(src: Path | None, game_id: str, options: dict[str, Any], rounds: int) -> float:
    """Actions/s of the bare loop in a fresh process importing torite from ``src`` (None: this one)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    opts = [f"-o{k}={v}" for k, v in options.items()]
    out = subprocess.run([sys.executable, __file__, "--game", game_id, "--rounds", str(rounds), "--loop-only",
                          *opts], env=env, check=True, capture_output=True, text=True).stdout
    where, rate = out.split()
    if src is not None and not where.startswith(str(src)):
        raise SystemExit(f"the baseline imported torite from {where}, not from {src}")
    return float(rate)


def compare(baseline: Path, game_id: str, options: dict[str, Any], rounds: int, repeats: int) -> None:
    src = baseline / "src"
    if not (src / "torite").is_dir():
        raise SystemExit(f"{baseline} is not a torite checkout (no src/torite)")
    now, before = [], []
    for _ in range(repeats):
        before.append(loop_in(src, game_id, options, rounds))
        now.append(loop_in(None, game_id, options, rounds))
    b, a = statistics.median(before), statistics.median(now)
    print(f"protocol loop, baseline {baseline}: {b:10.0f} actions/s (median of {repeats}: "
          + " ".join(f"{x:.0f}" for x in before) + ")")
    print(f"protocol loop, this checkout    : {a:10.0f} actions/s (median of {repeats}: "
          + " ".join(f"{x:.0f}" for x in now) + ")")
    print(f"this / baseline: {a / b:.3f}")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="trick-of-the-dead")
    p.add_argument("--rounds", type=int, default=20000)
    p.add_argument("--memory-rounds", type=int, default=100000)
    p.add_argument("-o", "--option", action="append", default=[])
    p.add_argument("--baseline", type=Path, default=None, help="another torite checkout to measure alongside")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--loop-only", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    options = dict(kv.split("=", 1) for kv in a.option)
    if a.loop_only:
        import torite

        actions, secs = loop(a.game, options, a.rounds)
        print(Path(torite.__file__).resolve(), actions / secs)
        return
    if a.baseline is not None:
        print(f"{a.game} {options or ''}")
        compare(a.baseline.resolve(), a.game, options, a.rounds, a.repeats)
        return

    actions, secs = loop(a.game, options, a.rounds)
    print(f"{a.game} {options or ''}")
    print(f"protocol loop, 1 process : {actions / secs:10.0f} actions/s  {a.rounds / secs:8.0f} rounds/s")
    bots = ["random"] * make_game(a.game, options).num_players
    for jobs in (1, 2):
        out = simulate(a.game, options, bots, rounds=a.rounds, seed=1, jobs=jobs)
        print(f"torite simulate --jobs {jobs}: {out['actions_per_second']:10.0f} actions/s  "
              f"{out['rounds_per_second']:8.0f} rounds/s")

    if a.memory_rounds:
        step = a.memory_rounds // 10
        marks = []
        for k in range(10):
            loop(a.game, options, step, seed=k)
            marks.append(rss_mib())
        print(f"memory over {a.memory_rounds} rounds (RSS MiB after each tenth): "
              + " ".join(f"{m:.1f}" for m in marks))


if __name__ == "__main__":
    main()
