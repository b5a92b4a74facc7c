"""Bookkeeping every multi-round trick game shares: hands as masks, the round's tricks, scores
by round, counters for the simulator, a cheap clone, and the public keys of an observation.

A game subclasses :class:`TrickGameState` and keeps its own rules; this class holds only what
really is the same (the attribute names below), so a determinizer can restore it in one call.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self

from torite.cards import SUIT_MASKS, card_str, iter_bits, parse_card
from torite.engine.base import Action, Event, Game, Result, State

SUITS = "CDHS"
#: ``play`` actions, one per card, made once: legal-action lists are built on the hot path.
PLAY_ACTIONS: tuple[Action, ...] = tuple(Action("play", 1 << c) for c in range(54))


def follow_suit(hand: int, led: int, *, wild: int = 0) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` (-1: leading):
    the led suit if the hand holds it, else anything; ``wild`` cards (e.g. jokers) are always
    playable.  A game whose rule differs writes its own rather than bending this one."""
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | (hand & wild)
    return hand


def play_actions(mask: int) -> list[Action]:
    """The ``play`` actions of the cards in ``mask``, lowest card first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(PLAY_ACTIONS[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of_texts(cards: Iterable[str]) -> int:
    """A card mask from card texts (as observations carry them)."""
    m = 0
    for c in cards:
        m |= 1 << parse_card(c)
    return m


def suits_of(letters: Iterable[str]) -> int:
    """A bit per suit from suit letters (``["C", "H"]`` → 0b0101)."""
    m = 0
    for x in letters:
        m |= 1 << SUITS.index(x)
    return m


class TrickGameState(State):
    """Shared state of a trick game played over rounds; subclasses add their own fields."""

    #: list attributes of the subclass that ``clone`` must copy (shallow copies of int lists).
    LIST_FIELDS: ClassVar[tuple[str, ...]] = ()
    _COMMON_LISTS: ClassVar[tuple[str, ...]] = (
        "scores", "round_scores", "events", "hands", "trick", "trick_seats", "voids", "history",
        "round_points", "tricks_won")

    game: Game
    events: list[Event]
    n: int
    seed: int | None
    max_rounds: int | None
    deals: list[dict[str, Any]]
    dealer: int
    round_no: int
    scores: list[int]
    round_scores: list[tuple[int, ...]]
    counters: dict[str, int]
    hands: list[int]
    trick: list[int]
    trick_seats: list[int]
    voids: list[int]  # per seat, a bit per suit its hidden cards are known to lack
    history: list[dict[str, Any]]  # this round's finished tricks, as observations show them
    round_points: list[int]
    tricks_won: list[int]
    leader: int
    led: int
    phase: str
    turn: int

    def init_common(self, game: Game, seed: int | None, dealer: int | None, max_rounds: int | None,
                    deals: Sequence[Mapping[str, Any]]) -> None:
        """Set up a new game's shared fields; bad arguments raise ValueError before any play."""
        self.game = game
        self.n = n = game.num_players
        self._setup_options()
        self.seed = seed
        self.rng = random.Random(seed)
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        self.max_rounds = max_rounds
        self.deals = [dict(d) for d in deals]
        for i, d in enumerate(self.deals):
            self._check_deal(i, d)
        if dealer is None:
            dealer = self.rng.randrange(n)
        elif not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
        self.dealer = dealer
        self.round_no = -1
        self.scores = [0] * n
        self.round_scores = []
        self.events = []
        self.counters = dict.fromkeys(game.STAT_KEYS, 0)

    def _setup_options(self) -> None:
        """Hook: constants the options fix, shared by a new game and a determinized one."""

    def _check_deal(self, index: int, deal: Mapping[str, Any]) -> None:
        """Hook: refuse a malformed explicit deal with a ValueError naming what is wrong."""
        raise ValueError(f"{self.game.id} takes no explicit deals")

    @property
    def rounds_played(self) -> int:
        return len(self.round_scores)

    def result(self) -> Result:
        """Highest total wins; equal totals share the win (each game's end rule decides when)."""
        top = max(self.scores)
        winners = tuple(s for s in range(self.n) if self.scores[s] == top)
        return Result(tuple(self.scores), winners, tuple(self.round_scores))

    def stats(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.counters.items()}

    def clone(self) -> Self:
        new = copy.copy(self)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.counters = dict(self.counters)
        for name in self._COMMON_LISTS + self.LIST_FIELDS:
            setattr(new, name, getattr(self, name)[:])
        return new

    def common_observation(self, seat: int | None) -> dict[str, Any]:
        """The keys every trick game's observation has, with the same meaning everywhere."""
        me = seat if seat is not None and 0 <= seat < self.n else -1
        return {
            "game": self.game.id,
            "options": dict(self.game.options),
            "seat": seat,
            "num_players": self.n,
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "round": self.round_no,
            "max_rounds": self.max_rounds,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "round_points": list(self.round_points),
            "tricks_won": list(self.tricks_won),
            "hand": [card_str(c) for c in iter_bits(self.hands[me])] if me >= 0 else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "led": SUITS[self.led] if self.led >= 0 else None,
            "voids": [[SUITS[s] for s in range(4) if v >> s & 1] for v in self.voids],
            "tricks": [dict(t) for t in self.history],
            "stats": dict(self.counters),
        }

    def restore_common(self, game: Game, obs: Mapping[str, Any], rng: random.Random) -> None:
        """Set the shared fields from an observation, for a determinizer building a state.

        Future chance comes from ``rng``, never from the real game's generator, and the event
        log starts empty: a sampled world has no history a bot could read hidden cards from.
        """
        self.game = game
        self.n = obs["num_players"]
        self.seed = None
        self.rng = random.Random(rng.getrandbits(64))
        self.max_rounds = obs["max_rounds"]
        self.deals = []
        self.dealer = obs["dealer"]
        self.round_no = obs["round"]
        self.scores = list(obs["scores"])
        self.round_scores = [tuple(r) for r in obs["round_scores"]]
        self.events = []
        self.counters = dict(obs["stats"])
        self.phase = obs["phase"]
        self.leader = obs["leader"]
        self.led = SUITS.index(obs["led"]) if obs["led"] else -1
        self.voids = [suits_of(v) for v in obs["voids"]]
        self.history = [dict(t) for t in obs["tricks"]]
        self.round_points = list(obs["round_points"])
        self.tricks_won = list(obs["tricks_won"])
