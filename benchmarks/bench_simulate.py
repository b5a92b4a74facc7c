"""The whole ``torite simulate`` command against the lean loop as a whole command.  Run by hand:

    .venv/bin/python benchmarks/bench_simulate.py [--rounds 10000] [--pairs 5] [--game hearts]

Each figure is a process's CPU time (user + system, start-up included, read from the child's
resource usage): ``python -m torite simulate GAME --rounds N --bots random --json`` against a
Python process playing N rounds of the same game with ``lean_loops.py``, alternating (lean,
torite, lean, ...) after a warm-up pair, so both meet the same load; the speed ratio is lean
time / torite time, the median over ``--pairs`` pairs.  The torite that runs is the one
``python`` imports: put ``build/compiled`` first on ``PYTHONPATH`` for the compiled build.
The issue 37 bar: at least 0.8.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LEAN = {"hearts": "hearts_round", "trick-of-the-dead": "trick_of_the_dead_round"}


def cpu_of(cmd: list[str]) -> float:
    """The CPU seconds (user + system) of running ``cmd`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONHASHSEED": "0"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands(game: str, rounds: int) -> tuple[list[str], list[str]]:
    lean = [sys.executable, "-c",
            f"import sys, random; sys.path.insert(0, {str(HERE)!r}); import lean_loops as m; "
            f"rng = random.Random(1); play = m.{LEAN[game]}\n"
            f"for _ in range({rounds}): play(rng)"]
    torite = [sys.executable, "-m", "torite", "simulate", game, "--rounds", str(rounds), "--bots", "random",
              "--seed", "1", "--json"]
    return lean, torite


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--rounds", type=int, default=10_000)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--game", action="append", default=None, help="hearts or trick-of-the-dead (default: both)")
    args = ap.parse_args()
    for game in args.game or list(LEAN):
        lean, torite = commands(game, args.rounds)
        cpu_of(lean), cpu_of(torite)  # warm-up: the file caches, the first imports
        pairs = [(cpu_of(lean), cpu_of(torite)) for _ in range(args.pairs)]
        ratios = [a / b for a, b in pairs]
        print(f"{game:>18}: torite simulate {statistics.median(b for _, b in pairs):.2f} s CPU, lean "
              f"{statistics.median(a for a, _ in pairs):.2f} s, speed ratio {statistics.median(ratios):.2f} "
              f"[{min(ratios):.2f}, {max(ratios):.2f}] ({args.rounds} rounds, {args.pairs} pairs)", flush=True)


if __name__ == "__main__":
    main()
