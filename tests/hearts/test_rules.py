"""Hearts' rules as the rules page states them, on chosen deals: passing, the lead of 2♣, the
first trick, breaking hearts, following suit, points, the moon, one deal or a game to 100,
explicit deals, and what each seat is shown and what sampled worlds keep."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from torite.cards import card_str, mask_of_texts
from torite.engine.base import Action, IllegalAction
from torite.games.hearts.rules import DIRECTIONS, Hearts, HeartsState
from torite.testing import why

from .deals import (
    ALL_ONE_SUIT,
    CLUBS_AND_HEARTS,
    ONLY_HEARTS,
    QUEEN_AND_HEARTS,
    QUEEN_LEADER,
    cards,
    legal,
    new,
    pass_cards,
    play,
    suit,
)


def finish_randomly(st: HeartsState, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not st.is_over():
        seat = st.to_act()[0]
        options = st.legal_actions(seat)
        st.apply(seat, options[rng.randrange(len(options))])


# ------------------------------------------------------------------ the lead and following
def test_the_holder_of_the_two_of_clubs_leads_it_and_nothing_else() -> None:
    st = new(CLUBS_AND_HEARTS)
    assert st.phase == "play" and st.to_act() == (0,)
    assert legal(st, 0) == ["2C"]
    with pytest.raises(IllegalAction) as refused:
        st.apply(0, Action.parse("play 3C"))
    assert refused.value.refusal == ("lead_two_clubs", {}) and why(st, "3C") == "lead_two_clubs"


def test_players_must_follow_the_suit_led() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C")
    assert legal(st, 1) == cards(suit("C", "9-A"))
    with pytest.raises(IllegalAction, match="follow"):
        st.apply(1, Action.parse("play 2H"))
    assert why(st, "2H") == "follow"


def test_on_the_first_trick_no_heart_or_queen_of_spades_while_the_hand_has_anything_else() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC")
    assert legal(st, 2) == cards(suit("D", "8-A") + suit("S", "2-7"))
    play(st, "8D")
    # seat 3 holds hearts and spades 8 to A: the spades but Q♠
    assert legal(st, 3) == cards(["8S", "9S", "10S", "JS", "KS", "AS"])
    for bad in ("QS", "9H"):
        with pytest.raises(IllegalAction):
            st.apply(3, Action.parse(f"play {bad}"))
        assert why(st, bad) == "no_points_first_trick"


def test_on_the_first_trick_a_hand_of_hearts_and_the_queen_may_play_any_of_them() -> None:
    st = new(QUEEN_AND_HEARTS)
    play(st, "2C", "2D")
    assert legal(st, 2) == cards([*suit("S", "2-J"), "KS", "AS"])  # AH held back
    play(st, "2S")
    assert legal(st, 3) == cards(["QS", *suit("H", "2-K")])  # ruling H4
    play(st, "QS")
    assert st.history[0]["winner"] == 0 and st.round_points[0] == 13


def test_hearts_may_not_be_led_before_they_are_broken_and_the_queen_breaks_them() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC", "8D", "8S")  # seat 1 wins with AC, no points
    assert st.to_act() == (1,) and not st.hearts_broken
    assert legal(st, 1) == cards(suit("C", "9-K"))  # no hearts while clubs remain
    with pytest.raises(IllegalAction):
        st.apply(1, Action.parse("play 2H"))
    assert why(st, "2H") == "hearts_not_broken"
    play(st, "9C", "9D", "QS")  # seat 3 discards Q♠: hearts are broken at once (ruling H3)
    assert st.hearts_broken
    assert legal(st, 0) == cards(suit("C", "3-8"))  # seat 0 must still follow clubs
    play(st, "3C")
    assert st.to_act() == (1,) and st.round_points[1] == 13  # 9C beat 3C: Q♠ is 13
    assert legal(st, 1) == cards(suit("C", "10-K") + suit("H", "2-8"))


def test_the_queen_of_spades_may_be_led_before_hearts_are_broken() -> None:
    st = new(QUEEN_LEADER)
    play(st, "2C", "AC")
    assert legal(st, 2) == cards(suit("D", "9-A"))  # first trick: the diamonds, not the hearts
    play(st, "9D", "7S")
    assert st.to_act() == (1,) and not st.hearts_broken
    assert legal(st, 1) == cards([*suit("C", "8-K"), *suit("S", "2-6"), "QS"])  # ruling H3
    play(st, "QS")
    assert st.hearts_broken


def test_a_heart_discarded_breaks_hearts() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC", "8D", "8S", "9C", "9D", "9H", "3C")
    assert st.hearts_broken and st.round_points[1] == 1
    assert "2H" in legal(st, 1)


def test_a_hand_of_hearts_only_may_lead_a_heart_before_they_are_broken() -> None:
    st = new(ONLY_HEARTS)
    play(st, "2C", "3C", "2D", "2S")
    assert st.to_act() == (1,) and not st.hearts_broken
    assert legal(st, 1) == cards(suit("H", "2-K"))


def test_the_highest_card_of_the_suit_led_wins_and_other_suits_never_do() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "9C", "AD", "AS")
    assert st.history[0]["winner"] == 1  # 9C: the only club above 2C; AD and AS do not count


# ------------------------------------------------------------------ points and the moon
def test_hearts_are_one_point_each_and_the_queen_thirteen() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC", "8D", "8S", "9C", "9D", "QS", "3C")
    play(st, "2H", "10D", "9H", "4C")  # seat 3's 9H takes 2H and 9H: 2 points
    assert st.history[-1]["winner"] == 3 and st.history[-1]["points"] == 2
    assert st.round_points == [0, 13, 0, 2]
    finish_randomly(st)
    assert sum(st.round_scores[-1]) == 26


def test_taking_all_26_points_shoots_the_moon() -> None:
    st = new(ALL_ONE_SUIT)
    assert legal(st, 0) == ["2C"]
    play(st, "2C")
    assert legal(st, 1) == cards(suit("D", "2-A"))
    play(st, "2D")
    assert legal(st, 2) == cards(suit("H", "2-A"))  # nothing else to play
    play(st, "2H")
    assert "QS" not in legal(st, 3)
    finish_randomly(st)
    assert st.is_over() and st.tricks_won == [13, 0, 0, 0]
    assert st.round_scores == [(0, 26, 26, 26)]  # ruling H5
    assert st.returns() == [26, 0, 0, 0]  # OpenSpiel's return: 26 minus the points
    assert st.result().winners == (0,)
    assert st.events[-2].data["moon"] == 0
    assert st.stats()["moons"] == 1


def test_returns_are_26_minus_the_points() -> None:
    st = new(CLUBS_AND_HEARTS)
    finish_randomly(st, 3)
    pts = st.round_scores[-1]
    assert st.returns() == [26 - p for p in pts]
    assert st.result().winners == tuple(s for s in range(4) if pts[s] == min(pts))


# ------------------------------------------------------------------ passing
def test_every_seat_passes_three_cards_at_once_and_they_change_hands_together() -> None:
    st = new(CLUBS_AND_HEARTS, "left")
    assert st.phase == "pass" and st.to_act() == (0, 1, 2, 3)
    pass_cards(st, 2, "AD", "KD")
    assert st.to_act() == (0, 1, 2, 3) and st.pass_count == [0, 0, 2, 0]
    assert legal(st, 2) == cards(suit("D", "8-Q") + suit("S", "2-7"))  # the chosen cards are not offered again
    pass_cards(st, 2, "QD")
    assert st.to_act() == (0, 1, 3)
    with pytest.raises(IllegalAction, match="no pass decision"):
        st.apply(2, Action.parse("pass 8D"))
    pass_cards(st, 0, "2C", "3C", "2D")
    pass_cards(st, 1, "AC", "KC", "8H")
    assert st.hands[1] & mask_of_texts(["AC", "KC", "8H"])  # nothing moves before the last card
    pass_cards(st, 3, "QS", "AH", "KH")
    assert st.phase == "play"
    # left: seat s gives to seat s + 1
    assert st.received == [mask_of_texts(x) for x in (["QS", "AH", "KH"], ["2C", "3C", "2D"],
                                                          ["AC", "KC", "8H"], ["AD", "KD", "QD"])]
    assert st.hands[1] & mask_of_texts(["2C", "3C", "2D"]) == mask_of_texts(["2C", "3C", "2D"])
    assert all(h.bit_count() == 13 for h in st.hands)
    assert st.to_act() == (1,)  # seat 1 received 2C: it leads
    assert legal(st, 1) == ["2C"]


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("across", 2), ("right", 3)])
def test_the_pass_direction_names_the_receiver(direction: str, offset: int) -> None:
    st = new(CLUBS_AND_HEARTS, direction)
    for s in range(4):
        pass_cards(st, s, *[card_str(a.card) for a in st.legal_actions(s)][:3])
    for s in range(4):
        giver = (s - offset) % 4
        assert st.received[s] == st.passed[giver]
        assert st.hands[s] & st.passed[giver] == st.passed[giver]
        assert not st.hands[giver] & st.passed[giver]


def test_no_passing_goes_straight_to_the_play() -> None:
    st = new(CLUBS_AND_HEARTS, "none")
    assert st.phase == "play" and st.pass_direction == "none"
    with pytest.raises(IllegalAction):
        st.apply(0, Action.parse("pass 2C"))


def test_a_pass_of_a_card_not_held_or_not_a_single_card_is_refused_and_changes_nothing() -> None:
    st = new(CLUBS_AND_HEARTS, "across")
    pass_cards(st, 0, "2C")
    before = (list(st.hands), list(st.passed), list(st.pass_count), len(st.events))
    for bad in ("pass AS", "pass 2C", "pass 3C 4C", "pass", "play 3C"):
        with pytest.raises(IllegalAction):
            st.apply(0, Action.parse(bad))
    assert (list(st.hands), list(st.passed), list(st.pass_count), len(st.events)) == before


# ------------------------------------------------------------------ what each seat sees
def test_a_seat_sees_its_own_passed_and_received_cards_only() -> None:
    st = new(CLUBS_AND_HEARTS, "right")
    pass_cards(st, 0, "2C", "3C", "4C")
    pass_cards(st, 1, "AC", "KC", "QC")
    o0, o1, spectator = st.observation(0), st.observation(1), st.observation(None)
    assert o0["passed"] == ["2C", "3C", "4C"] and o1["passed"] == ["QC", "KC", "AC"]
    assert spectator["passed"] == [] and st.observation(2)["passed"] == []
    assert o0["pass_count"] == [3, 3, 0, 0]  # how many, not which, is public
    assert [e.data["card"] for e in st.events if e.kind == "pass" and e.visible_to(2)] == []
    assert [e.data["card"] for e in st.events if e.kind == "pass" and e.visible_to(0)] == ["2C", "3C", "4C"]
    pass_cards(st, 2, "AD", "KD", "QD")
    pass_cards(st, 3, "AS", "KS", "QS")
    # right: seat s gives to seat s + 3; seat 3 received seat 0's clubs
    assert st.observation(3)["received"] == ["2C", "3C", "4C"]
    assert st.observation(0)["received"] == ["QC", "KC", "AC"]
    got = [e for e in st.events if e.kind == "receive"]
    assert all(e.visible == 1 << e.seat for e in got)
    assert st.observation(None)["received"] == []


def test_a_sampled_world_keeps_the_passed_cards_with_their_receiver() -> None:
    st = new(CLUBS_AND_HEARTS, "left")
    pass_cards(st, 0, "8C", "7D", "6D")
    for s in (1, 2, 3):
        pass_cards(st, s, *[card_str(a.card) for a in st.legal_actions(s)][-3:])
    det = st.game.determinizer(st.observation(0))
    rng = random.Random(1)
    for _ in range(30):
        world = det.sample(rng)
        assert world.hands[1] & mask_of_texts(["8C", "7D", "6D"]) == mask_of_texts(["8C", "7D", "6D"])
        assert world.hands[0] == st.hands[0]
        assert world.to_act() == st.to_act()


def test_everyone_knows_the_first_leader_holds_the_two_of_clubs() -> None:
    st = new(CLUBS_AND_HEARTS, "none")
    det = st.game.determinizer(st.observation(2))
    rng = random.Random(2)
    for _ in range(20):
        world = det.sample(rng)
        assert world.hands[0] & 1 and list(world.legal_actions(0)) == [Action.parse("play 2C")]


def test_a_world_sampled_during_the_passing_passes_as_many_cards_as_each_seat_has_chosen() -> None:
    st = new(CLUBS_AND_HEARTS, "across")
    pass_cards(st, 0, "2C", "3C", "4C")
    pass_cards(st, 1, "AC")
    det = st.game.determinizer(st.observation(2))
    rng = random.Random(3)
    for i in range(20):
        world = det.sample(rng)
        assert [p.bit_count() for p in world.passed] == [3, 1, 0, 0]
        assert all(world.passed[s] & ~world.hands[s] == 0 for s in range(4))
        finish_randomly(world, i)
        assert world.is_over() and sum(world.round_scores[-1]) in (26, 78)


# ------------------------------------------------------------------ one deal or a game to 100
def test_by_default_the_game_is_one_deal_with_the_pass_direction_drawn_uniformly() -> None:
    game = Hearts()
    seen: Counter[str] = Counter()
    for seed in range(400):
        st = game.new_state(seed)
        seen[st.pass_direction] += 1
        if seed < 5:
            finish_randomly(st, seed)
            assert st.is_over() and len(st.round_scores) == 1
    assert set(seen) == set(DIRECTIONS)
    assert all(70 <= k <= 130 for k in seen.values()), seen


def test_a_game_to_100_rotates_left_right_across_none_and_ends_at_100_with_the_lowest_total_winning() -> None:
    game = Hearts({"target": 100})
    st = game.new_state(5)
    finish_randomly(st, 5)
    directions = [e.data["direction"] for e in st.events if e.kind == "pass_direction"]
    assert directions == [("left", "right", "across", "none")[r % 4] for r in range(len(directions))]
    totals = [0, 0, 0, 0]
    for r, pts in enumerate(st.round_scores):
        totals = [t + p for t, p in zip(totals, pts)]
        assert (max(totals) >= 100) == (r == len(st.round_scores) - 1)
    assert list(st.scores) == totals
    assert st.result().winners == tuple(s for s in range(4) if totals[s] == min(totals))


def test_the_lowest_total_wins_and_equal_lowest_totals_share_the_win() -> None:
    st = new(CLUBS_AND_HEARTS, options={"target": 100})
    st.scores = [30, 12, 12, 101]
    assert st.result().winners == (1, 2)  # ruling H6


def test_a_single_deal_of_a_game_to_100_passes_as_that_deal_of_the_game_would() -> None:
    game = Hearts({"target": 100})
    for r, d in enumerate(("left", "right", "across", "none", "left")):
        assert game.new_state(r, max_rounds=1, first_round=r).pass_direction == d


# ------------------------------------------------------------------ explicit deals
def test_an_explicit_deal_names_its_pass_direction_or_leaves_it_to_chance() -> None:
    for d in DIRECTIONS:
        assert new(CLUBS_AND_HEARTS, d).pass_direction == d
    st = Hearts().new_state(7, deals=[{"hands": CLUBS_AND_HEARTS}])
    assert st.pass_direction in DIRECTIONS
    assert st.hands[0] == mask_of_texts(CLUBS_AND_HEARTS[0])


@pytest.mark.parametrize("bad", ["sideways", "", 1])
def test_a_bad_pass_direction_is_refused_with_a_clear_message(bad: object) -> None:
    with pytest.raises(ValueError, match="pass_direction must be one of none, left, across, right"):
        Hearts().new_state(0, deals=[{"pass_direction": bad, "hands": CLUBS_AND_HEARTS}])


def test_a_deal_missing_a_card_is_refused() -> None:
    hands = [list(h) for h in CLUBS_AND_HEARTS]
    hands[0][0] = "3C"
    with pytest.raises(ValueError, match="bad deal 0"):
        new(hands)
