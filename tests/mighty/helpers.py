"""Chosen deals and short drives of a Mighty game for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite import testing
from torite.cards import parse_card
from torite.engine.registry import make_game
from torite.games.mighty.rules import MightyState

GAME = make_game("mighty")


def deal(hands: Mapping[int, str] | None = None, kitty: str | None = None) -> dict[str, Any]:
    """An explicit deal: the hands given (seat -> "AS KS ..."), the kitty if given (else the three
    lowest cards left), the other cards to the hands with most room."""
    return testing.deal(GAME, hands or {}, {"kitty": kitty or ""})


def start(deals: Sequence[Mapping[str, Any]], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
          seed: int = 1, max_rounds: int | None = None) -> MightyState:
    state = make_game("mighty", dict(options or {})).new_state(seed, dealer=dealer, deals=deals,
                                                              max_rounds=max_rounds)
    assert isinstance(state, MightyState)
    return state


act = testing.act


def elect(state: MightyState, president: int, bid: str) -> None:
    """Everyone passes but ``president``, who bids ``bid`` at its first turn."""
    while state.phase == "bid":
        seat = state.to_act()[0]
        state.apply_text(seat, f"bid {bid}" if seat == president and state.high_bid is None else "pass")


def setup(hands: Mapping[int, str], *, president: int = 0, bid: str = "13 H", kitty: str | None = None,
          discards: str | None = None, contract: str | None = None, friend: str = "friend none",
          options: Mapping[str, Any] | None = None, dealer: int = 0, max_rounds: int | None = 1) -> MightyState:
    """A deal played up to the first lead: the election, three discards (the given ones, else the
    three lowest cards), the contract (kept if not given) and the friend."""
    state = start([deal(hands, kitty)], options, dealer=dealer, max_rounds=max_rounds)
    elect(state, president, bid)
    hand = state.hands[president]
    chosen = discards.split() if discards else [GAME.card_text(c) for c in sorted(
        (c for c in range(53) if hand >> c & 1), key=lambda c: (c % 13 if c < 52 else 99, c))[:3]]
    act(state, *(f"discard {c}" for c in chosen))
    act(state, f"contract {contract or bid}", friend)
    return state


legal = testing.legal_texts


def playable(state: MightyState) -> set[str]:
    return {state.game.action_text(a).split()[1] for a in state.legal_actions(state.to_act()[0])}


def mask(text: str) -> int:
    return sum(1 << parse_card(c) for c in text.split())


play = testing.play_cards
