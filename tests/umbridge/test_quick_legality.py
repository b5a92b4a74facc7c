"""The fast legality tests (``is_legal_<phase>``) agree with the legal lists on every candidate
action, in random games: True exactly for the actions the list holds."""

from __future__ import annotations

import random

from torite.engine.base import Action
from torite.engine.registry import make_game
from torite.games.umbridge.deal import BIDS, DISCARDS, DONE, DOUBLE, PASS, REDOUBLE
from torite.games.umbridge.rules import UmbridgeState

CANDIDATES = [*BIDS, PASS, DOUBLE, REDOUBLE, DONE, *DISCARDS, *(Action("play", 1 << c) for c in range(52)),
              Action("bid", 0, "8 NT"), Action("bid", 1, "1 C"), Action("pass", 0, "X"), Action("done", 1),
              Action("discard", 3), Action("play", 3)]


def test_fast_legality_matches_the_legal_lists() -> None:
    game = make_game("umbridge", {"dummy_control": "leader"})
    checked = 0
    for seed in range(6):
        state = game.new_state(seed, max_rounds=1)
        assert isinstance(state, UmbridgeState)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            quick = getattr(state, f"is_legal_{state.phase}", None)
            if quick is not None:
                for a in CANDIDATES:
                    assert quick(seat, a) == (a in legal), (state.phase, str(a))
                checked += 1
            state.apply(seat, rng.choice(legal))
    assert checked > 50
