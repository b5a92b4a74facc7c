"""Play: turn order, must-follow, jokers, trump (rulings J1 and A1)."""

from __future__ import annotations

import pytest

from torite.cards import parse_card
from torite.engine.base import Action
from torite.games.trick_of_the_dead.rules import winning_index

from .conftest import assert_refused, names, play, setup


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_first_lead_is_the_dealers_left(dealer: int) -> None:
    state = setup(dealer=dealer)
    assert state.to_act() == ((dealer + 1) % 3,)
    assert state.observation(None)["leader"] == (dealer + 1) % 3


@pytest.mark.parametrize("dealer", [0, 1])
def test_first_lead_is_the_dealers_left_with_two_players(dealer: int) -> None:
    state = setup(dealer=dealer, players=2)
    assert state.to_act() == (1 - dealer,)


def test_play_goes_clockwise_one_card_each() -> None:
    state = setup(["2S", "3S", "4S"], dealer=0)  # seat 1 leads
    assert state.to_act() == (1,)
    state.apply_text(1, "play 3S")
    assert state.to_act() == (2,)
    state.apply_text(2, "play 4S")
    assert state.to_act() == (0,)
    state.apply_text(0, "play 2S")
    assert len(state.history) == 1
    assert [c for c in state.history[0]["cards"]] == ["3S", "4S", "2S"]


def test_trick_winner_leads_the_next_trick() -> None:
    state = setup(["2S 3H", "3S", "AS"])
    play(state, "2S", "3S", "AS")
    assert state.history[-1]["winner"] == 2
    assert state.to_act() == (2,)
    assert state.observation(0)["leader"] == 2


def test_must_follow_the_led_suit() -> None:
    state = setup(["5H", "9H 2S 3C", "KH"])
    play(state, "5H")
    legal = {str(a) for a in state.legal_actions(1)}
    hearts = {c for c in state.observation(1)["hand"] if c.endswith("H")}
    assert legal == {f"play {c}" for c in hearts}
    assert_refused(state, 1, "play 2S")
    assert_refused(state, 1, "play 3C")
    state.apply_text(1, "play 9H")


def test_a_joker_may_be_played_at_any_time_even_when_able_to_follow() -> None:
    state = setup(["5H", "9H JK1", "KH"])
    play(state, "5H")
    assert Action("play", 1 << 52) in state.legal_actions(1)
    state.apply_text(1, "play JK1")
    assert state.observation(None)["phase"] == "trump"  # the first joker declares


def test_a_player_who_cannot_follow_may_play_any_card() -> None:
    state = setup(["5H", "2S 3C 4D", "KH"], voids={1: "H"})
    play(state, "5H")
    legal = {str(a)[5:] for a in state.legal_actions(1)}
    assert legal == set(state.observation(1)["hand"])
    assert len(legal) == 14
    state.apply_text(1, "play 3C")


def test_the_leader_may_lead_any_card() -> None:
    state = setup(["2C 5H AS JK1"])
    assert {str(a)[5:] for a in state.legal_actions(0)} == set(state.observation(0)["hand"])


def test_led_joker_names_the_suit_to_follow_ruling_j1() -> None:
    state = setup(["JK1", "9H 2D", "KH 3D"])
    play(state, "JK1", "trump S", "call H")
    obs = state.observation(1)
    assert obs["led"] == "H"
    legal = {str(a)[5:] for a in state.legal_actions(1)}
    assert legal == {c for c in obs["hand"] if c.endswith("H")}
    assert_refused(state, 1, "play 2D")
    play(state, "9H")
    assert_refused(state, 2, "play 3D")
    play(state, "KH")


def test_led_joker_call_makes_a_void_player_free() -> None:
    state = setup(["JK1", "2D", "KH"], voids={1: "H"})
    play(state, "JK1", "trump S", "call H")
    assert len(state.legal_actions(1)) == 14


def test_led_first_joker_declares_trump_first_then_the_called_suit_ruling_a1() -> None:
    state = setup(["JK1"])
    state.apply_text(0, "play JK1")
    assert state.observation(None)["phase"] == "trump"
    assert state.to_act() == (0,)
    assert {str(a) for a in state.legal_actions(0)} == {"trump C", "trump D", "trump H", "trump S"}
    assert_refused(state, 0, "call H")
    state.apply_text(0, "trump D")
    assert state.observation(None)["phase"] == "call"
    assert state.to_act() == (0,)
    assert {str(a) for a in state.legal_actions(0)} == {"call C", "call D", "call H", "call S"}
    assert_refused(state, 0, "trump H")
    state.apply_text(0, "call H")
    obs = state.observation(2)
    assert (obs["trump"], obs["led"], obs["phase"], state.to_act()) == ("D", "H", "play", (1,))


def test_led_second_joker_only_names_the_suit() -> None:
    state = setup(["2S 6S JK1", "JK2 3S", "4S 5S"])
    play(state, "2S", "JK2", "trump C", "4S")  # seat 1's first joker wins and declares clubs
    play(state, "3S", "5S", "6S")  # seat 0 wins with the six
    assert state.to_act() == (0,)
    state.apply_text(0, "play JK1")
    assert state.observation(None)["phase"] == "call"
    assert {str(a) for a in state.legal_actions(0)} == {"call C", "call D", "call H", "call S"}
    assert_refused(state, 0, "trump H")
    state.apply_text(0, "call S")
    obs = state.observation(None)
    assert (obs["trump"], obs["led"], state.to_act()) == ("C", "S", (1,))


def test_there_is_no_trump_at_the_start_of_a_round() -> None:
    state = setup(["5H", "2S", "KH"], voids={1: "H"})
    obs = state.observation(0)
    assert obs["trump"] is None and obs["trump_in_force"] is None
    play(state, "5H", "2S", "KH")
    assert state.history[-1]["winner"] == 2  # a spade does not trump a heart


def test_first_joker_declares_trump_even_when_not_led() -> None:
    state = setup(["5H", "JK1", "KH"])
    play(state, "5H", "JK1")
    assert state.observation(None)["phase"] == "trump"
    assert state.to_act() == (1,)
    assert_refused(state, 2, "play KH")
    play(state, "trump S")
    obs = state.observation(0)
    assert obs["trump"] == "S" and obs["led"] == "H" and obs["need_call"] is False
    assert state.to_act() == (2,)


def test_trump_takes_effect_from_the_next_trick() -> None:
    # trick 1: seat 1 (void in hearts) plays AS, seat 2 the first joker and declares spades.
    # Were spades trump at once, the ace of trumps played first would win (W1); it does not.
    state = setup(["5H AH", "AS 2S", "JK1 6H"], voids={1: "H"})
    play(state, "5H", "AS", "JK1", "trump S")
    assert state.history[-1]["winner"] == 2
    assert state.observation(0)["trump_in_force"] == "S"
    # trick 2: now the 2S trumps the ace of hearts
    play(state, "6H", "AH", "2S")
    assert state.history[-1]["winner"] == 1


def test_second_joker_declares_nothing() -> None:
    state = setup(["5H 6H", "JK1 7H", "JK2 8H"])
    play(state, "5H", "JK1", "trump S", "8H")
    assert state.history[-1]["winner"] == 1
    play(state, "7H", "JK2")
    assert state.observation(None)["phase"] == "play"
    assert state.to_act() == (0,)
    assert state.observation(None)["trump"] == "S"
    assert_refused(state, 2, "trump D")


def test_trump_is_one_of_the_four_suits() -> None:
    state = setup(["5H", "JK1"])
    play(state, "5H", "JK1")
    for bad in ("trump X", "trump CD", "trump", "trump NT"):
        assert_refused(state, 1, bad)
    play(state, "trump C")


def test_joker_alone_is_the_strongest_card_without_trump() -> None:
    state = setup(["AS", "KS", "JK1"])
    play(state, "AS", "KS", "JK1", "trump H")
    assert state.history[-1]["winner"] == 2


def test_led_joker_wins_without_trump() -> None:
    state = setup(["JK1", "AH", "KH"])
    play(state, "JK1", "trump C", "call H", "AH", "KH")
    assert state.history[-1]["winner"] == 0


def test_first_joker_wins_a_trick_with_both_jokers_without_trump_ruling_w1() -> None:
    state = setup(["AS", "JK2", "JK1"])
    play(state, "AS", "JK2", "trump H", "JK1")
    assert state.history[-1]["winner"] == 1


def _with_spade_trump(hands: list[str], voids: dict[int, str] | None = None):  # type: ignore[no-untyped-def]
    """A state where spades became trump in trick 1 (seat 0's joker wins it and leads trick 2).

    Seat 0 holds JK1 and 2C; seats 1 and 2 answer with 3C and 4C.
    """
    base = ["JK1 2C", "3C", "4C"]
    full = [f"{base[s]} {hands[s]}" for s in range(3)]
    state = setup(full, voids=voids)
    play(state, "JK1", "trump S", "call C", "3C", "4C")
    assert state.to_act() == (0,)
    assert state.observation(0)["trump_in_force"] == "S"
    return state


def test_with_trump_a_joker_counts_as_the_ace_of_trumps() -> None:
    state = _with_spade_trump(["5H", "KS", "JK2"], voids={1: "H", 2: "H"})
    play(state, "5H", "KS", "JK2")
    assert state.history[-1]["winner"] == 2


def test_with_trump_the_ace_of_trumps_played_before_a_joker_wins_ruling_w1() -> None:
    state = _with_spade_trump(["5H", "AS", "JK2"], voids={1: "H", 2: "H"})
    play(state, "5H", "AS", "JK2")
    assert state.history[-1]["winner"] == 1


def test_with_trump_a_joker_played_before_the_ace_of_trumps_wins_ruling_w1() -> None:
    state = _with_spade_trump(["5H", "JK2", "AS"], voids={1: "H", 2: "H"})
    play(state, "5H", "JK2", "AS")
    assert state.history[-1]["winner"] == 1


def test_with_trump_a_joker_beats_a_lower_trump_played_before_it() -> None:
    state = _with_spade_trump(["5H", "QS", "JK2"], voids={1: "H", 2: "H"})
    play(state, "5H", "QS", "JK2")
    assert state.history[-1]["winner"] == 2


def test_two_jokers_tie_to_the_first_played_ruling_w1() -> None:
    # In play both jokers meet only in the trick of the first joker (no trump yet); the rule
    # itself also orders them with a trump in force.
    for trump in (-1, 0, 3):
        assert winning_index([parse_card("2H"), 53, 52], 2, trump) == 1
        assert winning_index([52, 53, parse_card("AS")], 3, trump) == 0


def test_highest_trump_wins() -> None:
    state = _with_spade_trump(["AH", "3S", "9S"], voids={1: "H", 2: "H"})
    play(state, "AH", "3S", "9S")
    assert state.history[-1]["winner"] == 2


def test_a_trump_beats_the_led_suit() -> None:
    state = _with_spade_trump(["AH", "2S", "KH"], voids={1: "H"})
    play(state, "AH", "2S", "KH")
    assert state.history[-1]["winner"] == 1


def test_without_a_trump_played_the_highest_card_of_the_led_suit_wins() -> None:
    state = setup(["5H", "AD", "9H"], voids={1: "H"})
    play(state, "5H", "AD", "9H")
    assert state.history[-1]["winner"] == 2


def test_trump_led_is_followed_like_any_suit() -> None:
    state = _with_spade_trump(["2S", "3S 5H", "4S"])
    play(state, "2S")
    assert_refused(state, 1, "play 5H")
    play(state, "3S", "4S")
    assert state.history[-1]["winner"] == 2


def test_only_the_first_joker_of_the_round_declares() -> None:
    state = _with_spade_trump(["5H", "JK2", "6H"], voids={1: "H"})
    play(state, "5H", "JK2")
    assert state.observation(None)["phase"] == "play"
    assert state.observation(None)["trump"] == "S"
    assert names(state.observation(None)["trick"][i]["card"] for i in range(2)) == {"5H", "JK2"}
