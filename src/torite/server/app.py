"""The ASGI app: HTTP API, the static front end, and one WebSocket per client.

The server is the only authority on game state: clients send action texts, the server checks
them through the rules and sends each connection the state as its seat may see it.  Seats are
held by secret tokens (only their hashes are stored); a spectator joins without one and gets
the public view.

WebSocket protocol (JSON text frames), client → server::

    {"type": "join", "seat": 1, "token": "…"}   # or {"type": "join"} / "seat": null to watch
    {"type": "act", "action": "play 10D"}
    {"type": "back"}                             # "I am here": stop the idle stand-in bot
    {"type": "sync"}                             # resend the whole state and log
    {"type": "ping"}

server → client: ``{"type": "state", …}`` (the seat's observation, sorted hand, legal actions
with their button texts, status rows and the last trick's facts, seats, new log lines, ``n``
actions so far, ``ts`` of the change, ``now`` the server's clock; ``piles`` the observation's
card piles by the rule of ``tables.piles_of``; ``winning`` the seat winning the unfinished trick
when the seat sees all of it, else null; ``idle_deadlines`` per seat, when its idle clock runs
out (epoch seconds) or null; ``rematch`` ``{"id", "path"}`` once the same players sit at a new
table, the path holding this seat's own token), ``joined``,
``ack``, ``pong``, and ``{"type": "error", "code": …, "message": …}`` for anything refused —
a refused message changes nothing.

Words.  ``GET /api/games`` carries each game's labels in every language it ships (title,
options, phases, action names, trick tags, …; see ``torite.engine.labels``).  What depends on
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
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from torite import __version__
from torite.build import build_name
from torite.engine import labels
from torite.engine.base import OptionError
from torite.engine.registry import game_class, game_ids, make_game
from torite.server import safejson
from torite.server.limits import ServerLimits
from torite.server.markdown import to_html
from torite.server.store import Store
from torite.server.tables import SETTINGS, Connection, LiveTable, TableError, TableManager, bot_names

log = logging.getLogger("torite.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: where scripts/make_reports.py writes the ready-made reports: var/reports at the checkout's root
REPORTS_DIR = Path(__file__).resolve().parents[3] / "var" / "reports"
LANGS = ("en", "ja", "ko")
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


def error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


_STATUS = {"not_your_turn": 409, "illegal": 409, "game_over": 409, "not_bot": 409, "storage": 503}


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


# ------------------------------------------------------------------ ready-made reports
def _reports_dir(request: Request) -> Path | None:
    d: Path | None = request.app.state.reports_dir
    return d if d is not None and d.is_dir() else None


async def version(request: Request) -> Response:
    """Which torite serves: its version and build (``compiled`` by mypyc, or ``pure`` Python),
    for the lobby's footer."""
    build = "compiled" if build_name().startswith("compiled") else "pure"
    return JSONResponse({"version": __version__, "build": build})


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
            cls.rules_page(lang)
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
    """Validate options and say how many seats they make, so the lobby stays game-agnostic."""
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
    except OptionError as e:
        return error("bad_options", str(e))
    return JSONResponse({"game": game.id, "options": game.options, "players": game.num_players})


async def rules(request: Request) -> Response:
    gid = request.path_params["game"]
    lang = request.query_params.get("lang", "en")
    try:
        cls = game_class(gid)
    except OptionError as e:
        return error("not_found", str(e), 404)
    for try_lang in (lang, "en", *LANGS):
        try:
            md = cls.rules_page(try_lang)
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


def _client_key(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def create_table(request: Request) -> Response:
    wait = request.app.state.table_limiter.allow(_client_key(request))
    if wait:
        return error("slow_down", f"too many new tables from your address: try again in {wait:.0f} s", 429)
    try:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise TableError("bad_request", "send a JSON object")
        table, tokens = await manager_of(request).create(
            body.get("game"), body.get("options"), body.get("seats") or [],
            body.get("settings"))
    except TableError as e:
        return error(e.code, str(e), 503 if e.code == "too_many_tables" else 400)
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
    return table, seat, body


async def post_action(request: Request) -> Response:
    got = await _seated(request, '{"seat": n, "token": "…", "action": "play 10D"}', "this action")
    if isinstance(got, Response):
        return got
    table, seat, body = got
    manager = manager_of(request)
    try:
        canonical = await manager.act(table, seat, body.get("action"))  # type: ignore[arg-type]
    except TableError as e:
        return error(e.code, str(e), _STATUS.get(e.code, 400))
    return JSONResponse({"ok": True, "action": canonical, "n": len(table.actions)})


async def rematch(request: Request) -> Response:
    """The same players at a new table; the asker must hold a seat of the finished one."""
    got = await _seated(request, '{"seat": n, "token": "…"}', "a rematch")
    if isinstance(got, Response):
        return got
    table, seat, _ = got
    try:
        new = await manager_of(request).rematch(table)
    except TableError as e:
        return error(e.code, str(e), 409 if e.code == "not_finished" else 503 if e.code == "too_many_tables" else 400)
    assert table.rematch is not None
    token = table.rematch[1].get(seat)
    path = f"/t/{new.id}" + (f"#seat={seat}&token={token}" if token else "#watch")
    return JSONResponse({"id": new.id, "path": path}, status_code=201)


# ------------------------------------------------------------------ websocket
async def _writer(ws: WebSocket, table: LiveTable, conn: Connection) -> None:
    """Send queued replies, then the newest state whenever the table changed."""
    while not conn.closed:
        await conn.wake.wait()
        conn.wake.clear()
        while conn.outbox:
            await ws.send_text(json.dumps(conn.outbox.popleft(), ensure_ascii=False))
        if conn.dirty and conn.joined and not conn.closed:
            conn.dirty = False
            await ws.send_text(table.message_for(conn))


def _err(conn: Connection, code: str, message: str) -> None:
    conn.push({"type": "error", "code": code, "message": message})


async def _handle(manager: TableManager, table: LiveTable, conn: Connection, raw: str) -> None:
    if len(raw) > MAX_MESSAGE:
        _err(conn, "too_long", f"messages are at most {MAX_MESSAGE} characters")
        return
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
        if seat is None:
            manager.attach(table, conn, None)
            conn.push({"type": "joined", "seat": None})
        elif manager.check_token(table, seat, msg.get("token")):
            manager.attach(table, conn, seat)
            conn.push({"type": "joined", "seat": seat})
        else:
            _err(conn, "bad_token", "wrong seat or token: open your invitation link again")
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
        try:
            canonical = await manager.act(table, conn.seat, action)
        except TableError as e:
            _err(conn, e.code, str(e))
            conn.mark_dirty()  # resend the truth in case the client drifted
            return
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
        _err(conn, "unknown_type", f"unknown message type {kind!r} (join, act, back, sync, ping)")


async def table_socket(ws: WebSocket) -> None:
    manager = manager_of(ws)
    await ws.accept()
    table = await manager.get(ws.path_params["table_id"])
    if table is None:
        await ws.send_text(json.dumps({"type": "error", "code": "not_found", "message": "no such table"}))
        await ws.close(code=4404)
        return
    conn = Connection()
    limiter = ws.app.state.limits.message_limiter()
    writer = asyncio.create_task(_writer(ws, table, conn))
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                _err(conn, "bad_message", "send JSON text frames")
                continue
            # a flood is paced, not dropped: the connection waits for its next token (so the
            # client, through the socket's back-pressure, is slowed) and is told so once
            wait = limiter.allow(None)
            if wait:
                _err(conn, "slow_down", "too many messages: yours are being delayed "
                     f"(at most {ws.app.state.limits.messages_per_second:g} a second)")
                while wait:
                    await asyncio.sleep(wait)
                    wait = limiter.allow(None)
            await _handle(manager, table, conn, text)
            if writer.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        manager.detach(table, conn)
        conn.closed = True
        conn.wake.set()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


# ------------------------------------------------------------------ app
def create_app(db_url: str | None = None, *, store: Store | None = None, bot_threads: int = 4,
               limits: ServerLimits | None = None,
               max_tables: int = 2000, reports_dir: str | Path | None = REPORTS_DIR) -> Starlette:
    """The app on a database URL (default ``sqlite:///torite.db``) or on a given store;
    ``reports_dir`` is served at ``/reports/`` when it exists (None: never)."""
    own_store = store is None
    limits = limits if limits is not None else ServerLimits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        st = store if store is not None else Store(db_url)
        manager = TableManager(st, bot_threads=bot_threads, max_tables=max_tables)
        app.state.manager = manager
        await manager.start()
        pruner = asyncio.create_task(_prune_forever(manager, limits))
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
        Route("/api/games", list_games),
        Route("/api/preview", preview, methods=["POST"]),
        Route("/api/games/{game}/rules", rules),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/record", table_record),
        Route("/api/tables/{table_id}/actions", post_action, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/reports", list_reports),
        Route("/api/version", version),
        Route("/reports/{name}", report_file),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, max_body_size=64 * 1024)
    app.state.reports_dir = Path(reports_dir) if reports_dir is not None else None
    app.state.limits = limits
    app.state.table_limiter = limits.table_limiter()
    app.add_middleware(SecurityHeaders)
    return app


async def _prune_forever(manager: TableManager, limits: ServerLimits) -> None:
    """Finished tables are kept ``retention_days`` (their records downloadable), then deleted."""
    while True:
        try:
            gone = await manager.prune(time.time() - limits.retention_days * 86400)
            if gone:
                log.info("pruned %d finished tables past the retention of %g days", len(gone), limits.retention_days)
        except Exception:
            log.exception("pruning finished tables failed; will retry")
        await asyncio.sleep(limits.prune_every_seconds)
