"""Cards, their notation and action notation round-trip."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from torite.cards import JOKER1, JOKER2, card_str, notation_of, parse_card
from torite.engine.base import Action


def test_every_card_prints_and_parses_back() -> None:
    for c in range(54):
        assert parse_card(card_str(c)) == c
    assert card_str(JOKER1) == "JK1" and card_str(JOKER2) == "JK2"


@pytest.mark.parametrize(("text", "expected"), [("10D", "10D"), ("TD", "10D"), ("qs", "QS"),
                                                ("♥A", "AH"), ("A♥", "AH"), ("S10", "10S"), ("jk2", "JK2")])
def test_card_parser_accepts_common_spellings(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "1D", "11S", "ZZ", "JK3", "10X"])
def test_card_parser_refuses_non_cards_with_a_message(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_a_deck_with_one_joker_writes_it_jk_and_every_joker_spelling_reads_back() -> None:
    """Mighty's one joker is ``JK`` (its records, actions and observations); a two-joker deck
    keeps ``JK1``/``JK2``; ``JK`` and ``JK1`` both read as the first joker, so records written
    before either way replay."""
    assert notation_of(tuple(range(53)))[JOKER1] == "JK"
    assert notation_of(tuple(range(54)))[JOKER1] == "JK1" and notation_of(tuple(range(52)))[51] == "AS"
    assert parse_card("JK") == parse_card("jk1") == JOKER1


@given(st.sets(st.integers(0, 53), min_size=0, max_size=4), st.sampled_from(["play", "bury", "trump", "pass"]),
       st.sampled_from(["", "S", "14 S"]))
def test_action_notation_round_trips(cards: set[int], kind: str, arg: str) -> None:
    mask = sum(1 << c for c in cards)
    a = Action(kind, mask, arg)
    assert Action.parse(str(a)) == a


def test_action_parse_refuses_a_card_named_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        Action.parse("bury KC KC")
