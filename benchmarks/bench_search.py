"""How fast the search bots search, and what limits them.  Run by hand:

    .venv/bin/python benchmarks/bench_search.py [--seconds 2] [--game ID] [--no-profile]

For every registered game (or ``--game``) it prints determinizations per second (building the
determinizer once, sampling many times), ``clone()`` per second, random rollouts per second to
the end of the round, and the iterations per second of IS-MCTS and PIMC from a few positions
(the start of a round, after a few decisions, late in the round).  Then a cProfile summary of
one IS-MCTS decision: the functions where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable

from torite.bots.search import ISMCTSBot, PIMCBot, SearchBot
from torite.engine.base import Game, State
from torite.engine.registry import game_ids, make_game


def _position(game: Game, seed: int, decisions: int) -> State:
    state = game.new_state(seed=seed, max_rounds=1)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_over():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _rate(fn: Callable[[], object], seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while True:
        fn()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def _positions(game: Game) -> list[tuple[str, State]]:
    out = []
    for label, decisions in (("start", 0), ("early", 8), ("late", 30)):
        state = _position(game, 11, decisions)
        while not state.is_over() and len(state.legal_actions(state.to_act()[0])) < 2:
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
        if not state.is_over():
            out.append((label, state))
    return out


def bench_game(game_id: str, seconds: float) -> None:
    game = make_game(game_id)
    print(f"== {game_id}")
    for label, state in _positions(game):
        bench_position(game, label, state, seconds)


def bench_position(game: Game, label: str, state: State, seconds: float) -> None:
    seat = state.to_act()[0]
    obs = state.observation(seat)
    legal = state.legal_actions(seat)
    det = game.determinizer(obs)
    rng = random.Random(1)
    build = _rate(lambda: game.determinizer(obs), seconds / 4)
    samples = _rate(lambda: det.sample(rng), seconds / 4)
    clones = _rate(state.clone, seconds / 4)

    def rollout() -> None:
        st = det.sample(rng)
        r0 = st.rounds_played
        while not st.is_over() and st.rounds_played == r0:
            s = st.to_act()[0]
            moves = st.legal_actions(s)
            st.apply(s, moves[rng.randrange(len(moves))])

    rollouts = _rate(rollout, seconds / 4)
    print(f"  {label:>5} ({len(legal):3d} legal): determinizer {build:8.0f}/s, samples {samples:8.0f}/s, "
          f"clone {clones:8.0f}/s, sample+random rollout {rollouts:7.0f}/s")
    for cls in (ISMCTSBot, PIMCBot):
        bot: SearchBot = cls(game, seat, random.Random(2), iterations=10**7, time_limit=seconds / 2)
        t0 = time.perf_counter()
        bot.act(obs, legal)
        dt = time.perf_counter() - t0
        print(f"        {bot.name:>6}: {bot.last_iterations / dt:8.0f} iterations/s")


def profile_decision(game_id: str, work: int = 60000, top: int = 14) -> None:
    game = make_game(game_id)
    for label, state in _positions(game)[1:2]:
        seat = state.to_act()[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        bot = ISMCTSBot(game, seat, random.Random(3), iterations=10**7, work=work)
        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.enable()
        bot.act(obs, legal)
        prof.disable()
        dt = time.perf_counter() - t0
        print(f"== profile: one IS-MCTS decision in {game_id} ({label}, work {work}, "
              f"{bot.last_iterations} iterations, {dt:.2f} s under the profiler)")
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
        lines = buf.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(lines[start:]))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement group")
    p.add_argument("--game", action="append", default=None, help="a game id (default: every game)")
    p.add_argument("--no-profile", action="store_true")
    args = p.parse_args()
    games = args.game or game_ids()
    for g in games:
        bench_game(g, args.seconds)
    if not args.no_profile:
        for g in games:
            profile_decision(g)


if __name__ == "__main__":
    main()
