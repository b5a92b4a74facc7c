"""Chosen deals for the Seconds tests: hands built around the cards a test needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import card_str, parse_card
from torite.games.seconds.rules import Seconds, SecondsState

N, E, S, W = 0, 1, 2, 3  # with the first dealer seat 0, the seats' compass names
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def suit(letter: str) -> list[str]:
    """The 13 cards of a suit, low to high."""
    return [r + letter for r in RANKS]


def hands_with(required: Mapping[int, Sequence[str]], voids: Mapping[int, str] | None = None) -> list[list[str]]:
    """Four hands of 13: each seat gets its ``required`` cards, no seat a card of a suit in its
    ``voids`` (suit letters); the other cards go, most constrained suit first, to the allowed
    seat with the most room."""
    voids = voids or {}
    hands: list[list[int]] = [[parse_card(c) for c in required.get(s, ())] for s in range(4)]
    taken = {c for h in hands for c in h}
    rest = [c for c in range(52) if c not in taken]
    allowed = {c: [s for s in range(4) if "CDHS"[c // 13] not in voids.get(s, "")] for c in rest}
    for c in sorted(rest, key=lambda c: (len(allowed[c]), c)):
        seat = max(allowed[c], key=lambda s: (13 - len(hands[s]), -s))
        assert len(hands[seat]) < 13, "the voids leave no room for every card"
        hands[seat].append(c)
    assert all(len(h) == 13 for h in hands)
    return [[card_str(c) for c in h] for h in hands]


def state(hands: Sequence[Sequence[str]], *, kind: int = 1, options: Mapping[str, Any] | None = None,
          seed: int = 1) -> SecondsState:
    """A game whose first deal is deal ``kind`` of the schedule, North (the first dealer) seat 0,
    dealt the given hands."""
    st = Seconds(options or {}).new_state(seed, dealer=(kind - 1) % 4, first_round=kind - 1,
                                          deals=[{"hands": [list(h) for h in hands]}])
    assert isinstance(st, SecondsState)
    assert st.north == N and st.deal_kind == kind
    return st


def play(st: SecondsState, *cards: str) -> None:
    """Each card by the seat to act."""
    for c in cards:
        st.apply_text(st.to_act()[0], f"play {c}")


def play_out(st: SecondsState) -> None:
    """Finish the current deal, each seat playing its lowest legal card."""
    rounds = st.rounds_played
    while not st.is_over() and st.rounds_played == rounds:
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
