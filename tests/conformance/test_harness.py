"""The suite's own machinery: which option combinations it tests, and how it finds card names."""

from __future__ import annotations

import itertools
from typing import Any

from torite.cards import card_str, parse_card
from torite.engine import OptionSpec

from .harness import card_mentions, cards_text, option_combinations


def bools(count: int) -> list[OptionSpec]:
    return [OptionSpec(f"flag{i}", False, "a rule") for i in range(count)]


def test_every_combination_is_tested_while_there_are_at_most_32() -> None:
    specs = [*bools(2), OptionSpec("mode", "a", "a rule", choices=("a", "b", "c")),
             OptionSpec("target", 100, "a size", minimum=1), OptionSpec("players", 3, "seats", choices=(3, 4))]
    combos = option_combinations(specs, seed="x")
    assert len(combos) == 2 * 2 * 3 * 2
    assert combos[0] == {"flag0": False, "flag1": False, "mode": "a", "players": 3}
    assert all("target" not in c for c in combos)  # sizes keep their default
    assert len({tuple(sorted(c.items())) for c in combos}) == len(combos)


def test_past_32_combinations_each_value_is_varied_alone() -> None:
    combos = option_combinations(bools(6), seed="six")
    assert len(combos) == 1 + 6 + 4


def test_ten_options_give_the_defaults_each_value_alone_and_a_few_random_combinations() -> None:
    specs = [*bools(9), OptionSpec("mode", "a", "a rule", choices=("a", "b", "c"))]
    combos = option_combinations(specs, seed="ten")
    defaults: dict[str, Any] = {s.name: s.default for s in specs}
    assert combos[0] == defaults
    alone = [defaults | {s.name: v} for s in specs for v in ([True] if s.choices is None else ["b", "c"])]
    assert combos[1:1 + len(alone)] == alone
    assert len(combos) == 1 + len(alone) + 4
    assert len({tuple(sorted(c.items())) for c in combos}) == len(combos)
    assert option_combinations(specs, seed="ten") == combos  # the same cases every run


def test_an_option_with_one_choice_or_a_size_is_never_varied() -> None:
    specs = [OptionSpec("only", "x", "a rule", choices=("x",)), OptionSpec("rounds", 6, "a size")]
    assert option_combinations(specs, seed="x") == [{}]


def test_card_names_are_found_anywhere_in_json_data_and_inside_texts() -> None:
    data = {"QH": 1, "hand": ["2C", "10D"], "log": "seat 1 plays AS (JK1);\nthen KD", "n": [None, 3, 4.5],
            "nested": [{"x": ("3C",)}], "ja": "10Sを出す"}
    assert cards_text(card_mentions(data)) == "2C 3C 10D KD QH 10S AS JK1"


def test_words_that_only_look_like_cards_are_not_cards() -> None:
    for text in ("as", "x10D", "10DX", "1D", "11D", "JK3", "J K1", "KDQS", "10♦", "♠A", "AS1", "phase", "trick"):
        assert card_mentions({"t": text}) == 0, text


def test_every_card_text_is_found() -> None:
    for c, d in itertools.combinations(range(54), 2):
        if c % 7 == 0:
            assert card_mentions([card_str(c), f"play {card_str(d)}"]) == (1 << c) | (1 << d)
    assert all(parse_card(card_str(c)) == c for c in range(54))
