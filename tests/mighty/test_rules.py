"""Mighty's rules and rulings (``rules.en.md``, rulings A1–A16 and M1–M8), one test a rule, the
worked examples included.  What every game must do (random games, clones, records, card leaks)
is the conformance suite's; hidden information is in ``test_hidden.py``."""

from __future__ import annotations

import random

import pytest

from conformance.harness import Case, cases, play_out
from torite.cards import card_str, parse_card
from torite.engine.base import Action, IllegalAction, OptionError
from torite.engine.registry import make_game
from torite.games.mighty.basics import (
    POINT_MASK,
    call_card_of,
    half_points,
    is_deal_miss,
    joker_has_power,
    mighty_of,
    winning_index,
)
from torite.games.mighty.rules import Mighty
from torite.games.mighty.scoring import base_amount, multipliers, payments
from torite.testing import why

from .helpers import act, deal, elect, legal, mask, play, playable, setup, start

C, D, H, S = 0, 1, 2, 3


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# --------------------------------------------------------------------------- the game
def test_the_pack_is_53_cards_with_20_point_cards_and_five_hands_of_ten() -> None:
    game = make_game("mighty")
    assert isinstance(game, Mighty) and game.num_players == 5 and game.hand_size == 10
    assert sorted(game.deck) == list(range(53))
    assert POINT_MASK.bit_count() == 20 and not POINT_MASK >> 52 & 1
    state = game.new_state(3)
    assert [h.bit_count() for h in state.hands] == [10] * 5 and len(state.kitty) == 3


def test_options_have_the_pages_defaults_and_bad_values_are_refused() -> None:
    assert dict(make_game("mighty").options) == {
        "deals": 10, "deal_miss": "no_points", "opener": "dealer", "all_pass": "redeal", "nt_min12": False,
        "discards_count": True, "joker_first_trick": "no_power", "joker_last_trick": "no_power",
        "joker_call_first_trick": False, "lone_share": 4, "score_formula": "pagat", "mighty_when_spades": "DA",
        "doubling": 2}
    for bad in ({"deals": 0}, {"deal_miss": "never"}, {"lone_share": 3}, {"score_formula": "P"},
                {"joker_last_trick": "maybe"}, {"trump": "H"}):
        with pytest.raises(OptionError):
            make_game("mighty", bad)


def test_a_joker_call_in_trick_1_needs_the_joker_playable_there_m6() -> None:
    with pytest.raises(OptionError, match="joker_call_first_trick"):
        make_game("mighty", {"joker_call_first_trick": True, "joker_first_trick": "forbidden"})
    make_game("mighty", {"joker_call_first_trick": True})


def test_the_notation_reads_jk_first_trick_and_none_in_any_case() -> None:
    game = make_game("mighty")
    assert game.parse_action("play JK") == Action("play", 1 << 52)
    assert game.parse_action("friend jk") == Action("friend", 1 << 52)
    assert game.parse_action("friend First-Trick") == Action("friend", 0, "first-trick")
    assert str(game.parse_action("friend none")) == "friend none"
    assert str(game.parse_action("bid 16 nt")) == "bid 16 NT"
    assert str(game.parse_action("contract 16 s")) == "contract 16 S"


# --------------------------------------------------------------------------- special cards
def test_the_mighty_is_the_ace_of_spades_or_of_diamonds_when_spades_are_trump() -> None:
    assert [card_str(mighty_of(t)) for t in (C, D, H, S, -1)] == ["AS", "AS", "AS", "AD", "AS"]
    assert card_str(mighty_of(S, "CA")) == "AC"


def test_the_joker_call_card_is_the_three_of_clubs_or_of_spades_when_clubs_are_trump() -> None:
    assert [card_str(call_card_of(t)) for t in (C, D, H, S, -1)] == ["3S", "3C", "3C", "3C", "3C"]


# --------------------------------------------------------------------------- deal miss
NO_POINTS = "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D"


def test_a_hand_without_a_point_card_is_a_deal_miss_shown_to_all_and_its_holder_deals_again_a1() -> None:
    first, second = deal({2: NO_POINTS}), deal({})
    state = start([first, second], dealer=0)
    assert state.dealer == 2 and state.attempts == 2 and state.counters["deal_miss"] == 1
    assert [sorted(state.game.card_text(c) for c in range(53) if h >> c & 1) for h in state.hands] == \
        [sorted(h) for h in second["hands"]]
    miss = next(e for e in state.events if e.kind == "deal_miss")
    assert miss.seat == 2 and sorted(miss.data["cards"]) == sorted(NO_POINTS.split()) and miss.visible == -1
    assert state.observation(4)["miss_shown"][2] == first["hands"][2] or \
        sorted(state.observation(4)["miss_shown"][2]) == sorted(NO_POINTS.split())
    assert state.round_scores == [] and state.phase == "bid" and state.to_act() == (2,)
    # the thrown-in hands of the others were never shown (M1)
    assert [e.seat for e in state.events if e.kind == "deal"] == [0, 1, 2, 3, 4]


def test_with_several_deal_misses_the_first_clockwise_from_the_dealer_deals_again_a16() -> None:
    for dealer, expected in ((2, 3), (3, 3), (4, 1), (1, 1)):
        state = start([deal({1: NO_POINTS, 3: "2H 3H 4H 5H 6H 7H 8H 9H 2S 3S"}), deal({})], dealer=dealer)
        assert state.dealer == expected, dealer


def test_the_joker_is_no_point_card_and_the_mighty_is_one() -> None:
    assert is_deal_miss(mask("JK 2C 3C 4C 5C 6C 7C 8C 9C 2D"), "no_points")
    assert not is_deal_miss(mask("AS 2C 3C 4C 5C 6C 7C 8C 9C 2D"), "no_points")
    assert not is_deal_miss(mask("10D 2C 3C 4C 5C 6C 7C 8C 9C 2D"), "no_points")


def test_one_card_deal_miss_voids_at_most_one_point_card_besides_the_ace_of_spades() -> None:
    assert is_deal_miss(mask("AS KH 2C 3C 4C 5C 6C 7C 8C 9C"), "one_card")
    assert not is_deal_miss(mask("QD KH 2C 3C 4C 5C 6C 7C 8C 9C"), "one_card")
    state = start([deal({4: "AS KH 2C 3C 4C 5C 6C 7C 8C 9C"}), deal({})], {"deal_miss": "one_card"})
    assert state.dealer == 4 and state.counters["deal_miss"] == 1


def test_half_point_deal_miss_is_declared_by_choice_at_the_first_turn_only_m1() -> None:
    assert half_points(mask("AS 10H 2C 3C 4C 5C 6C 7C 8C 9C")) == 1
    assert half_points(mask("JK KD 10H 2C 3C 4C 5C 6C 7C 8C")) == 1
    assert half_points(mask("KD 10H 2C 3C 4C 5C 6C 7C 8C 9C")) == 3
    weak = "AS 10H 2C 3C 4C 5C 6C 7C 8C 9C"
    state = start([deal({1: weak, 0: "2H 3H 4H 5H 6H 7H 8H 9H 2S 3S"}), deal({})], {"deal_miss": "half_point"})
    assert state.dealer == 0 and state.phase == "bid"  # nothing automatic, even with no points
    assert "dealmiss" in legal(state, 0)
    act(state, "pass")
    assert "dealmiss" in legal(state, 1)
    act(state, "dealmiss")
    assert state.dealer == 1 and state.counters["deal_miss"] == 1 and state.to_act() == (1,)
    state = start([deal({1: weak}), deal({})], {"deal_miss": "half_point"})
    act(state, "bid 13 H")
    assert "dealmiss" in legal(state, 1)
    state = start([deal({0: weak}), deal({})], {"deal_miss": "half_point"})
    act(state, "bid 13 H", "pass", "pass", "bid 14 H")
    assert state.to_act() == (4,)
    act(state, "bid 15 H")
    assert state.to_act() == (0,) and "dealmiss" not in legal(state, 0)  # seat 0 already bid
    state = start([deal({0: weak}), deal({})], {"deal_miss": "half_point", "all_pass": "min12"})
    act(state, "pass", "pass", "pass", "pass", "pass")
    assert state.restarted and "dealmiss" not in legal(state, 0)  # not in the restarted election


def test_explicit_deals_are_used_one_per_deal_attempt() -> None:
    deals = [deal({0: NO_POINTS}), deal({}), deal({1: "AS KS QS JS 10S 9S 8S 7S 6S 5S"})]
    state = start(deals, dealer=3)
    assert state.dealer == 0 and state.attempts == 2
    for _ in range(5):
        act(state, "pass")  # all pass: the third deal, by the same dealer
    assert state.attempts == 3 and state.dealer == 0
    assert state.hands[1] == mask("AS KS QS JS 10S 9S 8S 7S 6S 5S")


# --------------------------------------------------------------------------- the election
def test_the_dealer_bids_first_then_clockwise_skipping_passed_players_a2() -> None:
    state = start([deal({})], dealer=3)
    assert state.to_act() == (3,)
    act(state, "bid 13 C")
    assert state.to_act() == (4,)
    act(state, "pass", "bid 14 D", "pass", "pass")
    assert state.to_act() == (3,)
    act(state, "bid 15 D")
    assert state.to_act() == (0,)  # seats 4, 1 and 2 passed


def test_a_bid_must_be_higher_and_no_trump_beats_the_same_number_in_a_suit() -> None:
    state = start([deal({})])
    bids = [a for a in legal(state) if a.startswith("bid")]
    assert bids[0] == "bid 13 C" and bids[-1] == "bid 20 NT" and len(bids) == 8 * 5
    assert "bid 12 NT" not in bids
    act(state, "bid 15 H")
    bids = legal(state)
    assert "bid 15 S" not in bids and "bid 15 C" not in bids and "bid 15 NT" in bids and "bid 16 C" in bids
    with pytest.raises(IllegalAction) as refused:
        state.apply_text(1, "bid 14 NT")
    assert refused.value.refusal == ("bid_higher", {"contract": "15 H"}) and why(state, "bid 15 S") == "bid_higher"
    act(state, "bid 15 NT")
    assert "bid 15 NT" not in legal(state) and "bid 16 C" in legal(state)


def test_a_pass_is_final_and_the_last_bidder_is_president_when_four_have_passed() -> None:
    state = start([deal({})])
    act(state, "bid 13 S", "pass", "bid 14 S", "pass", "pass", "bid 15 S")
    assert state.to_act() == (2,)  # seat 1 and 3 and 4 passed
    act(state, "pass")
    assert state.president == 0 and str(state.contract) == "15 S" and state.phase == "discard"


def test_twenty_no_trump_ends_the_election_at_once_a3() -> None:
    state = start([deal({})])
    act(state, "bid 20 H")
    assert legal(state) == ["bid 20 NT", "pass"]  # 20 in a suit is overcalled only by 20 no-trump
    act(state, "bid 20 NT")
    assert state.president == 1 and str(state.contract) == "20 NT" and state.phase == "discard"


def test_when_all_five_pass_the_same_dealer_deals_again() -> None:
    state = start([deal({}), deal({0: "AS KS QS JS 10S 9S 8S 7S 6S 5S"})], dealer=2)
    before = list(state.hands)
    for _ in range(5):
        act(state, "pass")
    assert state.dealer == 2 and state.phase == "bid" and state.to_act() == (2,) and state.hands != before
    assert state.round_scores == [] and state.auction == []
    assert next(e for e in reversed(state.events) if e.kind == "redeal").data["reason"] == "all_pass"


def test_all_pass_min12_restarts_once_from_12_with_the_same_cards_m8() -> None:
    state = start([deal({}), deal({0: "AS KS QS JS 10S 9S 8S 7S 6S 5S"})], {"all_pass": "min12"}, dealer=1)
    before = list(state.hands)
    for _ in range(5):
        act(state, "pass")
    assert state.hands == before and state.restarted and state.to_act() == (1,)
    assert "bid 12 H" in legal(state) and "bid 12 NT" in legal(state)
    for _ in range(5):
        act(state, "pass")
    assert state.hands != before and not state.restarted and state.dealer == 1
    assert "bid 12 H" not in legal(state)


def test_nt_min12_allows_only_an_opening_bid_of_12_no_trump() -> None:
    state = start([deal({})], {"nt_min12": True})
    bids = legal(state)
    assert "bid 12 NT" in bids and "bid 12 S" not in bids
    act(state, "pass")
    assert "bid 12 NT" in legal(state)
    act(state, "bid 12 NT")
    assert "bid 12 NT" not in legal(state) and "bid 13 C" in legal(state)


def test_the_previous_president_opens_from_the_second_deal_with_opener_previous_president() -> None:
    game = make_game("mighty", {"opener": "previous_president"})
    state = game.new_state(5, dealer=0)
    assert state.to_act() == (0,)
    rng = random.Random(2)
    while not state.round_scores:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.to_act() == (state.prev_president,)


# --------------------------------------------------------------------------- kitty and contract
def test_the_president_takes_the_kitty_and_discards_three_nobody_else_sees() -> None:
    state = start([deal({}, "2C 3D 4H")])
    elect(state, 0, "13 S")
    assert state.hands[0].bit_count() == 13 and state.hands[0] & mask("2C 3D 4H") == mask("2C 3D 4H")
    kitty = next(e for e in state.events if e.kind == "kitty")
    assert kitty.visible == 1 and sorted(kitty.data["cards"]) == ["2C", "3D", "4H"]
    assert legal(state)[0].startswith("discard") and len(legal(state)) == 13
    act(state, "discard 2C", "discard 3D")
    assert state.phase == "discard"
    act(state, "discard AH" if state.hands[0] >> parse_card("AH") & 1 else "discard 4H")
    assert state.phase == "contract" and state.hands[0].bit_count() == 10 and len(state.discards) == 3
    assert state.observation(0)["discards"] is not None and state.observation(1)["discards"] is None
    assert state.observation(None)["discards"] is None and state.observation(2)["discards_size"] == 3
    assert all(e.visible == 1 for e in state.events if e.kind == "discard")


def test_a_contract_change_costs_two_for_another_suit_one_for_no_trump_and_never_goes_down_a4() -> None:
    state = start([deal({})])
    elect(state, 0, "17 H")
    act(state, "discard " + card_str(min(c for c in range(53) if state.hands[0] >> c & 1)))
    while state.phase == "discard":
        act(state, "discard " + card_str(min(c for c in range(53) if state.hands[0] >> c & 1)))
    contracts = [a.split(" ", 1)[1] for a in legal(state)]
    assert sorted(contracts) == sorted(["19 C", "20 C", "19 D", "20 D", "19 S", "20 S", "17 H", "18 H", "19 H",
                                        "20 H", "18 NT", "19 NT", "20 NT"])
    assert why(state, "contract 18 C") == "contract_at_least" and why(state, "contract 17 NT") == "contract_at_least"
    act(state, "contract 18 NT")
    assert str(state.contract) == "18 NT" and state.trump == -1 and state.phase == "friend"
    state = start([deal({})])
    elect(state, 0, "19 NT")
    while state.phase == "discard":
        act(state, legal(state)[0])
    assert sorted(a.split(" ", 1)[1] for a in legal(state)) == ["19 NT", "20 NT"]  # to a suit +2 is 21


def test_the_mighty_and_joker_call_card_follow_the_final_trump() -> None:
    state = setup({}, bid="13 H", contract="15 S")
    obs = state.observation(3)
    assert (obs["trump"], obs["mighty"], obs["call_card"]) == ("S", "AD", "3C")
    state = setup({}, bid="13 H", contract="15 C", options={"mighty_when_spades": "CA"})
    assert (state.observation(None)["mighty"], state.observation(None)["call_card"]) == ("AS", "3S")


# --------------------------------------------------------------------------- the friend
def test_a_card_friend_is_its_holder_hidden_from_the_others_until_the_card_is_played() -> None:
    state = setup({0: "AH KH QH JH 10H 9H 8H 7H 6H 5H", 3: "AS 2C 3C 4C 5C 6C 7C 8C 9C 10C"},
                  bid="13 S", friend="friend AS")
    assert state.friend == 3 and not state.friend_shown
    assert state.observation(3)["friend"] == 3
    assert [state.observation(s)["friend"] for s in (0, 1, 2, 4, None)] == [None] * 5
    assert state.teams() == ()
    play(state, "AH", *[legal(state)[0].split()[1] for _ in range(0)])
    while state.hands[3] >> parse_card("AS") & 1:
        seat = state.to_act()[0]
        options = playable(state)
        state.apply_text(seat, "play AS" if seat == 3 and "AS" in options else f"play {sorted(options)[0]}")
    assert state.friend_shown and all(state.observation(s)["friend"] == 3 for s in (0, 1, None))
    shown = next(e for e in state.events if e.kind == "friend_shown")
    assert shown.data == {"friend": 3, "president": 0, "card": "AS"} and shown.visible == -1


def test_a_card_the_president_holds_makes_a_fake_friend_scored_alone_without_doubling_a5() -> None:
    state = setup({0: "AS KH QH JH 10H 9H 8H 7H 6H 5H"}, friend="friend AS")
    assert state.friend == -1 and not state.friend_shown
    finish(state)
    end = next(e for e in state.events if e.kind == "round_end")
    assert end.data["alone"] and end.data["fake"] and "no_friend" not in end.data["multipliers"]
    pts = end.data["points"]
    assert pts[0] == -4 * pts[1] and len(set(pts[1:])) == 1 and sum(pts) == 0


def test_a_discarded_friend_card_makes_a_fake_friend_revealed_at_the_end_a11() -> None:
    state = setup({}, kitty="JK 2C 2D", discards="JK 2C 2D", friend="friend JK")
    assert state.friend == -1 and not state.friend_shown
    finish(state)
    assert state.rounds_played == 1
    shown = next(e for e in state.events if e.kind == "friend_shown")
    assert shown.data["friend"] is None and shown.data["card"] == "JK"


def test_the_winner_of_trick_1_is_a_first_trick_friend() -> None:
    state = setup({0: "2H 2S 3S 4S 5S 6S 7S 8S 9S 10S", 2: "AH KH QH JH 10H 9H 8H 7H 6H 5H"},
                  bid="13 S", discards="2C 3C 4C", kitty="2C 3C 4C", friend="friend first-trick")
    play(state, "2H")
    while state.history == []:
        seat = state.to_act()[0]
        state.apply_text(seat, "play AH" if seat == 2 else f"play {sorted(playable(state))[0]}")
    assert state.history[0]["winner"] == 2 and state.friend == 2 and state.friend_shown
    assert state.teams() == ((0, 2), (1, 3, 4))


def test_a_president_who_wins_trick_1_under_first_trick_friend_plays_alone_a5() -> None:
    state = setup({0: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"}, bid="13 H", friend="friend first-trick")
    play(state, "AS")  # the Mighty, led
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    assert state.friend == -1 and state.friend_shown and state.teams()[0] == (0,)


# --------------------------------------------------------------------------- play rules
def test_the_president_leads_trick_1_never_the_joker_nor_a_trump_unless_holding_only_trumps_a8_a14() -> None:
    state = setup({0: "JK AH KH 2H 3H AC 2C 3C 4C 5C"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    assert state.to_act() == (0,) and state.leader == 0
    assert playable(state) == {"AC", "2C", "3C", "4C", "5C"}
    assert why(state, "JK") == "joker_leads_first_trick" and why(state, "AH") == "trump_leads_first_trick"
    state = setup({0: "JK AH KH QH JH 10H 9H 8H 7H 6H"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    assert playable(state) == {"AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H"}
    state = setup({0: "JK AH KH 2H 3H AC 2C 3C 4C 5C"}, bid="13 NT", kitty="2D 3D 4D", discards="2D 3D 4D")
    assert "AH" in playable(state) and "JK" not in playable(state)
    assert why(state, "JK") == "joker_leads_first_trick" and why(state, "AH") is None


def test_the_mighty_and_joker_may_be_played_instead_of_following() -> None:
    state = setup({0: "2H 3S 4S 5S 6S 7S 8S 9S 10S JS", 1: "AS JK 4H 5H 2C 3C 4C 5C 6C 7C"},
                  bid="13 C", kitty="2D 3D 4D", discards="2D 3D 4D", contract="15 D")
    play(state, "2H")
    assert playable(state) == {"AS", "JK", "4H", "5H"}
    assert why(state, "2C") == "follow" and why(state, "AS") is None
    play(state, "AS")
    assert state.voids[1] == 0  # the Mighty shows no void in hearts


def test_the_mighty_is_a_card_of_its_suit_a15() -> None:
    state = setup({0: "2S 3H 4H 5H 6H 7H 8H 9H 10H JH", 1: "AS 2C 3C 4C 5C 6C 7C 8C 9C 10C"},
                  bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D", contract="15 D")
    play(state, "2S")
    assert playable(state) == {"AS"}  # its only spade: it must be played


def test_a_led_joker_names_the_suit_the_others_follow_a9() -> None:
    state2 = setup({0: "2H 3S 4S 5S 6S 7S 8S 9S 10S JS", 1: "JK AH 2C 3C 4C 5C 6C 7C 8C 9C"},
                   bid="13 S", kitty="2D 3D 4D", discards="2D 3D 4D", contract="15 D")
    play(state2, "2H", "AH")
    while len(state2.history) < 1:
        play(state2, sorted(playable(state2))[0])
    assert state2.history[0]["winner"] == 1 and state2.to_act() == (1,)
    play(state2, "JK")
    assert state2.phase == "suit" and legal(state2) == ["suit C", "suit D", "suit H", "suit S"]
    act(state2, "suit C")
    assert state2.led == C and state2.to_act() == (2,)
    held = {card_str(c) for c in range(53) if state2.hands[2] >> c & 1}
    clubs = {c for c in held if c.endswith("C")}
    assert playable(state2) == (clubs | ({"AS", "JK"} & held) if clubs else held)


def test_a_joker_call_forces_the_joker_and_takes_its_power_but_not_in_trick_1() -> None:
    hands = {0: "AS 3C 2S 3S 4S 5S 6S 7S 8S 9S", 2: "JK 2C 4C 5C 6C 7C 8C 9C 10C JC"}
    state = setup(hands, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "AS")  # the Mighty wins trick 1
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    assert state.history[0]["winner"] == 0
    play(state, "3C")
    assert state.phase == "call" and legal(state) == ["call", "nocall"]
    act(state, "call")
    assert state.called and state.counters["joker_calls"] == 1
    play(state, sorted(playable(state))[0])  # seat 1
    assert playable(state) == {"JK"} and why(state, "2C") == "joker_called"
    play(state, "JK")
    while len(state.history) < 2:
        play(state, sorted(playable(state))[0])
    assert state.history[1]["called"] and state.history[1]["cards"][2] == "JK"
    assert state.history[1]["winner"] != 2  # the called joker has no power
    # in trick 1 the call card is a plain 3
    state = setup({0: "3C 2S 3S 4S 5S 6S 7S 8S 9S AH"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "3C")
    assert state.phase == "play" and state.to_act() == (1,)
    state = setup({0: "3C 2S 3S 4S 5S 6S 7S 8S 9S AH"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D",
                  options={"joker_call_first_trick": True})
    play(state, "3C")
    assert state.phase == "call"


def test_the_call_choice_is_offered_even_when_the_leader_holds_the_joker_but_not_once_it_was_played_m4() -> None:
    state = setup({0: "AS JK 3C 3S 4S 5S 6S 7S 8S 9S"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "AS")
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    play(state, "3C")
    assert state.phase == "call"
    act(state, "call")
    assert state.to_act() == (1,) and "JK" not in playable(state)  # nobody else holds it: no effect (A10)
    state = setup({0: "AS JK 3C 3S 4S 5S 6S 7S 8S 9S"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "AS")
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    play(state, "JK")
    act(state, "suit S")
    while len(state.history) < 2:
        play(state, sorted(playable(state))[0])
    assert state.history[1]["winner"] == 0
    play(state, "3C")
    assert state.phase == "play"  # the joker is out: no choice


def test_the_joker_has_no_power_in_trick_1_and_trick_10_nor_when_called_a7() -> None:
    assert not joker_has_power(0, False) and not joker_has_power(9, False)
    assert joker_has_power(1, False) and joker_has_power(8, False) and not joker_has_power(4, True)
    assert joker_has_power(9, False, "power") and not joker_has_power(0, False, "power")


def test_joker_first_trick_forbidden_keeps_the_joker_out_of_trick_1() -> None:
    hands = {0: "2H 3S 4S 5S 6S 7S 8S 9S 10S JS", 1: "JK 2C 3C 4C 5C 6C 7C 8C 9C 10C"}
    state = setup(hands, bid="13 S", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "2H")
    assert "JK" in playable(state)
    state = setup(hands, bid="13 S", kitty="2D 3D 4D", discards="2D 3D 4D",
                  options={"joker_first_trick": "forbidden"})
    play(state, "2H")
    assert "JK" not in playable(state) and playable(state) == {"2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C",
                                                                 "10C"}
    assert why(state, "JK") == "joker_first_trick_forbidden"


def test_joker_last_trick_forbidden_makes_its_holder_play_it_in_trick_9_m5() -> None:
    for rule, forced in (("forbidden", True), ("no_power", False)):
        state = make_game("mighty", {"joker_last_trick": rule}).new_state(11)
        rng = random.Random(4)
        checked = False
        while not state.is_over() and not checked:
            seat = state.to_act()[0]
            if state.phase == "play" and len(state.history) == 8 and state.hands[seat] >> 52 & 1:
                opts = {state.game.action_text(a) for a in state.legal_actions(seat)}
                assert (opts == {"play JK"}) == forced or (not forced and len(opts) == 1)
                other = next(c for c in range(52) if state.hands[seat] >> c & 1)
                assert not forced or why(state, state.game.card_text(other)) == "joker_before_last_trick"
                checked = True
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if forced:
            assert all("JK" not in t["cards"] for t in state.history[9:])


# --------------------------------------------------------------------------- who takes a trick
def test_worked_trick_a_the_joker_with_power_wins() -> None:
    trick = cards("KD 2D 5H JK AD")
    assert winning_index(trick, D, H, parse_card("AS"), joker_has_power(3, False)) == 3


def test_worked_trick_b_a_called_joker_is_powerless_and_the_low_trump_wins() -> None:
    trick = cards("3C JK QC 2H AC")
    assert winning_index(trick, C, H, parse_card("AS"), joker_has_power(4, True)) == 3


def test_worked_trick_c_the_mighty_wins_over_the_ace_of_trumps() -> None:
    trick = cards("9S KS AD AS 2S")
    assert winning_index(trick, S, S, mighty_of(S), True) == 2


def test_worked_trick_d_played_the_joker_has_no_power_in_trick_1() -> None:
    state = setup({0: "KH AS KS QS JS 10S 9S 8S 7S 6S", 1: "4H 2C 3C 4C 6C 7C 8C 9C 10C JC",
                   2: "JK 3H 5H 2D 5D 6D 7D 8D 9D AD", 3: "AH 6H 7H 8H 9H 10H JH QH QC KC",
                   4: "5C AC 2H JD QD KD 10D 2S 3S 4S"}, bid="13 S", kitty="3D 4D 5S", discards="3D 4D 5S")
    assert playable(state) == {"KH"}
    play(state, "KH", "4H", "JK", "AH")
    assert playable(state) == {"2H"}  # seat 4 follows hearts; the example's void player is another seat
    play(state, "2H")
    assert state.history[0]["winner"] == 3 and state.history[0]["points"] == 2


def test_a_powerless_joker_led_to_trick_10_wins_only_without_the_named_suit_or_a_trump_a13() -> None:
    mighty = parse_card("AS")
    assert winning_index(cards("JK 2C 3C 4D 5D"), H, S, mighty, False) == 0
    assert winning_index(cards("JK 2C 2H 4D 5D"), H, S, mighty, False) == 2
    assert winning_index(cards("JK 2C 3C 2S 5D"), H, S, mighty, False) == 3


def test_trumps_beat_the_led_suit_and_the_highest_card_of_the_led_suit_wins_otherwise() -> None:
    mighty = parse_card("AS")
    assert winning_index(cards("5D KD 2C AH 9D"), D, C, mighty, True) == 2
    assert winning_index(cards("5D KD 2C AH 9D"), D, -1, mighty, True) == 1


JOKER = parse_card("JK")


def _mighty_joker_tricks() -> list[tuple[list[int], int, int, int]]:
    """Every order of the Mighty and the joker among three plain followers, for every trump
    (no-trump too) and Mighty (♦A or ♣A with spades trump): (cards, led, trump, mighty)."""
    out = []
    for trump in (C, D, H, S, -1):
        for when in ("DA", "CA"):
            mighty = mighty_of(trump, when)
            # a led suit and three low cards of it that are neither the Mighty nor the joker
            led = next(s for s in (C, D, H, S) if s != mighty // 13)
            plain = [led * 13 + r for r in (0, 2, 4)]
            for i in range(5):
                for j in range(5):
                    if i == j:
                        continue
                    cards = list(plain)
                    for pos, card in sorted([(i, mighty), (j, JOKER)]):
                        cards.insert(pos, card)
                    out.append((cards, led, trump, mighty))
    return out


@pytest.mark.parametrize("trick_no", [0, 1, 4, 9])
@pytest.mark.parametrize("called", [False, True])
def test_the_mighty_beats_the_joker_in_every_order_trump_and_trick(trick_no: int, called: bool) -> None:
    """§8 step 1: the Mighty in a trick wins it, whether the joker came before or after it, has
    power or not, was called or not, with any trump and either Mighty (``mighty_when_spades``)."""
    for last_rule in ("no_power", "power"):
        power = joker_has_power(trick_no, called, last_rule)
        for cards, led, trump, mighty in _mighty_joker_tricks():
            assert winning_index(cards, led, trump, mighty, power) == cards.index(mighty), (cards, trump)


def test_the_issues_trick_the_mighty_played_after_a_joker_with_power_wins_in_play() -> None:
    """No-trump (Mighty ♠A), trick 2, the joker has power: seat 4 leads ♠2, seat 0 plays the
    joker, seat 1 the ♠A, the others follow in spades: seat 1 wins (it went to the joker)."""
    state = setup({4: "AH 2S", 0: "JK 2H", 1: "AS 3H", 2: "KS 4H", 3: "QS 5H"}, president=4,
                  bid="13 NT", kitty="3C QC KC", discards="3C QC KC")
    play(state, "AH", "2H", "3H", "4H", "5H")
    assert state.history[0]["winner"] == 4
    play(state, "2S", "JK", "AS", "KS", "QS")
    assert state.history[1]["cards"][1:3] == ["JK", "AS"] and state.history[1]["winner"] == 1


@pytest.mark.parametrize("case", [c for c in cases() if c.game_id == "mighty"], ids=lambda c: c.id)
def test_a_trick_holding_the_mighty_is_won_by_its_player_in_random_games(case: Case) -> None:
    """The property the trick tests missed, over random games of every option set the
    conformance suite plays: whoever plays the Mighty takes the trick."""
    seen = 0
    for seed in range(6):
        state = case.game().new_state(seed, max_rounds=3)
        play_out(state, random.Random(seed), check=False)
        tricks = [e for e in state.events if e.kind in ("contract", "trick")]
        mighty_text = None
        for ev in tricks:
            if ev.kind == "contract":
                mighty_text = ev.data["mighty"]
            elif mighty_text in ev.data["cards"]:
                i = ev.data["cards"].index(mighty_text)
                assert ev.data["winner"] == ev.data["seats"][i], ev.data
                seen += 1
    assert seen > 10


# --------------------------------------------------------------------------- scoring
def test_worked_scoring_1_fifteen_diamonds_with_a_friend_taking_16() -> None:
    s = base_amount(15, 16) * 2 ** len(multipliers(15, 16, False, False))
    assert s == 5 and payments(5, 0, 2, s, True) == [10, -5, 5, -5, -5]


def test_worked_scoring_2_sixteen_no_trump_taking_18() -> None:
    mults = multipliers(16, 18, True, False)
    s = base_amount(16, 18) * 2 ** len(mults)
    assert mults == ["no_trump"] and s == 16 and payments(5, 1, 4, s, True) == [-16, 32, -16, -16, 16]


def test_worked_scoring_3_a_run_doubles() -> None:
    mults = multipliers(17, 20, False, False)
    assert mults == ["run"] and base_amount(17, 20) * 2 ** len(mults) == 22


def test_worked_scoring_4_no_friend_and_a_back_run_double_twice() -> None:
    mults = multipliers(15, 8, False, True)
    s = base_amount(15, 8) * 2 ** len(mults)
    assert sorted(mults) == ["back_run", "no_friend"] and s == 28
    assert payments(5, 0, -1, s, False) == [-112, 28, 28, 28, 28]


def test_a_failed_contract_scores_its_shortfall_and_a_back_run_is_at_most_9() -> None:
    assert base_amount(15, 12) == 3 and multipliers(15, 10, False, False) == []
    assert multipliers(15, 9, False, False) == ["back_run"]


def test_the_score_formula_option_changes_a_made_contract_only_m3() -> None:
    assert [base_amount(15, 17, f) for f in ("pagat", "P-10", "P-M", "P-M+1")] == [6, 7, 4, 5]
    assert {base_amount(15, 12, f) for f in ("pagat", "P-10", "P-M", "P-M+1")} == {3}


def test_a_contract_of_12_is_scored_with_m_12_m2() -> None:
    assert base_amount(12, 12) == 0 and base_amount(12, 14) == 2 and base_amount(12, 10) == 2


def test_a_lone_president_wins_four_times_s_or_two_with_lone_share_2_a6() -> None:
    assert payments(5, 3, -1, 5, True) == [-5, -5, -5, 20, -5]
    assert payments(5, 3, 3, 5, True) == [-5, -5, -5, 20, -5]  # the president as its own friend: alone
    assert payments(5, 3, -1, 5, False, 2) == [5, 5, 5, -10, 5]


def test_discarded_point_cards_count_for_the_ruling_party_unless_discards_count_is_false() -> None:
    hands = {0: "AH KH QH JH 10H 9H 8H 7H 6H 5H"}
    for count in (True, False):
        state = setup(hands, kitty="AC KC QC", discards="AC KC QC", options={"discards_count": count})
        finish(state)
        end = next(e for e in state.events if e.kind == "round_end")
        taken = sum(state.points_taken[s] for s in (0, *([end.data["friend"]] if end.data["friend"] is not None
                                                          else [])))
        assert end.data["discard_points"] == 3
        assert end.data["party_points"] == taken + (3 if count else 0)


def test_the_five_payments_of_every_deal_add_up_to_zero() -> None:
    variants = [{}, {"deal_miss": "half_point"}, {"all_pass": "min12", "nt_min12": True},
                {"score_formula": "P-M+1", "mighty_when_spades": "CA"}, {"joker_last_trick": "power"},
                {"discards_count": False, "opener": "previous_president"}]
    for i, options in enumerate(variants):
        for seed in range(6):
            state = make_game("mighty", options).new_state(seed * 7 + i)
            rng = random.Random(seed)
            while not state.is_over():
                seat = state.to_act()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            assert len(state.round_scores) == 10
            for points in state.round_scores:
                assert sum(points) == 0, (options, seed, points)
            assert sum(state.scores) == 0


def test_the_previous_deals_friend_deals_next_or_its_president_without_a_friend_m7() -> None:
    game = make_game("mighty")
    checked = 0
    for seed in range(4):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        expected = None
        for e in state.events:
            if e.kind == "round_end":
                expected = e.data["friend"] if e.data["friend"] is not None else e.data["president"]
            elif e.kind == "round" and expected is not None:
                assert e.data["dealer"] == expected
                checked += 1
    assert checked == 4 * 9


def test_a_game_is_deals_deals_and_the_highest_total_wins() -> None:
    state = make_game("mighty", {"deals": 3}).new_state(9)
    rng = random.Random(9)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.result()
    assert len(result.round_scores) == 3
    assert set(result.winners) == {s for s in range(5) if result.scores[s] == max(result.scores)}


def test_stats_hold_the_issues_keys() -> None:
    assert Mighty.STAT_KEYS == ("deal_miss", "contract_made", "contract", "no_trump", "no_friend", "run",
                                "back_run", "joker_calls", "party_points", "president_points", "first_trick_friend",
                                "fake_friend")
    state = make_game("mighty").new_state(2, max_rounds=1)
    rng = random.Random(0)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    end = next(e for e in state.events if e.kind == "round_end")
    stats = state.stats()
    assert stats["contract"] == int(end.data["contract"].split()[0])
    assert stats["party_points"] == end.data["party_points"]
    assert stats["president_points"] == end.data["points"][end.data["president"]]


# --------------------------------------------------------------------------- helpers
def finish(state: object) -> None:
    """Play the deal out, each seat its lowest legal card."""
    from torite.games.mighty.rules import MightyState
    assert isinstance(state, MightyState)
    rounds = state.rounds_played
    while state.rounds_played == rounds and not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def test_the_joker_is_written_jk_and_records_written_with_jk1_still_replay() -> None:
    """Mighty has one joker: its records, actions and observations write ``JK``; a record of an
    earlier version, which wrote ``JK1``, replays to the same result."""
    from torite.record import Record, replay
    from torite.sim import play

    game = make_game("mighty", {"deals": 2})
    for seed in range(6):
        rec = play(game, ["random"] * 5, seed, keep_record=True)[1]
        assert rec is not None
        texts = [t for _, t in rec.actions]
        if not any("JK" in t.split() for t in texts):
            continue
        assert not any("JK1" in t for t in texts)
        old = Record.from_json({**rec.to_json(), "actions": [
            {"seat": s, "action": " ".join("JK1" if w == "JK" else w for w in t.split())} for s, t in rec.actions]})
        assert replay(old).result() == replay(rec).result()
        return
    raise AssertionError("no game played the joker")
