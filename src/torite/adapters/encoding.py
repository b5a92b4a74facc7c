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
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from torite.cards import SUITS, iter_bits, parse_card
from torite.engine.base import Action, Game
from torite.engine.kit import TrickGame
from torite.engine.phases import Bid, Card, Cards, Choice, Contract, Word
from torite.engine.registry import make_game
from torite.seeds import derive_seed

NSUITS = 5  # C D H S, and a fifth slot for jokers / no suit
#: random rounds played only to measure a game's score scale and round length (the adapters'
#: utility bounds and game length), never for the layout or the action ids
EXPLORE_ROUNDS = 24
EXPLORE_GAMES = 2
EXPLORE_GAME_ROUNDS = 4

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


# --------------------------------------------------------------------------- scale
@dataclass(frozen=True)
class _Scale:
    """What random play measured: the largest absolute round score and the most actions a
    round took (the adapters' utility bounds and game length; not the layout)."""

    max_abs_score: float
    max_steps: int


def _measure(game: Game) -> _Scale:
    n = game.num_players
    runs: list[tuple[int, int | None, int, int]] = [
        (derive_seed("torite-explore", i), i % n, 1, i) for i in range(EXPLORE_ROUNDS)]
    runs += [(derive_seed("torite-explore-game", i), None, EXPLORE_GAME_ROUNDS, 0) for i in range(EXPLORE_GAMES)]
    top, most = 1.0, 0
    for seed, dealer, rounds, first in runs:
        state = game.new_state(seed, dealer=dealer, max_rounds=rounds, first_round=first)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
        res = state.result()
        for row in res.round_scores or (res.scores,):
            top = max(top, *(abs(float(x)) for x in row))
        most = max(most, math.ceil(steps / rounds))
    return _Scale(top, most)


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
        if not 0 <= index < self.size:
            raise KeyError(f"action id {index} is outside 0..{self.size - 1}")
        b = bisect.bisect_right(self.offsets, index) - 1
        block = self.blocks[b]
        k = index - self.offsets[b]
        cards = self._unrank(k, block.n) if block.sets is None else block.sets[k]
        return Action(block.kind, cards if block.n else 0, block.arg)

    def mask(self, legal: Sequence[Action]) -> npt.NDArray[np.int8]:
        m = np.zeros(self.size, np.int8)
        for a in legal:
            m[self.index(a)] = 1
        return m

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
    """The observation layout of one game and options; :meth:`encode` fills a vector."""

    def __init__(self, game: TrickGame, deck: Sequence[int]) -> None:
        n = self.n = game.num_players
        self.deck = list(deck)
        d = self.d = len(self.deck)
        self.pos = {c: i for i, c in enumerate(self.deck)}
        self.phases = sorted(p.name for p in game.phases())
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

    game: TrickGame
    deck: list[int]
    actions: ActionSpace
    obs: ObsSpec

    @functools.cached_property
    def _scale(self) -> _Scale:
        return _measure(self.game)

    @property
    def score_scale(self) -> float:
        """The largest absolute round score random play met: a scale for rewards and bounds."""
        return self._scale.max_abs_score

    @property
    def round_steps(self) -> int:
        """The most actions a round took in random play."""
        return self._scale.max_steps


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
