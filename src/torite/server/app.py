"""The ASGI app: HTTP API, the static front end, and one WebSocket per client.

The server is the only authority on game state: clients send action texts, the server checks
them through the rules and sends each connection the state as its seat may see it.  Seats are
held by secret tokens (only their hashes are stored); a spectator joins without one and gets
the public view.

WebSocket protocol (JSON text frames), client → server::

    {"type": "join", "seat": 1, "token": "…", "tab": "…"}   # or "seat": null to watch; "tab":
                                                 # the browser tab's own id (a reload keeps it)
    {"type": "act", "action": "play 10D", "decision": 7}   # decision: optional, see below
    {"type": "back"}                             # "I am here": stop the idle stand-in bot
    {"type": "take_over"}                        # this tab keeps the seat; the others watch
    {"type": "stand_in", "seat": 2}              # the host: a gone player's seat to a bot now
    {"type": "hint"}                             # the normal bot's suggestion for this seat
    {"type": "sync"}                             # resend the whole state and log
    {"type": "ping"}

server → client: ``{"type": "state", …}`` (the seat's observation, sorted hand, legal actions
with their button texts, status rows and the last trick's facts, seats, new log lines, ``n``
actions so far, ``ts`` of the change, ``now`` the server's clock; ``piles`` the observation's
card piles by the rule of ``tables.piles_of``; ``winning`` the seat winning the unfinished trick
when the seat sees all of it, else null; ``idle_deadlines`` per seat, when its idle clock runs
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
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from torite.engine.base import OptionConflict, OptionError
from torite.engine.registry import game_class, game_ids, make_game
from torite.present import labels
from torite.present.languages import LANGUAGES
from torite.present.pages import rules_page
from torite.server import replays as replaying
from torite.server import safejson
from torite.server.bots import BotPool
from torite.server.limits import RateLimiter, ServerLimits
from torite.server.markdown import to_html
from torite.server.store import Store
from torite.server.tables import SETTINGS, Connection, LiveTable, TableError, TableManager, bot_names

log = logging.getLogger("torite.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: where scripts/make_reports.py writes the ready-made reports: var/reports at the checkout's root
REPORTS_DIR = Path(__file__).resolve().parents[3] / "var" / "reports"
LANGS = tuple(LANGUAGES)
MAX_MESSAGE = 4096

# Everything is served by this app: no script, style or font from elsewhere may load.
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
     b"frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

REPORT_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"),
    *SECURITY_HEADERS[1:],
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class SecurityHeaders:
    """Adds the headers above to every HTTP response (plain ASGI, so WebSockets pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        # a ready-made report is a page of its own (tables and figures with their own styles)
        extra = REPORT_HEADERS if str(scope.get("path", "")).startswith("/reports/") else SECURITY_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origin_allowed(headers: Headers, allowed: tuple[str, ...]) -> bool:
    """Whether a request may change something on behalf of the page it comes from: no ``Origin``
    (not a page: a script or a tool, which must hold the tokens anyway), the server's own origin
    (its host and port are the ``Host`` the request came to; the scheme may differ behind a TLS
    proxy), or one the operator allowed."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    host = headers.get("host")
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False  # "null" (a sandboxed frame, a file) or something stranger
    return _host_port(parts.netloc) == _host_port(host)


def _host_port(netloc: str) -> str:
    netloc = netloc.strip().lower()
    for default in (":80", ":443"):
        if netloc.endswith(default):
            return netloc[: -len(default)]
    return netloc


class WriteGuard:
    """Every request that may change something (a POST) must be JSON and come from the server's
    own pages (or none): a form or a ``text/plain`` fetch from another site is sent without a
    preflight, so it is refused here before anything is read or created."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            headers = Headers(scope=scope)
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            refusal = None
            if kind != "application/json":
                refusal = error("bad_content_type", "send the body as application/json", 415)
            elif not origin_allowed(headers, self.allowed):
                refusal = error("bad_origin", "this request came from another site's page", 403)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


_STATUS = {"no_decision": 409,
           "not_your_turn": 409, "illegal": 409, "game_over": 409, "not_bot": 409, "stale": 409, "not_finished": 409,
           "storage": 503, "too_many_tables": 503, "not_found": 404}


async def table_error(request: Request, exc: Exception) -> Response:
    """A refusal from the tables, however deep it was raised: its code and a clear message
    (the database out of reach is a 503, never a 500 with a traceback)."""
    assert isinstance(exc, TableError)
    detail = getattr(exc, "detail", None)
    if detail:  # a bad record's action and reason, apart, for the page to say in its language
        return JSONResponse({"error": exc.code, "message": str(exc), "detail": detail},
                            status_code=_STATUS.get(exc.code, 400))
    return error(exc.code, str(exc), _STATUS.get(exc.code, 400))


def manager_of(request: Request | WebSocket) -> TableManager:
    m: TableManager = request.app.state.manager
    return m


async def read_json(request: Request) -> Any:
    try:
        return safejson.loads(await request.body())
    except safejson.BadJSON as e:
        raise TableError("bad_json", f"the request body must be JSON: {e}") from None


# ------------------------------------------------------------------ pages
async def index_page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "index.html", headers={"cache-control": "no-cache"})


async def table_page(request: Request) -> Response:
    if await manager_of(request).get(request.path_params["table_id"]) is None:
        # a mistyped or expired link: say so plainly, in the reader's language, with the way back
        return FileResponse(WEB_DIR / "notfound.html", status_code=404, headers={"cache-control": "no-cache"})
    return FileResponse(WEB_DIR / "table.html", headers={"cache-control": "no-cache"})


async def replay_page(request: Request) -> Response:
    """The replay viewer: a record file opened in the page (``/replay``), or a table's record
    (``/replay/{table_id}``; a table in play as a spectator sees it)."""
    table_id = request.path_params.get("table_id")
    if table_id is not None and await manager_of(request).get(table_id) is None:
        return FileResponse(WEB_DIR / "notfound.html", status_code=404, headers={"cache-control": "no-cache"})
    return FileResponse(WEB_DIR / "table.html", headers={"cache-control": "no-cache"})


# ------------------------------------------------------------------ replays
def replays_of(request: Request) -> replaying.Replays:
    r: replaying.Replays = request.app.state.replays
    return r


async def replay_step(request: Request) -> Response:
    """A step of a record the page sends (``{"record", "step", "viewer"}``): its state message
    as the live table builds it for that viewer.  Nothing is stored."""
    body = await read_json(request)
    if not isinstance(body, dict) or "record" not in body:
        raise TableError("bad_request", 'send {"record": {…}, "step": k, "viewer": "open" | seat | null}')
    rp = await replays_of(request).of_json(body["record"])
    step, viewer = replaying.parse_step(body.get("step", 0)), replaying.parse_viewer(body.get("viewer"))
    return JSONResponse(replaying.step_message(rp, step, viewer))


async def replay_suggest(request: Request) -> Response:
    """What a bot (``hard`` unless ``level`` says) would play at a seat's decision in a record
    the page sends (``{"record", "step", "seat", "level"}``), from that seat's view only."""
    body = await read_json(request)
    if not isinstance(body, dict) or "record" not in body:
        raise TableError("bad_request", 'send {"record": {…}, "step": k, "seat": n}')
    rp = await replays_of(request).of_json(body["record"])
    return JSONResponse(await replaying.suggest(manager_of(request).bots, rp, replaying.parse_step(body.get("step", 0)),
                                      body.get("seat"), body.get("level", replaying.SUGGEST_LEVEL)))


async def table_replay(request: Request) -> Response:
    """A step of a table's game (``?step=k&viewer=open|N|spectator``): a finished game as any
    viewer saw it, a game in play only as a spectator sees it."""
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    rp = await replays_of(request).of_table(table)
    q = request.query_params
    step = replaying.parse_step(q.get("step", str(rp.steps)))
    return JSONResponse(replaying.step_message(rp, step, replaying.parse_viewer(q.get("viewer", "open")), table.id))


async def table_replay_suggest(request: Request) -> Response:
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    rp = await replays_of(request).of_table(table)
    q = request.query_params
    seat, step = replaying.parse_viewer(q.get("seat")), replaying.parse_step(q.get("step", "0"))
    return JSONResponse(await replaying.suggest(manager_of(request).bots, rp, step, seat,
                                                q.get("level", replaying.SUGGEST_LEVEL)))


# ------------------------------------------------------------------ ready-made reports
def _reports_dir(request: Request) -> Path | None:
    d: Path | None = request.app.state.reports_dir
    return d if d is not None and d.is_dir() else None


async def list_reports(request: Request) -> Response:
    """The reports ``scripts/make_reports.py`` left in the reports folder (none: an empty list)."""
    d = _reports_dir(request)
    index = d / "index.json" if d is not None else None
    if index is None or not index.is_file():
        return JSONResponse({"reports": []})
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.exception("reports index %s cannot be read", index)
        return JSONResponse({"reports": []})
    reports = [{"title": str(r.get("title", r["file"])), "game": str(r.get("game", "")),
                "url": "/reports/" + str(r["file"])}
               for r in (data if isinstance(data, list) else [])
               if isinstance(r, dict) and isinstance(r.get("file"), str) and "/" not in r["file"]
               and not r["file"].startswith(".")]
    return JSONResponse({"reports": reports})


async def report_file(request: Request) -> Response:
    d = _reports_dir(request)
    name = request.path_params["name"]
    # one folder, plain file names: nothing outside it can be named
    if d is None or "/" in name or "\\" in name or name.startswith(".") or not (d / name).is_file():
        return error("not_found", "no such report", 404)
    return FileResponse(d / name, headers={"cache-control": "no-cache"})


# ------------------------------------------------------------------ games
def _rules_langs(cls: type[Any]) -> list[str]:
    langs = []
    for lang in LANGS:
        try:
            rules_page(cls, lang)
        except (OptionError, OSError):
            continue
        langs.append(lang)
    return langs


async def list_games(request: Request) -> Response:
    games = []
    for gid in game_ids():
        try:
            cls = game_class(gid)
            info = cls.describe()
            info["players"] = make_game(gid).num_players
        except Exception:  # a game still being written must not take the lobby down
            log.exception("game %s cannot be listed", gid)
            continue
        info["rules"] = _rules_langs(cls)
        try:
            # every language at once: the lobby and the table switch language without asking again
            info["labels"] = labels.catalog(cls)
        except labels.LabelError:
            log.exception("game %s has broken labels", gid)
            info["labels"] = {}
        games.append(info)
    settings = [{"name": k, "default": d, "minimum": lo, "maximum": hi} for k, (d, lo, hi) in SETTINGS.items()]
    return JSONResponse({"games": games, "bots": list(bot_names()), "settings": settings})


async def preview(request: Request) -> Response:
    """Validate options and say how many seats they make and how the game is won under them, so
    the lobby stays game-agnostic."""
    try:
        body = await read_json(request)
    except TableError as e:
        return error(e.code, str(e))
    if not isinstance(body, dict) or not isinstance(body.get("game"), str):
        return error("bad_request", "send {\"game\": id, \"options\": {...}}")
    opts = body.get("options") or {}
    if not isinstance(opts, dict):
        return error("bad_options", "options must be an object")
    try:
        game = make_game(body["game"], opts)
    except OptionConflict as e:
        # the options that clash, so the lobby can say so in the player's language
        return JSONResponse({"error": "bad_options", "message": str(e), "conflict": e.options}, status_code=400)
    except OptionError as e:
        return error("bad_options", str(e))
    return JSONResponse({"game": game.id, "options": game.options, "players": game.num_players,
                         "goal": labels.goal_texts(game)})


async def rules(request: Request) -> Response:
    gid = request.path_params["game"]
    lang = request.query_params.get("lang", "en")
    try:
        cls = game_class(gid)
    except OptionError as e:
        return error("not_found", str(e), 404)
    for try_lang in (lang, "en", *LANGS):
        try:
            md = rules_page(cls, try_lang)
        except (OptionError, OSError):
            continue
        return JSONResponse({"game": gid, "lang": try_lang, "markdown": md, "html": to_html(md)})
    return error("no_rules", f"{gid} has no rules page yet", 404)


# ------------------------------------------------------------------ tables
def _links(request: Request, table: LiveTable, tokens: dict[int, str]) -> dict[str, Any]:
    base = f"{request.url.scheme}://{request.url.netloc}"
    path = f"/t/{table.id}"
    seats = []
    for i, s in enumerate(table.seats):
        entry: dict[str, Any] = {"seat": i, "kind": s.kind, "level": s.level, "name": s.name}
        if i in tokens:
            # the token rides in the fragment: browsers never send it in requests or referrers
            frag = f"#seat={i}&token={tokens[i]}"
            entry |= {"token": tokens[i], "path": path + frag, "url": base + path + frag}
        seats.append(entry)
    return {"id": table.id, "game": table.game.id, "path": path, "url": base + path,
            "spectator": base + path + "#watch", "seats": seats}


def _client_key(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "?"


async def create_table(request: Request) -> Response:
    wait = request.app.state.table_limiter.allow(_client_key(request))
    if wait:
        return error("slow_down", f"too many new tables from your address: try again in {wait:.0f} s", 429)
    body = await read_json(request)
    if not isinstance(body, dict):
        raise TableError("bad_request", "send a JSON object")
    table, tokens = await manager_of(request).create(
        body.get("game"), body.get("options"), body.get("seats") or [], body.get("settings"))
    return JSONResponse(_links(request, table, tokens), status_code=201)


async def _table_or_404(request: Request) -> LiveTable | Response:
    table = await manager_of(request).get(request.path_params["table_id"])
    if table is None:
        return error("not_found", "no such table", 404)
    return table


async def table_info(request: Request) -> Response:
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    return JSONResponse({
        "id": table.id, "game": table.game.id, "title": table.game.title, "options": table.game.options,
        "seats": [s.public(i) for i, s in enumerate(table.seats)], "n": len(table.actions),
        "over": table.over, "result": table.state.result().to_json() if table.over else None,
        "settings": table.settings, "created": table.created, "finished": table.finished})


async def table_record(request: Request) -> Response:
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    if not table.over:
        # the record holds the seed, hence every hidden card: never before the end
        return error("not_finished", "the record can be downloaded when the game is over", 409)
    name = f"torite-{table.game.id}-{table.id}.json"
    return Response(table.record().dumps() + "\n", media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="{name}"'})


async def _seated(request: Request, shape: str, needs: str) -> tuple[LiveTable, int, dict[str, Any]] | Response:
    """The table, the seat and the body of a request a seat's token must authorise; else the
    error response (no such table, a body that is not ``shape``, a wrong token)."""
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    try:
        body = await read_json(request)
    except TableError as e:
        return error(e.code, str(e))
    if not isinstance(body, dict):
        return error("bad_request", f"send {shape}")
    seat = body.get("seat")
    if not manager_of(request).check_token(table, seat, body.get("token")):
        return error("bad_token", f"{needs} needs the seat's token", 403)
    assert isinstance(seat, int)
    table.tokens[seat] = body["token"]  # the seat's link to a rematch holds it
    return table, seat, body


async def post_action(request: Request) -> Response:
    got = await _seated(request, '{"seat": n, "token": "…", "action": "play 10D"}', "this action")
    if isinstance(got, Response):
        return got
    table, seat, body = got
    canonical = await manager_of(request).act(table, seat, body.get("action"),  # type: ignore[arg-type]
                                              decision=body.get("decision"))
    return JSONResponse({"ok": True, "action": canonical, "n": len(table.actions)})


async def rematch(request: Request) -> Response:
    """The same players at a new table; the asker must hold a seat of the finished one."""
    got = await _seated(request, '{"seat": n, "token": "…"}', "a rematch")
    if isinstance(got, Response):
        return got
    table, seat, body = got
    new = await manager_of(request).rematch(table)
    # the seat keeps its token at the new table: the one this request was authorised by
    path = f"/t/{new.id}#seat={seat}&token={body['token']}"
    return JSONResponse({"id": new.id, "path": path}, status_code=201)


# ------------------------------------------------------------------ websocket
async def _send(ws: WebSocket, conn: Connection, text: str, timeout: float) -> None:
    """One frame, or the connection marked too slow: a client that stops reading must not hold
    a send (and everything queued behind it) for ever."""
    try:
        async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for: every frame passes here
            await ws.send_text(text)
    except TimeoutError:
        conn.too_slow = True


async def _writer(ws: WebSocket, table: LiveTable, conn: Connection, send_timeout: float) -> None:
    """Send queued replies, then the newest state whenever the table changed."""
    while not conn.closed and not conn.too_slow:
        await conn.wake.wait()
        conn.wake.clear()
        while conn.outbox and not conn.too_slow:
            await _send(ws, conn, json.dumps(conn.outbox.popleft(), ensure_ascii=False), send_timeout)
        if conn.dirty and conn.joined and not conn.hold and not conn.closed and not conn.too_slow \
                and conn.close_code is None:
            conn.dirty = False
            await _send(ws, conn, table.message_for(conn), send_timeout)
        if conn.close_code is not None and not conn.outbox and not conn.too_slow:
            await ws.close(code=conn.close_code)  # the server ends it (the table expired)
            return


def _err(conn: Connection, code: str, message: str) -> None:
    conn.push({"type": "error", "code": code, "message": message})


async def _handle(manager: TableManager, table: LiveTable, conn: Connection, raw: str) -> None:
    try:
        msg = safejson.loads(raw)
    except safejson.BadJSON as e:
        _err(conn, "bad_json", f"messages must be JSON objects: {e}")
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        _err(conn, "bad_message", "a message is a JSON object with a \"type\"")
        return
    kind = msg["type"]
    if kind == "join":
        seat = msg.get("seat")
        tab = msg.get("tab")
        conn.tab = tab if isinstance(tab, str) and len(tab) <= 64 else ""
        if seat is None:
            manager.attach(table, conn, None)
            conn.push({"type": "joined", "seat": None})
        elif manager.check_token(table, seat, msg.get("token")):
            manager.attach(table, conn, seat, msg["token"])
            conn.push({"type": "joined", "seat": seat, "others": len(manager.others_on_seat(table, conn))})
        else:
            _err(conn, "bad_token", "wrong seat or token: open your invitation link again")
    elif kind in ("take_over", "stand_in", "hint"):
        if not conn.joined or conn.seat is None:
            _err(conn, "not_seated", f"only a seated player can ask for {kind.replace('_', ' ')}")
            return
        try:
            if kind == "take_over":
                manager.take_over(table, conn)
            elif kind == "stand_in":
                manager.stand_in(table, conn.seat, msg.get("seat"))
            else:
                conn.push(await manager.hint(table, conn.seat))
        except TableError as e:
            _err(conn, e.code, str(e))
    elif kind == "act":
        if not conn.joined or conn.seat is None:
            _err(conn, "not_seated", "only a seated player can act (join with your seat's token)")
            return
        if "token" in msg and not manager.check_token(table, conn.seat, msg["token"]):
            _err(conn, "bad_token", "wrong token for this seat")
            return
        action = msg.get("action")
        if not isinstance(action, str):
            _err(conn, "bad_action", "an action is text such as 'play 10D'")
            return
        conn.hold = True  # the answer first, then the state it changed
        try:
            canonical = await manager.act(table, conn.seat, action, decision=msg.get("decision"))
        except TableError as e:
            # the sender only: its state is the table's (every change reaches it), so nothing is resent
            _err(conn, e.code, str(e))
            return
        finally:
            conn.hold = False
            conn.wake.set()
        conn.push({"type": "ack", "action": canonical, "n": len(table.actions)})
    elif kind == "back":
        if conn.seat is not None:
            manager.returned(table, conn.seat)
    elif kind == "sync":
        if conn.joined:
            conn.log_sent = 0
            conn.mark_dirty()
    elif kind == "ping":
        conn.push({"type": "pong"})
    else:
        _err(conn, "unknown_type", f"unknown message type {kind!r} "
                                   "(join, act, back, take_over, stand_in, hint, sync, ping)")


async def _serve_messages(manager: TableManager, table: LiveTable, conn: Connection, limits: ServerLimits,
                          by_address: RateLimiter, address: str) -> None:
    """Handle the connection's queued messages in order, each when both its connection's and its
    address's buckets allow: a burst is paced, never reordered."""
    own = limits.message_limiter()
    while not conn.closed:
        while not conn.inbox:
            conn.inbox_wake.clear()
            await conn.inbox_wake.wait()
            if conn.closed:
                return
        for limiter, key in ((own, None), (by_address, address)):
            wait = limiter.allow(key)
            while wait:
                await asyncio.sleep(wait)
                wait = limiter.allow(key)
        if conn.closed:
            return
        await _handle(manager, table, conn, conn.inbox.popleft())


class SocketCounts:
    """Open sockets by client address and by table (this process's), for their limits."""

    def __init__(self) -> None:
        self.by_address: dict[str, int] = {}
        self.by_table: dict[str, int] = {}

    def admit(self, address: str, table_id: str, limits: ServerLimits) -> str | None:
        """Count the socket in, or say why not."""
        if self.by_address.get(address, 0) >= limits.sockets_per_address:
            return f"too many connections from your address (at most {limits.sockets_per_address})"
        if self.by_table.get(table_id, 0) >= limits.sockets_per_table:
            return f"too many connections to this table (at most {limits.sockets_per_table})"
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1
        return None

    def release(self, address: str, table_id: str) -> None:
        for counts, key in ((self.by_address, address), (self.by_table, table_id)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


class _SlowDown:
    """Counts a connection's refused messages and tells the client, one ``slow_down`` error a
    second at most: the last count always arrives (a second after the one before, if need be)."""

    def __init__(self, conn: Connection, limits: ServerLimits) -> None:
        self.conn = conn
        self.limits = limits
        self.refused = 0
        self.told = 0
        self.told_at = -1.0
        self.later: asyncio.TimerHandle | None = None

    def refuse(self) -> None:
        self.refused += 1
        wait = self.told_at + 1.0 - time.monotonic()
        if wait <= 0:
            self.tell()
        elif self.later is None:
            self.later = asyncio.get_running_loop().call_later(wait, self.tell)

    def tell(self) -> None:
        self.later = None
        if self.told == self.refused or self.conn.closed:
            return
        self.told, self.told_at = self.refused, time.monotonic()
        lim = self.limits
        self.conn.push({"type": "error", "code": "slow_down", "refused": self.refused,
                        "message": f"too many messages: {self.refused} refused so far (at most "
                                   f"{lim.messages_per_second:g} a second are handled, {lim.message_queue} may wait)"})

    def cancel(self) -> None:
        if self.later is not None:
            self.later.cancel()


async def _refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
    await ws.send_text(json.dumps({"type": "error", "code": code, "message": message}))
    await ws.close(code=close)


async def table_socket(ws: WebSocket) -> None:
    manager = manager_of(ws)
    limits: ServerLimits = ws.app.state.limits
    if not origin_allowed(ws.headers, limits.allowed_origins):
        await ws.close(code=4403)  # before the handshake: the page of another site gets a 403
        return
    address = _client_key(ws)
    penalties: dict[str, float] = ws.app.state.penalties
    if penalties.get(address, 0.0) > time.monotonic():
        await ws.close(code=4429)  # an address that just flooded: refused before the handshake, cheaply
        return
    await ws.accept()
    try:
        table = await manager.get(ws.path_params["table_id"])
    except TableError as e:
        await _refuse(ws, e.code, str(e), 1013)
        return
    if table is None:
        await _refuse(ws, "not_found", "no such table", 4404)
        return
    counts: SocketCounts = ws.app.state.sockets
    refusal = counts.admit(address, table.id, limits)
    if refusal is not None:
        await _refuse(ws, "too_many_sockets", refusal, 1008)
        return
    conn = Connection(max_outbox=limits.max_outbox)
    writer = asyncio.create_task(_writer(ws, table, conn, limits.send_timeout))
    handler = asyncio.create_task(_serve_messages(manager, table, conn, limits, ws.app.state.address_limiter,
                                                  address))
    close_code: int | None = None
    notice = _SlowDown(conn, limits)
    try:
        # read all the time, whatever the pace of handling: an unread socket would leave the
        # client's keep-alive pongs unread too, and the connection would be dropped
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                _err(conn, "bad_message", "send JSON text frames")
            elif len(text) > MAX_MESSAGE:
                _err(conn, "too_long", f"messages are at most {MAX_MESSAGE} characters")
            elif len(conn.inbox) < limits.message_queue:
                conn.inbox.append(text)
                conn.inbox_wake.set()
            else:
                notice.refuse()
                if notice.refused >= limits.flood_close:
                    close_code = 1008
                    break
            if conn.too_slow:
                close_code = 1008
                break
            if writer.done() or handler.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        notice.cancel()
        if close_code == 1008:
            # flooding, or not reading: its address waits a while before it may connect again
            penalties[address] = time.monotonic() + limits.flood_cooldown
            if len(penalties) > 10_000:
                now = time.monotonic()
                for a in [a for a, until in penalties.items() if until <= now]:
                    del penalties[a]
        counts.release(address, table.id)
        manager.detach(table, conn)
        conn.closed = True
        conn.wake.set()
        conn.inbox_wake.set()
        writer.cancel()
        for task in (writer, handler):  # the handler ends after the message in hand, if any
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if close_code is not None and not conn.too_slow:
            with contextlib.suppress(Exception):
                await ws.close(code=close_code)


# ------------------------------------------------------------------ app
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
        # a record may be larger than any other body: its own bound
        Route("/api/replay", replay_step, methods=["POST"],
              middleware=[Middleware(RequestBodyLimitMiddleware, max_body_size=replaying.MAX_RECORD_BYTES)]),
        Route("/api/replay/suggest", replay_suggest, methods=["POST"],
              middleware=[Middleware(RequestBodyLimitMiddleware, max_body_size=replaying.MAX_RECORD_BYTES)]),
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
    app.state.replays = replaying.Replays()
    app.state.penalties = {}
    app.add_middleware(WriteGuard, allowed_origins=limits.allowed_origins)
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
