"""The hot loop of the batched environment (:mod:`torite.adapters.vector`): a step of every
game of a batch, and a game's row of the observations and masks.

Its own module, with no Gymnasium in it, so the compiled build compiles it (``torite.build``'s
``COMPILED``) with the tracker it drives: a batch's step is this loop over its games, and
interpreted, the loop's own bookkeeping cost as much as a game's tracker.  Everything here is
what ``ToriteGymEnv.step`` does for one game (the agent's action, the bots until the agent
decides again, the reward of the rounds scored meanwhile), written for many.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from torite.adapters.tracker import Tracker
from torite.engine import driver
from torite.engine.base import Action, Game
from torite.engine.bot import Bot
from torite.engine.kit import OVER, TrickState


class Slot:
    """One game of a batch: its state, bots, tracker, the seat it plays, the rounds paid so far
    and the legal actions its mask row shows (``np_random``: its generator, the environment's)."""

    def __init__(self) -> None:
        self.state: TrickState[Any] | None = None
        self.bots: dict[int, Bot] = {}
        self.tracker: Tracker | None = None
        self.seat = 0
        self.rounds = 0
        self.legal: Sequence[Action] = ()
        self.np_random: Any = None


def observe(slot: Slot, mask: Any, at: int, id_of: dict[Action, int]) -> None:
    """The slot's observation row (its tracker writes it) and mask row (``mask``: the batch's
    masks as one flat memoryview, the row starting at ``at``), as the game is now."""
    state = slot.state
    tracker = slot.tracker
    assert state is not None and tracker is not None
    tracker.update(state)
    for a in slot.legal:  # the ids set last time (the last episode's, after a reset)
        mask[at + id_of[a]] = 0
    if state.phase == OVER or slot.seat not in state.to_act():
        slot.legal = ()
        return
    legal = state.legal_actions(slot.seat)
    slot.legal = legal
    for a in legal:
        mask[at + id_of[a]] = 1


def step(slots: Sequence[Slot], ids: Sequence[int], skip: Sequence[bool], game: Game, mask: Any, top: int,
         action_of: Sequence[Action], id_of: dict[Action, int], illegal_reward: float,
         rewards: list[float], ended: list[int], illegal: list[int]) -> None:
    """Every slot not in ``skip`` takes its action id (one the mask allows: else nothing changes,
    its reward is ``illegal_reward`` and it goes in ``illegal``), its bots play until it decides
    again, and its rows are written; ``rewards[i]`` gets what it was paid, ``ended`` the slots
    whose episode ended."""
    for i in range(len(slots)):
        if skip[i]:
            continue
        index = ids[i]
        at = i * top
        if not mask[at + index]:
            rewards[i] = illegal_reward
            illegal.append(i)
            continue
        slot = slots[i]
        state = slot.state
        assert state is not None
        state.apply(slot.seat, action_of[index])
        driver.run(state, slot.bots)
        played = len(state.round_scores)
        if played != slot.rounds:
            rewards[i] = game.returns(state.result(), since=slot.rounds)[slot.seat]
            slot.rounds = played
        if state.phase == OVER:
            ended.append(i)
        observe(slot, mask, at, id_of)
