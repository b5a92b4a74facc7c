"""Several server processes on one PostgreSQL, the only part they share.

* The append-only log is the source of truth.  Any process may write a table's next action; the
  log's primary key (table, position) lets exactly one writer have each position, and a writer
  that loses catches up from the log and checks the action again (see ``TableManager.act``).
* A table's updates reach the sockets other processes hold through ``LISTEN``/``NOTIFY`` on one
  channel: an action's notice is sent in the transaction that appends it (so it is delivered
  if, and only when, the action is stored), the rest (who is connected, who is away, a rematch,
  an expired table) as they happen.  A process that missed notices (its listening connection
  broke) reads the log again.
* Each table's bots (and idle clocks) are driven by one process at a time: the one holding the
  table's lease, a session-level advisory lock.  A process holds a lock of its own too (its
  membership); when it dies its session ends and PostgreSQL releases both, every other process
  sees the membership gone within ``sweep_seconds``, and takes the orphaned tables' leases.
  A lease is only an economy, not the guarantee: two processes driving one table at once (a
  network split) still cannot write one position twice, and each bot move names the decision
  it answers, so a stale one is refused.

No broker of our own: the database's locks and notifications are all there is.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from torite.server.store import CHANNEL

log = logging.getLogger("torite.server")

#: the first key of the two-integer advisory locks that mark a live process ("tori")
NS_MEMBER = 0x746F7269
#: a notice's payload is at most 8000 bytes; ours are far smaller (an action's text, a few lists)
MAX_PAYLOAD = 7900


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as psycopg's own connection string, with TCP keep-alives so a peer
    that vanished from the network is noticed."""
    u = make_url(url).set(drivername="postgresql")
    query = dict(u.query)
    for k, v in {"keepalives": "1", "keepalives_idle": "10", "keepalives_interval": "5",
                 "keepalives_count": "3", "connect_timeout": "10"}.items():
        query.setdefault(k, v)
    return u.set(query=query).render_as_string(hide_password=False)


def lease_key(table_id: str) -> int:
    """The table's advisory lock: a signed 64-bit hash of its id."""
    return int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=8).digest(), "big", signed=True)


class Cluster:
    """This process's membership, its leases, and the notices it sends and hears."""

    def __init__(self, url: str, on_notice: Callable[[dict[str, Any]], None],
                 on_leases_lost: Callable[[], None], on_reconnected: Callable[[], Awaitable[None]]) -> None:
        self.dsn = libpq_url(url)
        self.member = 0
        self.leases: dict[str, int] = {}
        self._trying: set[str] = set()
        self._on_notice = on_notice
        self._on_leases_lost = on_leases_lost
        self._on_reconnected = on_reconnected
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._listen: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.up = asyncio.Event()

    # ------------------------------------------------------------ connections
    async def start(self) -> None:
        await self._connect_locks()
        await self._connect_listen()
        self._tasks = [asyncio.get_running_loop().create_task(self._listen_forever(), name="cluster-listen"),
                       asyncio.get_running_loop().create_task(self._watch_locks(), name="cluster-locks")]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for conn in (self._listen, self._locks):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self.leases.clear()

    async def _connect_locks(self) -> None:
        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        while True:  # a membership of our own: a fresh random number nobody holds
            member = secrets.randbelow(2**31 - 2) + 1
            cur = await conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (NS_MEMBER, member))
            row = await cur.fetchone()
            if row is not None and row[0]:
                break
        self.member = member
        self._locks = conn
        self.up.set()

    async def _connect_listen(self) -> None:
        conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        await conn.execute(f"LISTEN {CHANNEL}")
        self._listen = conn

    async def _listen_forever(self) -> None:
        while True:
            try:
                assert self._listen is not None
                async for n in self._listen.notifies():
                    try:
                        msg = json.loads(n.payload)
                    except ValueError:
                        continue
                    if isinstance(msg, dict) and msg.get("m") != self.member:
                        self._on_notice(msg)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("lost the notices from the database (%s): reconnecting", str(e).splitlines()[0])
            with contextlib.suppress(Exception):
                if self._listen is not None:
                    await self._listen.close()
            await self._reconnect(self._connect_listen)
            await self._on_reconnected()  # notices may have been missed: read the logs again

    async def _watch_locks(self) -> None:
        """A lock connection that breaks takes the leases with it: stop driving at once, then
        reconnect (as a new member) and let the sweep take tables again."""
        while True:
            await asyncio.sleep(1.0)
            try:
                assert self._locks is not None
                await self._locks.execute("SELECT 1")
                continue
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("lost the lock connection to the database (%s): this process drives no table "
                            "until it is back", str(e).splitlines()[0])
            self.up.clear()
            self.leases.clear()
            self._on_leases_lost()
            with contextlib.suppress(Exception):
                if self._locks is not None:
                    await self._locks.close()
            await self._reconnect(self._connect_locks)
            await self._on_reconnected()

    @staticmethod
    async def _reconnect(connect: Callable[[], Awaitable[None]]) -> None:
        delay = 0.5
        while True:
            try:
                await connect()
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._locks is None or not self.up.is_set():
            raise ConnectionError("no lock connection")
        cur = await self._locks.execute(sql, args)
        return await cur.fetchall() if cur.description is not None else []

    # ------------------------------------------------------------ leases
    async def try_lease(self, table_id: str) -> bool:
        """Drive ``table_id`` from now if no live process does."""
        if table_id in self.leases:
            return True
        if table_id in self._trying:
            return False  # asked already, the answer on its way: a second lock would be re-entered, never freed
        key = lease_key(table_id)
        self._trying.add(table_id)
        try:
            rows = await self._query("SELECT pg_try_advisory_lock(%s)", (key,))
        except Exception:
            return False
        finally:
            self._trying.discard(table_id)
        if rows and rows[0][0]:
            self.leases[table_id] = key
            return True
        return False

    async def release(self, table_id: str) -> None:
        key = self.leases.pop(table_id, None)
        if key is not None:
            with contextlib.suppress(Exception):
                await self._query("SELECT pg_advisory_unlock(%s)", (key,))

    async def live_members(self) -> set[int]:
        rows = await self._query("SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND classid = %s "
                                 "AND objsubid = 2 AND granted", (NS_MEMBER,))
        return {int(r[0]) for r in rows}

    # ------------------------------------------------------------ notices
    def payload(self, kind: str, table_id: str, **data: Any) -> str:
        return json.dumps({"m": self.member, "k": kind, "t": table_id, **data}, separators=(",", ":"))

    async def notify(self, kind: str, table_id: str, **data: Any) -> None:
        """Tell the other processes (best effort: a notice lost with the connection is made up
        for by the log, and by the next notice)."""
        text = self.payload(kind, table_id, **data)
        if len(text) > MAX_PAYLOAD:
            log.warning("notice %s for table %s too long to send (%d bytes)", kind, table_id, len(text))
            return
        with contextlib.suppress(Exception):
            await self._query("SELECT pg_notify(%s, %s)", (CHANNEL, text))
