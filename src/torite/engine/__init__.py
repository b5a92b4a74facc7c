"""The protocol every game implements, and the mechanics games really share."""

from torite.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    OptionError,
    OptionSpec,
    State,
    house_rule,
)
from torite.engine.registry import game_class, game_ids, make_game

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "OptionError",
    "OptionSpec",
    "State",
    "game_class",
    "game_ids",
    "house_rule",
    "make_game",
]
