"""Mighty (마이티): five players, a president who bids for the trump and names a secret friend."""

from torite.games.mighty.rules import Mighty, MightyState

__all__ = ["Mighty", "MightyState"]
