"""The observation layout of a game: its segments, and an observation encoded whole.

Its own part because the layout (what each segment holds, at which offset) is derived once
from the game's declarations and read by both the whole encoding here and the
:class:`~torite.adapters.tracker.Tracker` that keeps a seat's vector up to date;
``torite.adapters.encoding`` describes the segments (its docstring's table).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from torite.cards import SUITS, parse_card
from torite.engine.kit import Field, Pile, Role, TrickGame, TrickState, views
from torite.engine.phases import Bid, Contract

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
    observation, :class:`~torite.adapters.tracker.Tracker` keeps one seat's vector up to date as the game goes on."""

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
        self.watch_values: Callable[[TrickState[Any]], tuple[Any, ...]] | None = None
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


class _Watch(NamedTuple):
    """One declared pile, field or role, for a :class:`~torite.adapters.tracker.Tracker`: ``attrs``, the state
    attributes what the seat sees of it is made of (read together for every watch, at every
    update, and compared with what they held: a change says the watch must be read again);
    ``view``, what the observation shows of it, as ``(key, value)`` pairs; ``private``, a
    per-seat field of which a seat sees its own item (only that item's change matters)."""

    attrs: tuple[str, ...]
    view: Callable[[TrickState[Any], int, int | None], list[tuple[str, Any]]]
    private: bool = False


def _watches(game: TrickGame, encoded: set[str]) -> list[_Watch]:
    """The watches of the declarations whose keys the vector encodes."""
    out: list[_Watch] = []
    for p in game.PILES:
        def pile_view(st: TrickState[Any], me: int, seat: int | None, p: Pile = p) -> list[tuple[str, Any]]:
            size, shown = views.pile_view(st, p, seat)
            return [(k, x) for k, x in ((p.name + "_size", size), (p.name, shown)) if k in encoded]
        seen = (p.seen.attr,) if p.seen.attr else ()
        out.append(_Watch((p.name, *((p.face_down,) if p.face_down else ()), *seen), pile_view))
    for f in game.FIELDS:
        if f.obs_key in encoded:
            def field_view(st: TrickState[Any], me: int, seat: int | None, f: Field = f) -> list[tuple[str, Any]]:
                return [(f.obs_key, views.field_view(st, f, me))]
            out.append(_Watch((f.attr,), field_view, f.private))
    for r in game.ROLES:
        def role_view(st: TrickState[Any], me: int, seat: int | None, r: Role = r) -> list[tuple[str, Any]]:
            revealed, holder = views.role_view(st, r, me)
            return [(k, x) for k, x in ((r.revealed_attr, revealed), (r.attr, holder)) if k in encoded]
        out.append(_Watch((r.attr, r.revealed_attr), role_view))
    return out
