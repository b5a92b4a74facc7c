"""Every refused choice says why, by a rule of the game: a legal action has no refusal, a card
of the hand that may not be played names the rule that forbids it (never a bare "not now"), and
the refusal an illegal play raises is the one a face shows beside the card."""

from __future__ import annotations

import random

from torite.engine import IllegalAction
from torite.engine.base import Action
from torite.engine.kit import PLAY, TrickState

from .harness import Case, RandomPlay


def test_every_unplayable_card_of_the_hand_names_its_rule(case: Case) -> None:
    game = case.game()
    checked = 0
    for seed in case.seeds(2):
        for state in RandomPlay(game.new_state(seed, max_rounds=1), random.Random(seed)):
            assert isinstance(state, TrickState)
            if state.is_over():
                break
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                for a in legal[:3]:
                    assert state.refusal(seat, a) is None, (state.phase, a)
                if state.phase != PLAY:
                    continue
                offered = {a.card for a in legal}
                for card in (c for c in range(54) if state.hands[seat] >> c & 1 and c not in offered):
                    refusal = state.refusal(seat, Action("play", 1 << card))
                    assert refusal is not None and refusal.rule != "not_now", (state.phase, card, refusal)
                    try:
                        state.clone().apply(seat, Action("play", 1 << card))
                    except IllegalAction as e:
                        assert e.refusal == refusal
                    else:
                        raise AssertionError(f"an unplayable card {card} was accepted")
                    checked += 1
    assert checked, "no card was ever refused"
