"""The bounds a game declares (``game.bounds()``: what one round can score and how many decisions
it can take, written from its rules) hold in random play: the research adapters hand them to
OpenSpiel as its utility bounds and game length, so a bound that play exceeds is a bug."""

from __future__ import annotations

import random

from torite.engine.base import Bounds, Game, State

from .harness import Case, random_move

ROUNDS = 5


def _round_decisions(state: State, rng: random.Random) -> list[tuple[int, int]]:
    """Play to the end at random; per round scored, its decisions and its deals (the kit shows
    each seat its hand once a deal: a deal thrown in and dealt again within the round counts)."""
    out = []
    decisions, seen = 0, 0
    while not state.is_over():
        seat, action = random_move(state, rng)
        state.apply(seat, action)
        decisions += 1
        if state.rounds_played > len(out):
            events = state.events
            deals = sum(1 for e in events[seen:] if e.kind == "deal") // state.game.num_players
            seen = len(events)
            out.append((decisions, deals))
            decisions = 0
    return out


def _check(game: Game, bounds: Bounds, state: State, rng: random.Random) -> None:
    lo, hi = bounds.round_score
    rlo, rhi = bounds.returns(game.SCORE_SIGN)
    rounds = _round_decisions(state, rng)
    result = state.result()
    assert len(rounds) == len(result.round_scores)
    for (decisions, deals), points in zip(rounds, result.round_scores):
        assert all(lo <= p <= hi for p in points), f"round scores {points} outside {bounds.round_score}"
        returns = game.round_returns(points)
        assert all(rlo <= r <= rhi for r in returns), f"returns {returns} outside {(rlo, rhi)}"
        # a deal thrown in is dealt again: the round may take that many decisions more
        most = bounds.round_actions + max(0, deals - 1) * bounds.thrown_in_actions
        assert decisions <= most, f"a round took {decisions} decisions, more than {most}"


def test_random_play_stays_within_the_declared_bounds(case: Case) -> None:
    game = case.game()
    bounds = game.bounds()
    assert bounds.round_score[0] <= bounds.round_score[1] and bounds.round_actions > 0
    assert game.schema()["bounds"]["round_actions"] == bounds.round_actions  # type: ignore[attr-defined]
    for k, seed in enumerate(case.seeds(ROUNDS)):
        n = game.num_players
        _check(game, bounds, game.new_state(seed, max_rounds=1, dealer=k % n, first_round=k), random.Random(seed))
    seed = case.seeds(ROUNDS + 1)[-1]
    _check(game, bounds, game.new_state(seed, max_rounds=3), random.Random(seed))


def test_returns_add_up_the_rounds() -> None:
    """A game's returns are the sum of its rounds' returns; by default the points times the
    score's sign, and the Hearts yardstick's are OpenSpiel's ``26 - points`` a deal."""
    from torite.engine.base import Result
    from torite.engine.registry import make_game

    result = Result((5, 27, 20, 26), (0,), ((3, 1, 20, 2), (2, 26, 0, 24)), ())
    assert make_game("hearts").returns(result) == (47.0, 25.0, 32.0, 26.0)
    assert make_game("hearts").returns(result, since=1) == (24.0, 0.0, 26.0, 2.0)
    tod = Result((10, -4, 7), (0,), ((10, -4, 7),), ())
    assert make_game("trick-of-the-dead").returns(tod) == (10.0, -4.0, 7.0)
