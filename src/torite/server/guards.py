"""What every request passes through, whatever it asks: the security headers, the guard on
writes (JSON from the server's own pages only), refusals as JSON, and the few helpers every
handler starts with (the manager, the body read as JSON, the client's address).

Its own part because both the HTTP routes (``torite.server.routes``) and the WebSocket
(``torite.server.sockets``) stand on it, and the app (``torite.server.app``) wraps itself in
its middleware: none of them needs the others to use it.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from torite.server import safejson
from torite.server.limits import RateLimiter
from torite.server.live import TableError
from torite.server.tables import TableManager

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


class HttpPacer:
    """Every HTTP request of an address spends a token of its bucket (``http_requests_per_second``
    after a burst): past it the request is answered 429 with how long to wait, before any route
    runs or any body is read, so many small requests cost one lookup each.  WebSockets have
    their own limits (``torite.server.sockets``)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            wait = self.limiter.allow(client[0] if client else "?")
            if wait > 0:
                refusal = error("too_many_requests", f"too many requests from your address: try again in "
                                                     f"{wait:.1f} s", 429)
                refusal.headers["retry-after"] = str(max(1, math.ceil(wait)))
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


_STATUS = {"no_decision": 409,
           "not_your_turn": 409, "illegal": 409, "game_over": 409, "not_bot": 409, "stale": 409, "not_finished": 409,
           "storage": 503, "too_many_tables": 503, "not_found": 404, "slow_down": 429, "busy": 503,
           "too_large": 413}


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
    except ClientDisconnect:  # it left, or was cut off mid-body (a body too slow): nobody hears the answer
        raise TableError("gone", "the client left before its request arrived") from None
    except safejson.BadJSON as e:
        raise TableError("bad_json", f"the request body must be JSON: {e}") from None


def client_key(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "?"
