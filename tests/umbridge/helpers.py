"""Chosen deals and scripted auctions for Umbridge's tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from torite import testing
from torite.cards import card_str
from torite.engine.base import Action
from torite.engine.registry import make_game
from torite.games.umbridge.rules import UmbridgeState

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit(letter: str) -> list[str]:
    """The 13 cards of a suit, 2 first."""
    return [r + letter for r in RANKS]


def suits_deal(seat0: str, seat1: str, dummy: str, bridge: str, **extra: Any) -> dict[str, Any]:
    """A deal in which each hand and pile is one whole suit: seat 0's, seat 1's, the dummy's and
    the bridge's (listed 2 first, so the bridge's top is its 2)."""
    return {"hands": [suit(seat0), suit(seat1)], "dummy": suit(dummy), "bridge": suit(bridge), **extra}


def mixed_deal() -> dict[str, Any]:
    """Every hand holds some of every suit: seat 0 the cards of rank index 0-12 step 4 from 0, …"""
    cards = list(range(52))
    hands = [[card_str(c) for c in cards if c % 4 == k] for k in range(4)]
    return {"hands": [hands[0], hands[1]], "dummy": hands[2], "bridge": hands[3]}


def start(deals: Sequence[Mapping[str, Any]], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
          max_rounds: int | None = None) -> UmbridgeState:
    state = make_game("umbridge", dict(options or {})).new_state(7, dealer=dealer, deals=deals,
                                                                 max_rounds=max_rounds)
    assert isinstance(state, UmbridgeState)
    return state


def act(state: UmbridgeState, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        state.apply(seat, Action.parse(text))


def keep_both(state: UmbridgeState) -> None:
    act(state, (0, "keep"), (1, "keep"))


legal = testing.legal_texts


def quick_contract(state: UmbridgeState, declarer: int, bid: str, *, doubled: int = 0) -> None:
    """Both keep; ``declarer`` names ``bid`` (the dealer passing first if it is not the declarer),
    the opponent passes, nobody draws: the auction ends with that contract (U6)."""
    keep_both(state)
    dealer = state.dealer
    if declarer != dealer:
        act(state, (dealer, "pass"))
    act(state, (declarer, f"bid {bid}"))
    if doubled:
        act(state, (1 - declarer, "double"))
        if doubled == 2:
            act(state, (declarer, "redouble"))
            act(state, (1 - declarer, "pass"))
        else:
            act(state, (declarer, "pass"))
    else:
        act(state, (1 - declarer, "pass"))
    act(state, (declarer, "done"), (1 - declarer, "done"))
    assert state.phase == "play", state.phase


def play_out(state: UmbridgeState, rounds: int = 1) -> None:
    """Play the tricks of the current deal with the first legal card each time."""
    start_rounds = len(state.round_scores)
    while not state.is_over() and len(state.round_scores) < start_rounds + rounds:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def cards_of(texts: Iterable[str]) -> set[str]:
    return set(texts)
