"""A game record, stepped through: every state of the game, and what each viewer saw at each.

Why one model for every face: the web viewer and the terminal viewer must show the same step
the same way, and a seat's view of a past moment must be exactly what that seat was shown then
(its observation, the events it could see), no more.  :class:`Replay` checks the whole record
first (a tampered record is refused naming the action and the reason, as ``torite replay``
does), then keeps a state every :data:`CHECKPOINT` steps only (a state a step made a 42,000-action
game cost gigabytes): any other step is the checkpoint before it played forward, and the last
step asked is kept, so stepping one at a time plays one action a step:

- step ``k`` is the game after the record's first ``k`` actions (``0``: the deal; ``len``: the
  end);
- :meth:`observation` is a seat's observation at a step (``None``: a spectator's);
- :attr:`OPEN` views every hand at once, which only a finished game allows (a record of a game
  in progress is shown as a spectator would see it, to everyone);
- :meth:`tricks` and :meth:`rounds` are the steps where each trick and round ends, for jumping;
- :meth:`suggest` is what a bot level would play at a seat's decision, from that seat's
  observation at that step only.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from torite.bots import make_bot
from torite.engine.base import Action, Event, Game, State
from torite.record import Record, RecordError, check_action

#: the viewer who sees every hand (only in a finished game)
OPEN: Final = "open"
#: a state is kept every this many steps (and the last step looked at): memory grows with the
#: record's length over this, a step costs at most this many actions played again
CHECKPOINT: Final = 50

Viewer = int | str | None


@dataclass
class Replay:
    """Every step of a recorded game (see the module docstring)."""

    record: Record
    game: Game = field(init=False)
    #: the state after every ``CHECKPOINT``-th step (``checkpoints[k]``: after ``k * CHECKPOINT``)
    checkpoints: list[State] = field(init=False, repr=False)
    #: the state after the last action (its events are every event of the record)
    final: State = field(init=False, repr=False)
    #: for each step, how many events had happened by then
    event_counts: list[int] = field(init=False, repr=False)
    #: the last step looked at and its state (read only): the next one is one action away
    _near: tuple[int, State] = field(init=False, repr=False)
    #: the steps where each kind of landmark ends, found once (every step's message names them)
    _landmarks: dict[str, list[int]] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        game, state = self.record.new_game()
        self.game = game
        self.checkpoints = [state.clone()]
        self.event_counts = [len(state.events)]
        for i, (seat, text) in enumerate(self.record.actions):
            check_action(state, i, seat, text)
            if (i + 1) % CHECKPOINT == 0:
                self.checkpoints.append(state.clone())
            self.event_counts.append(len(state.events))
        self.final = state
        self._near = (self.steps, state)
        if self.record.result is not None and state.is_over() and state.result().to_json() != self.record.result:
            raise RecordError(f"the recorded result {self.record.result} differs from the replayed one "
                              f"{state.result().to_json()}")

    # ------------------------------------------------------------------ steps
    @property
    def steps(self) -> int:
        """The number of actions: steps go from 0 to this."""
        return len(self.record.actions)

    @property
    def finished(self) -> bool:
        return self.final.is_over()

    def state(self, step: int) -> State:
        """The game after ``step`` actions (a copy the caller may change)."""
        return self._at(self._check(step)).clone()

    def kept(self) -> int:
        """How many states this replay holds (its checkpoints, the last step and the last one
        looked at): what its memory grows with."""
        return len(self.checkpoints) + 2

    def weight(self) -> int:
        """About how many bytes this replay holds, for a cache bounded by bytes: each kept state
        copies the events so far (a reference each) and its own few lists; the events themselves
        are the final state's.  Measured with tracemalloc on long records of every game, it errs
        on the high side (a 3,400-action Kaedama: 4.2 MiB held, 5.9 MiB said)."""
        copied = sum(self.event_counts[k * CHECKPOINT] for k in range(len(self.checkpoints)))
        return 16 * copied + 420 * len(self.final.events) + 6144 * self.kept() + 100 * self.steps

    def _at(self, step: int) -> State:
        """The state after ``step`` actions, not to be changed: the last step looked at, or the
        final one, or the checkpoint before it played forward (the record was checked: its
        actions apply)."""
        near, state = self._near
        if step == near:
            return state
        if step == self.steps:
            return self.final
        base = step // CHECKPOINT * CHECKPOINT
        if base <= near < step:
            start, state = near, state.clone()
        elif step == base:
            return self.checkpoints[step // CHECKPOINT]
        else:
            start, state = base, self.checkpoints[step // CHECKPOINT].clone()
        for seat, text in self.record.actions[start:step]:
            state.apply_text(seat, text)
        self._near = (step, state)
        return state

    def action(self, step: int) -> tuple[int, str] | None:
        """The action that leads from ``step`` to the next (None at the end)."""
        return self.record.actions[step] if 0 <= step < self.steps else None

    def _check(self, step: int) -> int:
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= self.steps:
            raise ValueError(f"step {step!r} is outside 0..{self.steps}")
        return step

    # ------------------------------------------------------------------ views
    def viewers(self) -> list[Viewer]:
        """Who may be chosen: every hand open (a finished game), each seat, a spectator."""
        seats: list[Viewer] = list(range(self.game.num_players))
        return [OPEN, *seats, None] if self.finished else [None]

    def allowed(self, viewer: Viewer) -> Viewer:
        """The viewer actually shown: a game in progress is shown to everyone as a spectator
        sees it (its record must not tell anyone's hand)."""
        if not self.finished:
            return None
        if viewer == OPEN or viewer is None or (isinstance(viewer, int) and 0 <= viewer < self.game.num_players):
            return viewer
        raise ValueError(f"no viewer {viewer!r} (open, a seat 0..{self.game.num_players - 1}, or a spectator)")

    def observation(self, step: int, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` was shown after ``step`` actions.  ``OPEN``: the spectator's view with
        every hand laid open (``hands``), for a finished game."""
        viewer = self.allowed(viewer)
        st = self._at(self._check(step))
        if viewer == OPEN:
            obs = st.observation(None)
            obs["hands"] = [st.observation(s)["hand"] for s in range(self.game.num_players)]
            obs |= st.open_piles()  # the piles too: the kitty, the discards
            return obs
        assert viewer is None or isinstance(viewer, int)
        return st.observation(viewer)

    def events(self, step: int, viewer: Viewer) -> list[tuple[int, Event]]:
        """The events ``viewer`` could see by ``step``, with their indexes (every event when
        open)."""
        viewer = self.allowed(viewer)
        out = []
        for i, e in enumerate(self.final.events[:self.event_counts[self._check(step)]]):
            if viewer == OPEN or e.visible_to(viewer if isinstance(viewer, int) else None):
                out.append((i, e))
        return out

    # ------------------------------------------------------------------ landmarks
    def tricks(self) -> list[int]:
        """The steps at which a trick ends (its last card played), in order."""
        return self._ends("trick")

    def rounds(self) -> list[int]:
        """The steps at which a round ends, in order."""
        return self._ends("round_end")

    def _ends(self, kind: str) -> list[int]:
        kept = self._landmarks.get(kind)
        if kept is None:
            final, counts = self.final.events, self.event_counts
            kept = sorted({bisect.bisect_left(counts, i + 1) for i, e in enumerate(final) if e.kind == kind} - {0})
            self._landmarks[kind] = kept
        return list(kept)

    # ------------------------------------------------------------------ a bot's view
    def decision(self, step: int, seat: int) -> tuple[dict[str, Any], list[Action]] | None:
        """What ``seat`` had to decide with at ``step``: its observation and legal actions (None
        when it had no decision then).  Only a finished game's seats may be asked (a game in
        progress shows nobody's hand)."""
        if self.allowed(seat) != seat:
            raise ValueError("a seat's decisions are shown once the game is over")
        st = self._at(self._check(step))
        if st.is_over() or seat not in st.to_act():
            return None
        return st.observation(seat), list(st.legal_actions(seat))

    def suggest(self, step: int, seat: int, level: str = "hard", seed: int = 0) -> Action | None:
        """What a bot of ``level`` would play at ``seat``'s decision at ``step``, from that
        seat's observation only (None when the seat has no decision then)."""
        got = self.decision(step, seat)
        if got is None:
            return None
        bot = make_bot(level, self.game, seat, seed)
        return bot.act(*got)


def load(data: Mapping[str, Any] | Record) -> Replay:
    """A replay of a record (its JSON, or a :class:`Record`); :class:`RecordError` naming the
    first action that breaks a rule."""
    record = data if isinstance(data, Record) else Record.from_json(data)
    return Replay(record)


__all__ = ["CHECKPOINT", "OPEN", "Replay", "load"]
