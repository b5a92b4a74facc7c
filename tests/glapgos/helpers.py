"""Chosen deals and moves for the Galapagos tests.

With ``dealer=1`` seat 0 is the non-dealer: it leads the tricks and the play-off (ruling G5).
If each seat bids the cards it was dealt, in order, its bid pile (its play-off hand) is exactly
its dealt hand, and the tricks are played with the 26 stock cards as the takes shared them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import card_str, iter_bits, parse_card
from torite.engine.base import Action
from torite.games.glapgos.rules import Glapgos, GlapgosState

NON_DEALER, DEALER = 0, 1

# the dealt hands: what each seat bids in turn, in this order (so also its play-off hand)
HAND_0 = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC"
HAND_1 = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD"
# the stock, top first: the faced card of each turn, then its unseen card
STOCK = ("2H 2S 3H 3S 4H 4S 5H 5S 6H 6S 7H 7S 8H 8S 9H 9S 10H 10S JH JS QH QS KH KS AH AS")


def deal(hands: Sequence[str] = (HAND_0, HAND_1), stock: str = STOCK) -> dict[str, Any]:
    return {"hands": [h.split() for h in hands], "stock": stock.split()}


def new_state(options: Mapping[str, Any] | None = None, *, hands: Sequence[str] = (HAND_0, HAND_1),
              stock: str = STOCK, seed: int = 1, max_rounds: int | None = 1) -> GlapgosState:
    game = Glapgos(dict(options or {}))
    st = game.new_state(seed, dealer=DEALER, max_rounds=max_rounds, deals=[deal(hands, stock)])
    assert isinstance(st, GlapgosState)
    return st


def do(st: GlapgosState, seat: int, *texts: str) -> None:
    """Apply each action text for ``seat``, checking it was a legal choice."""
    for text in texts:
        action = Action.parse(text)
        assert action in st.legal_actions(seat), f"{text} is not legal for seat {seat}: {st.legal_actions(seat)[:8]}"
        st.apply(seat, action)


def auction_turn(st: GlapgosState, bid0: str, bid1: str, take: str = "faced") -> None:
    """One auction turn: both bid, the winner takes."""
    do(st, 0, f"bid {bid0}")
    do(st, 1, f"bid {bid1}")
    do(st, st.turn, f"take {take}")


def whole_auction(st: GlapgosState, takes: Sequence[str] | None = None) -> None:
    """Both seats bid their dealt cards in order; the winner takes as ``takes`` says (faced)."""
    b0 = [card_str(c) for c in sorted(iter_bits(st.hands[0]))]
    b1 = [card_str(c) for c in sorted(iter_bits(st.hands[1]))]
    for i in range(13):
        auction_turn(st, b0[i], b1[i], takes[i] if takes else "faced")


def rest_of_deck(*texts: str) -> str:
    """The cards the texts do not name, in deck order (a stock for chosen hands)."""
    used = {x for t in texts for x in t.split()}
    return " ".join(card_str(c) for c in range(52) if card_str(c) not in used)


def mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


def names(m: int) -> set[str]:
    return {card_str(c) for c in iter_bits(m)}
