"""IS-MCTS iterations per CPU-second, every game.  Run by hand:

    .venv/bin/python benchmarks/bench_iterations.py [--work 20000] [--repeats 3] [--game ID] [--json]

One IS-MCTS decision of a fixed ``--work`` budget (counted, so the same search on any build and
under any load) from each of three positions (the start of a round, after 8 and after 30 random
decisions), timed in CPU time of this thread (``time.thread_time``: on a machine shared with
other work, wall time measures the others too); per game, the iterations over the CPU seconds,
the best of ``--repeats``.  To compare two builds, run it alternately under each
(``PYTHONPATH=build/compiled``).  ``bench_search.py`` says where a search's time goes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from torite.bots.search import ISMCTSBot
from torite.engine.base import Game, State
from torite.engine.registry import game_ids, make_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import _position as search_position


def _position(game: Game, seed: int, decisions: int) -> State:
    """bench_search's position, then on to a decision with a choice (a search to time)."""
    state = search_position(game, seed, decisions)
    while not state.is_over() and len(state.legal_actions(state.to_act()[0])) < 2:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def rate(games: list[str], work: int, repeats: int) -> dict[str, float]:
    """Iterations per CPU-second of one IS-MCTS decision of ``work``, per game (the three
    positions' iterations over their CPU time, best of ``repeats``)."""
    out: dict[str, float] = {}
    for gid in games:
        game = make_game(gid)
        positions = [_position(game, 11, d) for d in (0, 8, 30)]
        positions = [p for p in positions if not p.is_over()]
        best = 0.0
        for _ in range(repeats):
            done, spent = 0, 0.0
            for state in positions:
                seat = state.to_act()[0]
                obs, legal = state.observation(seat), state.legal_actions(seat)
                bot = ISMCTSBot(game, seat, random.Random(2), iterations=10**7, work=work)
                t0 = time.thread_time()
                bot.act(obs, legal)
                spent += time.thread_time() - t0
                done += bot.last_iterations
            best = max(best, done / spent if spent > 0 else 0.0)
        out[gid] = best
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--work", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--game", action="append", default=None, help="a game id (default: every game)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rates = rate(args.game or list(game_ids()), args.work, args.repeats)
    if args.json:
        print(json.dumps(rates))
        return
    for gid, r in rates.items():
        print(f"{gid:>18}: {r:8.0f} IS-MCTS iterations per CPU-second (work {args.work})")


if __name__ == "__main__":
    main()
