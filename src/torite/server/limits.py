"""Per-client limits and retention: one client must not starve the others or fill the disk.

A token bucket per key (a client's address for table creation, a connection for its messages):
``burst`` actions at once, then ``rate`` per second.  A table creation over the limit is refused
(429, with how long to wait) and creates nothing; a WebSocket message over the limit is delayed
until its turn, so a flooding client is slowed and told so, and nothing it sent is lost.  An
honest client never meets either limit (a person sends a few messages a second at most, and
opens a table a minute).
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
    messages_per_second: float = 50.0  # WebSocket messages per connection (beyond: paced)
    messages_burst: int = 200
    retention_days: float = 30.0  # finished tables (and their records) are kept this long
    prune_every_seconds: float = 3600.0

    def __post_init__(self) -> None:
        for name in ("tables_per_minute", "messages_per_second", "retention_days", "prune_every_seconds"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")

    def table_limiter(self) -> RateLimiter:
        return RateLimiter(self.tables_per_minute / 60.0, self.tables_burst)

    def message_limiter(self) -> RateLimiter:
        return RateLimiter(self.messages_per_second, self.messages_burst)
