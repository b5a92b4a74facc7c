"""Issue 40's abuses, one after the other, against a real server, with 20 honest tables as the bystander.

Starts one server process the way ``torite serve`` runs it (uvicorn with torite's guarded
protocols, its listening socket, a fresh SQLite file), then 20 bystander tables of Trick of the
Dead from 127.0.0.3 (seat 0 a client playing random legal moves over its socket after a short
think, the other seats server bots; a finished game is replaced by a new table).  Each case runs
an abuse from other addresses (127.0.x.y) for ``--seconds`` while the bystanders play, and prints:

* ``p99_ms`` (and p50): the bystanders' latency, from sending an action to the first state with
  it, during the case;
* ``peak_rss_mib``: the server's peak resident memory during the case (sampled every 0.1 s);
* ``lost``: actions the bystanders had acknowledged during the case that are not in the log at
  their position (checked once the server is stopped);
* ``errors``: error replies and failed connections the bystanders met; and what the abuser got.

Cases (``--abuse all``, or one or several by name), by the point of issue 40 they probe:

    ``none``          no abuse: the bystanders' own figures, to compare with
  1 ``long-replay``   GET a long table's replay at step 0, again and again (4 clients)
  2 ``replay-post``   POST /api/replay with distinct long records (4 posters)
  3 ``lang-flood``    30 spectator sockets of a long table switching language and asking ``sync``
                      (the long table: all-bot Mighty of 100 deals if the server takes it, played
                      to its end before the bystanders start)
  4 ``hints``         4 tabs of one seat asking hints as fast as allowed, 120 spectators watching
  5 ``suggest``       16 suggestions at once, ``level=expert``, again and again
  6 ``slowloris``     stalled connections from 80 addresses (a header byte every few seconds)
  7 ``table-cap``     230 addresses creating tables at once, as fast as they are answered (the
                      cap is ``--max-tables``, 400 by default: the abuser's and the bystanders'
                      creations together must stay within it)
  8 ``big-frames``    10 sockets sending frames over 4,096 characters and binary frames
  9 ``bursts``        10 sockets sending a burst of 150 pings every 3 s and reading everything
 10 ``readonly``      the database's files made unwritable (``chattr +i``) for a while (root only)
 11 ``mute``          100 sockets sending and never reading;  ``small-requests``: GETs from 2 addresses,
                      50 at a time

The abuser runs in a process of its own; for cases 1–7 at the same priority as the server (what
it does costs it little), for the others at the lowest (its own CPU would come from elsewhere).
The unjoined-table expiry is shortened (15 s) so the tables one case leaves do not fill the cap
for the next; table creations are lifted to 600 a minute per address (the bystanders make many).

    .venv/bin/python benchmarks/web_abuse.py [--abuse all|NAME ...] [--seconds 15] [--json]

On a shared machine the figures measure the neighbours too: run it alone, or compare runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_web  # (the clients, the stats and the log check of the general benchmark)

#: table-cap last: the cap stays full until the unjoined tables expire (15 s here), and the cases
#: after it could not open their tables
CASES = ("none", "long-replay", "replay-post", "lang-flood", "hints", "suggest", "slowloris",
         "big-frames", "bursts", "readonly", "mute", "small-requests", "table-cap")
#: cases whose abuser costs it little: run at the server's priority
UNNICED = {"none", "long-replay", "replay-post", "lang-flood", "hints", "suggest", "slowloris", "table-cap"}
BYSTANDERS = 20
#: the server's limits: the bystanders' table creations lifted, unjoined tables out of play soon
LIMITS = {"tables_per_minute": 600.0, "tables_burst": 200, "unjoined_minutes": 0.25, "expire_every_seconds": 5.0}


def _address(block: int, i: int) -> str:
    return f"127.0.{block}.{1 + i % 250}"


# ------------------------------------------------------------------ the server
class Server:
    """One server process as ``torite serve`` runs it."""

    def __init__(self, db: str, max_tables: int = 2000, profile: str = "") -> None:
        self.db = db
        self.port = bench_web.free_port()
        self.ports = [self.port]
        code = ("import argparse\n"
                "from torite.server.app import create_app\n"
                "from torite.server.cli import add_serve_command, limits_from, listening_socket, uvicorn_config\n"
                "from torite.server.connections import serving_sockets\n"
                "import dataclasses, uvicorn\n"
                "p = argparse.ArgumentParser(); add_serve_command(p.add_subparsers())\n"
                f"args = p.parse_args(['serve', '--port', '{self.port}', '--log-level', 'warning'])\n"
                f"limits = dataclasses.replace(limits_from(args), **{LIMITS!r})\n"
                f"app = create_app({db!r}, limits=limits, max_tables={max_tables})\n"
                "config = uvicorn_config(app, args, limits)\n"
                # uvicorn raises the SIGTERM it caught again once it has stopped: a handler that
                # exits lets the profile be written
                + ("import cProfile, signal, sys; _prof = cProfile.Profile()\n"
                   "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0)); _prof.enable()\n"
                   "try:\n " if profile else "")
                + "uvicorn.Server(config).run(sockets=serving_sockets(config, listening_socket('127.0.0.1', "
                f"{self.port})))\n"
                + (f"finally:\n _prof.disable(); _prof.dump_stats({profile!r})\n" if profile else ""))
        self.log = tempfile.NamedTemporaryFile(prefix="web_abuse_", suffix=".log", delete=False)  # noqa: SIM115
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/api/version", timeout=2).raise_for_status()
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def rss(self) -> float:
        return bench_web.rss_mib(self.proc.pid)

    def stop(self) -> None:
        """The server and its bot workers (its session's process group)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def log_lines(self) -> int:
        self.log.flush()
        return sum(1 for _ in Path(self.log.name).open(errors="replace"))


# ------------------------------------------------------------------ the abuser (a process of its own)
def long_table(port: int, wait: float = 180.0) -> tuple[str, int]:
    """A finished all-bot Mighty table of as many deals as the server allows (100 asked): the
    long log the replay and language cases need, played before the bystanders start (a table
    still playing would load the server through every case)."""
    base = f"http://127.0.0.1:{port}"
    seats = [{"kind": "bot", "level": "random"}] * 5
    with httpx.Client(timeout=60, transport=httpx.HTTPTransport(local_address=_address(9, 0))) as http:
        r = http.post(base + "/api/tables", json={"game": "mighty", "seats": seats, "options": {"deals": 100},
                                                  "settings": {"bot_delay": 0}})
        if r.status_code != 201:
            r = http.post(base + "/api/tables", json={"game": "mighty", "seats": seats, "settings": {"bot_delay": 0}})
        r.raise_for_status()
        table_id: str = r.json()["id"]
        deadline = time.monotonic() + wait
        while True:
            info = http.get(f"{base}/api/tables/{table_id}").json()
            if info["over"] or time.monotonic() > deadline:
                return table_id, int(info["n"])
            time.sleep(1.0)


def abuse_process(case: str, port: int, seconds: float, nice: bool, db: str, long_id: str) -> dict[str, Any]:
    if nice:
        os.nice(19)
    abuser = Abuser(port, db, long_id)
    try:
        asyncio.run(abuser.run(case, time.monotonic() + seconds))
    except Exception as e:
        abuser.counts["abuser_error"] = repr(e)[:200]
    return abuser.counts


class Abuser:
    def __init__(self, port: int, db: str, long_id: str) -> None:
        self.port, self.db, self.long_id = port, db, long_id
        self.base = f"http://127.0.0.1:{port}"
        self.counts: dict[str, Any] = {}

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def http(self, source: str, **kw: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=60, transport=httpx.AsyncHTTPTransport(local_address=source), **kw)

    async def table(self, source: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
                    settings: dict[str, Any] | None = None) -> dict[str, Any]:
        async with self.http(source) as http:
            r = await http.post(self.base + "/api/tables", json={"game": game, "seats": seats, "options": options or {},
                                                                 "settings": settings or {}})
            if r.status_code != 201:
                self.count(f"create_{r.status_code}")
                r = await http.post(self.base + "/api/tables", json={"game": game, "seats": seats})
            r.raise_for_status()
            out: dict[str, Any] = r.json()
            return out

    async def case_none(self, until: float) -> None:
        await asyncio.sleep(max(0.0, until - time.monotonic()))

    async def run(self, case: str, until: float) -> None:
        await getattr(self, "case_" + case.replace("-", "_"))(until)

    # -- 1
    async def case_long_replay(self, until: float) -> None:
        tid = self.long_id

        async def one(i: int) -> None:
            async with self.http(_address(10, i)) as http:
                while time.monotonic() < until:
                    try:
                        r = await http.get(f"{self.base}/api/tables/{tid}/replay", params={"step": 0})
                        self.count(f"http_{r.status_code}")
                    except httpx.HTTPError as e:
                        self.count(type(e).__name__)
                        await asyncio.sleep(0.1)
        await asyncio.gather(*(one(i) for i in range(4)))

    # -- 2
    async def case_replay_post(self, until: float) -> None:
        tid = self.long_id
        async with self.http(_address(11, 0)) as http:
            record = (await http.get(f"{self.base}/api/tables/{tid}/record")).json()
        if len(record["actions"]) > 4900:  # the most a posted record may have on main (5,000 steps)
            record["actions"] = record["actions"][:4900]
            record.pop("result", None)
        self.counts["record_bytes"] = len(json.dumps(record))
        n = iter(range(10**9))

        async def one(i: int) -> None:
            async with self.http(_address(11, i)) as http:
                while time.monotonic() < until:
                    rec = dict(record)
                    rec["seats"] = [f"p{next(n)}", *record["seats"][1:]]  # distinct: nothing is cached
                    try:
                        r = await http.post(self.base + "/api/replay", json={"record": rec, "step": 0})
                        self.count(f"http_{r.status_code}")
                    except httpx.HTTPError as e:
                        self.count(type(e).__name__)
                        await asyncio.sleep(0.1)
        await asyncio.gather(*(one(i) for i in range(4)))

    # -- 3
    async def case_lang_flood(self, until: float) -> None:
        tid = self.long_id
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{tid}"

        async def one(i: int) -> None:
            langs = ("en", "ja", "ko")
            while time.monotonic() < until:
                try:
                    async with connect(url, local_addr=(_address(12, i // 10), 0), max_size=2**26, open_timeout=10,
                                       close_timeout=1) as ws:
                        await ws.send(json.dumps({"type": "join", "seat": None, "lang": "en"}))
                        reader = asyncio.create_task(self._read(ws, "received_bytes"))
                        k = 0
                        while time.monotonic() < until:
                            k += 1
                            await ws.send(json.dumps({"type": "lang", "lang": langs[k % 3]} if k % 2
                                                     else {"type": "sync"}))
                            self.count("sent")
                            await asyncio.sleep(0.005)
                        reader.cancel()
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                    self.count("closed")
                    await asyncio.sleep(0.2)
        await asyncio.gather(*(one(i) for i in range(30)))

    async def _read(self, ws: Any, what: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                self.count(what, len(raw))

    # -- 4
    async def case_hints(self, until: float) -> None:
        t = await self.table(_address(13, 0), "mighty", [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 4,
                             settings={"bot_delay": 0.2})
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{t['id']}"
        token = t["seats"][0]["token"]

        async def tab(i: int) -> None:
            with contextlib.suppress(ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                async with connect(url, local_addr=(_address(13, 0), 0), max_size=2**24, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "join", "seat": 0, "token": token, "tab": f"t{i}"}))
                    reader = asyncio.create_task(self._read(ws, "tab_bytes"))
                    while time.monotonic() < until:
                        await ws.send(json.dumps({"type": "hint"}))
                        self.count("hints_asked")
                        await asyncio.sleep(1 / 11)
                    reader.cancel()

        async def spectator(i: int) -> None:
            with contextlib.suppress(ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                async with connect(url, local_addr=(_address(14, i // 30), 0), max_size=2**24, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "join", "seat": None, "lang": "en"}))
                    await asyncio.wait_for(self._read(ws, "spectator_bytes"), max(0.1, until - time.monotonic()))
        await asyncio.gather(*(tab(i) for i in range(4)), *(spectator(i) for i in range(120)),
                             return_exceptions=True)

    # -- 5
    async def case_suggest(self, until: float) -> None:
        tid = self.long_id

        async def one(i: int) -> None:
            seat = 0
            async with self.http(_address(15, i)) as http:
                while time.monotonic() < until:
                    try:
                        r = await http.get(f"{self.base}/api/tables/{tid}/replay/suggest",
                                           params={"step": str(40 + 53 * i), "seat": str(seat), "level": "expert"},
                                           headers={"origin": "http://evil.example"})
                        self.count(f"http_{r.status_code}")
                        if r.status_code == 409:
                            seat = (seat + 1) % 5  # not that seat's decision: the next one's
                    except httpx.HTTPError as e:
                        self.count(type(e).__name__)
                        await asyncio.sleep(0.1)
        await asyncio.gather(*(one(i) for i in range(16)))

    # -- 6
    async def case_slowloris(self, until: float) -> None:
        async def one(i: int) -> None:
            source = _address(16, i % 80)
            while time.monotonic() < until:
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0))
                except OSError:
                    self.count("refused_connect")
                    await asyncio.sleep(0.5)
                    continue
                self.count("opened")
                try:
                    writer.write(b"GET /api/version HTTP/1.1\r\nHost: x\r\n")
                    while time.monotonic() < until:
                        writer.write(b"X")
                        await writer.drain()
                        with contextlib.suppress(TimeoutError):
                            if await asyncio.wait_for(reader.read(4096), 3.0) == b"":
                                break
                    self.count("closed_by_server")
                except OSError:
                    self.count("closed_by_server")
                finally:
                    writer.close()
                await asyncio.sleep(1.0)  # stalled connections, not a connect flood
        await asyncio.gather(*(one(i) for i in range(8000)), return_exceptions=True)

    # -- 7
    async def case_table_cap(self, until: float) -> None:
        async def one(i: int) -> None:
            async with self.http(_address(17, i)) as http:
                while time.monotonic() < until:
                    try:
                        r = await http.post(self.base + "/api/tables",
                                            json={"game": bench_web.GAME, "seats": [{"kind": "human"}] * 3})
                        self.count(f"http_{r.status_code}")
                        if r.status_code != 201:
                            await asyncio.sleep(0.05)
                    except httpx.HTTPError as e:
                        self.count(type(e).__name__)
        await asyncio.gather(*(one(i) for i in range(230)))

    # -- 8
    async def case_big_frames(self, until: float) -> None:
        t = await self.table(_address(18, 0), bench_web.GAME, [{"kind": "human"}] * 3)
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{t['id']}"

        async def one(i: int) -> None:
            frame: str | bytes = "x" * 5000 if i % 2 else b"\x00" * 1000
            while time.monotonic() < until:
                try:
                    async with connect(url, local_addr=(_address(18, 0), 0), open_timeout=10, close_timeout=1) as ws:
                        reader = asyncio.create_task(self._read_errors(ws))
                        while time.monotonic() < until:
                            for _ in range(100):
                                await ws.send(frame)
                            self.count("sent", 100)
                            await asyncio.sleep(0)
                        reader.cancel()
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                    self.count("closed")
                    await asyncio.sleep(0.05)
        await asyncio.gather(*(one(i) for i in range(10)))

    async def _read_errors(self, ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for raw in ws:
                m = json.loads(raw)
                self.count(f"reply_{m.get('code') or m.get('type')}")

    # -- 9
    async def case_bursts(self, until: float) -> None:
        t = await self.table(_address(19, 0), bench_web.GAME, [{"kind": "human"}] * 3)
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{t['id']}"

        async def one(i: int) -> None:
            while time.monotonic() < until:
                try:
                    async with connect(url, local_addr=(_address(19, i), 0), open_timeout=10, max_queue=None) as ws:
                        reader = asyncio.create_task(self._read_errors(ws))
                        while time.monotonic() < until:
                            for _ in range(150):
                                await ws.send('{"type": "ping"}')
                            self.count("sent", 150)
                            await asyncio.sleep(3.0)
                        reader.cancel()
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                    self.count("closed")
                    await asyncio.sleep(0.5)
        await asyncio.gather(*(one(i) for i in range(10)))

    # -- 10
    async def case_readonly(self, until: float) -> None:
        path = Path(self.db.split("///", 1)[1])
        files = [str(p) for p in path.parent.glob(path.name + "*")]
        if not shutil.which("chattr") or os.geteuid() != 0:
            self.counts["skipped"] = "needs root and chattr"
            await asyncio.sleep(max(0.0, until - time.monotonic()))
            return
        await asyncio.sleep(2.0)
        subprocess.run(["chattr", "+i", *files], check=False)
        self.counts["unwritable_seconds"] = round(max(0.0, until - time.monotonic() - 4.0), 1)
        try:
            async with self.http(_address(20, 0)) as http:
                while time.monotonic() < until - 4.0:
                    r = await http.post(self.base + "/api/tables",
                                        json={"game": bench_web.GAME, "seats": [{"kind": "human"}] * 3})
                    self.count(f"http_{r.status_code}")
                    await asyncio.sleep(0.5)
        finally:
            subprocess.run(["chattr", "-i", *files], check=False)

    # -- 11
    async def case_mute(self, until: float) -> None:
        t = await self.table(_address(21, 0), bench_web.GAME, [{"kind": "human"}] * 3)
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{t['id']}"
        rng = random.Random(11)

        async def one(i: int) -> None:
            while time.monotonic() < until:
                try:
                    async with connect(url, local_addr=(_address(21, i // 25), 0), max_queue=1, open_timeout=10,
                                       close_timeout=1) as ws:
                        await ws.send(json.dumps({"type": "join", "seat": None}))
                        while time.monotonic() < until:
                            for _ in range(50):
                                await ws.send(json.dumps({"type": "dance" + rng.randbytes(30).hex()}))
                            self.count("sent", 50)
                            await asyncio.sleep(0)
                except (ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                    self.count("closed")
                    await asyncio.sleep(0.2)
        await asyncio.gather(*(one(i) for i in range(100)))

    async def case_small_requests(self, until: float) -> None:
        async def one(i: int) -> None:
            async with self.http(_address(22, i % 2)) as http:
                while time.monotonic() < until:
                    try:
                        r = await http.get(self.base + "/api/version")
                        self.count(f"http_{r.status_code}")
                    except httpx.HTTPError as e:
                        self.count(type(e).__name__)
        await asyncio.gather(*(one(i) for i in range(50)))


# ------------------------------------------------------------------ the run
def _pct(lat: list[float], p: float) -> float | None:
    if not lat:
        return None
    s = sorted(lat)
    return round(s[min(len(s) - 1, int(p * len(s)))] * 1000, 1)


async def run(args: argparse.Namespace, server: Server, db: str, cases: list[str]) -> list[dict[str, Any]]:
    bench_args = argparse.Namespace(tables=BYSTANDERS, stagger=2.0, think=args.think, bot_delay=args.bot_delay,
                                    bots="random", abuse=True)
    bench = bench_web.Bench(bench_args, server, {})  # type: ignore[arg-type]  # a Servers in all it uses
    stats = bench.stats
    results: list[dict[str, Any]] = []
    pool = multiprocessing.get_context("spawn").Pool(1)
    long_id = ""
    if set(cases) & {"long-replay", "replay-post", "lang-flood", "suggest"}:
        long_id, long_n = await asyncio.to_thread(long_table, server.port)
        print(json.dumps({"long_table": long_id, "actions": long_n, "rss_mib": round(server.rss(), 1)}), flush=True)
    async with bench.http:
        tables = [await bench.new_table(i + 1) for i in range(BYSTANDERS)]
        deadline = time.monotonic() + 10**6  # they play until every case is done (then cancelled)
        clients = [asyncio.create_task(bench.client(i, t, deadline)) for i, t in enumerate(tables)]
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        for case in cases:
            stats.latencies = []
            errors0, acked0 = stats.errors, len(stats.acked)
            log0 = server.log_lines()
            done = pool.apply_async(abuse_process, (case, server.port, args.seconds, case not in UNNICED, db,
                                                    long_id))
            peak, start = server.rss(), time.monotonic()
            trace: list[float] = []
            while not done.ready() and time.monotonic() - start < args.seconds + 90:
                await asyncio.sleep(0.1)
                rss = server.rss()
                peak = max(peak, rss)
                if time.monotonic() - start >= args.rss_every * len(trace):
                    trace.append(round(rss, 1))
            try:
                counts = done.get(timeout=1)
            except Exception as e:
                counts = {"abuser_failed": repr(e)[:200]}
            lat = list(stats.latencies)
            results.append({"case": case, "p50_ms": _pct(lat, 0.5), "p99_ms": _pct(lat, 0.99), "samples": len(lat),
                            "peak_rss_mib": round(peak, 1), "errors": stats.errors - errors0,
                            "acked": (acked0, len(stats.acked)), "server_alive": server.proc.poll() is None,
                            "log_lines": server.log_lines() - log0, "abuser": counts})
            if args.rss_every < args.seconds:
                results[-1]["rss_trace_mib"] = trace
            line = {k: v for k, v in results[-1].items() if k != "acked"}
            print(json.dumps(line), flush=True)
            await asyncio.sleep(args.gap)
        stats.measuring = False
        for c in clients:
            c.cancel()
        await asyncio.wait(clients, timeout=15)  # a socket's closing handshake is not waited for longer
    pool.terminate()
    server.stop()
    check = await asyncio.to_thread(_lost_by_case, db, stats, results)
    for r, lost in zip(results, check):
        r["lost"] = lost
        del r["acked"]
    return results


def _lost_by_case(db: str, stats: bench_web.Stats, results: list[dict[str, Any]]) -> list[int]:
    from torite.server.store import Store

    store = Store(db)
    try:
        logs: dict[str, list[tuple[int, str]]] = {}
        out = []
        for r in results:
            lo, hi = r["acked"]
            lost = 0
            for table_id, pos, action in stats.acked[lo:hi]:
                if table_id not in logs:
                    row = store.load_table(table_id)
                    logs[table_id] = row.actions if row is not None else []
                log = logs[table_id]
                lost += pos >= len(log) or log[pos] != (0, action)
            out.append(lost)
        return out
    finally:
        store.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--abuse", nargs="+", default=["all"], help="all, or case names: " + ", ".join(CASES))
    p.add_argument("--seconds", type=float, default=15.0, help="how long each case runs")
    p.add_argument("--gap", type=float, default=3.0, help="seconds between two cases")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--think", type=float, default=0.3, help="mean seconds a bystander thinks before its move")
    p.add_argument("--bot-delay", type=float, default=0.1, help="the bystanders' tables' pause before a bot move")
    p.add_argument("--max-tables", type=int, default=400,
                   help="the server's cap on tables in play (default 400, so table-cap fills it within a case "
                        "on a loaded machine; torite serve's is 2,000)")
    p.add_argument("--rss-every", type=float, default=1e9, metavar="S",
                   help="also print the server's RSS every S seconds of each case (say --abuse none "
                        "--seconds 600 --rss-every 30: does it creep over a long run, and stop?)")
    p.add_argument("--profile", default="", metavar="FILE",
                   help="run the server under cProfile and write its statistics to FILE when it stops "
                        "(one case at a time: where does the server's time go while it is abused?)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    cases = list(CASES) if args.abuse == ["all"] else args.abuse
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        p.error(f"unknown case {', '.join(unknown)} (cases: {', '.join(CASES)})")
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'abuse.db'}"
        server = Server(db, args.max_tables, args.profile)
        try:
            results = asyncio.run(run(args, server, db, cases))
        finally:
            server.stop()
            for f in Path(tmp).glob("abuse.db*"):
                subprocess.run(["chattr", "-i", str(f)], check=False, capture_output=True)
    if args.json:
        print(json.dumps(results))
    else:
        print(f"{'case':>15} {'p50 ms':>8} {'p99 ms':>8} {'samples':>8} {'peak RSS MiB':>13} {'lost':>5} "
              f"{'errors':>7} {'log lines':>9}  abuser")
        for r in results:
            print(f"{r['case']:>15} {r['p50_ms']!s:>8} {r['p99_ms']!s:>8} {r['samples']:>8} {r['peak_rss_mib']:>13} "
                  f"{r['lost']:>5} {r['errors']:>7} {r['log_lines']:>9}  {json.dumps(r['abuser'])}"
                  + ("" if r["server_alive"] else "  SERVER DIED"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
