"""What the web server's data paths may cost one client: replays, suggestions and the log
resent on a language switch or a ``sync``, each paced per address (and per socket), each queue
and cache bounded.

Its own part because these bounds are about the work a request makes the server do (a record
checked, a bot asked, a whole log written out), not about connections: those are
``torite.server.limits``.  Past a bound the client gets a clear refusal (``slow_down``, 429, with
the seconds to wait; ``busy``, 503, when every place in a queue is taken), and nothing changes.

The bounds (per server process):

* a replay request (a step of a record or of a table): ``REPLAY_RATE`` a second per address,
  ``REPLAY_BURST`` at once; a record or table not in the cache, which must be replayed whole
  first, ``BUILD_RATE`` a second, ``BUILD_BURST`` at once (and one at a time in the process, a
  few waiting: ``torite.server.replays.BUILDS_AT_ONCE``);
* a suggestion (what a bot would play at a replay's step): ``SUGGEST_RATE`` a second per
  address, ``SUGGEST_BURST`` at once, at most ``SUGGEST_AT_ONCE`` thinking in the whole server
  (the bot workers are the live tables' first), a level of at most ``SUGGEST_LEVELS[-1]``;
* the whole log resent to a socket (``lang``, ``sync``): once every ``1 / RESEND_RATE``
  seconds a socket (``RESEND_BURST`` at once), ``ADDRESS_RESEND_RATE`` a second an address;
  one asked for sooner waits its turn (the newest language wins: nothing is refused, many asks
  are one resend);
* the replays' work together (a step rendered, a record checked whole), from every address:
  ``WORK_SHARE`` of a core (``WorkBudget``; ``busy``, 503, past it);
* a log goes out in pages of ``torite.server.live.LOG_PAGE`` lines; a socket catching up on
  one (it joined, or asked for it again) gets ``PAGE_RATE`` pages a second (``PAGE_BURST`` at
  once), an address's sockets ``ADDRESS_PAGE_RATE`` together.  A socket that is up to date gets
  each new line at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final

from torite.server.limits import RateLimiter
from torite.server.live import TableError

REPLAY_RATE: Final = 20.0
REPLAY_BURST: Final = 60
BUILD_RATE: Final = 0.5
BUILD_BURST: Final = 6
SUGGEST_RATE: Final = 0.5
SUGGEST_BURST: Final = 4
SUGGEST_AT_ONCE: Final = 2
#: the levels a suggestion may be asked of (the searches past ``hard`` take seconds a decision)
SUGGEST_LEVELS: Final = ("random", "easy", "normal", "hard")
RESEND_RATE: Final = 0.5
RESEND_BURST: Final = 3
ADDRESS_RESEND_RATE: Final = 2.0
ADDRESS_RESEND_BURST: Final = 6
#: pages of a log being caught up (a join, a resend), per socket and per address
PAGE_RATE: Final = 20.0
PAGE_BURST: Final = 10
ADDRESS_PAGE_RATE: Final = 30.0
ADDRESS_PAGE_BURST: Final = 30


#: the share of one core the work of replays may take together, and what may be spent at once
#: (CPU seconds): past it a replay is answered ``busy`` until the share has refilled
WORK_SHARE: Final = 0.25
WORK_BURST: Final = 0.5


@dataclass
class WorkBudget:
    """The CPU the server's optional heavy work (a replay's step rendered, a record checked
    whole) may take, from every address together: pacing by address bounds one client, not
    many (four addresses within their own limits took most of a core and a bystander's p99 to
    200 ms).  Work is charged what it really cost (``time.thread_time`` of the thread doing it);
    the bucket refills at ``share`` of a core.  It reads the clock to pace the server, never to
    decide anything in a game."""

    share: float = WORK_SHARE
    burst: float = WORK_BURST
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens, self.at = self.burst, self.clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.share)
        self.at = now

    def check(self) -> None:
        """Refuse (``busy``, 503, with the seconds to wait) while the share is spent."""
        self._refill()
        if self.tokens <= 0:
            wait = max(1, math.ceil(-self.tokens / self.share))
            raise TableError("busy", f"the server is busy replaying for others: try again in {wait} s",
                             {"retry_after": wait})

    def charge(self, seconds: float) -> None:
        self._refill()
        self.tokens -= seconds

    @contextlib.contextmanager
    def spend(self) -> Iterator[None]:
        """Check, then charge the CPU the block took on this thread."""
        self.check()
        start = time.thread_time()
        try:
            yield
        finally:
            self.charge(time.thread_time() - start)


@dataclass
class Pacing:
    """The buckets of one server process (``app.state.pacing``)."""

    replays: RateLimiter = field(default_factory=lambda: RateLimiter(REPLAY_RATE, REPLAY_BURST))
    builds: RateLimiter = field(default_factory=lambda: RateLimiter(BUILD_RATE, BUILD_BURST))
    suggests: RateLimiter = field(default_factory=lambda: RateLimiter(SUGGEST_RATE, SUGGEST_BURST))
    resends: RateLimiter = field(default_factory=lambda: RateLimiter(ADDRESS_RESEND_RATE, ADDRESS_RESEND_BURST))
    pages: RateLimiter = field(default_factory=lambda: RateLimiter(ADDRESS_PAGE_RATE, ADDRESS_PAGE_BURST))
    #: the replays' share of the CPU, every address together
    work: WorkBudget = field(default_factory=WorkBudget)
    #: suggestions being thought now, in the whole process
    suggesting: int = 0


def pace(limiter: RateLimiter, address: str, what: str) -> None:
    """Spend one of the address's tokens, or refuse (429) saying how long to wait."""
    wait = limiter.allow(address)
    if wait:
        raise TableError("slow_down", f"too many {what} from your address: try again in {max(1, round(wait))} s",
                         {"retry_after": max(1, round(wait))})


def _spend(own: RateLimiter, shared: RateLimiter, address: str) -> float:
    """A token of the socket's bucket and of its address's, or the seconds to wait."""
    return own.allow(None) or shared.allow(address)


class SocketPacing:
    """One socket's resends and log pages (see the module docstring): what must wait is kept
    (the newest resend asked for) and done when its turn comes, on a timer of its own, so the
    socket's other messages are never held up by it."""

    def __init__(self, wake: Callable[[], None], pacing: Pacing, address: str) -> None:
        self.wake, self.pacing, self.address = wake, pacing, address
        self.resends = RateLimiter(RESEND_RATE, RESEND_BURST)
        self.pages = RateLimiter(PAGE_RATE, PAGE_BURST)
        self.waiting: Callable[[], None] | None = None
        self._resend_at: asyncio.TimerHandle | None = None
        self._page_at: asyncio.TimerHandle | None = None
        self.closed = False

    def resend(self, apply: Callable[[], None]) -> None:
        """Do ``apply`` (it resends the whole log) now if both buckets allow, else when they do
        (replacing whatever resend waited)."""
        self.waiting = apply
        if self._resend_at is None:
            self._try_resend()

    def _try_resend(self) -> None:
        self._resend_at = None
        if self.waiting is None or self.closed:
            return
        wait = _spend(self.resends, self.pacing.resends, self.address)
        if wait:
            self._resend_at = asyncio.get_running_loop().call_later(wait, self._try_resend)
            return
        apply, self.waiting = self.waiting, None
        apply()

    def page(self) -> bool:
        """Whether a page of a log being caught up may go now; if not, the socket's writer is
        woken when one may."""
        wait = _spend(self.pages, self.pacing.pages, self.address)
        if not wait:
            return True
        if self._page_at is None and not self.closed:
            self._page_at = asyncio.get_running_loop().call_later(wait, self._page_ready)
        return False

    def _page_ready(self) -> None:
        self._page_at = None
        self.wake()

    def close(self) -> None:
        self.closed = True
        for handle in (self._resend_at, self._page_at):
            if handle is not None:
                handle.cancel()
        self._resend_at = self._page_at = None
        self.waiting = None


__all__ = ["SUGGEST_AT_ONCE", "SUGGEST_LEVELS", "Pacing", "SocketPacing", "WorkBudget", "pace"]
