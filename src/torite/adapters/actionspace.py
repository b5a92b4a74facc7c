"""The action space of a game: every action it can ever offer, as a fixed id, and back.

Its own part because the ids are derived from the game's declared action forms alone, with no
observation in them: ``torite.adapters.encoding`` describes the numbering (its docstring's
"The action space") and pairs this with the observation layout.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from torite.cards import iter_bits
from torite.engine.base import Action
from torite.engine.kit import TrickGame
from torite.engine.phases import Bid, Card, Cards, Choice, Word


@dataclass(frozen=True)
class _Block:
    """The ids of one ``(kind, n cards, argument)``: every ``n``-card set of the deck ranked
    combinatorially (``sets`` None), or the listed sets in order."""

    kind: str
    n: int
    arg: str
    sets: tuple[int, ...] | None

    def size(self, d: int) -> int:
        return math.comb(d, self.n) if self.sets is None else len(self.sets)


def _blocks(game: TrickGame, deck: Sequence[int]) -> list[_Block]:
    """The blocks of every action form the game's phases declare, sorted by kind, card count
    and argument; a form declared twice (Galapagos' ``play`` of one card in the tricks and the
    play-off) is one block, all card sets where either form allows all."""
    found: dict[tuple[str, int, str], set[int] | None] = {}

    def add(kind: str, n: int, arg: str, sets: set[int] | None) -> None:
        key = (kind, n, arg)
        if key in found and (found[key] is None or sets is None):
            found[key] = None
        elif key in found:
            found[key] = (found[key] or set()) | (sets or set())
        else:
            found[key] = sets

    for phase in game.phases():
        for t in phase.actions:
            if isinstance(t, Card):
                add(t.kind, 1, "", None)
            elif isinstance(t, Cards):
                for n in t.counts:
                    sets = {m for m in t.card_sets(deck) if m.bit_count() == n} if t.same_rank else None
                    add(t.kind, n, "", sets)
            elif isinstance(t, (Choice, Bid, Word)):
                for a in t.actions(deck):
                    add(a.kind, 0, a.arg, None)
            else:  # pragma: no cover - a new form needs its ids here
                raise TypeError(f"no action ids for the form {t!r}")
    pos = {c: i for i, c in enumerate(deck)}

    def rank(m: int) -> int:
        return sum(math.comb(p, i + 1) for i, p in enumerate(sorted(pos[c] for c in iter_bits(m))))

    return [_Block(k, n, arg, None if sets is None else tuple(sorted(sets, key=rank)))
            for (k, n, arg), sets in sorted(found.items())]


class ActionSpace:
    """Action ids <-> torite actions for one game and options (see the module docstring)."""

    def __init__(self, deck: Sequence[int], blocks: Sequence[_Block]) -> None:
        self.deck = list(deck)
        self.pos = {c: i for i, c in enumerate(self.deck)}
        d = len(self.deck)
        self.blocks = list(blocks)
        self.offsets: list[int] = []
        total = 0
        for b in self.blocks:
            self.offsets.append(total)
            total += b.size(d)
        self.index_of_block = {(b.kind, b.n, b.arg): i for i, b in enumerate(self.blocks)}
        self._listed = [None if b.sets is None else {m: i for i, m in enumerate(b.sets)} for b in self.blocks]
        self._ids: dict[Action, int | None] = {}
        self._actions: dict[int, Action] = {}
        self.size = total

    @classmethod
    def of(cls, game: TrickGame, deck: Sequence[int]) -> ActionSpace:
        return cls(deck, _blocks(game, deck))

    def _rank(self, cards: int) -> int:
        positions = sorted(self.pos[c] for c in iter_bits(cards))
        return sum(math.comb(p, i + 1) for i, p in enumerate(positions))

    def _unrank(self, rank: int, n: int) -> int:
        if n == 1:
            return 1 << self.deck[rank]
        cards = 0
        for i in range(n, 0, -1):
            p = i - 1
            while math.comb(p + 1, i) <= rank:
                p += 1
            rank -= math.comb(p, i)
            cards |= 1 << self.deck[p]
        return cards

    def _id(self, action: Action) -> int | None:
        try:
            return self._ids[action]
        except KeyError:
            pass
        b = self.index_of_block.get((action.kind, action.cards.bit_count(), action.arg))
        i: int | None = None
        if b is not None and all(c in self.pos for c in iter_bits(action.cards)):
            listed = self._listed[b]
            if listed is None:
                i = self.offsets[b] + self._rank(action.cards)
            elif action.cards in listed:
                i = self.offsets[b] + listed[action.cards]
        if len(self._ids) < 100_000:  # a memo: search loops ask for the same few actions
            self._ids[action] = i
        return i

    def index(self, action: Action, legal: Sequence[Action] | None = None) -> int:
        """The id of ``action`` (``legal`` is accepted for the adapters' convenience; an id never
        depends on it)."""
        i = self._id(action)
        if i is None:
            raise KeyError(f"action {str(action)!r} is outside this game's action space")
        return i

    def action(self, index: int, legal: Sequence[Action] | None = None) -> Action:
        """The action of id ``index`` (``KeyError`` when there is none)."""
        found = self._actions.get(index)
        if found is not None:
            return found
        if not 0 <= index < self.size:
            raise KeyError(f"action id {index} is outside 0..{self.size - 1}")
        action = self._action(index)
        if len(self._actions) < 100_000:  # a memo: a game offers the same few actions again
            self._actions[index] = action
        return action

    def _action(self, index: int) -> Action:
        b = bisect.bisect_right(self.offsets, index) - 1
        block = self.blocks[b]
        k = index - self.offsets[b]
        cards = self._unrank(k, block.n) if block.sets is None else block.sets[k]
        return Action(block.kind, cards if block.n else 0, block.arg)

    def mask(self, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
        """1 at the id of every action of ``legal`` (a new array)."""
        m = bytearray(self.size)  # set byte by byte, then seen as int8: faster than numpy's own
        known = self._ids.get  # the memo of ids: one lookup an action, on the hot path
        for a in legal:
            i = known(a)
            m[self.index(a) if i is None else i] = 1
        return np.frombuffer(m, np.int8)

    def labels(self) -> list[str]:
        """Every id's action text, for documentation and debugging."""
        return [str(self.action(i)) for i in range(self.size)]


def all_card_sets(deck: Sequence[int], n: int) -> list[int]:
    """Every ``n``-card mask of ``deck`` (tests compare ranks against it)."""
    return [sum(1 << c for c in combo) for combo in combinations(deck, n)]
