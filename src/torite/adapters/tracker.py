"""One seat's observation vector kept up to date as the game goes on (see :class:`Tracker`).

Its own part because it is the hot path of every environment step, written against the
state's attributes rather than the observation, and needs only the layout
(:class:`~torite.adapters.obsspec.ObsSpec`) it keeps equal to.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from torite.adapters.obsspec import NSUITS, ObsSpec, Vector
from torite.engine.kit import OVER, TrickState, views


def _kept(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``values`` with each list copied: a state changes its lists in place."""
    return tuple(x[:] if type(x) is list else x for x in values)


def _items(v: Vector) -> Any:
    """The vector's items as a memoryview (of format ``f``): writing an item through it costs a
    fraction of numpy's ``v[i] = x``.  (Typed Any: typeshed knows only memoryviews of ints.)"""
    return memoryview(v)  # type: ignore[arg-type]


#: everything a tracker holds but its memoryview (what pickling and copying carry)
_STATE: tuple[str, ...] = (
    "spec", "seat", "me", "v", "_at", "_phase", "_phase_i", "_to_act", "_turn", "_dealer", "_leader", "_led",
    "_round", "_hand", "_sizes", "_scores", "_points", "_won", "_voids", "_trick_cards", "_trick_key",
    "_trick_ones", "_read_round", "_read", "_raw", "_shown", "_written")


class Tracker:
    """One seat's observation vector (``None``: a spectator's), kept up to date as the game goes
    on rather than encoded whole at every step.

    Why: a framework asks for an observation at every step, and encoding the whole observation
    (building it as JSON, then reading every trick of the round back) costs several times the
    step.  The tracker remembers what its vector holds and, at each :meth:`update`, writes only
    what changed since: each finished trick's record (the trick event's data, kept in the
    round's history) is read once, and a new round empties those segments; the current trick is
    rewritten when it changed; the hand by the cards that came and went; the per-seat numbers,
    the voids and the one-hot segments when they moved; each declared pile, field and role when
    the state values behind it changed, then read as the observation reads it
    (:mod:`torite.engine.kit.views`); the game's views (``observe_extra``) at every update.
    Everything written is what ``state.observation(seat)`` shows, and the vector equals
    :meth:`ObsSpec.encode` of that observation at every step (a test plays random games of every
    game and compares them)."""

    def __init__(self, spec: ObsSpec, seat: int | None, out: Vector | None = None) -> None:
        """``out``: the array to keep the vector in (a row of a batch's observations: a batched
        environment's trackers write straight into it), emptied here; else a new one."""
        self.spec = spec
        self.seat = seat
        n = spec.n
        me = self.me = seat if seat is not None and 0 <= seat < n else -1
        if out is None:
            self.v = np.zeros(spec.size, np.float32)
        else:
            if out.shape != (spec.size,) or out.dtype != np.float32 or not out.flags.c_contiguous:
                raise ValueError(f"a tracker keeps its vector in a contiguous float32 array of {spec.size}")
            out[:] = 0.0
            self.v = out
        self.mv = _items(self.v)  # the tracker writes a few dozen items an update
        if me >= 0:
            self.mv[spec.offset["seat"] + me] = 1.0
        o = spec.offset
        self._at = (o["phase"], o["to_act"], o["turn"], o["dealer"], o["leader"], o["led"], o["round"], o["hand"])
        self._phase: Any = None
        self._phase_i = -1
        self._to_act: tuple[int, ...] = ()
        self._turn = self._dealer = self._leader = self._led = -1
        self._round: Any = None
        self._hand = 0
        self._sizes: list[int] = []
        self._scores: list[int] = []
        self._points: list[int] = []
        self._won: list[int] = []
        self._voids: list[int] = [0] * n
        self._trick_cards: list[int] = []
        self._trick_key: Any = None
        self._trick_ones: list[int] = []
        self._read_round, self._read = -1, -1  # the round of the finished tricks read, and how many
        self._raw: tuple[Any, ...] | None = None
        self._shown: dict[str, Any] = {}  # the views' last values
        self._written: set[str] = set()  # the extra segments written so far

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the memoryview (made again from the vector).  Written by name, not
        from ``__dict__``: compiled, a tracker is a native object without one."""
        return {name: getattr(self, name) for name in _STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _STATE:
            setattr(self, name, state[name])
        self.mv = _items(self.v)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle and ``copy`` rebuild it from its layout and seat, then its state."""
        return (Tracker, (self.spec, self.seat), self.__getstate__())

    def copy(self) -> Tracker:
        """A tracker of a cloned state: the same vector and memory, independent from here on."""
        state = self.__getstate__()
        state["v"] = self.v.copy()
        state["_shown"] = dict(self._shown)
        state["_written"] = set(self._written)
        new = Tracker(self.spec, self.seat, None)
        new.__setstate__(state)
        return new

    def update(self, state: TrickState[Any]) -> Vector:
        """The seat's vector now (the tracker's own array: copy it to keep it)."""
        spec, v = self.spec, self.mv
        n = spec.n
        at_phase, at_to_act, at_turn, at_dealer, at_leader, at_led, at_round, at_hand = self._at
        phase = state.phase
        if phase != self._phase:
            i = spec.phase_index.get(phase, len(spec.phases))
            if self._phase_i >= 0:
                v[at_phase + self._phase_i] = 0.0
            v[at_phase + i] = 1.0
            self._phase, self._phase_i = phase, i
        to_act = state.to_act()
        if to_act != self._to_act:
            for s in self._to_act:
                v[at_to_act + s] = 0.0
            self._to_act = tuple(s for s in to_act if 0 <= s < n)
            for s in self._to_act:
                v[at_to_act + s] = 1.0
        # as the observation shows it: no seat's turn in a simultaneous phase or after the end
        turn = state.turn if phase != OVER and phase not in spec.simultaneous else -1
        old = self._turn
        if turn != old:
            if 0 <= old < n:
                v[at_turn + old] = 0.0
            if 0 <= turn < n:
                v[at_turn + turn] = 1.0
            self._turn = turn
        if state.dealer != self._dealer:
            self._dealer = self._move(at_dealer, self._dealer, state.dealer, n)
        if state.leader != self._leader:
            self._leader = self._move(at_leader, self._leader, state.leader, n)
        if state.led != self._led:
            self._led = self._move(at_led, self._led, state.led, 4)
        if state.round_no != self._round:
            self._round = state.round_no
            v[at_round] = float(state.round_no or 0)
        hands = state.hands
        if self.me >= 0:
            hand = hands[self.me]
            changed = hand ^ self._hand
            if changed:
                pos = spec.pos
                while changed:
                    low = changed & -changed
                    at = pos.get(low.bit_length() - 1)
                    if at is not None:
                        v[at_hand + at] = 1.0 if hand & low else 0.0
                    changed ^= low
                self._hand = hand
        sizes = list(map(int.bit_count, hands))
        if sizes != self._sizes:
            for i, x in enumerate(sizes, spec.at_sizes):
                v[i] = x
            self._sizes = sizes
        if state.scores != self._scores or state.round_points != self._points or state.tricks_won != self._won:
            self._scores, self._points, self._won = state.scores[:], state.round_points[:], state.tricks_won[:]
            totals = self._scores + self._points + self._won  # side by side, one a seat each
            for i, x in enumerate(totals, spec.at_scores):
                v[i] = x
        if state.voids != self._voids:
            self._write_voids(state.voids)
        if spec.slot_attrs:
            self._trick(state)
        elif state.trick != self._trick_cards or state.trick_seats != self._trick_key:
            # a game without trick slots: the trick is its cards by seat (none face down)
            for i in self._trick_ones:
                v[i] = 0.0
            at, d, pos = spec.at_trick, spec.d, spec.pos
            seats, cards = state.trick_seats, state.trick
            ones = [at + s * d + pos[c] for s, c in zip(seats, cards) if 0 <= s < n and c in pos]
            for i in ones:
                v[i] = 1.0
            self._trick_key, self._trick_cards, self._trick_ones = seats[:], cards[:], ones
        if len(state.history) != self._read or state.round_no != self._read_round:
            self._tricks(state)
        if spec.watch_values is not None or spec.view_keys:
            self._declared(state)
        return self.v

    def _move(self, at: int, old: int, now: int, top: int) -> int:
        """Move a one-hot segment's 1 from ``old`` to ``now`` (none outside 0..top-1)."""
        v = self.mv
        if 0 <= old < top:
            v[at + old] = 0.0
        if 0 <= now < top:
            v[at + now] = 1.0
        return now

    def _write_voids(self, voids: list[int]) -> None:
        """The suits each seat has shown it lacks, written where they changed."""
        n, v = self.spec.n, self.mv
        at = self.spec.offset["voids"]
        old = self._voids
        for s in range(min(n, len(voids))):
            diff = voids[s] ^ (old[s] if s < len(old) else 0)
            for b in range(4):
                if diff >> b & 1:
                    v[at + s * NSUITS + b] = float(voids[s] >> b & 1)
        self._voids = list(voids)

    def _trick(self, state: TrickState[Any]) -> None:
        """The current trick of a game with trick slots, as its entries show it, rewritten
        when its cards, seats or slots changed."""
        spec, v = self.spec, self.mv
        key = (tuple(state.trick), tuple(state.trick_seats),
               *(tuple(getattr(state, a)) for a in spec.slot_attrs))
        if key == self._trick_key:
            return
        ones: list[int] = []
        if state.trick:
            spec._entries(ones, views.trick_entries(state))
        for i in self._trick_ones:
            v[i] = 0.0
        for i in ones:
            v[i] = 1.0
        self._trick_key, self._trick_ones = key, ones

    def _tricks(self, state: TrickState[Any]) -> None:
        """The round's finished tricks: each new record marked once; a new round empties them."""
        history = state.history
        read = self._read
        spec, v = self.spec, self.v
        if self._read_round != state.round_no or len(history) < read:
            for offset, size in spec.history_spans:
                v[offset:offset + size] = 0.0
            read = 0
        mv = self.mv
        for record in history[max(read, 0):]:
            for i in spec.marks_of(record):
                mv[i] = 1.0
        mv[spec.offset["tricks_played"]] = float(len(history))
        self._read_round, self._read = state.round_no, len(history)

    def _declared(self, state: TrickState[Any]) -> None:
        """The declared piles, fields and roles, each read again as the observation reads it
        when the state values behind it changed; the views (``observe_extra``) every time."""
        spec = self.spec
        if spec.watch_values is not None:
            now = spec.watch_values(state)
            last = self._raw
            if now != last:
                me, seat = self.me, self.seat
                for watch, (a, b) in zip(spec.watches, spec.watch_spans):
                    if last is None:
                        changed = True
                    elif watch.private:  # the seat's own item (a spectator's is always empty)
                        changed = me >= 0 and now[a][me] != last[a][me]
                    else:
                        changed = now[a:b] != last[a:b]
                    if changed:
                        for key, x in watch.view(state, me, seat):
                            self._write(key, x)
                self._raw = _kept(now)
        if spec.view_keys:
            shown: dict[str, Any] = {}
            state.observe_extra(self.seat, shown)
            for key in spec.view_keys:
                x = shown.get(key)
                if key not in self._shown or self._shown[key] != x:
                    self._shown[key] = x
                    self._write(key, x)

    def _write(self, key: str, x: Any) -> None:
        """Encode one extra segment anew (emptied first, unless it was never written)."""
        e, at = self.spec.extra_of[key]
        v = self.v
        if key in self._written:
            v[at:at + e.size] = 0.0
        else:
            self._written.add(key)
        ones: list[int] = []
        self.spec._extra(v, at, e, x, ones)
        mv = self.mv
        for i in ones:
            mv[i] = 1.0
