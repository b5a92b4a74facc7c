"""The base of the table manager: the tables in memory, the store reached off the event loop,
a table rebuilt from its log or dropped, and the notices sent to the other processes.

Its own part because every layer above it (``driving``: bots and idle clocks; ``peers``: the
other server processes; ``tables``: what requests ask) stands on this plumbing and nothing
here needs them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy.exc import InterfaceError, OperationalError

from torite.engine.registry import make_game
from torite.server.bots import BotPool
from torite.server.cluster import Cluster
from torite.server.limits import RateLimiter
from torite.server.live import SETTINGS, LiveTable, Seat, TableError, stop_after
from torite.server.store import DB_THREADS, Append, Store, TableRow

log = logging.getLogger("torite.server")

T = TypeVar("T")

#: what the database drivers say when the database is there but cannot be written
UNWRITABLE = ("readonly", "read-only", "read only", "disk i/o error", "disk is full", "no space left")
#: creations stored at once, and waiting their turn (past that: ``busy``): the store's thread
#: is the moves' too, and a flood of creations queued ahead of them held a bystander's move a
#: second (230 addresses creating at once)
CREATES_AT_ONCE = 2
#: a seat renamed at most this often (a second) after a few at once
RENAMES_PER_SECOND = 0.2
RENAMES_BURST = 3
CREATES_WAITING = 16


class TableKeeper:
    """The tables held in memory and the store behind them (see the module docstring); the
    manager is :class:`torite.server.tables.TableManager`."""

    def __init__(self, store: Store, *, bots: BotPool | None = None, max_tables: int = 2000,
                 creates_waiting: int = CREATES_WAITING) -> None:
        self.store = store
        #: creations may wait this many deep for the store; more are refused (``busy``)
        self.creates_waiting = creates_waiting
        self._creating = asyncio.Semaphore(CREATES_AT_ONCE)
        self._creates_queued = 0
        #: tables in play (unfinished and not expired, in the store: every process's together);
        #: past it a new table is refused, so a flood of requests cannot exhaust the server
        self.max_tables = max_tables
        self.tables: dict[str, LiveTable] = {}
        self._db = ThreadPoolExecutor(max_workers=DB_THREADS if store.postgres else 1, thread_name_prefix="torite-db")
        #: PostgreSQL: the other processes, their notices, and the leases of the tables this one drives
        self.cluster: Cluster | None = None
        self.sweep_seconds = 1.0
        self._sweeper: asyncio.Task[None] | None = None
        self._live: set[int] = set()
        #: tables this process handed to another one lately (not taken back by the sweep at once)
        self._handed: dict[str, float] = {}
        #: the worker processes the bots think in
        self.bots = bots if bots is not None else BotPool()
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.started = False
        self._background: set[asyncio.Task[None]] = set()
        #: since when the database has been out of reach (None: reachable)
        self.db_down_since: float | None = None
        #: SQLite: actions waiting for the writer thread, which takes all of them at once
        self._appends: list[tuple[Append, asyncio.Future[None]]] = []
        self._appending = False
        #: (table, seat) whose hint count is being written
        self._hint_writes: set[tuple[str, int]] = set()
        #: the seats' renames, paced per (table, seat)
        self._renames = RateLimiter(RENAMES_PER_SECOND, RENAMES_BURST)

    async def _db_create(self, fn: Callable[..., T], *args: Any) -> T:
        """A store call that makes something new (a table, a rematch): a few at once, a bounded
        number waiting, the rest refused at once, so the moves of the tables in play never
        queue behind a flood of them."""
        if self._creates_queued >= CREATES_AT_ONCE + self.creates_waiting:
            raise TableError("busy", "the server is making many tables at once: try again in a moment")
        self._creates_queued += 1
        try:
            async with self._creating:
                return await self._db_call(fn, *args)
        finally:
            self._creates_queued -= 1

    async def _db_call(self, fn: Callable[..., T], *args: Any) -> T:
        """Store calls off the event loop (SQLite: on one thread, its one writer; PostgreSQL: on
        a few, a table's writes kept in order by its lock).  The database out of reach is a
        :class:`TableError` ``storage`` (answered 503), said in the log once when it goes and
        once when it is back, not once per request or table."""
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)
        except (OperationalError, InterfaceError) as e:
            reason = str(e).splitlines()[0]
            if self.db_down_since is None:
                self.db_down_since = time.time()
                log.error("the database cannot be reached (%s): answering 503 and retrying until it is back", reason)
            if any(w in reason.lower() for w in UNWRITABLE):
                raise TableError("storage", "the server cannot write to its database (read-only, full or failing): "
                                            "nothing was saved; try again later") from None
            raise TableError("storage", "the server cannot reach its database; try again shortly") from None
        if self.db_down_since is not None:
            log.warning("the database is back after %.0f s: tables and bots carry on",
                        time.time() - self.db_down_since)
            self.db_down_since = None
        return out

    async def _append(self, table_id: str, idx: int, seat: int, action: str, result: dict[str, Any] | None,
                      notice: str | None) -> None:
        """Store one action (see :meth:`Store.append_action`, whose errors it raises).  On
        SQLite the actions of every table that come while the writer is busy are written
        together, in one transaction, when it is free (a group commit): nothing waits longer
        than it would have, and the writer's work per action, which holds the interpreter's
        lock the event loop needs, is a fraction of a transaction each."""
        if self.store.postgres:
            await self._db_call(self.store.append_action, table_id, idx, seat, action, result, notice)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append(((table_id, idx, seat, action, result), done))
        if not self._appending:
            self._appending = True
            self._background_task(self._write_appends())
        await done

    async def _write_appends(self) -> None:
        try:
            while self._appends:
                batch, self._appends = self._appends, []
                try:
                    outcomes = await self._db_call(self.store.append_actions, [a for a, _ in batch])
                except Exception as e:  # the database out of reach: every one of them hears it
                    outcomes = [e] * len(batch)
                for (_, done), outcome in zip(batch, outcomes):
                    if done.done():
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            self._appending = False

    def _rebuild(self, row: TableRow) -> LiveTable:
        game = make_game(row.game, row.options)
        stop = stop_after(game)
        state = game.new_state(row.seed, max_rounds=stop)
        for i, (seat, text) in enumerate(row.actions):
            if seat not in state.to_act():
                raise ValueError(f"action {i} ({seat}: {text!r}) is out of turn")
            state.apply_text(seat, text)
        seats = [Seat(kind=s["kind"], level=s.get("level"), name=s.get("name", ""), token_hash=h,
                      host=bool(s.get("host")))
                 for s, h in zip(row.seats, row.token_hashes)]
        settings = {k: float(row.settings.get(k, SETTINGS[k][0])) for k in SETTINGS}
        table = LiveTable(id=row.id, game=game, state=state, seed=row.seed, seats=seats, settings=settings,
                          created=row.created, actions=list(row.actions), finished=row.finished,
                          rematch=row.rematch, joined=row.joined, max_rounds=stop,
                          hints=(row.hints + [0] * len(seats))[:len(seats)])
        return table

    async def _revive(self, row: TableRow) -> LiveTable | None:
        """An unfinished table from its log; None if it cannot be (said in the log)."""
        try:
            table = self._rebuild(row)
        except Exception:
            log.exception("table %s cannot be rebuilt from its log; left out", row.id)
            return None
        if table.over:
            # its last action was stored but not the mark (a database from before they shared
            # a transaction): the log is the truth
            await self._db_call(self.store.finish_table, table.id, table.state.result().to_json())
            log.info("table %s: its log ends the game; marked finished", table.id)
            return None
        return table

    def _drives(self, table: LiveTable) -> bool:
        """Whether this process drives the table's bots and idle clocks (on SQLite: always)."""
        return self.cluster is None or table.id in self.cluster.leases

    def _drop(self, table: LiveTable, code: str, message: str) -> None:
        """Take a table out of memory: its bots stop, its sockets are told why and closed."""
        self.tables.pop(table.id, None)
        self._stop_driving(table)
        self._release(table)
        for c in list(table.conns):
            c.push({"type": "error", "code": code, "message": message})
            c.close(4410)

    def _stop_driving(self, table: LiveTable) -> None:
        if table.driver is not None:
            table.driver.cancel()
        for h in table.idle_timers.values():
            h.cancel()
        table.idle_timers.clear()

    def _release(self, table: LiveTable) -> None:
        """The table needs no driver any more (it ended or left play): its lease goes."""
        if self.cluster is not None and table.id in self.cluster.leases:
            self._background_task(self.cluster.release(table.id))

    def _ended(self, table: LiveTable) -> None:
        table.finished = time.time()
        self._release(table)

    def _background_task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _tell(self, kind: str, table_id: str, **data: Any) -> None:
        """A notice to the other processes (none on SQLite)."""
        if self.cluster is not None:
            self._background_task(self.cluster.notify(kind, table_id, **data))

    def _tell_status(self, table: LiveTable) -> None:
        self._tell("s", table.id, away=[s.away for s in table.seats],
                   d=[table.idle_deadlines.get(i) for i in range(len(table.seats))])
