"""Refused actions raise IllegalAction and change nothing any seat can see."""

from __future__ import annotations

import random

import pytest

from torite.engine.base import Action, IllegalAction

from .conftest import assert_refused, make_game, play, random_playout, setup


def test_playing_out_of_turn_is_refused() -> None:
    state = setup(["5H", "6H", "7H"])
    assert_refused(state, 1, "play 6H")
    assert_refused(state, 2, "play 7H")


def test_playing_a_card_not_in_hand_is_refused() -> None:
    state = setup(["5H", "6H", "7H"])
    assert_refused(state, 0, "play 6H")
    assert_refused(state, 0, Action("play", 1 << 53))  # a joker in the graveyard
    assert_refused(state, 0, Action("play", 1 << 60))  # not a card at all


def test_playing_two_cards_or_none_is_refused() -> None:
    state = setup(["5H 6H"])
    assert_refused(state, 0, "play 5H 6H")
    assert_refused(state, 0, "play")
    assert_refused(state, 0, "play 5H S")


def test_not_following_suit_is_refused() -> None:
    state = setup(["5H", "6H 2S"])
    play(state, "5H")
    assert_refused(state, 1, "play 2S")


@pytest.mark.parametrize("text", ["bury 5H 6H", "trump S", "call H", "pass", "dance 5H"])
def test_a_wrong_kind_of_action_in_play_is_refused(text: str) -> None:
    state = setup(["5H 6H"])
    assert_refused(state, 0, text)


@pytest.mark.parametrize("count", [0, 1, 3])
def test_burying_other_than_two_cards_is_refused(count: int) -> None:
    state = make_game().new_state(2)
    hand = state.observation(0)["hand"]
    assert_refused(state, 0, "bury " + " ".join(hand[:count]))


def test_burying_a_card_of_another_hand_is_refused() -> None:
    state = make_game().new_state(2)
    other = state.observation(1)["hand"][:2]
    assert_refused(state, 0, "bury " + " ".join(other))


def test_burying_twice_is_refused() -> None:
    state = make_game().new_state(2)
    hand = state.observation(0)["hand"]
    state.apply_text(0, f"bury {hand[0]} {hand[1]}")
    assert_refused(state, 0, f"bury {hand[2]} {hand[3]}")


@pytest.mark.parametrize("text", ["play 5H", "trump S", "call H"])
def test_playing_or_declaring_during_the_burial_is_refused(text: str) -> None:
    state = make_game().new_state(2)
    card = state.observation(0)["hand"][0]
    assert_refused(state, 0, text.replace("5H", card))


@pytest.mark.parametrize("text", ["trump S", "call H"])
def test_declaring_when_no_joker_asks_is_refused(text: str) -> None:
    state = setup(["5H", "6H"])
    assert_refused(state, 0, text)
    play(state, "5H")
    assert_refused(state, 1, text)


def test_during_a_declaration_only_the_joker_player_may_act_and_only_declare() -> None:
    state = setup(["5H", "JK1 6H", "7H"])
    play(state, "5H", "JK1")
    assert_refused(state, 2, "play 7H")
    assert_refused(state, 2, "trump S")
    assert_refused(state, 1, "play 6H")
    assert_refused(state, 1, "call H")  # the joker was not led
    assert_refused(state, 1, "trump")
    assert_refused(state, 1, "trump X")
    assert_refused(state, 1, "trump 6H S")


def test_any_action_after_the_game_is_over_is_refused() -> None:
    state = make_game().new_state(2, max_rounds=1)
    random_playout(state, random.Random(2))
    assert state.is_over() and state.to_act() == ()
    for s in range(3):
        assert state.legal_actions(s) == []
        assert_refused(state, s, "play 5H")
        assert_refused(state, s, "bury 5H 6H")


def test_unreadable_text_is_refused_as_illegal() -> None:
    state = setup(["5H"])
    with pytest.raises(IllegalAction):
        state.apply_text(0, "")
    assert_refused(state, 0, "play 5H 5H")
