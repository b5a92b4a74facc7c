"""Cards, card sets and action notation round-trip."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from torite.cards import JOKER1, JOKER2, Card, CardSet, Suit, card_str, parse_card, stripped_deck
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


def test_higher_bit_is_higher_rank_within_a_suit() -> None:
    assert Card.parse("AS") > Card.parse("KS") > Card.parse("2S")
    assert Card.parse("AS").suit is Suit.SPADES and Card.parse("AS").rank == 14
    assert Card.parse("JK1").suit is None and Card.parse("JK1").is_joker


def test_cardset_is_a_bitmask_with_set_semantics() -> None:
    s = CardSet.parse("AS KS 10D")
    assert len(s) == 3 and Card.parse("KS") in s and Card.parse("QS") not in s
    assert str(s.suit(Suit.SPADES)) == "KS AS"
    assert (s - CardSet.parse("AS")) == CardSet.parse("KS 10D")
    assert len(CardSet(stripped_deck(5))) == 40 and len(CardSet(stripped_deck(2, jokers=2))) == 54


def test_suit_parser() -> None:
    assert Suit.parse("s") is Suit.SPADES and Suit.parse("♦") is Suit.DIAMONDS
    assert Suit.parse("hearts") is Suit.HEARTS
    with pytest.raises(ValueError):
        Suit.parse("X")


@given(st.sets(st.integers(0, 53), min_size=0, max_size=4), st.sampled_from(["play", "bury", "trump", "pass"]),
       st.sampled_from(["", "S", "14 S"]))
def test_action_notation_round_trips(cards: set[int], kind: str, arg: str) -> None:
    mask = sum(1 << c for c in cards)
    a = Action(kind, mask, arg)
    assert Action.parse(str(a)) == a


def test_action_parse_refuses_a_card_named_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        Action.parse("bury KC KC")
