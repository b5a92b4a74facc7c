"""The ASGI app: HTTP API, the static front end, and one WebSocket per client.

The server is the only authority on game state: clients send action texts, the server checks
them through the rules and sends each connection the state as its seat may see it.  Seats are
held by secret tokens (only their hashes are stored); a spectator joins without one and gets
the public view.

This module puts the app together: the HTTP handlers are in ``torite.server.routes``, the
WebSocket in ``torite.server.sockets``, what every request passes through (headers, the guard
on writes, refusals) in ``torite.server.guards``.

WebSocket protocol (JSON text frames), client → server::

    {"type": "join", "seat": 1, "token": "…", "tab": "…", "lang": "ko"}   # or "seat": null to
                                                 # watch; "tab": the browser tab's own id (a reload
                                                 # keeps it); "lang": the one language the texts
                                                 # come in (left out: every language, by code)
    {"type": "act", "action": "play 10D", "decision": 7}   # decision: optional, see below
    {"type": "back"}                             # "I am here": stop the idle stand-in bot
    {"type": "take_over"}                        # this tab keeps the seat; the others watch
    {"type": "stand_in", "seat": 2}              # the host: a gone player's seat to a bot now
    {"type": "hint"}                             # the normal bot's suggestion for this seat
    {"type": "sync"}                             # resend the whole state and log (paced:
                                                 # one asked too soon waits its turn)
    {"type": "lang", "lang": "ja"}               # words in this language from now on (paced
                                                 # as sync; the newest language wins)
    {"type": "ping"}

server → client: ``{"type": "state", …}`` (``lang``: the one language its words are in, or null
when they come in every language, each a ``{lang: text}`` map either way; the seat's view
(``torite.present.view``, as ``torite.server.viewjson`` writes it: ``phase``, ``round``,
``dealer``, ``facts`` per seat (cards left, tricks, points, total, an open hand), the sorted
``hand``, the ``trick`` and the ``last_trick`` with its facts, ``piles``, ``auction``,
``contract``, ``legal`` actions with their button texts, the ``decision`` by widget, ``status``
rows, ``round_scores`` and ``scores``), seats, new log lines (at most 200: ``log_rest`` says
how many more follow as ``{"type": "log", "log_from", "log", "log_rest"}`` messages), ``n``
actions so far, ``ts`` of the change, ``now`` the server's clock; ``winning`` the seat winning
the unfinished trick when the seat sees all of it, else null; ``idle_deadlines`` per seat, when its idle clock runs
out (epoch seconds) or null; ``rematch`` ``{"id", "path"}`` once the same players sit at a new
table, the path holding this seat's own token); what teaches: ``reasons`` (``cards``: each
disabled card's reason by card, ``actions``: each disabled bid or call's by action text, from
``state.refusal``), ``roles`` (per language, each seat's roles: dealer, president, declarer…),
``goal`` (how the game is won), ``auction`` (the bidding so far, for a bidding history),
``decision.all_calls`` (every call beside a bidding box, legal or not), ``hints`` (how many each
seat took); ``joined`` (with ``others``: how many other tabs hold the seat now, so a second
browser asks before it takes the seat over), ``taken_over`` (another tab took this seat: the
connection watches now), ``hint`` (``action``, its ``label`` and the bot's ``reason`` by
language; built from the seat's observation and legal actions only),
``ack``, ``pong``, and ``{"type": "error", "code": …, "message": …}`` for anything refused —
a refused message changes nothing, and only its sender hears of it.

Decisions.  A seat's state carries ``decision_no``, the number of that seat's next decision (how
many actions it has made).  An ``act`` (or ``POST …/actions``) may name it as ``decision``; if the seat has
decided since (a second click, another tab, the idle stand-in), the action is refused with
``stale`` instead of landing on the next decision.  The web front end always names it.

Limits (``torite.server.limits``).  An ``act`` is answered with its ``ack`` before the state it
changed.  Past a limit: ``slow_down`` (with ``refused``, the count so far) for messages refused
because too many wait; ``too_many_sockets`` and a close (1008) for a socket past the address's
or the table's; a close (1008) for a flood or a client that does not read, after which its
address is refused (4429) for a while; a close (4403) before the handshake for another site's
page; ``expired`` and a close (4410) when the table leaves play; ``storage`` when the database
is out of reach (over HTTP: a 503).

Words.  ``GET /api/games`` carries each game's labels in every language it ships (title,
options, phases, action names, trick tags, …; see ``torite.present.labels``).  What depends on
the moment is rendered here, from the seat's observation and visible events only, in every
language at once, so a client switches language without asking: ``status`` and
``last_trick`` are ``{lang: [[label, value], …]}``, a legal action's ``label`` and a log line's
``text`` are ``{lang: text}``.  A log line is ``{"i", "text", "kind"}`` (``i`` the event's index,
``kind`` its kind); the line of a finished trick, a round's end and the game's end also carries
the event's ``data`` (what the table shows: the trick staying a moment, the round summary).
"""
from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from torite.server import replays as replaying
from torite.server.bots import BotPool
from torite.server.guards import HttpPacer, SecurityHeaders, WriteGuard, table_error
from torite.server.limits import ServerLimits
from torite.server.live import TableError
from torite.server.pacing import Pacing
from torite.server.routes import (
    LANGS,
    WEB_DIR,
    create_table,
    index_page,
    list_games,
    list_reports,
    post_action,
    preview,
    rematch,
    replay_page,
    replay_step,
    replay_suggest,
    report_file,
    rules,
    table_info,
    table_page,
    table_record,
    table_replay,
    table_replay_suggest,
    version,
)
from torite.server.sockets import SocketCounts, table_socket
from torite.server.store import Store
from torite.server.tables import TableManager

__all__ = ["LANGS", "REPORTS_DIR", "SERVE_ENV", "WEB_DIR", "app_from_environment", "create_app"]

log = logging.getLogger("torite.server")

#: where scripts/make_reports.py writes the ready-made reports: var/reports at the checkout's root
REPORTS_DIR = Path(__file__).resolve().parents[3] / "var" / "reports"


# ------------------------------------------------------------------ app
_tuned = False

#: the collector's first threshold for a server process (Python's default: 700)
YOUNG_THRESHOLD = 10_000


def _tune_collector() -> None:
    """The garbage collector, for a server that holds hundreds of tables, once per process.  A
    collection stops the event loop while it walks its objects: with 240 tables (some 250,000
    objects) a full one took 100–180 ms here, every few seconds, and those pauses were most of
    a person's p99 latency.  So: what the server holds for good from startup (modules, the
    games' words, the database engine: some 60,000 objects) is frozen out of every pass (still
    freed as usual when nothing refers to it); and a young collection waits for 10,000 new
    objects instead of 700, so most objects, a state message's or a move's, are gone by their
    reference counts before any pass looks at them, far fewer live long enough to fill the
    older generations, and full passes become rare (in a 25-second run at 240 tables: one
    instead of seven, 0.2 s of pauses instead of 1.2 s, the same memory)."""
    global _tuned
    if not _tuned:
        _tuned = True
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def create_app(db_url: str | None = None, *, store: Store | None = None, bot_workers: int | None = None,
               ray_address: str | None = None,
               limits: ServerLimits | None = None,
               max_tables: int = 2000, reports_dir: str | Path | None = REPORTS_DIR) -> Starlette:
    """The app on a database URL (default ``sqlite:///torite.db``) or on a given store;
    ``reports_dir`` is served at ``/reports/`` when it exists (None: never)."""
    own_store = store is None
    limits = limits if limits is not None else ServerLimits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        st = store if store is not None else Store(db_url)
        manager = TableManager(st, bots=BotPool(bot_workers, ray_address=ray_address), max_tables=max_tables)
        app.state.manager = manager
        with contextlib.suppress(TableError):  # tables abandoned while the server was down are not rebuilt
            await manager.expire(limits.unjoined_minutes * 60, limits.idle_hours * 3600)
        await manager.start()
        _tune_collector()
        pruner = asyncio.create_task(_housekeeping(manager, limits))
        try:
            yield
        finally:
            pruner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pruner
            await manager.stop()
            if own_store:
                st.close()

    routes = [
        Route("/", index_page),
        Route("/t/{table_id}", table_page),
        Route("/replay", replay_page),
        Route("/replay/{table_id}", replay_page),
        # a record may be larger than any other body: its own bound (a JSON 413 past the record's
        # size; past the envelope's, unread)
        Route("/api/replay", replay_step, methods=["POST"],
              middleware=[Middleware(RequestBodyLimitMiddleware, max_body_size=replaying.MAX_RECORD_ENVELOPE)]),
        Route("/api/replay/suggest", replay_suggest, methods=["POST"],
              middleware=[Middleware(RequestBodyLimitMiddleware, max_body_size=replaying.MAX_RECORD_ENVELOPE)]),
        Route("/api/games", list_games),
        Route("/api/preview", preview, methods=["POST"]),
        Route("/api/games/{game}/rules", rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/replay", table_replay),
        Route("/api/tables/{table_id}/replay/suggest", table_replay_suggest),
        Route("/api/tables/{table_id}/actions", post_action, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/reports", list_reports),
        Route("/api/version", version),
        Route("/api/version", version),
        Route("/reports/{name}", report_file),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, max_body_size=64 * 1024,
                    exception_handlers={TableError: table_error})
    app.state.reports_dir = Path(reports_dir) if reports_dir is not None else None
    app.state.limits = limits
    app.state.table_limiter = limits.table_limiter()
    app.state.address_limiter = limits.address_message_limiter()
    app.state.sockets = SocketCounts()
    app.state.connect_limiter = limits.connect_limiter()
    app.state.refusals_held = {}
    app.state.pacing = Pacing()
    app.state.replays = replaying.Replays(budget=app.state.pacing.work)
    app.state.penalties = {}
    app.add_middleware(WriteGuard, allowed_origins=limits.allowed_origins)
    app.add_middleware(HttpPacer, limiter=limits.http_limiter())
    app.add_middleware(SecurityHeaders)
    return app


#: ``torite serve --workers N`` hands each process its settings in this variable (JSON)
SERVE_ENV = "TORITE_SERVE"


def app_from_environment() -> Starlette:
    """The app of one of ``torite serve --workers N``'s processes, from ``TORITE_SERVE``."""
    settings = json.loads(os.environ[SERVE_ENV])
    fields = dict(settings["limits"])
    fields["allowed_origins"] = tuple(fields.get("allowed_origins", ()))
    return create_app(settings["db"], limits=ServerLimits(**fields), bot_workers=settings.get("bot_workers"),
                      ray_address=settings.get("ray"))


async def _housekeeping(manager: TableManager, limits: ServerLimits) -> None:
    """Tables nobody plays at expire (``unjoined_minutes``, ``idle_hours``); finished and
    expired tables are kept ``retention_days`` (their records downloadable), then deleted.
    The first pass runs at once, so a restart finds the abandoned tables out of play."""
    next_prune = 0.0
    while True:
        try:
            await manager.expire(limits.unjoined_minutes * 60, limits.idle_hours * 3600)
            if time.monotonic() >= next_prune:
                next_prune = time.monotonic() + limits.prune_every_seconds
                gone = await manager.prune(time.time() - limits.retention_days * 86400)
                if gone:
                    log.info("pruned %d tables past the retention of %g days", len(gone), limits.retention_days)
        except TableError:
            pass  # the database is out of reach: said once in the log, tried again next time
        except Exception:
            log.exception("expiring or pruning tables failed; will retry")
        await asyncio.sleep(min(limits.expire_every_seconds, limits.prune_every_seconds))
