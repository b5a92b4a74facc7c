"""Bounds on the connections themselves, below HTTP and WebSocket: how many one address and all
of them may hold open, how long a request's headers and body may take, and one log line per
condition instead of one per failure.

Its own part because these bounds must hold before the app sees anything: a client that opens
sockets and sends nothing, or a header a byte every few seconds (slowloris), never reaches a
route, yet each such socket holds a descriptor.  Uvicorn has no header timeout and no cap on
open connections, so ``torite serve`` runs it with the HTTP and WebSocket protocol classes
wrapped here (:func:`guard_config`):

* a connection past ``connections_per_address`` open from its address, or past
  ``connections_total`` open in all, is closed as soon as it is accepted, before anything is
  read (the total is kept below the process's descriptor limit, so ``accept`` never runs out of
  descriptors: Python's accept loop logs a traceback per failed ``accept``, up to a hundred a
  tick); at the total cap, the connection that has waited longest (over a second) for a
  request's headers makes room instead, so stalled connections from many addresses cannot
  hold the cap against the clients that talk;
* a request's headers must be complete ``header_timeout`` seconds after the connection opened or
  the previous response ended, its body ``body_timeout`` seconds after its headers; past that
  the client is answered 408 and the connection closed (a WebSocket, once upgraded, is bounded
  by its pings and the limits of ``torite.server.sockets`` instead);
* each condition is said in the log once a minute at most, with how many times it happened
  (:class:`ConditionLog`), and the loggers of asyncio and uvicorn say a repeated error once a
  minute (:class:`RepeatFilter`), so a flood cannot fill the disk with tracebacks.

A reverse proxy's address (``--forwarded-allow-ips``) is not capped per address: every client
behind it shares it; the total cap still holds.  Limits hold per server process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import socket
import time
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

log = logging.getLogger("torite.server")

#: descriptors kept for everything but client connections (the database, the bot workers'
#: pipes, static files, the listening socket)
RESERVED_DESCRIPTORS = 256
#: seconds a connection must have waited for its headers before it makes room at the total cap
EVICT_AFTER = 1.0
#: the shortest wait between two of a connection's checks (seconds)
MIN_CHECK = 0.25
TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    b"connection: close\r\ncontent-length: 37\r\n\r\nthe request took too long to arrive\r\n")


class ConditionLog:
    """Say each condition once per ``every`` seconds at most, with how many times it happened
    since it was last said: a flood of refusals is a line a minute, not a line per refusal."""

    def __init__(self, logger: logging.Logger, every: float = 60.0) -> None:
        self.logger, self.every = logger, every
        self._seen: dict[str, tuple[float, int]] = {}  # condition -> (said at, times since)

    def note(self, condition: str, message: str, *args: Any) -> None:
        now = time.monotonic()
        said, times = self._seen.get(condition, (-1e18, 0))
        times += 1
        if now - said < self.every:
            self._seen[condition] = (said, times)
            return
        self._seen[condition] = (now, 0)
        self.logger.warning(message + " (%d time%s in the last minute)", *args, times, "" if times == 1 else "s")


class RepeatFilter(logging.Filter):
    """Let one record of a kind (its logger, message template and exception type) through per
    ``every`` seconds; the next one that passes says how many were held back."""

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every = every
        self._seen: dict[tuple[str, str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, str(record.msg), kind)
        now = time.monotonic()
        said, held = self._seen.get(key, (-1e18, 0))
        if now - said < self.every:
            self._seen[key] = (said, held + 1)
            return False
        if len(self._seen) > 1000:
            self._seen.clear()
        self._seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} [{held} more like this in the last minute, not logged]"
        return True


_quieted = False


def quiet_repeats() -> None:
    """Hold back repeated errors of asyncio and uvicorn (once per process)."""
    global _quieted
    if not _quieted:
        _quieted = True
        for name in ("asyncio", "uvicorn.error"):
            logging.getLogger(name).addFilter(RepeatFilter())


@dataclass(frozen=True)
class ConnectionLimits:
    per_address: int = 64
    total: int = 4000
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    #: addresses not capped per address (the reverse proxies; "*": all)
    exempt: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.per_address < 1 or self.total < 1:
            raise ValueError("connection caps must be at least 1")
        if self.header_timeout <= 0 or self.body_timeout <= 0:
            raise ValueError("connection timeouts must be positive")


class ConnectionGuard:
    """This process's open connections, by address and in all.  Pickled (to a worker process
    uvicorn spawns) it arrives empty, with the same limits."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.by_address: dict[str, int] = {}
        self.open: dict[int, str] = {}  # id(transport) -> its address
        self.says = ConditionLog(log)
        self._total: int | None = None
        #: the connections waiting for a request's headers, the longest waiting first
        self.idle: dict[int, GuardedHTTP] = {}
        #: connections refused by the listening socket, before any transport was made for them
        self.refused_at_accept = 0

    def __reduce__(self) -> tuple[Any, tuple[ConnectionLimits]]:
        return (ConnectionGuard, (self.limits,))

    @property
    def total(self) -> int:
        """The total cap, below the descriptor limit (raised to the hard limit if need be)."""
        if self._total is None:
            quiet_repeats()
            want = self.limits.total + RESERVED_DESCRIPTORS
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            if soft != resource.RLIM_INFINITY and soft < want:
                new = want if hard == resource.RLIM_INFINITY else min(want, hard)
                try:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
                    soft = new
                except (ValueError, OSError):
                    pass
            self._total = self.limits.total
            if soft != resource.RLIM_INFINITY and soft - RESERVED_DESCRIPTORS < self._total:
                self._total = max(1, soft - RESERVED_DESCRIPTORS)
                log.warning("at most %d connections at once: the descriptor limit is %d", self._total, soft)
        return self._total

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in, or say (once a minute) why not."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        held = self.by_address.get(address, 0)
        exempt = self.limits.exempt
        if held >= self.limits.per_address and "*" not in exempt and address not in exempt:
            self.says.note("address", "refused connections from an address holding %d already (last: %s)",
                           held, address)
            return False
        if len(self.open) >= self.total and not self._evict_idle():
            self.says.note("total", "refused connections: %d are open, the most this process holds", len(self.open))
            return False
        self.by_address[address] = held + 1
        self.open[id(transport)] = address
        return True

    def refuses(self, address: str) -> bool:
        """Whether a connection from ``address`` is over its cap already (as :meth:`admit` would
        find), said once a minute: the listening socket asks, before a transport is made."""
        held = self.by_address.get(address, 0)
        if held < self.limits.per_address or "*" in self.limits.exempt or address in self.limits.exempt:
            return False
        self.says.note("address", "refused connections from an address holding %d already (last: %s)",
                       held, address)
        self.refused_at_accept += 1
        return True

    def waiting(self, conn: GuardedHTTP, since: bool) -> None:
        """``conn`` waits for a request's headers from now on (``since``), or no longer."""
        key = id(conn)
        self.idle.pop(key, None)
        if since:
            self.idle[key] = conn  # the oldest first

    def _evict_idle(self) -> bool:
        """At the total cap, the connection that has waited longest for a request's headers
        makes room, if it has waited ``EVICT_AFTER`` seconds (an honest client sends its headers
        at once; a keep-alive connection reconnects): a slowloris crowd cannot hold the cap."""
        now = time.monotonic()
        while self.idle:
            key = next(iter(self.idle))
            conn = self.idle[key]
            since = conn.idle_since(now)
            if since is None:
                self.idle.pop(key, None)  # no longer waiting (closed, a WebSocket now): forgotten
                continue
            if now - since < EVICT_AFTER:
                return False
            self.idle.pop(key, None)
            self.says.note("evicted", "closed connections waiting for their headers to make room (%d open)",
                           len(self.open))
            conn.time_out()
            return True
        return False

    def release(self, transport: asyncio.BaseTransport | None) -> None:
        address = self.open.pop(id(transport), None)
        if address is not None:
            left = self.by_address.get(address, 0) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)


def guard_of(config: Any) -> ConnectionGuard | None:
    guard: ConnectionGuard | None = getattr(config, "torite_guard", None)
    return guard


class GuardedHTTP:
    """Mixed into uvicorn's HTTP protocol: the caps when a connection opens, the header and body
    timeouts while it lives (one timer per connection, looking again when it fires)."""

    config: Any
    transport: Any
    cycle: Any
    loop: asyncio.AbstractEventLoop

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._guard = guard_of(self.config)
        self._admitted = False
        self._timer: asyncio.TimerHandle | None = None
        self._cycle_seen: Any = None
        self._waiting = True  # for a request's headers (else: a request is in hand)
        self._since = time.monotonic()

    def connection_made(self, transport: Any) -> None:
        guard = self._guard
        if guard is not None:
            if not guard.admit(transport):
                transport.abort()  # nothing read, nothing answered: it costs next to nothing
                return
            self._admitted = True
            self._since = time.monotonic()
            self._timer = self.loop.call_later(guard.limits.header_timeout, self._check)
            guard.waiting(self, True)
        super().connection_made(transport)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guard is not None and not self._admitted:
            return  # refused at once: uvicorn never knew of it
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._guard is not None:
            self._guard.waiting(self, False)
        try:
            super().connection_lost(exc)  # type: ignore[misc]
        finally:
            if self._guard is not None and self.transport is not None and self.transport.get_protocol() is self:
                self._guard.release(self.transport)

    def data_received(self, data: bytes) -> None:
        if self._guard is not None and not self._admitted:
            return
        super().data_received(data)  # type: ignore[misc]
        self._observe()
        if self._guard is not None and self.transport.get_protocol() is not self:
            self._guard.waiting(self, False)  # a WebSocket now: its own bounds hold

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._waiting, self._since = True, time.monotonic()
        if not self._observe():
            self._arm()
            if self._guard is not None and self._admitted:
                self._guard.waiting(self, True)

    def _observe(self) -> bool:
        """A new request's headers have arrived: its body's clock starts (True)."""
        cycle = self.cycle
        if cycle is not None and cycle is not self._cycle_seen:
            self._cycle_seen = cycle
            if not cycle.response_complete:
                self._waiting, self._since = False, time.monotonic()
                self._arm()
                if self._guard is not None:
                    self._guard.waiting(self, False)
                return True
        return False

    def idle_since(self, now: float) -> float | None:
        """Since when this connection has waited for a request's headers (None: it does not)."""
        t = self.transport
        if not self._waiting or t is None or t.is_closing() or t.get_protocol() is not self:
            return None
        self._observe()
        since: float = self._since
        return since if self._waiting else None

    def time_out(self) -> None:
        """408 and closed: its request's headers, or body, took too long."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        cycle = self.cycle
        if cycle is None or self._waiting or not cycle.response_started:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()

    def _arm(self) -> None:
        """The timer for the clock running now (headers or body)."""
        if self._guard is None or not self._admitted:
            return
        if self._timer is not None:
            self._timer.cancel()
        lim = self._guard.limits
        wait = lim.header_timeout if self._waiting else lim.body_timeout
        self._timer = self.loop.call_later(max(wait - (time.monotonic() - self._since), MIN_CHECK), self._check)

    def _check(self) -> None:
        self._timer = None
        guard, transport = self._guard, self.transport
        if guard is None or transport is None or transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or a WebSocket now (its own bounds hold)
        self._observe()
        now = time.monotonic()
        lim = guard.limits
        cycle = self.cycle
        if self._waiting:
            left, what = lim.header_timeout - (now - self._since), "headers"
        elif cycle is not None and cycle.more_body and not cycle.response_complete:
            left, what = lim.body_timeout - (now - self._since), "body"
        else:
            left, what = lim.header_timeout, ""  # the app is answering: look again later
        if what and left <= 0:
            guard.says.note(what, "closed connections whose request %s took longer than %g s",
                            what, lim.header_timeout if what == "headers" else lim.body_timeout)
            self.time_out()
            return
        self._timer = self.loop.call_later(max(left, MIN_CHECK), self._check)


class GuardedWebSocket:
    """Mixed into uvicorn's WebSocket protocol: the connection the HTTP protocol counted in is
    counted out when the WebSocket ends."""

    config: Any

    def connection_made(self, transport: Any) -> None:
        self._guarded_transport = transport
        super().connection_made(transport)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)  # type: ignore[misc]
        finally:
            guard = guard_of(self.config)
            if guard is not None:
                guard.release(getattr(self, "_guarded_transport", None))


class GuardedHTTPProtocol(GuardedHTTP, AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """The HTTP protocol uvicorn's "auto" picks (httptools if installed, else h11), guarded."""


if AutoWebSocketsProtocol is not None:
    class GuardedWebSocketProtocol(GuardedWebSocket, AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
        """The WebSocket protocol uvicorn's "auto" picks, guarded."""


#: connections refused in one ``accept`` at most, before the event loop has its turn again
REFUSED_AT_ONCE = 1000


class GuardedListener(socket.socket):
    """The listening socket, refusing a connection from an address over its cap as it accepts
    it: the descriptor closed before the event loop makes a transport and a protocol for it.
    That path cost some 0.3 ms of the loop a connection, and a slowloris crowd reconnecting
    as fast as it was refused (thousands a second from 80 addresses) took a whole core and a
    bystander's p99 to 750 ms; closing a descriptor costs a few microseconds.  The event loop
    accepts through ``accept`` (asyncio's ``create_server(sock=...)`` calls it); what it is given
    is an ordinary connection."""

    guard: ConnectionGuard

    @classmethod
    def adopt(cls, sock: socket.socket, guard: ConnectionGuard) -> GuardedListener:
        """``sock``'s descriptor under this class (``sock`` is detached: use the one returned)."""
        listener = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        listener.guard = guard
        return listener

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(REFUSED_AT_ONCE):
            fd, addr = self._accept()  # type: ignore[attr-defined]  # BlockingIOError: none waiting
            address = str(addr[0]) if isinstance(addr, tuple) and addr else "?"
            if not self.guard.refuses(address):
                conn = socket.socket(self.family, self.type, self.proto, fileno=fd)
                if socket.getdefaulttimeout() is None and self.gettimeout():
                    conn.setblocking(True)
                return conn, addr
            os.close(fd)
        raise BlockingIOError("refused connections enough for now: the event loop's turn")


def serving_sockets(config: Any, sock: socket.socket) -> list[socket.socket]:
    """The sockets to give ``uvicorn.Server.run``: ``sock`` guarded when ``config`` is (a
    listener handed to worker processes arrives in them plain, and their protocols refuse
    instead, a little dearer)."""
    guard = guard_of(config)
    if guard is None or getattr(config, "workers", 1) > 1:
        return [sock]
    return [GuardedListener.adopt(sock, guard)]


def guard_config(config: Any, limits: ConnectionLimits) -> Any:
    """``config`` (a ``uvicorn.Config`` not yet loaded) with the guarded protocols and a guard."""
    config.http = GuardedHTTPProtocol
    if AutoWebSocketsProtocol is not None:
        config.ws = GuardedWebSocketProtocol
    config.torite_guard = ConnectionGuard(limits)
    return config
