"""Bid and Call's own rules (``rules.en.md``): the auction, the call, the hidden partner, the
tricks and the score.  What every game must do (random games, clones, the determinizer, records,
leaks) is the conformance suite's, which runs over this game too (``tests/conftest.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from example_game.rules import BidAndCall, BidAndCallState, winning_index
from torite.cards import card_str, parse_card
from torite.engine.base import IllegalAction, Result

GAME = BidAndCall()
C, D, H, S, NT = 0, 1, 2, 3, -1


def deal(*hands: str) -> dict[str, Any]:
    """An explicit deal: three hands as texts, the other 43 cards unused in deck order."""
    cards = [h.split() for h in hands]
    held = {parse_card(c) for h in cards for c in h}
    return {"hands": cards, "unused": [card_str(c) for c in range(52) if c not in held]}


def start(*hands: str) -> BidAndCallState:
    """A game of these hands; seat 2 deals, so seat 0 speaks first."""
    state = GAME.new_state(1, dealer=2, deals=[deal(*hands)])
    assert isinstance(state, BidAndCallState)
    return state


def act(state: BidAndCallState, *moves: str) -> None:
    """Each move by the seat to act."""
    for text in moves:
        state.apply_text(state.to_act()[0], text)


def kinds(state: BidAndCallState, seat: int) -> set[str]:
    return {a.kind for a in state.legal_actions(seat)}


def texts(state: BidAndCallState, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


SPADES = ("AS KS QS", "AH KH QH", "AD KD QD")  # seat 0 takes every trick at spades
# seat 0 calls AC: seat 1 holds it; seat 0's spades take two tricks, seat 1's AC the third
PARTNERS = ("AS KS 2C", "AC 3D 4D", "AH KH QH")


# --------------------------------------------------------------------------- the auction
def test_the_player_left_of_the_dealer_speaks_first_and_the_auction_goes_clockwise() -> None:
    state = start(*SPADES)
    assert state.phase == "bid" and state.to_act() == (0,)
    act(state, "bid 1 C")
    assert state.to_act() == (1,)
    act(state, "pass")
    assert state.to_act() == (2,)
    assert state.observation(None)["auction"] == [[0, "bid 1 C"], [1, "pass"]]


def test_the_first_bid_may_be_any_of_the_fifteen_and_pass_is_always_allowed() -> None:
    state = start(*SPADES)
    legal = texts(state, 0)
    assert legal[:5] == ["bid 1 C", "bid 1 D", "bid 1 H", "bid 1 S", "bid 1 NT"]
    assert len([t for t in legal if t.startswith("bid")]) == 15 and "pass" in legal
    assert "double" not in legal and "redouble" not in legal


def test_a_bid_must_top_the_last_and_a_higher_level_beats_any_denomination() -> None:
    state = start(*SPADES)
    act(state, "bid 1 NT")
    legal = texts(state, 1)
    assert "bid 1 NT" not in legal and "bid 1 S" not in legal and "bid 2 C" in legal
    with pytest.raises(IllegalAction):
        state.apply_text(1, "bid 1 S")
    act(state, "bid 2 C")
    assert state.observation(None)["contract"] == "2 C" and state.observation(None)["declarer"] == 1


def test_two_passes_after_the_last_bid_end_the_auction_and_the_declarer_calls() -> None:
    state = start(*SPADES)
    act(state, "pass", "bid 2 H", "pass")
    assert state.phase == "bid" and state.to_act() == (0,)
    act(state, "pass")
    assert state.phase == "call" and state.to_act() == (1,)
    obs = state.observation(2)
    assert (obs["contract"], obs["declarer"], obs["doubled"], obs["trump"]) == ("2 H", 1, 0, "H")
    assert state.events[-1].kind == "contract" and dict(state.events[-1].data) == {"bid": "2 H", "doubled": 0}


def test_three_passes_without_a_bid_end_the_game_with_no_contract_and_nobody_scoring() -> None:
    state = start(*SPADES)
    act(state, "pass", "pass", "pass")
    assert state.is_over()
    assert state.result() == Result((0, 0, 0), (0, 1, 2), ((0, 0, 0),))
    end = next(e for e in state.events if e.kind == "round_end")
    assert end.data["made"] is None


def test_only_another_player_may_double_a_bid_and_only_once() -> None:
    state = start(*SPADES)
    act(state, "bid 1 S")
    assert "double" in kinds(state, 1)
    act(state, "double")
    assert state.observation(None)["doubled"] == 1
    assert "double" not in kinds(state, 2)
    act(state, "pass")
    assert "double" not in kinds(state, 0)  # its own bid


def test_only_the_doubled_bidder_may_redouble() -> None:
    state = start(*SPADES)
    act(state, "bid 1 S", "double")
    assert "redouble" not in kinds(state, 2)
    act(state, "pass")
    assert "redouble" in kinds(state, 0)
    act(state, "redouble")
    assert state.observation(None)["doubled"] == 2
    assert not {"double", "redouble"} & kinds(state, 1)


def test_a_double_needs_two_more_passes_and_a_new_bid_cancels_it() -> None:
    state = start(*SPADES)
    act(state, "bid 1 S", "pass", "double")
    assert state.phase == "bid"  # two passes counted after the double, not after the bid
    act(state, "pass")
    assert state.phase == "bid"
    act(state, "bid 2 C")
    assert state.observation(None)["doubled"] == 0 and state.observation(None)["declarer"] == 1


# --------------------------------------------------------------------------- the call
def test_the_declarer_may_call_any_card_not_in_its_own_hand() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass")
    legal = texts(state, 0)
    assert len(legal) == 49 and all(t.startswith("call ") for t in legal)
    assert not {"call AS", "call KS", "call 2C"} & set(legal)
    assert {"call AC", "call QH", "call 2D"} <= set(legal)
    with pytest.raises(IllegalAction):
        state.apply_text(0, "call KS")


def test_the_called_card_is_public_and_the_declarer_leads_the_first_trick() -> None:
    state = start(*PARTNERS)
    act(state, "pass", "pass", "bid 1 S", "pass", "pass")  # seat 2 is the declarer
    act(state, "call 2C")
    assert state.observation(None)["called"] == "2C"
    assert state.phase == "play" and state.to_act() == (2,)


# --------------------------------------------------------------------------- the hidden partner
def test_the_partner_knows_itself_and_nobody_else_knows_it_before_the_card_is_played() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC")
    for viewer in (0, 2, None):
        obs = state.observation(viewer)
        assert obs["partner"] is None and obs["partner_shown"] is False
    assert state.observation(1)["partner"] == 1
    act(state, "play AS", "play 3D", "play QH", "play KS", "play 4D", "play KH")
    assert state.observation(0)["partner"] is None  # the card is still in a hand


def test_no_event_tells_who_the_partner_is_until_the_called_card_is_played() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC", "play AS", "play 3D", "play QH", "play KS", "play 4D",
        "play KH", "play 2C")
    assert not [e for e in state.events if e.kind == "partner"]
    act(state, "play AC")
    play, shown = state.events[-2:]
    assert (play.kind, dict(play.data)) == ("play", {"card": "AC"}) and shown.kind == "partner"
    assert shown.seat == 1 and dict(shown.data) == {"card": "AC", "partner": 1, "declarer": 0}


def test_playing_the_called_card_reveals_the_partner_to_everyone() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC", "play 2C", "play AC")
    for viewer in (0, 1, 2, None):
        obs = state.observation(viewer)
        assert obs["partner"] == 1 and obs["partner_shown"] is True
    assert [t["partner_card"] for t in state.observation(None)["trick"]] == [False, True]


def test_a_called_card_nobody_holds_leaves_the_declarer_alone_which_shows_at_the_end() -> None:
    state = start(*SPADES)
    act(state, "bid 3 S", "pass", "pass", "call 2S")  # an unused card
    act(state, "play AS", "play AH", "play AD", "play KS", "play KH", "play KD")
    assert state.observation(0)["partner"] is None
    act(state, "play QS", "play QH", "play QD")
    assert state.is_over()
    assert state.observation(2)["partner"] == -1
    alone = next(e for e in state.events if e.kind == "partner")
    assert alone.seat == -1 and alone.data["partner"] is None
    assert state.result().teams == ((0,), (1, 2))


def test_a_sampled_world_puts_the_called_card_with_the_partner_it_samples() -> None:
    """Seat 2 does not know whether seat 1 or nobody holds AC: its worlds have both, and the
    partner of each world is whoever holds the card there."""
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC")
    partners = set()
    ac = parse_card("AC")
    for i in range(200):
        world = state.determinize(2, random.Random(i))
        assert isinstance(world, BidAndCallState)
        holder = next((s for s, h in enumerate(world.hands) if h >> ac & 1), -1)
        assert world.partner == holder and holder != 2
        assert world.observation(2)["partner"] is None
        partners.add(holder)
    assert partners == {-1, 0, 1} - {0}  # the declarer cannot hold the card it called


def test_the_partner_is_the_partner_in_every_world_it_samples() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC")
    for i in range(20):
        world = state.determinize(1, random.Random(i))
        assert isinstance(world, BidAndCallState)
        assert world.partner == 1 and world.observation(1)["partner"] == 1


# --------------------------------------------------------------------------- tricks
def test_the_highest_trump_wins_even_over_a_higher_card_of_the_suit_led() -> None:
    assert winning_index([parse_card("AS"), parse_card("2H"), parse_card("KS")], S, H) == 1
    assert winning_index([parse_card("AS"), parse_card("2H"), parse_card("3H")], S, H) == 2


def test_without_trump_the_highest_card_of_the_suit_led_wins_and_a_discard_never_does() -> None:
    assert winning_index([parse_card("2S"), parse_card("AH"), parse_card("3S")], S, NT) == 2
    assert winning_index([parse_card("KD"), parse_card("AC"), parse_card("AH")], D, NT) == 0


def test_a_player_who_cannot_follow_trumps_and_takes_the_trick() -> None:
    state = start("AS KS 2D", "3H 4D 5D", "QS 6C 7C")
    act(state, "bid 1 H", "pass", "pass", "call AH", "play AS")
    assert texts(state, 1) == ["play 4D", "play 5D", "play 3H"]  # void in spades: anything
    act(state, "play 3H", "play QS")
    trick = state.observation(None)["tricks"][-1]
    assert trick["winner"] == 1 and state.to_act() == (1,)


def test_at_no_trump_the_contract_suit_is_no_trump() -> None:
    state = start("2S KS 2D", "AH 4D 5D", "3S 6C 7C")
    act(state, "bid 1 NT", "pass", "pass", "call AC", "play 2S", "play AH", "play 3S")
    assert state.observation(None)["trump"] is None
    assert state.observation(None)["tricks"][-1]["winner"] == 2


def test_a_player_who_can_follow_must_follow() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC", "play 2C")
    assert texts(state, 1) == ["play AC"]
    with pytest.raises(IllegalAction, match="follow"):
        state.apply_text(1, "play 3D")


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("auction", "points"), [
    (["bid 3 S", "pass", "pass"], 3),
    (["bid 3 S", "double", "pass", "pass"], 6),
    (["bid 3 S", "double", "pass", "redouble", "pass", "pass"], 12),
])
def test_a_made_contract_scores_its_level_doubled_and_redoubled(auction: list[str], points: int) -> None:
    state = start(*SPADES)
    act(state, *auction, "call 2S")
    act(state, "play AS", "play AH", "play AD", "play KS", "play KH", "play KD", "play QS", "play QH", "play QD")
    assert state.result().scores == (points, 0, 0)
    assert next(e for e in state.events if e.kind == "round_end").data["made"] is True


@pytest.mark.parametrize(("auction", "points"), [
    (["bid 2 C", "pass", "pass"], -2),
    (["bid 2 C", "double", "pass", "pass"], -4),
    (["bid 2 C", "double", "pass", "redouble", "pass", "pass"], -8),
])
def test_a_contract_down_loses_its_level_doubled_and_redoubled(auction: list[str], points: int) -> None:
    state = start("2C 3C 4C", "AC KC QC", "AH KH QH")
    act(state, *auction, "call AS")
    act(state, "play 4C", "play QC", "play QH", "play KC", "play KH", "play 3C", "play AC", "play AH", "play 2C")
    assert state.result().scores == (points, 0, 0)
    assert state.result().winners == (1, 2)


def test_the_partner_scores_with_the_declarer_and_the_result_names_the_two_sides() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass", "call AC")
    act(state, "play AS", "play 3D", "play QH", "play KS", "play 4D", "play KH", "play 2C", "play AC", "play AH")
    result = state.result()
    assert result.scores == (2, 2, 0) and result.winners == (0, 1)
    assert result.teams == ((0, 1), (2,))
    assert result.to_json()["teams"] == [[0, 1], [2]]
    assert state.stats() == {"contracts": 1.0, "doubled": 0.0, "made": 1.0, "alone": 0.0, "tricks": 3.0}


def test_a_game_is_one_round() -> None:
    state = GAME.new_state(5, max_rounds=3)
    rng = random.Random(5)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.rounds_played == 1


# --------------------------------------------------------------------------- explicit deals
def test_an_explicit_deal_names_the_hands_and_the_unused_cards() -> None:
    state = start(*SPADES)
    assert set(state.observation(0)["hand"]) == {"AS", "KS", "QS"}
    assert set(state.observation(2)["hand"]) == {"AD", "KD", "QD"}
    assert state.observation(0)["unused"] is None and state.observation(0)["unused_size"] == 43


@pytest.mark.parametrize(("change", "message"), [
    ({"hands": [["AS", "KS"], ["AH", "KH", "QH"], ["AD", "KD", "QD"]]}, "3 hands of 3 cards"),
    ({"unused": ["2C"] * 43}, "each of the 52 cards once"),
    ({"stock": []}, "unknown key"),
])
def test_a_bad_explicit_deal_is_refused_saying_what_is_wrong(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.new_state(1, deals=[deal(*SPADES) | change])
