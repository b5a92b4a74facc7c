"""Umbridge (David Parlett): two-player bridge with a shared dummy and draws from the bridge."""

from torite.games.umbridge.rules import Umbridge, UmbridgeState

__all__ = ["Umbridge", "UmbridgeState"]
