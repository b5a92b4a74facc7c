"""What the server sends so the table can teach (issue 24): each disabled card's and choice's
reason from the rules, roles on seats, how the game is won, the bidding so far, a round's scoring
written out, a hint built from the seat's own view only (counted in the record, off by a table
setting), a second tab that asks before it takes a seat over, and the host handing a gone
player's seat to a bot at once."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.present import labels as L
from torite.record import Record
from torite.server.app import create_app

from .test_server import is_state, join, my_turn, recv_until, token

Msg = dict[str, Any]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def table(client: TestClient, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
          settings: dict[str, Any] | None = None, seed: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": options or {}, "seats": seats,
                            "settings": {"bot_delay": 0, **(settings or {})}}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def en(rich: list[Any]) -> str:
    return "".join(p if isinstance(p, str) else f"<{p['t']}>" for p in rich)


def test_every_disabled_card_says_why_in_every_language_and_the_goal_and_roles_come_along(client: TestClient) -> None:
    t = table(client, "hearts", [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        assert en(m["goal"]["en"]) == "One deal: the fewest penalty points win."
        assert m["roles"]["en"][m["dealer"]][0] == "dealer"
        rng = random.Random(2)
        checked = 0
        while not m["over"] and checked < 3:
            if 0 in m["to_act"] and m["legal"] and m["phase"] == "play":
                playable = set(m["decision"]["singles"]["play"])
                refused = m["reasons"]["cards"]
                # exactly the cards of the hand the decision does not offer, each with a reason
                assert set(refused) == set(m["hand"]) - playable
                for card, by_lang in refused.items():
                    assert set(by_lang) == {"en", "ja", "ko"} and all(by_lang.values())
                    assert en(by_lang["en"]) != "That cannot be chosen now.", (card, by_lang)
                checked += bool(refused)
            if 0 in m["to_act"] and m["legal"]:
                n = m["n"]
                ws.send_json({"type": "act", "action": rng.choice(m["legal"])["text"]})
                m = recv_until(ws, lambda x, n=n: my_turn(0)(x) and x["n"] > n)
            else:
                m = recv_until(ws, my_turn(0))
        assert checked


def test_the_bidding_box_shows_every_call_the_auction_so_far_and_why_a_bid_is_refused(client: TestClient) -> None:
    t = table(client, "umbridge", [{"kind": "human"}, {"kind": "bot", "level": "normal"}], {"deals": 1}, seed=5)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        while not m["over"] and not (0 in m["to_act"] and m["phase"] == "auction"):
            if 0 in m["to_act"] and m["legal"]:
                ws.send_json({"type": "act", "action": m["legal"][0]["text"]})
            m = recv_until(ws, lambda x, n=m["n"]: is_state(x) and x["n"] > n and (x["over"] or 0 in x["to_act"]))
        d = m["decision"]
        assert d["all_calls"] == ["pass", "double", "redouble"]
        assert set(d["calls"]) < set(d["all_calls"])  # redouble is never legal before a double
        refused = m["reasons"]["actions"]
        assert "redouble" in refused and en(refused["redouble"]["en"]) == \
            "Only your own bid, once doubled, can be redoubled."
        box = d["bids"]["bid"]
        cells = {f"{lv} {dn}" for lv in box["levels"] for dn in box["denoms"]}
        assert {f"bid {c}" for c in cells} == set(box["cells"].values()) | {a for a in refused if a.startswith("bid")}
        assert isinstance(m["auction"], list)
        for entry in m["auction"]:
            assert entry["seat"] in (0, 1) and entry["kind"] in ("bid", "pass", "double", "redouble")
            if entry["kind"] == "bid":
                assert entry["rich"][0]["t"] == "contract"


def test_a_round_end_line_writes_the_scoring_out(client: TestClient) -> None:
    t = table(client, "mighty", [{"kind": "human"}] + [{"kind": "bot", "level": "normal"}] * 4, {"deals": 1})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        lines: list[Msg] = list(m["log"])
        rng = random.Random(3)
        while not m["over"]:
            if 0 in m["to_act"] and m["legal"]:
                ws.send_json({"type": "act", "action": rng.choice(m["legal"])["text"]})
            m = recv_until(ws, lambda x, n=m["n"]: is_state(x) and x["n"] > n and (x["over"] or 0 in x["to_act"]))
            lines += m["log"]
        end = next(x for x in lines if x["kind"] == "round_end")
        rows = {label: en(value) for label, value in end["explain"]["en"]}
        assert "base score" in rows and "contract" in rows
        assert set(end["explain"]) == {"en", "ja", "ko"}


def test_a_hint_is_the_normal_bots_choice_from_the_seats_view_counted_in_the_record(client: TestClient) -> None:
    t = table(client, "trick-of-the-dead", [{"kind": "human"}, {"kind": "bot", "level": "random"},
                                            {"kind": "bot", "level": "random"}], {"target": 1})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        taken = 0
        hinted: list[tuple[int, str]] = []  # (the table's action count, the hinted action)
        while not m["over"]:
            if 0 in m["to_act"] and m["legal"]:
                ws.send_json({"type": "hint"})
                h = recv_until(ws, lambda x: x["type"] in ("hint", "error"))
                if h["type"] == "hint":
                    assert set(h["label"]) == {"en", "ja", "ko"}
                    hinted.append((h["n"], h["action"]))
                    taken += 1
                    ws.send_json({"type": "act", "action": h["action"]})
                else:  # the bots of a simultaneous decision moved it on before the hint was made
                    assert h["code"] == "not_your_turn", h
            m = recv_until(ws, lambda x, n=m["n"]: is_state(x) and x["n"] > n and (x["over"] or 0 in x["to_act"]))
        assert m["hints"] == [taken, 0, 0]
    record = Record.from_json(client.get(f"/api/tables/{t['id']}/record").json())
    assert record.hints == [taken, 0, 0] and taken > 0
    # each hint was one of seat 0's legal actions at the moment it was asked for (judged on the
    # record, whatever the bots of a simultaneous decision did while the socket was read)
    game, state = record.new_game()
    legal_at = {}
    for i, (seat, text) in enumerate(record.actions):
        legal_at[i] = {game.action_text(a) for a in state.legal_actions(0)} if 0 in state.to_act() else set()
        state.apply_text(seat, text)
    for n, action in hinted:
        assert action in legal_at[n], (n, action)


def test_a_table_with_hints_off_gives_none(client: TestClient) -> None:
    t = table(client, "kaedama", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], settings={"hints": 0})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        if 0 not in m["to_act"]:
            m = recv_until(ws, my_turn(0))
        ws.send_json({"type": "hint"})
        err = recv_until(ws, lambda x: x["type"] == "error")
        assert err["code"] == "no_hints"
        assert m["settings"]["hints"] == 0


def test_a_second_tab_is_told_the_seat_is_open_elsewhere_and_taking_it_over_tells_the_first(
        client: TestClient) -> None:
    t = table(client, "kaedama", [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as a, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as b:
        a.send_json({"type": "join", "seat": 0, "token": token(t, 0), "tab": "tab-a"})
        assert recv_until(a, lambda x: x["type"] == "joined")["others"] == 0
        # a reload of the same tab is not another tab
        b.send_json({"type": "join", "seat": 0, "token": token(t, 0), "tab": "tab-a"})
        assert recv_until(b, lambda x: x["type"] == "joined")["others"] == 0
        b.send_json({"type": "join", "seat": 0, "token": token(t, 0), "tab": "tab-b"})
        assert recv_until(b, lambda x: x["type"] == "joined")["others"] == 1
        b.send_json({"type": "take_over"})
        told = recv_until(a, lambda x: x["type"] == "taken_over")
        assert told["seat"] == 0
        watched = recv_until(a, lambda x: is_state(x) and x["seat"] is None)
        assert watched["hand"] == [] and watched["legal"] == []
        # the taken-over tab is a spectator now: it may not act for the seat
        a.send_json({"type": "act", "action": "pass"})
        assert recv_until(a, lambda x: x["type"] == "error")["code"] == "not_seated"


def test_the_host_hands_a_gone_players_seat_to_a_bot_at_once(client: TestClient) -> None:
    t = table(client, "trick-of-the-dead", [{"kind": "human", "host": True}, {"kind": "human"},
                                            {"kind": "bot", "level": "random"}], {"target": 1},
              settings={"idle_seconds": 600})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as guest:
        m = join(guest, 1, token(t, 1))
        guest.send_json({"type": "stand_in", "seat": 0})  # not the host, and seat 0 is not gone anyway
        assert recv_until(guest, lambda x: x["type"] == "error")["code"] in ("not_host", "not_gone")
        m = join(ws, 0, token(t, 0))
        assert m["seats"][0]["host"] and not m["seats"][1]["host"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        assert not m["seats"][1]["connected"] and not m["seats"][1]["away"]
        ws.send_json({"type": "stand_in", "seat": 1})
        m = recv_until(ws, lambda x: is_state(x) and x["seats"][1]["away"])
        # the stand-in plays seat 1's burial: the game goes on without waiting 600 s
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]}) if 0 in m["to_act"] else None
        recv_until(ws, lambda x: is_state(x) and x["phase"] != "bury")
        ws.send_json({"type": "stand_in", "seat": 2})  # a bot's seat is no gone player's
        assert recv_until(ws, lambda x: x["type"] == "error")["code"] == "not_gone"


def test_a_trump_declared_in_the_last_trick_says_in_the_prompt_that_it_changes_nothing() -> None:
    """Trick of the Dead: the first joker declares the trump from the next trick; played in the
    last trick, the declaration changes nothing, and the seat's prompt says so."""
    import json
    import time

    from torite.engine.registry import make_game
    from torite.server.tables import LiveTable, Seat

    game = make_game("trick-of-the-dead")
    for seed in range(200):  # the jokers kept back: one is played first in the last trick
        state = game.new_state(seed, max_rounds=1)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            obs = state.observation(seat)
            if obs["phase"] == "trump":
                break
            legal = state.legal_actions(seat)
            plain = [a for a in legal if not (a.kind == "play" and a.card >= 52)]
            state.apply(seat, rng.choice(plain or legal))
        if not state.is_over() and not state.observation(state.to_act()[0])["hand"]:
            break
    else:
        pytest.skip("no deal kept both jokers to the last trick")
    seat = state.to_act()[0]
    table = LiveTable(id="t", game=game, state=state, seed=seed,
                      seats=[Seat("human", None, "", None) for _ in range(3)], settings={}, created=time.time())
    m = json.loads(table.view_json(seat) + "}")
    said = "".join(p for p in m["prompt"]["en"] if isinstance(p, str))
    assert "this is the last trick: your choice changes nothing" in said
    assert all(lang in m["prompt"] for lang in ("ja", "ko"))
    earlier = game.new_state(0)
    lab = L.load(game, "en")
    assert "changes nothing" not in (lab.phase_prompt("trump", {**earlier.observation(0), "hand": ["2C"]}) or "")


def _langs_in(value: Any) -> set[str]:
    """Every language key of the "by language" maps in a state message."""
    found: set[str] = set()
    if isinstance(value, dict):
        keys = set(value)
        if keys and keys <= {"en", "ja", "ko"}:
            found |= keys
        for v in value.values():
            found |= _langs_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _langs_in(v)
    return found


def test_a_socket_that_names_its_language_gets_its_words_in_that_language_alone_and_a_switch_resends_them(
        client: TestClient) -> None:
    # the words of a state cost as much again per language: a browser asks for its own, and the
    # words it is sent (status, buttons, reasons, roles, goal, log) are in that language only
    t = table(client, "mighty", [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 4, seed=3)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "join", "seat": 0, "token": token(t, 0), "lang": "ko"})
        seen: list[Msg] = []
        m = recv_until(ws, my_turn(0), seen)
        lines = [line["i"] for x in seen if is_state(x) for line in x["log"]]
        shown = {k: m[k] for k in ("status", "legal", "reasons", "roles", "goal", "prompt")}
        assert _langs_in(shown) == {"ko"}
        assert lines and all(set(line["text"]) == {"ko"} for x in seen if is_state(x) for line in x["log"])
        # a word in an unknown language is refused and changes nothing: no state comes for it
        ws.send_json({"type": "lang", "lang": "fr"})
        err = recv_until(ws, lambda x: x["type"] == "error")
        assert err["code"] == "bad_lang" and "en, ja, ko" in err["message"]
        ws.send_json({"type": "ping"})
        assert recv_until(ws, lambda x: x["type"] in ("pong", "state"))["type"] == "pong"
        # a switch: the same state again, in the new language, with the whole log
        ws.send_json({"type": "lang", "lang": "ja"})
        again = recv_until(ws, is_state)
        assert again["n"] == m["n"] and again["log_from"] == 0
        assert _langs_in({k: again[k] for k in shown}) == {"ja"}
        assert [line["i"] for line in again["log"]] == lines
        assert all(set(line["text"]) == {"ja"} for line in again["log"])
        ws.send_json({"type": "hint"})  # a hint comes in the socket's language too
        hint = recv_until(ws, lambda x: x["type"] == "hint")
        assert set(hint["label"]) == {"ja"} and (hint["reason"] is None or set(hint["reason"]) == {"ja"})
    # a socket that names none gets every language (what other clients read)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, None)
        assert _langs_in({k: m[k] for k in ("status", "goal", "log")}) == {"en", "ja", "ko"}
        ws.send_json({"type": "join", "seat": None, "lang": 7})
        assert recv_until(ws, lambda x: x["type"] == "error")["code"] == "bad_lang"
