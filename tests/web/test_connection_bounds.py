"""Issue 40, points 6 and 11: the bounds below HTTP (``torite.server.connections``) and the pace
of HTTP requests, on a real uvicorn run as ``torite serve`` runs it, with real sockets: a
slowloris client is closed, connections past the caps are closed at once, a bystander is still
answered, and each condition is one log line, not one per failure."""

from __future__ import annotations

import argparse
import contextlib
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from torite.server.app import create_app
from torite.server.cli import add_serve_command, uvicorn_config
from torite.server.connections import ConnectionGuard, ConnectionLimits, RepeatFilter
from torite.server.limits import ServerLimits

from .realserver import quietly, serving, ws_connect
from .test_server import GAME


@contextlib.contextmanager
def torite_server(limits: ServerLimits, *extra: str) -> Iterator[tuple[int, Any]]:
    """The app served as ``torite serve`` serves it; yields the port and the uvicorn config."""
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers())
    args = parser.parse_args(["serve", *extra])
    app = create_app("sqlite://", limits=limits)
    config = uvicorn_config(app, args, limits)
    with serving(app, config=config) as port:
        yield port, config


def raw(port: int, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.settimeout(timeout)
    return s


def closed_within(s: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closed ``s`` within ``seconds``; what it sent before."""
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = s.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True, got
        if not chunk:
            return True, got
        got += chunk
    return False, got


def answered(port: int, source: str = "127.0.0.3") -> int:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as http:
        return http.get(f"http://127.0.0.1:{port}/api/version").status_code


def test_a_request_whose_headers_trickle_in_is_answered_408_and_closed() -> None:
    """Slowloris: a header line a byte at a time, each byte well within any idle timeout."""
    with torite_server(ServerLimits(header_timeout=1.0)) as (port, _):
        silent = raw(port, "127.0.0.2")
        slow = raw(port, "127.0.0.2")
        slow.sendall(b"GET /api/version HTTP/1.1\r\nHost: x\r\n")
        start = time.monotonic()
        gone = False
        while time.monotonic() - start < 6 and not gone:
            try:
                slow.sendall(b"X")
            except OSError:
                gone = True
                break
            gone, _ = closed_within(slow, 0.3)
        assert gone, "a header a byte every 0.3 s held the connection for 6 s"
        assert time.monotonic() - start < 4
        assert closed_within(silent, 3.0)[0], "a connection that sent nothing was kept"
        assert answered(port) == 200  # a bystander is served all along


def test_a_request_that_sends_nothing_hears_408() -> None:
    with torite_server(ServerLimits(header_timeout=0.5)) as (port, _):
        s = raw(port)
        gone, said = closed_within(s, 4.0)
        assert gone and said.startswith(b"HTTP/1.1 408"), said


def test_a_body_that_trickles_in_is_cut_off() -> None:
    with torite_server(ServerLimits(header_timeout=5.0, body_timeout=1.0)) as (port, _):
        s = raw(port)
        s.sendall(b"POST /api/preview HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                  b"content-length: 1000\r\n\r\n{")
        start = time.monotonic()
        gone = False
        while time.monotonic() - start < 6 and not gone:
            try:
                s.sendall(b" ")
            except OSError:
                break
            gone, _ = closed_within(s, 0.3)
        assert time.monotonic() - start < 4, "a body a byte every 0.3 s held the connection"
        assert answered(port) == 200


def test_a_keep_alive_connection_is_timed_again_after_each_response() -> None:
    with torite_server(ServerLimits(header_timeout=1.0)) as (port, _):
        s = raw(port)
        s.sendall(b"GET /api/version HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        assert s.recv(4096).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/version HTTP/1.1\r\n")  # the next request's headers never end
        start = time.monotonic()
        while time.monotonic() - start < 6:
            try:
                s.sendall(b"X")
            except OSError:
                break
            if closed_within(s, 0.3)[0]:
                break
        assert time.monotonic() - start < 4


def test_connections_past_an_addresss_cap_are_closed_at_once_and_others_are_served(
        caplog: pytest.LogCaptureFixture) -> None:
    limits = ServerLimits(connections_per_address=4, header_timeout=30.0)
    with caplog.at_level(logging.WARNING, logger="torite.server"), torite_server(limits) as (port, config):
        held = [raw(port, "127.0.0.2") for _ in range(4)]
        time.sleep(0.2)
        for _ in range(30):
            extra = raw(port, "127.0.0.2")
            assert closed_within(extra, 2.0)[0], "a fifth connection from one address was kept"
            extra.close()
        assert answered(port, "127.0.0.3") == 200
        guard: ConnectionGuard = config.torite_guard
        assert guard.by_address.get("127.0.0.2") == 4
        # refused by the listening socket as it accepted them: no transport, no protocol made
        assert guard.refused_at_accept == 30
        for s in held:
            s.close()
        deadline = time.monotonic() + 5
        while guard.by_address.get("127.0.0.2") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not guard.by_address.get("127.0.0.2")
        assert answered(port, "127.0.0.2") == 200  # its connections closed, the address is served again
    said = [r for r in caplog.records if "refused connections" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]  # one line for 30 refusals, no traceback
    assert not any(r.exc_info for r in caplog.records)


def test_websockets_count_against_the_cap_until_they_close() -> None:
    limits = ServerLimits(connections_per_address=3, header_timeout=30.0)
    with torite_server(limits) as (port, config):
        t = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                       json={"game": GAME, "seats": [{"kind": "human"}] * 3}).json()
        guard: ConnectionGuard = config.torite_guard
        for _ in range(3):  # opened and closed, again and again: nothing is left counted
            sockets = [ws_connect(port, f"/ws/tables/{t['id']}", source="127.0.0.2") for _ in range(3)]
            for ws in sockets:
                with quietly(ws):
                    ws.send('{"type": "ping"}')
                    assert '"pong"' in str(ws.recv(timeout=5))
            deadline = time.monotonic() + 5
            while guard.by_address.get("127.0.0.2") and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not guard.by_address.get("127.0.0.2")
        with contextlib.ExitStack() as stack:
            for _ in range(3):
                stack.enter_context(quietly(ws_connect(port, f"/ws/tables/{t['id']}", source="127.0.0.2")))
            with pytest.raises(Exception):  # noqa: B017 - refused before the handshake, however the client says it
                ws_connect(port, f"/ws/tables/{t['id']}", source="127.0.0.2")
            with quietly(ws_connect(port, f"/ws/tables/{t['id']}", source="127.0.0.3")) as other:
                other.send('{"type": "join", "seat": null}')
                assert '"joined"' in str(other.recv(timeout=5)) or '"state"' in str(other.recv(timeout=5))


def test_connections_past_the_total_cap_are_closed_at_once() -> None:
    limits = ServerLimits(connections_total=6, header_timeout=30.0)
    with torite_server(limits) as (port, _):
        held = [raw(port, f"127.0.1.{i}") for i in range(1, 7)]
        time.sleep(0.2)
        extra = raw(port, "127.0.1.9")
        assert closed_within(extra, 2.0)[0]
        held.pop().close()
        time.sleep(0.2)
        assert answered(port) == 200
        for s in held:
            s.close()


def test_a_reverse_proxy_is_not_capped_per_address() -> None:
    limits = ServerLimits(connections_per_address=2, header_timeout=30.0)
    with torite_server(limits, "--forwarded-allow-ips", "127.0.0.2") as (port, _):
        held = [raw(port, "127.0.0.2") for _ in range(5)]
        time.sleep(0.2)
        assert not closed_within(held[-1], 0.5)[0]
        for s in held:
            s.close()


def test_the_total_cap_stays_below_the_descriptor_limit() -> None:
    import resource

    guard = ConnectionGuard(ConnectionLimits(total=10**9))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert guard.total < soft


def test_a_repeated_error_is_logged_once_a_minute() -> None:
    logger = logging.getLogger("test.repeats")
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    logger.addFilter(RepeatFilter())
    logger.propagate = False
    try:
        for _ in range(1000):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.exception("socket.accept() out of system resource")
        logger.error("something else")
    finally:
        logger.removeHandler(handler)
    assert seen == ["socket.accept() out of system resource", "something else"]


# ------------------------------------------------------------------ point 11: many small requests
def test_many_small_requests_from_one_address_are_answered_429_and_others_are_not() -> None:
    limits = ServerLimits(http_requests_per_second=0.5, http_requests_burst=20)
    app = create_app("sqlite://", limits=limits)
    with serving(app) as port:
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(transport=transport, timeout=10) as http:
            codes = [http.get(f"http://127.0.0.1:{port}/api/version").status_code for _ in range(40)]
            refused = http.get(f"http://127.0.0.1:{port}/api/version")
        assert codes[:20] == [200] * 20 and codes.count(429) >= 10, codes
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
        assert int(refused.headers["retry-after"]) >= 1
        assert answered(port, "127.0.0.3") == 200


def test_at_the_total_cap_a_connection_stalled_on_its_headers_makes_room_for_a_new_one() -> None:
    """Stalled connections from many addresses (each under its own cap) fill the total: a new
    client is still served, the connection that waited longest for its headers is closed."""
    limits = ServerLimits(connections_total=6, header_timeout=30.0)
    with torite_server(limits) as (port, _):
        stalled = [raw(port, f"127.0.1.{i}") for i in range(1, 7)]
        for s in stalled:
            s.sendall(b"GET /api/version HTTP/1.1\r\n")
        time.sleep(1.5)
        assert answered(port, "127.0.0.3") == 200
        gone, said = closed_within(stalled[0], 3.0)
        assert gone and said.startswith(b"HTTP/1.1 408")
        assert not closed_within(stalled[-1], 0.3)[0]  # the others wait on (within their 30 s)
        for s in stalled:
            s.close()
