"""Chosen deals for Good Cop's tests: a few cards named per seat, the rest dealt to seats that
still have room and may hold them (so a test can make a seat void in a suit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from torite import testing
from torite.cards import parse_card
from torite.engine.registry import make_game
from torite.games.good_cop.rules import GoodCop, GoodCopState

GAME = make_game("good-cop")


def deal(turned: tuple[str, str], named: Mapping[int, str], voids: Mapping[int, str] | None = None,
         ) -> dict[str, Any]:
    """An explicit deal: ``turned`` first one first, ``named`` cards in the given seats, the others
    dealt to seats not void in their suit (``voids``: seat -> suit letters, ``J`` for no joker)."""
    return testing.deal(GAME, named, {"turned": " ".join(turned)}, voids=voids)


def start(turned: tuple[str, str], named: Mapping[int, str], voids: Mapping[int, str] | None = None,
          options: Mapping[str, Any] | None = None, dealer: int = 3, seed: int = 1) -> GoodCopState:
    """A game of this one deal (then shuffled ones); seat 3 deals, so seat 0 leads."""
    game = make_game("good-cop", options)
    assert isinstance(game, GoodCop)
    state = game.new_state(seed, dealer=dealer, deals=[deal(turned, named, voids)])
    assert isinstance(state, GoodCopState)
    return state


play = testing.play_cards


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
