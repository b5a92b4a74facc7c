"""Galapagos: every rule of ``rules.en.md``, its rulings and worked examples, on chosen deals."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from torite.cards import card_str, parse_card
from torite.engine.base import Action, IllegalAction, OptionError, State
from torite.engine.registry import make_game
from torite.games.glapgos.melds import best_melds
from torite.games.glapgos.rules import (
    BID,
    PASS,
    PLAY,
    PLAYOFF,
    TAKE,
    TAKE_FACED,
    TAKE_UNSEEN,
    Glapgos,
    GlapgosState,
    auction_winner,
    bonus_due,
    odd_trick_points,
)
from torite.record import replay, start_record
from torite.testing import why

from .helpers import (
    DEALER,
    HAND_0,
    HAND_1,
    NON_DEALER,
    STOCK,
    auction_turn,
    deal,
    do,
    mask,
    names,
    new_state,
    whole_auction,
)


def c(text: str) -> int:
    return parse_card(text)


# --------------------------------------------------------------------------- the deal
def test_each_player_gets_13_cards_and_the_other_26_are_the_stock_with_its_top_card_faced() -> None:
    st = new_state()
    assert [h.bit_count() for h in st.hands] == [13, 13]
    obs = st.observation(0)
    assert obs["stock_size"] == 26
    assert obs["faced_card"] == "2H"
    assert obs["stock"][0] == "2H" and obs["stock"][1:] == [None] * 25  # only the top is face up
    assert st.phase == BID and st.to_act() == (0, 1)


def test_a_shuffled_deal_is_13_13_and_26_and_the_same_seed_gives_the_same_deal() -> None:
    game = Glapgos()
    a, b = game.new_state(5), game.new_state(5)
    assert a.hands == b.hands and a.stock == b.stock and a.dealer == b.dealer
    assert len(a.stock) == 26 and sum(h.bit_count() for h in a.hands) == 26


def test_the_dealer_alternates_between_deals() -> None:
    game = Glapgos({"target": 10**5})
    st = game.new_state(3, dealer=0, max_rounds=3)
    rng = random.Random(0)
    dealers = [st.dealer]
    while not st.is_over():
        seat = st.to_act()[0]
        rounds = st.rounds_played
        st.apply(seat, rng.choice(st.legal_actions(seat)))
        if st.rounds_played > rounds and not st.is_over():
            dealers.append(st.dealer)
    assert dealers == [0, 1, 0]


@pytest.mark.parametrize("bad, why", [
    ({"hands": [HAND_0.split(), HAND_1.split()[:12]], "stock": STOCK.split()}, "13"),
    ({"hands": [HAND_0.split(), HAND_1.split()], "stock": STOCK.split()[:25]}, "26"),
    ({"hands": [HAND_0.split(), HAND_0.split()], "stock": STOCK.split()}, "once"),
    ({"hands": [HAND_0.split(), HAND_1.split()], "stock": STOCK.split(), "trump": "S"}, "unknown"),
])
def test_a_malformed_explicit_deal_is_refused_with_a_reason(bad: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Glapgos().new_state(1, deals=[bad])


def test_the_options_are_checked() -> None:
    with pytest.raises(OptionError):
        Glapgos({"meld_values": "faces"})
    with pytest.raises(OptionError):
        Glapgos({"target": 0})
    assert make_game("glapgos").options == {"meld_values": "pips", "target": 500, "bonus_at": 100, "melds_bonus": 100,
                                            "tricks_bonus": 50, "playoff_bonus": 30}


# --------------------------------------------------------------------------- the auction
def test_both_players_bid_at_once_and_a_bid_is_hidden_from_the_other_until_both_are_in() -> None:
    st = new_state()
    do(st, 1, "bid 5D")
    assert st.phase == BID and st.to_act() == (0,)
    for viewer in (0, None):
        obs = st.observation(viewer)
        assert "5D" not in str(obs)
        assert obs["your_bid"] is None
        assert obs["hand_sizes"] == [13, 13]  # the bid card stays in hand, unseen, until both are in
        assert all("5D" not in str(e.data) for e in st.events_for(viewer))
    assert st.observation(1)["your_bid"] == "5D"
    do(st, 0, "bid 9C")
    for viewer in (0, 1, None):
        obs = st.observation(viewer)
        assert obs["last_bids"] == ["9C", "5D"]
        assert obs["bid_pile_0"] == ["9C"] and obs["bid_pile_1"] == ["5D"]


def test_a_player_may_bid_only_a_card_of_its_hand_and_only_once_a_turn() -> None:
    st = new_state()
    assert {str(a) for a in st.legal_actions(0)} == {f"bid {x}" for x in HAND_0.split()}
    before = st.observation(0)
    with pytest.raises(IllegalAction):
        st.apply(0, Action.parse("bid 5D"))
    assert st.observation(0) == before
    do(st, 0, "bid 9C")
    with pytest.raises(IllegalAction):
        st.apply(0, Action.parse("bid 10C"))
    assert st.legal_actions(0) == []


def test_the_higher_rank_wins_whatever_the_suits_worked_example() -> None:
    """Faced 9D; bids QS and JD: the queen wins, suits are irrelevant when ranks differ."""
    assert auction_winner((c("QS"), c("JD")), c("9D")) == (0, "rank")
    assert auction_winner((c("JD"), c("QS")), c("9D")) == (1, "rank")
    hand0 = HAND_0.replace("2C", "QS")
    hand1 = HAND_1.replace("9D", "2C")
    stock = "9D " + " ".join(x for x in STOCK.split() if x != "QS")
    st = new_state(hands=(hand0, hand1), stock=stock)
    assert st.observation(0)["faced_card"] == "9D"
    do(st, 0, "bid QS")
    do(st, 1, "bid JD")
    assert st.phase == TAKE and st.to_act() == (0,) and st.tie_break == "rank"
    assert st.legal_actions(0) == [TAKE_FACED, TAKE_UNSEEN]
    do(st, 0, "take faced")
    assert st.hands[0] >> c("9D") & 1 and st.hands[1] >> c("2H") & 1  # the loser gets the unseen card


def test_equal_ranks_go_to_the_bid_of_the_faced_cards_suit() -> None:
    assert auction_winner((c("7H"), c("7S")), c("2S")) == (1, "suit")
    assert auction_winner((c("7S"), c("7C")), c("KS")) == (0, "suit")


def test_equal_ranks_without_the_suit_go_by_colour_worked_example() -> None:
    """Faced AS; bids 5C and 5D: neither is a spade; clubs are black like spades: 5C wins."""
    assert auction_winner((c("5C"), c("5D")), c("AS")) == (0, "colour")
    assert auction_winner((c("5D"), c("5C")), c("AS")) == (1, "colour")


def test_equal_ranks_without_suit_or_colour_go_by_parity_worked_example() -> None:
    """Faced 10S; bids 3H and 3D: both red; hearts share the major parity with spades: 3H wins."""
    assert auction_winner((c("3H"), c("3D")), c("10S")) == (0, "parity")
    assert auction_winner((c("3C"), c("3S")), c("10D")) == (0, "parity")  # clubs minor like diamonds


def test_the_tie_break_always_finds_a_winner_and_follows_suit_colour_parity_in_that_order() -> None:
    for faced in range(52):
        for sa, sb in permutations(range(4), 2):
            a, b = sa * 13 + 5, sb * 13 + 5
            winner, why = auction_winner((a, b), faced)
            f = faced // 13
            win_suit = (sa, sb)[winner]
            lose_suit = (sa, sb)[1 - winner]
            if why == "suit":
                assert win_suit == f
            elif why == "colour":
                assert f not in (sa, sb) and (win_suit in (1, 2)) == (f in (1, 2)) != (lose_suit in (1, 2))
            else:
                assert why == "parity"
                assert (win_suit >= 2) == (f >= 2) != (lose_suit >= 2)


def test_a_tie_is_counted_in_the_stats() -> None:
    st = new_state()
    auction_turn(st, "5C", "5D")  # faced 2H: diamonds are red like hearts
    assert st.bid_winner == 1 and st.tie_break == "colour"
    assert st.counters["bid_ties"] == 1
    auction_turn(st, "9C", "6D")
    assert st.counters["bid_ties"] == 1


def test_taking_the_faced_card_gives_the_unseen_card_to_the_loser() -> None:
    st = new_state()
    do(st, 0, "bid AC")
    do(st, 1, "bid 2D")
    do(st, 0, "take faced")  # faced 2H, unseen 2S
    assert st.hands[0] >> c("2H") & 1 and st.hands[1] >> c("2S") & 1
    assert not st.hands[0] >> c("AC") & 1 and not st.hands[1] >> c("2D") & 1
    assert [h.bit_count() for h in st.hands] == [13, 13]
    assert st.observation(1)["faced_card"] == "3H" and st.phase == BID


def test_taking_the_unseen_card_gives_the_faced_card_to_the_loser() -> None:
    st = new_state()
    do(st, 0, "bid AC")
    do(st, 1, "bid 2D")
    do(st, 0, "take UNSEEN")
    assert st.hands[0] >> c("2S") & 1 and st.hands[1] >> c("2H") & 1


def test_only_the_auction_winner_chooses_and_only_faced_or_unseen() -> None:
    st = new_state()
    do(st, 0, "bid AC")
    do(st, 1, "bid 2D")
    assert st.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        st.apply(1, TAKE_FACED)
    with pytest.raises(IllegalAction):
        st.apply(0, Action("take", 0, "BOTH"))
    assert str(TAKE_FACED) == "take FACED" and Action.parse("take faced") == TAKE_FACED


def test_the_unseen_card_is_seen_only_by_its_taker_and_the_faced_cards_holder_is_public() -> None:
    st = new_state()
    do(st, 0, "bid AC")
    do(st, 1, "bid 2D")
    do(st, 0, "take unseen")  # seat 0 gets the unseen 2S, seat 1 the faced 2H
    assert "2S" in st.observation(0)["hand"]
    for viewer in (1, None):
        assert "2S" not in str(st.observation(viewer))
        assert all("2S" not in str(e.data) for e in st.events_for(viewer))
    assert any(e.kind == "unseen" and e.data["card"] == "2S" for e in st.events_for(0))
    for viewer in (0, 1, None):
        assert st.observation(viewer)["known_hands"] == [[], ["2H"]]


def test_a_known_faced_card_that_is_bid_is_no_longer_in_the_hand_shown() -> None:
    st = new_state()
    auction_turn(st, "AC", "2D", "unseen")  # seat 1 holds the faced 2H, publicly
    auction_turn(st, "2C", "2H")  # seat 1 bids it
    assert "2H" not in st.observation(0)["known_hands"][1]
    assert st.observation(0)["bid_pile_1"] == ["2D", "2H"]


def test_13_turns_empty_the_stock_and_hands_stay_at_13_cards() -> None:
    st = new_state()
    for turn in range(13):
        assert st.auction_turn == turn + 1
        assert [h.bit_count() for h in st.hands] == [13, 13]
        auction_turn(st, HAND_0.split()[turn], HAND_1.split()[turn])
    assert st.stock == [] and st.phase == PLAY
    assert [len(st.bid_pile_0), len(st.bid_pile_1)] == [13, 13]
    assert names(sum(1 << x for x in st.bid_pile_0)) == set(HAND_0.split())


# --------------------------------------------------------------------------- melds
def test_melds_are_scored_at_the_end_of_the_auction_and_both_hands_are_shown() -> None:
    st = new_state()
    whole_auction(st)  # seat 1's diamonds win every tie by colour with the faced hearts
    assert names(st.hands[1]) == {x for x in STOCK.split() if x.endswith("H")}
    assert st.meld_points == [95, 95]  # 2 to A of a suit: 54 + 30 + 11
    assert st.round_points == [95, 95] and st.counters["meld_points"] == 190
    for viewer in (0, 1, None):  # ruling R1
        obs = st.observation(viewer)
        assert [set(h) for h in obs["known_hands"]] == [names(st.hands[0]), names(st.hands[1])]
        assert obs["meld_points"] == [95, 95]
        assert obs["melds"][0][-1] == ["JS", "QS", "KS", "AS"]


def test_meld_worked_example_two_runs_and_a_set_of_three_beat_four_sevens() -> None:
    hand = mask("5H 6H 7H 7S 7D 7C JC QC KC 2D 9S 4S AD")
    points, melds = best_melds(hand)
    assert points == 69
    assert sorted((m.kind, m.points) for m in melds) == [("run", 18), ("run", 30), ("set", 21)]
    assert best_melds(mask("7H 7S 7D 7C JC QC KC 2D 9S 4S AD 5H 3S"))[0] == 58


def test_a_low_ace_counts_1_in_a_run_and_a_high_ace_11() -> None:
    assert best_melds(mask("AH 2H 3H 9C 5D"))[0] == 6
    assert best_melds(mask("QH KH AH 9C 5D"))[0] == 31
    assert best_melds(mask("AH AS AD 2H 3H"))[0] == 33  # the set of aces beats A-2-3


def test_a_run_may_not_turn_the_corner() -> None:
    assert best_melds(mask("KH AH 2H 9C"))[0] == 0
    full = mask(" ".join(f"{r}H" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]))
    assert best_melds(full)[0] == 95  # the ace once, at the high end


def test_sets_are_3_or_4_of_a_rank_and_runs_3_or_more_of_a_suit() -> None:
    assert best_melds(mask("9H 9S 4C 5C"))[0] == 0
    assert best_melds(mask("9H 9S 9C"))[0] == 27
    assert best_melds(mask("4C 5C 6C 7C 8C"))[0] == 30
    assert best_melds(mask("4C 5C 7C 8C"))[0] == 0
    assert best_melds(mask("4C 5D 6C"))[0] == 0


def test_meld_values_cards_scores_1_point_a_meld_card() -> None:
    assert best_melds(mask("5H 6H 7H 7S 7D 7C JC QC KC 2D 9S 4S AD"), True)[0] == 9  # 3 melds of 3
    st = new_state({"meld_values": "cards"})
    whole_auction(st)
    assert st.meld_points == [13, 13]


# --------------------------------------------------------------------------- tricks
def test_the_non_dealer_leads_the_first_trick() -> None:
    st = new_state()
    whole_auction(st)
    assert st.phase == PLAY and st.to_act() == (NON_DEALER,) and st.leader == NON_DEALER


def _trick_state() -> GlapgosState:
    """Seat 0 ends the auction with the spades and 2H..; seat 1 with hearts (see the helpers)."""
    st = new_state()
    takes = ["unseen"] + ["faced"] * 12  # seat 1 wins every turn; first turn: it takes 2S
    whole_auction(st, takes)
    return st


def test_must_follow_suit_if_able_and_the_higher_card_of_the_suit_led_wins_with_no_trumps() -> None:
    st = _trick_state()
    assert "2H" in names(st.hands[0]) and "2S" in names(st.hands[1])
    do(st, 0, "play 2H")
    hearts = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert {str(a) for a in st.legal_actions(1)} == {f"play {x}H" for x in hearts}
    do(st, 1, "play 3H")
    assert st.tricks_won == [0, 1] and st.turn == 1  # the winner leads
    do(st, 1, "play 2S")
    assert len(st.legal_actions(0)) == 12  # spades: it must follow
    do(st, 0, "play 3S")
    assert st.tricks_won == [1, 1]
    do(st, 0, "play AS")
    do(st, 1, "play AH")  # no spade left: any card; off-suit never wins, an ace neither
    assert st.tricks_won == [2, 1]


def test_only_the_player_with_an_odd_number_of_tricks_scores_10_plus_its_tricks() -> None:
    assert odd_trick_points([7, 6]) == [17, 0]  # worked example: the dealer's 7 tricks
    assert odd_trick_points([6, 7]) == [0, 17]
    assert odd_trick_points([13, 0]) == [23, 0]
    assert odd_trick_points([0, 13]) == [0, 23]


def test_the_13_tricks_are_scored_then_the_play_off_starts_with_the_bid_piles_as_hands() -> None:
    st = new_state()
    whole_auction(st)  # seat 0 spades, seat 1 hearts: the leader wins every trick
    before = list(st.round_points)
    for _ in range(13):
        seat = st.turn
        do(st, seat, str(st.legal_actions(seat)[0]))
        do(st, 1 - seat, str(st.legal_actions(1 - seat)[0]))
    assert st.tricks_won == [13, 0]
    assert st.counters["trick_points"] == 23
    assert [e.data for e in st.events if e.kind == "tricks_scored"] == [{"tricks": [13, 0], "points": [23, 0]}]
    assert st.round_points == [before[0] + 23 + 50, before[1]]  # and the 100 bonus of Phase 2
    assert st.phase == PLAYOFF
    assert names(st.hands[0]) == set(HAND_0.split()) and names(st.hands[1]) == set(HAND_1.split())
    assert st.to_act() == (NON_DEALER,)  # ruling G5
    assert st.observation(1)["known_hands"][0] == st.observation(0)["hand"]


# --------------------------------------------------------------------------- play-off
def _playoff(hand0: str, hand1: str) -> GlapgosState:
    """A state in the play-off with these 13-card play-off hands (each seat bids its dealt cards)."""
    rest = [card_str(x) for x in range(52) if card_str(x) not in set((hand0 + " " + hand1).split())]
    st = new_state(hands=(hand0, hand1), stock=" ".join(rest))
    whole_auction(st)
    while st.phase == PLAY:
        seat = st.turn
        do(st, seat, str(st.legal_actions(seat)[0]))
    assert st.phase == PLAYOFF
    return st


P0 = "5C 5D 5H KC KD 3C 3D 4S 6S 8S 10S QS AS"
P1 = "9C 9D 7C 7D 7H 2C 2D 2H 4C 6C 8C JC QH"


def test_a_lead_is_any_single_or_set_of_a_rank_each_distinct_set_its_own_action() -> None:
    st = _playoff(P0, P1)
    legal = {str(a) for a in st.legal_actions(0)}
    assert PASS not in st.legal_actions(0)  # ruling R2: the leader must play
    assert {"play 5C", "play 5C 5D", "play 5C 5H", "play 5D 5H", "play 5C 5D 5H"} <= legal
    assert len([a for a in legal if a.count("5") and a.count(" ") == 2]) == 3  # three pairs of 5s
    assert len(legal) == 7 + 3 + 3 + 6  # 5s: 7 sets; K and 3: 3 each; 6 other singles
    with pytest.raises(IllegalAction):
        st.apply(0, Action.parse("play 5C KC"))  # no runs, no mixed ranks
    assert why(st, "play 5C KC") == "one_rank"


def test_a_reply_is_as_many_cards_of_a_higher_rank_or_a_pass_worked_example() -> None:
    """Non-dealer 5-5; dealer 9-9; non-dealer K-K; dealer passes -> the non-dealer leads again."""
    st = _playoff(P0, P1)
    do(st, 0, "play 5C 5D")
    reply = {str(a) for a in st.legal_actions(1)}
    assert reply == {"play 9C 9D", "play 7C 7D", "play 7C 7H", "play 7D 7H", "pass"}
    assert why(st, "play 9C") == "climb_count"
    do(st, 1, "play 9C 9D")
    do(st, 0, "play KC KD")
    assert st.legal_actions(1) == [PASS]
    do(st, 1, "pass")
    assert st.to_act() == (0,) and st.climb == [] and st.climb_last == []
    assert names(sum(1 << x for x in st.cleared)) == {"5C", "5D", "9C", "9D", "KC", "KD"}
    assert PASS not in st.legal_actions(0)
    do(st, 0, "play 3C")  # a single 3, any new play
    assert {str(a) for a in st.legal_actions(1)} >= {"play 4C", "pass"}
    assert "play 2C" not in {str(a) for a in st.legal_actions(1)}


def test_suits_do_not_matter_in_the_play_off_and_equal_rank_does_not_beat() -> None:
    st = _playoff(P0, P1)
    assert why(st, "pass") == "lead_no_pass"
    do(st, 0, "play 4S")
    reply = {str(a) for a in st.legal_actions(1)}
    assert "play 4C" not in reply and "play 6C" in reply and "play QH" in reply
    assert why(st, "play 4C") == "climb_higher"


def test_the_first_player_out_scores_10_plus_the_cards_the_other_still_holds() -> None:
    st = _playoff("2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C", "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C")
    do(st, 0, "play 2C 2D 2H 2S")
    do(st, 1, "play 6C 6D 6H 6S")
    do(st, 0, "pass")
    do(st, 1, "play 7C 7D 7H 7S")
    do(st, 0, "pass")
    do(st, 1, "play 8C 8D 8H 8S")
    do(st, 0, "pass")
    do(st, 1, "play 9C")  # its last card: 10 + the 9 cards seat 0 still holds
    assert st.is_over()
    assert st.counters["playoff_points"] == 19
    out = [e for e in st.events if e.kind == "out"]
    assert [(e.seat, e.data) for e in out] == [(1, {"points": 19, "left": 9})]


# --------------------------------------------------------------------------- the 100 bonus
def test_the_100_bonus_worked_example_97_gets_nothing_and_100_at_phase_1_gets_100() -> None:
    assert bonus_due([64, 31], 1, False) == [0, 0]
    assert bonus_due([81, 31], 2, False) == [0, 0]
    assert bonus_due([97, 31], 3, False) == [0, 0]
    assert bonus_due([100, 31], 1, False) == [100, 0]


def test_the_bonus_is_50_after_phase_2_and_30_after_phase_3_once_a_deal_and_none_on_a_tie() -> None:
    assert bonus_due([40, 104], 2, False) == [0, 50]
    assert bonus_due([120, 99], 3, False) == [30, 0]
    assert bonus_due([120, 99], 3, True) == [0, 0]
    assert bonus_due([100, 100], 1, False) == [0, 0]


def test_a_hand_that_melds_100_gets_the_bonus_of_100_at_once() -> None:
    """Seat 0 outbids seat 1 every turn and takes the faced cards: four aces, kings and queens."""
    hand0 = "8S 8H 9S 9H 9D 9C 10S 10H 10D 10C JS JH JD"
    hand1 = "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C"
    high = ["AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC", "QD", "QH", "QS", "JC"]
    junk = ["5D", "5H", "5S", "6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S", "8C", "8D"]
    st = new_state(hands=(hand0, hand1), stock=" ".join(x for pair in zip(high, junk) for x in pair))
    whole_auction(st)
    # JC-QC-KC-AC (41) and three aces, kings, queens (33 + 30 + 30); seat 1: four runs of its junk
    assert st.meld_points == [134, 83]
    assert st.bonus_seat == 0 and st.bonus_points == 100
    assert st.round_points == [234, 83] and st.counters["bonus"] == 100
    assert st.observation(1)["bonus_seat"] == 0


def test_the_bonus_goes_to_the_round_points_in_play() -> None:
    st = new_state()
    whole_auction(st)  # 95 each: no bonus yet
    assert st.bonus_seat == -1
    for _ in range(13):
        seat = st.turn
        do(st, seat, str(st.legal_actions(seat)[0]))
        do(st, 1 - seat, str(st.legal_actions(1 - seat)[0]))
    # seat 0 won 13 tricks: 95 + 23 = 118 against 95 -> 50 after Phase 2
    assert st.bonus_seat == 0 and st.bonus_points == 50
    assert st.round_points[0] == 95 + 23 + 50
    assert any(e.kind == "bonus" and e.seat == 0 and e.data == {"points": 50, "phase": 2} for e in st.events)


# --------------------------------------------------------------------------- the game
def _play_randomly(st: State, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))


def test_the_game_ends_after_the_deal_in_which_a_total_reaches_the_target_with_unequal_totals() -> None:
    game = Glapgos({"target": 150})
    for seed in range(4):
        st = game.new_state(seed)
        _play_randomly(st, seed)
        totals = [0, 0]
        for i, r in enumerate(st.round_scores):
            totals = [totals[0] + r[0], totals[1] + r[1]]
            last = i == len(st.round_scores) - 1
            assert (max(totals) >= 150 and totals[0] != totals[1]) == last
        assert st.result().winners == (st.scores.index(max(st.scores)),)


def test_equal_totals_at_the_target_play_another_deal() -> None:
    st = new_state({"target": 1}, max_rounds=None)
    st.scores = [50, 50]
    assert not st.game_over()
    st.scores = [50, 49]
    assert st.game_over()


def test_records_replay_to_the_same_result() -> None:
    game = Glapgos({"target": 200})
    st = game.new_state(11)
    rec = start_record(game, 11, ["bot:random", "bot:random"])
    rng = random.Random(2)
    while not st.is_over():
        seat = st.to_act()[0]
        a = rng.choice(st.legal_actions(seat))
        rec.actions.append((seat, str(a)))
        st.apply(seat, a)
    rec.result = st.result().to_json()
    again = replay(rec)
    assert again.result() == st.result()
    assert any(t.startswith("take ") for _, t in rec.actions) and any(t == "pass" for _, t in rec.actions)


def test_an_explicit_deal_replays_from_a_record() -> None:
    game = Glapgos()
    rec = start_record(game, 3, ["a", "b"], dealer=DEALER, max_rounds=1, deals=[deal()])
    st = game.new_state(3, dealer=DEALER, max_rounds=1, deals=[deal()])
    rng = random.Random(5)
    while not st.is_over():
        seat = st.to_act()[0]
        a = rng.choice(st.legal_actions(seat))
        rec.actions.append((seat, str(a)))
        st.apply(seat, a)
    rec.result = st.result().to_json()
    assert replay(rec).result() == st.result()


def test_the_stats_keys_of_the_issue_are_counted() -> None:
    st = new_state(max_rounds=1)
    _play_randomly(st)
    stats = st.stats()
    assert set(stats) == {"meld_points", "trick_points", "playoff_points", "bonus", "bid_ties", "melds",
                          "playoff_passes"}
    assert stats["meld_points"] + stats["trick_points"] + stats["playoff_points"] + stats["bonus"] == sum(st.scores)


def test_simulate_reports_the_stats_per_round() -> None:
    from torite.sim import simulate

    out = simulate("glapgos", {}, ["random", "random"], rounds=4, seed=1)
    for key in ("meld_points_per_round", "trick_points_per_round", "playoff_points_per_round",
                "bonus_per_round", "bid_ties_per_round"):
        assert key in out["stats"]


# --------------------------------------------------------------------------- sampled worlds
def test_a_sampled_world_keeps_the_faced_cards_a_player_took_in_its_hand() -> None:
    st = new_state()
    auction_turn(st, "AC", "2D", "unseen")  # seat 1 holds 2H publicly
    auction_turn(st, "KC", "3D", "unseen")  # and 3H
    det = st.game.determinizer(st.observation(0))
    for i in range(20):
        world = det.sample(random.Random(i))
        assert world.hands[1] >> c("2H") & 1 and world.hands[1] >> c("3H") & 1
        assert world.hands[0] == st.hands[0]
        assert world.stock[-1] == st.stock[-1]  # the faced card stays on top


def test_a_sampled_world_has_the_opponents_hidden_bid_in_its_hand() -> None:
    st = new_state()
    do(st, 1, "bid 7D")
    det = st.game.determinizer(st.observation(0))
    for i in range(20):
        world = det.sample(random.Random(i))
        assert world.to_act() == (0,)
        assert world.bid[1] >= 0 and world.hands[1] >> world.bid[1] & 1
        world.apply(0, Action.parse("bid 2C"))
        assert world.phase == TAKE


def test_after_the_show_a_sampled_world_is_the_true_deal() -> None:
    st = new_state()
    whole_auction(st)
    det = st.game.determinizer(st.observation(1))
    world = det.sample(random.Random(0))
    assert world.hands == st.hands


def test_nothing_is_legal_for_a_seat_not_to_act_and_the_game_over_refuses_actions() -> None:
    st = new_state()
    whole_auction(st)
    assert st.legal_actions(1) == []
    _play_randomly(st)
    with pytest.raises(IllegalAction):
        st.apply(0, PASS)


def test_bid_actions_name_cards_in_the_notation_of_the_issue() -> None:
    st = new_state()
    assert Action.parse("bid 10C") in st.legal_actions(0)
    assert str(Action.parse("play 7C 7H")) == "play 7C 7H"
    assert [str(x) for x in (TAKE_FACED, TAKE_UNSEEN, PASS)] == ["take FACED", "take UNSEEN", "pass"]


def test_the_ace_is_high_in_all_three_phases() -> None:
    assert auction_winner((c("AC"), c("KS")), c("2D")) == (0, "rank")
    st = _trick_state()  # seat 0: 2H and spades 3-A; seat 1: 2S and hearts 3-A
    do(st, 0, "play 2H")
    do(st, 1, "play AH")
    assert st.tricks_won == [0, 1]
    do(st, 1, "play 2S")
    do(st, 0, "play AS")
    assert st.tricks_won == [1, 1]
    po = _playoff("2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S KC", "AC AD AH 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C")
    do(po, 0, "play KC")
    assert "play AC" in {str(a) for a in po.legal_actions(1)}
    do(po, 1, "play AC")
    assert po.legal_actions(0) == [PASS]  # nothing beats an ace; a 2 is the lowest card


def test_the_round_end_rows_split_each_seats_points_by_phase() -> None:
    """The round summary's rows (melds, tricks, play-off, bonus) add up to each seat's points;
    the tricks row is the odd-count score (ruling G2), and only one seat scores it."""
    game = make_game("glapgos", {"target": 1})
    for seed in range(20):
        state = game.new_state(seed, max_rounds=1)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        end = [e for e in state.events if e.kind == "round_end"][-1].data
        for s in range(2):
            assert sum(end[k][s] for k in ("melds", "tricks", "playoff", "bonus")) == end["points"][s]
            assert end["playoff"][s] >= 0
        assert sorted(end["tricks"])[0] == 0 and sorted(end["tricks"])[1] >= 11
