"""Hearts exactly as OpenSpiel plays it: the yardstick game, measured against pyspiel."""

from torite.games.hearts.rules import Hearts, HeartsState

__all__ = ["Hearts", "HeartsState"]
