"""A table among several server processes (on PostgreSQL): notices, catching up, taking over.

Its own part because it is the cluster's glue, apart from what one process does with a table:
which sockets sit where (presence), the actions another process wrote (read from the log, or
told by a notice), the tables whose process died (the sweep takes them), and a table handed to
the process its players are at.  On SQLite there is one process and none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from torite.server.driving import TableDriver
from torite.server.live import LiveTable, TableError

#: a seat's name from another process is one ``chosen_name`` cleaned; cut anyway
MAX_NOTICE_NAME = 40

log = logging.getLogger("torite.server")

EXPIRED = "this table expired: nobody played at it for too long"
#: seconds a process leaves a table it handed over to the process it was handed to
HAND_OVER_GRACE = 5.0


class TablePeers(TableDriver):
    """What the manager does with the other processes (see the module docstring)."""

    def _tell_presence(self, table: LiveTable) -> None:
        """Tell the other processes which seats have a socket here, and whether any socket does
        (a spectator's too: its process then needs the table's notices), when that changes."""
        now = ([s.connections > 0 for s in table.seats], bool(table.conns))
        if now != table.told_presence:
            table.told_presence = now
            self._tell("p", table.id, p=now[0], w=now[1])

    def _count_presence(self, table: LiveTable) -> None:
        for i, seat in enumerate(table.seats):
            seat.elsewhere = sum(1 for flags in table.presence.values() if i < len(flags) and flags[i])
        table.touch()

    def _tell_length(self, table: LiveTable) -> None:
        """How long the log is here: a process that loaded the table while no notice went out
        for it reads what it missed."""
        self._tell("n", table.id, n=len(table.actions))

    def _needs_notice(self, table: LiveTable) -> bool:
        """Whether another process must hear of this table's actions: the one driving it (if not
        this one), and those holding a socket of it.  A table whose sockets and driver are all
        here (the usual case once its players' process drives it) sends none."""
        return self.cluster is not None and (not self._drives(table) or bool(table.watched_by))

    async def _catch_up_locked(self, table: LiveTable) -> None:
        """Read the actions other processes appended to the table's log (its lock held)."""
        more = await self._db_call(self.store.actions_since, table.id, len(table.actions))
        self._apply_remote(table, more)

    def _apply_remote(self, table: LiveTable, actions: list[tuple[int, str]]) -> None:
        if not actions:
            return
        new = table.state.clone()
        try:
            for seat, text in actions:
                if seat not in new.to_act():
                    raise ValueError(f"{seat}: {text!r} is out of turn")
                new.apply_text(seat, text)
        except Exception:
            log.exception("table %s: the log another process wrote does not replay here; reloading it", table.id)
            self._drop(table, "storage", "the table is being reloaded: join it again")
            return
        table.state = new
        start = len(table.actions)
        table.actions.extend(actions)
        for seat, _ in actions:
            table.decisions[seat] += 1
        if new.is_over():
            self._ended(table)
        table.touch()
        table.wake.set()
        if self._drives(table):
            for seat, _ in actions:
                self._update_idle(table, acted=seat)
        log.debug("table %s: caught up %d actions from %d", table.id, len(actions), start)

    async def _remote_action(self, table: LiveTable, idx: int, seat: int, text: str, human: bool) -> None:
        async with table.lock:
            if idx < len(table.actions):
                return  # known already (ours, or read from the log)
            if idx == len(table.actions):
                self._apply_remote(table, [(seat, text)])
            else:
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)  # notices were missed: the log has them
        if human and self._drives(table) and self.tables.get(table.id) is table:
            self.returned(table, seat)

    def _on_notice(self, msg: dict[str, Any]) -> None:
        """A notice from another process (see ``torite.server.cluster``)."""
        table = self.tables.get(str(msg.get("t")))
        if table is None:
            return
        kind, member = msg.get("k"), msg.get("m")
        try:
            if kind == "a":
                self._background_task(self._remote_action(table, int(msg["i"]), int(msg["s"]), str(msg["a"]),
                                                          bool(msg.get("h"))))
            elif kind == "p" and isinstance(member, int):
                table.presence[member] = [bool(x) for x in msg["p"]][:len(table.seats)]
                if msg.get("w"):
                    new = member not in table.watched_by
                    table.watched_by.add(member)
                    if new and self._drives(table):
                        self._tell_length(table)  # it may have loaded the table before it was notified
                else:
                    table.watched_by.discard(member)
                self._count_presence(table)
            elif kind == "n":
                if int(msg["n"]) > len(table.actions):
                    self._background_task(self._catch_up(table))
            elif kind == "s" and not self._drives(table):
                for seat, away in zip(table.seats, msg["away"]):
                    seat.away = bool(away)
                table.idle_deadlines = {i: float(d) for i, d in enumerate(msg["d"]) if d is not None}
                table.touch()
                table.wake.set()
            elif kind == "b" and self._drives(table):
                self.returned(table, int(msg["s"]))
            elif kind == "h" and msg.get("to") == (self.cluster.member if self.cluster else None):
                self._background_task(self._claim(table))
            elif kind == "q":
                if self._drives(table):
                    self._tell_status(table)
                    self._tell_length(table)
                if table.conns:
                    table.told_presence = None  # say it again, for the one asking
                    self._tell_presence(table)
            elif kind == "r":
                table.rematch = str(msg["r"])
                table.touch()
            elif kind == "m":
                table.seats[int(msg["s"])].name = str(msg["name"])[:MAX_NOTICE_NAME]
                table.touch()
            elif kind == "x":
                self._drop(table, str(msg.get("c", "expired")),
                           EXPIRED if msg.get("c") == "expired" else "this table is no longer kept")
        except (KeyError, TypeError, ValueError, IndexError):
            log.warning("a malformed notice from another process: %r", msg)

    async def _catch_up(self, table: LiveTable) -> None:
        async with table.lock:
            with contextlib.suppress(TableError):
                await self._catch_up_locked(table)

    def _leases_lost(self) -> None:
        """The lock connection broke: another process may drive any of our tables now."""
        for table in self.tables.values():
            self._stop_driving(table)

    async def _reconnected(self) -> None:
        """Notices may have been missed: read every table's log again, then take tables back."""
        for table in list(self.tables.values()):
            async with table.lock:
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)
        with contextlib.suppress(TableError):
            await self._sweep()

    async def _claim(self, table: LiveTable) -> None:
        """Drive a table nobody drives (a table loaded for a socket, whose driver may be gone)."""
        assert self.cluster is not None
        if await self.cluster.try_lease(table.id):
            with contextlib.suppress(TableError):
                await self._db_call(self.store.set_driver, table.id, self.cluster.member)
            async with table.lock:  # what the last driver did before it went
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)
            if self.tables.get(table.id) is table and not table.over:
                self._start(table)
            else:
                self._release(table)  # it ended, or left memory meanwhile: nobody to drive here

    async def _hand_over(self) -> None:
        """A table driven here whose players sit at another process is handed to that one: its
        bots then decide where their moves are shown, and each move is applied in one process,
        not two."""
        assert self.cluster is not None
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.over or not self._drives(table) or any(s.connections for s in table.seats):
                continue
            there = [m for m, flags in table.presence.items() if m in self._live and any(flags)]
            if not there:
                continue
            async with table.lock:  # not in the middle of an action
                self._stop_driving(table)
                await self.cluster.release(table.id)
                with contextlib.suppress(TableError):
                    await self._db_call(self.store.set_driver, table.id, None)
            self._handed[table.id] = now
            self._tell("h", table.id, to=there[0])
            if not table.conns:
                self.tables.pop(table.id, None)
        for table_id, at in list(self._handed.items()):
            if now - at > HAND_OVER_GRACE:
                del self._handed[table_id]

    async def _sweep(self) -> None:
        """Take the tables whose process died (or that nobody took); forget the dead's sockets;
        hand tables to the process their players are at."""
        assert self.cluster is not None
        try:
            live = await self.cluster.live_members()
        except Exception:
            return
        if live != self._live:
            gone = self._live - live
            self._live = live
            if gone:
                for table in self.tables.values():
                    if any(m in table.presence or m in table.watched_by for m in gone):
                        for m in gone:
                            table.presence.pop(m, None)
                            table.watched_by.discard(m)
                        self._count_presence(table)
        await self._hand_over()
        orphans = await self._db_call(self.store.orphans, live, self.cluster.member)
        for table_id in orphans:
            if table_id in self._handed:
                continue
            held = self.tables.get(table_id)
            if table_id in self.cluster.leases and held is not None and held.driver is not None:
                continue  # ours, and driven
            if not await self.cluster.try_lease(table_id):
                continue
            await self._db_call(self.store.set_driver, table_id, self.cluster.member)
            held = self.tables.get(table_id)
            if held is None:
                row = await self._db_call(self.store.load_table, table_id)
                revived = await self._revive(row) if row is not None and row.abandoned is None else None
                if revived is None:
                    await self.cluster.release(table_id)
                    continue
                held = self.tables.setdefault(table_id, revived)
                self._tell("q", table_id)
            else:
                async with held.lock:
                    await self._catch_up_locked(held)
            self._start(held)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self._sweep()
            except TableError:
                pass  # the database is out of reach: said once
            except Exception:
                log.exception("taking over orphaned tables failed; will retry")
