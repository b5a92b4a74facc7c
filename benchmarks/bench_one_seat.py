"""One seat's bot against another on the same deals, the other seats fixed: a paired estimate for
games with many seats, where the arena's every-seating plan is too slow for a search bot (Mighty:
30 seatings of five seats, about 0.9 s a search decision).

Deal ``d`` is played twice from the same seed, dealer and bots' seeds: once with ``--bot`` in seat
``d mod players`` and once with ``--baseline`` there; every other seat plays ``--others``.  The
figure is the mean of (points with --bot − points with --baseline) over the deals, with a 95%
interval, in the direction the game wants (``SCORE_SIGN``: for Hearts, penalty points avoided).
The README's hard − normal figures for Mighty, Umbridge and Galapagos come from here:

    .venv/bin/python benchmarks/bench_one_seat.py mighty --deals 100 --seed 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from torite.bots import make_bot
from torite.engine.driver import run
from torite.engine.registry import make_game
from torite.stats import mean_ci


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--bot", default="hard")
    p.add_argument("--baseline", default="normal")
    p.add_argument("--others", default="normal")
    p.add_argument("--deals", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    game = make_game(args.game)
    n = game.num_players
    diffs: list[float] = []
    start = time.perf_counter()
    for d in range(args.deals):
        seat = d % n
        pts = []
        for level in (args.bot, args.baseline):
            state = game.new_state(args.seed + d, dealer=d % n, max_rounds=1)
            bots = {s: make_bot(level if s == seat else args.others, game, s, random.Random(11 * d + s + 3))
                    for s in range(n)}
            run(state, bots)
            pts.append(state.result().scores[seat])
        diffs.append(float(game.SCORE_SIGN * (pts[0] - pts[1])))
        ci = mean_ci(diffs)
        print(f"deal {d}: seat {seat} {args.bot} {pts[0]:+d} vs {args.baseline} {pts[1]:+d}   "
              f"mean {ci.mean:+.2f} [{ci.low:+.2f}, {ci.high:+.2f}]", flush=True)
    ci = mean_ci(diffs)
    print(f"{args.game}: {args.bot} − {args.baseline} in one seat, others {args.others}: {ci.mean:+.2f} "
          f"[{ci.low:+.2f}, {ci.high:+.2f}] a deal over {len(diffs)} deals, {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
