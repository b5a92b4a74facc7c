"""Bots think in worker processes, never in the process that serves the sockets.

A bot is an object that may keep state between its decisions: its random generator always, and
some keep more (a search bot's rule-of-thumb helper, Galapagos' exact solver with tables of tens
of megabytes that later answers depend on).  So a bot lives in one worker process for its whole
life: the server builds it (``make_bot`` with a seed, as before), pickles it once, and its first
decision carries it to the worker the pool chose; every later decision goes to that worker with
the seat's observation and legal actions only, and only the chosen action comes back.  The bot
object therefore sees exactly the calls it would see in-process, in the same order, and decides
exactly the same (``tests/web/test_bots.py`` checks it against the in-process bot).

Two lanes of workers: ``think`` for the bots that search (``Bot.thinks``: tenths of a second a
decision and more), ``quick`` for the rule-of-thumb ones, so a search never queues a decision
people are waiting on behind it.  Within a lane a new bot goes to the worker with the fewest
bots.  Each worker takes one decision at a time; the decisions waiting in a lane are bounded
(``max_pending``: past it a table's bot loop waits its turn, nothing piles up).

If a worker dies, or a decision outlives ``timeout`` (the worker is then killed), its bots are
lost with it: their decisions raise :class:`BotLost`, and the server makes new bots (a new seed:
the game goes on, from the same log).  Workers come from a fork server preloaded with the games,
so one starts in milliseconds and shares the parent's imports.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from torite.engine.base import Action
from torite.engine.bot import Bot

log = logging.getLogger("torite.server")

LANES = ("quick", "think")


class BotLost(Exception):
    """The worker that held the bot is gone, and the bot's state with it: make a new bot."""


class BotFailed(Exception):
    """The bot raised, or chose something that is not one of the legal actions."""


# --------------------------------------------------------------------------- the worker side
def _serve(conn: Connection) -> None:
    """A worker: keeps its bots by key; each request may drop bots, carry a new one, and asks
    one bot for one decision."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle: it stops us
    bots: dict[int, Bot] = {}
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the server is gone
        drops, key, blob, obs, legal = pickle.loads(data)
        for k in drops:
            bots.pop(k, None)
        if blob is not None:
            bots[key] = pickle.loads(blob)
        bot = bots.get(key)
        reply: tuple[str, Any]
        if bot is None:
            reply = ("lost", None)
        else:
            try:
                reply = ("ok", bot.act(obs, legal))
            except Exception as e:
                reply = ("failed", f"{type(e).__name__}: {e}")
        conn.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))


_context: Any = None


def _mp_context() -> Any:
    """The fork server (workers fork from a clean, preloaded process: no threads, no sockets
    of the server inherited), or spawn where there is none."""
    global _context
    if _context is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _context = multiprocessing.get_context("forkserver")
            _context.set_forkserver_preload([__name__, "torite.server.botworker"])
        else:
            _context = multiprocessing.get_context("spawn")
    return _context


# --------------------------------------------------------------------------- the server side
@dataclass(eq=False)
class BotHandle:
    """The server's side of a bot living in a worker."""

    key: int
    worker: _Worker
    generation: int
    uses_observation: bool
    blob: bytes | None  # the bot, pickled, until its first decision takes it to the worker

    @property
    def lost(self) -> bool:
        return self.generation != self.worker.generation


@dataclass(eq=False)
class _Job:
    handle: BotHandle
    obs: Mapping[str, Any]
    legal: Sequence[Action]
    done: asyncio.Future[Action] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class _Worker:
    """One worker process and its queue of decisions, one at a time."""

    def __init__(self, lane: str, index: int, timeout: float) -> None:
        self.lane = lane
        self.index = index
        self.timeout = timeout
        self.bots = 0
        self.generation = 0  # grows when the process is replaced: its bots are lost
        self.drops: list[int] = []
        self.queue: asyncio.Queue[_Job] = asyncio.Queue()
        self.proc: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.reply: asyncio.Future[tuple[str, Any]] | None = None
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"bots-{self.lane}-{self.index}")

    def _spawn(self) -> None:
        ctx = _mp_context()
        parent, child = ctx.Pipe(duplex=True)
        proc = ctx.Process(target=_serve, args=(child,), daemon=True, name=f"torite-bots-{self.lane}-{self.index}")
        proc.start()
        child.close()
        self.proc, self.conn = proc, parent

    def _readable(self) -> None:
        assert self.conn is not None
        try:
            data = self.conn.recv_bytes()
        except (EOFError, OSError):
            self._dead("it exited")
            return
        if self.reply is not None and not self.reply.done():
            self.reply.set_result(pickle.loads(data))

    def _dead(self, why: str) -> None:
        """The process is gone (or is being killed): its bots are lost; a new one starts with the
        next decision."""
        if self.conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.conn.fileno())
            self.conn.close()
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(timeout=5)
            log.warning("bot worker %s-%d (pid %s) is gone (%s): its %d bots start afresh",
                        self.lane, self.index, self.proc.pid, why, self.bots)
        self.proc = self.conn = None
        self.generation += 1
        self.bots = 0
        self.drops = []
        if self.reply is not None and not self.reply.done():
            self.reply.set_result(("lost", None))

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = await self.queue.get()
            if job.handle.lost:
                job.done.set_exception(BotLost())
                continue
            if self.proc is None:
                try:
                    await asyncio.to_thread(self._spawn)
                except Exception as e:
                    log.error("cannot start a bot worker: %s", e)
                    job.done.set_exception(BotLost())
                    await asyncio.sleep(1.0)
                    continue
                assert self.conn is not None
                loop.add_reader(self.conn.fileno(), self._readable)
            assert self.conn is not None
            handle = job.handle
            data = pickle.dumps((self.drops, handle.key, handle.blob, job.obs, job.legal),
                                protocol=pickle.HIGHEST_PROTOCOL)
            self.drops = []
            self.reply = loop.create_future()
            try:
                self.conn.send_bytes(data)
                handle.blob = None
                status, value = await asyncio.wait_for(self.reply, self.timeout)
            except TimeoutError:
                self._dead(f"a decision took over {self.timeout:g} s")
                status, value = "lost", None
            except OSError:
                self._dead("its pipe broke")
                status, value = "lost", None
            if job.done.done():
                continue
            if status == "ok":
                job.done.set_result(value)
            elif status == "failed":
                job.done.set_exception(BotFailed(value))
            else:
                job.done.set_exception(BotLost())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.conn.fileno())
            self.conn.close()  # the worker reads EOF and ends
        if self.proc is not None:
            proc = self.proc
            await asyncio.to_thread(proc.join, 5)
            if proc.is_alive():
                proc.kill()
        self.proc = self.conn = None


class BotPool:
    """Worker processes for the bots of every table: ``think_workers`` for searches (default:
    the machine's cores), ``quick_workers`` for rule-of-thumb bots."""

    def __init__(self, think_workers: int | None = None, quick_workers: int = 2, *, max_pending: int = 256,
                 timeout: float = 60.0) -> None:
        think = think_workers if think_workers is not None else (os.cpu_count() or 1)
        if think < 1 or quick_workers < 1 or max_pending < 1 or timeout <= 0:
            raise ValueError("a bot pool needs at least one worker a lane, max_pending >= 1 and a positive timeout")
        self.sizes = {"quick": quick_workers, "think": think}
        self.max_pending = max_pending
        self.timeout = timeout
        self.lanes: dict[str, list[_Worker]] = {}
        self._room: dict[str, asyncio.Semaphore] = {}
        self._keys = itertools.count(1)

    async def start(self) -> None:
        await asyncio.to_thread(_mp_context)
        for lane in LANES:
            self.lanes[lane] = [_Worker(lane, i, self.timeout) for i in range(self.sizes[lane])]
            self._room[lane] = asyncio.Semaphore(self.max_pending)
            for w in self.lanes[lane]:
                w.start()

    async def stop(self) -> None:
        for workers in self.lanes.values():
            for w in workers:
                await w.stop()

    def pending(self, lane: str) -> int:
        """Decisions queued or being made in a lane."""
        return sum(w.queue.qsize() + (w.reply is not None and not w.reply.done()) for w in self.lanes[lane])

    def add(self, bot: Bot) -> BotHandle:
        """Give a new bot to the least busy worker of its lane."""
        lane = "think" if bot.thinks else "quick"
        worker = min(self.lanes[lane], key=lambda w: w.bots)
        worker.bots += 1
        return BotHandle(key=next(self._keys), worker=worker, generation=worker.generation,
                         uses_observation=bot.uses_observation,
                         blob=pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL))

    def remove(self, handle: BotHandle) -> None:
        """The bot is done with (its table ended, or its seat is a person's again)."""
        if handle.lost:
            return
        handle.worker.bots -= 1
        if handle.blob is None:
            handle.worker.drops.append(handle.key)  # it reached the worker: forget it there
        handle.generation = -1

    async def decide(self, handle: BotHandle, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The bot's choice among ``legal`` (raises :class:`BotLost` or :class:`BotFailed`)."""
        if handle.lost:
            raise BotLost()
        room = self._room[handle.worker.lane]
        async with room:
            job = _Job(handle, obs, legal)
            handle.worker.queue.put_nowait(job)
            action = await job.done
        if action not in legal:
            raise BotFailed(f"the bot chose {action}, which is not a legal action")
        return action
