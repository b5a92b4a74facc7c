"""What a long replay costs the web server: the memory it holds and the CPU a step takes, a
state kept per step (the way replays were built before issue 40) against a state every
``CHECKPOINT`` steps (``torite.replay.Replay``).

Plays one game of ``--game`` with random seats until it has ``--actions`` actions (rounds added
as needed), then, each in a fresh process (so the figures do not mix): builds the replay and
reports the process's RSS growth and the Python heap it holds (tracemalloc), the CPU to build
it, and the CPU of a step looked at in order and at random (the state, two seats' and a
spectator's observations).

    .venv/bin/python benchmarks/bench_replay_memory.py [--game kaedama] [--actions 5000] [--steps 300]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from torite.engine.base import State
from torite.engine.registry import make_game
from torite.record import Record, check_action
from torite.replay import CHECKPOINT, Replay
from torite.sim import play


def long_record(game_id: str, actions: int) -> Record:
    """A game of random seats with at least ``actions`` actions (cut to that many)."""
    rounds = 1
    while True:
        game = make_game(game_id, {"rounds": rounds} if game_id == "kaedama" else {"deals": rounds})
        rec = play(game, ["random"] * game.num_players, 7, keep_record=True)[1]
        assert rec is not None
        if len(rec.actions) >= actions:
            rec.actions = rec.actions[:actions]
            rec.result = None
            return rec
        rounds = max(rounds + 1, rounds * actions // max(1, len(rec.actions)) + 1)


class PerStep:
    """The replay as it was: a clone of the state after every step."""

    def __init__(self, record: Record) -> None:
        _, state = record.new_game()
        self.states: list[State] = [state.clone()]
        for i, (seat, text) in enumerate(record.actions):
            check_action(state, i, seat, text)
            self.states.append(state.clone())

    def state(self, step: int) -> State:
        return self.states[step].clone()

    def observation(self, step: int, seat: int | None) -> dict[str, Any]:
        return self.states[step].observation(seat)


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def measure(kind: str, record_json: dict[str, Any], steps: int) -> dict[str, Any]:
    record = Record.from_json(record_json)
    gc.collect()
    before = rss_kib()
    tracemalloc.start()
    t = time.process_time()
    rp: Any = PerStep(record) if kind == "per-step" else Replay(record)
    build = time.process_time() - t
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    grown = rss_kib() - before
    n = len(record.actions)
    rng = random.Random(1)
    out = {"kind": kind, "actions": n, "rss_growth_mib": grown / 1024, "heap_mib": held / (1 << 20),
           "build_cpu_s": build}
    at_random = [rng.randrange(n + 1) for _ in range(steps)]
    for order, picks in (("in order", list(range(min(n, steps)))), ("at random", at_random)):
        t = time.process_time()
        for k in picks:
            rp.state(k)
            for v in (None, 0, 1):
                rp.observation(k, v)
        out[f"step_{order.replace(' ', '_')}_ms"] = (time.process_time() - t) / len(picks) * 1000
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="kaedama", choices=["kaedama", "mighty", "good-cop"])
    ap.add_argument("--actions", type=int, default=5000)
    ap.add_argument("--steps", type=int, default=300, help="steps looked at, in order and at random")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        kind, path = args.child.split(":", 1)
        with open(path) as f:
            print(json.dumps(measure(kind, json.load(f), args.steps)))
        return
    rec = long_record(args.game, args.actions)
    path = f"/tmp/bench_replay_{args.game}_{args.actions}.json"
    with open(path, "w") as f:
        json.dump(rec.to_json(), f)
    print(f"{args.game}: {len(rec.actions)} actions, a state kept every {CHECKPOINT} steps")
    for kind in ("per-step", "checkpoints"):
        got = json.loads(subprocess.run([sys.executable, __file__, "--child", f"{kind}:{path}", "--steps",
                                         str(args.steps)], check=True, capture_output=True, text=True).stdout)
        print(f"  {kind:12} RSS +{got['rss_growth_mib']:7.1f} MiB  heap {got['heap_mib']:7.1f} MiB  "
              f"build {got['build_cpu_s']:5.2f} s CPU  a step: {got['step_in_order_ms']:.2f} ms in order, "
              f"{got['step_at_random_ms']:.2f} ms at random")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"  (largest child RSS {peak / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
