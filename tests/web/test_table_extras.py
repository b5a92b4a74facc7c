"""What the web table needs beyond the game state, at the server: finished tricks and round
ends in the log with their data, who is winning the trick, piles from the observation, idle
countdowns, the rematch, the unknown-table page and the ready-made reports."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from torite.engine import make_game
from torite.present.view import view
from torite.server.app import create_app
from torite.server.viewjson import view_json

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from .test_server import Msg, is_state, join, new_table, play_out, recv_until, token


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", reports_dir=None)) as c:
        yield c


# ------------------------------------------------------------------ log lines with data
def test_trick_and_round_end_lines_carry_their_events_data_and_every_line_its_kind(client: TestClient) -> None:
    t = new_table(client)
    seen: list[Msg] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        end = play_out(ws, 0, random.Random(3), seen, first=join(ws, 0, token(t, 0)))
    lines = [line for m in seen if is_state(m) for line in m["log"]]
    assert all(isinstance(line["kind"], str) for line in lines)
    tricks = [line for line in lines if line["kind"] == "trick"]
    ends = [line for line in lines if line["kind"] == "round_end"]
    assert tricks and all({"cards", "winner", "points"} <= set(x["data"]) for x in tricks)
    # a round's end carries its points and the running totals: the numbers the summary shows
    assert [x["data"]["points"] for x in ends] == end["round_scores"]
    assert ends[-1]["data"]["scores"] == end["result"]["scores"]
    assert all("data" not in line for line in lines if line["kind"] not in ("trick", "round_end", "game_end"))


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_who_is_winning_the_trick_follows_the_games_own_rule(client: TestClient) -> None:
    """Kaedama: the highest trump, else the highest card of the suit led, wins; a seat asked to
    replace or pass is never the one winning (its rule: only a losing card may be replaced)."""
    r = client.post("/api/tables", json={"game": "kaedama", "options": {"rounds": 1}, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]})
    t = r.json()
    seen: list[Msg] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        play_out(ws, 0, random.Random(4), seen, first=join(ws, 0, token(t, 0)))
    checked = asked = 0
    for m in (x for x in seen if is_state(x)):
        trick = m["trick"]["cards"]
        if not trick or m["over"]:
            assert m["winning"] is None
            continue
        trumps = [e for e in trick if e["card"][-1] == m["trump"]]
        pool = trumps or [e for e in trick if e["card"][-1] == m["trick"]["led"]]
        best = max(pool, key=lambda e: RANKS.index(e["card"][:-1]))
        assert m["winning"] == best["seat"], (trick, m["trump"], m["trick"]["led"])
        checked += 1
        if m["phase"] == "kaedama":
            assert m["winning"] not in m["to_act"]
            asked += 1
    assert checked > 10 and asked


# ------------------------------------------------------------------ piles
def test_piles_are_the_declared_piles_as_the_seat_sees_them() -> None:
    """No guessing from JSON shapes: every pile the game declares, in its order, as cards where
    the seat sees them (a face-down card as null) and as a count where it does not."""
    game = make_game("kaedama", {})
    state = game.new_state(seed=1)
    obs = state.observation(0)
    piles = view_json(view(state, 0), {})["piles"]
    assert [p["name"] for p in piles] == ["stock", "out"]
    assert piles[0] == {"name": "stock", "count": obs["stock_size"]}
    assert piles[1] == {"name": "out", "cards": obs["out"]}
    mighty = make_game("mighty", {})
    seen = view(mighty.new_state(seed=2), None)
    assert [(p.cards, p.count) for p in seen.piles] == [(None, 3), (None, 0)]  # the kitty, the discards


def test_the_state_message_carries_the_piles_the_seat_may_see(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "trick-of-the-dead", "options": {"open_graveyard": True},
                                         "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
    t = r.json()
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        # face down until the burial is over
        table = client.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
        assert {"name": "graveyard", "count": table.state.observation(0)["graveyard_size"]} in m["piles"]
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]})
        m = recv_until(ws, lambda x: is_state(x) and x["phase"] != "bury")
        grave = next(p for p in m["piles"] if p["name"] == "graveyard")
        obs = table.state.observation(0)
        assert grave["cards"] == obs["graveyard"] and len(grave["cards"]) == obs["graveyard_size"] > 0
    with client.websocket_connect(f"/ws/tables/{t['id']}") as spectator:
        m = join(spectator, None)
        assert all(p["name"] != "buried" for p in m["piles"])  # one's own buried cards are no one else's


# ------------------------------------------------------------------ idle countdown
def test_a_seat_to_act_with_an_idle_timeout_has_a_deadline_others_none(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], settings={"idle_seconds": 60})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        deadlines = m["idle_deadlines"]
        assert len(deadlines) == 3 and deadlines[2] is None
        # the burial: both people must act, each on a clock of about a minute from now
        for d in deadlines[:2]:
            assert isinstance(d, float) and 50 < d - m["now"] <= 60.5
        assert m["seats"][1]["connected"] is False
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]})
        m = recv_until(ws, lambda x: is_state(x) and 0 not in x["to_act"])
        assert m["idle_deadlines"][0] is None and isinstance(m["idle_deadlines"][1], float)
    t2 = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    with client.websocket_connect(f"/ws/tables/{t2['id']}") as ws:
        assert join(ws, 0, token(t2, 0))["idle_deadlines"] == [None, None, None]  # no timeout set


# ------------------------------------------------------------------ rematch
def after(n: int) -> Callable[[Msg], bool]:
    """A state message of a table with more than ``n`` actions."""
    return lambda m: is_state(m) and int(m["n"]) > n


def test_a_rematch_seats_the_same_players_at_a_new_table_and_tells_each_only_their_own_link(
        client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"},
             {"kind": "bot", "level": "random", "name": "Robo"}]
    t = new_table(client, seats, settings={"bot_delay": 0})
    url = f"/api/tables/{t['id']}/rematch"
    r = client.post(url, json={"seat": 0, "token": token(t, 0)})
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as a, client.websocket_connect(f"/ws/tables/{t['id']}") as b:
        ma, mb = join(a, 0, token(t, 0)), join(b, 1, token(t, 1))
        rng = random.Random(2)
        while True:  # both play to the end, each from its own newest view
            n = max(ma["n"], mb["n"])
            ma = ma if ma["n"] == n else recv_until(a, after(n - 1))
            mb = mb if mb["n"] == n else recv_until(b, after(n - 1))
            if ma["over"] and mb["over"]:
                break
            ws, m = (a, ma) if 0 in ma["to_act"] and ma["legal"] else (b, mb) if 1 in mb["to_act"] and mb["legal"] \
                else (a, None)
            if m is not None:
                ws.send_json({"type": "act", "action": rng.choice(m["legal"])["text"]})
            got = recv_until(ws, after(n))
            ma, mb = (got, mb) if ws is a else (ma, got)
        assert ma["rematch"] is None
        assert client.post(url, json={"seat": 1, "token": "wrong"}).status_code == 403
        assert client.post(url, json={"seat": 2, "token": ""}).status_code == 403  # a bot's seat has no token
        assert client.post(url, content=b"[[[", headers={"content-type": "application/json"}).status_code == 400
        r = client.post(url, json={"seat": 1, "token": token(t, 1)})
        assert r.status_code == 201
        new_id = r.json()["id"]
        assert r.json()["path"].startswith(f"/t/{new_id}#seat=1&token=")
        # asked again (the other player): the same new table
        again = client.post(url, json={"seat": 0, "token": token(t, 0)}).json()
        assert again["id"] == new_id
        info = client.get(f"/api/tables/{new_id}").json()
        assert [(s["kind"], s["name"], s["level"]) for s in info["seats"]] == [
            ("human", "Ann", None), ("human", "Ben", None), ("bot", "Robo", "random")]
        assert info["options"] == client.get(f"/api/tables/{t['id']}").json()["options"]
        ma = recv_until(a, lambda m: is_state(m) and m["rematch"] is not None)
        mb = recv_until(b, lambda m: is_state(m) and m["rematch"] is not None)
    tok0 = again["path"].split("token=")[1]
    assert ma["rematch"]["path"] == again["path"] and mb["rematch"]["path"] == r.json()["path"]
    assert tok0 not in json.dumps(mb) and r.json()["path"].split("token=")[1] not in json.dumps(ma)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as s:
        assert join(s, None)["rematch"]["path"] == f"/t/{new_id}#watch"
    # the new links hold their seats
    with client.websocket_connect(f"/ws/tables/{new_id}") as ws:
        ws.send_json({"type": "join", "seat": 0, "token": tok0})
        assert recv_until(ws, lambda m: m["type"] in ("joined", "error"))["type"] == "joined"


# ------------------------------------------------------------------ pages
def test_an_unknown_table_gets_a_clear_page_with_the_way_to_the_lobby(client: TestClient) -> None:
    r = client.get("/t/no-such-table")
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    assert 'href="/"' in r.text and 'data-i18n="missing.title"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    t = new_table(client)
    assert client.get(f"/t/{t['id']}").status_code == 200


def test_reports_are_served_from_their_folder_only_when_it_exists(tmp_path: Path) -> None:
    with TestClient(create_app("sqlite://", reports_dir=tmp_path / "absent")) as c:
        assert c.get("/api/reports").json() == {"reports": []}
        assert c.get("/reports/index.json").status_code == 404
    d = tmp_path / "reports"
    d.mkdir()
    (d / "tod.html").write_text("<h1>Trick of the Dead</h1>", encoding="utf-8")
    (d / "index.json").write_text(json.dumps([
        {"title": "Survival mode", "game": "trick-of-the-dead", "file": "tod.html"},
        {"title": "escape", "game": "x", "file": "../secret.html"},
        {"title": "no file"}]), encoding="utf-8")
    (tmp_path / "secret.html").write_text("secret", encoding="utf-8")
    with TestClient(create_app("sqlite://", reports_dir=d)) as c:
        assert c.get("/api/reports").json() == {"reports": [
            {"title": "Survival mode", "game": "trick-of-the-dead", "url": "/reports/tod.html"}]}
        r = c.get("/reports/tod.html")
        assert r.status_code == 200 and "Trick of the Dead" in r.text
        assert "script-src 'self'" in r.headers["content-security-policy"]
        for bad in ("/reports/../secret.html", "/reports/..%2Fsecret.html", "/reports/.hidden", "/reports/nope.html"):
            assert c.get(bad).status_code == 404, bad
    (d / "index.json").write_text("{broken", encoding="utf-8")
    with TestClient(create_app("sqlite://", reports_dir=d)) as c:
        assert c.get("/api/reports").json() == {"reports": []}
