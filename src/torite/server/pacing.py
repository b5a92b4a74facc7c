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
  first, ``BUILD_RATE`` a second, ``BUILD_BURST`` at once;
* a suggestion (what a bot would play at a replay's step): ``SUGGEST_RATE`` a second per
  address, ``SUGGEST_BURST`` at once, at most ``SUGGEST_AT_ONCE`` thinking in the whole server
  (the bot workers are the live tables' first), a level of at most ``SUGGEST_LEVELS[-1]``;
* the whole log resent to a socket (``lang``, ``sync``): once every ``1 / RESEND_RATE``
  seconds a socket (``RESEND_BURST`` at once), ``ADDRESS_RESEND_RATE`` a second an address;
  one asked for sooner waits its turn (the newest language wins), and a log goes out in pages
  of ``torite.server.live.LOG_PAGE`` lines.
"""

from __future__ import annotations

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
ADDRESS_RESEND_BURST: Final = 10


@dataclass
class Pacing:
    """The buckets of one server process (``app.state.pacing``)."""

    replays: RateLimiter = field(default_factory=lambda: RateLimiter(REPLAY_RATE, REPLAY_BURST))
    builds: RateLimiter = field(default_factory=lambda: RateLimiter(BUILD_RATE, BUILD_BURST))
    suggests: RateLimiter = field(default_factory=lambda: RateLimiter(SUGGEST_RATE, SUGGEST_BURST))
    resends: RateLimiter = field(default_factory=lambda: RateLimiter(ADDRESS_RESEND_RATE, ADDRESS_RESEND_BURST))
    #: suggestions being thought now, in the whole process
    suggesting: int = 0


def pace(limiter: RateLimiter, address: str, what: str) -> None:
    """Spend one of the address's tokens, or refuse (429) saying how long to wait."""
    wait = limiter.allow(address)
    if wait:
        raise TableError("slow_down", f"too many {what} from your address: try again in {max(1, round(wait))} s",
                         {"retry_after": max(1, round(wait))})


def resend_limiter() -> RateLimiter:
    """A socket's own bucket for resending its whole log."""
    return RateLimiter(RESEND_RATE, RESEND_BURST)


__all__ = ["SUGGEST_AT_ONCE", "SUGGEST_LEVELS", "Pacing", "pace", "resend_limiter"]
