"""The event store and a restarted server, on SQLite and on PostgreSQL.

PostgreSQL runs (the ``db_url`` fixture of ``conftest.py``) when ``TORITE_TEST_POSTGRES`` names a
database whose role may create databases (``.ci/run`` starts Debian's server with
``scripts/ci_postgres.sh`` and sets it); each test gets a database of its own, dropped afterwards,
so parallel workers and restarts never see each other's tables.  Without the variable those cases
are skipped with that reason; SQLite always runs.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import warnings
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError, OperationalError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.engine.registry import make_game
from torite.record import Record, replay
from torite.server.app import create_app
from torite.server.store import Store, TableGone, TableRow, _with_driver
from torite.server.tables import TableError, TableManager

from .test_server import join, new_table, play_out, token


def _row(table_id: str, *, finished: float | None = None) -> TableRow:
    return TableRow(id=table_id, game="trick-of-the-dead", options={"target": 1}, seed=2**53 - 1,
                    seats=[{"kind": "human"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "random"}],
                    token_hashes=["ab" * 32, None, None], settings={"idle_seconds": 60}, created=time.time(),
                    finished=finished, result=None)


def test_actions_stored_together_each_get_their_own_outcome(db_url: str) -> None:
    # the server's writer stores every table's waiting actions in one transaction: one that
    # cannot be stored (a position taken, a table no longer in play) costs the others nothing
    store = Store(db_url)
    try:
        for t in ("a", "b", "c", "gone"):
            store.create_table(_row(t))
        store.finish_table("gone", {"scores": [0, 0, 0]})
        assert store.append_actions([("a", 0, 0, "bury KC QC", None), ("b", 0, 0, "bury 2D 3D", None)]) == [None, None]
        out = store.append_actions([("a", 1, 1, "bury 4S 5S", None), ("b", 0, 1, "bury 6S 7S", None),
                                    ("gone", 0, 0, "bury 2C 3C", None),
                                    ("c", 0, 0, "bury 8S 9S", {"scores": [1, 2, 3]})])
        assert out[0] is None and out[3] is None
        assert isinstance(out[1], IntegrityError) and isinstance(out[2], TableGone)
        a, b, c, gone = (store.load_table(t) for t in ("a", "b", "c", "gone"))
        assert a is not None and a.actions == [(0, "bury KC QC"), (1, "bury 4S 5S")]
        assert b is not None and b.actions == [(0, "bury 2D 3D")]
        # the action that ends a game and its mark went together
        assert c is not None and c.actions == [(0, "bury 8S 9S")] and c.result == {"scores": [1, 2, 3]} and c.finished
        assert gone is not None and gone.actions == []
    finally:
        store.close()


def test_the_store_keeps_tables_and_their_action_logs(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_table(_row("t1"))
        for i, a in enumerate(["bury KC QC", "bury 2D 3D"]):
            store.append_action("t1", i, i, a)
        with pytest.raises(IntegrityError):
            store.append_action("t1", 1, 0, "bury 4S 5S")  # the log refuses a second action 1
        row = store.load_table("t1")
        assert row is not None and row.seed == 2**53 - 1 and row.options == {"target": 1}
        assert row.actions == [(0, "bury KC QC"), (1, "bury 2D 3D")]
        assert [r.id for r in store.unfinished()] == ["t1"]
        store.finish_table("t1", {"scores": [1, 2, 3]})
        assert list(store.unfinished()) == [] and store.load_table("t1").result == {"scores": [1, 2, 3]}  # type: ignore[union-attr]
        assert store.load_table("missing") is None
    finally:
        store.close()


def test_finished_tables_older_than_the_retention_are_pruned_and_games_in_progress_never(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_table(_row("old"))
        store.append_action("old", 0, 0, "bury KC QC")
        store.finish_table("old", {})
        store.create_table(_row("playing"))
        cutoff = time.time() + 1
        store.create_table(_row("new"))
        assert store.prune(cutoff - 3600) == []  # nothing finished that long ago
        assert store.prune(cutoff) == ["old"]
        assert store.load_table("old") is None
        assert store.load_table("playing") is not None and store.load_table("new") is not None
    finally:
        store.close()


def test_a_restarted_server_rebuilds_unfinished_tables_and_finishes_them(db_url: str) -> None:
    with TestClient(create_app(db_url)) as c1:
        human = new_table(c1, target=30)
        bots = new_table(c1, [{"kind": "bot", "level": "random"}] * 3, target=30, settings={"bot_delay": 0.02})
        with c1.websocket_connect(f"/ws/tables/{human['id']}") as ws:
            mid = play_out(ws, 0, random.Random(2), stop_after=6, first=join(ws, 0, token(human, 0)))
        _wait(lambda: c1.get(f"/api/tables/{bots['id']}").json()["n"] >= 5)
    assert not mid["over"]
    with TestClient(create_app(db_url)) as c2:
        info = c2.get(f"/api/tables/{human['id']}").json()
        assert info["n"] == mid["n"] and not info["over"]
        with c2.websocket_connect(f"/ws/tables/{human['id']}") as ws:
            first = join(ws, 0, token(human, 0))
            assert first["hand"] == mid["hand"] and first["log_from"] == 0
            end = play_out(ws, 0, random.Random(3), first=first)
        assert end["over"]
        _wait(lambda: c2.get(f"/api/tables/{bots['id']}").json()["over"])  # its bots resumed by themselves
        for t in (human, bots):
            rec = Record.from_json(c2.get(f"/api/tables/{t['id']}/record").json())
            assert replay(rec).is_over()


def _wait(pred: object, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not pred():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_plain_postgresql_url_gets_the_pinned_driver() -> None:
    assert _with_driver("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert _with_driver("postgres://h/db") == "postgresql+psycopg://h/db"
    assert _with_driver("postgresql+asyncpg://h/db") == "postgresql+asyncpg://h/db"
    assert _with_driver("sqlite:///x.db") == "sqlite:///x.db"


def test_a_new_sqlite_database_and_its_journal_files_are_private_to_their_owner(tmp_path: Path) -> None:
    """The seed column tells every hidden card of the games in progress: 0600, whatever the umask."""
    old = os.umask(0o022)
    try:
        path = tmp_path / "sub" / "torite.db"
        store = Store(f"sqlite:///{path}")
        try:
            store.create_table(_row("t1"))
            store.append_action("t1", 0, 0, "bury KC QC")
            files = [p for p in path.parent.iterdir() if p.name.startswith("torite.db")]
            assert {p.name for p in files} >= {"torite.db", "torite.db-wal"}
            for p in files:
                assert p.stat().st_mode & 0o777 == 0o600, p.name
        finally:
            store.close()
        # a database someone else may read is made private when opened
        path.chmod(0o644)
        Store(f"sqlite:///{path}").close()
        assert path.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def _fail_on(store: Store, fragment: str) -> list[bool]:
    """Make every statement containing ``fragment`` fail while the returned switch is on."""
    switch = [True]

    @event.listens_for(store.engine, "before_cursor_execute")
    def _boom(conn: object, cursor: object, statement: str, *args: object) -> None:
        if switch[0] and fragment in statement:
            raise OperationalError(statement, {}, Exception("injected failure"))

    return switch


def _random_game(seed: int) -> list[tuple[int, str]]:
    game = make_game("trick-of-the-dead", {"target": 1})
    state = game.new_state(seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over():
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        out.append((seat, str(action)))
    return out


def test_the_last_action_and_the_finished_mark_are_one_transaction(db_url: str) -> None:
    """A failure while marking the table finished takes the last action back with it: the log
    never ends a game the table row calls unfinished."""
    store = Store(db_url)
    actions = _random_game(11)

    async def play() -> None:
        manager = TableManager(store)
        await manager.start()
        table, _ = await manager.create("trick-of-the-dead", {"target": 1}, [{"kind": "human"}] * 3, seed=11)
        for seat, action in actions[:-1]:
            await manager.act(table, seat, action)
        switch = _fail_on(store, "UPDATE tables")
        with pytest.raises(TableError) as refused:
            await manager.act(table, *actions[-1])
        assert refused.value.code == "storage"
        row = store.load_table(table.id)
        assert row is not None and row.finished is None and len(row.actions) == len(actions) - 1
        assert not table.over and len(table.actions) == len(actions) - 1  # nothing changed in memory
        switch[0] = False
        await manager.act(table, *actions[-1])
        row = store.load_table(table.id)
        assert row is not None and row.finished is not None and row.actions == actions
        await manager.stop()

    try:
        asyncio.run(play())
    finally:
        store.close()


def test_a_table_whose_log_ends_the_game_is_marked_finished_at_start(db_url: str) -> None:
    """A database written before the mark shared the last action's transaction: healed."""
    store = Store(db_url)
    try:
        store.create_table(_row("done"))
        row = _row("done")
        game = make_game(row.game, row.options)
        state = game.new_state(row.seed)
        rng = random.Random(3)
        i = 0
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            store.append_action("done", i, seat, str(action))  # no result: the old, separate mark
            i += 1
        assert [r.id for r in store.unfinished()] == ["done"]

        async def start() -> TableManager:
            manager = TableManager(store)
            await manager.start()
            await manager.stop()
            return manager

        manager = asyncio.run(start())
        assert "done" not in manager.tables
        healed = store.load_table("done")
        assert healed is not None and healed.finished is not None and healed.result == state.result().to_json()
        assert list(store.unfinished()) == []
    finally:
        store.close()
