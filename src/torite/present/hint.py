"""A hint for a learner: what the ``normal`` bot would choose for a seat, and its one-line reason.

Why here and why so narrow: the hint must never know more than the seat does, so it is computed
from exactly what a bot gets, ``state.observation(seat)`` and ``state.legal_actions(seat)``, by a
fresh rule-of-thumb bot for that seat (the game's ``rule_bot``, the ``normal`` level).  The bot
sets its :class:`~torite.engine.bot.Reason` as it decides; the labels' ``hints`` say it in each
language.  The same observation gives the same hint (the bot's generator is seeded from it).
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from torite.engine.base import Action, Game
from torite.engine.bot import Reason


def suggest(game: Game, seat: int, obs: Mapping[str, Any], legal: Sequence[Action]) -> tuple[Action, Reason | None]:
    """The rule bot's choice among ``legal`` for ``seat`` seeing ``obs``, with its reason (None
    when it gives none).  ``legal`` must not be empty."""
    if not legal:
        raise ValueError(f"seat {seat} has nothing to choose")
    seed = zlib.crc32(json.dumps(obs, sort_keys=True, default=str).encode("utf-8"))
    bot = game.rule_bot(seat, random.Random(seed))
    action = bot.act(obs, legal)
    if action not in legal:
        raise ValueError(f"the rule bot chose {action}, which is not legal")
    return action, bot.reason
