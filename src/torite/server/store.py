"""The event store: a table is its options, seed and seats, plus an append-only log of actions.

Nothing else is persisted, because everything else (hands, tricks, scores) follows from
replaying the log through the rules.  That keeps the schema game-independent and lets a
restarted server rebuild every unfinished table exactly.

SQLAlchemy Core with portable column types only, so ``--db postgresql://…`` works unchanged;
the one SQLite-specific touch (WAL journal, relaxed fsync) is a connection pragma applied only
when the dialect is SQLite.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

log = logging.getLogger("torite.server")

#: the channel of the processes' notices (``torite.server.cluster``)
CHANNEL = "torite"
#: the transaction lock under which a process makes or updates the schema ("schema")
SCHEMA_LOCK = 0x736368656D61
#: the transaction lock under which a process counts the tables in play and adds one ("cap")
CAP_LOCK = 0x636170
#: threads a server process calls PostgreSQL from (one table's writes stay ordered by its lock);
#: SQLite has one writer, so one thread
DB_THREADS = 4

metadata = MetaData()

tables_t = Table(
    "tables", metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),          # JSON object: every game option
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),            # JSON list: {"kind", "level", "name"}
    Column("token_hashes", Text, nullable=False),     # JSON list: sha256 hex or null (bots)
    Column("settings", Text, nullable=False),         # JSON object: idle_seconds, bot_delay
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("result", Text, nullable=True),            # JSON Result once finished
    # added by issue 26 (an older database gets them, empty, when opened: see _add_missing_columns)
    Column("joined", Float, nullable=True),           # first time a person took a seat (tables of bots: created)
    Column("active", Float, nullable=True),           # the last action or seated join: for the idle expiry
    Column("abandoned", Float, nullable=True),        # when it expired unfinished: no longer in play
    Column("rematch", String(40), nullable=True),     # the table the same players moved on to
    Column("driver", Integer, nullable=True),         # PostgreSQL: the process that took its bots' lease
)

#: each hint a seat asked for (the record counts them): its own table, so stores made before
#: hints existed gain it by ``create_all`` and keep every row they had
hints_t = Table(
    "hints", metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

#: how many hints each seat took (one row a seat, counted up: a hint asked is no row of its
#: own, so asking in a loop does not grow the database); a seat's count is its rows in ``hints``
#: (written by an older torite) and its ``count`` here
hint_counts_t = Table(
    "hint_counts", metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("count", Integer, nullable=False),
)

actions_t = Table(
    "actions", metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)


_IN_PLAY = (tables_t.c.id == bindparam("tid")) & tables_t.c.abandoned.is_(None) & tables_t.c.finished.is_(None)
_APPEND = insert(actions_t)
_ACTIVE = update(tables_t).where(_IN_PLAY).values(active=bindparam("now"))
_FINISH = update(tables_t).where(_IN_PLAY).values(active=bindparam("now"), finished=bindparam("now"),
                                                  result=bindparam("result"))
_NOTIFY = select(func.pg_notify(bindparam("channel"), bindparam("payload")))
#: PostgreSQL: the append as one statement (one round trip, and a transaction of its own).  The
#: update takes the table's row lock (so an expiry waits for it, or it sees the expiry); the
#: action is inserted only if the table was updated, i.e. still in play; a position already taken
#: fails the whole statement; the notice goes with the inserted action (delivered at commit).
_PG_APPEND = """
WITH upd AS (
    UPDATE tables SET active = %(now)s,
        finished = CASE WHEN %(result)s::text IS NULL THEN finished ELSE %(now)s END,
        result = COALESCE(%(result)s::text, result)
    WHERE id = %(tid)s AND abandoned IS NULL AND finished IS NULL RETURNING id),
ins AS (
    INSERT INTO actions (table_id, idx, seat, action, at)
    SELECT id, %(idx)s, %(seat)s, %(action)s, %(now)s FROM upd RETURNING 1)
SELECT (SELECT count(*) FROM ins),
    (SELECT count(pg_notify(%(channel)s, %(notice)s)) FROM ins WHERE %(notice)s <> '')
"""


@dataclass
class TableRow:
    """One table as stored: enough to rebuild it by replay."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    settings: dict[str, Any]
    created: float
    finished: float | None = None
    result: dict[str, Any] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    #: how many hints each seat took (the seats after the last that took one may be left out)
    hints: list[int] = field(default_factory=list)
    joined: float | None = None
    abandoned: float | None = None
    rematch: str | None = None
    driver: int | None = None


def default_db_url() -> str:
    """``sqlite:///torite.db`` in the current directory: easy to find, easy to delete."""
    return "sqlite:///torite.db"


def _make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        if url in ("sqlite://", "sqlite:///:memory:"):
            # one shared connection, or every thread would see its own empty database
            eng = create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
        else:
            path = url.split("///", 1)[1] if "///" in url else ""
            if path:
                _private_file(Path(path).expanduser())
            # one connection, the process's own (see the pragmas)
            eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                pool_size=1, max_overflow=0)

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            if eng.pool.__class__ is not StaticPool:
                # before WAL is first used: the WAL's index is then in this process's memory, not
                # in a -shm file mapped into it.  A write to that mapping once the file cannot be
                # written (a file system remounted read-only, an immutable file) is a SIGBUS that
                # kills the process; a write() fails instead, and the server answers 503.  SQLite
                # is one process's database anyway (``torite serve --workers`` needs PostgreSQL).
                cur.execute("PRAGMA locking_mode=EXCLUSIVE")
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return eng
    # no ping before each use (a round trip per action): a connection the database dropped fails
    # once, is thrown away by the pool, and the next use gets a new one
    return create_engine(_with_driver(url), pool_size=DB_THREADS, max_overflow=2)


class _Lost(Exception):
    """A race lost inside a transaction: roll it back."""


#: one action to append: table id, position, seat, action text, the game's result if it ends it
Append = tuple[str, int, int, str, dict[str, Any] | None]


class TableCap(Exception):
    """As many tables as the server allows are in play: a new one is not stored."""


class TableGone(LookupError):
    """The table is no longer in play (finished or expired) or no longer stored."""


def _add_missing_columns(conn: Connection) -> None:
    """A database made by an older torite lacks the newer columns (all nullable): add them, so it
    keeps working and every game in it keeps replaying."""
    have = {c["name"] for c in inspect(conn).get_columns("tables")}
    for col in tables_t.columns:
        if col.name not in have:
            kind = col.type.compile(dialect=conn.dialect)
            conn.execute(text(f'ALTER TABLE tables ADD COLUMN "{col.name}" {kind}'))


def _private_file(path: Path) -> None:
    """Create the SQLite file readable by its owner only (0600) before SQLite opens it: the seed
    column tells every hidden card of the games in progress.  SQLite gives its ``-wal`` and
    ``-shm`` files the database file's mode.  A file someone else may read is made private."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("database %s could be read by others (mode %o): made private (600)", path, mode)
            path.chmod(mode & 0o700)
        return
    os.close(fd)


def _with_driver(url: str) -> str:
    """``postgresql://`` names SQLAlchemy's default driver, psycopg2; torite pins psycopg 3, so a
    plain PostgreSQL URL gets it (an explicit ``postgresql+driver://`` is left as written)."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


class Store:
    """Synchronous store; the server calls it from one writer thread so the log stays ordered."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        self.engine = _make_engine(self.url)
        #: PostgreSQL: several processes may share it (``torite.server.cluster``)
        self.postgres = self.engine.dialect.name == "postgresql"
        with self.engine.begin() as conn:
            if self.postgres:
                # several processes may start at once on one database: one makes the schema
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
            metadata.create_all(conn)
            _add_missing_columns(conn)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: TableRow, cap: int | None = None) -> None:
        """Store a new table; with ``cap``, only if fewer than ``cap`` tables are in play
        (:class:`TableCap` if not), the count and the insert one step: creations at once, in any
        process, never overshoot it."""
        with self.engine.begin() as conn:
            self._insert(conn, row, cap)

    def _insert(self, conn: Any, row: TableRow, cap: int | None = None) -> None:
        values = {"id": row.id, "game": row.game, "options": json.dumps(row.options), "seed": row.seed,
                  "seats": json.dumps(row.seats), "token_hashes": json.dumps(row.token_hashes),
                  "settings": json.dumps(row.settings), "created": row.created, "finished": row.finished,
                  "result": json.dumps(row.result) if row.result is not None else None,
                  "joined": row.joined, "active": row.created, "driver": row.driver}
        if cap is None:
            conn.execute(insert(tables_t).values(**values))
            return
        if self.postgres:
            # the insert's own count cannot see another transaction's new rows: one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": CAP_LOCK})
        # one statement: the count and the insert (SQLite's write lock spans it)
        in_play = select(func.count()).select_from(tables_t).where(
            tables_t.c.finished.is_(None), tables_t.c.abandoned.is_(None)).scalar_subquery()
        names = list(values)
        chosen = select(*[literal(values[n], type_=tables_t.c[n].type).label(n) for n in names]).where(in_play < cap)
        # RETURNING, not the row count (psycopg did not report an INSERT … SELECT's row as 1)
        if conn.execute(insert(tables_t).from_select(names, chosen).returning(tables_t.c.id)).first() is None:
            raise TableCap(cap)

    def append_action(self, table_id: str, idx: int, seat: int, action: str,
                      result: dict[str, Any] | None = None, notice: str | None = None) -> None:
        """Append one action; the (table, idx) primary key refuses a second action at a position
        (:class:`~sqlalchemy.exc.IntegrityError`: another writer had it).  ``result`` (the
        game's, when this action ends it) marks the table finished in the same transaction: a
        crash can never leave a finished game looking unfinished.  A table that expired
        meanwhile takes no action (:class:`TableGone`).  ``notice`` (PostgreSQL) is sent to the
        other processes by the same transaction: delivered when, and only if, it commits."""
        now = time.time()
        if self.postgres:
            self._append_pg(table_id, idx, seat, action, now, result, notice)
            return
        with self.engine.begin() as conn:
            # statements built once (the hot path: every action of every table)
            conn.execute(_APPEND, {"table_id": table_id, "idx": idx, "seat": seat, "action": action, "at": now})
            if result is None:
                done = conn.execute(_ACTIVE, {"tid": table_id, "now": now})
            else:
                done = conn.execute(_FINISH, {"tid": table_id, "now": now, "result": json.dumps(result)})
            if done.rowcount != 1:
                raise TableGone(table_id)
            if notice is not None and self.postgres:
                conn.execute(_NOTIFY, {"channel": CHANNEL, "payload": notice})

    def append_actions(self, batch: Sequence[Append]) -> list[Exception | None]:
        """Several tables' actions (SQLite: the server's one writer thread hands over all that
        queued while it wrote the last ones) in one transaction: one commit, and one statement
        for the inserts and one for the tables' marks, instead of a transaction each (about an
        eighth of the work per action at a few hundred actions a second).  Each gets its own
        outcome, as from :meth:`append_action` (None: stored): if anything in the batch fails,
        nothing of it was written and each is written again on its own."""
        if len(batch) == 1 or self.postgres:
            return [self._outcome(*a) for a in batch]
        now = time.time()
        active = [{"tid": a[0], "now": now} for a in batch if a[4] is None]
        try:
            with self.engine.begin() as conn:
                conn.execute(_APPEND, [{"table_id": t, "idx": i, "seat": s, "action": x, "at": now}
                                       for t, i, s, x, _r in batch])
                if active and conn.execute(_ACTIVE, active).rowcount != len(active):
                    raise _Lost
                for t, _i, _s, _x, result in batch:
                    if result is not None and conn.execute(
                            _FINISH, {"tid": t, "now": now, "result": json.dumps(result)}).rowcount != 1:
                        raise _Lost
        except (_Lost, IntegrityError):
            return [self._outcome(*a) for a in batch]  # which one it was, each on its own
        return [None] * len(batch)

    def _outcome(self, table_id: str, idx: int, seat: int, action: str, result: dict[str, Any] | None,
                 ) -> Exception | None:
        try:
            self.append_action(table_id, idx, seat, action, result)
        except (TableGone, IntegrityError) as e:
            return e
        return None

    def _append_pg(self, table_id: str, idx: int, seat: int, action: str, now: float,
                   result: dict[str, Any] | None, notice: str | None) -> None:
        """The same on PostgreSQL in one statement, so one round trip: a statement is a
        transaction of its own, the insert, the table's mark and the notice all or nothing."""
        params = {"tid": table_id, "idx": idx, "seat": seat, "action": action, "now": now,
                  "result": json.dumps(result) if result is not None else None,
                  "channel": CHANNEL, "notice": notice or ""}
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            row = conn.exec_driver_sql(_PG_APPEND, params).one()
        if row[0] != 1:
            raise TableGone(table_id)

    def actions_since(self, table_id: str, start: int) -> list[tuple[int, str]]:
        """The log from position ``start`` on: what another process appended."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(actions_t.c.idx, actions_t.c.seat, actions_t.c.action)
                                .where(actions_t.c.table_id == table_id, actions_t.c.idx >= start)
                                .order_by(actions_t.c.idx)).all()
        out: list[tuple[int, str]] = []
        for i, (idx, seat, action) in enumerate(rows, start=start):
            if idx != i:
                raise ValueError(f"table {table_id}: action log has a gap at {i}")
            out.append((int(seat), str(action)))
        return out

    def orphans(self, live: set[int], me: int) -> list[str]:
        """Tables in play that no live process drives (nobody took them, their driver died, or
        it is this process, which lost its lock connection and must take them again)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id, tables_t.c.driver).where(
                tables_t.c.finished.is_(None), tables_t.c.abandoned.is_(None)).order_by(tables_t.c.created)).all()
        return [r.id for r in rows if r.driver is None or r.driver == me or r.driver not in live]

    def set_driver(self, table_id: str, member: int | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(driver=member))

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        """``seat``'s name, as its player chose it at the table (the seats read and written in one
        transaction, locked on PostgreSQL: two players naming themselves at once keep both)."""
        with self.engine.begin() as conn:
            q = select(tables_t.c.seats).where(tables_t.c.id == table_id)
            row = conn.execute(q.with_for_update() if self.postgres else q).first()
            if row is None:
                return
            seats = json.loads(row.seats)
            if 0 <= seat < len(seats):
                seats[seat]["name"] = name
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(seats=json.dumps(seats)))

    def add_hints(self, table_id: str, seat: int, more: int) -> None:
        """Count ``more`` hints taken by ``seat``: its one row counted up (made by the first)."""
        for attempt in range(2):
            try:
                with self.engine.begin() as conn:
                    done = conn.execute(update(hint_counts_t).where(
                        (hint_counts_t.c.table_id == table_id) & (hint_counts_t.c.seat == seat))
                        .values(count=hint_counts_t.c.count + more)).rowcount
                    if not done:
                        conn.execute(insert(hint_counts_t).values(table_id=table_id, seat=seat, count=more))
                return
            except IntegrityError:  # another process made the row meanwhile: count it up
                if attempt:
                    raise

    def finish_table(self, table_id: str, result: dict[str, Any]) -> None:
        """Mark a table finished whose log ends the game (a database written before the mark and
        the last action shared a transaction: healed when the table is rebuilt)."""
        with self.engine.begin() as conn:
            self._finish(conn, table_id, result)

    @staticmethod
    def _finish(conn: Any, table_id: str, result: dict[str, Any]) -> None:
        conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                     .values(finished=time.time(), result=json.dumps(result)))

    def _row(self, r: Any) -> TableRow:
        return TableRow(id=r.id, game=r.game, options=json.loads(r.options), seed=int(r.seed),
                        seats=json.loads(r.seats), token_hashes=json.loads(r.token_hashes),
                        settings=json.loads(r.settings), created=r.created, finished=r.finished,
                        result=json.loads(r.result) if r.result is not None else None,
                        joined=r.joined, abandoned=r.abandoned, rematch=r.rematch, driver=r.driver)

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            row = self._row(r)
            row.actions = self._actions(conn, table_id)
            row.hints = self._hints(conn, table_id)
            return row

    def _hints(self, conn: Any, table_id: str) -> list[int]:
        """How many hints each seat took (seats past the last that took one left out)."""
        counts: dict[int, int] = {}
        for (seat,) in conn.execute(select(hints_t.c.seat).where(hints_t.c.table_id == table_id)).all():
            counts[int(seat)] = counts.get(int(seat), 0) + 1
        for seat, n in conn.execute(select(hint_counts_t.c.seat, hint_counts_t.c.count)
                                    .where(hint_counts_t.c.table_id == table_id)).all():
            counts[int(seat)] = counts.get(int(seat), 0) + int(n)
        return [counts.get(s, 0) for s in range(max(counts, default=-1) + 1)]

    def _actions(self, conn: Any, table_id: str) -> list[tuple[int, str]]:
        rows = conn.execute(select(actions_t.c.idx, actions_t.c.seat, actions_t.c.action)
                            .where(actions_t.c.table_id == table_id).order_by(actions_t.c.idx)).all()
        out: list[tuple[int, str]] = []
        for i, (idx, seat, action) in enumerate(rows):
            if idx != i:
                raise ValueError(f"table {table_id}: action log has a gap at {i}")
            out.append((int(seat), str(action)))
        return out

    def prune(self, finished_before: float) -> list[str]:
        """Delete the tables finished (or abandoned) before ``finished_before`` (epoch seconds)
        with their logs; their ids, so the server can drop them from memory too.  A table in
        play is never pruned: a game in progress is kept however old it is."""
        with self.engine.begin() as conn:
            done = tables_t.c.finished.is_not(None) & (tables_t.c.finished < finished_before)
            gone = tables_t.c.abandoned.is_not(None) & (tables_t.c.abandoned < finished_before)
            ids = [r.id for r in conn.execute(select(tables_t.c.id).where(done | gone))]
            if ids:
                conn.execute(update(tables_t).where(tables_t.c.rematch.in_(ids)).values(rematch=None))
                conn.execute(delete(actions_t).where(actions_t.c.table_id.in_(ids)))
                conn.execute(delete(hints_t).where(hints_t.c.table_id.in_(ids)))
                conn.execute(delete(hint_counts_t).where(hint_counts_t.c.table_id.in_(ids)))
                conn.execute(delete(tables_t).where(tables_t.c.id.in_(ids)))
        return ids

    def expire(self, now: float, unjoined_before: float, idle_before: float) -> list[str]:
        """Mark abandoned every table in play that no person joined since before
        ``unjoined_before``, or where nothing happened since before ``idle_before``; their ids.
        An abandoned table is out of play (not rebuilt, not counted, pruned with the finished);
        the condition is checked again in the update, so an action that lands meanwhile wins."""
        stale = tables_t.c.finished.is_(None) & tables_t.c.abandoned.is_(None) & (
            (tables_t.c.joined.is_(None) & (tables_t.c.created < unjoined_before))
            | (func.coalesce(tables_t.c.active, tables_t.c.created) < idle_before))
        with self.engine.begin() as conn:
            ids = [r.id for r in conn.execute(select(tables_t.c.id).where(stale))]
            if not ids:
                return []
            conn.execute(update(tables_t).where(tables_t.c.id.in_(ids), stale).values(abandoned=now))
            return [r.id for r in conn.execute(select(tables_t.c.id).where(tables_t.c.id.in_(ids),
                                                                           tables_t.c.abandoned == now))]

    def mark_active(self, table_ids: list[str], now: float) -> None:
        """People sit at these tables now: each is joined, and none is idle."""
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id.in_(table_ids)).values(
                active=now, joined=func.coalesce(tables_t.c.joined, now)))

    def in_play(self) -> int:
        """How many tables are being played: neither finished nor abandoned."""
        with self.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(tables_t).where(
                tables_t.c.finished.is_(None), tables_t.c.abandoned.is_(None))).scalar_one()
            return int(n)

    def create_rematch(self, table_id: str, row: TableRow, cap: int | None = None) -> str:
        """The table the players of ``table_id`` move on to: ``row``, created now, or the one a
        rematch asked earlier (by anyone, in any process) created; its id.  One transaction,
        so two asks at once make one table; with ``cap``, a new one only within it (as
        :meth:`create_table`)."""
        try:
            with self.engine.begin() as conn:
                found = conn.execute(select(tables_t.c.rematch).where(tables_t.c.id == table_id)).scalar_one_or_none()
                if found is not None:
                    return str(found)
                self._insert(conn, row, cap)
                done = conn.execute(update(tables_t).where(tables_t.c.id == table_id, tables_t.c.rematch.is_(None))
                                    .values(rematch=row.id))
                if done.rowcount != 1:
                    raise _Lost  # another ask won meanwhile: take its table back out
                return row.id
        except _Lost:
            pass
        with self.engine.connect() as conn:
            return str(conn.execute(select(tables_t.c.rematch).where(tables_t.c.id == table_id)).scalar_one())

    def unfinished(self) -> Iterator[TableRow]:
        """Every table still being played, with its log: what a restart must rebuild."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t).where(tables_t.c.finished.is_(None), tables_t.c.abandoned.is_(None))
                                .order_by(tables_t.c.created)).all()
            for r in rows:
                row = self._row(r)
                row.actions = self._actions(conn, row.id)
                row.hints = self._hints(conn, row.id)
                yield row
