"""The kit's hot-path shortcuts keep the protocol's promises: a play is checked against the
cards the seat may play now, and events come out complete and in order."""

from __future__ import annotations

import random

import pytest

from torite.engine.base import Action, Event, IllegalAction
from torite.engine.kit import TrickState
from torite.engine.registry import make_game
from torite.engine.trick import PLAY_ACTIONS


def _following_position(seed: int = 3) -> tuple[TrickState, int, list[Action]]:
    """A Hearts state in the play phase with a card led, the seat to act holding the led suit."""
    game = make_game("hearts", {})
    rng = random.Random(seed)
    state = game.new_state(seed, dealer=0, max_rounds=1)
    assert isinstance(state, TrickState)
    while True:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if state.phase == "play" and state.trick and len(legal) < state.hands[seat].bit_count():
            return state, seat, legal
        state.apply(seat, legal[rng.randrange(len(legal))])


def test_a_play_outside_the_offer_is_refused_and_changes_nothing() -> None:
    state, seat, legal = _following_position()
    offered = {a.card for a in legal}
    off_suit = next(c for c in range(52) if state.hands[seat] >> c & 1 and c not in offered)
    before = (list(state.hands), list(state.trick), len(state.events))
    with pytest.raises(IllegalAction, match="must follow"):
        state.apply(seat, PLAY_ACTIONS[off_suit])
    assert (list(state.hands), list(state.trick), len(state.events)) == before


def test_a_clone_changed_after_the_offer_checks_its_plays_afresh() -> None:
    """legal_actions remembers what it offered so apply need not work it out again; a clone
    that is changed before it is asked (a test's position, a sampled world) is checked anew."""
    state, seat, legal = _following_position()
    card = legal[0].card
    clone = state.clone()
    clone.hands[seat] &= ~(1 << card)  # the offered card is no longer in the clone's hand
    with pytest.raises(IllegalAction):
        clone.apply(seat, PLAY_ACTIONS[card])
    state.apply(seat, legal[0])  # the original still plays it


def test_events_come_out_in_order_when_a_game_appends_its_own_between_the_kits() -> None:
    """The kit keeps its own events as plain tuples until ``events`` is read; an event a game
    appends (or emits) lands after every event before it, and each read sees all of them."""
    state, seat, legal = _following_position()
    n = len(state.events)
    state.apply(seat, legal[0])  # the kit's play event, not yet wrapped
    state.events.append(Event("note", -1, {"n": 1}))
    state.emit("note", -1, {"n": 2})
    kinds = [(e.kind, e.data.get("n")) for e in state.events[n:]]
    assert kinds == [("play", None), ("note", 1), ("note", 2)]
    assert all(isinstance(e, Event) for e in state.events)
