"""A real uvicorn on a thread, for what an in-memory test client cannot show: TCP back-pressure
from a client that stops reading, keep-alive pings, peer addresses, forwarded headers."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection, connect

from torite.server.connections import serving_sockets


@contextmanager
def serving(app: Any, *, config: uvicorn.Config | None = None, sndbuf: int | None = None) -> Iterator[int]:
    """Serve ``app`` (or a whole ``config``) on a free 127.0.0.1 port; yields the port.
    ``sndbuf`` shrinks the send buffer of every accepted socket, so a client that stops reading
    fills it after a few kilobytes."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # so asyncio sets TCP_NODELAY
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if sndbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    cfg = config or uvicorn.Config(app, log_level="warning")
    srv = uvicorn.Server(cfg)
    listeners = serving_sockets(cfg, sock)  # as torite serve listens
    thread = threading.Thread(target=srv.run, kwargs={"sockets": listeners}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        srv.should_exit = True
        thread.join(timeout=15)
        for listener in listeners:
            listener.close()


def ws_connect(port: int, path: str, *, source: str = "127.0.0.1", rcvbuf: int | None = None,
               max_queue: int | None = 16, **kw: Any) -> ClientConnection:
    """A WebSocket client from ``source`` (any 127.x.y.z: a different client address to the
    server); ``rcvbuf`` and ``max_queue=1`` make a client that soon stops taking data."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return connect(f"ws://127.0.0.1:{port}{path}", sock=sock, max_queue=max_queue, open_timeout=10, **kw)


@contextmanager
def quietly(conn: ClientConnection) -> Iterator[ClientConnection]:
    """Use ``conn`` and close it at the end, whatever state the server left it in."""
    entered = conn.__enter__()
    try:
        yield entered
    finally:
        with suppress(Exception):
            entered.close()
