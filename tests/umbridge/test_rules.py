"""Umbridge's rules and rulings (``rules.en.md``), one test a rule, the worked examples included.
The scoring tables are in ``test_scoring.py``; what each seat may know in ``test_hidden.py``;
what every game must do (random games, clones, records, card leaks) is the conformance suite's."""

from __future__ import annotations

import pytest

from torite.engine.base import ALL_SEATS, Action, IllegalAction, OptionError
from torite.engine.registry import make_game
from torite.games.umbridge.deal import respread_cards, trick_order
from torite.games.umbridge.rules import Umbridge
from torite.testing import why

from .helpers import act, keep_both, legal, mixed_deal, play_out, quick_contract, start, suit, suits_deal

SPADES_TO_0 = suits_deal("S", "H", "D", "C")  # seat 0 all spades, seat 1 hearts, dummy diamonds, bridge clubs
SPADES_TO_1 = suits_deal("H", "S", "D", "C")


def visible(state: object, kind: str) -> list[int]:
    return [e.visible for e in state.events if e.kind == kind]  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- the game
def test_the_game_is_two_players_with_13_cards_each_a_dummy_and_a_bridge() -> None:
    game = make_game("umbridge")
    assert isinstance(game, Umbridge) and game.num_players == 2 and game.hand_size == 13
    assert dict(game.options) == {"dummy_control": "non_leader", "scoring": "rubber", "honours": False, "deals": 12,
                                  "claims": False, "rubber_two_nil": 700, "rubber_two_one": 500, "part_score_bonus": 50}
    state = start([SPADES_TO_0])
    assert len(state.dummy) == len(state.bridge) == 13 and state.discards == []


def test_bad_options_are_refused_and_honours_only_go_with_rubber_scoring() -> None:
    for bad in ({"dummy_control": "dealer"}, {"scoring": "duplicate"}, {"deals": -1}, {"deals": 101},
                {"honours": True, "scoring": "chicago"}):
        with pytest.raises(OptionError):
            make_game("umbridge", bad)


def test_explicit_deals_are_checked() -> None:
    with pytest.raises(ValueError, match="respread"):
        start([suits_deal("S", "H", "D", "C", respread={"dummy": suit("H")})])
    with pytest.raises(ValueError, match="respread"):
        start([suits_deal("S", "H", "D", "C", respread={"dummy": suit("H"), "bridge": suit("H")})])
    with pytest.raises(ValueError, match="13"):
        start([suits_deal("S", "H", "D", "C", respread={"dummy": suit("H")[:12], "bridge": suit("S")})])
    bad = suits_deal("S", "H", "D", "C")
    bad["bridge"] = suit("D")
    with pytest.raises(ValueError, match="once"):
        start([bad])


# --------------------------------------------------------------------------- taking umbrage (U3, U15)
def test_both_players_decide_umbrage_at_once_and_in_secret() -> None:
    state = start([SPADES_TO_0])
    assert state.to_act() == (0, 1) and legal(state, 0) == legal(state, 1) == ["umbrage", "keep"]
    act(state, (0, "umbrage"))
    assert state.to_act() == (1,)
    assert state.observation(0)["my_umbrage"] is True
    assert state.observation(1)["my_umbrage"] is False and not state.observation(None)["my_umbrage"]
    assert visible(state, "umbrage") == [1 << 0]
    assert state.observation(0)["hand"] == suit("S")  # nothing is swapped before both have decided
    assert state.observation(1)["umbrage"] == []


def test_the_dealer_swaps_with_the_bridge_the_other_with_the_dummy_and_the_spares_are_respread() -> None:
    deal = suits_deal("S", "H", "D", "C", respread={"dummy": suit("H"), "bridge": suit("S")})
    state = start([deal], dealer=0)
    act(state, (1, "umbrage"), (0, "umbrage"))
    obs0, obs1 = state.observation(0), state.observation(1)
    assert obs0["hand"] == suit("C") and obs1["hand"] == suit("D")  # South <- East, North <- West
    assert obs0["given_up"] == suit("S") and obs1["given_up"] == suit("H")
    assert state.observation(None)["given_up"] == []
    assert sorted(state.dummy) == sorted(range(26, 39))  # the respread: hearts in the dummy
    assert state.bridge[-1] == 39  # spades in the bridge, 2S on top
    assert obs0["umbrage"] == [True, True]
    assert [e.seat for e in state.events if e.kind == "took_umbrage"] == [0, 1]
    assert visible(state, "took_umbrage") == [ALL_SEATS, ALL_SEATS] and visible(state, "respread") == [ALL_SEATS]
    assert visible(state, "new_hand") == [1 << 0, 1 << 1]


def test_when_the_non_dealer_is_the_dealer_the_swaps_follow_the_seats() -> None:
    state = start([SPADES_TO_0], dealer=1)  # seat 1 deals: it takes the bridge, seat 0 the dummy
    act(state, (0, "umbrage"), (1, "keep"))
    assert state.observation(0)["hand"] == suit("D") and state.observation(1)["hand"] == suit("H")
    assert sorted(state.dummy + state.bridge) == sorted(list(range(39, 52)) + list(range(0, 13)))


def test_a_respread_that_does_not_fit_the_umbrage_taken_gives_its_places_lowest_first_U14() -> None:
    deal = suits_deal("S", "H", "D", "C", respread={"dummy": suit("H"), "bridge": suit("S")})
    state = start([deal], dealer=0)
    act(state, (0, "keep"), (1, "umbrage"))  # the spares are now hearts (seat 1's) and clubs
    assert sorted(state.dummy) == list(range(26, 39))
    assert state.bridge[::-1] == list(range(0, 13))  # each spade's place taken by the club of its rank
    assert respread_cards([5, 1], [1, 2], []) == ([1, 5], [])


def test_nobody_taking_umbrage_leaves_the_spares_as_dealt() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    assert state.bridge[::-1] == list(range(0, 13)) and sorted(state.dummy) == list(range(13, 26))
    assert visible(state, "no_umbrage") == [ALL_SEATS] and not visible(state, "respread")
    assert state.observation(0)["umbrage"] == [False, False]


def test_without_a_respread_the_gathered_spares_are_shuffled_from_the_seed() -> None:
    states = [start([SPADES_TO_0]) for _ in range(2)]
    for state in states:
        act(state, (0, "umbrage"), (1, "keep"))
    a, b = states
    assert a.bridge == b.bridge and a.dummy == b.dummy
    assert sorted(a.bridge + a.dummy) == sorted(list(range(39, 52)) + list(range(13, 26)))
    assert a.bridge != list(range(39, 52))


# --------------------------------------------------------------------------- the auction (§5)
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_dealer_calls_first(dealer: int) -> None:
    state = start([SPADES_TO_0], dealer=dealer)
    keep_both(state)
    assert state.phase == "auction" and state.to_act() == (dealer,)


def test_both_passing_before_a_contract_throws_the_deal_in_and_the_other_deals_next_U8() -> None:
    state = start([SPADES_TO_0, SPADES_TO_1], dealer=0)
    keep_both(state)
    act(state, (0, "pass"))
    assert state.phase == "auction" and state.to_act() == (1,) and len(state.bridge) == 13  # no draw round
    act(state, (1, "pass"))
    assert state.round_scores == [(0, 0)] and state.dealer == 1 and state.phase == "umbrage"
    assert visible(state, "thrown_in") == [ALL_SEATS]
    assert state.counters["passed_out"] == 1 and state.counters["contract_level"] == 0


def test_a_bid_must_outrank_the_last_and_only_the_opponent_may_double() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 2 H"))
    calls = legal(state, 1)
    assert "bid 2 D" not in calls and "bid 2 H" not in calls and {"bid 2 S", "bid 2 NT", "bid 7 NT"} <= set(calls)
    assert "pass" in calls and "double" in calls and "redouble" not in calls
    before = state.observation(1)
    with pytest.raises(IllegalAction):
        state.apply(1, Action.parse("bid 1 NT"))
    with pytest.raises(IllegalAction):
        state.apply(1, Action.parse("redouble"))
    assert state.observation(1) == before
    assert why(state, "bid 2 D") == "bid_higher" and why(state, "redouble") == "redouble_own_doubled"


def test_only_the_doubled_bidder_may_redouble_and_a_redouble_must_be_followed_by_a_pass_U12() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 2 H"), (1, "double"))
    calls = legal(state, 0)
    assert "redouble" in calls and "double" not in calls and "pass" in calls and "bid 2 S" in calls
    assert why(state, "double") == "double_own"
    act(state, (0, "redouble"))
    assert legal(state, 1) == ["pass"] and state.doubled == 2
    assert why(state, "bid 3 S") == "pass_after_redouble"


def test_a_pass_after_a_contract_starts_a_draw_round_led_by_the_last_bidder_up_to_half_the_bridge_U4() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"))
    assert state.phase == "exchange" and state.to_act() == (0,) and state.exchange_limit == 6
    assert set(legal(state)) == {f"discard {c}" for c in suit("S")} | {"done"}
    for card in suit("S")[:6]:
        act(state, (0, f"discard {card}"))
    assert legal(state) == ["done"]  # U13: the limit reached, done is the only call
    assert why(state, "discard 8S") == "discard_limit"
    act(state, (0, "done"))
    assert state.observation(0)["hand"] == suit("C")[:6] + suit("S")[6:]  # drawn from the top
    assert len(state.bridge) == 7 and len(state.discards) == 6
    assert state.to_act() == (1,) and state.exchange_limit == 6  # at most what the last bidder drew


def test_the_other_player_draws_at_most_as_many_as_the_last_bidder_drew() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"), (0, "discard 2S"), (0, "discard 3S"), (0, "done"))
    assert state.exchange_limit == 2
    act(state, (1, "discard 2H"), (1, "discard 3H"))
    assert legal(state, 1) == ["done"]


def test_when_the_last_bidder_draws_nothing_the_other_may_draw_half_the_bridge_U5() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"), (0, "done"))
    assert state.to_act() == (1,) and state.exchange_limit == 6
    act(state, (1, "discard 2H"), (1, "done"))
    assert state.phase == "auction" and state.must_bid  # someone drew: the auction goes on


def test_a_draw_round_in_which_nobody_draws_ends_the_auction_U6() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"), (0, "done"), (1, "done"))
    assert state.phase == "play" and str(state.contract) == "1 S" and state.declarer == 0


def test_after_a_draw_round_the_last_bidder_must_repeat_or_raise_and_a_repeat_keeps_the_double_U7() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 H"), (1, "double"), (0, "pass"))  # the doubled bidder passes: a draw round
    assert state.phase == "exchange" and state.to_act() == (0,)
    act(state, (0, "discard 2S"), (0, "done"), (1, "done"))
    calls = legal(state, 0)
    assert calls[0] == "bid 1 H" and "pass" not in calls and "redouble" not in calls and "double" not in calls
    act(state, (0, "bid 1 H"))
    assert state.doubled == 1 and str(state.contract) == "1 H" and state.declarer == 0
    assert state.events[-1].data == {"bid": "1 H", "repeat": True}


def test_a_new_higher_contract_clears_the_double_U7() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 H"), (1, "double"), (0, "pass"), (0, "discard 2S"), (0, "done"), (1, "done"),
        (0, "bid 2 H"))
    assert state.doubled == 0 and str(state.contract) == "2 H"


def test_the_opponent_may_double_a_repeated_contract_U11() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 H"), (1, "pass"), (0, "discard 2S"), (0, "done"), (1, "done"), (0, "bid 1 H"))
    assert "double" in legal(state, 1)


def test_a_repeated_redoubled_contract_keeps_the_redouble_but_forces_no_pass_U12() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 H"), (1, "double"), (0, "redouble"), (1, "pass"),
        (0, "discard 2S"), (0, "done"), (1, "done"), (0, "bid 1 H"))
    assert state.doubled == 2
    calls = legal(state, 1)
    assert "pass" in calls and "bid 1 S" in calls and "double" not in calls


def test_the_worked_example_auction_with_draws() -> None:
    state = start([mixed_deal()], dealer=0)  # S = seat 0 deals, N = seat 1
    keep_both(state)

    def exchange(seat: int, count: int) -> None:
        hand = state.observation(seat)["hand"]
        for card in hand[:count]:
            act(state, (seat, f"discard {card}"))
        act(state, (seat, "done"))

    act(state, (0, "bid 1 H"), (1, "pass"))
    assert state.exchange_limit == 6  # the bridge holds 13
    exchange(0, 4)
    assert len(state.bridge) == 9 and state.exchange_limit == 4
    exchange(1, 3)
    assert len(state.bridge) == 6 and state.must_bid and state.to_act() == (0,)
    act(state, (0, "bid 2 H"), (1, "bid 2 S"), (0, "pass"))
    assert state.to_act() == (1,) and state.exchange_limit == 3  # N is now the last bidder
    exchange(1, 3)
    assert len(state.bridge) == 3 and state.exchange_limit == 3
    exchange(0, 2)
    assert len(state.bridge) == 1 and state.to_act() == (1,) and state.must_bid
    act(state, (1, "bid 2 S"), (0, "pass"))
    assert state.phase == "play" and str(state.contract) == "2 S" and state.declarer == 1 and state.doubled == 0
    assert [e[1] for e in state.exchanges] == [4, 3, 3, 2] and state.drawn == [6, 6]
    assert all(h.bit_count() == 13 for h in state.hands)  # hands stay at 13 (§5.8)
    assert len(state.discards) == 12


# --------------------------------------------------------------------------- the play (§6, U1, U2)
def worked_trick_deal() -> dict[str, object]:
    """The page's trick example: S (seat 0, dealer) holds ♥K ♦Q, N ♥A ♦4, the dummy ♥3 ♦A."""
    s = ["KH", "QD", *suit("C")[:11]]
    n = ["AH", "4D", *suit("S")[:11]]
    dummy = ["3H", "AD", "2H", *[r + "H" for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q")], "KC"]
    bridge = ["AC", "AS", "KS", *[r + "D" for r in ("2", "3", "5", "6", "7", "8", "9", "10", "J", "K")]]
    return {"hands": [s, n], "dummy": dummy, "bridge": bridge}


def test_the_dummy_is_hidden_during_the_auction_and_face_up_when_it_ends_U2() -> None:
    state = start([worked_trick_deal()])
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"))
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs["dummy"] is None and obs["dummy_size"] == 13 and obs["bridge"] is None
    act(state, (0, "done"))
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs["dummy_exposed"] and sorted(obs["dummy"]) == sorted(worked_trick_deal()["dummy"])  # type: ignore[arg-type]
        assert obs["bridge"] is None
    assert visible(state, "dummy_shown") == [ALL_SEATS]


def test_the_worked_example_trick_the_defender_leads_and_the_non_leader_plays_the_dummy() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"))
    assert state.phase == "play" and state.to_act() == (0,)  # the defender, S, leads
    act(state, (0, "play KH"))
    assert state.phase == "dummy" and state.to_act() == (1,)  # N did not lead: N plays the dummy
    assert set(legal(state)) == {f"play {c}" for c in ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H",
                                                       "JH", "QH")}  # the dummy follows suit
    act(state, (1, "play 3H"), (1, "play AH"))
    assert state.history[-1]["winner"] == 1 and state.to_act() == (1,)
    act(state, (1, "play 4D"), (0, "play QD"))
    assert state.phase == "dummy" and state.to_act() == (0,)  # now S did not lead
    act(state, (0, "play AD"))
    trick = state.history[-1]
    assert trick["winner"] == 0 and trick["seats"] == [1, 0, 0] and trick["dummy"] == [False, False, True]
    assert state.to_act() == (0,) and state.phase == "play"  # the dummy's card won: S leads next
    assert state.tricks_won == [1, 1]


def test_the_trick_goes_clockwise_with_the_dummy_right_after_the_dealer() -> None:
    assert trick_order(0, 0) == (0, -1, 1)
    assert trick_order(1, 0) == (1, 0, -1)
    assert trick_order(1, 1) == (1, -1, 0)
    assert trick_order(0, 1) == (0, 1, -1)


@pytest.mark.parametrize(("mode", "first", "second"), [("leader", 0, 1), ("declarer", 1, 1)])
def test_dummy_control_leader_or_declarer(mode: str, first: int, second: int) -> None:
    state = start([worked_trick_deal()], {"dummy_control": mode}, dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"))
    act(state, (0, "play KH"))
    assert state.to_act() == (first,) and state.phase == "dummy"
    act(state, (first, "play 3H"), (1, "play AH"), (1, "play 4D"), (0, "play QD"))
    assert state.to_act() == (second,) and state.phase == "dummy"


def test_only_the_controller_may_play_the_dummy_and_only_the_dummy_s_cards() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"), (0, "play KH"))
    assert state.legal_actions(0) == []
    for bad in ((0, "play 3H"), (1, "play AH"), (1, "play KC")):  # not its turn; a hand card; must follow
        with pytest.raises(IllegalAction):
            state.apply(bad[0], Action.parse(bad[1]))
    assert why(state, "play KC") == "dummy_follow"  # the dummy holds the suit led


def test_a_trump_beats_the_suit_led_and_the_declarer_needs_six_plus_the_level() -> None:
    state = start([SPADES_TO_0], dealer=0)
    quick_contract(state, 0, "4 S")
    play_out(state)
    assert state.round_scores[0][0] > 0  # 13 tricks with all the trumps
    end = [e for e in state.events if e.kind == "round_end"][-1].data
    assert end["tricks"] == 13 and end["made"] and end["below"] == 120 and end["overtricks"] == 90


# --------------------------------------------------------------------------- scoring in play (§8)
def test_a_made_part_score_goes_below_the_line_and_overtricks_above() -> None:
    state = start([SPADES_TO_0], dealer=0, max_rounds=1)
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.round_scores == [(60 + 5 * 30, 0)]
    assert state.above == [150, 0] and state.below == [[60, 0]] and state.games == [0, 0]


def test_part_scores_add_up_to_a_game_and_the_next_game_starts_afresh_and_vulnerable() -> None:
    state = start([SPADES_TO_0, SPADES_TO_0, SPADES_TO_0], dealer=0, max_rounds=3)
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.vulnerable == [False, False]
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.games == [1, 0] and state.below == [[120, 0], [0, 0]]
    assert state.vulnerable == [True, False] and state.observation(1)["vulnerability"] == "one"
    quick_contract(state, 0, "1 S")
    play_out(state)
    end = [e for e in state.events if e.kind == "round_end"][-1].data
    assert end["vulnerable"] == [True, False] and end["overtricks"] == 6 * 30


def test_a_rubber_won_two_games_to_none_earns_700_and_ends_the_game() -> None:
    state = start([SPADES_TO_0, SPADES_TO_0], dealer=0)
    quick_contract(state, 0, "4 S")
    play_out(state)
    assert not state.is_over()
    quick_contract(state, 0, "4 S")
    play_out(state)
    assert state.is_over() and state.games == [2, 0]
    assert state.round_scores == [(210, 0), (210 + 700, 0)]
    assert state.result().winners == (0,)


def test_a_rubber_won_two_games_to_one_earns_500() -> None:
    state = start([SPADES_TO_0, SPADES_TO_1, SPADES_TO_0], dealer=0)
    quick_contract(state, 0, "4 S")
    play_out(state)
    quick_contract(state, 1, "4 S")
    play_out(state)
    quick_contract(state, 0, "4 S")
    play_out(state)
    assert state.is_over() and state.games == [2, 1] and state.round_scores[-1] == (210 + 500, 0)


def test_undertricks_go_to_the_defender_doubled_and_vulnerable() -> None:
    # seat 1 declares 1 NT while seat 0 holds every spade: seat 0 leads spades and takes all 13
    state = start([SPADES_TO_0, SPADES_TO_0, SPADES_TO_0], dealer=0, max_rounds=3)
    quick_contract(state, 1, "1 NT", doubled=1)
    play_out(state)
    assert state.round_scores[-1] == (1700, 0)  # not vulnerable, doubled, down 7
    quick_contract(state, 1, "7 S")  # seat 1 has no spades: 7 spades by seat 1 goes down too
    play_out(state)
    assert state.round_scores[-1][0] > 0
    state2 = start([SPADES_TO_1, SPADES_TO_0], dealer=0, max_rounds=2)
    quick_contract(state2, 1, "4 S")  # seat 1 wins a game and is vulnerable
    play_out(state2)
    quick_contract(state2, 1, "1 NT", doubled=2)
    play_out(state2)
    assert state2.round_scores[-1] == (2 * (200 + 300 + 300 + 300 * 4), 0)  # vulnerable, redoubled, down 7


def test_an_unfinished_rubber_stopped_by_the_deals_option_scores_300_a_game_100_a_part_score_U16() -> None:
    state = start([SPADES_TO_0], {"deals": 1}, dealer=0)
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.is_over() and state.round_scores == [(210 + 100, 0)]
    state = start([SPADES_TO_0, SPADES_TO_1], {"deals": 2}, dealer=0)
    quick_contract(state, 0, "4 S")
    play_out(state)
    keep_both(state)
    act(state, (1, "pass"), (0, "pass"))  # thrown in: counts as a deal (U17)
    assert state.is_over() and state.round_scores == [(210, 0), (300, 0)]


def test_a_single_deal_played_on_its_own_has_no_rubber_bonus_U18() -> None:
    state = start([SPADES_TO_0], {"deals": 1}, dealer=0, max_rounds=1)
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.round_scores == [(210, 0)]  # max_rounds stops the play: no unfinished-rubber bonus


def test_honours_are_credited_to_their_holder_declarer_or_defender() -> None:
    state = start([SPADES_TO_0, SPADES_TO_1], {"honours": True}, dealer=0)
    quick_contract(state, 0, "2 S")  # all five spade honours: 150
    play_out(state)
    assert state.round_scores[-1] == (210 + 150, 0)
    quick_contract(state, 0, "1 H")  # seat 1 holds every spade and seat 0 every heart
    play_out(state)
    end = [e for e in state.events if e.kind == "round_end"][-1].data
    assert end["honours"] == [150, 0] and end["made"]
    state = start([SPADES_TO_0], {"honours": True}, dealer=0)
    quick_contract(state, 1, "1 S")  # seat 1 declares spades; the defender holds the honours
    play_out(state)
    assert state.round_scores[-1] == (150 + 7 * 50, 0)


def test_no_honours_without_the_option_and_none_for_the_dummy() -> None:
    state = start([SPADES_TO_0], dealer=0, max_rounds=1)
    quick_contract(state, 0, "2 S")
    play_out(state)
    assert state.round_scores == [(210, 0)]
    state = start([suits_deal("H", "C", "S", "D")], {"honours": True}, dealer=0, max_rounds=1)
    quick_contract(state, 0, "1 S")  # the dummy holds the spade honours: nobody scores them
    play_out(state)
    end = [e for e in state.events if e.kind == "round_end"][-1].data
    assert end["honours"] == [0, 0]


def test_chicago_is_four_deals_with_its_vulnerability_and_bonuses() -> None:
    deals = [SPADES_TO_0, SPADES_TO_0, SPADES_TO_1, SPADES_TO_0]
    state = start(deals, {"scoring": "chicago"}, dealer=0)
    seen = []
    quick_contract(state, 0, "4 S")  # deal 1, nobody vulnerable: game +300
    seen.append(list(state.vulnerable))
    play_out(state)
    quick_contract(state, 0, "2 S")  # deal 2, seat 1 deals and is vulnerable: part-score +50
    seen.append(list(state.vulnerable))
    play_out(state)
    keep_both(state)  # deal 3, seat 0 deals: thrown in, still one of the four (U17)
    seen.append(list(state.vulnerable))
    act(state, (0, "pass"), (1, "pass"))
    quick_contract(state, 0, "4 S")  # deal 4, both vulnerable: game +500
    seen.append(list(state.vulnerable))
    play_out(state)
    assert seen == [[False, False], [False, True], [True, False], [True, True]]
    assert state.is_over() and len(state.round_scores) == 4
    assert state.round_scores == [(210 + 300, 0), (210 + 50, 0), (0, 0), (210 + 500, 0)]
    assert state.games == [0, 0]  # no games and no rubber bonus in a Chicago


def test_stats_count_each_deal_and_a_thrown_in_deal_counts_zero() -> None:
    state = start([mixed_deal(), SPADES_TO_0], dealer=0, max_rounds=2)
    act(state, (0, "umbrage"), (1, "keep"), (0, "bid 3 NT"), (1, "double"), (0, "pass"))
    act(state, (0, "discard " + state.observation(0)["hand"][0]), (0, "done"), (1, "done"), (0, "bid 3 NT"),
        (1, "pass"))
    assert state.phase == "exchange"
    act(state, (0, "done"), (1, "done"))
    play_out(state)
    c = state.counters
    assert (c["contract_level"], c["no_trump"], c["doubled"], c["umbrage"], c["bridge_draws"]) == (3, 1, 1, 1, 1)
    keep_both(state)
    act(state, (1, "pass"), (0, "pass"))
    assert state.counters["passed_out"] == 1 and state.counters["contract_level"] == 3


def test_with_deals_0_an_unfinished_rubber_goes_on() -> None:
    state = start([SPADES_TO_0] * 14, {"deals": 0}, dealer=0)
    for _ in range(13):
        keep_both(state)
        act(state, (state.dealer, "pass"), (1 - state.dealer, "pass"))
    assert not state.is_over() and len(state.round_scores) == 13 and state.scores == [0, 0]


def test_the_umbrage_decisions_may_come_in_either_order() -> None:
    one, two = start([mixed_deal()], dealer=0), start([mixed_deal()], dealer=0)
    act(one, (0, "umbrage"), (1, "umbrage"))
    act(two, (1, "umbrage"), (0, "umbrage"))
    assert one.hands == two.hands and one.dummy == two.dummy and one.bridge == two.bridge
