"""Cards, card masks and their notation.

A card is a small int: ``suit * 13 + (rank - 2)`` for the 52 standard cards, and 52, 53 for
the two jokers.  Within a suit a higher bit is a higher rank, so "highest card of a suit in a
hand" is one ``bit_length`` away; a set of cards (a hand, a trick's cards) is an ``int`` mask.

The notation (what records, actions and observations write) is rank then suit letter:
``10D``, ``AS``, ``QH``.  A deck with two jokers writes them ``JK1`` and ``JK2``; a deck with
one (Mighty's) writes it ``JK`` (:func:`notation_of`).  :func:`parse_card` reads every form.
What a *player* reads is never this notation: the faces render cards through
``torite.present``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

__all__ = [
    "CARD_TEXTS",
    "JOKER1",
    "JOKER2",
    "JOKERS_MASK",
    "RANK_CHARS",
    "SUITS",
    "SUIT_MASKS",
    "card_str",
    "iter_bits",
    "mask_of",
    "mask_of_texts",
    "notation_of",
    "parse_card",
]

#: the suits in bridge order, lowest first: the index of a letter is the suit's number
SUITS: Final = "CDHS"
RANK_CHARS: Final = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                     10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_PARSE: Final = {v: k for k, v in RANK_CHARS.items()} | {"T": 10}

JOKER1: Final = 52
JOKER2: Final = 53
JOKERS_MASK: Final = (1 << JOKER1) | (1 << JOKER2)
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

#: the notation of every card of a two-joker deck, by card (``card_str`` without the call)
CARD_TEXTS: Final = (*(RANK_CHARS[c % 13 + 2] + SUITS[c // 13] for c in range(52)), "JK1", "JK2")
#: the same for a deck with one joker (card 52), written ``JK``
_ONE_JOKER_TEXTS: Final = (*CARD_TEXTS[:52], "JK", "JK2")
_PARSE: Final = {s: c for c, s in enumerate(CARD_TEXTS)} | {"JK": JOKER1}


def card_str(card: int) -> str:
    """Text notation of a card in a two-joker deck: ``10D``, ``AS``, ``JK1``."""
    return CARD_TEXTS[card]


def notation_of(deck: Sequence[int]) -> tuple[str, ...]:
    """The card texts (by card) a game with ``deck`` writes: its one joker as ``JK``, or its
    two as ``JK1`` and ``JK2``."""
    one_joker = JOKER1 in deck and JOKER2 not in deck
    return _ONE_JOKER_TEXTS if one_joker else CARD_TEXTS


def parse_card(text: str) -> int:
    """Parse ``10D``, ``TD``, ``qs``, ``JK2``, ``JK`` (the first joker) or a suit symbol in
    place of the letter."""
    hit = _PARSE.get(text)  # the canonical texts every face reads back, in one look-up
    if hit is not None:
        return hit
    t = text.strip().upper()
    for sym, letter in zip("♣♦♥♠", SUITS):
        t = t.replace(sym, letter)
    if t in _PARSE:
        return _PARSE[t]
    if len(t) >= 2 and t[:-1] in _RANK_PARSE and t[-1] in SUITS:
        return SUITS.index(t[-1]) * 13 + _RANK_PARSE[t[:-1]] - 2
    if len(t) >= 2 and t[1:] in _RANK_PARSE and t[0] in SUITS:  # "S10", "HA"
        return SUITS.index(t[0]) * 13 + _RANK_PARSE[t[1:]] - 2
    raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 10D, AS, QH, JK1)")


def iter_bits(mask: int) -> Iterator[int]:
    """Card indices in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """A card mask from card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_of_texts(cards: Iterable[str | None]) -> int:
    """A card mask from card texts (as observations and records carry them); ``None`` (a card
    shown face down) is skipped."""
    m = 0
    for c in cards:
        if c is not None:
            m |= 1 << parse_card(c)
    return m
