"""The kit's speed tables: texts, masks and lookups made once at import, so the hot path (a card
played, a hand encoded, a legal-action list, a deal) is a few lookups instead of loops."""

from __future__ import annotations

import functools
from typing import Any, Final

from torite.cards import CARD_TEXTS, iter_bits, notation_of
from torite.engine.base import ALL_SEATS, Action, Event
from torite.engine.trick import subset_table

#: for each suit, the texts of every subset of its 13 cards: a hand encodes in five lookups
#: (deal events, observations), not a loop over its cards
_SUIT_TEXTS: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(subset_table(CARD_TEXTS[13 * s:13 * s + 13])
                                                             for s in range(4))


class Notation:
    """How a game writes its cards (``torite.cards.notation_of`` its deck: one joker is ``JK``,
    two are ``JK1`` and ``JK2``), with the lookups the hot path needs."""

    __slots__ = ("_jokers", "text_of", "texts")

    def __init__(self, texts: tuple[str, ...]) -> None:
        self.texts = texts
        #: a card list's texts in one C-level call (``list(map(text_of, cards))``)
        self.text_of = texts.__getitem__
        self._jokers: tuple[tuple[str, ...], ...] = subset_table(texts[52:54])

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its texts (a game keeps its notation, and a bot its game, on the way to a
        server's worker): compiled, pickle's default would rebuild it without ``__init__``'s
        argument."""
        return Notation, (self.texts,)

    def cards(self, m: int) -> list[str]:
        """The texts of the cards of ``m``, lowest card first."""
        t = _SUIT_TEXTS
        return [*t[0][m & 8191], *t[1][m >> 13 & 8191], *t[2][m >> 26 & 8191], *t[3][m >> 39 & 8191],
                *self._jokers[m >> 52 & 3]]

    def action(self, action: Action) -> str:
        """An action's text in this notation (``play JK`` in Mighty, ``play JK1`` elsewhere)."""
        parts = [action.kind, *(self.texts[c] for c in iter_bits(action.cards))]
        if action.arg:
            parts.append(action.arg)
        return " ".join(parts)


_NOTATIONS: Final[dict[tuple[str, ...], Notation]] = {}


def notation(deck: tuple[int, ...]) -> Notation:
    """The notation of a deck (one object per notation)."""
    texts = notation_of(deck)
    found = _NOTATIONS.get(texts)
    if found is None:
        found = _NOTATIONS[texts] = Notation(texts)
    return found


#: the two-joker notation, for card lists that belong to no game
STANDARD = notation(tuple(range(54)))
text_of = STANDARD.text_of
cards_enc = STANDARD.cards


def copy_json(v: Any) -> Any:
    """A deep copy of JSON-like data (lists and dicts of plain values)."""
    if isinstance(v, list):
        return [copy_json(x) for x in v]
    if isinstance(v, dict):
        return {k: copy_json(x) for k, x in v.items()}
    return v


#: per suit, the cards of the suits below it (a mask within one suit has none of them)
BELOW_SUIT: Final[tuple[int, ...]] = tuple((1 << 13 * s) - 1 for s in range(4))

#: ``(seat,)`` for each seat: ``to_act`` of a phase in turn, without a new tuple
ONE_SEAT: Final[tuple[tuple[int], ...]] = tuple((s,) for s in range(8))
#: what a play whose event shows only its card leaves in ``TrickState._later``, by seat and card,
#: made once: ``events`` makes the event's data (``{"card": text}``) when they are read, so a
#: rollout, which never reads them, makes nothing a card
PLAYED: Final[tuple[tuple[tuple[str, int, int, int], ...], ...]] = tuple(
    tuple(("play", s, c, ALL_SEATS) for c in range(54)) for s in range(8))

#: the seats of each seat mask of up to 8 seats (who decides in a simultaneous phase)
SEATS_OF: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(s for s in range(8) if p >> s & 1) for p in range(256))

#: an ``Event`` from its four fields as a plain tuple, without the Python-level ``__new__``
make_event = functools.partial(tuple.__new__, Event)

#: each card's bit: ``sum(map(BIT.__getitem__, cards))`` is their mask in one C-level call
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(54))
