"""Random games of every game under every rule-changing option combination: they end, the turn
structure holds at every step, cards are conserved, and what the state hands out is JSON."""

from __future__ import annotations

import random

from .harness import (
    Case,
    RandomPlay,
    assert_json_round_trip,
    card_places,
    cards_text,
    check_turn_structure,
    game_deck,
    require,
    viewers,
)

SEEDS = 3


def test_random_games_end_with_a_result_that_adds_up(case: Case) -> None:
    game = case.game()
    n = game.num_players
    for seed in case.seeds(SEEDS):
        state = game.new_state(seed, max_rounds=2)
        for st in RandomPlay(state, random.Random(seed)):
            check_turn_structure(st)
        result = state.result()
        assert len(result.scores) == n
        assert result.winners and set(result.winners) <= set(range(n))
        assert 1 <= state.rounds_played <= 2
        assert len(result.round_scores) == state.rounds_played
        assert all(len(r) == n for r in result.round_scores)
        assert list(result.scores) == [sum(r[s] for r in result.round_scores) for s in range(n)], \
            "the final scores are not the sums of the round scores"
        assert set(state.stats()) == set(game.STAT_KEYS)
        assert_json_round_trip(result.to_json(), "the result")


def test_every_card_of_the_deck_is_in_exactly_one_place_at_every_step(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(SEEDS):
        state = game.new_state(seed, max_rounds=2)
        require(state, "card_places")
        deck = game_deck(game)
        play = RandomPlay(state, random.Random(seed))
        for st in play:
            places = card_places(st)
            assert places and all(isinstance(name, str) and isinstance(m, int) and m >= 0
                                  for name, m in places.items()), f"card_places() = {places}"
            union = 0
            for name, mask in places.items():
                clash = union & mask
                if clash:
                    other = next(o for o, m in places.items() if o != name and m & clash)
                    raise AssertionError(f"after {len(play.actions)} actions {cards_text(clash)} is both in "
                                         f"{other} and in {name}")
                union |= mask
            if deck is None:
                deck = union  # the game declares no deck: the first deal defines it
            assert union == deck, (f"after {len(play.actions)} actions: missing {cards_text(deck & ~union)}, "
                                   f"not of the deck {cards_text(union & ~deck)}")


def test_observations_and_event_data_are_json(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=2)
        checked = 0
        play = RandomPlay(state, random.Random(seed))
        for st in play:
            for v in viewers(st):
                assert_json_round_trip(st.observation(v), f"the observation of {v} after {len(play.actions)} actions")
            for e in st.events[checked:]:
                assert isinstance(e.kind, str) and e.kind
                assert isinstance(e.seat, int) and isinstance(e.visible, int)
                assert_json_round_trip(dict(e.data), f"the data of event {e.kind!r}")
            checked = len(st.events)
