"""``torite.testing.deal`` completes an explicit deal from the game's own declarations."""

from __future__ import annotations

import pytest

from torite import testing
from torite.cards import SUITS, parse_card
from torite.engine.kit import TrickGame
from torite.engine.registry import make_game


def game(game_id: str) -> TrickGame:
    g = make_game(game_id)
    assert isinstance(g, TrickGame)
    return g


def test_a_deal_keeps_the_named_cards_fills_every_place_and_is_accepted() -> None:
    g = game("mighty")
    d = testing.deal(g, {2: "JK AS", 0: "2C"}, {"kitty": "3D"})
    assert {"JK", "AS"} <= set(d["hands"][2]) and "2C" in d["hands"][0] and d["kitty"][0] == "3D"
    assert [len(h) for h in d["hands"]] == [10] * 5 and len(d["kitty"]) == 3
    state = g.new_state(1, deals=[d])
    assert state.hands[2] >> parse_card("JK") & 1


def test_voids_are_kept_and_impossible_requests_are_refused() -> None:
    g = game("good-cop")
    d = testing.deal(g, {}, {"turned": "2C 3C"}, voids={1: "HJ", 3: "S"})
    assert not any(c[-1] == "H" or c.startswith("JK") for c in d["hands"][1])
    assert not any(c.endswith("S") for c in d["hands"][3])
    with pytest.raises(ValueError, match="twice"):
        testing.deal(g, {0: "AS", 1: "AS"})
    with pytest.raises(ValueError, match="voids"):
        testing.deal(g, {}, {"turned": "2C 3C"}, voids={s: SUITS for s in range(4)})
    with pytest.raises(ValueError, match="no pile"):
        testing.deal(g, {}, {"kitty": "2C"})
