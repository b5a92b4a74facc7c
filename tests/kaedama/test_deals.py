"""Explicit deals (the format is in ``torite.games.kaedama.rules``'s docstring), shared helpers
for the other test modules, and the checks on a deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from torite.cards import card_str, iter_bits, parse_card
from torite.engine.base import Action
from torite.games.kaedama.rules import DECK_36, DECK_40, Kaedama, KaedamaState

A, B, C = 0, 1, 2  # with dealer=2, seat 0 (A) leads the first trick, then B, then C

# Trump hearts (7H turned).  A leads 9S, B follows KS, C (void in spades) plays QC.
# After the trump card goes back, the stock is, top first: 5H QS 8D 7H 6D 9D.
HAND_A = "5S 6S 7S 8S 9S 10C JD QD KD 6H"
HAND_B = "10S JS KS JC 8H 9H 10H JH QH KH"
HAND_C = "QC 6C 5C 7C 8C 9C KC 5D 7D 10D"
STOCK = "7H 5H QS 8D 6D 9D"
AFTER = "5H QS 8D 7H 6D 9D"


def deal(hands: Sequence[str] = (HAND_A, HAND_B, HAND_C), stock: str = STOCK,
         after: str | None = AFTER) -> dict[str, Any]:
    d: dict[str, Any] = {"hands": [h.split() for h in hands], "stock": stock.split()}
    if after is not None:
        d["stock_after_trump"] = after.split()
    return d


def example_state(options: Mapping[str, Any] | None = None, *, after: str | None = AFTER,
                  stock: str = STOCK, hands: Sequence[str] = (HAND_A, HAND_B, HAND_C),
                  rounds: int = 1, seed: int = 1) -> KaedamaState:
    game = Kaedama({"rounds": rounds, **(options or {})})
    return game.new_state(seed, dealer=2, deals=[deal(hands, stock, after)])


def do(st: KaedamaState, *texts: str) -> None:
    """Apply each action text for the seat to act, checking it was a legal choice."""
    for text in texts:
        seat = st.to_act()[0]
        action = Action.parse(text)
        assert action in st.legal_actions(seat), f"{text} is not legal for seat {seat}"
        st.apply(seat, action)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def names(mask: int) -> set[str]:
    return {card_str(c) for c in iter_bits(mask)}


def test_explicit_deal_gives_each_seat_its_hand_and_the_stock_in_order() -> None:
    st = example_state()
    assert names(st.hands[A]) == set(HAND_A.split())
    assert names(st.hands[C]) == set(HAND_C.split())
    assert [card_str(c) for c in reversed(st.stock)] == AFTER.split()


def test_without_stock_after_trump_the_stock_is_shuffled_by_the_seed() -> None:
    """The same seed gives the same order, other seeds other orders (each the same cards): a
    stock left as dealt would give one order for every seed."""
    one = example_state(after=None)
    two = example_state(after=None)
    assert one.stock == two.stock
    orders = {tuple(example_state(after=None, seed=seed).stock) for seed in range(12)}
    assert len(orders) > 3
    assert all(sorted(o) == sorted(cards(STOCK)) for o in orders)


def test_deals_accept_space_separated_text() -> None:
    game = Kaedama({"rounds": 1})
    st = game.new_state(1, dealer=2, deals=[{"hands": [HAND_A, HAND_B, HAND_C], "stock": STOCK}])
    assert names(st.hands[B]) == set(HAND_B.split())


def test_random_deal_uses_each_of_the_36_cards_once() -> None:
    st = Kaedama().new_state(5)
    allc = [c for h in st.hands for c in iter_bits(h)] + st.stock
    assert sorted(allc) == sorted(DECK_36)
    assert all(h.bit_count() == 10 for h in st.hands)
    assert len(st.stock) == 6


def test_double_deal_uses_each_of_the_40_cards_once() -> None:
    st = Kaedama({"double": True}).new_state(5)
    allc = [c for h in st.hands for c in iter_bits(h)] + st.stock + st.out
    assert sorted(allc) == sorted(DECK_40)


@pytest.mark.parametrize(("bad", "message"), [
    ({"hands": [HAND_A, HAND_B]}, "3 hands of 10"),
    ({"hands": [HAND_A, HAND_B, HAND_C + " AS"]}, "3 hands of 10"),
    ({"stock": "7H 5H QS 8D 6D"}, "stock needs 6"),
    ({"stock": "7H 5H QS 8D 6D AS"}, "each of the 36 cards"),
    ({"stock": "7H 5H QS 8D 6D 6D"}, "each of the 36 cards"),
    ({"stock": "7H 5H QS 8D 6D XX"}, "needs 'hands'"),
    ({"stock_after_trump": "5H QS 8D 7H 6D 10D"}, "stock's 6 cards"),
    ({"extra": 1}, "unknown key"),
])
def test_bad_deals_are_refused_with_a_clear_message(bad: dict[str, Any], message: str) -> None:
    d = deal() | bad
    if isinstance(d["hands"], list) and d["hands"] and isinstance(d["hands"][0], str):
        d["hands"] = [h.split() for h in d["hands"]]
    with pytest.raises(ValueError, match=message):
        Kaedama().new_state(1, deals=[d])


def test_stock_after_trump_must_equal_the_stock_with_trump_card_top() -> None:
    with pytest.raises(ValueError, match="trump_card=top"):
        Kaedama({"trump_card": "top"}).new_state(1, deals=[deal()])
    Kaedama({"trump_card": "top"}).new_state(1, deals=[deal(after=STOCK)])


def test_stock_after_trump_is_refused_with_double() -> None:
    hands = ("4S 5S 6S 7S 8S 9S 10C JD QD", "10S JS KS JC 8H 9H 10H JH QH",
             "QC 6C 5C 7C 8C 9C KC 5D 7D")
    stock = "7H 5H QS 8D 6D 9D KH 10D 4C 4D 4H KD 6H"
    with pytest.raises(ValueError, match="double"):
        Kaedama({"double": True}).new_state(1, deals=[deal(hands, stock, stock)])
    st = Kaedama({"double": True}).new_state(1, deals=[deal(hands, stock, None)])
    assert card_str(st.out[0]) == "7H"
    assert [card_str(c) for c in reversed(st.stock)] == stock.split()[1:]


def test_bad_dealer_and_max_rounds_are_refused() -> None:
    with pytest.raises(ValueError, match="dealer"):
        Kaedama().new_state(1, dealer=3)
    with pytest.raises(ValueError, match="max_rounds"):
        Kaedama().new_state(1, max_rounds=0)
