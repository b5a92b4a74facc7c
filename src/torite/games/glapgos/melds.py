"""Galapagos meld scoring: the best disjoint combination of sets and runs in a hand (ruling G1).

A **set** is 3 or 4 cards of one rank; a **run** 3 or more cards of one suit in rank order, the
ace high (Q-K-A) or low (A-2-3) but never both (no K-A-2).  A card counts in one meld at most.
With pip values a meld card scores 2-10 at face, J/Q/K 10, the ace 11 but 1 at the low end of a
run; with ``cards`` values every meld card scores 1.  The hand scores its best combination.

Kept apart from the rules because the bot asks the same question thousands of times a game (how
much is this hand worth with that card, without this one): the value is cached by hand mask.

Cards are the kit's ints (``suit * 13 + rank - 2``; index 12 is the ace).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Final, NamedTuple

from torite.cards import card_str, iter_bits

#: pip value of a meld card by rank index (0 = the 2 … 12 = the ace, high)
PIPS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)
ACE: Final = 12
RANK_MASKS: Final = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


class Meld(NamedTuple):
    """One scoring meld: ``kind`` "set" or "run", its cards (a mask), its points, and for a run
    whether its ace counts low."""

    kind: str
    cards: int
    points: int
    ace_low: bool = False

    def texts(self) -> list[str]:
        """The meld's cards in play order (a run from its low end; a low ace first)."""
        cards = list(iter_bits(self.cards))
        if self.ace_low:
            cards = cards[-1:] + cards[:-1]
        return [card_str(c) for c in cards]


def _candidates(hand: int, by_cards: bool) -> tuple[Meld, ...]:
    """Every meld the hand holds (each sub-run and each 3-card part of a four counted)."""
    out: list[Meld] = []
    for r in range(13):
        same = hand & RANK_MASKS[r]
        cards = list(iter_bits(same))
        if len(cards) < 3:
            continue
        pip = 1 if by_cards else PIPS[r]
        if len(cards) == 4:
            out.append(Meld("set", same, 4 * pip))
        for trio in combinations(cards, 3):
            out.append(Meld("set", sum(1 << c for c in trio), 3 * pip))
    for s in range(4):
        base = s * 13
        # positions -1 (a low ace) … 12 (a high ace); a run is a stretch of held positions
        held = [hand >> (base + (ACE if p < 0 else p)) & 1 for p in range(-1, 13)]
        for start in range(14):
            if not held[start]:
                continue
            points = 0
            mask = 0
            for end in range(start, 14):
                if not held[end] or (start == 0 and end == 13):  # one ace: never both ends
                    break
                p = end - 1
                c = base + (ACE if p < 0 else p)
                mask |= 1 << c
                points += 1 if by_cards else (1 if p < 0 else PIPS[p])
                if end - start >= 2:
                    out.append(Meld("run", mask, points, start == 0))
    return tuple(out)


@lru_cache(maxsize=1 << 17)
def best_melds(hand: int, by_cards: bool = False) -> tuple[int, tuple[Meld, ...]]:
    """The hand's best total and one combination of disjoint melds that makes it.

    Exhaustive over the melds the hand holds: the lowest card still open is either left out
    or put in one of the melds containing it that fit, remembered by the mask of open cards.
    Ties between combinations go to the first found (sets before runs, shorter before longer),
    so the answer is the same every time."""
    melds = _candidates(hand, by_cards)
    if not melds:
        return 0, ()
    open_cards = 0
    for m in melds:
        open_cards |= m.cards
    by_low: dict[int, list[Meld]] = {}
    for m in melds:
        by_low.setdefault(m.cards & -m.cards, []).append(m)
    memo: dict[int, tuple[int, tuple[Meld, ...]]] = {}

    def solve(left: int) -> tuple[int, tuple[Meld, ...]]:
        if not left:
            return 0, ()
        got = memo.get(left)
        if got is not None:
            return got
        low = left & -left
        best = solve(left & ~low)  # the lowest open card in no meld
        for m in by_low.get(low, ()):
            if m.cards & ~left:
                continue
            value, chosen = solve(left & ~m.cards)
            if value + m.points > best[0]:
                best = (value + m.points, (m, *chosen))
        memo[left] = best
        return best

    return solve(open_cards)


def meld_value(hand: int, by_cards: bool = False) -> int:
    """The hand's meld points (its best combination)."""
    return best_melds(hand, by_cards)[0]


__all__ = ["PIPS", "RANK_MASKS", "Meld", "best_melds", "meld_value"]
