"""Bid and Call, the example game of ``docs/new-game.md`` (``tests/example_game``), is registered
for the whole test session at import, before collection: so it is in ``game_ids()`` when the
conformance suite and every other test parametrized over the games are collected, and every
generic test checks it like a shipped game.  Only the tests register it; the shipped registry
(``torite.engine.registry._GAMES``) does not list it."""

from __future__ import annotations

from example_game.rules import BidAndCall
from torite.engine.registry import register_game

register_game(BidAndCall.id, f"{BidAndCall.__module__}:{BidAndCall.__name__}")
