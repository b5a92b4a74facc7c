"""Fixed-size numbers for any torite game: an observation vector and an enumerated action space.

Research frameworks want a tensor of one fixed shape per game and a fixed set of action ids
with a legality mask.  torite games speak JSON-ready observations and actions such as
``play 10D`` or ``bury QC KC``.  This module derives both encodings *from the game's published
description* (``game.schema()``: its declared phases, the forms of their actions, its piles,
fields and views), so a game registered tomorrow is covered with no code here, every action a
game can ever offer has an id, and the layout is the same for every seed.

**The action space.**  An action is ``kind`` + a set of cards + an argument.  Each declared
action form gives blocks of ids: a card (``play``) one id per card of the deck; several cards
(``bury``) one per ``n``-card set, ranked by the combinatorial number system over the deck's
cards in index order, or, for sets of one rank (Galapagos' pairs), one per such set in the same
order; a word with an argument (``trump S``) or a bid (``bid 15 H``) one id per argument.  The
blocks are ordered by kind, card count and argument text.  There are no other ids: an action
outside the space is a bug of the game's declarations (the conformance suite checks every legal
action is declared), and raises ``KeyError`` with its text.

**The observation vector** (``float32``), segments in this order (``N`` seats, ``D`` deck cards
in index order, ``S`` = 5 suits C D H S and joker/none; "one-hot" segments are all zero for
``None``):

====================  ==========  ==================================================
segment               size        content
====================  ==========  ==================================================
``seat``              N           one-hot: the observing seat
``phase``             P+1         one-hot over the declared phases, last = game over
``to_act``            N           seats deciding now
``turn``              N           one-hot
``dealer``            N           one-hot
``leader``            N           one-hot: the current trick's leader
``round``             1           the round number
``led``               S           one-hot: the suit led to the current trick
``hand``              D           the seat's hand
``hand_sizes``        N           cards held by each seat
``scores``            N           game totals
``round_points``      N           points of the round so far
``tricks_won``        N           tricks won this round
``voids``             N x S       suits each seat has shown it lacks
``trick``             N x D       the current trick: the card each seat played
``played``            N x D       every card each seat played this round (finished tricks)
``won``               N x D       the cards of the tricks each seat won this round
``tricks_played``     1           finished tricks this round
``trick.<key>``       D           the cards a declared trick slot (a flag or a card) or trick
                                  fact (a card) marks in this round's finished tricks
``trick.now.<key>``   D           the same in the current trick (trick slots)
``<key>``             varies      every declared pile, field, view and role, by its kind:
                                  int or bool 1; seat or a number that may be None 2
                                  (present, value); card D one-hot; suit S one-hot; a word
                                  one-hot over its declared values + 1 "another"; a contract
                                  one-hot over the game's contracts + 1; cards, card texts
                                  and a seen pile D (+1: count of face-down entries); per-seat
                                  cards N x D; per-seat numbers or flags N
====================  ==========  ==================================================

Left out: ``game``, ``options`` (constant), ``stats`` (totals for statisticians),
``round_scores`` (earlier rounds; ``scores`` sums them), ``num_players``, ``max_rounds``,
``winning`` (derived from the trick), a pile nobody ever sees (its size is kept), free text and
lists of other shapes (an auction's calls).  :func:`describe` lists a game's segments with
offsets; ``docs/research.md`` prints them for the shipped games.  Values are raw (points are
points), not normalised.

**Kept up to date.**  :meth:`ObsSpec.encode` encodes an observation whole; an environment asks
for one at every step, so the adapters keep each seat's vector with a :class:`Tracker`, which
writes only what changed since it was last asked (each finished trick read once, the rest
compared with what the vector holds) and equals the whole encoding at every step.
"""

from __future__ import annotations

import bisect
import copy
import functools
import json
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from torite.cards import SUITS, iter_bits, parse_card
from torite.engine.base import Action
from torite.engine.kit import OVER, Field, Pile, Role, TrickGame, TrickState, views
from torite.engine.phases import Bid, Card, Cards, Choice, Contract, Word
from torite.engine.registry import make_game

NSUITS = 5  # C D H S, and a fifth slot for jokers / no suit
#: bounds of the observation Box the environments declare: raw points and counts stay well inside
OBS_BOUND = 1.0e6

Vector = npt.NDArray[np.float32]


_CARDS: dict[str, int | None] = {}


def _card(text: Any) -> int | None:
    """The card a text names, or None (memoised: encoding reads the same few texts all along)."""
    if not isinstance(text, str):
        return None
    try:
        return _CARDS[text]
    except KeyError:
        pass
    try:
        c: int | None = parse_card(text)
    except ValueError:
        c = None
    if len(_CARDS) < 10_000:
        _CARDS[text] = c
    return c


def _suit_index(text: Any) -> int:
    return SUITS.index(text) if isinstance(text, str) and text in SUITS else NSUITS - 1


def options_key(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True)


# --------------------------------------------------------------------------- actions
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


# --------------------------------------------------------------------------- observations
@dataclass
class _Extra:
    key: str
    kind: str  # bool, int, int?, card, suit, cat, cards, seat_cards, ints
    size: int
    values: list[str] = field(default_factory=list)


def _extras(game: TrickGame, n: int, d: int) -> list[_Extra]:
    """The segments of every declared pile, field, view and role, by kind, sorted by key."""
    contracts = sorted({a.arg for p in game.phases() for t in p.actions if isinstance(t, Bid)
                        for a in t.actions(())}, key=lambda x: Contract.parse(x))
    out: list[_Extra] = []
    for p in game.PILES:
        out.append(_Extra(p.name + "_size", "int", 1))
        if p.seen.rule != "nobody":
            out.append(_Extra(p.name, "cards", d + 1))
    kinds = [(f.obs_key, f.kind) for f in game.FIELDS] + [(v.key, v.kind) for v in game.VIEWS]
    for key, kind in kinds:
        name = kind.name
        if name in ("int", "bool"):
            out.append(_Extra(key, name, 1))
        elif name in ("seat", "int?"):
            out.append(_Extra(key, "int?", 2))
        elif name == "card":
            out.append(_Extra(key, "card", d))
        elif name == "suit":
            out.append(_Extra(key, "suit", NSUITS))
        elif name == "word":
            out.append(_Extra(key, "cat", len(kind.values) + 1, list(kind.values)))
        elif name == "contract":
            out.append(_Extra(key, "cat", len(contracts) + 1, contracts))
        elif name in ("cards", "card_texts"):
            out.append(_Extra(key, "cards", d + 1))
        elif name == "seat_cards":
            out.append(_Extra(key, "seat_cards", n * d))
        elif name in ("ints", "bools"):
            out.append(_Extra(key, "ints", n))
        # str and list: free text and other shapes are left out
    for r in game.ROLES:
        out.append(_Extra(r.attr, "int?", 2))
        out.append(_Extra(r.revealed_attr, "bool", 1))
    return sorted(out, key=lambda e: e.key)


class ObsSpec:
    """The observation layout of one game and options: :meth:`encode` fills a vector from an
    observation, :class:`Tracker` keeps one seat's vector up to date as the game goes on."""

    def __init__(self, game: TrickGame, deck: Sequence[int]) -> None:
        n = self.n = game.num_players
        self.game = game
        self.deck = list(deck)
        d = self.d = len(self.deck)
        self.pos = {c: i for i, c in enumerate(self.deck)}
        self.phases = sorted(p.name for p in game.phases())
        self.phase_index = {p: i for i, p in enumerate(self.phases)}
        marks = [t.key for t in game.TRICK_SLOTS if t.kind.name in ("bool", "card")]
        self.flag_slots = sorted(marks + [f.key for f in game.TRICK_FACTS if f.kind.name == "card"])
        self.entry_slots = sorted(marks)
        self.extras = _extras(game, n, d)
        shown = {e.key for e in self.extras}
        declared = {f.obs_key for f in game.FIELDS} | {v.key for v in game.VIEWS} | {p.name for p in game.PILES}
        self.skipped = sorted(declared - shown)
        segs: list[tuple[str, int, str]] = [
            ("seat", n, "one-hot"), ("phase", len(self.phases) + 1, "one-hot: " + ", ".join(self.phases) + ", other"),
            ("to_act", n, "bits"), ("turn", n, "one-hot"), ("dealer", n, "one-hot"), ("leader", n, "one-hot"),
            ("round", 1, "number"), ("led", NSUITS, "one-hot C D H S -"), ("hand", d, "cards"),
            ("hand_sizes", n, "numbers"), ("scores", n, "numbers"), ("round_points", n, "numbers"),
            ("tricks_won", n, "numbers"), ("voids", n * NSUITS, "seat x suit"),
            ("trick", n * d, "seat x card"), ("played", n * d, "seat x card"), ("won", n * d, "seat x card"),
            ("tricks_played", 1, "number")]
        segs += [(f"trick.{k}", d, "cards marked in this round's tricks") for k in self.flag_slots]
        segs += [(f"trick.now.{k}", d, "cards marked in the current trick") for k in self.entry_slots]
        segs += [(e.key, e.size, e.kind + (": " + ", ".join(e.values) + ", other" if e.values else ""))
                 for e in self.extras]
        self.segments: list[tuple[str, int, int, str]] = []
        off = 0
        for name, size, what in segs:
            self.segments.append((name, off, size, what))
            off += size
        self.size = off
        self.offset = {name: o for name, o, _, _ in self.segments}
        self.extra_at = [(e, self.offset[e.key]) for e in self.extras]
        self.extra_of = {e.key: (e, at) for e, at in self.extra_at}
        self.at_sizes, self.at_scores = self.offset["hand_sizes"], self.offset["scores"]
        self.at_trick = self.offset["trick"]
        #: each card's text in the game's notation -> its index in the deck
        self.text_pos = {game.notation.texts[c]: i for i, c in enumerate(self.deck)}
        self.simultaneous = game.SIMULTANEOUS
        self.slot_attrs = tuple(t.attr for t in game.TRICK_SLOTS)
        self.watches = _watches(game, set(self.extra_of))
        attrs = [a for w in self.watches for a in w.attrs]
        spans, at = [], 0
        for w in self.watches:
            spans.append((at, at + len(w.attrs)))
            at += len(w.attrs)
        self.watch_spans = spans
        #: every watched state value in one call (a tuple), None when nothing is watched
        self.watch_values: Callable[[TrickState], tuple[Any, ...]] | None = None
        if len(attrs) == 1:
            one = operator.attrgetter(attrs[0])
            self.watch_values = lambda st: (one(st),)
        elif attrs:
            self.watch_values = operator.attrgetter(*attrs)
        self._marks: dict[int, tuple[dict[str, Any], list[int]]] = {}
        self.view_keys = [w.key for w in game.VIEWS if w.key in self.extra_of]
        #: the segments a round's tricks fill (emptied when a round starts)
        self.history_spans = [(self.offset["played"], 2 * n * d)] + [(self.offset[f"trick.{k}"], d)
                                                                      for k in self.flag_slots]
        #: (offset, number of D-card blocks) of every segment indexed by card: a leak test
        #: checks each card marked there is one the seat may know
        card_names = {"hand": 1, "trick": n, "played": n, "won": n}
        card_names |= {f"trick.{k}": 1 for k in self.flag_slots}
        card_names |= {f"trick.now.{k}": 1 for k in self.entry_slots}
        card_names |= {e.key: (n if e.kind == "seat_cards" else 1) for e in self.extras
                       if e.kind in ("card", "cards", "seat_cards")}
        self.card_segments = [(self.offset[k], blocks) for k, blocks in card_names.items()]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and deck (the layout is made again from them; its readers are
        functions made here)."""
        return ObsSpec, (self.game, self.deck)

    def _cards(self, ones: list[int], at: int, cards: Any) -> None:
        """The indices of the cards named by texts (``ones`` gathers every index set to 1)."""
        text_pos = self.text_pos
        for t in cards:
            i = text_pos.get(t)
            if i is None:  # None (face down), or another spelling of a card (JK1 for Mighty's JK)
                i = self.pos.get(_card(t))  # type: ignore[arg-type]
            if i is not None:
                ones.append(at + i)

    def _one(self, v: Vector, name: str, i: Any) -> None:
        if isinstance(i, int) and not isinstance(i, bool) and i >= 0:
            v[self.offset[name] + i] = 1.0

    def encode(self, obs: Mapping[str, Any]) -> Vector:
        """The vector of one observation (``state.observation(seat)``), encoded whole: the
        reference a :class:`Tracker` equals at every step."""
        n = self.n
        v = np.zeros(self.size, np.float32)
        ones: list[int] = []
        o = self.offset
        self._one(v, "seat", obs.get("seat"))
        phase = obs.get("phase")
        v[o["phase"] + self.phase_index.get(phase, len(self.phases))] = 1.0  # type: ignore[arg-type]
        for s in obs.get("to_act") or ():
            self._one(v, "to_act", s)
        for key in ("turn", "dealer", "leader"):
            self._one(v, key, obs.get(key))
        v[o["round"]] = float(obs.get("round") or 0)
        if obs.get("led") is not None:
            v[o["led"] + _suit_index(obs["led"])] = 1.0
        self._cards(ones, o["hand"], obs.get("hand") or ())
        for key in ("hand_sizes", "scores", "round_points", "tricks_won"):
            for i, x in enumerate((obs.get(key) or ())[:n]):
                v[o[key] + i] = float(x)
        for s, suits in enumerate((obs.get("voids") or ())[:n]):
            for t in suits:
                v[o["voids"] + s * NSUITS + _suit_index(t)] = 1.0
        self._entries(ones, obs.get("trick") or ())
        tricks = obs.get("tricks") or ()
        v[o["tricks_played"]] = float(len(tricks))
        for trick in tricks:
            self._finished(ones, trick)
        for e, at in self.extra_at:
            self._extra(v, at, e, obs.get(e.key), ones)
        v[ones] = 1.0
        return v

    def _entries(self, ones: list[int], entries: Sequence[Mapping[str, Any]]) -> None:
        """The current trick's entries: each card by its seat, and the cards its slots mark."""
        n, d, o = self.n, self.d, self.offset
        for entry in entries:
            s = entry.get("seat")
            if isinstance(s, int) and 0 <= s < n:
                self._cards(ones, o["trick"] + s * d, (entry.get("card"),))
            for k in self.entry_slots:
                x = entry.get(k)
                if x is True:
                    self._cards(ones, o[f"trick.now.{k}"], (entry.get("card"),))
                elif isinstance(x, str):
                    self._cards(ones, o[f"trick.now.{k}"], (x,))

    def _finished(self, ones: list[int], trick: Mapping[str, Any]) -> None:
        """One finished trick's record: the cards each seat played, the cards its winner won,
        the cards its slots and facts mark."""
        n, d, o = self.n, self.d, self.offset
        cards = trick.get("cards") or ()
        for s, c in zip(trick.get("seats") or (), cards):
            if isinstance(s, int) and 0 <= s < n:
                self._cards(ones, o["played"] + s * d, (c,))
        w = trick.get("winner")
        if isinstance(w, int) and 0 <= w < n:
            self._cards(ones, o["won"] + w * d, cards)
        for k in self.flag_slots:
            x = trick.get(k)
            if isinstance(x, list):
                marked = [c for c, f in zip(cards, x) if f is True] + [f for f in x if isinstance(f, str)]
                self._cards(ones, o[f"trick.{k}"], marked)
            elif isinstance(x, str):
                self._cards(ones, o[f"trick.{k}"], (x,))

    def marks_of(self, record: dict[str, Any]) -> list[int]:
        """The indices one finished trick's record sets (:meth:`_finished`), worked out once for
        every seat's tracker: a record is never changed once its trick is over."""
        found = self._marks.get(id(record))
        if found is not None and found[0] is record:
            return found[1]
        ones: list[int] = []
        self._finished(ones, record)
        if len(self._marks) > 4096:
            self._marks.clear()
        self._marks[id(record)] = (record, ones)
        return ones

    def _extra(self, v: Vector, at: int, e: _Extra, x: Any, ones: list[int]) -> None:
        if x is None:
            return
        kind = e.kind
        if kind in ("bool", "int"):
            v[at] = float(x) if isinstance(x, (int, float)) else 0.0
        elif kind == "int?":  # a number that may be None (a seat not known yet): present, value
            v[at] = 1.0
            v[at + 1] = float(x) if isinstance(x, (int, float)) else 0.0
        elif kind == "card":
            self._cards(ones, at, (x,))
        elif kind == "suit":
            v[at + _suit_index(x)] = 1.0
        elif kind == "cat":
            v[at + (e.values.index(x) if x in e.values else len(e.values))] = 1.0
        elif kind == "cards" and isinstance(x, list):
            self._cards(ones, at, x)
            v[at + self.d] = float(sum(1 for t in x if t is None))
        elif kind == "seat_cards" and isinstance(x, list):
            for s, cards in enumerate(x[: self.n]):
                if isinstance(cards, list):
                    self._cards(ones, at + s * self.d, cards)
        elif kind == "ints" and isinstance(x, list):
            for i, y in enumerate(x[: e.size]):
                if isinstance(y, (int, float)):
                    v[at + i] = float(y)


_LISTS = ("hand_sizes", "scores", "round_points", "tricks_won")


class _Watch(NamedTuple):
    """One declared pile, field or role, for a :class:`Tracker`: ``attrs``, the state
    attributes what the seat sees of it is made of (read together for every watch, at every
    update, and compared with what they held: a change says the watch must be read again);
    ``view``, what the observation shows of it, as ``(key, value)`` pairs; ``private``, a
    per-seat field of which a seat sees its own item (only that item's change matters)."""

    attrs: tuple[str, ...]
    view: Callable[[TrickState, int, int | None], list[tuple[str, Any]]]
    private: bool = False


def _watches(game: TrickGame, encoded: set[str]) -> list[_Watch]:
    """The watches of the declarations whose keys the vector encodes."""
    out: list[_Watch] = []
    for p in game.PILES:
        def pile_view(st: TrickState, me: int, seat: int | None, p: Pile = p) -> list[tuple[str, Any]]:
            size, shown = views.pile_view(st, p, seat)
            return [(k, x) for k, x in ((p.name + "_size", size), (p.name, shown)) if k in encoded]
        seen = (p.seen.attr,) if p.seen.attr else ()
        out.append(_Watch((p.name, *((p.face_down,) if p.face_down else ()), *seen), pile_view))
    for f in game.FIELDS:
        if f.obs_key in encoded:
            def field_view(st: TrickState, me: int, seat: int | None, f: Field = f) -> list[tuple[str, Any]]:
                return [(f.obs_key, views.field_view(st, f, me))]
            out.append(_Watch((f.attr,), field_view, f.private))
    for r in game.ROLES:
        def role_view(st: TrickState, me: int, seat: int | None, r: Role = r) -> list[tuple[str, Any]]:
            revealed, holder = views.role_view(st, r, me)
            return [(k, x) for k, x in ((r.revealed_attr, revealed), (r.attr, holder)) if k in encoded]
        out.append(_Watch((r.attr, r.revealed_attr), role_view))
    return out


def _kept(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``values`` with each list copied: a state changes its lists in place."""
    return tuple(x[:] if type(x) is list else x for x in values)


def _items(v: Vector) -> Any:
    """The vector's items as a memoryview (of format ``f``): writing an item through it costs a
    fraction of numpy's ``v[i] = x``.  (Typed Any: typeshed knows only memoryviews of ints.)"""
    return memoryview(v)  # type: ignore[arg-type]


class Tracker:
    """One seat's observation vector (``None``: a spectator's), kept up to date as the game goes
    on rather than encoded whole at every step.

    Why: a framework asks for an observation at every step, and encoding the whole observation
    (building it as JSON, then reading every trick of the round back) costs several times the
    step.  The tracker remembers what its vector holds and, at each :meth:`update`, writes only
    what changed since: each finished trick's record (the trick event's data, kept in the
    round's history) is read once, and a new round empties those segments; the current trick is
    rewritten when it changed; the hand by the cards that came and went; the per-seat numbers,
    the voids and the one-hot segments when they moved; each declared pile, field and role when
    the state values behind it changed, then read as the observation reads it
    (:mod:`torite.engine.kit.views`); the game's views (``observe_extra``) at every update.
    Everything written is what ``state.observation(seat)`` shows, and the vector equals
    :meth:`ObsSpec.encode` of that observation at every step (a test plays random games of every
    game and compares them)."""

    def __init__(self, spec: ObsSpec, seat: int | None) -> None:
        self.spec = spec
        self.seat = seat
        n = spec.n
        me = self.me = seat if seat is not None and 0 <= seat < n else -1
        self.v = np.zeros(spec.size, np.float32)
        self.mv = _items(self.v)  # the tracker writes a few dozen items an update
        if me >= 0:
            self.mv[spec.offset["seat"] + me] = 1.0
        o = spec.offset
        self._at = (o["phase"], o["to_act"], o["turn"], o["dealer"], o["leader"], o["led"], o["round"], o["hand"])
        self._phase: Any = None
        self._phase_i = -1
        self._to_act: tuple[int, ...] = ()
        self._turn = self._dealer = self._leader = self._led = -1
        self._round: Any = None
        self._hand = 0
        self._sizes: list[int] = []
        self._scores: list[int] = []
        self._points: list[int] = []
        self._won: list[int] = []
        self._voids: list[int] = [0] * n
        self._trick_cards: list[int] = []
        self._trick_key: Any = None
        self._trick_ones: list[int] = []
        self._read_round, self._read = -1, -1  # the round of the finished tricks read, and how many
        self._raw: tuple[Any, ...] | None = None
        self._shown: dict[str, Any] = {}  # the views' last values
        self._written: set[str] = set()  # the extra segments written so far

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the memoryview (made again from the vector)."""
        return {k: v for k, v in self.__dict__.items() if k != "mv"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.mv = _items(self.v)

    def copy(self) -> Tracker:
        """A tracker of a cloned state: the same vector and memory, independent from here on."""
        new = copy.copy(self)
        new.v = self.v.copy()
        new.mv = _items(new.v)
        new._shown = dict(self._shown)
        new._written = set(self._written)
        return new

    def update(self, state: TrickState) -> Vector:
        """The seat's vector now (the tracker's own array: copy it to keep it)."""
        spec, v = self.spec, self.mv
        n = spec.n
        at_phase, at_to_act, at_turn, at_dealer, at_leader, at_led, at_round, at_hand = self._at
        phase = state.phase
        if phase != self._phase:
            i = spec.phase_index.get(phase, len(spec.phases))
            if self._phase_i >= 0:
                v[at_phase + self._phase_i] = 0.0
            v[at_phase + i] = 1.0
            self._phase, self._phase_i = phase, i
        to_act = state.to_act()
        if to_act != self._to_act:
            for s in self._to_act:
                v[at_to_act + s] = 0.0
            self._to_act = tuple(s for s in to_act if 0 <= s < n)
            for s in self._to_act:
                v[at_to_act + s] = 1.0
        # as the observation shows it: no seat's turn in a simultaneous phase or after the end
        turn = state.turn if phase != OVER and phase not in spec.simultaneous else -1
        old = self._turn
        if turn != old:
            if 0 <= old < n:
                v[at_turn + old] = 0.0
            if 0 <= turn < n:
                v[at_turn + turn] = 1.0
            self._turn = turn
        if state.dealer != self._dealer:
            self._dealer = self._move(at_dealer, self._dealer, state.dealer, n)
        if state.leader != self._leader:
            self._leader = self._move(at_leader, self._leader, state.leader, n)
        if state.led != self._led:
            self._led = self._move(at_led, self._led, state.led, 4)
        if state.round_no != self._round:
            self._round = state.round_no
            v[at_round] = float(state.round_no or 0)
        hands = state.hands
        if self.me >= 0:
            hand = hands[self.me]
            changed = hand ^ self._hand
            if changed:
                pos = spec.pos
                while changed:
                    low = changed & -changed
                    at = pos.get(low.bit_length() - 1)
                    if at is not None:
                        v[at_hand + at] = 1.0 if hand & low else 0.0
                    changed ^= low
                self._hand = hand
        sizes = list(map(int.bit_count, hands))
        if sizes != self._sizes:
            for i, x in enumerate(sizes, spec.at_sizes):
                v[i] = x
            self._sizes = sizes
        if state.scores != self._scores or state.round_points != self._points or state.tricks_won != self._won:
            self._scores, self._points, self._won = state.scores[:], state.round_points[:], state.tricks_won[:]
            totals = self._scores + self._points + self._won  # side by side, one a seat each
            for i, x in enumerate(totals, spec.at_scores):
                v[i] = x
        if state.voids != self._voids:
            self._write_voids(state.voids)
        if spec.slot_attrs:
            self._trick(state)
        elif state.trick != self._trick_cards or state.trick_seats != self._trick_key:
            # a game without trick slots: the trick is its cards by seat (none face down)
            for i in self._trick_ones:
                v[i] = 0.0
            at, d, pos = spec.at_trick, spec.d, spec.pos
            seats, cards = state.trick_seats, state.trick
            ones = [at + s * d + pos[c] for s, c in zip(seats, cards) if 0 <= s < n and c in pos]
            for i in ones:
                v[i] = 1.0
            self._trick_key, self._trick_cards, self._trick_ones = seats[:], cards[:], ones
        if len(state.history) != self._read or state.round_no != self._read_round:
            self._tricks(state)
        if spec.watch_values is not None or spec.view_keys:
            self._declared(state)
        return self.v

    def _move(self, at: int, old: int, now: int, top: int) -> int:
        """Move a one-hot segment's 1 from ``old`` to ``now`` (none outside 0..top-1)."""
        v = self.mv
        if 0 <= old < top:
            v[at + old] = 0.0
        if 0 <= now < top:
            v[at + now] = 1.0
        return now

    def _write_voids(self, voids: list[int]) -> None:
        """The suits each seat has shown it lacks, written where they changed."""
        n, v = self.spec.n, self.mv
        at = self.spec.offset["voids"]
        old = self._voids
        for s in range(min(n, len(voids))):
            diff = voids[s] ^ (old[s] if s < len(old) else 0)
            for b in range(4):
                if diff >> b & 1:
                    v[at + s * NSUITS + b] = float(voids[s] >> b & 1)
        self._voids = list(voids)

    def _trick(self, state: TrickState) -> None:
        """The current trick of a game with trick slots, as its entries show it, rewritten
        when its cards, seats or slots changed."""
        spec, v = self.spec, self.mv
        key = (tuple(state.trick), tuple(state.trick_seats),
               *(tuple(getattr(state, a)) for a in spec.slot_attrs))
        if key == self._trick_key:
            return
        ones: list[int] = []
        if state.trick:
            spec._entries(ones, views.trick_entries(state))
        for i in self._trick_ones:
            v[i] = 0.0
        for i in ones:
            v[i] = 1.0
        self._trick_key, self._trick_ones = key, ones

    def _tricks(self, state: TrickState) -> None:
        """The round's finished tricks: each new record marked once; a new round empties them."""
        history = state.history
        read = self._read
        spec, v = self.spec, self.v
        if self._read_round != state.round_no or len(history) < read:
            for offset, size in spec.history_spans:
                v[offset:offset + size] = 0.0
            read = 0
        mv = self.mv
        for record in history[max(read, 0):]:
            for i in spec.marks_of(record):
                mv[i] = 1.0
        mv[spec.offset["tricks_played"]] = float(len(history))
        self._read_round, self._read = state.round_no, len(history)

    def _declared(self, state: TrickState) -> None:
        """The declared piles, fields and roles, each read again as the observation reads it
        when the state values behind it changed; the views (``observe_extra``) every time."""
        spec = self.spec
        if spec.watch_values is not None:
            now = spec.watch_values(state)
            last = self._raw
            if now != last:
                me, seat = self.me, self.seat
                for watch, (a, b) in zip(spec.watches, spec.watch_spans):
                    if last is None:
                        changed = True
                    elif watch.private:  # the seat's own item (a spectator's is always empty)
                        changed = me >= 0 and now[a][me] != last[a][me]
                    else:
                        changed = now[a:b] != last[a:b]
                    if changed:
                        for key, x in watch.view(state, me, seat):
                            self._write(key, x)
                self._raw = _kept(now)
        if spec.view_keys:
            shown: dict[str, Any] = {}
            state.observe_extra(self.seat, shown)
            for key in spec.view_keys:
                x = shown.get(key)
                if key not in self._shown or self._shown[key] != x:
                    self._shown[key] = x
                    self._write(key, x)

    def _write(self, key: str, x: Any) -> None:
        """Encode one extra segment anew (emptied first, unless it was never written)."""
        e, at = self.spec.extra_of[key]
        v = self.v
        if key in self._written:
            v[at:at + e.size] = 0.0
        else:
            self._written.add(key)
        ones: list[int] = []
        self.spec._extra(v, at, e, x, ones)
        mv = self.mv
        for i in ones:
            mv[i] = 1.0


# --------------------------------------------------------------------------- the spec
@dataclass
class GameSpec:
    """A game with fixed options and its encodings."""

    game: TrickGame
    deck: list[int]
    actions: ActionSpace
    obs: ObsSpec

    def tracker(self, seat: int | None) -> Tracker:
        """A new :class:`Tracker` of ``seat``'s observation vector (``None``: a spectator's)."""
        return Tracker(self.obs, seat)


@functools.lru_cache(maxsize=64)
def _spec(game_id: str, key: str) -> GameSpec:
    game = make_game(game_id, json.loads(key))
    if not isinstance(game, TrickGame):
        raise TypeError(f"{game_id} publishes no schema: the encodings need a game on the kit")
    deck = sorted(game.deck)
    return GameSpec(game, deck, ActionSpace.of(game, deck), ObsSpec(game, deck))


def spec(game_id: str, options: Mapping[str, Any] | None = None) -> GameSpec:
    """The encodings of ``game_id`` under ``options`` (validated; cached per options)."""
    game = make_game(game_id, options or {})
    return _spec(game_id, options_key(game.options))


def describe(game_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The layout of a game's encodings, for documentation."""
    sp = spec(game_id, options)
    d = len(sp.deck)
    return {
        "game": game_id,
        "options": sp.game.options,
        "players": sp.game.num_players,
        "deck": d,
        "observation_size": sp.obs.size,
        "segments": [{"name": n, "offset": o, "size": s, "content": w} for n, o, s, w in sp.obs.segments],
        "skipped_keys": sp.obs.skipped,
        "action_space": sp.actions.size,
        "action_blocks": [{"kind": b.kind, "cards": b.n, "arg": b.arg, "offset": off, "size": b.size(d)}
                          for b, off in zip(sp.actions.blocks, sp.actions.offsets)],
    }


def all_card_sets(deck: Sequence[int], n: int) -> list[int]:
    """Every ``n``-card mask of ``deck`` (tests compare ranks against it)."""
    return [sum(1 << c for c in combo) for combo in combinations(deck, n)]
