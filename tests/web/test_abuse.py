"""Abuse and faults (issue 26): each case reproduces what a probe did to the server, and checks
what must happen instead: a clear refusal that changes nothing, a bounded queue, a closed socket,
a bystander still answered."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.server.app import create_app
from torite.server.tables import LiveTable, TableManager

from .test_server import GAME, join, recv_until

Msg = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def _manager(c: TestClient) -> TableManager:
    m: TableManager = c.app.state.manager  # type: ignore[attr-defined]
    return m


# ------------------------------------------------------------------ item 12: stale acts
def _twice_in_a_row(c: TestClient) -> tuple[LiveTable, dict[int, str], str]:
    """A table of people played (by the manager) up to a decision of seat 0 that seat 0 answers
    and is then to act again: the moment a stale second click would land on the next decision."""
    manager = _manager(c)
    rng = random.Random(4)
    for seed in range(50):
        table, tokens = c.portal.call(lambda s=seed: manager.create(GAME, {"target": 1}, [{"kind": "human"}] * 3,
                                                                   seed=s))
        while not table.over:
            seat = table.state.to_act()[0]
            probe = table.state.clone()
            action = rng.choice(probe.legal_actions(seat))
            probe.apply(seat, action)
            if seat == 0 and not probe.is_over() and 0 in probe.to_act():
                return table, tokens, str(action)
            c.portal.call(manager.act, table, seat, str(action))
    raise AssertionError("no seed gave seat 0 two decisions in a row")


def test_an_act_naming_a_decision_already_made_is_refused_as_stale_and_changes_nothing(client: TestClient) -> None:
    table, tokens, action = _twice_in_a_row(client)
    n = len(table.actions)
    with client.websocket_connect(f"/ws/tables/{table.id}") as tab1, \
            client.websocket_connect(f"/ws/tables/{table.id}") as tab2:
        first = join(tab1, 0, tokens[0])
        seen_by_2 = join(tab2, 0, tokens[0])
        assert first["decision"] == seen_by_2["decision"] and first["n"] == n
        tab1.send_json({"type": "act", "action": action, "decision": first["decision"]})
        assert recv_until(tab1, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        # the second tab still shows decision k; seat 0 is to act again, on decision k + 1
        assert 0 in table.state.to_act() and table.decisions[0] == first["decision"] + 1
        tab2.send_json({"type": "act", "action": seen_by_2["legal"][-1]["text"], "decision": seen_by_2["decision"]})
        err = recv_until(tab2, lambda m: m["type"] in ("ack", "error"))
        assert err["type"] == "error" and err["code"] == "stale"
        assert len(table.actions) == n + 1
    r = client.post(f"/api/tables/{table.id}/actions",
                    json={"seat": 0, "token": tokens[0], "action": seen_by_2["legal"][-1]["text"],
                          "decision": first["decision"]})
    assert r.status_code == 409 and r.json()["error"] == "stale"
    assert len(table.actions) == n + 1


def test_a_refused_act_answers_its_sender_only_and_resends_no_state(client: TestClient) -> None:
    t = client.post("/api/tables", json={"game": GAME, "options": {"target": 1},
                                         "seats": [{"kind": "human"}] * 3}).json()
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as other:
        join(other, 1, t["seats"][1]["token"])
        join(ws, 0, t["seats"][0]["token"])
        recv_until(other, lambda m: m["type"] == "state" and m["seats"][0]["connected"])
        got: list[Msg] = []
        for _ in range(3):
            ws.send_json({"type": "act", "action": "play 2C"})  # not even the phase: refused
        ws.send_json({"type": "ping"})
        recv_until(ws, lambda m: m["type"] == "pong", got)
        assert [m["type"] for m in got] == ["error"] * 3 + ["pong"]
        other.send_json({"type": "ping"})
        assert other.receive_json()["type"] == "pong"  # the other seat heard nothing of it
