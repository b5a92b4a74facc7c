"""Good Cop (David Parlett): four players, secret teams fixed by who is dealt the jokers."""

from torite.games.good_cop.rules import GoodCop, GoodCopState

__all__ = ["GoodCop", "GoodCopState"]
