"""Kaedama Trick: three players, a small stock to swap a losing card for a fresh draw."""

from torite.games.kaedama.rules import Kaedama, KaedamaState

__all__ = ["Kaedama", "KaedamaState"]
