"""The bidding test game (``tests/web/bidding``) and a scripted bot for it, registered only
while a test asks for them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

import torite.bots.registry as bot_registry
from torite.engine.base import Action, Game
from torite.engine.bot import Bot
from torite.engine.registry import register_game, unregister_game

from .bidding.rules import BiddingGame

BIDDING = BiddingGame.id
SCRIPTED = "scripted-test"


class ScriptedBot(Bot):
    """Opens the bidding with 1 H, doubles seat 0's contract, passes otherwise; then plays its
    first legal action.  So a person at seat 0 meets a bidding box with cells below the last
    bid disabled, then a redouble, then names the partner's card."""

    name = SCRIPTED

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        if obs["phase"] == "bid":
            if obs["contract"] is None:
                return Action("bid", 0, "1 H")
            if "double" in kinds and obs["declarer"] == 0:
                return kinds["double"]
            return kinds["pass"]
        return legal[0]


def _scripted(game: Game, seat: int, rng: random.Random) -> Bot:
    return ScriptedBot(game, seat, rng)


@pytest.fixture
def bidding_game() -> Iterator[str]:
    register_game(BIDDING, f"{BiddingGame.__module__}:BiddingGame")
    bot_registry.register_bot(SCRIPTED, _scripted)
    try:
        yield BIDDING
    finally:
        unregister_game(BIDDING)
        bot_registry._FACTORIES.pop(SCRIPTED, None)
        bot_registry.BOT_NAMES = tuple(bot_registry._FACTORIES)
