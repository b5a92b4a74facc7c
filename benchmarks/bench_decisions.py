"""How long the search levels think: seconds per decision by game, phase and level.  Run by hand:

    .venv/bin/python benchmarks/bench_decisions.py [--game ID] [--level hard] [--level expert]
                                                   [--rounds 4] [--seed 0] [--json]

For every game (or ``--game``) and level, ``--rounds`` single rounds are played with one seat at
the level and the others ``normal`` (the measured seat moves round by round); every decision of
that seat with at least two legal actions is timed in CPU time of this thread
(``time.thread_time``: on a machine shared with other work, the wall clock measures the others
too; ``--wall`` times the wall clock, as a person at the table waits), with the phase it was in
and the iterations its search ran.  Per game, level and phase: the number of decisions, the
median, the 90th and 99th percentile and the longest.  The budgets are counted (no level reads
the clock), so the same seed plays the same deals and the same searches on every build and
under any load: two builds or two budgets are compared on the same positions.

The bars (issue 37): ``hard`` at most 0.2 s of CPU and ``expert`` at most 1 s at the 99th
percentile, in every game and phase, on the compiled build.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from torite.bots import make_bot
from torite.bots.search import SearchBot
from torite.build import build_name
from torite.engine.base import Action
from torite.engine.bot import Bot
from torite.engine.driver import run
from torite.engine.registry import game_ids, make_game


class Timed(Bot):
    """Wraps a bot: times every decision with a choice and notes its phase."""

    def __init__(self, inner: Bot, log: list[tuple[str, float, int]], clock: Callable[[], float]) -> None:
        super().__init__(inner.game, inner.seat, inner.rng)
        self.inner, self.log, self.clock = inner, log, clock

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        t0 = self.clock()
        action = self.inner.act(obs, legal)
        dt = self.clock() - t0
        if len(legal) > 1:
            iterations = self.inner.last_iterations if isinstance(self.inner, SearchBot) else 0
            self.log.append((str(obs.get("phase")), dt, iterations))
        return action


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(game_id: str, level: str, rounds: int, seed: int,
            clock: Callable[[], float] = time.thread_time) -> dict[str, dict[str, Any]]:
    game = make_game(game_id)
    n = game.num_players
    log: list[tuple[str, float, int]] = []
    for r in range(rounds):
        seat = r % n
        state = game.new_state(seed + r, dealer=r % n, max_rounds=1, first_round=r)
        bots: dict[int, Bot] = {s: make_bot("normal", game, s, random.Random(1000 * r + s)) for s in range(n)}
        bots[seat] = Timed(make_bot(level, game, seat, random.Random(1000 * r + seat)), log, clock)
        run(state, bots)
    phases: dict[str, dict[str, Any]] = {}
    for phase in dict.fromkeys(p for p, _, _ in log):
        times = [t for p, t, _ in log if p == phase]
        its = [i for p, _, i in log if p == phase]
        phases[phase] = {"decisions": len(times), "median": statistics.median(times), "p90": quantile(times, 0.9),
                         "p99": quantile(times, 0.99), "max": max(times), "iterations_median": statistics.median(its)}
    return phases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", default=None, help="a game id (repeatable; default: all)")
    ap.add_argument("--level", action="append", default=None, help="a level (repeatable; default: hard, expert)")
    ap.add_argument("--rounds", type=int, default=4, help="single rounds a game and level")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--wall", action="store_true", help="time the wall clock, not this thread's CPU time")
    args = ap.parse_args()
    clock = time.perf_counter if args.wall else time.thread_time
    games = args.game or game_ids()
    levels = args.level or ["hard", "expert"]
    what = "wall" if args.wall else "CPU"
    out: dict[str, Any] = {"build": build_name(), "rounds": args.rounds, "seed": args.seed, "clock": what, "games": {}}
    if not args.json:
        print(f"{what} seconds a decision ({build_name()} build; one seat at the level, the others normal, "
              f"{args.rounds} rounds; decisions with a choice)")
        print(f"{'game':<18} {'level':<7} {'phase':<10} {'n':>4} {'median':>7} {'p90':>7} {'p99':>7} {'max':>7} "
              f"{'iterations':>10}")
    for g in games:
        out["games"][g] = {}
        for level in levels:
            rows = measure(g, level, args.rounds, args.seed, clock)
            out["games"][g][level] = rows
            if not args.json:
                for phase, row in rows.items():
                    print(f"{g:<18} {level:<7} {phase:<10} {row['decisions']:>4} {row['median']:>7.3f} "
                          f"{row['p90']:>7.3f} {row['p99']:>7.3f} {row['max']:>7.3f} "
                          f"{row['iterations_median']:>10.0f}", flush=True)
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
