"""How long ``torite compare`` takes: seconds per deal and variant for each game, the analysis and the report.

    .venv/bin/python benchmarks/bench_compare.py [--deals 10] [--games trick-of-the-dead,kaedama] [--jobs 1]

For each game: two variants (its defaults twice, so both play the full work), the table's bots
``normal``, skill ``normal`` against ``random``.  Prints the play time per deal and variant, the
rounds played per second, the analysis and HTML times, and the projected time of a 200-deal,
3-variant comparison with the same jobs.
"""

from __future__ import annotations

import argparse
import time

from torite.compare import make_variants, run_experiment
from torite.compare.analysis import analyze
from torite.compare.report import render
from torite.engine.registry import game_ids, make_game


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--games", default=None, help="comma-separated ids (default: every registered game)")
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    games = args.games.split(",") if args.games else game_ids()
    print(f"{'game':<20} {'s/deal/variant':>15} {'rounds/s':>9} {'analysis s':>11} {'html s':>7} "
          f"{'200×3 projected':>16}")
    for gid in games:
        variants = make_variants(gid, ["a", "b"])
        n = make_game(gid).num_players
        t0 = time.perf_counter()
        exp = run_experiment(gid, variants, ["normal"] * n, deals=args.deals, jobs=args.jobs)
        play = time.perf_counter() - t0
        rounds = sum(len(u.round_points) + len(u.duplicate) for us in exp.units for u in us)
        t1 = time.perf_counter()
        out = analyze(exp)
        t2 = time.perf_counter()
        render(out)
        t3 = time.perf_counter()
        per = play / (args.deals * len(variants))
        print(f"{gid:<20} {per:15.3f} {rounds / play:9.1f} {t2 - t1:11.3f} {t3 - t2:7.2f} "
              f"{per * 600 + (t3 - t1):15.0f}s")


if __name__ == "__main__":
    main()
