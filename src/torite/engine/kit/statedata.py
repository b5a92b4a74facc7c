"""The state of a game on the kit as data: the kit's attributes of a game in progress (the
hands, the trick, the scores, whose turn, ...) and the hooks a game writes, with the kit's
defaults.

Apart from :mod:`torite.engine.kit.state` (:class:`~torite.engine.kit.state.TrickState`: the
round flow, the protocol, and the machinery they run on) so that what the state is built from –
its deals, its views, what the kit reads from a state class – reads a state from below it.  A
base class, not a ``typing.Protocol``: compiled, a native class's attributes are read directly,
a protocol's through a generic attribute lookup.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS
from torite.engine.base import Action, Refusal, State
from torite.engine.kit.declarations import PLAY, Place
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.tables import Notation

#: the game a state belongs to: ``HeartsState(TrickState[Hearts])`` reads ``self.game`` as a
#: ``Hearts``.  A type parameter, not a narrowed attribute (``game: Hearts``), because the
#: compiled build gives an attribute one type along a class hierarchy.
G = TypeVar("G", bound=GameData)


# compiled, a native class; the example game and the tests' small games are interpreted
# subclasses of it (through ``TrickState``)
@mypyc_attr(allow_interpreted_subclasses=True)
class StateData(State, Generic[G]):
    """A trick game in progress as data, and the hooks a game writes with the kit's defaults.

    Hooks a game writes (defaults in brackets): ``setup_options`` (constants the options fix),
    ``start_game`` (game-long state, before the first deal), ``next_dealer`` [the seat after
    the dealer], ``void_deal(hands)`` (True throws a deal in [False]), ``start_round_hook``
    (the round's own setup after the deal), ``playable(seat)`` (the
    follow rule: a card mask [follow suit]), ``after_play(seat, card)`` (True when the game
    takes over, e.g. a declaration phase [False]), ``trick_full`` (a complete trick
    [finish it]), ``trick_winner`` (index of the winning card), ``trick_points(win)`` [0],
    ``trick_taken(win, winner, record)`` (effects of a won trick; may add keys to its record),
    ``round_over`` [a hand is empty], ``score_round`` (bonuses into ``round_points``; returns
    extra data for the round's event), ``game_over`` [``max_rounds`` reached], ``teams``
    [none], ``pins(seat)`` and ``forbids(seat)`` (what the seat knows of hidden places).
    """

    # the kit's attributes live in slots (a game's own in its own ``__slots__`` or the instance
    # dict): CPython 3.11 shares an instance dict's keys only up to 30 of them, past that every
    # attribute read on the hot path is a slower, unshared lookup, and a slot is read fastest.
    # These are the game's state; ``TrickState`` adds the machinery's own.
    __slots__ = (
        "_texts",
        "attempts",
        "counters",
        "dealer",
        "deals",
        "game",
        "hands",
        "history",
        "leader",
        "led",
        "max_rounds",
        "n",
        "notation",
        "pending",
        "phase",
        "rng",
        "round_no",
        "round_points",
        "round_scores",
        "scores",
        "seed",
        "trick",
        "trick_seats",
        "tricks_won",
        "turn",
        "void_exempt",
        "voids",
    )
    game: G
    #: list attributes of the subclass that ``clone`` copies (lists of ints or bools)
    LIST_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: the cards whose play calls ``after_play`` (a mask; every card unless a game narrows it,
    #: e.g. to the jokers, and saves a call a card)
    AFTER_PLAY_CARDS: ClassVar[int] = (1 << 54) - 1

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
    voids: list[int]
    history: list[dict[str, Any]]
    round_points: list[int]
    tricks_won: list[int]
    leader: int
    led: int
    phase: str
    turn: int
    pending: int
    #: deals dealt in this state so far (a thrown-in deal counts): explicit deals are used in turn
    attempts: int
    #: cards a seat may play without following suit and so without showing a void (Mighty's
    #: Mighty); the jokers belong to no suit and never show one
    void_exempt: int
    #: how the game writes its cards, and its card texts (``_texts[card]``) on the hot path
    notation: Notation
    _texts: tuple[str, ...]

    # ------------------------------------------------------------------ hooks
    def setup_options(self) -> None:
        """Constants the options fix (shared by a new state and a determinized one)."""

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        """Check the game's own keys of an explicit deal (``DEAL_EXTRAS``); raise ValueError."""

    def start_game(self) -> None:
        """Game-long state, set once before the first deal (Umbridge's rubber score sheet)."""

    def next_dealer(self) -> int:
        """The dealer of the next round (the seat after this round's, unless the rules say)."""
        return (self.dealer + 1) % self.n

    def before_deal(self) -> None:
        """The round's own reset before its first deal (what ``void_deal`` counts, say)."""

    def void_deal(self, hands: list[int]) -> bool:
        """True throws a deal in before anyone sees it (the dealt piles are set, ``hands`` not
        yet): the kit deals again, the next explicit deal or a new shuffle.  The game may emit
        events and change the dealer first (Mighty's deal miss: the hand shown, its holder
        deals); no deal event of the thrown-in deal is ever emitted (Good Cop's two turned
        jokers: the pack is shuffled again)."""
        return False

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        """The round's own setup after the deal; ``deal`` is the explicit deal, if any."""
        self.phase = PLAY

    def playable(self, seat: int) -> int:
        """The follow rule: the cards of ``seat``'s hand it may play now (a mask)."""
        hand = self.hands[seat]
        if self.trick and self.led >= 0:
            follow = hand & SUIT_MASKS[self.led]
            if follow:
                return follow
        return hand

    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        """A card has just joined the trick (slots extended): the game's own bookkeeping;
        returns the data of the ``play`` event."""
        return {"card": self._texts[card]}

    def after_play(self, seat: int, card: int) -> bool:
        """Effects of a card just added to the trick; True when the game takes over the flow."""
        return False

    def trick_full(self) -> None:
        """Every seat has played to the trick (a game may insert a phase before it is won)."""
        self.finish_trick()

    def finish_trick(self) -> None:
        """Give the trick to its winner, record it, and go on (or end the round): the kit's
        round flow, written by :class:`~torite.engine.kit.state.TrickState`; declared here for
        ``trick_full``'s default."""
        raise NotImplementedError

    def trick_winner(self) -> int:
        """Index in the trick of the winning card."""
        raise NotImplementedError

    def trick_points(self, win: int) -> int:
        """Points of the current trick for its winner."""
        return 0

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        """Effects of a won trick, before the trick is cleared; may add keys to its record."""

    def clear_trick_hook(self) -> None:
        """Reset the game's own per-trick state (the kit empties the trick slots)."""

    def round_over(self) -> bool:
        return 0 in self.hands  # a hand is empty

    def score_round(self) -> dict[str, Any]:
        """Round-end scoring into ``round_points``; returns extra data for the round's event."""
        return {}

    def game_over(self) -> bool:
        return self.max_rounds is not None and len(self.round_scores) >= self.max_rounds

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides of a game played in teams (empty: every seat for itself)."""
        return ()

    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """Cards ``seat`` knows to lie in a place hidden from it: (place, mask) pairs; places
        are ``hands[s]``, a pile's name, ``trick[i]`` or ``<pile>[i]`` for a face-down card.
        Must use only what the seat's observation shows (it runs on sampled states too)."""
        return []

    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """Cards ``seat`` knows are *not* in a hidden place: (place, mask) pairs."""
        return []

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        """Derived observation keys the declarations do not cover."""

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        """Restore what ``observe_extra`` showed, in a determinized state."""

    def arrange(self, rng: random.Random) -> None:
        """Put what the seat knows of a sampled pile's order in place (after sampling)."""


    # ------------------------------------------------------------------ refusals
    def play_refusal(self, seat: int, card: int) -> Refusal:
        """Why a card of ``seat``'s hand that ``playable`` leaves out may not be played now.  The
        kit knows following suit; a game whose ``playable`` says more says why here."""
        if self.trick and self.led >= 0 and self.hands[seat] & SUIT_MASKS[self.led]:
            return Refusal("follow", {"suit": SUITS[self.led]})
        return Refusal("not_now")

    def choice_refusal(self, seat: int, action: Action) -> Refusal:
        """Why an action of another phase (a bid, a call) that is not legal now is refused."""
        return Refusal("not_now")


    # ------------------------------------------------------------------ information
    def open_piles(self) -> dict[str, list[str]]:
        """Every declared pile face up, top first where so declared (see ``State.open_piles``)."""
        out = {}
        for p in self.game.PILES:
            shown = [self.notation.texts[c] for c in getattr(self, p.name) if c >= 0]
            out[p.name] = shown[::-1] if p.top_first else shown
        return out

    def trick_down(self, i: int) -> bool:
        attr = self.game.TRICK_FACE_DOWN
        return bool(attr and getattr(self, attr)[i])

    def winning_now(self) -> int | None:
        """The index in the unfinished trick of the card that wins it as it lies now, or None
        when a face-down card could decide.  A game whose trick rule needs the whole trick
        overrides it; it must not change the state."""
        if not self.trick or any(self.trick_down(i) for i in range(len(self.trick))):
            return None
        return self.trick_winner()
