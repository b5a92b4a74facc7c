"""A Mighty table over the web protocol: a person against four bots, every decision reaching the
seat with its words in English, Japanese and Korean (bidding box, friend card picker, buttons),
the kitty and the president's discards as piles only the president sees face up."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from torite.server.app import create_app

Msg = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def recv_until(ws: Any, pred: Any, limit: int = 5000) -> Msg:
    for _ in range(limit):
        m: Msg = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("the expected message never came")


def test_a_person_plays_a_deal_against_four_bots_with_words_in_three_languages(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games["mighty"]["labels"]["ko"]["phases"]["friend"]["name"] == "프렌드"
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 4
    r = client.post("/api/tables", json={"game": "mighty", "options": {"deals": 1}, "seats": seats, "seed": 4})
    assert r.status_code == 201, r.text
    t = r.json()
    rng = random.Random(1)
    kinds: set[str] = set()
    piles_seen: list[list[dict[str, Any]]] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "join", "seat": 0, "token": t["seats"][0]["token"]})
        m = recv_until(ws, lambda x: x["type"] == "state" and (x["over"] or 0 in x["to_act"]))
        while not m["over"]:
            legal = m["legal"]
            kind = {a["kind"] for a in legal}
            kinds |= kind
            piles_seen.append(m["piles"])
            if "bid" in kind:
                bids = [a for a in legal if a["kind"] == "bid"]
                assert all(not a["cards"] and a["arg"].split()[0].isdigit() for a in bids)
                level, denom = bids[0]["arg"].split()
                assert bids[0]["label"]["ko"] == [{"t": "contract", "level": int(level), "denom": denom}, " 공약"]
                pick = bids[0]  # outbid everyone: the person becomes the president
            elif "friend" in kind:
                named = [a for a in legal if a["cards"]]
                assert len(named) == 53 and {a["arg"] for a in legal if not a["cards"]} == {"first-trick", "none"}
                assert next(a for a in legal if a["arg"] == "first-trick")["label"]["ko"] == ["초구 프렌드"]
                pick = next(a for a in named if a["cards"] == ["AS"])
            else:
                pick = rng.choice(legal)
            n = m["n"]
            ws.send_json({"type": "act", "action": pick["text"]})
            m = recv_until(ws, lambda x, n=n: x["type"] == "state" and x["n"] > n and (x["over"] or 0 in x["to_act"]))
    assert {"bid", "discard", "contract", "friend", "play"} <= kinds
    names = {p["name"] for ps in piles_seen for p in ps}
    assert {"kitty", "discards"} <= names
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert record["game"] == "mighty" and any(a["action"] == "friend AS" for a in record["actions"])
