"""The meld optimiser against a brute force written from the definition (ruling G1).

The brute force knows nothing of the optimiser's candidate lists: it tries every group of cards
sharing a rank or a suit with the lowest card left, keeps the groups that are melds by the
definition (3-4 of a rank; 3+ of a suit in order, the ace high or low), and takes the best
total over every way of covering the hand.  2,000 seeded hands, many dense in melds.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from torite.cards import iter_bits
from torite.games.glapgos.melds import best_melds

PIP = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)


def meld_points(cards: tuple[int, ...], by_cards: bool) -> int | None:
    """The points of ``cards`` as a single meld, or None if they are none."""
    if len(cards) < 3:
        return None
    ranks = [x % 13 for x in cards]
    suits = {x // 13 for x in cards}
    if len(set(ranks)) == 1 and len(cards) <= 4:
        return len(cards) if by_cards else sum(PIP[r] for r in ranks)
    if len(suits) != 1:
        return None
    best = None
    high = sorted(ranks)
    if high == list(range(high[0], high[0] + len(high))):
        best = len(cards) if by_cards else sum(PIP[r] for r in high)
    low = sorted(-1 if r == 12 else r for r in ranks)
    if 12 in ranks and low == list(range(-1, -1 + len(low))):
        value = len(cards) if by_cards else sum(1 if r < 0 else PIP[r] for r in low)
        best = value if best is None else max(best, value)
    return best


def brute(hand: int, by_cards: bool) -> int:
    @cache
    def go(left: int) -> int:
        if not left:
            return 0
        low = (left & -left).bit_length() - 1
        rest = left & ~(1 << low)
        best = go(rest)
        mates = [x for x in iter_bits(rest) if x % 13 == low % 13 or x // 13 == low // 13]
        for k in range(2, len(mates) + 1):
            for group in combinations(mates, k):
                points = meld_points((low, *group), by_cards)
                if points is not None:
                    used = sum(1 << x for x in group)
                    best = max(best, points + go(rest & ~used))
        return best

    return go(hand)


def hands(count: int) -> list[int]:
    rng = random.Random(20261130)
    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            pool = list(range(52))
        elif kind == 1:  # a band of 5 ranks in every suit: many sets and runs
            lo = rng.randrange(-1, 9)
            pool = [s * 13 + (12 if r < 0 else r) for s in range(4) for r in range(lo, lo + 5)]
        elif kind == 2:  # 2 suits: long runs, ace low and high
            a, b = rng.sample(range(4), 2)
            pool = [s * 13 + r for s in (a, b) for r in range(13)]
        else:  # 3 suits of 7 ranks around the ace
            suits = rng.sample(range(4), 3)
            pool = [s * 13 + r for s in suits for r in (12, 0, 1, 2, 9, 10, 11)]
        out.append(sum(1 << x for x in rng.sample(pool, 13)))
    return out


@pytest.mark.parametrize("by_cards", [False, True], ids=["pips", "cards"])
def test_the_optimiser_finds_the_best_total_on_1000_hands_each_way(by_cards: bool) -> None:
    for hand in hands(1000):
        total, melds = best_melds(hand, by_cards)
        assert total == brute(hand, by_cards), f"hand {sorted(iter_bits(hand))}"
        used = 0
        for m in melds:
            assert not m.cards & used and m.cards & ~hand == 0
            used |= m.cards
            assert meld_points(tuple(iter_bits(m.cards)), by_cards) == m.points
        assert sum(m.points for m in melds) == total


def test_the_hands_tried_are_rich_in_melds() -> None:
    """The test above means something: most hands hold melds, many hold several."""
    totals = [len(best_melds(h)[1]) for h in hands(400)]
    assert sum(t >= 1 for t in totals) > 250 and sum(t >= 3 for t in totals) > 60
