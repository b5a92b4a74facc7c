"""The HTTP routes' handlers: the pages, the lobby's games and rules, tables (create, info,
record, actions, rematch), replays and the ready-made reports.

Its own part because each handler answers one request from what the manager and the games
say, and holds no connection: the WebSocket's protocol is ``torite.server.sockets``, the app
that routes to these is ``torite.server.app`` (whose docstring describes the API).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from torite import __version__
from torite.build import build_name
from torite.engine.base import OptionConflict, OptionError
from torite.engine.registry import game_class, game_ids, make_game
from torite.present import labels
from torite.present.languages import LANGUAGES
from torite.present.pages import rules_page
from torite.server import replays as replaying
from torite.server import safejson
from torite.server.guards import client_key, error, manager_of, origin_allowed, read_json
from torite.server.live import SETTINGS, LiveTable, TableError, bot_names, check_length
from torite.server.markdown import to_html
from torite.server.pacing import Pacing, pace

log = logging.getLogger("torite.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
LANGS = tuple(LANGUAGES)


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


async def _record_body(request: Request, shape: str) -> dict[str, Any]:
    """The body of a request that sends a record: at most ``MAX_RECORD_BYTES`` (a clear 413
    past it; the route's own bound, a little more, cuts off anything larger unread)."""
    body = await request.body()
    if len(body) > replaying.MAX_RECORD_BYTES:
        raise TableError("too_large", f"a record is at most {replaying.MAX_RECORD_BYTES // 1024} KiB here (this "
                                      f"one is {len(body) // 1024} KiB); `torite replay FILE --view` shows any",
                         {"most_bytes": replaying.MAX_RECORD_BYTES})
    try:
        data = safejson.loads(body)
    except safejson.BadJSON as e:
        raise TableError("bad_json", f"the request body must be JSON: {e}") from None
    if not isinstance(data, dict) or "record" not in data:
        raise TableError("bad_request", f"send {shape}")
    return data


def _paced(request: Request, *, suggest: bool = False) -> tuple[Pacing, Callable[[], None]]:
    """Pace a replay request by its address (``torite.server.pacing``: 429 past it), and the
    pacing of a record replayed whole, for when it is not in the cache."""
    pacing: Pacing = request.app.state.pacing
    address = client_key(request)
    pace(pacing.suggests if suggest else pacing.replays, address, "suggestions" if suggest else "replay requests")
    return pacing, lambda: pace(pacing.builds, address, "new records to replay")


async def replay_step(request: Request) -> Response:
    """A step of a record the page sends (``{"record", "step", "viewer"}``): its state message
    as the live table builds it for that viewer.  Nothing is stored."""
    _, on_build = _paced(request)
    body = await _record_body(request, '{"record": {…}, "step": k, "viewer": "open" | seat | null}')
    replays = replays_of(request)
    rp = await replays.of_json(body["record"], on_build)
    return _json(replaying.step_json(rp, body.get("step", 0), body.get("viewer"), "", replays.steps, replays.budget))


async def replay_suggest(request: Request) -> Response:
    """What a bot (``hard`` unless ``level`` says; at most ``hard``) would play at a seat's
    decision in a record the page sends (``{"record", "step", "seat", "level"}``), from that
    seat's view only."""
    pacing, on_build = _paced(request, suggest=True)
    body = await _record_body(request, '{"record": {…}, "step": k, "seat": n}')
    rp = await replays_of(request).of_json(body["record"], on_build)
    return JSONResponse(await replaying.suggest(manager_of(request).bots, rp, replaying.parse_step(body.get("step", 0)),
                                                body.get("seat"), body.get("level", replaying.SUGGEST_LEVEL),
                                                pacing=pacing))


async def table_replay(request: Request) -> Response:
    """A step of a table's game (``?step=k&viewer=open|N|spectator``): a finished game as any
    viewer saw it, a game in play only as a spectator sees it."""
    _, on_build = _paced(request)
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    replays = replays_of(request)
    rp = await replays.of_table(table, on_build)
    q = request.query_params
    return _json(replaying.step_json(rp, q.get("step", str(rp.steps)), q.get("viewer", "open"), table.id,
                                     replays.steps, replays.budget))


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


async def table_replay_suggest(request: Request) -> Response:
    """What a bot would play at a seat's decision at a step of a finished table's game: a GET
    (a link), so only the server's own pages may ask it (another site's page would spend this
    server's bots: refused, 403, by its ``Origin`` or ``Sec-Fetch-Site``)."""
    if not same_site(request):
        return error("bad_origin", "a suggestion is asked from this server's own replay page", 403)
    pacing, on_build = _paced(request, suggest=True)
    table = await _table_or_404(request)
    if isinstance(table, Response):
        return table
    rp = await replays_of(request).of_table(table, on_build)
    q = request.query_params
    seat, step = replaying.parse_viewer(q.get("seat")), replaying.parse_step(q.get("step", "0"))
    return JSONResponse(await replaying.suggest(manager_of(request).bots, rp, step, seat,
                                                q.get("level", replaying.SUGGEST_LEVEL), pacing=pacing))


def same_site(request: Request) -> bool:
    """Whether a GET comes from the server's own pages (or from no page: a tool): its
    ``Origin``, when sent, is allowed, and its ``Sec-Fetch-Site`` (which browsers send with every
    request, an image's or a script's too) is not another site."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    return origin_allowed(request.headers, request.app.state.limits.allowed_origins)


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
    try:
        check_length(game)
    except TableError as e:  # the most rounds allowed, for the lobby to say in its reader's language
        return JSONResponse({"error": e.code, "message": str(e), **e.detail}, status_code=400)
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


async def create_table(request: Request) -> Response:
    wait = request.app.state.table_limiter.allow(client_key(request))
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
    canonical, n = await manager_of(request).act_placed(table, seat, body.get("action"),  # type: ignore[arg-type]
                                                        decision=body.get("decision"))
    return JSONResponse({"ok": True, "action": canonical, "n": n})


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
