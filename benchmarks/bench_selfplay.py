"""Random self-play through the public protocol: actions/s and rounds/s, one process and
several; and memory over many rounds (it must stay flat).

    .venv/bin/python benchmarks/bench_selfplay.py [--game trick-of-the-dead] [--rounds 20000]
        [--memory-rounds 100000] [-o KEY=VALUE]
"""

from __future__ import annotations

import argparse
import random
import resource
import time
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


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="trick-of-the-dead")
    p.add_argument("--rounds", type=int, default=20000)
    p.add_argument("--memory-rounds", type=int, default=100000)
    p.add_argument("-o", "--option", action="append", default=[])
    a = p.parse_args()
    options = dict(kv.split("=", 1) for kv in a.option)

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
