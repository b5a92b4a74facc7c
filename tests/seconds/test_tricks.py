"""Who takes a trick: the second-highest card of the led suit, or, when nobody followed, the
tie-aware rule over all four cards (ruling S1), with ``tie_mode = distinct`` as the other
reading.  The worked examples of the rules page are played through the rules on chosen deals."""

from __future__ import annotations

import pytest

from torite.cards import parse_card
from torite.engine.base import IllegalAction
from torite.games.seconds.rules import second_index

from .deals import E, N, S, W, hands_with, play, state, suit

SPADES = suit("S")


def winner(cards: str, tie_mode: str = "position") -> tuple[int, bool]:
    """Position of the winning card of a trick given in play order, the lead first."""
    trick = [parse_card(c) for c in cards.split()]
    return second_index(trick, trick[0] // 13, tie_mode)


# ---------------------------------------------------------------- the worked examples, played
def test_the_second_highest_card_of_the_led_suit_wins_the_trick() -> None:
    """Page, trick 1: E leads 7H, S KH, W 2H, N AH: the cards of the led suit are A K 7 2, the
    second-highest is KH, South wins."""
    st = state(hands_with({E: ["7H"], S: ["KH"], W: ["2H"], N: ["AH"]}), kind=1)
    assert st.to_act() == (E,)  # deal 1 is dealt by North: East, on the dealer's left, leads
    play(st, "7H", "KH", "2H", "AH")
    assert st.history[0]["winner"] == S
    assert st.tricks_won == [0, 0, 1, 0] and st.to_act() == (S,)  # the winner leads next
    assert not st.history[0]["nobody_followed"] and not st.history[0]["tie_break"]


def test_with_one_follower_the_lower_card_of_the_led_suit_wins_and_other_suits_do_not_count() -> None:
    """Page, trick 2: N leads 9C, E 4C, S AD, W QH: the led suit has 9 and 4, East wins."""
    st = state(hands_with({N: ["9C"], E: ["4C"], S: ["AD"], W: ["QH"]}, {S: "C", W: "C"}), kind=4)
    assert st.to_act() == (N,)  # deal 4 is dealt by West: North leads
    play(st, "9C", "4C", "AD", "QH")
    assert st.history[0]["winner"] == E
    assert not st.history[0]["nobody_followed"]


def test_when_nobody_follows_all_four_cards_count_and_the_tied_rank_goes_to_the_second_played() -> None:
    """Page, trick 3: E leads 5S, S KH, W KD, N 3C: K K 5 3, the second position holds a K; of
    the two kings West's was played second: West wins."""
    st = state(hands_with({E: SPADES, S: ["KH"], W: ["KD"], N: ["3C"]}), kind=1)
    play(st, "5S", "KH", "KD", "3C")
    assert st.history[0]["winner"] == W
    assert st.history[0]["nobody_followed"] and st.history[0]["tie_break"]
    assert st.counters["no_follow_tricks"] == 1 and st.counters["tie_tricks"] == 1


def test_four_cards_of_one_rank_go_to_the_second_player() -> None:
    """Page, trick 4: N leads 7S, the others 7H 7D 7C: East, the second to play, wins."""
    st = state(hands_with({N: SPADES, E: ["7H"], S: ["7D"], W: ["7C"]}), kind=4)
    play(st, "7S", "7H", "7D", "7C")
    assert st.history[0]["winner"] == E


# ---------------------------------------------------------------- the rule itself
@pytest.mark.parametrize(("cards", "win"), [
    ("7H KH 2H AH", 1),     # A K 7 2: the king
    ("9C 4C AD QH", 1),     # 9 4 of clubs: the four
    ("4C 9C AD QH", 0),     # the lead itself is second-highest
    ("2D 3D 4D 5D", 2),     # 5 4 3 2: the four
    ("AS KS 2C 3H", 1),     # A K: the king, whatever the other suits hold
    ("10S 2S AS 3C", 0),    # A 10 2: the ten
])
def test_the_second_highest_of_the_led_suit_wins_whatever_the_other_suits_hold(cards: str, win: int) -> None:
    assert winner(cards) == (win, False)


def test_there_are_no_trumps_an_off_suit_card_never_beats_a_follower() -> None:
    for off in ("AH", "AD", "AC", "2H"):
        assert winner(f"5S 4S {off} 3D")[0] == 1  # 5 4 of spades: the four


def test_when_nobody_follows_a_single_card_of_the_second_rank_wins() -> None:
    assert winner("5S KH QD 3C") == (2, False)  # K Q 5 3: the queen
    assert winner("KS AH 3D 2C") == (0, False)  # A K 3 2: the lead's king


def test_repeated_ranks_count_by_position() -> None:
    """K K 5 3 puts a K in second position (ruling S1 (a)); A A K 3 an ace: the second ace played."""
    assert winner("5S KH KD 3C") == (2, True)
    assert winner("AS KH AD 3C") == (2, True)


def test_two_cards_of_the_second_rank_the_later_one_wins() -> None:
    """A K K 3: the second position holds a K, held twice: the later king (index 3) wins."""
    assert winner("3S AH KD KC") == (3, True)


def test_tie_mode_distinct_takes_the_second_highest_distinct_rank() -> None:
    """Ruling S1 (b), the option: K K 5 3 -> the 5 wins; four of a rank -> the second player;
    a shared distinct rank still goes to the second played of it."""
    assert winner("5S KH KD 3C", "distinct") == (0, False)
    assert winner("7S 7H 7D 7C", "distinct") == (1, True)
    assert winner("3S AH KD KC", "distinct") == (3, True)
    assert winner("7H KH 2H AH", "distinct") == (1, False)  # someone followed: no difference


def test_tie_mode_distinct_changes_who_takes_the_page_trick_3() -> None:
    st = state(hands_with({E: SPADES, S: ["KH"], W: ["KD"], N: ["3C"]}), kind=1,
               options={"tie_mode": "distinct"})
    play(st, "5S", "KH", "KD", "3C")
    assert st.history[0]["winner"] == E


# ---------------------------------------------------------------- following suit
def test_a_player_must_follow_suit_if_able_and_may_play_anything_otherwise() -> None:
    st = state(hands_with({E: ["7H", "AS"], S: ["KH"], W: [], N: []}, {W: "H"}), kind=1)
    legal_e = {str(a) for a in st.legal_actions(E)}
    assert len(legal_e) == 13  # the leader leads anything
    play(st, "7H")
    hand_s = st.observation(S)["hand"]
    assert {str(a) for a in st.legal_actions(S)} == {f"play {c}" for c in hand_s if c.endswith("H")}
    with pytest.raises(IllegalAction, match="must follow"):
        st.apply_text(S, "play " + next(c for c in hand_s if not c.endswith("H")))
    play(st, "KH")
    assert len(st.legal_actions(W)) == 13  # void in hearts: any card
