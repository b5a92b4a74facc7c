"""A game with bids and a card named from the whole deck, at the web table's server: its labels
are complete, and the legal actions carry what the table needs to show a bidding box and a card
picker (the browser side is in test_browser.py)."""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterator

import pytest

from torite.engine.registry import game_class, game_ids
from torite.server.app import create_app
from torite.testing.labels import audit, compare_languages

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from .test_server import Msg, join, recv_until


@pytest.fixture
def client(bidding_game: str) -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def test_the_bidding_game_plays_through_the_protocol_with_complete_labels(bidding_game: str) -> None:
    assert bidding_game in game_ids()
    assert audit(bidding_game, seeds=30) == []
    assert compare_languages(game_class(bidding_game)) == []


def test_bids_and_named_cards_reach_the_seat_with_their_words(client: TestClient, bidding_game: str) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games[bidding_game]["labels"]["ja"]["actions"]["redouble"]["label"] == "リダブル"
    r = client.post("/api/tables", json={"game": bidding_game, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "scripted-test"}, {"kind": "bot", "level": "scripted-test"}]})
    assert r.status_code == 201, r.text
    t = r.json()
    rng = random.Random(3)
    seen_kinds: set[str] = set()
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m: Msg = join(ws, 0, t["seats"][0]["token"])
        if not (m["over"] or 0 in m["to_act"]):
            m = recv_until(ws, lambda x: x["type"] == "state" and (x["over"] or 0 in x["to_act"]))
        while not m["over"]:
            legal = m["legal"]
            kinds = {a["kind"] for a in legal}
            seen_kinds |= kinds
            if "bid" in kinds:
                bids = [a for a in legal if a["kind"] == "bid"]
                assert all(re.fullmatch(r"\d \S+", a["arg"]) and not a["cards"] for a in bids)
                nt = {"t": "contract", "level": 3, "denom": "NT"}  # drawn "3NT" by each face
                assert bids[-1]["label"] == {"en": ["Bid ", nt], "ja": [nt, "をビッド"], "ko": [nt, " 비드"]}
                pick = next((a for a in legal if a["kind"] == "redouble"), None) or next(
                    (a for a in bids if a["arg"] == "2 S"), bids[-1])
            elif "call" in kinds:
                named = {a["cards"][0] for a in legal}
                assert len(named) == 49 and not named & set(m["hand"])  # any card but the hand's own
                pick = next(a for a in legal if a["cards"] == ["QS"]) if "QS" in named else legal[0]
                assert pick["label"]["en"] == ["Call ", {"t": "card", "card": pick["cards"][0]}]
            else:
                pick = rng.choice(legal)
            n = m["n"]
            ws.send_json({"type": "act", "action": pick["text"]})
            m = recv_until(ws, lambda x, n=n: x["type"] == "state" and x["n"] > n and (x["over"] or 0 in x["to_act"]))
    assert {"bid", "pass", "redouble", "call", "play"} <= seen_kinds
    record = client.get(f"/api/tables/{t['id']}/record").json()
    mine = [a["action"] for a in record["actions"] if a["seat"] == 0]
    # the scripted bots double seat 0's 2 S, seat 0 redoubles, the others pass: seat 0 calls
    assert mine[:2] == ["bid 2 S", "redouble"] and mine[2].startswith("call ")
