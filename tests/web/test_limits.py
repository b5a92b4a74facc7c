"""Per-client limits and retention: a flood is slowed with a clear error and changes nothing;
finished tables go after the retention period, games in progress never."""

from __future__ import annotations

import random
import time
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.server.app import create_app
from torite.server.limits import RateLimiter, ServerLimits

from .test_server import join, new_table, play_out, recv_until, token


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_allows_a_burst_then_the_rate_and_says_how_long_to_wait() -> None:
    clock = FakeClock()
    lim = RateLimiter(rate=2.0, burst=3, clock=clock)
    assert [lim.allow("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert lim.allow("a") == pytest.approx(0.5)
    assert lim.allow("b") == 0.0  # each key has its own bucket
    clock.now += 0.5
    assert lim.allow("a") == 0.0 and lim.allow("a") > 0
    clock.now += 60
    assert [lim.allow("a") for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # refills only up to the burst
    with pytest.raises(ValueError):
        RateLimiter(rate=0, burst=1)
    with pytest.raises(ValueError, match="retention_days"):
        ServerLimits(retention_days=0)


def test_a_client_opening_tables_too_fast_is_refused_with_429_and_nothing_is_created() -> None:
    with TestClient(create_app("sqlite://", limits=ServerLimits(tables_per_minute=1, tables_burst=2))) as c:
        new_table(c)
        new_table(c)
        before = dict(c.app.state.manager.tables)  # type: ignore[attr-defined]
        r = c.post("/api/tables", json={"game": "trick-of-the-dead", "options": {}, "seats": [{"kind": "human"}] * 3})
        assert r.status_code == 429 and r.json()["error"] == "slow_down" and "try again" in r.json()["message"]
        assert c.app.state.manager.tables == before  # type: ignore[attr-defined]


def test_a_burst_within_the_queue_is_paced_and_every_message_answered_in_order() -> None:
    with TestClient(create_app("sqlite://", limits=ServerLimits(messages_per_second=20, messages_burst=3,
                                                               message_queue=10))) as c:
        t = new_table(c, [{"kind": "human"}] * 3, target=1)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            join(ws, 0, token(t, 0))  # message 1 of the burst
            for i in range(8):
                ws.send_json({"type": "ping" if i % 2 else "sync"})
            ws.send_json({"type": "ping"})
            kinds: list[str] = []
            while kinds.count("pong") < 5:
                m: dict[str, Any] = ws.receive_json()
                kinds.append(m.get("code", m["type"]) if m["type"] == "error" else m["type"])
            assert "error" not in kinds and "slow_down" not in kinds  # paced: nothing refused


def test_messages_past_the_queue_are_refused_and_counted_and_the_socket_stays_open() -> None:
    limits = ServerLimits(messages_per_second=5, messages_burst=1, message_queue=2)
    with TestClient(create_app("sqlite://", limits=limits)) as c:
        t = new_table(c, [{"kind": "human"}] * 3, target=1)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            for _ in range(12):
                ws.send_json({"type": "ping"})
            pongs, refused = 0, 0
            while pongs + refused < 12:
                m: dict[str, Any] = ws.receive_json()
                if m["type"] == "pong":
                    pongs += 1
                else:
                    assert m["code"] == "slow_down" and "refused" in m["message"]
                    refused = m["refused"]  # the count so far: one notice a second at most
            assert pongs + refused == 12 and refused > 0 and pongs >= 3  # the burst and the queue
            ws.send_json({"type": "ping"})
            assert recv_until(ws, lambda m: m["type"] == "pong")["type"] == "pong"  # still open


def test_finished_tables_are_pruned_after_the_retention_and_games_in_progress_stay() -> None:
    limits = ServerLimits(retention_days=1e-9, prune_every_seconds=0.05)
    with TestClient(create_app("sqlite://", limits=limits)) as c:
        done = new_table(c, [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
        playing = new_table(c, [{"kind": "human"}] * 3, target=100)
        with c.websocket_connect(f"/ws/tables/{done['id']}") as ws:
            end = play_out(ws, 0, random.Random(1), first=join(ws, 0, token(done, 0)))
        assert end["over"]
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{done['id']}").status_code != 404:
            assert time.monotonic() < deadline, "the finished table was never pruned"
            time.sleep(0.05)
        assert c.get(f"/api/tables/{done['id']}/record").status_code == 404
        assert c.get(f"/api/tables/{playing['id']}").status_code == 200
