"""Galapagos (Glapgos): two players bid for stock cards, score melds, play tricks for an odd
count, then climb with the bid cards."""

from torite.games.glapgos.rules import Glapgos, GlapgosState

__all__ = ["Glapgos", "GlapgosState"]
