"""Chosen deals for Good Cop's tests: a few cards named per seat, the rest dealt to seats that
still have room and may hold them (so a test can make a seat void in a suit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from torite.cards import card_str, parse_card
from torite.engine.registry import make_game
from torite.games.good_cop.rules import GoodCop, GoodCopState

SUITS = "CDHS"


def deal(turned: tuple[str, str], named: Mapping[int, str], voids: Mapping[int, str] | None = None,
         ) -> dict[str, Any]:
    """An explicit deal: ``turned`` first one first, ``named`` cards in the given seats, the others
    dealt to seats not void in their suit (``voids``: seat -> suit letters, ``J`` for no joker)."""
    voids = dict(voids or {})
    hands: list[list[int]] = [[parse_card(c) for c in named.get(s, "").split()] for s in range(4)]
    used = {parse_card(c) for c in turned} | {c for h in hands for c in h}
    assert len(used) == 2 + sum(len(h) for h in hands), "a card named twice"
    def allowed(c: int) -> list[int]:
        suit = SUITS[c // 13] if c < 52 else "J"
        return [s for s in range(4) if suit not in voids.get(s, "")]

    # the most constrained cards first, each to the allowed seat with the most room
    for c in sorted((c for c in range(54) if c not in used), key=lambda c: (len(allowed(c)), c)):
        room = [s for s in allowed(c) if len(hands[s]) < 13]
        assert room, f"no seat may take {card_str(c)}"
        hands[max(room, key=lambda s: (13 - len(hands[s]), -s))].append(c)
    for s, letters in voids.items():
        assert not any(c < 52 and SUITS[c // 13] in letters for c in hands[s]), f"seat {s} is not void"
    return {"turned": list(turned), "hands": [[card_str(c) for c in h] for h in hands]}


def start(turned: tuple[str, str], named: Mapping[int, str], voids: Mapping[int, str] | None = None,
          options: Mapping[str, Any] | None = None, dealer: int = 3, seed: int = 1) -> GoodCopState:
    """A game of this one deal (then shuffled ones); seat 3 deals, so seat 0 leads."""
    game = make_game("good-cop", options)
    assert isinstance(game, GoodCop)
    state = game.new_state(seed, dealer=dealer, deals=[deal(turned, named, voids)])
    assert isinstance(state, GoodCopState)
    return state


def play(state: GoodCopState, *cards: str) -> None:
    """Each card by the seat to play."""
    for text in cards:
        state.apply_text(state.to_act()[0], f"play {text}")


def legal(state: GoodCopState) -> set[str]:
    seat = state.to_act()[0]
    return {str(a).split()[1] for a in state.legal_actions(seat)}


def finish_deal(state: GoodCopState) -> None:
    """Play the deal out, each seat its first legal card."""
    round0 = state.rounds_played
    while not state.is_over() and state.rounds_played == round0:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def holder(state: GoodCopState, card: str) -> int:
    c = parse_card(card)
    return next((s for s, h in enumerate(state.hands) if h >> c & 1), -1)
