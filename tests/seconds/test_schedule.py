"""The deal schedule: seats named from the first dealer (S3), the deal passing left, the
partners and one-way half-partners of each deal (S5), each deal's scoring and its worked
examples, the game's length by edition, the winner by the second-highest total (S4)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.base import OptionError
from torite.games.seconds.rules import (
    Seconds,
    SecondsState,
    deal_scores,
    mate_position,
    second_winners,
)

from .deals import E, N, S, W, play_out

NESW = (N, E, S, W)


def random_game(options: dict[str, Any] | None = None, seed: int = 3, dealer: int = 0) -> SecondsState:
    """A whole game of random legal play; each deal's state recorded just after its deal."""
    st = Seconds(options or {}).new_state(seed, dealer=dealer)
    assert isinstance(st, SecondsState)
    rng = random.Random(seed)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    return st


def deal_starts(options: dict[str, Any] | None = None, seed: int = 3, dealer: int = 0) -> list[dict[str, Any]]:
    """The observation (seat 0's) at the start of every deal of a whole game."""
    st = Seconds(options or {}).new_state(seed, dealer=dealer)
    assert isinstance(st, SecondsState)
    out = [st.observation(0)]
    while not st.is_over():
        play_out(st)
        if not st.is_over():
            out.append(st.observation(0))
    return out


# ---------------------------------------------------------------- seats and dealers
@pytest.mark.parametrize("first", range(4))
def test_the_first_dealer_is_north_and_east_south_west_follow_clockwise(first: int) -> None:
    """Ruling S3: whoever deals first is North for the whole game."""
    for obs in deal_starts(dealer=first):
        assert [obs["north"], obs["east"], obs["south"], obs["west"]] == [(first + k) % 4 for k in range(4)]


def test_the_deal_passes_left_the_dealers_are_n_e_s_w_n_e_s_and_w_for_deal_8() -> None:
    classic = deal_starts(dealer=2)
    assert [o["dealer"] for o in classic] == [(2 + k) % 4 for k in range(7)]
    assert [o["deal_kind"] for o in classic] == [1, 2, 3, 4, 5, 6, 7]
    edition = deal_starts({"edition": "2021"}, dealer=1)
    assert [o["deal_kind"] for o in edition] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [(o["dealer"] - o["north"]) % 4 for o in edition] == [0, 1, 2, 3, 0, 1, 2, 3]  # N E S W N E S W


def test_the_player_on_the_dealers_left_leads_the_first_trick() -> None:
    for obs in deal_starts(dealer=3):
        assert obs["leader"] == obs["to_act"][0] == (obs["dealer"] + 1) % 4


@pytest.mark.parametrize(("edition", "deals"), [("classic", 7), ("2021", 8)])
def test_a_game_is_seven_deals_or_eight_with_the_2021_edition(edition: str, deals: int) -> None:
    st = random_game({"edition": edition})
    assert st.rounds_played == deals and len(st.result().round_scores) == deals
    assert st.observation(0)["deals_in_game"] == deals


# ---------------------------------------------------------------- arrangements
def mates_of(kind: int) -> list[int]:
    """Per compass position, whose tricks multiply its own (-1: nobody)."""
    return [mate_position(kind, p) for p in NESW]


def test_deal_1_partners_north_and_south_against_east_and_west() -> None:
    assert mates_of(1) == [S, W, N, E]


def test_deal_2_partners_north_and_east_against_south_and_west() -> None:
    assert mates_of(2) == [E, N, W, S]


def test_deal_3_partners_north_and_west_against_south_and_east() -> None:
    assert mates_of(3) == [W, S, E, N]


def test_deal_4_half_partners_are_left_neighbours_one_way() -> None:
    """North's half-partner is East, but East's is South, not North."""
    assert mates_of(4) == [E, S, W, N]
    assert mates_of(4)[E] != N


def test_deal_5_half_partners_are_right_neighbours_the_previous_player_clockwise() -> None:
    """Ruling S5: North's right neighbour is West."""
    assert mates_of(5) == [W, N, E, S]
    assert mates_of(5)[W] == S and mates_of(5)[S] == E


@pytest.mark.parametrize("kind", [6, 7, 8])
def test_deals_6_7_and_8_have_no_partners(kind: int) -> None:
    assert mates_of(kind) == [-1] * 4


def test_every_seat_sees_the_arrangement_its_own_mate_and_whose_score_its_tricks_count_for() -> None:
    """Deal 4 with seat 2 North: the arrangement is public; each seat also sees its own
    half-partner and the player whose half-partner it is; a spectator sees neither."""
    st = Seconds().new_state(1, dealer=1, first_round=3)  # deal 4, dealt by West = seat 1, North seat 2
    assert isinstance(st, SecondsState)
    assert (st.deal_kind, st.north, st.arrangement) == (4, 2, "left")
    for seat in range(4):
        obs = st.observation(seat)
        assert obs["mates"] == [1, 2, 3, 0] and obs["north"] == 2
        assert obs["your_mate"] == (seat + 1) % 4 and obs["your_backer"] == (seat - 1) % 4
    spectator = st.observation(None)
    assert spectator["your_mate"] is None and spectator["your_backer"] is None
    assert spectator["mates"] == [1, 2, 3, 0]


def test_the_deals_arrangement_is_announced_to_everyone_at_the_deal() -> None:
    st = Seconds().new_state(1, dealer=0)
    event = next(e for e in st.events if e.kind == "arrangement")
    assert event.data["deal"] == 1 and event.data["arrangement"] == "partners"
    assert event.data["mates"] == [2, 3, 0, 1] and event.visible_to(None)


# ---------------------------------------------------------------- scoring
def test_deal_1_scores_own_tricks_times_partners_tricks() -> None:
    """Page: tricks N 4, E 5, S 3, W 1 -> N 12, E 5, S 12, W 5."""
    assert deal_scores(1, [4, 5, 3, 1], mates_of(1), 10) == [12, 5, 12, 5]


def test_deal_4_scores_own_tricks_times_the_left_neighbours() -> None:
    """Page: tricks N 4, E 2, S 5, W 2 -> N 8, E 10, S 10, W 8."""
    assert deal_scores(4, [4, 2, 5, 2], mates_of(4), 10) == [8, 10, 10, 8]


def test_deals_2_3_and_5_score_with_their_partner_or_right_neighbour() -> None:
    tricks = [4, 5, 3, 1]
    assert deal_scores(2, tricks, mates_of(2), 10) == [20, 20, 3, 3]
    assert deal_scores(3, tricks, mates_of(3), 10) == [4, 15, 15, 4]
    assert deal_scores(5, tricks, mates_of(5), 10) == [4, 20, 15, 3]


def test_deal_6_scores_the_square_and_deal_7_the_tricks_not_taken() -> None:
    """Page: tricks 5, 4, 3, 1 score 25, 16, 9, 1 in deal 6 and 8, 9, 10, 12 in deal 7."""
    assert deal_scores(6, [5, 4, 3, 1], [-1] * 4, 10) == [25, 16, 9, 1]
    assert deal_scores(7, [5, 4, 3, 1], [-1] * 4, 10) == [8, 9, 10, 12]


def test_deal_8_scores_exact3_points_for_exactly_three_tricks_and_nothing_else() -> None:
    """Ruling S2: 10 by default, the option otherwise."""
    assert deal_scores(8, [3, 4, 3, 3], [-1] * 4, 10) == [10, 0, 10, 10]
    assert deal_scores(8, [3, 2, 8, 0], [-1] * 4, 7) == [7, 0, 0, 0]


def test_the_score_ranges_of_the_page_hold() -> None:
    splits = [[a, b, c, 13 - a - b - c] for a in range(14) for b in range(14 - a) for c in range(14 - a - b)]
    partner = [x for t in splits for k in (1, 2, 3, 4, 5) for x in deal_scores(k, t, mates_of(k), 10)]
    assert (min(partner), max(partner)) == (0, 42)
    square = [x for t in splits for x in deal_scores(6, t, [-1] * 4, 10)]
    assert (min(square), max(square)) == (0, 169)
    lose = [x for t in splits for x in deal_scores(7, t, [-1] * 4, 10)]
    assert (min(lose), max(lose)) == (0, 13)


@pytest.mark.parametrize("options", [{}, {"edition": "2021", "exact3_points": 6}], ids=["classic", "2021"])
def test_every_deal_of_a_game_is_scored_by_its_formula_from_the_tricks_taken(options: dict[str, Any]) -> None:
    """Each deal's points recomputed from its trick history alone, by the table of the page."""
    st = Seconds(options).new_state(11, dealer=1)
    assert isinstance(st, SecondsState)
    rng = random.Random(5)
    while not st.is_over():
        kind, north, rounds = st.deal_kind, st.north, st.rounds_played
        while st.rounds_played == rounds:
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        end = next(e for e in reversed(st.events) if e.kind == "round_end")
        t = end.data["tricks"]
        assert sum(t) == 13
        pos = [(s - north) % 4 for s in range(4)]  # compass position of each seat
        seat_at = {p: s for s, p in enumerate(pos)}
        if kind <= 3:
            pairs = {1: {0: 2, 1: 3}, 2: {0: 1, 2: 3}, 3: {0: 3, 1: 2}}[kind]
            mate = {**pairs, **{b: a for a, b in pairs.items()}}
            want = [t[s] * t[seat_at[mate[pos[s]]]] for s in range(4)]
        elif kind == 4:
            want = [t[s] * t[seat_at[(pos[s] + 1) % 4]] for s in range(4)]
        elif kind == 5:
            want = [t[s] * t[seat_at[(pos[s] + 3) % 4]] for s in range(4)]
        elif kind == 6:
            want = [x * x for x in t]
        elif kind == 7:
            want = [sum(t) - x for x in t]
        else:
            want = [6 if x == 3 else 0 for x in t]
        assert list(st.round_scores[-1]) == want == end.data["points"]
    assert list(st.scores) == [sum(r[s] for r in st.round_scores) for s in range(4)]


# ---------------------------------------------------------------- the winner
def test_the_second_highest_total_wins() -> None:
    """Page: totals N 120, E 131, S 118, W 131: distinct 131, 120, 118: North wins."""
    assert second_winners([120, 131, 118, 131]) == (N,)


def test_with_winner_highest_the_top_total_wins_and_ties_share() -> None:
    assert second_winners([120, 131, 118, 131], "highest") == (E, W)


def test_players_on_the_second_distinct_total_share_the_win() -> None:
    """Ruling S4."""
    assert second_winners([50, 40, 40, 10]) == (E, S)
    assert second_winners([50, 50, 40, 10]) == (S,)


def test_all_four_totals_equal_share_the_win() -> None:
    assert second_winners([30, 30, 30, 30]) == (N, E, S, W)
    assert second_winners([30, 30, 30, 30], "highest") == (N, E, S, W)


@pytest.mark.parametrize("rule", ["second", "highest"])
def test_the_games_result_names_its_winners_by_the_winner_option(rule: str) -> None:
    for seed in range(4):
        st = random_game({"winner": rule}, seed=seed)
        res = st.result()
        distinct = sorted(set(res.scores), reverse=True)
        target = distinct[1] if rule == "second" and len(distinct) > 1 else distinct[0]
        assert res.winners == tuple(s for s in range(4) if res.scores[s] == target)
        assert res.teams == ()  # everyone scores for themselves
        end = st.events[-1]
        assert end.kind == "game_end" and end.data["winners"] == list(res.winners)


# ---------------------------------------------------------------- options
def test_the_options_and_their_defaults() -> None:
    assert Seconds().options == {"edition": "classic", "winner": "second", "tie_mode": "position",
                                 "exact3_points": 10}


@pytest.mark.parametrize("bad", [{"edition": "2020"}, {"winner": "lowest"}, {"tie_mode": "rank"},
                                 {"exact3_points": -1}, {"deals": 7}])
def test_a_bad_option_is_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        Seconds(bad)
