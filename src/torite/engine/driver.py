"""The one loop that lets bots play a state: the simulator, the arena, the web tables and the
terminal all drive games through it, so they cannot disagree on whose turn it is.

Simultaneous phases.  A phase may have several seats in ``to_act()`` at once (Trick of the
Dead's burial: every seat buries at the same time).  The driver still takes *one decision at a
time*, always for the first seat of ``to_act()`` it controls, and applies it before asking the
next seat.  So the seats of a simultaneous phase decide in ``to_act()`` order, each on its own
observation *at that moment*, i.e. after the decisions of the earlier seats of the same phase
were applied.  Whether anything of those earlier decisions shows in a later seat's observation
is the game's business: a game whose simultaneous decisions must stay secret from each other
hides them in ``observation``, and the driver never passes a bot anything but the observation
and the legal actions.

Why this order and not "collect every decision, then apply": it needs no buffering of
decisions, it works unchanged when only some seats of the phase are bots (the driver stops at
the first seat it does not control and a person decides there), and recorded games replay as a
plain sequence of ``(seat, action)`` pairs.  For the games so far it is also the order the
separate loops used before there was one driver, so seeds reproduce the same games.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from torite.engine.base import Action, State
from torite.engine.bot import Bot

_EMPTY: Final[Mapping[str, Any]] = {}


def next_seat(state: State, controlled: Callable[[int], bool]) -> int | None:
    """The first seat of state.to_act() for which controlled(seat) is true; None when the game
    is over or no such seat is to act."""
    if state.is_over():
        return None
    for seat in state.to_act():
        if controlled(seat):
            return seat
    return None


def _timed_decide(state: State, seat: int, bot: Bot, timed: bool) -> tuple[Action, float]:
    obs = state.observation(seat) if bot.uses_observation else _EMPTY
    legal = state.legal_actions(seat)
    if not legal:
        # A rules bug, not a bot's: a seat to act must have a choice.  Say so plainly rather
        # than let the bot fail on an empty list in its own way.
        raise ValueError(f"seat {seat} is to act but has no legal action")
    if not timed:
        return bot.act(obs, legal), 0.0
    t0 = time.perf_counter()
    action = bot.act(obs, legal)
    return action, time.perf_counter() - t0


def decide(state: State, seat: int, bot: Bot) -> Action:
    """The bot's decision for seat: it gets state.observation(seat) (or {} when
    bot.uses_observation is False) and state.legal_actions(seat), never the state."""
    return _timed_decide(state, seat, bot, False)[0]


def run(state: State, bots: Mapping[int, Bot], *, on_action: Callable[[int, Action, float], None] | None = None,
        timed: bool = False) -> int:
    """Let the bots in `bots` (seat -> Bot) act, one decision at a time, while a seat they control is
    to act; returns the number of actions applied. Stops when the game is over or only seats
    without a bot are to act. on_action(seat, action, seconds) is called after each apply
    (seconds: wall time of the bot's act when timed, else 0.0)."""
    controlled = bots.__contains__
    applied = 0
    while (seat := next_seat(state, controlled)) is not None:
        action, seconds = _timed_decide(state, seat, bots[seat], timed)
        state.apply(seat, action)
        applied += 1
        if on_action is not None:
            on_action(seat, action, seconds)
    return applied
