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
the game goes on, from the same log).  A worker is a fresh interpreter (``python -m
torite.server.botworker``, the games preloaded, a tenth of a second to start), started when its
first bot arrives: nothing of the server's threads, sockets or main module is inherited.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import pickle
import sys
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from torite.engine.base import Action
from torite.engine.bot import Bot
from torite.server.botworker import HEADER, READY

log = logging.getLogger("torite.server")

LANES = ("quick", "think")
#: how long a new worker may take to load the games (a busy machine) before it counts as failed
STARTUP_SECONDS = 60.0


class BotLost(Exception):
    """The worker that held the bot is gone, and the bot's state with it: make a new bot."""


class BotFailed(Exception):
    """The bot raised, or chose something that is not one of the legal actions."""


def _worker_env() -> dict[str, str]:
    """The worker imports what this process can: the same module path (a test's bot or game
    included), whichever way this process was started."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


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


class _Process:
    """A worker process on this machine, on pipes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.name = f"pid {proc.pid}"

    @classmethod
    async def start(cls) -> _Process:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "torite.server.botworker", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=_worker_env())
        assert proc.stdout is not None
        try:  # loading the games is not a decision: it does not count against the timeout
            (size,) = HEADER.unpack(await asyncio.wait_for(proc.stdout.readexactly(HEADER.size), STARTUP_SECONDS))
            if await proc.stdout.readexactly(size) != READY:
                raise OSError("the worker said something else than that it is ready")
        except BaseException:
            await _end(proc, 0.0)
            raise
        return cls(proc)

    def send(self, data: bytes) -> None:
        """A request on its way (asyncio buffers what the pipe cannot take yet)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(HEADER.pack(len(data)) + data)

    async def receive(self) -> bytes:
        assert self.proc.stdout is not None
        (size,) = HEADER.unpack(await self.proc.stdout.readexactly(HEADER.size))
        return await self.proc.stdout.readexactly(size)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def end(self, grace: float) -> None:
        await _end(self.proc, grace)


class _RayActor:
    """A worker on a Ray cluster: an actor keeping bots (``torite.server.botworker.BotHost``)."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor
        self.name = "a Ray actor"

    @classmethod
    async def start(cls, address: str) -> _RayActor:
        host = await asyncio.to_thread(_ray_host, address)
        actor = host.options(max_concurrency=1).remote()
        await asyncio.wait_for(actor.ready.remote(), STARTUP_SECONDS)
        return cls(actor)

    async def ask(self, data: bytes) -> bytes:
        out: bytes = await self.actor.decide.remote(data)
        return out

    async def end(self, grace: float) -> None:
        import ray

        with contextlib.suppress(Exception):
            ray.kill(self.actor)


_ray_hosts: dict[str, Any] = {}


def _ray_host(address: str) -> Any:
    """The bot host actor class on the Ray cluster at ``address`` (Ray joined once)."""
    if address not in _ray_hosts:
        try:
            import ray
        except ImportError:
            raise BotFailed("bots on Ray need Ray, which is not installed here: pip install 'torite[ray]'") from None
        from torite.server.botworker import BotHost

        if not ray.is_initialized():
            ray.init(address=None if address == "local" else address, include_dashboard=False,
                     log_to_driver=False)
        _ray_hosts[address] = ray.remote(BotHost)
    return _ray_hosts[address]


class _Worker:
    """One worker (a process here, or a Ray actor) and the decisions sent to it, answered one at a
    time in the order sent.  A request is written at once (the pipe and asyncio's buffer hold the
    ones waiting) and its answer comes back on a future: a caller that stops waiting (its table
    ended) leaves nothing out of step."""

    def __init__(self, lane: str, index: int, timeout: float, ray_address: str | None = None) -> None:
        self.lane = lane
        self.index = index
        self.timeout = timeout
        self.ray_address = ray_address
        self.bots = 0
        self.generation = 0  # grows when the worker is replaced: its bots are lost
        self.drops: list[int] = []
        self.proc: _Process | _RayActor | None = None
        self.waiting: deque[asyncio.Future[tuple[str, Any]]] = deque()
        self._starting: asyncio.Task[_Process | _RayActor] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._why = "it exited"

    def warm(self) -> None:
        """Start the worker before its first decision is asked for."""
        self._starting = asyncio.get_running_loop().create_task(self._spawn())

    async def _spawn(self) -> _Process | _RayActor:
        if self.ray_address is not None:
            return await _RayActor.start(self.ray_address)
        return await _Process.start()

    async def _ready(self) -> _Process | _RayActor:
        """The worker, started (once, whoever asks first) if it is not."""
        while self.proc is None:
            if self._starting is None:
                self._starting = asyncio.get_running_loop().create_task(self._spawn())
            starting = self._starting
            try:
                proc = await asyncio.shield(starting)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if self._starting is starting:
                    self._starting = None
                    log.error("cannot start a bot worker: %s", e)
                raise BotLost() from None
            if self._starting is starting:
                self._starting = None
                self.proc = proc
                if isinstance(proc, _Process):
                    self._why = "it exited"
                    self._reader = asyncio.get_running_loop().create_task(self._read(proc))
        return self.proc

    async def ask(self, handle: BotHandle, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        proc = await self._ready()
        if handle.lost:
            raise BotLost()
        try:
            data = pickle.dumps((self.drops, handle.key, handle.blob, obs, legal), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            raise BotFailed(f"cannot send the decision to a worker: {e}") from None
        self.drops = []
        handle.blob = None
        if isinstance(proc, _RayActor):
            try:
                async with asyncio.timeout(self.timeout):
                    reply = await proc.ask(data)
            except TimeoutError:
                await self._dead(proc, f"a decision took over {self.timeout:g} s")
                raise BotLost() from None
            except Exception:
                await self._dead(proc, "it died")
                raise BotLost() from None
            status, value = pickle.loads(reply)
        else:
            done: asyncio.Future[tuple[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting.append(done)
            if len(self.waiting) == 1:
                self._arm()
            proc.send(data)
            status, value = await done
        if status == "ok":
            action: Action = value
            return action
        if status == "failed":
            raise BotFailed(value)
        raise BotLost()

    def _arm(self) -> None:
        """The decision at the head of the line has ``timeout`` seconds from now."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.timeout, self._too_long) if self.waiting else None

    def _too_long(self) -> None:
        self._timer = None
        proc = self.proc
        if isinstance(proc, _Process):
            self._why = f"a decision took over {self.timeout:g} s"
            proc.kill()  # its reader sees the end and loses its bots

    async def _read(self, proc: _Process) -> None:
        """Answers, in the order the requests went; the end of the pipe is the worker's end."""
        try:
            while True:
                reply = pickle.loads(await proc.receive())
                if self.waiting:
                    done = self.waiting.popleft()
                    if not done.done():
                        done.set_result(reply)
                    self._arm()
        except asyncio.CancelledError:
            raise
        except Exception:
            await self._dead(proc, self._why)

    async def _dead(self, proc: _Process | _RayActor, why: str) -> None:
        """The worker is gone (or is being killed): its bots are lost, and every decision waiting
        on it; a new one starts with the next decision."""
        if self.proc is not proc:
            return
        self.proc = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        waiting, self.waiting = self.waiting, deque()
        for done in waiting:
            if not done.done():
                done.set_result(("lost", None))
        self.generation += 1
        lost, self.bots, self.drops = self.bots, 0, []
        await proc.end(0.0)
        log.warning("bot worker %s-%d (%s) is gone (%s): its %d bots start afresh",
                    self.lane, self.index, proc.name, why, lost)

    async def stop(self) -> None:
        starting, reader = self._starting, self._reader
        self._starting = self._reader = None
        for task in (starting, reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._timer is not None:
            self._timer.cancel()
        proc, self.proc = self.proc, None
        if proc is None and starting is not None and starting.done() and not starting.cancelled() \
                and starting.exception() is None:
            proc = starting.result()
        if proc is not None:
            await proc.end(5.0)


async def _end(proc: asyncio.subprocess.Process, grace: float) -> None:
    """End a worker: it sees the end of its input and stops (or is killed after ``grace``
    seconds), and its pipes are closed here, before the event loop may be."""
    if proc.stdin is not None:
        proc.stdin.close()
    if proc.returncode is None:
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    transport = getattr(proc, "_transport", None)  # asyncio keeps it; closing it frees the pipes now
    if transport is not None:
        transport.close()


class BotPool:
    """Worker processes for the bots of every table: ``think_workers`` for searches (default:
    the machine's cores), ``quick_workers`` for rule-of-thumb bots."""

    def __init__(self, think_workers: int | None = None, quick_workers: int = 2, *, max_pending: int = 256,
                 timeout: float = 60.0, ray_address: str | None = None) -> None:
        think = think_workers if think_workers is not None else (os.cpu_count() or 1)
        if think < 1 or quick_workers < 1 or max_pending < 1 or timeout <= 0:
            raise ValueError("a bot pool needs at least one worker a lane, max_pending >= 1 and a positive timeout")
        self.sizes = {"quick": quick_workers, "think": think}
        self.max_pending = max_pending
        self.timeout = timeout
        #: the searches think on this Ray cluster ("local": one started here) instead of in local processes
        self.ray_address = ray_address
        self.lanes: dict[str, list[_Worker]] = {}
        self._room: dict[str, asyncio.Semaphore] = {}
        self._keys = itertools.count(1)

    async def start(self) -> None:
        for lane in LANES:
            ray = self.ray_address if lane == "think" else None  # rule bots stay near: they are quick
            self.lanes[lane] = [_Worker(lane, i, self.timeout, ray) for i in range(self.sizes[lane])]
            self._room[lane] = asyncio.Semaphore(self.max_pending)
        # the first quick worker loads the games now, so the first rule bot's decision does not wait for it
        self.lanes["quick"][0].warm()

    async def stop(self) -> None:
        for workers in self.lanes.values():
            for w in workers:
                await w.stop()

    def pending(self, lane: str) -> int:
        """Decisions queued or being made in a lane."""
        return sum(len(w.waiting) for w in self.lanes[lane])

    def add(self, bot: Bot) -> BotHandle:
        """Give a new bot to the least busy worker of its lane."""
        lane = "think" if bot.thinks else "quick"
        try:
            blob = pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            raise BotFailed(f"the bot cannot be sent to a worker: {e}") from None
        worker = min(self.lanes[lane], key=lambda w: w.bots)
        worker.bots += 1
        return BotHandle(key=next(self._keys), worker=worker, generation=worker.generation,
                         uses_observation=bot.uses_observation, blob=blob)

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
        async with self._room[handle.worker.lane]:
            action = await handle.worker.ask(handle, obs, legal)
        if action not in legal:
            raise BotFailed(f"the bot chose {action}, which is not a legal action")
        return action
