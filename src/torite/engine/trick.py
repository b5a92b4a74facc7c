"""Small rules that trick games really share: the follow-suit rule and ``play`` actions.

The round flow, dealing, observations and the determinizer are the game kit's
(``torite.engine.kit``); this module holds what the kit and the games' hooks both call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, TypeVar

from torite.cards import SUITS
from torite.engine.base import Action

T = TypeVar("T")

#: ``play`` actions, one per card, made once: legal-action lists are built on the hot path.
PLAY_ACTIONS: Final[tuple[Action, ...]] = tuple(Action("play", 1 << c) for c in range(54))


def plain_winner(cards: Sequence[int], led: int, trump: int) -> int:
    """Index of the winning card by the plain rule: the highest trump (``trump`` -1: none),
    else the highest card of the led suit; a joker or a card of another suit never wins, except
    the first card when nothing else qualifies (a powerless led joker: Mighty's A13).  A game
    with more to its rule (the Mighty, a joker with power) decides those cards first."""
    best, best_value = 0, -1
    for i, c in enumerate(cards):
        suit = c // 13
        value = 100 + c % 13 if suit == trump else c % 13 if suit == led else -1
        if value > best_value:
            best, best_value = i, value
    return best


def subset_table(items: Sequence[T]) -> tuple[tuple[T, ...], ...]:
    """For every mask ``m`` of ``len(items)`` bits, the items of its set bits, lowest first:
    each subset's is its lowest item before the rest's (already made), so a table over one
    suit's 13 cards (8192 tuples) is quick to build at import."""
    table: list[tuple[T, ...]] = [()]
    for m in range(1, 1 << len(items)):
        low = m & -m
        table.append((items[low.bit_length() - 1], *table[m ^ low]))
    return tuple(table)


#: for each suit, the ``play`` actions of every subset of its 13 cards (8192 tuples a suit), and
#: of the two jokers: a legal-action list is then four lookups, not a loop over the cards
_BY_SUIT: Final[tuple[tuple[tuple[Action, ...], ...], ...]] = tuple(subset_table(PLAY_ACTIONS[13 * s:13 * s + 13])
                                                             for s in range(4))
_JOKERS: Final[tuple[tuple[Action, ...], ...]] = subset_table(PLAY_ACTIONS[52:54])


def play_actions(mask: int) -> list[Action]:
    """The ``play`` actions of the cards in ``mask``, lowest card first."""
    t = _BY_SUIT
    return [*t[0][mask & 8191], *t[1][mask >> 13 & 8191], *t[2][mask >> 26 & 8191], *t[3][mask >> 39 & 8191],
            *_JOKERS[mask >> 52 & 3]]


def suits_of(letters: Iterable[str]) -> int:
    """A bit per suit from suit letters (``["C", "H"]`` → 0b0101)."""
    m = 0
    for x in letters:
        m |= 1 << SUITS.index(x)
    return m
