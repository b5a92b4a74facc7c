"""Cards and card sets.

A card is a small int: ``suit * 13 + (rank - 2)`` for the 52 standard cards, and 52, 53 for
the two jokers.  Within a suit a higher bit is a higher rank, so "highest card of a suit in a
hand" is one ``bit_length`` away.  A :class:`CardSet` is an immutable bitmask over those ints;
rules modules keep raw ``int`` masks on their hot paths and hand ``CardSet`` to callers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

__all__ = [
    "FULL_52",
    "FULL_54",
    "JOKER1",
    "JOKER2",
    "JOKERS_MASK",
    "SUIT_MASKS",
    "Card",
    "CardSet",
    "Suit",
    "card_str",
    "iter_bits",
    "mask_of",
    "parse_card",
    "rank_of",
    "stripped_deck",
    "suit_of",
]


class Suit(IntEnum):
    """Suits in bridge order, lowest first (clubs, diamonds, hearts, spades)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Accept a letter (``S``), a symbol (``♠``) or an English name (``spades``)."""
        t = text.strip()
        if len(t) == 1:
            for s in cls:
                if t.upper() == s.letter or t == s.symbol:
                    return s
        for s in cls:
            if t.lower() in (s.name.lower(), s.name.lower()[:-1]):
                return s
        raise ValueError(f"not a suit: {text!r} (use C, D, H or S)")


RANK_CHARS: Final = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
                     10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_PARSE: Final = {v: k for k, v in RANK_CHARS.items()} | {"T": 10}

JOKER1: Final = 52
JOKER2: Final = 53
JOKERS_MASK: Final = (1 << JOKER1) | (1 << JOKER2)
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_52: Final = (1 << 52) - 1
FULL_54: Final = FULL_52 | JOKERS_MASK


def suit_of(card: int) -> int:
    """Suit index of a card; -1 for a joker."""
    return card // 13 if card < 52 else -1


def rank_of(card: int) -> int:
    """Rank 2..14 (ace high); 0 for a joker."""
    return card % 13 + 2 if card < 52 else 0


def _card_str(card: int) -> str:
    if card == JOKER1:
        return "JK1"
    if card == JOKER2:
        return "JK2"
    if not 0 <= card < 52:
        raise ValueError(f"not a card index: {card}")
    return RANK_CHARS[card % 13 + 2] + "CDHS"[card // 13]


_STRS: Final = tuple(_card_str(c) for c in range(54))
_PARSE: Final = {s: c for c, s in enumerate(_STRS)}


def card_str(card: int) -> str:
    """Text notation of a card: ``10D``, ``AS``, ``JK1``."""
    return _STRS[card]


def parse_card(text: str) -> int:
    """Parse ``10D``, ``TD``, ``qs``, ``JK2`` (or a suit symbol in place of the letter)."""
    t = text.strip().upper()
    for sym, letter in zip("♣♦♥♠", "CDHS"):
        t = t.replace(sym, letter)
    if t in _PARSE:
        return _PARSE[t]
    if len(t) >= 2 and t[:-1] in _RANK_PARSE and t[-1] in "CDHS":
        return "CDHS".index(t[-1]) * 13 + _RANK_PARSE[t[:-1]] - 2
    if len(t) >= 2 and t[1:] in _RANK_PARSE and t[0] in "CDHS":  # "S10", "HA"
        return "CDHS".index(t[0]) * 13 + _RANK_PARSE[t[1:]] - 2
    raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 10D, AS, QH, JK1)")


class Card(int):
    """A card as a small int with a readable ``str`` and a parser."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 54:
            raise ValueError(f"not a card index: {value}")
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def suit(self) -> Suit | None:
        return None if self >= 52 else Suit(self // 13)

    @property
    def rank(self) -> int:
        return rank_of(self)

    @property
    def is_joker(self) -> bool:
        return self >= 52

    def __str__(self) -> str:
        return _STRS[self]

    def __repr__(self) -> str:
        return f"Card({_STRS[self]})"


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


def stripped_deck(low_rank: int, *, jokers: int = 0) -> int:
    """A mask of every card from ``low_rank`` to ace in each suit, plus ``jokers`` jokers."""
    m = 0
    for s in range(4):
        for r in range(low_rank, 15):
            m |= 1 << (s * 13 + r - 2)
    if jokers >= 1:
        m |= 1 << JOKER1
    if jokers >= 2:
        m |= 1 << JOKER2
    return m


class CardSet:
    """An immutable set of cards backed by a bitmask int."""

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[int] | int = 0) -> None:
        self.mask: int = cards if isinstance(cards, int) else mask_of(cards)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse a space- or comma-separated list of cards."""
        parts = text.replace(",", " ").split()
        return cls(parse_card(p) for p in parts)

    def __iter__(self) -> Iterator[Card]:
        return (Card(c) for c in iter_bits(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 54 and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __str__(self) -> str:
        return " ".join(_STRS[c] for c in iter_bits(self.mask))

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
