"""What a game on the kit declares, and what its declarations fix once the options are known
(the players, the deck and its notation, the decision phases, the dealt piles): the data every
part of the kit reads.

Apart from :mod:`torite.engine.kit.game` (:class:`~torite.engine.kit.game.TrickGame`, the
factory of a game's states) so that the parts the factory builds on – the state, its deals and
views, the schema – read a game's declarations from below it, not from the class that makes
them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from torite.engine.base import Action, Game
from torite.engine.kit.declarations import (
    CARD,
    PLAY,
    REST,
    THE_CARD,
    DealChance,
    Encode,
    Field,
    Pile,
    Role,
    TrickSlot,
    View,
    _same,
)
from torite.engine.kit.tables import Notation, notation
from torite.engine.phases import Card, Phase


def _text(card: int, nt: Notation) -> str:
    return nt.texts[card]


class GameData(Game):
    """A game's declarations on the kit (a :class:`~torite.engine.kit.game.TrickGame` holds
    them; a game subclasses that).

    ``PHASES`` declares every decision (its name, the forms of action it offers, whether seats
    decide at once); the state class writes ``legal_<phase>`` and ``apply_<phase>`` for each
    (the kit writes ``play``'s).  A game whose offer depends on its options (Mighty's lowest
    bid) overrides :meth:`phases`."""

    PHASES: ClassVar[tuple[Phase, ...]] = (Phase(PLAY, (Card("play"),)),)
    PILES: ClassVar[tuple[Pile, ...]] = ()
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    #: observation keys the game computes in ``observe_extra`` (declared, not stored)
    VIEWS: ClassVar[tuple[View, ...]] = ()
    ROLES: ClassVar[tuple[Role, ...]] = ()
    TRICK_SLOTS: ClassVar[tuple[TrickSlot, ...]] = ()
    #: keys a game's ``trick_taken`` adds to each finished trick's record (``tricks``)
    TRICK_FACTS: ClassVar[tuple[View, ...]] = ()
    #: the trick slot (its attribute) marking face-down cards of the current trick, if any
    TRICK_FACE_DOWN: ClassVar[str | None] = None
    #: the number of players, or the name of the option that sets it
    PLAYERS: ClassVar[int | str] = 4
    #: the cards of the deck in the order a shuffle starts from (override ``deck`` when the
    #: options change it)
    DECK: ClassVar[tuple[int, ...]] = tuple(range(52))
    #: explicit-deal keys besides ``hands`` and the dealt piles (checked by ``check_deal``)
    DEAL_EXTRAS: ClassVar[tuple[str, ...]] = ()

    #: phases in which several seats decide at once (``pending`` holds them), from ``PHASES``
    SIMULTANEOUS: ClassVar[frozenset[str]] = frozenset()
    _SLOT_CARD: ClassVar[tuple[tuple[str, str], ...]] = ()
    _SLOT_RESET: ClassVar[tuple[tuple[str, Any], ...]] = ()
    _SLOT_PLAIN: ClassVar[tuple[tuple[str, str], ...]] = ()
    _SLOT_ENCODE: ClassVar[tuple[tuple[str, str, Encode], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.SIMULTANEOUS = frozenset(p.name for p in cls.PHASES if p.simultaneous)
        cls._SLOT_CARD = tuple((t.attr, t.key) for t in cls.TRICK_SLOTS if t.default == THE_CARD)
        cls._SLOT_RESET = tuple((t.attr, -1 if t.default == THE_CARD else t.default) for t in cls.TRICK_SLOTS)
        # a finished trick's slots are all set: cards encode without the -1 check
        cls._SLOT_PLAIN = tuple((t.attr, t.key) for t in cls.TRICK_SLOTS if t.kind.encode is _same)
        # a finished trick's card slots are all set: written without the -1 check
        cls._SLOT_ENCODE = tuple((t.attr, t.key, _text if t.kind is CARD else t.kind.encode)
                                 for t in cls.TRICK_SLOTS if t.kind.encode is not _same
                                 and t.default != THE_CARD)

    @property
    def num_players(self) -> int:
        n = self.PLAYERS if isinstance(self.PLAYERS, int) else self.options[self.PLAYERS]
        assert isinstance(n, int)
        return n

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards of the deck, in the order a shuffle starts from."""
        return self.DECK

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand."""
        raise NotImplementedError

    @property
    def notation(self) -> Notation:
        """How this game writes its cards (its deck's: one joker is ``JK``)."""
        found: Notation | None = self.__dict__.get("_notation")
        if found is None:
            found = self.__dict__["_notation"] = notation(self.deck)
        return found

    def card_text(self, card: int) -> str:
        return self.notation.texts[card]

    def action_text(self, action: Action) -> str:
        return self.notation.action(action)

    def phases(self) -> tuple[Phase, ...]:
        """The decision phases under these options (``PHASES`` unless a game narrows them)."""
        return self.PHASES

    def deal_plan(self) -> tuple[int, tuple[int, ...], tuple[tuple[Pile, int], ...]]:
        """What every deal reads: the hand size, the deck in the order a shuffle starts from, and
        the dealt piles with their sizes; made once (the options are fixed)."""
        plan: tuple[int, tuple[int, ...], tuple[tuple[Pile, int], ...]] | None = self.__dict__.get("_deal_plan")
        if plan is None:
            plan = self.__dict__["_deal_plan"] = (self.hand_size, tuple(self.deck), tuple(self.dealt_piles()))
        return plan

    def deal_chance(self) -> DealChance | None:
        """What chance draws in a round besides its cards (:class:`DealChance`); None when a
        deal card by card cannot be an explicit deal of this game."""
        return DealChance()

    def dealt_piles(self) -> list[tuple[Pile, int]]:
        """The piles the deal fills, with their sizes (``REST`` resolved)."""
        out = []
        left = len(self.deck) - self.num_players * self.hand_size
        for p in self.PILES:
            if p.deal > 0:
                out.append((p, p.deal))
                left -= p.deal
        for p in self.PILES:
            if p.deal == REST:
                out.append((p, left))
        return out
