"""Fixed-size numbers for any torite game: an observation vector and an enumerated action space.

Research frameworks want a tensor of one fixed shape per game and a fixed set of action ids
with a legality mask.  torite games speak JSON-ready observations and actions such as
``play 10D`` or ``bury QC KC``, of shapes each game picks.  This module derives both encodings
*from the game alone*, through the public protocol, so a game registered tomorrow is covered
with no code here.

How: :func:`spec` plays a fixed, seeded set of random rounds (``EXPLORE_ROUNDS`` single rounds
with the dealer and the round number rotating, plus ``EXPLORE_GAMES`` games of up to
``EXPLORE_GAME_ROUNDS`` rounds) under the given options, reading every seat's observation and
every legal action at every step.  From what it met it fixes:

**The action space.**  An action is ``kind`` + a set of cards + an argument.  Each *template*
``(kind, n, arg)`` (``n`` cards) met in exploration becomes a block of ``C(D, n)`` ids, ``D``
the deck size: every ``n``-card subset of the deck, ranked by the combinatorial number system
over the deck's cards in index order (so ``play`` is one id per card, Trick of the Dead's
``bury`` one per pair).  Arguments are completed beyond what was met: an argument position
that met a suit letter takes all four suits, one that met only integers the whole range
between the least and the greatest, and positions pool the values every kind met at the same
argument length (Mighty's ``contract``, met only as ``20 H``, gets every ``bid`` level and
denomination).  Blocks are ordered by kind, card count and argument.  After them come
*overflow* ids (at least ``OVERFLOW_MIN``): overflow id ``k`` is the ``k``-th legal action, in
torite's order, that has no id of its own: an action of a shape exploration never met
(Glapgos' four of a kind), or of a template with more than ``BLOCK_LIMIT`` card sets, which is
not enumerated (a play of three cards at once).  An action beyond them raises ``KeyError``
with its text; the adapters' tests play many random games to check none is.

**The observation vector** (``float32``), segments in this order (``N`` seats, ``D`` deck cards
in index order, ``S`` = 5 suits C D H S and joker/none; "one-hot" segments are all zero for
``None``):

====================  ==========  ==================================================
segment               size        content
====================  ==========  ==================================================
``seat``              N           one-hot: the observing seat
``phase``             P+1         one-hot over the phases met, last = another phase
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
``trick.<slot>``      D           per-card trick flags (a ``bool`` or card list in trick
                                  records, e.g. ``zombie``): the cards they mark, this round
``<key>``             varies      every other key of the game's observation, by its type:
                                  bool or int: 1; an int that may be None: 2
                                  (present, value); card: D one-hot; suit: S one-hot;
                                  other text: one-hot over the values met + 1 "another";
                                  card list: D (+1: count of face-down entries);
                                  per-seat card lists: N x D; suit list: S; per-seat suit
                                  lists: N x S; int or bool list: its longest length met
====================  ==========  ==================================================

Keys left out: ``game``, ``options`` (constant), ``stats`` (totals for statisticians),
``round_scores`` (earlier rounds; ``scores`` sums them), ``num_players``, ``max_rounds``,
nested structures of other shapes (lists of dicts other than the tricks).  :func:`describe`
lists a game's segments with offsets; ``docs/research.md`` prints them for the shipped games.
Values are raw (points are points), not normalised.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

import numpy as np
import numpy.typing as npt

from torite.cards import iter_bits, parse_card
from torite.engine.base import Action, Game, State
from torite.engine.registry import make_game
from torite.seeds import derive_seed

SUITS = "CDHS"
NSUITS = 5  # C D H S, and a fifth slot for jokers / no suit
EXPLORE_ROUNDS = 24
EXPLORE_GAMES = 2
EXPLORE_GAME_ROUNDS = 4
#: a template with more card sets than this is not enumerated: its actions take overflow ids
BLOCK_LIMIT = 2_000
#: the fewest overflow ids; more when exploration met templates left to overflow
OVERFLOW_MIN = 16
#: the most arguments a completed template may take
MAX_ARGS = 4_096

#: keys of every kit observation that :class:`ObsSpec` encodes by hand or leaves out
_COMMON = {"seat", "phase", "to_act", "turn", "dealer", "leader", "round", "led", "hand", "hand_sizes",
           "scores", "round_points", "tricks_won", "voids", "trick", "tricks"}
_SKIP = {"game", "options", "stats", "round_scores", "num_players", "max_rounds"}
_TRICK_KEYS = {"leader", "seats", "cards", "led", "winner", "points"}

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


# --------------------------------------------------------------------------- exploration
@dataclass
class _Seen:
    """Everything exploration met: observation values by key, legal actions, phases."""

    values: dict[str, list[Any]] = field(default_factory=dict)
    actions: set[Action] = field(default_factory=set)
    phases: set[str] = field(default_factory=set)
    slot_kinds: dict[str, set[str]] = field(default_factory=dict)
    max_legal: int = 0
    #: (kind, number of cards) -> the most legal actions of that shape met at one decision
    most: dict[tuple[str, int], int] = field(default_factory=dict)
    max_abs_score: float = 1.0
    max_steps: int = 0


def _look(seen: _Seen, state: State, n: int) -> None:
    for seat in range(n):
        obs = state.observation(seat)
        for key, value in obs.items():
            if key in _SKIP or key in _COMMON:
                continue
            vals = seen.values.setdefault(key, [])
            if len(vals) < 400 or value not in vals[-8:]:
                vals.append(value)
        phase = obs.get("phase")
        if isinstance(phase, str):
            seen.phases.add(phase)
        for trick in obs.get("tricks", ()):
            if isinstance(trick, dict):
                for k, v in trick.items():
                    if k not in _TRICK_KEYS:
                        seen.slot_kinds.setdefault(k, set()).add(_slot_kind(v))
        for entry in obs.get("trick", ()):
            if isinstance(entry, dict):
                for k, v in entry.items():
                    if k not in ("seat", "card"):
                        seen.slot_kinds.setdefault("trick:" + k, set()).add(
                            "flag" if isinstance(v, bool) else "card" if _card(v) is not None else "other")


def _slot_kind(v: Any) -> str:
    if isinstance(v, list) and v and all(isinstance(x, bool) for x in v):
        return "flags"
    if isinstance(v, list) and v and all(x is None or _card(x) is not None for x in v):
        return "cards"
    if v is None or _card(v) is not None:
        return "card"
    return "other"


def _explore(game: Game) -> _Seen:
    seen = _Seen()
    n = game.num_players
    runs: list[tuple[int, int | None, int, int]] = [
        (derive_seed("torite-explore", i), i % n, 1, i) for i in range(EXPLORE_ROUNDS)]
    runs += [(derive_seed("torite-explore-game", i), None, EXPLORE_GAME_ROUNDS, 0) for i in range(EXPLORE_GAMES)]
    for seed, dealer, rounds, first in runs:
        state = game.new_state(seed, dealer=dealer, max_rounds=rounds, first_round=first)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over():
            _look(seen, state, n)
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                seen.actions.update(legal)
                shapes: dict[tuple[str, int], int] = {}
                for a in legal:
                    shape = (a.kind, a.cards.bit_count())
                    shapes[shape] = shapes.get(shape, 0) + 1
                for shape, count in shapes.items():
                    seen.most[shape] = max(seen.most.get(shape, 0), count)
                seen.max_legal = max(seen.max_legal, len(legal))
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
        _look(seen, state, n)
        res = state.result()
        for row in res.round_scores or (res.scores,):
            seen.max_abs_score = max(seen.max_abs_score, *(abs(float(x)) for x in row))
        seen.max_steps = max(seen.max_steps, math.ceil(steps / rounds))
    return seen


# --------------------------------------------------------------------------- actions
def _complete_args(args: set[str], shapes: Mapping[int, list[set[str]]]) -> list[str]:
    """The arguments met, completed position by position: a position that met a suit letter
    takes all four, one that met only integers the whole range; ``shapes`` holds the values
    every kind met at each position, by argument length, so Mighty's ``contract`` (met as
    ``20 H``) takes every level and denomination its ``bid`` met."""
    out = set(args)
    for length in {len(a.split()) for a in args}:
        if length == 0:
            continue
        columns: list[list[str]] = []
        for vals in shapes[length]:
            if vals & set(SUITS):
                columns.append(sorted(vals | set(SUITS)))
            elif all(v.lstrip("-").isdigit() for v in vals):
                nums = [int(v) for v in vals]
                columns.append([str(x) for x in range(min(nums), max(nums) + 1)])
            else:
                columns.append(sorted(vals))
        if math.prod(len(c) for c in columns) <= MAX_ARGS:
            out.update(" ".join(p) for p in product(*columns))
    return sorted(out)


class ActionSpace:
    """Action ids <-> torite actions for one game and options (see the module docstring)."""

    def __init__(self, deck: Sequence[int], actions: set[Action], most: Mapping[tuple[str, int], int]) -> None:
        self.deck = list(deck)
        self.pos = {c: i for i, c in enumerate(self.deck)}
        d = len(self.deck)
        templates: dict[tuple[str, int], set[str]] = {}
        shapes: dict[int, list[set[str]]] = {}
        for a in actions:
            templates.setdefault((a.kind, a.cards.bit_count()), set()).add(a.arg)
            tokens = a.arg.split()
            columns = shapes.setdefault(len(tokens), [set() for _ in tokens])
            for column, token in zip(columns, tokens):
                column.add(token)
        self.blocks: list[tuple[str, int, str]] = []
        self.offsets: list[int] = []
        total = 0
        overflow = 0
        for (kind, n) in sorted(templates):
            if math.comb(d, n) > BLOCK_LIMIT:
                overflow += most.get((kind, n), 0)
                continue
            for arg in _complete_args(templates[(kind, n)], shapes):
                self.blocks.append((kind, n, arg))
                self.offsets.append(total)
                total += math.comb(d, n)
        self.index_of_block = {b: i for i, b in enumerate(self.blocks)}
        self._ids: dict[Action, int | None] = {}
        #: ids from here on are overflow slots (see the module docstring)
        self.semantic = total
        self.overflow = max(OVERFLOW_MIN, 2 * overflow)
        self.size = total + self.overflow

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

    def _semantic(self, action: Action) -> int | None:
        try:
            return self._ids[action]
        except KeyError:
            pass
        b = self.index_of_block.get((action.kind, action.cards.bit_count(), action.arg))
        if b is None or any(c not in self.pos for c in iter_bits(action.cards)):
            i = None
        else:
            i = self.offsets[b] + self._rank(action.cards)
        if len(self._ids) < 100_000:  # a memo: search loops ask for the same few actions
            self._ids[action] = i
        return i

    def _overflowing(self, legal: Sequence[Action]) -> list[Action]:
        return [a for a in legal if self._semantic(a) is None]

    def index(self, action: Action, legal: Sequence[Action] | None = None) -> int:
        """The id of ``action``; an overflow action needs the seat's ``legal`` list."""
        i = self._semantic(action)
        if i is not None:
            return i
        rest = self._overflowing(legal or ())
        if action not in rest:
            raise KeyError(f"action {str(action)!r} is outside this game's action space"
                           + ("" if legal is not None else " (give the legal actions for overflow ids)"))
        k = rest.index(action)
        if k >= self.overflow:
            raise KeyError(f"action {str(action)!r} is overflow action {k}, beyond the {self.overflow} slots")
        return self.semantic + k

    def action(self, index: int, legal: Sequence[Action] | None = None) -> Action:
        """The action of id ``index`` (``KeyError`` when there is none)."""
        if not 0 <= index < self.size:
            raise KeyError(f"action id {index} is outside 0..{self.size - 1}")
        if index >= self.semantic:
            rest = self._overflowing(legal or ())
            if index - self.semantic >= len(rest):
                raise KeyError(f"action id {index} (overflow slot {index - self.semantic}) names no legal action")
            return rest[index - self.semantic]
        b = bisect.bisect_right(self.offsets, index) - 1
        kind, n, arg = self.blocks[b]
        return Action(kind, self._unrank(index - self.offsets[b], n), arg)

    def mask(self, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
        m = np.zeros(self.size, np.int8)
        for a in legal:
            m[self.index(a, legal)] = 1
        return m

    def labels(self) -> list[str]:
        """Every id's action text, for documentation and debugging."""
        return ([str(self.action(i)) for i in range(self.semantic)]
                + [f"overflow #{k}" for k in range(self.overflow)])


# --------------------------------------------------------------------------- observations
@dataclass
class _Extra:
    key: str
    kind: str  # bool, int, card, suit, cat, cards, seat_cards, suits, seat_suits, ints
    size: int
    values: list[str] = field(default_factory=list)


def _leaves(v: Any) -> list[Any]:
    if isinstance(v, list):
        return [x for item in v for x in _leaves(item)]
    return [v]


def _infer(key: str, samples: list[Any], n: int, d: int) -> _Extra | None:
    vals = [v for v in samples if v is not None]
    if not vals:
        return None
    if all(isinstance(v, bool) for v in vals):
        return _Extra(key, "bool", 1)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return _Extra(key, "int?", 2) if len(vals) < len(samples) else _Extra(key, "int", 1)
    if all(isinstance(v, str) for v in vals):
        if all(_card(v) is not None for v in vals):
            return _Extra(key, "card", d)
        if all(v in SUITS for v in vals):
            return _Extra(key, "suit", NSUITS)
        cats = sorted(set(vals))
        return _Extra(key, "cat", len(cats) + 1, cats) if len(cats) <= 64 else None
    if not all(isinstance(v, list) for v in vals):
        return None
    leaves = [x for v in vals for x in _leaves(v)]
    nested = any(isinstance(x, list) for v in vals for x in v)
    if not leaves:
        return None
    if all(x is None or _card(x) is not None for x in leaves) and any(x is not None for x in leaves):
        if nested:
            return _Extra(key, "seat_cards", n * d) if all(len(v) <= n for v in vals) else None
        return _Extra(key, "cards", d + 1)
    if all(isinstance(x, str) and x in SUITS for x in leaves):
        if nested:
            return _Extra(key, "seat_suits", n * NSUITS) if all(len(v) <= n for v in vals) else None
        return _Extra(key, "suits", NSUITS)
    if not nested and all(isinstance(x, (int, float)) for x in leaves):
        return _Extra(key, "ints", max(len(v) for v in vals))
    return None


class ObsSpec:
    """The observation layout of one game and options; :meth:`encode` fills a vector."""

    def __init__(self, game: Game, seen: _Seen, deck: Sequence[int]) -> None:
        n = self.n = game.num_players
        self.deck = list(deck)
        d = self.d = len(self.deck)
        self.pos = {c: i for i, c in enumerate(self.deck)}
        self.phases = sorted(seen.phases)
        self.flag_slots = sorted(k for k, kinds in seen.slot_kinds.items()
                                 if not k.startswith("trick:") and kinds <= {"flags", "cards", "card"})
        self.entry_slots = sorted(k[6:] for k, kinds in seen.slot_kinds.items()
                                  if k.startswith("trick:") and kinds <= {"flag", "card"})
        self.extras = [e for key in sorted(seen.values)
                       if (e := _infer(key, seen.values[key], n, d)) is not None]
        self.skipped = sorted(set(seen.values) - {e.key for e in self.extras})
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
        #: (offset, number of D-card blocks) of every segment indexed by card: a leak test
        #: checks each card marked there is one the seat may know
        card_names = {"hand": 1, "trick": n, "played": n, "won": n}
        card_names |= {f"trick.{k}": 1 for k in self.flag_slots}
        card_names |= {f"trick.now.{k}": 1 for k in self.entry_slots}
        card_names |= {e.key: (n if e.kind == "seat_cards" else 1) for e in self.extras
                       if e.kind in ("card", "cards", "seat_cards")}
        self.card_segments = [(self.offset[k], blocks) for k, blocks in card_names.items()]

    def _cards(self, v: Vector, at: int, cards: Any) -> None:
        """Mark cards: their indices are gathered and set in one go at the end of encode."""
        pos, ones = self.pos, self._ones
        for t in cards:
            i = pos.get(_card(t))  # type: ignore[arg-type]
            if i is not None:
                ones.append(at + i)

    def _one(self, v: Vector, name: str, i: Any) -> None:
        if isinstance(i, int) and not isinstance(i, bool) and i >= 0:
            v[self.offset[name] + i] = 1.0

    def encode(self, obs: Mapping[str, Any]) -> Vector:
        """The vector of one observation (``state.observation(seat)``)."""
        n, d = self.n, self.d
        v = np.zeros(self.size, np.float32)
        self._ones: list[int] = []
        o = self.offset
        self._one(v, "seat", obs.get("seat"))
        phase = obs.get("phase")
        v[o["phase"] + (self.phases.index(phase) if phase in self.phases else len(self.phases))] = 1.0
        for s in obs.get("to_act") or ():
            self._one(v, "to_act", s)
        for key in ("turn", "dealer", "leader"):
            self._one(v, key, obs.get(key))
        v[o["round"]] = float(obs.get("round") or 0)
        if obs.get("led") is not None:
            v[o["led"] + _suit_index(obs["led"])] = 1.0
        self._cards(v, o["hand"], obs.get("hand") or ())
        for key in ("hand_sizes", "scores", "round_points", "tricks_won"):
            for i, x in enumerate((obs.get(key) or ())[:n]):
                v[o[key] + i] = float(x)
        for s, suits in enumerate((obs.get("voids") or ())[:n]):
            for t in suits:
                v[o["voids"] + s * NSUITS + _suit_index(t)] = 1.0
        for entry in obs.get("trick") or ():
            s = entry.get("seat")
            if isinstance(s, int) and 0 <= s < n:
                self._cards(v, o["trick"] + s * d, (entry.get("card"),))
            for k in self.entry_slots:
                x = entry.get(k)
                if x is True:
                    self._cards(v, o[f"trick.now.{k}"], (entry.get("card"),))
                elif isinstance(x, str):
                    self._cards(v, o[f"trick.now.{k}"], (x,))
        tricks = obs.get("tricks") or ()
        v[o["tricks_played"]] = float(len(tricks))
        for trick in tricks:
            cards = trick.get("cards") or ()
            for s, c in zip(trick.get("seats") or (), cards):
                if isinstance(s, int) and 0 <= s < n:
                    self._cards(v, o["played"] + s * d, (c,))
            w = trick.get("winner")
            if isinstance(w, int) and 0 <= w < n:
                self._cards(v, o["won"] + w * d, cards)
            for k in self.flag_slots:
                x = trick.get(k)
                if isinstance(x, list):
                    marked = [c for c, f in zip(cards, x) if f is True] + [f for f in x if isinstance(f, str)]
                    self._cards(v, o[f"trick.{k}"], marked)
                elif isinstance(x, str):
                    self._cards(v, o[f"trick.{k}"], (x,))
        for e in self.extras:
            self._extra(v, o[e.key], e, obs.get(e.key))
        v[self._ones] = 1.0
        return v

    def _extra(self, v: Vector, at: int, e: _Extra, x: Any) -> None:
        if x is None:
            return
        kind = e.kind
        if kind in ("bool", "int"):
            v[at] = float(x) if isinstance(x, (int, float)) else 0.0
        elif kind == "int?":  # a number that may be None (a seat not known yet): present, value
            v[at] = 1.0
            v[at + 1] = float(x) if isinstance(x, (int, float)) else 0.0
        elif kind == "card":
            self._cards(v, at, (x,))
        elif kind == "suit":
            v[at + _suit_index(x)] = 1.0
        elif kind == "cat":
            v[at + (e.values.index(x) if x in e.values else len(e.values))] = 1.0
        elif kind == "cards" and isinstance(x, list):
            self._cards(v, at, x)
            v[at + self.d] = float(sum(1 for t in x if t is None))
        elif kind == "seat_cards" and isinstance(x, list):
            for s, cards in enumerate(x[: self.n]):
                if isinstance(cards, list):
                    self._cards(v, at + s * self.d, cards)
        elif kind == "suits" and isinstance(x, list):
            for t in x:
                v[at + _suit_index(t)] = 1.0
        elif kind == "seat_suits" and isinstance(x, list):
            for s, suits in enumerate(x[: self.n]):
                for t in suits if isinstance(suits, list) else ():
                    v[at + s * NSUITS + _suit_index(t)] = 1.0
        elif kind == "ints" and isinstance(x, list):
            for i, y in enumerate(x[: e.size]):
                if isinstance(y, (int, float)):
                    v[at + i] = float(y)


# --------------------------------------------------------------------------- the spec
@dataclass
class GameSpec:
    """A game with fixed options and its encodings."""

    game: Game
    deck: list[int]
    actions: ActionSpace
    obs: ObsSpec
    #: the largest absolute round score met in exploration: a scale for rewards
    score_scale: float
    #: the most actions a round took in exploration
    round_steps: int


@functools.lru_cache(maxsize=64)
def _spec(game_id: str, key: str) -> GameSpec:
    game = make_game(game_id, json.loads(key))
    places = game.new_state(0, max_rounds=1).card_places()
    deck_mask = 0
    for m in places.values():
        deck_mask |= m
    deck = list(iter_bits(deck_mask))
    seen = _explore(game)
    return GameSpec(game, deck, ActionSpace(deck, seen.actions, seen.most), ObsSpec(game, seen, deck),
                    seen.max_abs_score, seen.max_steps)


def spec(game_id: str, options: Mapping[str, Any] | None = None) -> GameSpec:
    """The encodings of ``game_id`` under ``options`` (validated; cached per options)."""
    game = make_game(game_id, options or {})
    return _spec(game_id, options_key(game.options))


def describe(game_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The layout of a game's encodings, for documentation."""
    sp = spec(game_id, options)
    return {
        "game": game_id,
        "options": sp.game.options,
        "players": sp.game.num_players,
        "deck": len(sp.deck),
        "observation_size": sp.obs.size,
        "segments": [{"name": n, "offset": o, "size": s, "content": w} for n, o, s, w in sp.obs.segments],
        "skipped_keys": sp.obs.skipped,
        "action_space": sp.actions.size,
        "overflow": sp.actions.overflow,
        "action_blocks": [{"kind": k, "cards": c, "arg": a, "offset": off,
                           "size": math.comb(len(sp.deck), c)}
                          for (k, c, a), off in zip(sp.actions.blocks, sp.actions.offsets)],
    }


def all_card_sets(deck: Sequence[int], n: int) -> list[int]:
    """Every ``n``-card mask of ``deck`` (tests compare ranks against it)."""
    return [sum(1 << c for c in combo) for combo in combinations(deck, n)]
