"""Chosen deals and short drives of a Mighty game for the tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import card_str, parse_card
from torite.engine.base import Action
from torite.engine.registry import make_game
from torite.games.mighty.rules import MightyState

ALL = [card_str(c) for c in range(53)]


def deal(hands: Mapping[int, str] | None = None, kitty: str | None = None) -> dict[str, Any]:
    """An explicit deal: the hands given (seat -> "AS KS ..."), the kitty if given, and the other
    cards dealt round-robin (so every filled hand gets ranks from the whole pack)."""
    hands = dict(hands or {})
    out: list[list[str]] = [_jk(hands[s]) if s in hands else [] for s in range(5)]
    kit = _jk(kitty) if kitty else []
    used = {c for h in out for c in h} | set(kit)
    assert len(used) == sum(len(h) for h in out) + len(kit), "a card is named twice"
    rest = [c for c in ALL if c not in used]
    # the kitty takes the lowest of the rest, the hands the others round-robin
    while len(kit) < 3:
        kit.append(rest.pop(0))
    s = 0
    for c in rest:
        while len(out[s % 5]) >= 10:
            s += 1
        out[s % 5].append(c)
        s += 1
    assert all(len(h) == 10 for h in out), [len(h) for h in out]
    return {"hands": out, "kitty": kit}


def _jk(text: str) -> list[str]:
    return ["JK1" if c == "JK" else c for c in text.split()]


def start(deals: Sequence[Mapping[str, Any]], options: Mapping[str, Any] | None = None, *, dealer: int = 0,
          seed: int = 1, max_rounds: int | None = None) -> MightyState:
    state = make_game("mighty", dict(options or {})).new_state(seed, dealer=dealer, deals=deals,
                                                              max_rounds=max_rounds)
    assert isinstance(state, MightyState)
    return state


def act(state: MightyState, *texts: str) -> None:
    """Apply each action text for the seat to act."""
    for text in texts:
        state.apply_text(state.to_act()[0], text)


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
    chosen = discards.split() if discards else [card_str(c) for c in sorted(
        (c for c in range(53) if hand >> c & 1), key=lambda c: (c % 13 if c < 52 else 99, c))[:3]]
    act(state, *(f"discard {c}" for c in chosen))
    act(state, f"contract {contract or bid}", friend)
    return state


def legal(state: MightyState, seat: int | None = None) -> list[str]:
    seat = state.to_act()[0] if seat is None else seat
    return [str(a) for a in state.legal_actions(seat)]


def playable(state: MightyState) -> set[str]:
    return {str(a).split()[1] for a in state.legal_actions(state.to_act()[0])}


def mask(text: str) -> int:
    return sum(1 << parse_card("JK1" if c == "JK" else c) for c in text.split())


def play(state: MightyState, *cards: str) -> None:
    for c in cards:
        state.apply(state.to_act()[0], Action("play", 1 << parse_card("JK1" if c == "JK" else c)))
