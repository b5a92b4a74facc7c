"""The protocol's shared behaviour: options are validated at construction, the registry finds
games, constrained sampling respects voids."""

import random

import pytest

from torite.cards import SUIT_MASKS, iter_bits
from torite.engine import OptionError, game_class, game_ids, make_game
from torite.engine.sampling import SamplingError, deal_constrained
from torite.present.pages import rules_page


def test_registry_lists_trick_of_the_dead() -> None:
    assert "trick-of-the-dead" in game_ids()
    with pytest.raises(OptionError, match="unknown game"):
        game_class("no-such-game")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_describes_its_options_with_defaults(game_id: str) -> None:
    info = game_class(game_id).describe()
    assert info["id"] == game_id and info["title"]
    game = make_game(game_id)
    for opt in info["options"]:
        assert game.options[opt["name"]] == opt["default"]
        assert opt["help"]


@pytest.mark.parametrize("game_id", game_ids())
def test_unknown_option_is_refused_naming_the_known_ones(game_id: str) -> None:
    with pytest.raises(OptionError, match="unknown option nonsense"):
        make_game(game_id, {"nonsense": 1})


def test_option_values_are_typed_and_ranged() -> None:
    assert make_game("trick-of-the-dead", {"target": "50"}).options["target"] == 50
    assert make_game("trick-of-the-dead", {"survival": "yes"}).options["survival"] is True
    for bad in ({"target": "fifty"}, {"target": 0}, {"survival": "maybe"}, {"players": 4},
                {"zombie_doubles": "hearts"}, {"target": True}):
        with pytest.raises(OptionError):
            make_game("trick-of-the-dead", bad)


@pytest.mark.parametrize("game_id", game_ids())
def test_rules_pages_exist_in_english_japanese_and_korean(game_id: str) -> None:
    cls = game_class(game_id)
    assert len(rules_page(cls, "en")) > 500
    assert len(rules_page(cls, "ja")) > 300
    assert len(rules_page(cls, "ko")) > 300
    with pytest.raises(OptionError, match="languages: en, ja, ko"):
        rules_page(cls, "xx")


def test_constrained_deal_respects_sizes_and_voids() -> None:
    rng = random.Random(1)
    pool = (1 << 30) - 1
    for _ in range(200):
        forbidden = [SUIT_MASKS[0], SUIT_MASKS[1] | SUIT_MASKS[0], 0]
        parts = deal_constrained(pool, [6, 4, 20], forbidden, rng)
        assert [p.bit_count() for p in parts] == [6, 4, 20]
        assert parts[0] | parts[1] | parts[2] == pool
        assert not parts[0] & forbidden[0] and not parts[1] & forbidden[1]


def test_constrained_deal_solves_tight_voids_exactly() -> None:
    # place 0 may only take the four diamonds 13..16 and needs all four
    rng = random.Random(2)
    pool = sum(1 << c for c in [0, 1, 2, 3, 13, 14, 15, 16])
    forbidden = [~sum(1 << c for c in [13, 14, 15, 16]) & ((1 << 54) - 1), 0]
    for _ in range(50):
        parts = deal_constrained(pool, [4, 4], forbidden, rng, tries=1)
        assert sorted(iter_bits(parts[0])) == [13, 14, 15, 16]


def test_impossible_constraints_raise() -> None:
    with pytest.raises(SamplingError):
        deal_constrained(0b1111, [2, 2], [0b1111, 0], random.Random(0))
    with pytest.raises(SamplingError):
        deal_constrained(0b111, [2, 2], [0, 0], random.Random(0))
