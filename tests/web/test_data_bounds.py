"""The web server's data paths, bounded (issue 40): a game's length at a table, a replay's
memory, the records a page may send, the log resent on a language switch or a ``sync``, hints,
suggestions, an ack's position and a spectator's state once it leaves.  Each bound is a clear
refusal, and nothing else changes."""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.engine.registry import make_game
from torite.record import Record
from torite.server.app import create_app
from torite.server.live import MAX_GAME_ACTIONS, most_rounds_here

Msg = dict[str, Any]
BOTS3 = [{"kind": "bot", "level": "random"}] * 3


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def create(client: TestClient, game: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> Any:
    return client.post("/api/tables", json={"game": game, "options": options, "seats": seats,
                                            "settings": {"bot_delay": 0}})


# ------------------------------------------------------------------ 1. a game's length
def test_a_game_longer_than_a_table_plays_is_refused_at_creation_and_in_the_preview(client: TestClient) -> None:
    most = most_rounds_here(make_game("kaedama"))
    assert most * make_game("kaedama").bounds().round_actions <= MAX_GAME_ACTIONS
    r = create(client, "kaedama", {"rounds": 10000}, BOTS3)
    assert r.status_code == 400 and r.json()["error"] == "too_long"
    assert f"at most {most} rounds" in r.json()["message"]
    assert r.json()["detail"] == {"most_rounds": most, "asked": 10000}
    p = client.post("/api/preview", json={"game": "kaedama", "options": {"rounds": 10000}})
    assert p.status_code == 400 and p.json()["error"] == "too_long" and p.json()["most_rounds"] == most
    assert create(client, "kaedama", {"rounds": most}, BOTS3).status_code == 201
    assert client.post("/api/preview", json={"game": "kaedama", "options": {"rounds": most}}).status_code == 200


def test_a_game_to_a_far_target_stops_after_the_rounds_a_table_plays(client: TestClient) -> None:
    """A target no number of rounds bounds (100,000 points) still ends: after the most rounds a
    table plays, scored as it stands, and its record says so, so it replays the same."""
    r = create(client, "trick-of-the-dead", {"target": 100000}, [{"kind": "human"}, *BOTS3[:2]])
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = client.portal.call(manager.get, tid)  # type: ignore[union-attr]
    most = most_rounds_here(table.game)
    assert table.state.max_rounds == most and table.record().max_rounds == most
    assert Record.from_json(table.record().to_json()).max_rounds == most


# ------------------------------------------------------------------ 4. hints
def test_a_hint_is_the_askers_alone_and_a_count_not_a_row_per_ask(client: TestClient) -> None:
    from sqlalchemy import func, select

    from torite.server.store import hint_counts_t, hints_t

    from .test_server import is_state, join, recv_until

    r = create(client, "trick-of-the-dead", {}, [{"kind": "human"}] * 3)
    t = r.json()
    with client.websocket_connect(f"/ws/tables/{t['id']}") as watcher:
        first = join(watcher, None)
        seat = first["to_act"][0]
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            mine = join(ws, seat, t["seats"][seat]["token"])
            # the seat joining shows it connected: the watcher's one state for it
            recv_until(watcher, lambda m: is_state(m) and m["seats"][seat]["connected"])
            for _ in range(8):
                ws.send_json({"type": "hint"})
                assert recv_until(ws, lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
            watcher.send_json({"type": "ping"})
            got = watcher.receive_json()
            assert got["type"] == "pong", got  # no state came for the seat's hints
            ws.send_json({"type": "act", "action": mine["legal"][0]["text"]})
            m = recv_until(watcher, lambda m: is_state(m) and m["n"] == 1)
            assert m["hints"][seat] == 8  # the count shows in everyone's next state
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = client.portal.call(manager.get, t["id"])  # type: ignore[union-attr]
    assert table.record().hints[seat] == 8
    for _ in range(50):  # the count's writes are in the background
        if table.hints_saved[seat] == 8:
            break
        client.portal.call(anyio.sleep, 0.05)  # type: ignore[union-attr]
    with manager.store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(hints_t)).scalar_one() == 0
        rows = conn.execute(select(hint_counts_t.c.seat, hint_counts_t.c.count)).all()
    assert [tuple(x) for x in rows] == [(seat, 8)]
    assert manager.store.load_table(t["id"]).hints[seat] == 8


# ------------------------------------------------------------------ 11. acks, spectators
def test_an_ack_names_its_own_position_even_when_the_table_moved_on_meanwhile(client: TestClient) -> None:
    """Another process's action read between an action and its answer (PostgreSQL, two
    processes) must not make the ack name a later position than the one it took."""
    from .test_server import join, recv_until

    t = create(client, "trick-of-the-dead", {}, [{"kind": "human"}] * 3).json()
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = client.portal.call(manager.get, t["id"])  # type: ignore[union-attr]
    seat = table.state.to_act()[0]
    real = manager._update_idle

    def meanwhile(tbl: Any, acted: int | None = None, **kw: Any) -> None:
        real(tbl, acted=acted, **kw)
        if acted == seat and len(tbl.actions) == 1:  # the next seat's action, caught up from elsewhere
            nxt = tbl.state.to_act()[0]
            action = tbl.state.legal_actions(nxt)[0]
            tbl.state.apply(nxt, action)
            tbl.actions.append((nxt, tbl.game.action_text(action)))

    manager._update_idle = meanwhile
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, seat, t["seats"][seat]["token"])
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]})
        ack = recv_until(ws, lambda x: x["type"] in ("ack", "error"))
    assert ack["type"] == "ack" and ack["n"] == 1 and len(table.actions) == 2
    manager._update_idle = real
    # over HTTP too
    seat2 = table.state.to_act()[0]
    text = table.game.action_text(table.state.legal_actions(seat2)[0])
    r = client.post(f"/api/tables/{t['id']}/actions", json={"seat": seat2, "token": t["seats"][seat2]["token"],
                                                            "action": text})
    assert r.status_code == 200 and r.json()["n"] == 3


def test_spectators_that_leave_leave_nothing_behind(client: TestClient) -> None:
    import gc
    import weakref

    from torite.server.live import Connection

    from .test_server import join

    t = create(client, "trick-of-the-dead", {}, [{"kind": "human"}] * 3).json()
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = client.portal.call(manager.get, t["id"])  # type: ignore[union-attr]
    made: list[weakref.ref[Connection]] = []
    real_attach = manager.attach

    def attach(tbl: Any, conn: Connection, *args: Any, **kw: Any) -> None:
        made.append(weakref.ref(conn))
        real_attach(tbl, conn, *args, **kw)

    manager.attach = attach
    for i in range(30):
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            ws.send_json({"type": "join", "seat": None, "lang": ("en", "ja", "ko", None)[i % 4]})
            join(ws, None)
            ws.send_json({"type": "sync"})
            ws.send_json({"type": "ping"})
            while ws.receive_json()["type"] != "pong":
                pass
    manager.attach = real_attach
    assert len(made) == 60
    assert table.conns == set()
    counts = client.app.state.sockets  # type: ignore[attr-defined]
    assert counts.by_table == {} and counts.by_address == {}
    gc.collect()
    assert [r for r in made if r() is not None] == []  # every connection's state is freed
    # what the table keeps per reader is per seat and language, not per socket
    assert len(table._logs) <= 4 and len(table._views) <= 4


# ------------------------------------------------------------------ 2. records sent by a page
def finished_record(seed: int, game_id: str = "trick-of-the-dead", **options: Any) -> dict[str, Any]:
    from torite.sim import play

    game = make_game(game_id, options)
    rec = play(game, ["random"] * game.num_players, seed, max_rounds=1, keep_record=True)[1]
    assert rec is not None
    out: dict[str, Any] = rec.to_json()
    return out


def test_a_record_over_its_bound_is_a_clear_413_and_nothing_is_kept(client: TestClient) -> None:
    from torite.server.replays import MAX_RECORD_BYTES, MAX_RECORD_ENVELOPE

    rec = finished_record(1)
    rec["seats"] = [s + " " * (MAX_RECORD_BYTES // 3) for s in rec["seats"]]
    r = client.post("/api/replay", json={"record": rec, "step": 0})
    assert r.status_code == 413 and r.json()["error"] == "too_large", r.text
    assert f"at most {MAX_RECORD_BYTES // 1024} KiB" in r.json()["message"]
    huge = b'{"record": "' + b"x" * MAX_RECORD_ENVELOPE + b'"}'
    r = client.post("/api/replay", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert len(client.app.state.replays) == 0  # type: ignore[attr-defined]


def test_the_replay_cache_is_bounded_by_the_bytes_its_replays_hold() -> None:
    from torite.replay import Replay
    from torite.server.replays import CACHE_BYTES, Replays

    assert CACHE_BYTES <= 64 << 20
    rps = [Replay(Record.from_json(finished_record(seed))) for seed in range(6)]
    cache = Replays(max_bytes=3 * max(rp.weight() for rp in rps))
    for i, rp in enumerate(rps):
        cache._put(f"k{i}", rp)
        assert cache.bytes <= cache.max_bytes
        assert cache.bytes == sum(w for _, w in cache._kept.values())
    assert 2 <= len(cache) <= 3 and cache._get("k5") is rps[5] and cache._get("k0") is None  # the oldest went
    small = Replays(max_bytes=rps[0].weight() - 1)
    assert small._put("big", rps[0]) is rps[0] and len(small) == 0  # answered, not kept


def test_new_records_are_paced_per_address_and_the_cached_ones_still_step(client: TestClient) -> None:
    from torite.server.pacing import BUILD_BURST

    first = finished_record(100)
    assert client.post("/api/replay", json={"record": first, "step": 1}).status_code == 200
    codes = [client.post("/api/replay", json={"record": finished_record(seed), "step": 0}).status_code
             for seed in range(BUILD_BURST + 2)]
    assert codes.count(200) == BUILD_BURST - 1 and codes[-1] == 429
    r = client.post("/api/replay", json={"record": finished_record(999), "step": 0})
    assert r.status_code == 429 and r.json()["error"] == "slow_down" and r.json()["detail"]["retry_after"] >= 1
    assert "new records to replay" in r.json()["message"]
    # a record already checked still steps; another address is not held up
    assert client.post("/api/replay", json={"record": first, "step": 2}).status_code == 200
    with TestClient(client.app, client=("10.0.0.2", 5000)) as other:
        assert other.post("/api/replay", json={"record": finished_record(999), "step": 0}).status_code == 200
    # records are replayed whole one at a time, a few waiting: past that the server is busy
    from torite.server.replays import BUILDS_WAITING

    cache = client.app.state.replays  # type: ignore[attr-defined]
    cache._waiting = BUILDS_WAITING
    with TestClient(client.app, client=("10.0.0.3", 5000)) as third:
        r = third.post("/api/replay", json={"record": finished_record(1234), "step": 0})
        assert r.status_code == 503 and r.json()["error"] == "busy"
        assert third.post("/api/replay", json={"record": first, "step": 3}).status_code == 200  # in the cache
    cache._waiting = 0


# ------------------------------------------------------------------ 5. suggestions
def finished_table(client: TestClient) -> str:
    import time

    t = create(client, "trick-of-the-dead", {"target": 1}, BOTS3).json()
    for _ in range(400):
        if client.get(f"/api/tables/{t['id']}").json()["over"]:
            return str(t["id"])
        time.sleep(0.05)
    raise AssertionError("the bots' game did not end")


def a_decision(client: TestClient, tid: str) -> tuple[int, int]:
    rec = Record.from_json(client.get(f"/api/tables/{tid}/record").json())
    _, state = rec.new_game()
    return 0, state.to_act()[0]


def test_a_suggestion_is_at_most_hard_same_site_paced_and_queued(client: TestClient) -> None:
    from torite.server.pacing import SUGGEST_AT_ONCE, SUGGEST_BURST

    tid = finished_table(client)
    step, seat = a_decision(client, tid)
    url = f"/api/tables/{tid}/replay/suggest?step={step}&seat={seat}"
    r = client.get(url + "&level=expert")
    assert r.status_code == 400 and r.json()["error"] == "bad_bot" and "at most hard" in r.json()["message"]
    for headers in ({"origin": "https://elsewhere.example"}, {"sec-fetch-site": "cross-site"}):
        r = client.get(url + "&level=normal", headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "bad_origin", headers
    assert client.get(url + "&level=normal", headers={"sec-fetch-site": "same-origin"}).status_code == 200
    pacing = client.app.state.pacing  # type: ignore[attr-defined]
    pacing.suggesting = SUGGEST_AT_ONCE  # every place taken
    r = client.get(url + "&level=normal")
    assert r.status_code == 503 and r.json()["error"] == "busy"
    pacing.suggesting = 0
    codes = [client.get(url + "&level=normal").status_code for _ in range(SUGGEST_BURST + 2)]
    assert codes[-1] == 429 and 200 in codes
    rec = client.get(f"/api/tables/{tid}/record").json()
    r = client.post("/api/replay/suggest", json={"record": rec, "step": step, "seat": seat, "level": "normal"})
    assert r.status_code == 429 and r.json()["error"] == "slow_down"


# ------------------------------------------------------------------ 3. the log, resent
def long_table(client: TestClient, rounds: int = 12) -> tuple[dict[str, Any], Any]:
    """A table of three people whose game went on for ``rounds`` rounds (played here, in memory:
    the sockets only read the table)."""
    import random

    t = create(client, "kaedama", {"rounds": rounds}, [{"kind": "human"}] * 3).json()
    manager = client.app.state.manager  # type: ignore[attr-defined]
    table = client.portal.call(manager.get, t["id"])  # type: ignore[union-attr]
    rng = random.Random(4)
    while not table.state.is_over():
        seat = table.state.to_act()[0]
        action = rng.choice(table.state.legal_actions(seat))
        table.state.apply(seat, action)
        table.actions.append((seat, table.game.action_text(action)))
    table.touch()
    return t, table


def read_whole_log(ws: Any) -> tuple[Msg, list[Msg], list[Msg]]:
    """The state and every page of the log that follows it, up to the last."""
    from .test_server import recv_until

    state = recv_until(ws, lambda m: m["type"] == "state")
    pages = [state]
    while pages[-1]["log_rest"] > 0:
        m = ws.receive_json()
        if m["type"] in ("log", "state"):
            pages.append(m)
    return state, pages, [line for p in pages for line in p["log"]]


def test_a_long_log_comes_in_pages_that_make_up_the_whole_of_it(client: TestClient) -> None:
    from torite.server.live import LOG_PAGE

    t, table = long_table(client)
    whole = [line for _, line in table.log_for(None, "en") if line is not None]
    assert len(whole) > 3 * LOG_PAGE
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "join", "seat": None, "lang": "en"})
        state, pages, lines = read_whole_log(ws)
        assert state["log_from"] == 0 and 0 < len(state["log"]) <= LOG_PAGE and state["log_rest"] > 0
        assert all(p["type"] == "log" and len(p["log"]) <= LOG_PAGE for p in pages[1:])
        assert [p["log_from"] for p in pages] == sorted(p["log_from"] for p in pages)
        assert [json.dumps(x, ensure_ascii=False, separators=(",", ":")) for x in lines] == whole
        assert [x["i"] for x in lines] == sorted({x["i"] for x in lines})  # each once, in order


def test_a_sync_flood_is_one_resend_and_the_newest_language_wins(client: TestClient) -> None:
    from torite.server.pacing import RESEND_BURST

    from .test_server import recv_until

    t, _ = long_table(client, rounds=2)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "join", "seat": None, "lang": "en"})
        read_whole_log(ws)
        for _ in range(60):
            ws.send_json({"type": "sync"})
        for lang in ("ja", "ko", "ja", "ko", "ja"):
            ws.send_json({"type": "lang", "lang": lang})
        ws.send_json({"type": "sync"})  # a sync after a language waiting its turn does not undo it
        ws.send_json({"type": "ping"})
        seen: list[Msg] = []
        recv_until(ws, lambda m: m["type"] == "pong", seen)
        resent = [m for m in seen if m["type"] == "state" and m["log_from"] == 0]
        assert len(resent) <= RESEND_BURST, len(resent)  # not 60: the rest wait, as one
        # the last language asked for comes, once its turn comes (a second or two)
        last = recv_until(ws, lambda m: m["type"] == "state" and m["lang"] == "ja" and m["log_from"] == 0)
        assert last["log"] and all(set(line["text"]) == {"ja"} for line in last["log"])


def test_the_sockets_of_one_address_share_a_pace_of_resends(client: TestClient) -> None:
    from torite.server.pacing import ADDRESS_RESEND_BURST, RESEND_BURST

    from .test_server import recv_until

    t, _ = long_table(client, rounds=1)
    sockets = ADDRESS_RESEND_BURST // RESEND_BURST + 2
    resent = 0
    with contextlib.ExitStack() as stack:
        wss = [stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}")) for _ in range(sockets)]
        for ws in wss:
            ws.send_json({"type": "join", "seat": None, "lang": "en"})
            read_whole_log(ws)
        for ws in wss:
            for _ in range(RESEND_BURST):
                ws.send_json({"type": "sync"})
            ws.send_json({"type": "ping"})
        for ws in wss:
            seen: list[Msg] = []
            recv_until(ws, lambda m: m["type"] == "pong", seen)
            resent += sum(1 for m in seen if m["type"] == "state")
    assert resent <= ADDRESS_RESEND_BURST < sockets * RESEND_BURST
