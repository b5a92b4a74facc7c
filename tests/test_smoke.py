"""The whole pipeline runs: random self-play of every registered game ends with a result."""

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
    assert result.winners
