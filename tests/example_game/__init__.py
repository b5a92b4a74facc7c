"""Bid and Call: the example game of ``docs/new-game.md``, registered by the tests only."""
