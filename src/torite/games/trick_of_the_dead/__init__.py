"""Trick of the Dead: three players, zombies rising from a graveyard."""

from torite.games.trick_of_the_dead.rules import TrickOfTheDead, TrickOfTheDeadState

__all__ = ["TrickOfTheDead", "TrickOfTheDeadState"]
