"""Chosen Hearts deals for the tests, and helpers to play them."""

from __future__ import annotations

from typing import Any

from torite.cards import card_str
from torite.engine.base import Action
from torite.games.hearts.rules import Hearts, HeartsState


def suit(letter: str, ranks: str) -> list[str]:
    """``suit("C", "2-8")`` or ``suit("H", "2 5 K")``: cards of one suit."""
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    if "-" in ranks:
        lo, hi = ranks.split("-")
        picked = order[order.index(lo):order.index(hi) + 1]
    else:
        picked = ranks.split()
    return [r + letter for r in picked]


#: seat 0 every club, seat 1 every diamond, seat 2 every heart, seat 3 every spade: seat 0 takes
#: every trick, so every point: the moon
ALL_ONE_SUIT = [suit("C", "2-A"), suit("D", "2-A"), suit("H", "2-A"), suit("S", "2-A")]
#: seat 1 takes the first trick with AC and leads the second holding clubs and hearts
CLUBS_AND_HEARTS = [suit("C", "2-8") + suit("D", "2-7"), suit("C", "9-A") + suit("H", "2-8"),
                    suit("D", "8-A") + suit("S", "2-7"), suit("H", "9-A") + suit("S", "8-A")]
#: seat 1 takes the first trick with its only club (3C) and then holds hearts only
ONLY_HEARTS = [["2C", *suit("C", "4-A"), "AH"], ["3C", *suit("H", "2-K")], suit("D", "2-A"), suit("S", "2-A")]
#: seat 3 holds only Q♠ and hearts, seat 2 safe spades and AH
QUEEN_AND_HEARTS = [suit("C", "2-A"), suit("D", "2-A"), [*suit("S", "2-J"), "KS", "AS", "AH"],
                    ["QS", *suit("H", "2-K")]]

#: seat 1 takes the first trick with AC and leads the second holding Q♠ and no heart
QUEEN_LEADER = [suit("C", "2-7") + suit("D", "2-8"), [*suit("C", "8-A"), *suit("S", "2-6"), "QS"],
                suit("D", "9-A") + suit("H", "2-8"), [*suit("H", "9-A"), *suit("S", "7-J"), "KS", "AS"]]


def new(hands: list[list[str]], direction: str = "none", options: dict[str, Any] | None = None,
        seed: int = 0) -> HeartsState:
    return Hearts(options or {}).new_state(seed, deals=[{"pass_direction": direction, "hands": hands}])


def legal(st: HeartsState, seat: int) -> list[str]:
    return sorted((card_str(a.card) for a in st.legal_actions(seat)), key=_order)


def cards(texts: list[str]) -> list[str]:
    return sorted(texts, key=_order)


def _order(text: str) -> tuple[str, int]:
    rank = text[:-1]
    return text[-1], ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"].index(rank)


def play(st: HeartsState, *texts: str) -> None:
    """Play cards in turn order."""
    for t in texts:
        st.apply(st.to_act()[0], Action.parse(f"play {t}"))


def pass_cards(st: HeartsState, seat: int, *texts: str) -> None:
    for t in texts:
        st.apply(seat, Action.parse(f"pass {t}"))
