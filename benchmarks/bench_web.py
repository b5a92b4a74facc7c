"""Many tables at once over real WebSockets on 127.0.0.1: throughput, latency, CPU, memory; several
server processes on one PostgreSQL, kill -9s, and abuse with a bystander.

Starts ``--processes`` server processes (uvicorn with the torite app, each on its own port, as
behind a load balancer; a fresh SQLite file, or a fresh PostgreSQL database made with
``--pg ADMIN_URL`` and dropped after), creates N tables (default 100) of Trick of the Dead where
seat 0 is a "client bot" playing uniformly random legal moves over its socket and the other
seats are server bots; a finished game is replaced by a new table so the load stays steady.
Table i is created through process i+1 and played through process i, so with several processes
every action crosses between them.  The tables' first moves are spread over ``--stagger`` seconds
(the warmup's), so games end, and new tables are made, at every moment rather than in one burst.
After ``--warmup`` seconds it measures for ``--seconds``:

* moves/s: every action the server applied (client and server bots), and the clients' share;
* latency: from sending an action to receiving the first state that includes it (p50, p99, max);
* CPU: the server processes' (their bot workers' apart) over the measured time, in % of a core;
* errors: error messages and failed connections; memory: server RSS before and with the tables.

``--kills K`` kill -9 the server processes in turn (each with its bot workers), K times spread over
the run, each restarted at once as a supervisor would; the clients of a killed process connect
to the next.  At the end every acknowledged action is looked up in the log (``lost``), and every
table's log is replayed through the rules (``bad_logs``: an action out of turn, a bot that moved
twice).  ``--abuse KIND`` runs an abuse from another address (127.0.0.2) while the tables (from
127.0.0.3) are the bystanders, with the server's default limits: ``flood`` (10 sockets sending as
fast as they can), ``storm`` (200 spectators joining and leaving one table), ``mute`` (100 sockets
sending unknown frames and never reading), ``pings`` (bursts of 5,000 pings), ``hard`` (4 tables
of hard bots playing Mighty), ``tables`` (table creations as fast as refused).  The abuser runs in
a process of its own at the lowest priority (its CPU would come from elsewhere).

    .venv/bin/python benchmarks/bench_web.py [--tables 100] [--seconds 20] [--warmup 5] [--bots normal]
        [--think 0.5] [--bot-delay 0.3] [--stagger 5] [-o target=100] [--processes 3 --pg postgresql://…/postgres]
        [--kills 10] [--abuse flood] [--baseline /tmp/old/src] [--nice -10] [--json]

``--baseline SRC`` runs the server from another checkout's ``src`` (say, ``main``'s), with the
same clients, to compare on one machine on one day.  With ``--think 0`` and ``--bot-delay 0``
every table plays flat out, so the server is saturated and the latency is mostly queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

GAME = "trick-of-the-dead"
#: the languages the clients read in turn (each socket asks for its own, as the browser does)
LANGS = ("en", "ja", "ko")
ROOT = Path(__file__).resolve().parents[1]
#: limits lifted for the plain runs: every simulated player comes from 127.0.0.1
LIFTED = {"tables_per_minute": 1e6, "tables_burst": 10**6, "messages_per_second": 1e6, "messages_burst": 10**6,
          "address_messages_per_second": 1e6, "address_messages_burst": 10**6, "sockets_per_address": 10**6,
          "sockets_per_table": 10**6, "connects_per_second": 1e6, "connects_burst": 10**6}
#: in an abuse run only the bystanders' table creations are lifted (they are few and legitimate)
ABUSE = {"tables_per_minute": 600.0, "tables_burst": 200}
BYSTANDER = "127.0.0.3"
ABUSER = "127.0.0.2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU of one process (not its children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def set_group_nice(pid: int, nice: int) -> None:
    """With the kernel's autogroups (``sched_autogroup_enabled``) every session shares the CPU
    equally whatever its processes' nice: the session's own nice is what counts."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/autogroup").write_text(str(nice))


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


# ------------------------------------------------------------------ servers
class Servers:
    def __init__(self, db: str, n: int, limits: dict[str, Any], src: str | None, deflate: bool = True) -> None:
        self.db, self.limits, self.src, self.deflate = db, limits, src, deflate
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[subprocess.Popen[bytes]] = []
        for i in range(n):
            self.procs.append(self._spawn(i))
        for i in range(n):
            self.wait(i)

    def _spawn(self, i: int) -> subprocess.Popen[bytes]:
        code = ("import dataclasses, uvicorn\n"
                "from torite.server.app import create_app\n"
                "from torite.server.limits import ServerLimits\n"
                "fields = {f.name for f in dataclasses.fields(ServerLimits)}\n"
                f"limits = ServerLimits(**{{k: v for k, v in {self.limits!r}.items() if k in fields}})\n"
                f"uvicorn.run(create_app({self.db!r}, limits=limits), host='127.0.0.1', port={self.ports[i]}, "
                f"log_level='error', ws_per_message_deflate={self.deflate!r})\n")
        env = os.environ.copy()
        if self.src:
            env["PYTHONPATH"] = self.src
        return subprocess.Popen([sys.executable, "-c", code], env=env, start_new_session=True)

    def wait(self, i: int) -> None:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{self.ports[i]}/api/games", timeout=2).raise_for_status()
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline or self.procs[i].poll() is not None:
                    raise RuntimeError("a server process did not start") from None
                time.sleep(0.1)

    def kill_and_restart(self, i: int) -> None:
        os.killpg(self.procs[i].pid, signal.SIGKILL)
        self.procs[i].wait()
        self.procs[i] = self._spawn(i)

    def cpu(self) -> tuple[float, float, float]:
        """CPU seconds so far: the server processes, their bot workers, and the PostgreSQL
        backends serving this run's database."""
        servers = sum(cpu_seconds(p.pid) for p in self.procs)
        workers = sum(cpu_seconds(c) for p in self.procs for c in children(p.pid))
        db = sum(cpu_seconds(pid) for pid in self._db_backends())
        return servers, workers, db

    def renice(self, nice: int) -> None:
        """The servers' sessions and the PostgreSQL backends serving this run, at the run's
        priority (each server is a session of its own; the postmaster started the backends)."""
        for p in self.procs:
            set_group_nice(p.pid, nice)
        for pid in self._db_backends():
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, pid, nice)
            set_group_nice(pid, nice)

    def _db_backends(self) -> list[int]:
        if not self.db.startswith("postgresql"):
            return []
        name = self.db.rsplit("/", 1)[1].encode()
        pids = []
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                with contextlib.suppress(OSError):
                    if name in (d / "cmdline").read_bytes():
                        pids.append(int(d.name))
        return pids

    def rss(self) -> float:
        return sum(rss_mib(p.pid) for p in self.procs)

    def stop(self) -> None:
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


# ------------------------------------------------------------------ clients
class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.client_moves = 0
        self.server_moves = 0   # actions applied, counted from the n of the last state per game
        self.games = 0
        self.errors = 0
        self.error_samples: list[str] = []
        self.measuring = False
        self.acked: list[tuple[str, int, str]] = []  # (table, position, action)
        self.tables: set[str] = set()

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text)


class Bench:
    def __init__(self, args: argparse.Namespace, servers: Servers, options: dict[str, Any]) -> None:
        self.args, self.servers, self.options = args, servers, options
        self.stats = Stats()
        self.source = BYSTANDER if args.abuse else "127.0.0.1"
        self.http = httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=50),
                                      transport=httpx.AsyncHTTPTransport(local_address=self.source))

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.servers.ports[i % len(self.servers.ports)]}"

    def ws(self, i: int, table_id: str) -> str:
        return f"ws://127.0.0.1:{self.servers.ports[i % len(self.servers.ports)]}/ws/tables/{table_id}"

    async def new_table(self, via: int) -> tuple[str, str]:
        while True:
            try:
                r = await self.http.post(self.url(via) + "/api/tables", json={
                    "game": GAME, "options": self.options, "settings": {"bot_delay": self.args.bot_delay},
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "level": self.args.bots}] * 2})
                r.raise_for_status()
                data = r.json()
                self.stats.tables.add(data["id"])
                return data["id"], data["seats"][0]["token"]
            except httpx.HTTPError as e:  # a process being restarted: another one answers
                self.stats.error(f"create: {type(e).__name__}: {e}")
                via += 1
                await asyncio.sleep(0.2)

    async def client(self, index: int, first: tuple[str, str], deadline: float) -> None:
        """One player: random legal moves over the socket (after ``think`` seconds, as a person
        would take), a new table whenever a game ends."""
        rng = random.Random(index)
        # the tables start spread over the stagger (a server that has run a while holds tables at
        # every stage), else their games end, and the next ones are made, in the same second
        await asyncio.sleep(self.args.stagger * index / max(1, self.args.tables))
        table = first
        process = index
        think = self.args.think
        stats = self.stats
        while time.monotonic() < deadline:
            table_id, token = table
            over = False
            try:
                async with connect(self.ws(process, table_id), max_size=2**22, open_timeout=10,
                                   local_addr=(self.source, 0)) as ws:
                    # as the browser does: its reader's language (a server that reads none sends all)
                    await ws.send(json.dumps({"type": "join", "seat": 0, "token": token,
                                              "lang": LANGS[index % len(LANGS)]}))
                    sent_at: float | None = None   # our action is on its way
                    ack_n = -1                     # the action count its ack reported
                    sent_decision = -1             # the decision it answered (servers that number them)
                    last_n = 0
                    while time.monotonic() < deadline:
                        try:
                            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                        except TimeoutError:
                            break
                        msg = json.loads(raw)
                        if msg["type"] == "error":
                            stats.error(msg["message"])
                            sent_at = None
                            continue
                        if msg["type"] == "ack":
                            ack_n = msg["n"]
                            stats.acked.append((table_id, msg["n"] - 1, msg["action"]))
                            continue
                        if msg["type"] != "state":
                            continue
                        last_n = msg["n"]
                        decision = msg.get("decision_no")
                        if not isinstance(decision, int):
                            decision = None
                        # the first state with our action in it: past the decision it answered, or (a
                        # server without decision numbers) at least as far as the ack said
                        if sent_at is not None and (decision > sent_decision if decision is not None
                                                    else ack_n >= 0 and msg["n"] >= ack_n):
                            if stats.measuring:
                                stats.latencies.append(time.perf_counter() - sent_at)
                            sent_at = None
                        if msg["over"]:
                            over = True
                            break
                        if sent_at is None and 0 in msg["to_act"] and msg["legal"]:
                            action = rng.choice(msg["legal"])["text"]
                            if think:
                                await asyncio.sleep(think * (0.5 + rng.random()))
                            sent_at, ack_n = time.perf_counter(), -1
                            sent_decision = decision if decision is not None else -1
                            act = {"type": "act", "action": action, "decision": decision}
                            await ws.send(json.dumps(act))
                            if stats.measuring:
                                stats.client_moves += 1
                    if stats.measuring:
                        stats.server_moves += last_n
                        stats.games += 1
            except (ConnectionClosed, OSError, TimeoutError) as e:
                # a killed process: a load balancer would send us to another one
                stats.error(f"{type(e).__name__}: {e}")
                process += 1
                await asyncio.sleep(0.2)
                continue
            if over and time.monotonic() < deadline:
                table = await self.new_table(index + 1)


# ------------------------------------------------------------------ abuse
def run_abuse(kind: str, port: int, seconds: float) -> dict[str, int]:
    """The abuse in a process of its own for ``seconds``; what it got."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        counts: dict[str, int] = pool.apply(_abuse_process, (kind, port, seconds))
    return counts


def _abuse_process(kind: str, port: int, seconds: float) -> dict[str, int]:
    # niced: the abuser's own CPU would come from elsewhere; here it must not starve the server of
    # the machine's cores, or the figure would measure the scheduler rather than the server
    os.nice(19)
    abuse = Abuse(kind, port)
    asyncio.run(abuse.run(time.monotonic() + seconds))
    return abuse.counts


class Abuse:
    """What an abuser does from 127.0.0.2 while the bystanders play; counts what it got."""

    def __init__(self, kind: str, port: int) -> None:
        self.kind = kind
        self.counts: dict[str, int] = {"sent": 0, "answered": 0, "refused": 0, "closed": 0, "denied": 0}
        self.port = port

    async def _table(self, http: httpx.AsyncClient, seats: list[dict[str, Any]], game: str = GAME) -> str:
        r = await http.post(f"http://127.0.0.1:{self.port}/api/tables", json={"game": game, "seats": seats})
        r.raise_for_status()
        table_id: str = r.json()["id"]
        return table_id

    async def run(self, until: float) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
        async with httpx.AsyncClient(timeout=30, transport=transport) as http:
            if self.kind == "hard":
                for _ in range(4):
                    await self._table(http, [{"kind": "bot", "level": "hard"}] * 5, "mighty")
                await asyncio.sleep(max(0.0, until - time.monotonic()))
                return
            if self.kind == "tables":
                while time.monotonic() < until:
                    r = await http.post(f"http://127.0.0.1:{self.port}/api/tables",
                                        json={"game": GAME, "seats": [{"kind": "human"}] * 3})
                    self.counts["sent"] += 1
                    self.counts["answered" if r.status_code == 201 else "refused"] += 1
                return
            table_id = await self._table(http, [{"kind": "human"}] * 3)
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{table_id}"
        many = {"flood": 10, "storm": 200, "mute": 100, "pings": 1}[self.kind]
        await asyncio.gather(*(self._socket(url, until) for _ in range(many)))

    async def _socket(self, url: str, until: float) -> None:
        while time.monotonic() < until:
            try:
                mute = self.kind == "mute"
                async with connect(url, local_addr=(ABUSER, 0), max_queue=1 if mute else 16,
                                   open_timeout=10, close_timeout=1) as ws:
                    if self.kind == "storm":
                        await ws.send(json.dumps({"type": "join", "seat": None, "lang": "en"}))
                        await asyncio.wait_for(ws.recv(), 10)
                        self.counts["sent"] += 1
                        continue  # leave, and join again
                    reader = None if mute else asyncio.create_task(self._read(ws))
                    burst = 5000 if self.kind == "pings" else 200
                    frame = json.dumps({"type": "dance"} if mute else {"type": "ping"})
                    while time.monotonic() < until:
                        for _ in range(burst):
                            await ws.send(frame)
                        self.counts["sent"] += burst
                        await asyncio.sleep(1.0 if self.kind == "pings" else 0)
                    if reader is not None:
                        reader.cancel()
            except ConnectionClosed:
                self.counts["closed"] += 1
                await asyncio.sleep(0.05)
            except (OSError, TimeoutError, InvalidStatus):
                # refused before the handshake too (an address just closed for flooding waits)
                self.counts["denied"] += 1
                await asyncio.sleep(0.05)

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "pong":
                    self.counts["answered"] += 1
                elif m.get("code") == "slow_down":
                    self.counts["refused"] = max(self.counts["refused"], int(m.get("refused", 0)))
                elif m.get("code") == "too_many_sockets":
                    self.counts["denied"] += 1


# ------------------------------------------------------------------ checks after kills
def check_logs(db: str, stats: Stats) -> dict[str, Any]:
    """Every acknowledged action is in the log at its position; every log replays."""
    from torite.engine.registry import make_game
    from torite.server.store import Store

    store = Store(db)
    try:
        logs: dict[str, list[tuple[int, str]]] = {}
        bad: list[str] = []
        for table_id in stats.tables:
            row = store.load_table(table_id)
            if row is None:
                bad.append(f"{table_id}: missing")
                continue
            logs[table_id] = row.actions
            state = make_game(row.game, row.options).new_state(row.seed)
            try:
                for seat, text in row.actions:
                    if seat not in state.to_act():
                        raise ValueError(f"seat {seat} {text} out of turn")
                    state.apply_text(seat, text)
            except Exception as e:
                bad.append(f"{table_id}: {e}")
        lost = sum(1 for t, pos, action in stats.acked
                   if pos >= len(logs.get(t, [])) or logs[t][pos] != (0, action))
        return {"acknowledged": len(stats.acked), "lost": lost, "tables_checked": len(logs),
                "actions_checked": sum(len(x) for x in logs.values()), "bad_logs": len(bad), "bad_samples": bad[:3]}
    finally:
        store.close()


# ------------------------------------------------------------------ run
async def run(args: argparse.Namespace, servers: Servers, db: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        options[k] = v
    bench = Bench(args, servers, options)
    async with bench.http:
        await bench.http.get(bench.url(0) + "/api/games")
        rss0 = servers.rss()
        tables = [await bench.new_table(i + 1) for i in range(args.tables)]
        await asyncio.sleep(0.5)
        rss1 = servers.rss()
        start = time.monotonic()
        measure_from = start + args.warmup
        deadline = measure_from + args.seconds
        clients = [asyncio.create_task(bench.client(i, t, deadline)) for i, t in enumerate(tables)]
        await asyncio.sleep(max(0.0, measure_from - time.monotonic()))
        bench.stats.measuring = True
        if args.nice:
            servers.renice(args.nice)
        cpu0 = servers.cpu()
        me0 = time.process_time()
        t0 = time.monotonic()
        side: list[asyncio.Task[Any]] = []
        abuse_counts: dict[str, int] | None = None
        if args.abuse:
            # in a process of its own: a flood would otherwise slow these clients, not the server
            side.append(asyncio.create_task(asyncio.to_thread(
                run_abuse, args.abuse, servers.ports[0], deadline - time.monotonic())))
        kills = 0
        if args.kills:
            gap = args.seconds / (args.kills + 1)
            for k in range(args.kills):
                await asyncio.sleep(max(0.0, t0 + gap * (k + 1) - time.monotonic()))
                await asyncio.to_thread(servers.kill_and_restart, k % len(servers.procs))
                kills += 1
        await asyncio.gather(*clients)
        elapsed = time.monotonic() - t0
        cpu1 = servers.cpu()
        me1 = time.process_time()
        for task in side:
            abuse_counts = await task
        rss2 = servers.rss()
    stats = bench.stats
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 2) if lat else float("nan")

    out: dict[str, Any] = {
        "tables": args.tables, "processes": args.processes, "deflate": args.deflate, "seconds": round(elapsed, 1),
        "bots": args.bots,
        "options": options, "think_seconds": args.think, "bot_delay_seconds": args.bot_delay,
        "stagger_seconds": args.stagger,
        "moves_per_second": round(stats.server_moves / elapsed, 1),
        "client_moves_per_second": round(stats.client_moves / elapsed, 1),
        "games_finished_or_cut": stats.games,
        "latency_ms": {"p50": pct(0.50), "p99": pct(0.99), "max": round(lat[-1] * 1000, 2) if lat else None,
                       "samples": len(lat)},
        "server_cpu_percent": round(100 * (cpu1[0] - cpu0[0]) / elapsed, 1) if not kills else None,
        "bot_workers_cpu_percent": round(100 * (cpu1[1] - cpu0[1]) / elapsed, 1) if not kills else None,
        "postgresql_cpu_percent": round(100 * (cpu1[2] - cpu0[2]) / elapsed, 1) if not kills else None,
        "clients_cpu_percent": round(100 * (me1 - me0) / elapsed, 1),
        "errors": stats.errors, "error_samples": stats.error_samples,
        "rss_mib": {"before": round(rss0, 1), "with_tables": round(rss1, 1), "after_run": round(rss2, 1)},
        "kib_per_table": round((rss1 - rss0) * 1024 / max(1, args.tables), 1),
    }
    if abuse_counts is not None:
        out["abuse"] = {"kind": args.abuse, **abuse_counts}
    if args.kills:
        out["kills"] = kills
        # the servers first: a SQLite database is its server's alone while it runs (exclusive lock)
        await asyncio.to_thread(servers.stop)
        out["consistency"] = await asyncio.to_thread(check_logs, db, stats)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=20.0, help="how long the clients play, measured")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (joins, first moves)")
    p.add_argument("--bots", default="random", help="level of the server bots (random, easy, normal, hard, …)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a client waits before its move (0: as fast as the server answers)")
    p.add_argument("--bot-delay", type=float, default=0.0, help="the tables' pause before each bot move")
    p.add_argument("--stagger", type=float, default=None,
                   help="seconds over which the tables' first moves are spread (default: the warmup; 0: all "
                        "at once, so their games end together and the new tables come in one burst)")
    p.add_argument("--processes", type=int, default=1, help="server processes (more than one: PostgreSQL)")
    p.add_argument("--pg", metavar="ADMIN_URL", help="PostgreSQL whose role may create databases: the run gets "
                                                     "a fresh database, dropped after")
    p.add_argument("--kills", type=int, default=0, help="kill -9 a server process this many times (restarted)")
    p.add_argument("--abuse", choices=["flood", "storm", "mute", "pings", "hard", "tables"])
    p.add_argument("--deflate", choices=["on", "off"], default="on",
                   help="compress WebSocket messages (permessage-deflate; default on, as torite serve)")
    p.add_argument("--baseline", metavar="SRC", help="run the server from this source tree (another checkout's src)")
    p.add_argument("--nice", type=int, default=0,
                   help="run at this priority (say -10, as root): the servers, bot workers and clients (and the "
                        "run's PostgreSQL backends) before other work, so on a shared machine the figures "
                        "measure torite rather than its neighbours")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.stagger is None:
        args.stagger = args.warmup
    if args.nice:
        os.nice(args.nice)  # inherited by every process started from here
        set_group_nice(os.getpid(), args.nice)
    if args.processes > 1 and not args.pg:
        p.error("several processes share PostgreSQL: give --pg ADMIN_URL")
    limits = ABUSE if args.abuse else LIFTED
    with tempfile.TemporaryDirectory() as tmp, fresh_database(args.pg) as pg_db:
        db = pg_db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        if pg_db:
            from torite.server.store import Store

            Store(db).close()  # the schema, once, before the processes start
        servers = Servers(db, args.processes, limits, args.baseline, args.deflate == "on")
        try:
            out = asyncio.run(run(args, servers, db))
        finally:
            servers.stop()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


@contextlib.contextmanager
def fresh_database(admin: str | None) -> Any:
    if not admin:
        yield None
        return
    from sqlalchemy import create_engine, text

    from torite.server.store import _with_driver

    name = f"torite_bench_{secrets.token_hex(4)}"
    engine = create_engine(_with_driver(admin), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
