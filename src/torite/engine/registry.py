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
    "good-cop": "torite.games.good_cop.rules:GoodCop",
    "seconds": "torite.games.seconds.rules:Seconds",
    "umbridge": "torite.games.umbridge.rules:Umbridge",
    "glapgos": "torite.games.glapgos.rules:Glapgos",
    "hearts": "torite.games.hearts.rules:Hearts",
    "mighty": "torite.games.mighty.rules:Mighty",
}


def register_game(game_id: str, target: str) -> None:
    """Add a game by ``"module:Class"`` (tests register example games this way; shipped games
    are listed above).  Registering an id again replaces it."""
    module, sep, name = target.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"register {game_id!r} as 'module:Class', not {target!r}")
    _GAMES[game_id] = target


def unregister_game(game_id: str) -> None:
    """Remove a game added by :func:`register_game` (a no-op for an unknown id)."""
    _GAMES.pop(game_id, None)


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
