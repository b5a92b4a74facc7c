"""Seconds (David Parlett): the second-highest card wins, partners change every deal."""

from torite.games.seconds.rules import Seconds, SecondsState

__all__ = ["Seconds", "SecondsState"]
