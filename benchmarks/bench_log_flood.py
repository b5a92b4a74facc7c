"""A flood of language switches (issue 40.3) against a long finished table, with a bystander:
how many bytes the server sends, a bystander's ping p99, the server's RSS.

Writes a finished all-bot Mighty game of about ``--deals`` deals (random seats) straight into a
fresh SQLite file, serves it with uvicorn in a process of its own (``--src`` another checkout's
``src`` to compare, say the commit before issue 40's), then for ``--seconds``: ``--sockets``
spectators from 127.0.0.2 switch language ``--rate`` times a second each (within the message
limits) and read everything they are sent, in a process of their own, while a bystander from
127.0.0.3 watches another table and pings it every 50 ms.

    .venv/bin/python benchmarks/bench_log_flood.py [--deals 59] [--sockets 30] [--rate 6] [--seconds 20]
        [--warmup 3] [--src /tmp/base/src]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect

SERVE = ("import sys, uvicorn\nfrom torite.server.app import create_app\n"
         "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def make_db(path: Path, deals: int) -> tuple[str, str]:
    """A finished Mighty table of random seats and an unfinished Trick of the Dead one: their ids."""
    from torite.engine.registry import make_game
    from torite.server.store import Store, TableRow
    from torite.sim import play

    store = Store(f"sqlite:///{path}")
    game = make_game("mighty", {"deals": deals})
    rec = play(game, ["random"] * 5, 7, keep_record=True)[1]
    assert rec is not None and rec.result is not None
    now = time.time()
    bots = [{"kind": "bot", "level": "random", "name": ""}] * 5
    store.create_table(TableRow(id="longgame", game="mighty", options=dict(game.options), seed=rec.seed, seats=bots,
                                token_hashes=[None] * 5, settings={"bot_delay": 0.0}, created=now, joined=now))
    n = len(rec.actions)
    for i, (seat, text) in enumerate(rec.actions):
        store.append_action("longgame", i, seat, text, rec.result if i == n - 1 else None)
    other = make_game("trick-of-the-dead")
    humans = [{"kind": "human", "name": ""}] * 3
    store.create_table(TableRow(id="bystander", game=other.id, options=dict(other.options), seed=5, seats=humans,
                                token_hashes=["x" * 64] * 3, settings={"bot_delay": 0.0}, created=now, joined=now))
    store.close()
    print(f"a finished Mighty game of {n} actions ({deals} deals)")
    return "longgame", "bystander"


async def abuse(url: str, sockets: int, rate: float, seconds: float) -> None:
    got = [0]

    async def one(k: int) -> None:
        async with connect(url, max_size=None, local_addr=("127.0.0.2", 0)) as ws:
            await ws.send(json.dumps({"type": "join", "seat": None, "lang": "en"}))

            async def read() -> None:
                async for m in ws:
                    got[0] += len(m)

            reader = asyncio.create_task(read())
            end = time.monotonic() + seconds
            i = 0
            while time.monotonic() < end:
                i += 1
                await ws.send(json.dumps({"type": "lang", "lang": ("ja", "en", "ko")[(i + k) % 3]}))
                await asyncio.sleep(1 / rate)
            reader.cancel()

    await asyncio.gather(*(one(k) for k in range(sockets)), return_exceptions=True)
    print(json.dumps({"bytes": got[0]}))


async def bystander(url: str, seconds: float, warmup: float) -> list[float]:
    rtts: list[float] = []
    await asyncio.sleep(warmup)
    async with connect(url, max_size=None, local_addr=("127.0.0.3", 0)) as ws:
        await ws.send(json.dumps({"type": "join", "seat": None, "lang": "en"}))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            await ws.send('{"type": "ping"}')
            async for m in ws:
                if '"pong"' in str(m):
                    break
            rtts.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.05)
    return rtts


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=59)
    ap.add_argument("--sockets", type=int, default=30)
    ap.add_argument("--rate", type=float, default=6.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="seconds of the flood before the bystander's pings count (each language's log of the "
                         "long game is rendered once, on first use: a pause of its own)")
    ap.add_argument("--src", help="serve this checkout's src instead")
    ap.add_argument("--abuse", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.abuse:
        asyncio.run(abuse(args.abuse, args.sockets, args.rate, args.seconds))
        return
    tmp = Path(tempfile.mkdtemp())
    long_id, other_id = make_db(tmp / "torite.db", args.deals)
    port = free_port()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = args.src
    server = subprocess.Popen([sys.executable, "-c", SERVE, f"sqlite:///{tmp / 'torite.db'}", str(port)], env=env)
    try:
        time.sleep(4)
        base = f"ws://127.0.0.1:{port}/ws/tables/"
        idle = rss_mib(server.pid)
        abuser = subprocess.Popen([sys.executable, __file__, "--abuse", base + long_id, "--sockets", str(args.sockets),
                                   "--rate", str(args.rate), "--seconds", str(args.seconds)],
                                  stdout=subprocess.PIPE, text=True)
        cpu0 = cpu_seconds(server.pid)
        peak = [idle]

        async def watch() -> list[float]:
            async def sample() -> None:
                while True:
                    peak[0] = max(peak[0], rss_mib(server.pid))
                    await asyncio.sleep(0.5)

            sampler = asyncio.create_task(sample())
            try:
                return await bystander(base + other_id, args.seconds - args.warmup, args.warmup)
            finally:
                sampler.cancel()

        rtts = asyncio.run(watch())
        server_cpu = cpu_seconds(server.pid) - cpu0
        out, _ = abuser.communicate(timeout=60)
        sent = json.loads(out.strip().splitlines()[-1])["bytes"]
        rtts.sort()
        p = lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))]  # noqa: E731
        print(f"{args.sockets} sockets switching language {args.rate:g}/s each for {args.seconds:g} s "
              f"(bystander from {args.warmup:g} s on): "
              f"{sent / 1e6:.1f} MB sent ({sent / 1e6 / args.seconds:.1f} MB/s), server CPU "
              f"{server_cpu / args.seconds * 100:.0f}% of a core; bystander ping p50 {p(0.5):.1f} ms, "
              f"p99 {p(0.99):.1f} ms ({len(rtts)} pings); server RSS {idle:.0f} → {peak[0]:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
