"""Find games by id.  Faces look games up here and never import a rules module directly."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from torite.engine.base import Game, OptionError

# id -> "module:Class".  Adding a game is one line here plus its rules module.
_GAMES: dict[str, str] = {
    "trick-of-the-dead": "torite.games.trick_of_the_dead.rules:TrickOfTheDead",
    "kaedama": "torite.games.kaedama.rules:Kaedama",
}


def game_ids() -> list[str]:
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    try:
        target = _GAMES[game_id]
    except KeyError:
        raise OptionError(f"unknown game {game_id!r} (games: {', '.join(_GAMES)})") from None
    module, _, name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module), name)
    return cls


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    return game_class(game_id)(options or {})
