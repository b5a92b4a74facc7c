"""The WebSocket of a table: one socket per client, its messages read, paced and handled in
order, the table's states and replies written back; the sockets counted per address and table,
and a flood told to slow down, then closed.

Its own part because a socket lives as long as its client and is the one place the protocol
(described in ``torite.server.app``) and the limits on it (``torite.server.limits``) meet; the
HTTP routes answer a request each and share none of this.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from torite.present.languages import LANGUAGES
from torite.server import safejson
from torite.server.guards import client_key, manager_of, origin_allowed
from torite.server.limits import RateLimiter, ServerLimits
from torite.server.live import Connection, LiveTable, TableError
from torite.server.pacing import SocketPacing
from torite.server.tables import TableManager

MAX_MESSAGE = 4096


async def _send(ws: WebSocket, conn: Connection, text: str, timeout: float) -> None:
    """One frame, or the connection marked too slow: a client that stops reading must not hold
    a send (and everything queued behind it) for ever."""
    try:
        async with asyncio.timeout(timeout):  # no task of its own, unlike wait_for: every frame passes here
            await ws.send_text(text)
    except TimeoutError:
        conn.give_up()


class _Turns:
    """What a socket's reader, handler and writer tell each other: a reply went out (the handler
    waits for it while replies pile up), a message was taken from the inbox (the reader waits
    for it while the inbox is full but the handler is not being paced), the handler is paced."""

    def __init__(self) -> None:
        self.sent = asyncio.Event()
        self.taken = asyncio.Event()
        self.paced_at = -1e18  # when the handler last waited for its bucket
        #: no reply went out for STALL_SECONDS while the handler waited for one: the client does
        #: not read, and the handler no longer waits for it (until a reply goes out)
        self.stalled = False

    def pacing(self) -> bool:
        """Whether the handler has been held to its pace within the last second."""
        return time.monotonic() - self.paced_at < 1.0

    def wake_all(self) -> None:
        self.sent.set()
        self.taken.set()


async def _writer(ws: WebSocket, table: LiveTable, conn: Connection, send_timeout: float, turns: _Turns,
                  pacing: SocketPacing | None = None) -> None:
    """Send queued replies, then the newest state whenever the table changed, then the next
    page of a log being caught up (as its pacing allows)."""
    while not conn.closed and not conn.too_slow:
        await conn.wake.wait()
        conn.wake.clear()
        while conn.outbox and not conn.too_slow:
            await _send(ws, conn, json.dumps(conn.outbox.popleft(), ensure_ascii=False), send_timeout)
            turns.stalled = False
            turns.sent.set()
        ready = conn.joined and not conn.hold and not conn.closed and not conn.too_slow and conn.close_code is None
        if conn.dirty and ready:
            conn.dirty = False
            page = not conn.log_behind or pacing is None or pacing.page()
            await _send(ws, conn, table.message_for(conn, page), send_timeout)
        elif conn.log_behind and ready and (pacing is None or pacing.page()):
            await _send(ws, conn, table.log_page(conn), send_timeout)
        if conn.close_code is not None and not conn.outbox and not conn.too_slow:
            await ws.close(code=conn.close_code)  # the server ends it (the table expired)
            return


def _err(conn: Connection, code: str, message: str) -> None:
    conn.push({"type": "error", "code": code, "message": message})


def _known_lang(lang: object, optional: bool) -> bool:
    return lang in LANGUAGES or (optional and lang is None)


def _set_lang(conn: Connection, lang: str | None) -> None:
    """The connection's words in ``lang`` from now on: its whole log again and a fresh state
    (nothing it was sent is in its new language)."""
    if lang != conn.lang:
        conn.lang = lang
        conn.log_sent = 0
        if conn.joined:
            conn.mark_dirty()


def _sync(conn: Connection) -> None:
    if conn.joined:
        conn.log_sent = 0
        conn.mark_dirty()


def _resend(conn: Connection, pacing: SocketPacing | None, apply: Callable[[], None]) -> None:
    """A resend of the whole log (a ``lang``, a ``sync``), paced (``torite.server.pacing``):
    now, or when its turn comes, the newest one asked for."""
    if pacing is None:
        apply()
    else:
        pacing.resend(apply)


async def _handle(manager: TableManager, table: LiveTable, conn: Connection, raw: str,
                  pacing: SocketPacing | None = None) -> None:
    try:
        msg = safejson.loads(raw)
    except safejson.BadJSON as e:
        _err(conn, "bad_json", f"messages must be JSON objects: {e}")
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        _err(conn, "bad_message", "a message is a JSON object with a \"type\"")
        return
    kind = msg["type"]
    if kind in ("join", "lang") and not _known_lang(msg.get("lang"), kind == "join"):
        _err(conn, "bad_lang", f"\"lang\" is one of {', '.join(LANGUAGES)}"
                               + (" (or left out: every language)" if kind == "join" else ""))
        return
    if kind == "join":
        seat = msg.get("seat")
        tab = msg.get("tab")
        conn.tab = tab if isinstance(tab, str) and len(tab) <= 64 else ""
        if seat is None:
            conn.lang = msg.get("lang")
            manager.attach(table, conn, None)
            conn.push({"type": "joined", "seat": None})
        elif manager.check_token(table, seat, msg.get("token")):
            conn.lang = msg.get("lang")
            manager.attach(table, conn, seat, msg["token"])
            conn.push({"type": "joined", "seat": seat, "others": len(manager.others_on_seat(table, conn))})
        else:
            _err(conn, "bad_token", "wrong seat or token: open your invitation link again")
    elif kind == "name":
        if not conn.joined or conn.seat is None:
            _err(conn, "not_seated", "only a seated player names their seat")
            return
        try:
            name = await manager.rename(table, conn.seat, msg.get("name"))
            conn.push({"type": "named", "seat": conn.seat, "name": name})
        except TableError as e:
            _err(conn, e.code, str(e))
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
                conn.push(await manager.hint(table, conn.seat, conn.lang))
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
            canonical, n = await manager.act_placed(table, conn.seat, action, decision=msg.get("decision"))
        except TableError as e:
            # the sender only: its state is the table's (every change reaches it), so nothing is resent
            _err(conn, e.code, str(e))
            return
        finally:
            conn.hold = False
            conn.wake.set()
        conn.push({"type": "ack", "action": canonical, "n": n})  # its own position, never a later one
    elif kind == "back":
        if conn.seat is not None:
            manager.returned(table, conn.seat)
    elif kind == "sync":
        # a resend waiting already (a sync, a language) resends the whole log too
        if conn.joined and (pacing is None or pacing.waiting is None):
            _resend(conn, pacing, lambda: _sync(conn))
    elif kind == "lang":
        lang = msg["lang"]
        if lang != conn.lang or (pacing is not None and pacing.waiting is not None):
            _resend(conn, pacing, lambda: _set_lang(conn, lang))
    elif kind == "ping":
        conn.push({"type": "pong"})
    else:
        _err(conn, "unknown_type", f"unknown message type {kind!r} "
                                   "(join, act, back, take_over, stand_in, hint, sync, lang, ping)")


async def _serve_messages(manager: TableManager, table: LiveTable, conn: Connection, limits: ServerLimits,
                          by_address: RateLimiter, address: str, turns: _Turns,
                          pacing: SocketPacing | None = None) -> None:
    """Handle the connection's queued messages in order, each when both its connection's and its
    address's buckets allow: a burst is paced, never reordered.  A frame refused unread (binary,
    too long) takes its turn like any other, so its error reply is paced too.  While half the
    replies a connection may leave unread wait to be sent, the next message waits for the
    writer: a burst of a client that reads everything is answered in full, never overflowing
    its replies (a client that stops reading, with no reply sent for ``STALL_SECONDS``, is no
    longer waited for: its replies fill up, and it is given up)."""
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
                turns.paced_at = time.monotonic()
                await asyncio.sleep(wait)
                wait = limiter.allow(key)
        while len(conn.outbox) >= max(1, conn.max_outbox // 2) and not turns.stalled and not conn.closed \
                and not conn.too_slow:
            turns.sent.clear()
            try:
                async with asyncio.timeout(STALL_SECONDS):
                    await turns.sent.wait()
            except TimeoutError:
                turns.stalled = True  # not reading: the replies' bound decides, as if nobody waited
        if conn.closed:
            return
        item = conn.inbox.popleft()
        turns.taken.set()
        if isinstance(item, tuple):
            _err(conn, *item)
        else:
            await _handle(manager, table, conn, item, pacing)
        await asyncio.sleep(0)  # the reader and the writer run between two messages


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


async def _hold(held: dict[str, int], address: str, limits: ServerLimits) -> None:
    """Wait ``refusal_delay`` before a refusal (a client retrying in a loop waits too, instead of
    making the server refuse it as fast as it can), holding at most ``refusal_holds`` of one
    address's sockets so: what waits is an idle coroutine and an open socket, both bounded."""
    if held.get(address, 0) >= limits.refusal_holds or limits.refusal_delay <= 0:
        return
    held[address] = held.get(address, 0) + 1
    try:
        await asyncio.sleep(limits.refusal_delay)
    finally:
        held[address] -= 1
        if not held[address]:
            del held[address]


#: seconds without a reply sent after which a connection whose replies pile up counts as not reading
STALL_SECONDS = 1.0
#: seconds the reader waits for room in a full inbox while the handler is not being paced (it
#: is answering a burst within the limits: the burst is answered in full, not refused)
INBOX_WAIT = 1.0


async def _read(ws: WebSocket, conn: Connection, limits: ServerLimits, notice: _SlowDown,
                turns: _Turns) -> int | None:
    """Read all the time, whatever the pace of handling (an unread socket would leave the client's
    keep-alive pongs unread too, and the connection would be dropped); queue what may wait.
    Returns the close code when the client must be sent away, None when it left."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            item: str | tuple[str, str]
            if text is None:
                item = ("bad_message", "send JSON text frames")
            elif len(text) > MAX_MESSAGE:
                item = ("too_long", f"messages are at most {MAX_MESSAGE} characters")
            else:
                item = text
            if len(conn.inbox) >= limits.message_queue and not turns.pacing():
                turns.taken.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(INBOX_WAIT):
                        while len(conn.inbox) >= limits.message_queue and not turns.pacing() and not conn.closed:
                            await turns.taken.wait()
                            turns.taken.clear()
            if len(conn.inbox) < limits.message_queue:
                conn.inbox.append(item)  # answered in turn: a bad frame is paced like any other
                conn.inbox_wake.set()
            else:
                notice.refuse()
                if notice.refused >= limits.flood_close:
                    return 1008
            if conn.too_slow:
                return 1008
    return None


async def table_socket(ws: WebSocket) -> None:
    manager = manager_of(ws)
    limits: ServerLimits = ws.app.state.limits
    if not origin_allowed(ws.headers, limits.allowed_origins):
        await ws.close(code=4403)  # before the handshake: the page of another site gets a 403
        return
    address = client_key(ws)
    penalties: dict[str, float] = ws.app.state.penalties
    if penalties.get(address, 0.0) > time.monotonic() or ws.app.state.connect_limiter.allow(address) > 0:
        # an address that just flooded, or opens sockets faster than anyone playing would:
        # refused before the handshake, cheaply, and slowly
        await _hold(ws.app.state.refusals_held, address, limits)
        await ws.close(code=4429)
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
    pacing = SocketPacing(conn.wake.set, ws.app.state.pacing, address)
    turns = _Turns()
    writer = asyncio.create_task(_writer(ws, table, conn, limits.send_timeout, turns, pacing))
    handler = asyncio.create_task(_serve_messages(manager, table, conn, limits, ws.app.state.address_limiter,
                                                  address, turns, pacing))
    notice = _SlowDown(conn, limits)
    reader = asyncio.create_task(_read(ws, conn, limits, notice, turns))
    given_up = asyncio.create_task(conn.given_up.wait())
    tasks = (reader, writer, handler, given_up)
    close_code: int | None = None
    try:
        # whichever ends first ends the socket: the client leaves or floods (the reader), or its
        # replies pile up unread (given up: the writer may be stuck in a send, and the reader
        # waiting for a frame that never comes, the client's last frames long read)
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if reader.done():
            close_code = reader.result()
        if conn.too_slow:
            close_code = 1008
    finally:
        notice.cancel()
        pacing.close()
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
        turns.wake_all()
        for task in (reader, writer, given_up):
            task.cancel()
        for task in tasks:  # the handler ends after the message in hand, if any
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if close_code is not None and not conn.too_slow:
            with contextlib.suppress(Exception):
                await ws.close(code=close_code)
