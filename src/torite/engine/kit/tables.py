"""The kit's speed tables: texts, masks and lookups made once at import, so the hot path (a card
played, a hand encoded, a legal-action list, a deal) is a few lookups instead of loops."""

from __future__ import annotations

import functools
import importlib.machinery
import random
from collections.abc import Callable
from typing import Any, Final

from torite.cards import CARD_TEXTS, iter_bits, notation_of
from torite.engine.base import ALL_SEATS, Action, Event
from torite.engine.trick import PLAY_ACTIONS, subset_table

#: whether the kit runs compiled (mypyc builds ``torite.build.COMPILED`` together): the few hot
#: loops whose fastest interpreted form is a C builtin over a bound method (``sum(map(...))``,
#: slow when compiled) read it to take the loop compiled code runs fastest
COMPILED: Final = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))

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
TEXT = STANDARD.texts
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

#: the card of each one-card ``play`` action: one lookup checks an action's kind, cards and
#: argument at once (an equal action made elsewhere finds its card too)
CARD_OF_PLAY: Final[dict[Action, int]] = {a: a.card for a in PLAY_ACTIONS}
#: each card's bit: ``sum(map(BIT.__getitem__, cards))`` is their mask in one C-level call
BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(54))


def _shuffle_by_calls(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws (CPython's ``shuffle`` and its
    ``_randbelow`` written out), without two Python calls per card: a deal is on the hot path.
    Interpreted, this is the fastest form; compiled, :func:`_shuffle_by_words` is."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _shuffle_by_words(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws, in one call to the generator instead of
    one a card (compiled, a call costs more than the rest of a card's work).

    Why it is the same: ``getrandbits(k)`` (k ≤ 32) is the top k bits of the generator's next
    32-bit word, and ``getrandbits(32 * m)`` is its next m words, the first lowest.  Every
    position of the shuffle takes at least one word, so those are drawn at once; a word the
    rejection loop refuses is followed by the next word, as in the original, and once the batch
    is spent each further word is drawn alone.  ``same_as_random_shuffle`` compares it with
    ``random.shuffle`` at import."""
    count = len(deck) - 1
    if count < 1:
        return
    data = rng.getrandbits(32 * count).to_bytes(4 * count, "little")
    used = 0
    for i in range(count, 0, -1):
        n = i + 1
        k = n.bit_length()
        while True:
            if used >= count:
                j = rng.getrandbits(k)
            elif k <= 8:
                j = data[4 * used + 3] >> (8 - k)  # the top bits of the word's last (high) byte
            else:
                j = int.from_bytes(data[4 * used:4 * used + 4], "little") >> (32 - k)
            used += 1
            if j < n:
                break
        deck[i], deck[j] = deck[j], deck[i]


def same_as_random_shuffle(fn: Callable[[random.Random, list[int]], None]) -> bool:
    """Whether ``fn`` shuffles exactly as this Python's ``random.shuffle`` does: the same
    permutations from the same generator, which draws no more and no less."""
    for seed in range(4):
        for size in (2, 9, 54, 300):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            fn(rb, b)
            if a != b or ra.getrandbits(32) != rb.getrandbits(32):
                return False
    return True


_SAME_SHUFFLE: Final = same_as_random_shuffle(_shuffle_by_words if COMPILED else _shuffle_by_calls)


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """Shuffle ``deck`` as ``rng.shuffle`` does (the same permutation from the same state),
    faster: for a game that shuffles a pile on the hot path."""
    if _SAME_SHUFFLE and type(rng) is random.Random:
        if COMPILED:
            _shuffle_by_words(rng, deck)
        else:
            _shuffle_by_calls(rng, deck)
    else:
        rng.shuffle(deck)
