"""The normal bot beats random play; the rules pages exist and carry every ruling."""

from __future__ import annotations

import pytest

from torite.games.trick_of_the_dead.rules import TrickOfTheDead
from torite.present.pages import rules_page
from torite.sim import simulate

RULINGS = ("G1", "J1", "A1", "W1", "Z1", "B1", "H1", "E1", "F1", "D1")


def test_normal_bot_beats_random_bots() -> None:
    out = simulate("trick-of-the-dead", {}, ["normal", "random", "random"], rounds=300, seed=1)
    normal, r1, r2 = out["points_per_round_ci95"]  # [low, high] per seat
    assert normal[0] > max(r1[1], r2[1]), out["points_per_round"]


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_rules_page_names_every_ruling_option_and_deal_field(lang: str) -> None:
    page = rules_page(TrickOfTheDead, lang)
    for ruling in RULINGS:
        assert ruling in page, f"{ruling} missing from rules.{lang}.md"
    for word in ("survival", "open_graveyard", "players", "zombie_doubles", "target",
                 "hands", "graveyard", "graveyard_after_burial", "JK1", "JK2"):
        assert word in page, f"{word} missing from rules.{lang}.md"
