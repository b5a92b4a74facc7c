"""Imported once by the bot workers' fork server (see ``torite.server.bots``): every game and
every bot level, so each worker forked from it starts with them loaded."""

from __future__ import annotations

import contextlib

import torite.bots  # noqa: F401  (registers the search levels)
from torite.engine.registry import game_class, game_ids

for _gid in game_ids():
    with contextlib.suppress(Exception):  # a game that cannot load fails where it is used
        game_class(_gid)
