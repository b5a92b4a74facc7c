"""Per-client limits, expiry and retention: one client must not starve the others or fill the disk.

A token bucket per key (a client's address for table creation and for its messages, a connection
for its own messages): ``burst`` at once, then ``rate`` per second.  What happens past a limit:

* a table creation is refused (429, with how long to wait) and creates nothing;
* a WebSocket message waits its turn in the connection's queue (``message_queue`` long), so a
  burst is paced, in order, and answered; a message that finds the queue full is refused, and
  the client is told how many were refused by one ``slow_down`` error a second at most.  The
  socket is read all the while, so its keep-alive pongs are never left unread; a connection that
  has had ``flood_close`` messages refused is closed (1008);
* a connection whose replies pile up unread (``max_outbox`` of them, or a send that does not
  finish in ``send_timeout`` seconds) is closed (1008);
* an address whose connection was so closed may not open a WebSocket for ``flood_cooldown``
  seconds (refused before the handshake, which costs the server next to nothing);
* sockets beyond ``sockets_per_address`` from one address, or ``sockets_per_table`` at one
  table, get the error ``too_many_sockets`` and are closed;
* an address that opens more than ``connects_per_second`` sockets a second (past a burst of
  ``connects_burst``) is refused before the handshake (4429), cheaply: joining and leaving a
  table in a loop cannot make the server send whole states as fast as it can accept sockets;
  a refusal before the handshake comes after ``refusal_delay`` seconds, so a client retrying
  in a loop is slowed to a try every few seconds per socket instead of costing the server a
  handshake's work each time (at most ``refusal_holds`` sockets of an address wait so).

* an address past ``http_requests_per_second`` HTTP requests a second (after a burst of
  ``http_requests_burst``) is answered 429 with how long to wait, before any route runs;
* below HTTP, connections are capped per address and in all, and a request's headers and body
  must arrive in time (``torite.server.connections``).

An honest client never meets any of them (a person sends a few messages a second at most,
opens a table a minute, and a tab or two).  Limits hold per server process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field


@dataclass
class RateLimiter:
    """Token buckets by key.  ``allow(key)`` spends a token and returns 0.0, or returns the
    seconds until one is free (and spends nothing)."""

    rate: float  # tokens per second
    burst: int  # bucket size
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[Hashable, tuple[float, float]] = field(default_factory=dict)  # key -> (tokens, at)

    def __post_init__(self) -> None:
        if self.rate <= 0 or self.burst < 1:
            raise ValueError("a rate limit needs rate > 0 and burst >= 1")

    def allow(self, key: Hashable) -> float:
        now = self.clock()
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:
                self._forget_full(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        """A bucket that has refilled is the same as no bucket: drop those, so memory stays
        bounded by the clients active in the last ``burst / rate`` seconds."""
        full = [k for k, (t, at) in self._buckets.items() if t + (now - at) * self.rate >= self.burst]
        for k in full:
            del self._buckets[k]


@dataclass(frozen=True)
class ServerLimits:
    """The server options of ``torite serve`` that protect it (defaults suit a public table)."""

    tables_per_minute: float = 10.0  # table creations per client address
    tables_burst: int = 10
    messages_per_second: float = 50.0  # WebSocket messages per connection (beyond: queued, then refused)
    messages_burst: int = 200
    address_messages_per_second: float = 200.0  # WebSocket messages per client address, all its sockets
    address_messages_burst: int = 400
    message_queue: int = 100  # messages a connection may have waiting for their turn
    flood_close: int = 1000  # refused messages after which a connection is closed
    flood_cooldown: float = 10.0  # seconds an address so closed may not connect again
    max_outbox: int = 100  # replies a connection may leave unread before it is closed
    send_timeout: float = 30.0  # seconds a send may wait for a client that does not read
    sockets_per_address: int = 32
    sockets_per_table: int = 300
    #: WebSocket connections one address may open a second (``connects_burst`` at once): past
    #: it one is refused before the handshake, so a storm of joins and leaves costs next to nothing
    connects_per_second: float = 10.0
    connects_burst: int = 100
    #: a socket refused before the handshake waits this long for its answer (at most
    #: ``refusal_holds`` of one address at once; past that the refusal is at once): refused at
    #: once, a client that retries in a loop costs a handshake's work a thousand times a second
    refusal_delay: float = 2.0
    refusal_holds: int = 256
    #: origins besides the server's own (``scheme://host[:port]``) whose pages may open tables,
    #: act and connect: the address players use when a proxy rewrites the Host header
    allowed_origins: tuple[str, ...] = ()
    #: connections (HTTP or WebSocket) one address, and all together, may hold open in a process
    #: (``torite.server.connections``); past either a new one is closed as soon as it is accepted
    connections_per_address: int = 64
    connections_total: int = 4000
    #: seconds a request's headers may take to arrive (from the connection or the previous
    #: response), and its body (from its headers): a slowloris client is closed after them
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    #: HTTP requests one address may make a second, after a burst of ``http_requests_burst``:
    #: past it a request is answered 429 at once
    http_requests_per_second: float = 50.0
    http_requests_burst: int = 250
    unjoined_minutes: float = 5.0  # a table no person has joined expires after this
    idle_hours: float = 24.0  # a table where nothing happened expires after this
    retention_days: float = 30.0  # finished tables (and their records) are kept this long
    prune_every_seconds: float = 3600.0
    expire_every_seconds: float = 60.0

    def __post_init__(self) -> None:
        for name in ("tables_per_minute", "messages_per_second", "address_messages_per_second", "send_timeout",
                     "flood_cooldown", "connects_per_second", "header_timeout", "body_timeout",
                     "http_requests_per_second",
                     "unjoined_minutes", "idle_hours", "retention_days", "prune_every_seconds",
                     "expire_every_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        for name in ("tables_burst", "messages_burst", "address_messages_burst", "message_queue", "flood_close",
                     "max_outbox", "sockets_per_address", "sockets_per_table", "connects_burst", "refusal_holds",
                     "connections_per_address", "connections_total", "http_requests_burst"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.refusal_delay < 0:
            raise ValueError("refusal_delay must be zero or more")
        for origin in self.allowed_origins:
            if "://" not in origin or origin.endswith("/"):
                raise ValueError(f"an allowed origin is scheme://host[:port], not {origin!r}")

    def table_limiter(self) -> RateLimiter:
        return RateLimiter(self.tables_per_minute / 60.0, self.tables_burst)

    def message_limiter(self) -> RateLimiter:
        return RateLimiter(self.messages_per_second, self.messages_burst)

    def connect_limiter(self) -> RateLimiter:
        return RateLimiter(self.connects_per_second, self.connects_burst)

    def http_limiter(self) -> RateLimiter:
        return RateLimiter(self.http_requests_per_second, self.http_requests_burst)

    def address_message_limiter(self) -> RateLimiter:
        return RateLimiter(self.address_messages_per_second, self.address_messages_burst)
