"""The whole pipeline runs: random self-play of every registered game ends with a result that
is whole: every round's points add up to the totals, and the winners are seats (who wins by
which total is each game's own rule, tested with the game)."""

import random

import pytest

from torite.engine import game_ids, make_game


@pytest.mark.parametrize("game_id", game_ids())
def test_random_self_play_reaches_the_end(game_id: str) -> None:
    game = make_game(game_id)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_over():
        for seat in state.to_act():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.result()
    assert len(result.scores) == game.num_players
    assert result.round_scores, "no round was played"
    assert [sum(col) for col in zip(*result.round_scores)] == list(result.scores)
    assert result.winners and set(result.winners) <= set(range(game.num_players))
