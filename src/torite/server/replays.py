"""Replays at the web table: any step of a record as a chosen viewer saw it.

Why here and built this way: a step's message must be exactly what the live table would have
sent that viewer at that moment, so it is built by the live table's own code (a
:class:`~torite.server.live.LiveTable` over the step's state, its ``view``, and ``log_line``
for the log), from :class:`torite.replay.Replay`, which checked the record and keeps every step.
Nothing is stored: a record sent by a page is checked, kept in a small in-memory cache (so
stepping through it does not replay it again on every click; bounded by the bytes its replays
hold, ``CACHE_BYTES``) and forgotten.

Viewers: ``"open"`` (every hand, a finished game only), a seat, or ``None`` (a spectator); a
game in progress is shown to everyone as a spectator sees it (``Replay.allowed``).  What a bot
would play (``suggest``) is asked of a bot in a worker process, with the seat's observation and
legal actions at that step only.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import hashlib
import json
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

import torite.bots.registry as bot_registry
from torite.cards import parse_card
from torite.engine.base import OptionError
from torite.present import labels
from torite.record import Record, RecordError
from torite.replay import OPEN, Replay, Viewer
from torite.server.bots import BotPool
from torite.server.live import MAX_GAME_ACTIONS, SETTINGS, LiveTable, Seat, TableError, bot_names, log_line
from torite.server.pacing import SUGGEST_AT_ONCE, SUGGEST_LEVELS, Pacing, WorkBudget

#: the longest record a page may send (bytes) and replay (actions): a whole long game fits
MAX_RECORD_BYTES: Final = 1 << 20
#: a request that sends one (a body past this is cut off unread, a plain 413)
MAX_RECORD_ENVELOPE: Final = MAX_RECORD_BYTES + (64 << 10)
MAX_STEPS: Final = 5000
#: the longest table replayed (a table plays at most MAX_GAME_ACTIONS; older ones may be longer)
MAX_TABLE_STEPS: Final = 2 * MAX_GAME_ACTIONS
#: records replayed whole at once (in a thread: its CPU is the event loop's too) and waiting
#: their turn; past that a request is refused (503 busy)
BUILDS_AT_ONCE: Final = 1
BUILDS_WAITING: Final = 4
#: the bytes the records kept checked in memory may hold together (``Replay.weight``; a
#: 5,000-action record holds some 6 MiB, a state every 50 steps)
CACHE_BYTES: Final = 48 << 20
#: the bytes the steps' logs and messages kept (``StepCache``) may hold together
STEP_CACHE_BYTES: Final = 16 << 20
#: the bot asked "what would it play here?" unless another level is named
SUGGEST_LEVEL: Final = "hard"


class BadRecord(TableError):
    """A record that cannot be replayed: the message names the action and the reason, and
    ``detail`` carries them apart for the page to say in its reader's language."""

    def __init__(self, e: RecordError | str) -> None:
        super().__init__("bad_record", f"this record cannot be replayed: {e}")
        if isinstance(e, RecordError) and e.action is not None:
            self.detail = {"action": e.action, "seat": e.seat, "text": e.text, "reason": e.reason}


def seats_of(record: Record) -> list[Seat]:
    """The record's seats as the table names them: ``bot:LEVEL`` a bot at that level, anything
    else a person's name."""
    out = []
    for name in record.seats:
        if name.startswith("bot:"):
            out.append(Seat("bot", name[4:], "", None))
        else:
            out.append(Seat("human", None, "" if name == "human" else name[:40], None))
    return out


def parse_viewer(raw: Any) -> Viewer:
    """``"open"``, a seat (a number, or its digits in a query), or a spectator (null, ``""``,
    ``"spectator"``); anything else is refused."""
    if raw is None or raw in ("", "spectator"):
        return None
    if raw == OPEN:
        return OPEN
    if isinstance(raw, str) and raw.isdigit() and len(raw) < 4:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    raise TableError("bad_viewer", "viewer: \"open\", a seat number or null (a spectator)")


def parse_step(raw: Any) -> int:
    if isinstance(raw, str) and raw.isdigit() and len(raw) < 7:
        return int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    raise TableError("bad_step", "step: the number of actions from the deal (0 to the record's length)")


class Replays:
    """The records checked lately, by their content (or a finished table's id and length), the
    least recently used forgotten first past ``max_bytes`` together."""

    def __init__(self, max_bytes: int = CACHE_BYTES, budget: WorkBudget | None = None,
                 step_bytes: int = STEP_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        #: the CPU a build may take, with the steps' (``step_json``); None: unbounded
        self.budget = budget
        #: the steps' logs and messages of the replays kept here
        self.steps = StepCache(step_bytes)
        self._kept: OrderedDict[str, tuple[Replay, int]] = OrderedDict()
        self._building = asyncio.Semaphore(BUILDS_AT_ONCE)
        self._waiting = 0

    async def _build(self, data: Mapping[str, Any] | Record) -> Replay:
        """Check a record off the event loop, one at a time: a few wait their turn, more are
        refused (``busy``)."""
        if self._waiting >= BUILDS_WAITING:
            raise TableError("busy", "the server is replaying other records: try again in a moment")
        self._waiting += 1
        try:
            async with self._building:
                if self.budget is not None:
                    self.budget.check()
                return await asyncio.to_thread(_check, data, self.budget)
        finally:
            self._waiting -= 1

    def _get(self, key: str) -> Replay | None:
        hit = self._kept.get(key)
        if hit is None:
            return None
        self._kept.move_to_end(key)
        return hit[0]

    def _put(self, key: str, rp: Replay) -> Replay:
        weight = rp.weight()
        if weight > self.max_bytes:
            return rp  # answered, not kept
        self._kept[key] = (rp, weight)
        self.bytes += weight
        while self.bytes > self.max_bytes:
            _, (_, w) = self._kept.popitem(last=False)
            self.bytes -= w
        return rp

    def __len__(self) -> int:
        return len(self._kept)

    async def of_json(self, data: Any, on_build: Callable[[], None] = lambda: None) -> Replay:
        """A record sent by a page, checked (off the event loop: a long game takes a moment);
        ``on_build`` is called first when it is not in the cache (it may refuse: the pacing of
        the replays made whole)."""
        if not isinstance(data, Mapping):
            raise BadRecord("a record is a JSON object (format, game, options, seed, seats, actions)")
        key = "r:" + hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
        hit = self._get(key)
        if hit is not None:
            return hit
        actions = data.get("actions")
        if isinstance(actions, list) and len(actions) > MAX_STEPS:
            raise BadRecord(f"a record of more than {MAX_STEPS} actions is not replayed here "
                            f"(it has {len(actions)}; `torite replay FILE --view` shows any)")
        on_build()
        return self._put(key, await self._build(data))

    async def of_table(self, table: LiveTable, on_build: Callable[[], None] = lambda: None) -> Replay:
        """A table's record as it stands (a finished table's is kept; one in play is read again
        as it grows); ``on_build`` as for :meth:`of_json`."""
        if len(table.actions) > MAX_TABLE_STEPS:  # a table from before games at a table were bounded
            raise TableError("too_long", f"this table's game has {len(table.actions)} actions: more than "
                                         f"{MAX_TABLE_STEPS} are not replayed here (its record downloads once "
                                         "it is over; `torite replay FILE --view` shows any)")
        key = f"t:{table.id}:{len(table.actions)}"
        hit = self._get(key)
        if hit is not None:
            return hit
        on_build()
        return self._put(key, await self._build(table.record()))


def _check(data: Mapping[str, Any] | Record, budget: WorkBudget | None = None) -> Replay:
    start = time.thread_time()
    try:
        record = data if isinstance(data, Record) else Record.from_json(data)
        return Replay(record)
    except RecordError as e:
        raise BadRecord(e) from None
    except (OptionError, ValueError, TypeError, KeyError) as e:
        raise BadRecord(str(e)) from None
    finally:
        if budget is not None:
            budget.charge(time.thread_time() - start)


class StepCache:
    """What replaying a step costs, kept: each viewer's whole log, rendered once (a late step of
    a long game rendered every line again: 75 ms of the event loop for one step of a 590-action
    Mighty), and the last steps' messages, serialized.  Entries name their replay weakly (its
    ``id`` and a weak reference checked on the way out), so a replay forgotten by
    :class:`Replays` is not kept alive here and its entries simply miss; bounded by
    ``max_bytes`` together (a log's weight is its JSON's length), the least recently used first
    out."""

    def __init__(self, max_bytes: int = STEP_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[tuple[Any, ...], tuple[weakref.ref[Replay], Any, int]] = OrderedDict()

    def get(self, rp: Replay, key: tuple[Any, ...]) -> Any:
        hit = self._kept.get((id(rp), *key))
        if hit is None or hit[0]() is not rp:
            return None
        self._kept.move_to_end((id(rp), *key))
        return hit[1]

    def put(self, rp: Replay, key: tuple[Any, ...], value: Any, weight: int) -> None:
        if weight > self.max_bytes // 4:
            return  # answered, not kept
        full = (id(rp), *key)
        old = self._kept.pop(full, None)
        if old is not None:
            self.bytes -= old[2]
        self._kept[full] = (weakref.ref(rp), value, weight)
        self.bytes += weight
        while self.bytes > self.max_bytes:
            _, (_, _, w) = self._kept.popitem(last=False)
            self.bytes -= w

    def __len__(self) -> int:
        return len(self._kept)


def _log(rp: Replay, viewer: Viewer, cache: StepCache | None) -> tuple[list[dict[str, Any]], list[int]]:
    """Every log line ``viewer`` reads by the record's end, each with the step whose action
    wrote it (0: the deal), and those steps apart (in order: a step's lines are a prefix)."""
    hit = cache.get(rp, ("log", viewer)) if cache is not None else None
    if hit is not None:
        return cast("tuple[list[dict[str, Any]], list[int]]", hit)
    names = seats_of_names(rp)
    lines: list[dict[str, Any]] = []
    for count, (i, event) in enumerate(rp.events(rp.steps, viewer)):
        line = log_line(rp.game, event, count, names)
        if line is None:
            continue
        line["step"] = bisect.bisect_right(rp.event_counts, i)
        line["now"] = False
        lines.append(line)
    out = (lines, [line["step"] for line in lines])
    if cache is not None:
        cache.put(rp, ("log", viewer), out, len(json.dumps(lines, ensure_ascii=False)))
    return out


def seats_of_names(rp: Replay) -> list[str | None]:
    """The seats' names as the live table gives them to its words (None: the game names it)."""
    return [s.name or None for s in seats_of(rp.record)]


def step_message(rp: Replay, step: int, viewer: Viewer, table_id: str = "",
                 cache: StepCache | None = None) -> dict[str, Any]:
    """Step ``step`` as ``viewer`` saw it: the live table's state message (its log whole, up to
    this step, the step's own lines marked ``now``) with the replay's landmarks."""
    if not 0 <= step <= rp.steps:
        raise TableError("bad_step", f"step {step} is outside 0..{rp.steps}")
    try:
        viewer = rp.allowed(viewer)
    except ValueError as e:
        raise TableError("bad_viewer", str(e)) from None
    seats = seats_of(rp.record)
    table = LiveTable(id=table_id, game=rp.game, state=rp.state(step), seed=0, seats=seats,
                      settings={k: d for k, (d, _, _) in SETTINGS.items()}, created=0.0,
                      actions=list(rp.record.actions[:step]))
    key = viewer if isinstance(viewer, int) else None
    obs = None
    if viewer == OPEN:
        obs = rp.observation(step, OPEN)
        obs["hands"] = [_sorted(rp, h) for h in obs["hands"]]
    msg = table.view(key, obs)
    lines, steps = _log(rp, viewer, cache)
    upto = bisect.bisect_right(steps, step)
    log = lines[:upto]
    if step > 0:  # the step's own lines, marked (copies: the kept lines are every step's)
        for k in range(bisect.bisect_left(steps, step), upto):
            log[k] = log[k] | {"now": True}
    msg |= {"log_from": 0, "log": log, "replay": {
        "step": step, "steps": rp.steps, "tricks": rp.tricks(), "rounds": rp.rounds(),
        "viewer": viewer, "viewers": rp.viewers(), "finished": rp.finished}}
    return msg


def step_json(rp: Replay, step: Any, viewer: Any, table_id: str = "", cache: StepCache | None = None,
              budget: WorkBudget | None = None) -> bytes:
    """:func:`step_message` as the response's bytes, from ``cache`` when it was asked lately;
    what it costs to make is spent from ``budget`` (``busy`` when the server's share of work
    for replays is spent)."""
    step, viewer = parse_step(step), parse_viewer(viewer)
    hit = cache.get(rp, ("msg", step, viewer, table_id)) if cache is not None else None
    if hit is not None:
        return cast(bytes, hit)
    with budget.spend() if budget is not None else contextlib.nullcontext():
        body = json.dumps(step_message(rp, step, viewer, table_id, cache), ensure_ascii=False,
                          separators=(",", ":")).encode()
    if cache is not None:
        cache.put(rp, ("msg", step, viewer, table_id), body, len(body))
    return body


def _sorted(rp: Replay, hand: Any) -> Any:
    """A hand in the order the table shows one's own."""
    try:
        return sorted(hand, key=lambda c: rp.game.sort_key(parse_card(c)))
    except (ValueError, TypeError):
        return hand


async def suggest(bots: BotPool, rp: Replay, step: int, seat: Any, level: Any = SUGGEST_LEVEL,
                  seed: int = 0, pacing: Pacing | None = None) -> dict[str, Any]:
    """What a bot of ``level`` would play at ``seat``'s decision at ``step`` (seeded: the same
    as ``Replay.suggest``), thought in a worker process from the seat's observation only.  A
    level is at most ``hard`` (``SUGGEST_LEVELS``), and with ``pacing`` at most
    ``SUGGEST_AT_ONCE`` suggestions think at once (``busy``, 503, past that): the bot workers
    are the live tables' first."""
    levels = [x for x in SUGGEST_LEVELS if x in bot_names()]
    if not isinstance(level, str) or level not in levels:
        raise TableError("bad_bot", f"level: one of {', '.join(levels)} (a suggestion here is at most "
                                    f"{levels[-1]})")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rp.game.num_players:
        raise TableError("bad_viewer", f"seat: 0 to {rp.game.num_players - 1}")
    if not 0 <= step <= rp.steps:
        raise TableError("bad_step", f"step {step} is outside 0..{rp.steps}")
    try:
        got = rp.decision(step, seat)
    except ValueError as e:
        raise TableError("not_finished", str(e)) from None
    if got is None:
        raise TableError("no_decision", f"seat {seat} has no decision at step {step}")
    obs, legal = got
    if pacing is not None and pacing.suggesting >= SUGGEST_AT_ONCE:
        raise TableError("busy", f"the server is thinking {SUGGEST_AT_ONCE} suggestions already: "
                                 "try again in a moment")
    handle = bots.add(bot_registry.make_bot(level, rp.game, seat, random.Random(seed)))
    if pacing is not None:
        pacing.suggesting += 1
    try:
        action = await bots.decide(handle, obs, legal)
    finally:
        if pacing is not None:
            pacing.suggesting -= 1
        bots.remove(handle)
    label = labels.view_texts(rp.game, obs, [action], seats_of_names(rp))["actions"][0]
    text = rp.game.action_text(action)
    return {"type": "suggestion", "step": step, "seat": seat, "level": level, "action": text,
            "label": label, "cards": text.split()[1:1 + action.cards.bit_count()]}


__all__ = ["MAX_RECORD_BYTES", "MAX_STEPS", "BadRecord", "Replays", "StepCache", "parse_step", "parse_viewer",
           "seats_of", "step_json", "step_message", "suggest"]
