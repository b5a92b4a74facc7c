"""Scoring (ruling Z1, joker bonus, survival bonus), the end of a round (E1) and the four
worked examples of the rules page."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.cards import card_str

from .conftest import make_game, play, setup
from .test_zombies import _emptying_deal


def _expected_points(card: str, club: int) -> int:
    if card.startswith("JK"):
        return 0
    rank, suit = card[:-1], card[-1]
    value = {"J": 11, "Q": 12, "K": 13, "A": 14}.get(rank) or int(rank)
    return {"D": value, "H": 1, "S": 0, "C": club}[suit]


@pytest.mark.parametrize("survival", [False, True])
def test_card_points_per_suit_and_rank(survival: bool) -> None:
    table = make_game(survival=survival).points
    assert len(table) == 54
    for c in range(54):
        assert table[c] == _expected_points(card_str(c), -3 if survival else -2), card_str(c)


def test_a_won_trick_scores_its_cards_for_the_winner() -> None:
    state = setup(["AD", "5H", "KC"], voids={1: "D", 2: "D"})
    play(state, "AD", "5H", "KC")
    assert state.history[-1]["points"] == 14 + 1 - 2
    assert state.observation(2)["round_points"] == [13, 0, 0]
    assert state.observation(2)["tricks_won"] == [1, 0, 0]


def test_spades_score_nothing() -> None:
    state = setup(["AS", "2S", "3S"])
    play(state, "AS", "2S", "3S")
    assert state.history[-1]["points"] == 0


def test_survival_variant_makes_clubs_minus_three() -> None:
    state = setup(["AD", "5H", "KC"], voids={1: "D", 2: "D"}, survival=True)
    play(state, "AD", "5H", "KC")
    assert state.history[-1]["points"] == 14 + 1 - 3


def test_round_scores_may_be_negative() -> None:
    state = setup(["2C", "3C", "4C"])
    play(state, "2C", "3C", "4C")
    assert state.observation(0)["round_points"] == [0, 0, -6]


def test_a_joker_that_does_not_win_scores_nothing_and_no_bonus() -> None:
    state = setup(["JK1 2C 5H", "3C AS", "4C JK2"], voids={1: "H", 2: "H"})
    play(state, "JK1", "trump S", "call C", "3C", "4C")
    assert state.history[-1]["points"] == -2 - 2 + 5  # the first joker wins and earns +5
    play(state, "5H", "AS", "JK2")  # the ace of trumps, played first, beats the joker
    assert state.history[-1]["winner"] == 1
    assert state.history[-1]["points"] == 1


def test_joker_win_scores_five_more() -> None:
    state = setup(["5S", "6S", "JK1"])
    play(state, "5S", "6S", "JK1", "trump D")
    assert state.history[-1]["points"] == 5


def _zombie_10d_to_seat_1(**options: object):  # type: ignore[no-untyped-def]
    """Trick 1 gives seat 1 the zombie 10D; seat 1 leads trick 2.  Seat 0 holds no diamond."""
    state = setup(["7S 5C 6C", "KS", "7H 3D QD"], after_top="10D", voids={0: "D", 2: "S"}, **options)
    play(state, "7S", "KS", "7H")
    assert state.observation(0)["zombies"][1] == ["10D"]
    return state


def test_zombie_win_doubles_the_diamonds_of_the_trick_ruling_z1() -> None:
    state = _zombie_10d_to_seat_1()
    play(state, "10D", "3D", "5C")
    assert state.history[-1]["winner"] == 1
    assert state.history[-1]["points"] == (10 + 3) * 2 - 2


def test_zombie_win_does_not_double_penalties_by_default_ruling_z1() -> None:
    state = setup(["7S 5C", "KS", "7H 6C"], after_top="10D", voids={0: "D", 2: "SD"})
    play(state, "7S", "KS", "7H")
    play(state, "10D", "6C", "5C")
    assert state.history[-1]["points"] == 10 * 2 - 2 - 2


def test_zombie_doubles_trick_doubles_every_card_penalties_too() -> None:
    state = setup(["7S 5C", "KS", "7H 6C"], after_top="10D", voids={0: "D", 2: "SD"},
                  zombie_doubles="trick")
    play(state, "7S", "KS", "7H")
    play(state, "10D", "6C", "5C")
    assert state.history[-1]["points"] == (10 - 2 - 2) * 2


def test_zombie_doubles_trick_also_doubles_hearts() -> None:
    state = setup(["7S 5H", "KS", "7H 3D"], after_top="10D", voids={0: "D", 2: "S"},
                  zombie_doubles="trick")
    play(state, "7S", "KS", "7H")
    play(state, "10D", "3D", "5H")
    assert state.history[-1]["points"] == (10 + 3 + 1) * 2


def test_a_zombie_in_the_trick_that_does_not_win_doubles_nothing() -> None:
    state = _zombie_10d_to_seat_1()
    play(state, "10D", "QD", "5C")
    assert state.history[-1]["winner"] == 2
    assert state.history[-1]["points"] == 10 + 12 - 2


@pytest.mark.parametrize(("mode", "points"), [("diamonds", 5 * 2 - 2 + 5), ("trick", (5 - 2) * 2 + 5)])
def test_a_zombie_joker_earns_both_bonuses(mode: str, points: int) -> None:
    # ruling B1: the +5 is added after any doubling
    state = setup(["7S 3C", "KS", "7H 5D"], after_top="JK1", voids={0: "D", 2: "S"}, zombie_doubles=mode)
    play(state, "7S", "KS", "7H")
    assert state.observation(0)["zombies"][1] == ["JK1"]
    play(state, "JK1", "trump H", "call D", "5D", "3C")
    rec = state.history[-1]
    assert rec["winner"] == 1 and rec["zombie"][0] is True
    assert rec["points"] == points


def test_round_ends_when_any_hand_is_empty_at_the_start_of_a_trick_ruling_e1() -> None:
    state = _emptying_deal(max_rounds=1)
    for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]:
        play(state, f"{r}S", f"{r}D", f"{r}C")
    assert not state.is_over()
    play(state, "2H", "5H", "8H")
    assert state.is_over()
    obs = state.observation(None)
    assert obs["hand_sizes"] == [12, 0, 0]  # seat 0 still holds its twelve zombies
    assert len(obs["tricks"]) == 14


def test_survival_bonus_scores_each_heart_left_in_hand() -> None:
    state = _emptying_deal(max_rounds=1)
    for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]:
        play(state, f"{r}S", f"{r}D", f"{r}C")
    play(state, "2H", "5H", "8H")
    # seat 0: diamonds 2..A (104) and a club per trick (-26); 10 hearts left (zombies too) -> +20
    assert state.result().round_scores == ((104 - 26 + 20, 0, 3),)
    assert state.result().scores == (98, 0, 3)
    assert state.stats()["survival_points"] == 20


def test_survival_variant_scores_three_per_heart_left() -> None:
    state = _emptying_deal(max_rounds=1, survival=True)
    for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]:
        play(state, f"{r}S", f"{r}D", f"{r}C")
    play(state, "2H", "5H", "8H")
    assert state.result().round_scores == ((104 - 39 + 30, 0, 3),)


# ------------------------------------------------------------- the worked examples, as printed
def test_worked_example_1_pair_of_sevens() -> None:
    """Lead 7S, KS, 7H. KS wins. The 7s pair: a zombie rises to the KS player. +1."""
    state = setup(["7S", "KS", "7H"], after_top="9D", voids={2: "S"})
    play(state, "7S", "KS", "7H")
    rec = state.history[-1]
    assert (rec["winner"], rec["risen"], rec["points"]) == (1, "9D", 1)
    assert state.observation(2)["zombies"] == [[], ["9D"], []]


def test_worked_example_2_first_joker_declares_clubs() -> None:
    """Lead QD, joker (first of the round, declares clubs), AD. The joker wins: 12+14+5 = 31.
    From the next trick on clubs are trump."""
    state = setup(["QD 4H", "JK1 5H", "AD 2C"], voids={2: "H"})
    play(state, "QD", "JK1", "trump C", "AD")
    rec = state.history[-1]
    assert (rec["winner"], rec["points"]) == (1, 31)
    assert state.observation(0)["trump_in_force"] == "C"
    play(state, "5H", "2C", "4H")  # the next trick: a small club trumps
    assert state.history[-1]["winner"] == 2


def test_worked_example_3_ace_of_trumps_before_the_joker() -> None:
    """Trump hearts. Lead 9C, AH, joker. AH was played first among the equal top cards and
    wins: 9C -2, AH +1 -> -1."""
    state = setup(["JK1 9C", "2D AH", "3D JK2"], voids={1: "C"})
    play(state, "JK1", "trump H", "call D", "2D", "3D")
    assert state.observation(0)["trump_in_force"] == "H"
    play(state, "9C", "AH", "JK2")
    rec = state.history[-1]
    assert (rec["winner"], rec["points"]) == (1, -1)


def test_worked_example_4_zombie_ten_of_diamonds() -> None:
    """The winner's card is a zombie 10D and the trick holds 10D, 3D, 5C: (10+3)x2 = 26,
    club -2 -> 24."""
    state = _zombie_10d_to_seat_1()
    play(state, "10D", "3D", "5C")
    rec = state.history[-1]
    assert rec["cards"] == ["10D", "3D", "5C"] and rec["zombie"] == [True, False, False]
    assert (rec["winner"], rec["points"]) == (1, 24)


@pytest.mark.parametrize("options", [{}, {"survival": True, "zombie_doubles": "trick"}, {"players": 2}])
def test_the_round_end_breakdown_adds_up_to_each_seats_points(options: dict[str, Any]) -> None:
    """The round summary's rows (diamonds, clubs, hearts taken, joker bonus, zombie doubling,
    surviving hearts) are each seat's points split by where they came from."""
    game = make_game(**options)
    rows = ("diamonds", "clubs", "hearts_taken", "joker_bonus", "zombie_bonus", "hearts")
    for seed in range(25):
        state = game.new_state(seed, max_rounds=1)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        end = [e for e in state.events if e.kind == "round_end"][-1].data
        for s in range(game.num_players):
            assert sum(end[k][s] for k in rows) == end["points"][s]
            assert end["clubs"][s] <= 0 <= end["diamonds"][s]
            if options.get("zombie_doubles", "diamonds") == "diamonds":  # a doubled trick doubles its clubs too
                assert end["zombie_bonus"][s] >= 0
        assert sum(end["tricks"]) == len(state.history)


def test_a_sampled_state_carries_the_tricks_taken_so_far_into_the_breakdown() -> None:
    """The breakdown's cards taken and joker bonus are kept as the tricks fall; a state the
    determinizer samples mid-round rebuilds them from the public tricks, so a search's
    rollout ends with rows that still add up."""
    game = make_game()
    for seed in range(10):
        state = game.new_state(seed, max_rounds=1)
        rng = random.Random(seed)
        while len(state.history) < 6 or state.to_act() != (0,):
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        sampled = game.determinizer(state.observation(0)).sample(rng)
        assert (sampled.won_cards, sampled.joker_bonus) == (state.won_cards, state.joker_bonus)
        while not sampled.is_over():
            seat = sampled.to_act()[0]
            sampled.apply(seat, rng.choice(sampled.legal_actions(seat)))
        end = [e for e in sampled.events if e.kind == "round_end"][-1].data
        rows = ("diamonds", "clubs", "hearts_taken", "joker_bonus", "zombie_bonus", "hearts")
        for s in range(game.num_players):
            assert sum(end[k][s] for k in rows) == end["points"][s]
