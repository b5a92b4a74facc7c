"""How long ``torite compare`` takes: per deal, the analysis and the report, and a projection.

    .venv/bin/python benchmarks/bench_compare.py [--deals 10] [--games trick-of-the-dead,kaedama] [--jobs 1]
        [--bots normal] [-o KEY=VALUE] [--projected 300] [--profile]

For each game: two variants (its defaults twice, so both play the full work), the table's bots
``--bots`` (``hard`` for the search bots), skill ``normal`` against ``random``.  Prints the wall
time, the processor time per deal (every variant of the deal: the work a worker does, whatever
the machine's load), the rounds played per second, the analysis and HTML times, and the
projected wall time of ``--projected`` deals on ``--jobs`` idle cores (processor time per deal ×
deals ÷ jobs: deals spread over the workers one at a time).

``--profile`` plays the deals in this process under cProfile and prints where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from torite.cli.common import parse_options
from torite.compare import make_variants, run_experiment
from torite.compare.analysis import analyze
from torite.compare.report import render
from torite.engine.registry import game_ids, make_game


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--games", default=None, help="comma-separated ids (default: every registered game)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--bots", default="normal", help="the table's bot at every seat (default normal)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of both variants, e.g. target=50")
    p.add_argument("--projected", type=int, default=300, help="deals of the projection (default 300)")
    p.add_argument("--profile", action="store_true", help="profile the play (in this process)")
    args = p.parse_args()
    games = args.games.split(",") if args.games else game_ids()
    common = parse_options(args.option)
    print(f"bots {args.bots}, {args.deals} deals × 2 variants, jobs {args.jobs}")
    print(f"{'game':<20} {'wall s':>8} {'cpu s/deal':>11} {'rounds/s':>9} {'analysis s':>11} {'html s':>7} "
          f"{f'{args.projected} deals, {args.jobs} jobs':>20}")
    for gid in games:
        variants = make_variants(gid, ["a", "b"], common)
        n = make_game(gid, variants[0].options).num_players
        profiler = cProfile.Profile() if args.profile else None
        t0 = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        exp = run_experiment(gid, variants, [args.bots] * n, deals=args.deals, jobs=1 if profiler else args.jobs)
        if profiler is not None:
            profiler.disable()
        play = time.perf_counter() - t0
        rounds = sum(len(u.round_points) + len(u.duplicate) for us in exp.units for u in us)
        t1 = time.perf_counter()
        out = analyze(exp)
        t2 = time.perf_counter()
        render(out)
        t3 = time.perf_counter()
        per = exp.cpu_seconds / args.deals
        projected = per * args.projected / args.jobs + (t3 - t1)
        print(f"{gid:<20} {play:8.1f} {per:11.2f} {rounds / play:9.1f} {t2 - t1:11.3f} {t3 - t2:7.2f} "
              f"{projected / 3600:16.2f} h ({projected:.0f} s)")
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
