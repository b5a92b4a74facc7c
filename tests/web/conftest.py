"""The database of the tests that run on SQLite and on PostgreSQL (``db_url``: PostgreSQL when
``TORITE_TEST_POSTGRES`` is set, each test on a database of its own); the bidding test game (Bid
and Call, ``tests/example_game``: registered for the whole session by ``tests/conftest.py``) and a
scripted bot for it, registered only while a test asks for it; the browser of the browser tests."""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

import torite.bots.registry as bot_registry
from example_game.rules import BidAndCall
from torite.engine.base import Action, Game
from torite.engine.bot import Bot
from torite.engine.registry import game_ids
from torite.server.store import _with_driver

PG_ENV = "TORITE_TEST_POSTGRES"
BIDDING = BidAndCall.id
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
    assert BIDDING in game_ids(), "tests/conftest.py registers the example game"
    bot_registry.register_bot(SCRIPTED, _scripted)
    try:
        yield BIDDING
    finally:
        bot_registry._FACTORIES.pop(SCRIPTED, None)
        bot_registry.BOT_NAMES = tuple(bot_registry._FACTORIES)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'torite.db'}"
        return
    admin_url = os.environ.get(PG_ENV)
    if not admin_url:
        pytest.skip(f"{PG_ENV} is not set (.ci/run starts PostgreSQL and sets it)")
    name = f"torite_{secrets.token_hex(6)}"
    admin = create_engine(_with_driver(admin_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, one for each browser-test module (those modules skip
    themselves where it is absent, so Playwright is imported only here, when one asks)."""
    from playwright.sync_api import sync_playwright

    from .test_browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()
