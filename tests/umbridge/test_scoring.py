"""Contract-bridge scoring (rules page "Scoring", §8 of the specification) against a table of
known results: every row of the page's tables, slams, doubled and redoubled contracts, honours,
rubber bonuses, Chicago, and the page's worked examples."""

from __future__ import annotations

import pytest

from torite.cards import parse_card
from torite.games.umbridge.scoring import (
    chicago_bonus,
    chicago_vulnerable,
    contract_score,
    honours_points,
    insult_points,
    overtrick_points,
    rubber_bonus,
    slam_points,
    trick_points,
    undertrick_points,
    unfinished_bonus,
)


def mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


# level -> (clubs/diamonds, hearts/spades, no trump), undoubled
TRICK_POINTS = {1: (20, 30, 40), 2: (40, 60, 70), 3: (60, 90, 100), 4: (80, 120, 130), 5: (100, 150, 160),
                6: (120, 180, 190), 7: (140, 210, 220)}


@pytest.mark.parametrize("level", range(1, 8))
def test_contract_points_per_odd_trick_minors_20_majors_30_no_trump_40_then_30(level: int) -> None:
    minor, major, nt = TRICK_POINTS[level]
    for doubled in (0, 1, 2):
        factor = (1, 2, 4)[doubled]
        assert trick_points(level, "C", doubled) == trick_points(level, "D", doubled) == minor * factor
        assert trick_points(level, "H", doubled) == trick_points(level, "S", doubled) == major * factor
        assert trick_points(level, "NT", doubled) == nt * factor


# every row of the undertrick table: down -> (NV undoubled, doubled, redoubled, V undoubled, doubled, redoubled)
UNDERTRICKS = {
    1: (50, 100, 200, 100, 200, 400),
    2: (100, 300, 600, 200, 500, 1000),
    3: (150, 500, 1000, 300, 800, 1600),
    4: (200, 800, 1600, 400, 1100, 2200),  # "each further": +50 +300 +600 +100 +300 +600
    5: (250, 1100, 2200, 500, 1400, 2800),
    13: (650, 3500, 7000, 1300, 3800, 7600),
}


@pytest.mark.parametrize("down", sorted(UNDERTRICKS))
def test_undertricks_follow_the_table_row_by_row(down: int) -> None:
    got = tuple(undertrick_points(down, doubled, vul) for vul in (False, True) for doubled in (0, 1, 2))
    assert got == UNDERTRICKS[down]


def test_overtricks_at_trick_value_undoubled_and_100_200_400_doubled_or_redoubled() -> None:
    assert overtrick_points(2, "C", 0, False) == overtrick_points(2, "D", 0, True) == 40
    assert overtrick_points(2, "H", 0, False) == overtrick_points(2, "S", 0, True) == 60
    assert overtrick_points(2, "NT", 0, False) == 60  # NT overtricks are 30, not 40
    assert overtrick_points(1, "C", 1, False) == 100 and overtrick_points(1, "C", 1, True) == 200
    assert overtrick_points(1, "NT", 2, False) == 200 and overtrick_points(1, "NT", 2, True) == 400
    assert overtrick_points(3, "S", 2, True) == 1200


def test_making_a_doubled_contract_scores_50_and_redoubled_100() -> None:
    assert (insult_points(0), insult_points(1), insult_points(2)) == (0, 50, 100)


def test_slams_bid_and_made_small_500_or_750_grand_1000_or_1500() -> None:
    assert (slam_points(6, False), slam_points(6, True)) == (500, 750)
    assert (slam_points(7, False), slam_points(7, True)) == (1000, 1500)
    assert slam_points(5, True) == 0
    # a slam made with an overtrick, or a level 5 contract taking 13 tricks: no slam bonus for the latter
    assert contract_score(6, "H", 0, True, 13).slam == 750
    assert contract_score(5, "H", 0, False, 13).slam == 0


def test_a_slam_that_goes_down_earns_no_bonus() -> None:
    cs = contract_score(7, "NT", 0, False, 12)
    assert not cs.made and cs.slam == 0 and cs.undertricks == 50


# known results: (level, denom, doubled, vulnerable, tricks) -> (below, declarer above, defender above)
KNOWN = [
    ((4, "S", 0, False, 11), (120, 30, 0)),   # worked example: NV 4♠ making 11
    ((3, "NT", 1, True, 7), (0, 0, 500)),     # worked example: V 3NT doubled, down 2
    ((2, "H", 1, False, 8), (120, 50, 0)),    # worked example: NV 2♥ doubled made exactly
    ((6, "C", 0, False, 12), (120, 500, 0)),  # worked example: NV 6♣ made
    ((1, "NT", 0, False, 7), (40, 0, 0)),
    ((3, "NT", 0, False, 9), (100, 0, 0)),
    ((5, "D", 0, True, 11), (100, 0, 0)),
    ((1, "C", 1, False, 7), (40, 50, 0)),
    ((1, "C", 2, True, 9), (80, 100 + 2 * 400, 0)),
    ((7, "NT", 2, True, 13), (880, 100 + 1500, 0)),
    ((7, "S", 1, False, 13), (420, 50 + 1000, 0)),
    ((4, "H", 0, True, 9), (0, 0, 100)),
    ((4, "H", 2, False, 6), (0, 0, 1600)),    # redoubled NV down 4
]


@pytest.mark.parametrize(("contract", "expected"), KNOWN, ids=[str(c) for c, _ in KNOWN])
def test_known_contract_results(contract: tuple[int, str, int, bool, int], expected: tuple[int, int, int]) -> None:
    cs = contract_score(*contract)
    assert (cs.below, cs.declarer_above, cs.defender_above) == expected
    assert cs.made == (contract[4] >= 6 + contract[0])


def test_an_impossible_contract_result_is_refused() -> None:
    for bad in ((0, "S", 0, False, 7), (8, "S", 0, False, 7), (1, "X", 0, False, 7), (1, "S", 3, False, 7),
                (1, "S", 0, False, 14)):
        with pytest.raises(ValueError):
            contract_score(*bad)


def test_honours_four_of_five_trump_honours_100_all_five_150_four_aces_at_no_trump_150() -> None:
    assert honours_points(mask("AS KS QS JS 2C"), 3) == 100
    assert honours_points(mask("KS QS JS 10S"), 3) == 100
    assert honours_points(mask("AS KS QS JS 10S"), 3) == 150
    assert honours_points(mask("AS KS QS 2S"), 3) == 0
    assert honours_points(mask("AS KS QS JS"), 2) == 0  # not the trump suit
    assert honours_points(mask("AC AD AH AS"), -1) == 150
    assert honours_points(mask("AC AD AH KS"), -1) == 0
    assert honours_points(mask("AS KS QS JS 10S"), -1) == 0  # at NT only the aces count


def test_rubber_bonus_700_two_games_to_none_500_two_to_one() -> None:
    assert rubber_bonus([2, 0]) == [700, 0]
    assert rubber_bonus([1, 2]) == [0, 500]
    assert rubber_bonus([1, 1]) == [0, 0]


def test_unfinished_rubber_300_for_a_game_100_for_a_part_score() -> None:
    assert unfinished_bonus([1, 0], [0, 40]) == [300, 100]
    assert unfinished_bonus([1, 1], [60, 0]) == [400, 300]
    assert unfinished_bonus([0, 0], [0, 0]) == [0, 0]


def test_chicago_game_300_or_500_part_score_50_nothing_when_down() -> None:
    assert chicago_bonus(contract_score(4, "S", 0, False, 10), False) == 300
    assert chicago_bonus(contract_score(3, "NT", 0, True, 9), True) == 500
    assert chicago_bonus(contract_score(2, "H", 1, False, 8), False) == 300  # doubled into game
    assert chicago_bonus(contract_score(2, "H", 0, False, 8), False) == 50
    assert chicago_bonus(contract_score(4, "S", 0, False, 9), False) == 0


def test_chicago_vulnerability_deal_1_nobody_2_and_3_the_dealer_4_both() -> None:
    assert chicago_vulnerable(0, dealer=1) == [False, False]
    assert chicago_vulnerable(1, dealer=1) == [False, True]
    assert chicago_vulnerable(2, dealer=0) == [True, False]
    assert chicago_vulnerable(3, dealer=0) == [True, True]
