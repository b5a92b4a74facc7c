"""Bots by name, for every game on the protocol.

Levels: ``random`` (uniform over legal actions), ``easy`` (the game's rule-of-thumb bot with
mistakes), ``normal`` (the rule-of-thumb bot).  Search levels register themselves here too.
"""

import torite.bots.search  # noqa: F401  (registers the search levels: hard, expert, ismcts, pimc)
from torite.bots.registry import BOT_NAMES, BotError, make_bot, parse_bots

__all__ = ["BOT_NAMES", "BotError", "make_bot", "parse_bots"]
