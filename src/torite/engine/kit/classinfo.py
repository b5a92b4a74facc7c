"""What the kit reads from a state class once, on its class's first state: which hooks it
overrides (those left at the kit's defaults are not called on the hot path), its phase table,
and for ``clone`` its own attributes and which of them are lists to copy.

Apart from :mod:`torite.engine.kit.state` because it is about the state *class*, read once, not
about a game in progress.  A hook is the kit's default while the class has
:class:`~torite.engine.kit.statedata.StateData`'s own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from torite.engine.base import Action
from torite.engine.kit.declarations import Encode
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.statedata import StateData

#: per state class, the phase table: phase -> (legal, apply, quick) functions
PhaseTable = dict[str, tuple[Callable[..., Sequence[Action]], Callable[..., None], Callable[..., bool] | None]]
_LIST_KINDS: Final = frozenset({"seat_cards", "list", "ints"})


class ClassInfo:
    """What the kit reads from a state class once: which hooks it overrides (those left at the
    kit's defaults are not called on the hot path), its phase table, and for ``clone`` its own
    attributes and which of them are lists to copy."""

    def __init__(self, cls: type[StateData[Any]], game: GameData, kit_attributes: frozenset[str]) -> None:
        self.played = cls.card_played is not StateData.card_played
        self.full = cls.trick_full is not StateData.trick_full
        self.after = cls.AFTER_PLAY_CARDS if cls.after_play is not StateData.after_play else 0
        self.taken = cls.trick_taken is not StateData.trick_taken
        self.clear = cls.clear_trick_hook is not StateData.clear_trick_hook
        self.round = cls.round_over is not StateData.round_over
        self.phases = phase_table(cls, game)
        # the game's trick slots (``GameData.__init_subclass__``), read on every trick
        self.slot_reset: tuple[tuple[str, Any], ...] = game._SLOT_RESET
        self.slot_plain: tuple[tuple[str, str], ...] = game._SLOT_PLAIN
        self.slot_encode: tuple[tuple[str, str, Encode], ...] = game._SLOT_ENCODE
        self.slot_card: tuple[tuple[str, str], ...] = game._SLOT_CARD
        # a game's own attributes: its classes' slots, or (compiled) every native attribute
        names: list[str] = list(getattr(cls, "__mypyc_attrs__", ()))
        for klass in cls.__mro__:
            slots = klass.__dict__.get("__slots__", ())
            names += [slots] if isinstance(slots, str) else slots
        self.own = tuple(dict.fromkeys(x for x in names if x not in kit_attributes))
        lists: list[str] = list(cls.LIST_FIELDS)
        for p in game.PILES:
            lists.append(p.name)
            if p.face_down:
                lists.append(p.face_down)
        lists += [f.attr for f in game.FIELDS if f.kind.name in _LIST_KINDS or f.private]
        lists += [t.attr for t in game.TRICK_SLOTS]
        self.lists = frozenset(lists) - kit_attributes


#: per state class, what the kit reads from it (made on its first state)
_CLASSES: Final[dict[type[StateData[Any]], ClassInfo]] = {}


def class_info(cls: type[StateData[Any]], game: GameData, kit_attributes: frozenset[str]) -> ClassInfo:
    """The state class's :class:`ClassInfo`, made on its first state.  ``kit_attributes`` are the
    attributes ``clone`` copies as the kit's own (the state module's to say: ``clone`` is
    there)."""
    info = _CLASSES.get(cls)
    if info is None:
        info = _CLASSES[cls] = ClassInfo(cls, game, kit_attributes)
    return info


def phase_table(cls: type[StateData[Any]], game: GameData) -> PhaseTable:
    """Each declared phase's ``legal_``, ``apply_`` and optional ``is_legal_`` functions: a
    phase the state class does not write is an error at its first state, not at its first
    decision."""
    table: PhaseTable = {}
    for phase in game.PHASES:
        legal = getattr(cls, "legal_" + phase.name, None)
        apply = getattr(cls, "apply_" + phase.name, None)
        if legal is None or apply is None:
            raise TypeError(f"{cls.__name__} must write legal_{phase.name} and apply_{phase.name} "
                            f"for the declared phase {phase.name!r}")
        table[phase.name] = (legal, apply, getattr(cls, "is_legal_" + phase.name, None))
    return table
