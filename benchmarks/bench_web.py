"""Many tables at once over real WebSockets on 127.0.0.1: throughput, latency, memory.

Starts ``uvicorn`` with the torite app in a subprocess (a fresh SQLite file), creates N tables
(default 100) of Trick of the Dead where seat 0 is a "client bot" that plays uniformly random
legal moves over its socket and the other seats are server bots; a finished game is replaced by
a new table so the load stays steady.  Runs for a bounded time, then reports

* moves/s: every action the server applied (client and server bots), and the clients' share;
* latency: from sending an action to receiving the first state that includes it (p50, p99, max);
* errors: error messages and failed connections;
* memory: server RSS before the tables and with them, divided by the tables.

    .venv/bin/python benchmarks/bench_web.py [--tables 100] [--seconds 20] [--bots random]
        [--think 0.5] [--bot-delay 0.3] [-o target=100]

With ``--think 0`` and ``--bot-delay 0`` every table plays flat out, so the server is saturated
and the latency measured is mostly queueing; with a person's pace (``--think 0.5 --bot-delay
0.3``) it is the latency players feel at that many tables.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

GAME = "trick-of-the-dead"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.client_moves = 0
        self.server_moves = 0   # actions applied, counted from the n of the last state per game
        self.games = 0
        self.errors = 0
        self.error_samples: list[str] = []

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text)


async def new_table(http: httpx.AsyncClient, bots: str, options: dict[str, Any],
                    bot_delay: float = 0.0) -> tuple[str, str]:
    r = await http.post("/api/tables", json={
        "game": GAME, "options": options, "settings": {"bot_delay": bot_delay},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": bots}] * 2})
    r.raise_for_status()
    data = r.json()
    return data["id"], data["seats"][0]["token"]


async def client(base: str, http: httpx.AsyncClient, first: tuple[str, str], stats: Stats, deadline: float,
                 bots: str, options: dict[str, Any], seed: int, think: float = 0.0, bot_delay: float = 0.0) -> None:
    """One player: random legal moves over the socket (after ``think`` seconds, as a person
    would take), a new table whenever a game ends."""
    rng = random.Random(seed)
    table = first
    while time.monotonic() < deadline:
        table_id, token = table
        try:
            async with connect(f"ws://{base}/ws/tables/{table_id}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "join", "seat": 0, "token": token}))
                sent_at: float | None = None   # our action is on its way
                ack_n = -1                     # the action count its ack reported
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
                        continue
                    if msg["type"] != "state":
                        continue
                    last_n = msg["n"]
                    if sent_at is not None and ack_n >= 0 and msg["n"] >= ack_n:
                        stats.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                    if msg["over"]:
                        break
                    if sent_at is None and 0 in msg["to_act"] and msg["legal"]:
                        action = rng.choice(msg["legal"])["text"]
                        if think:
                            await asyncio.sleep(think * (0.5 + rng.random()))
                        sent_at, ack_n = time.perf_counter(), -1
                        await ws.send(json.dumps({"type": "act", "action": action}))
                        stats.client_moves += 1
                stats.server_moves += last_n
                stats.games += 1
        except Exception as e:  # a refused or dropped connection is an error to report, not a crash
            stats.error(f"{type(e).__name__}: {e}")
            await asyncio.sleep(0.2)
        if time.monotonic() < deadline:
            table = await new_table(http, bots, options, bot_delay)


async def run(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    base = f"127.0.0.1:{port}"
    options: dict[str, Any] = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        options[k] = v
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=30, limits=limits) as http:
        await http.get("/api/games")
        rss0 = rss_mib(pid)
        tables = [await new_table(http, args.bots, options, args.bot_delay) for _ in range(args.tables)]
        await asyncio.sleep(0.5)
        rss1 = rss_mib(pid)
        stats = Stats()
        start = time.monotonic()
        deadline = start + args.seconds
        await asyncio.gather(*(client(base, http, t, stats, deadline, args.bots, options, i, args.think,
                                      args.bot_delay)
                               for i, t in enumerate(tables)))
        elapsed = time.monotonic() - start
        rss2 = rss_mib(pid)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": args.tables, "seconds": round(elapsed, 1), "bots": args.bots, "options": options,
        "think_seconds": args.think, "bot_delay_seconds": args.bot_delay,
        "moves_per_second": round(stats.server_moves / elapsed, 1),
        "client_moves_per_second": round(stats.client_moves / elapsed, 1),
        "games_finished_or_cut": stats.games,
        "latency_ms": {"p50": round(pct(0.50), 2), "p99": round(pct(0.99), 2),
                       "max": round(lat[-1] * 1000, 2) if lat else None, "samples": len(lat)},
        "errors": stats.errors, "error_samples": stats.error_samples,
        "rss_mib": {"before": round(rss0, 1), "with_tables": round(rss1, 1), "after_run": round(rss2, 1)},
        "kib_per_table": round((rss1 - rss0) * 1024 / args.tables, 1),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=20.0, help="how long the clients play")
    p.add_argument("--bots", default="random", help="level of the server bots (random, easy, normal, …)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a client waits before its move (0: as fast as the server answers)")
    p.add_argument("--bot-delay", type=float, default=0.0, help="the tables' pause before each bot move")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        # every simulated player comes from this one address: lift the per-address table limit
        code = ("import uvicorn; from torite.server.app import create_app; "
                "from torite.server.limits import ServerLimits; "
                "limits = ServerLimits(tables_per_minute=1e6, tables_burst=10**6, messages_per_second=1e6, "
                "messages_burst=10**6); "
                f"uvicorn.run(create_app({db!r}, limits=limits), host='127.0.0.1', port={port}, log_level='warning')")
        proc = subprocess.Popen([sys.executable, "-c", code], env=os.environ.copy())
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        print("the server did not start", file=sys.stderr)
                        return 1
                    time.sleep(0.1)
            out = asyncio.run(run(args, port, proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
