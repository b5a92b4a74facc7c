"""Three server processes on one PostgreSQL, for real (issue 26): the clients of one table on
different processes see the same game, and a kill -9 of a process loses no acknowledged action;
its tables' bots carry on in the others, and no bot moves twice.

Runs when ``TORITE_TEST_POSTGRES`` is set (``.ci/run`` sets it), each run on a database of its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from torite.engine.registry import make_game
from torite.server.store import Store

GAME = "trick-of-the-dead"
Msg = dict[str, Any]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Servers:
    """``torite serve`` processes on one database, each on its own port (a load balancer would
    send any request to any of them)."""

    def __init__(self, db: str, n: int) -> None:
        self.db = db
        self.ports = [_port() for _ in range(n)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * n
        for i in range(n):
            self.start(i)
        for i in range(n):
            self.wait_up(i)

    def start(self, i: int) -> None:
        cmd = [sys.executable, "-m", "torite", "serve", "--db", self.db, "--port", str(self.ports[i]),
               "--log-level", "warning", "--tables-per-minute", "100000", "--sockets-per-address", "1000"]
        self.procs[i] = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)

    def wait_up(self, i: int) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(self.url(i) + "/api/games", timeout=2).raise_for_status()
                return
            except httpx.HTTPError:
                proc = self.procs[i]
                assert proc is not None and proc.poll() is None, "a server process did not start"
                assert time.monotonic() < deadline, "a server process did not answer"
                time.sleep(0.1)

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def ws(self, i: int, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.ports[i]}/ws/tables/{table_id}"

    def kill(self, i: int) -> None:
        """kill -9, of the server and of its bot workers (its process group)."""
        proc = self.procs[i]
        assert proc is not None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        self.procs[i] = None

    def stop(self) -> None:
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            if proc is not None:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def pg_url(db_url: str) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL only (SQLite is the single-process default)")
    return db_url


@pytest.fixture
def servers(pg_url: str) -> Iterator[Servers]:
    Store(pg_url).close()  # the schema, once
    s = Servers(pg_url, 3)
    try:
        yield s
    finally:
        s.stop()


def _table(servers: Servers, i: int, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(servers.url(i) + "/api/tables", json={"game": GAME, "seats": seats, **extra}, timeout=30)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def _recv(ws: ClientConnection, pred: Any, timeout: float = 30.0) -> Msg:
    deadline = time.monotonic() + timeout
    while True:
        m: Msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
        if pred(m):
            return m


class Player:
    """A person at one seat, on one process, playing random legal moves; every action the
    server acknowledged is kept, with its position."""

    def __init__(self, servers: Servers, table: dict[str, Any], seat: int, process: int, seed: int) -> None:
        self.servers, self.table, self.seat, self.process = servers, table, seat, process
        self.rng = random.Random(seed)
        self.acked: list[tuple[int, str]] = []  # (position, action)
        self.last: Msg | None = None

    async def play(self, stop_after: int | None = None) -> Msg:
        """Until the game ends (or ``stop_after`` acknowledged actions); a dropped connection is
        made again to the next process, as a load balancer would."""
        while True:
            try:
                async with connect(self.servers.ws(self.process, self.table["id"]), open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "join", "seat": self.seat,
                                              "token": self.table["seats"][self.seat]["token"]}))
                    while True:
                        m = await _recv(ws, lambda m: m["type"] in ("state", "ack", "error"))
                        if m["type"] == "ack":
                            self.acked.append((m["n"] - 1, m["action"]))
                            if stop_after is not None and len(self.acked) >= stop_after:
                                return m
                            continue
                        if m["type"] == "error":
                            assert m["code"] in ("stale", "not_your_turn"), m
                            continue
                        self.last = m
                        if m["over"]:
                            return m
                        if self.seat in m["to_act"] and m["legal"]:
                            await ws.send(json.dumps({"type": "act", "decision": m["decision_no"],
                                                      "action": self.rng.choice(m["legal"])["text"]}))
            except (ConnectionClosed, OSError, TimeoutError):
                alive = [i for i, p in enumerate(self.servers.procs) if p is not None]
                self.process = alive[(alive.index(self.process) + 1) % len(alive)] \
                    if self.process in alive else alive[0]
                await asyncio.sleep(0.2)


def _replayed(store: Store, table_id: str) -> tuple[list[tuple[int, str]], bool]:
    """The table's log, checked action by action through the rules (each in turn and legal)."""
    row = store.load_table(table_id)
    assert row is not None
    state = make_game(row.game, row.options).new_state(row.seed)
    for seat, text in row.actions:
        assert seat in state.to_act(), f"{table_id}: {seat} {text} out of turn"
        state.apply_text(seat, text)
    return row.actions, state.is_over()


def test_clients_of_one_table_on_three_processes_see_the_same_game(servers: Servers, pg_url: str) -> None:
    people = _table(servers, 0, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "normal"}],
                    options={"target": 1}, settings={"bot_delay": 0.1})
    store = Store(pg_url)
    creator = store.load_table(people["id"]).driver  # type: ignore[union-attr]

    async def play() -> tuple[Msg, Msg, Msg]:
        a = Player(servers, people, 0, 1, seed=1)
        b = Player(servers, people, 1, 2, seed=2)
        async with connect(servers.ws(0, people["id"])) as spectator:
            await spectator.send(json.dumps({"type": "join", "seat": None}))
            end_a, end_b = await asyncio.gather(a.play(), b.play())
            seen = await _recv(spectator, lambda m: m["type"] == "state" and m["over"])
        return end_a, end_b, seen

    end_a, end_b, seen = asyncio.run(play())
    assert end_a["n"] == end_b["n"] == seen["n"] and end_a["result"] == end_b["result"] == seen["result"]
    assert seen["seats"][0]["name"] == end_a["seats"][0]["name"]
    try:
        log, over = _replayed(store, people["id"])
        assert over and len(log) == seen["n"]
        # the bots went to a process the players are at (process 0 holds only the spectator)
        assert creator is not None and store.load_table(people["id"]).driver != creator  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_killed_process_loses_no_acknowledged_action_and_its_bots_carry_on_elsewhere(
        servers: Servers, pg_url: str) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 3
    slow = {"bot_delay": 0.15}
    # process 0 creates (and so drives) these: the kill takes their driver away
    auto = [_table(servers, 0, bots, options={"target": 40}, settings=slow) for _ in range(4)]
    people = [_table(servers, 0, [{"kind": "human"}, {"kind": "bot", "level": "normal"},
                                  {"kind": "bot", "level": "random"}], options={"target": 20}, settings=slow)
              for _ in range(3)]
    store = Store(pg_url)

    async def run() -> list[Player]:
        players = [Player(servers, t, 0, i % 3, seed=i) for i, t in enumerate(people)]
        games = [asyncio.create_task(p.play()) for p in players]
        await asyncio.sleep(3.0)
        before = {t["id"]: len(store.load_table(t["id"]).actions) for t in auto}  # type: ignore[union-attr]
        assert all(n > 0 for n in before.values()), "the bots never started"
        servers.kill(0)
        # the other processes take the orphaned tables within seconds, and their bots play on
        deadline = time.monotonic() + 20
        while True:
            now = {t["id"]: len(store.load_table(t["id"]).actions) for t in auto}  # type: ignore[union-attr]
            if all(now[k] > before[k] + 3 for k in now):
                break
            assert time.monotonic() < deadline, f"bots did not carry on after the kill: {before} -> {now}"
            await asyncio.sleep(0.2)
        await asyncio.wait_for(asyncio.gather(*games), 40)
        return players

    try:
        players = asyncio.run(run())
        for p in players:
            log, over = _replayed(store, p.table["id"])
            assert over
            for pos, action in p.acked:
                assert log[pos] == (p.seat, action), f"acknowledged action {pos} ({action}) was lost"
        for t in auto:
            _replayed(store, t["id"])  # every bot move in turn and legal: none moved twice
    finally:
        store.close()


def test_serve_workers_needs_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    from torite.cli.main import main

    assert main(["serve", "--workers", "2", "--db", "sqlite:///x.db"]) == 2
    assert "needs PostgreSQL" in capsys.readouterr().err


def test_serve_workers_runs_several_processes_on_one_port(pg_url: str) -> None:
    port = _port()
    proc = subprocess.Popen([sys.executable, "-m", "torite", "serve", "--workers", "2", "--db", pg_url,
                             "--port", str(port), "--log-level", "warning"], start_new_session=True)
    store = Store(pg_url)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, "torite serve --workers 2 did not start"
                time.sleep(0.1)
        ids: list[str] = []
        drivers: set[int | None] = set()
        while len(drivers) < 2 and len(ids) < 40:  # each on a new connection: the kernel picks a process
            r = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10, json={
                "game": GAME, "options": {"target": 1}, "seats": [{"kind": "bot", "level": "random"}] * 3})
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
            drivers.add(store.load_table(ids[-1]).driver)  # type: ignore[union-attr]
        assert len(drivers) == 2, drivers  # both processes made and drive tables
        deadline = time.monotonic() + 60
        while not all(_replayed(store, i)[1] for i in ids):
            assert time.monotonic() < deadline, "the tables did not finish"
            time.sleep(0.2)
    finally:
        store.close()
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
