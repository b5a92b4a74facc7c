"""A game on the kit: its declarations (:class:`~torite.engine.kit.gamedata.GameData`) and the
factory of what they make: its states, the determinizer the search bots sample from, and its
schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from torite.engine.kit.determinizer import KitDeterminizer
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.schema import schema
from torite.engine.kit.state import TrickState


class TrickGame(GameData):
    """A game on the kit: declarations only (:class:`GameData`); states come from ``STATE``,
    the game's :class:`TrickState` subclass."""

    STATE: ClassVar[type[TrickState[Any]]]

    def new_state(self, seed: int | None = None, *, dealer: int | None = None,
                  max_rounds: int | None = None, deals: Sequence[Mapping[str, Any]] = (),
                  first_round: int = 0) -> TrickState[Any]:
        return self.STATE(self, seed, dealer, max_rounds, deals, first_round)

    def determinizer(self, obs: Mapping[str, Any]) -> KitDeterminizer:
        return KitDeterminizer(self.STATE(self, shell=True), obs)

    def schema(self) -> dict[str, Any]:
        """One JSON description of this game under its options (``docs/schema.md``); made once
        (the options are fixed), so a caller must not change it."""
        made: dict[str, Any] | None = self.__dict__.get("_schema")
        if made is None:
            made = self.__dict__["_schema"] = schema(self)
        return made
