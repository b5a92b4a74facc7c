"""The web server: lobby API, tables, seat tokens, refused messages, leaks, restarts, records."""

from __future__ import annotations

import json
import random
import re
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette suggests httpx2; httpx is what we pin
    from starlette.testclient import TestClient

from torite.cards import card_str, iter_bits
from torite.cli.main import main as cli_main
from torite.record import Record, replay
from torite.server.app import LANGS, WEB_DIR, create_app
from torite.server.markdown import to_html

GAME = "trick-of-the-dead"
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])|JK[12]")
Msg = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def new_table(client: TestClient, seats: list[dict[str, Any]] | None = None, *, target: int = 1,
              settings: dict[str, Any] | None = None) -> dict[str, Any]:
    seats = seats or [{"kind": "human"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "random"}]
    r = client.post("/api/tables", json={"game": GAME, "options": {"target": target}, "seats": seats,
                                         "settings": settings or {}})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def token(table: dict[str, Any], seat: int) -> str:
    t: str = table["seats"][seat]["token"]
    return t


def recv_until(ws: Any, pred: Callable[[Msg], bool], seen: list[Msg] | None = None, limit: int = 5000) -> Msg:
    """Read messages until one satisfies ``pred``; every message read is appended to ``seen``."""
    for _ in range(limit):
        m: Msg = ws.receive_json()
        if seen is not None:
            seen.append(m)
        if pred(m):
            return m
    raise AssertionError("the expected message never came")


def all_langs(line: Msg) -> str:
    """A log line in every language it is sent in, as JSON text with its tokens' cards (a leak in
    any of them is a leak)."""
    texts = line["text"]
    assert isinstance(texts, dict) and {"en", "ja"} <= set(texts)
    return "\n".join(json.dumps(v, ensure_ascii=False) for v in texts.values())


def words(rich: list[Any]) -> str:
    """Rich text's plain parts, each token as <kind>: what a test can compare."""
    return "".join(p if isinstance(p, str) else f"<{p['t']}>" for p in rich)


def is_state(m: Msg) -> bool:
    return m["type"] == "state"


def my_turn(seat: int) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == "state" and (m["over"] or (seat in m["to_act"] and bool(m["legal"])))


def join(ws: Any, seat: int | None, tok: str | None = None) -> Msg:
    ws.send_json({"type": "join", "seat": seat, "token": tok})
    return recv_until(ws, is_state)


def play_out(ws: Any, seat: int, rng: random.Random, seen: list[Msg] | None = None, stop_after: int | None = None,
             first: Msg | None = None) -> Msg:
    """Play random legal actions for ``seat`` until the game ends (or ``stop_after`` of them)."""
    m = first if first is not None and my_turn(seat)(first) else recv_until(ws, my_turn(seat), seen)
    played = 0
    while not m["over"]:
        if stop_after is not None and played >= stop_after:
            return m
        n = m["n"]
        ws.send_json({"type": "act", "action": rng.choice(m["legal"])["text"]})
        played += 1
        m = recv_until(ws, lambda x, n=n: my_turn(seat)(x) and x["n"] > n, seen)
    return m


# ------------------------------------------------------------------ lobby API
def test_games_api_lists_every_game_with_its_options_and_rules_pages(client: TestClient) -> None:
    data = client.get("/api/games").json()
    games = {g["id"]: g for g in data["games"]}
    assert GAME in games
    tod = games[GAME]
    assert tod["players"] == 3
    assert {o["name"] for o in tod["options"]} >= {"target", "players"}
    assert all(o["help"] for o in tod["options"])
    assert isinstance(tod["rules"], list)
    # the game's words in every language it ships, for the lobby and the table
    assert set(tod["labels"]) == {"en", "ja", "ko"}
    assert tod["labels"]["ja"]["title"] == "トリック・オブ・ザ・デッド"
    assert tod["labels"]["ja"]["options"]["survival"]["label"] == "サバイバルモード"
    assert tod["labels"]["en"]["phases"]["bury"]["name"] == "burial"
    assert games["kaedama"]["labels"]["ja"]["actions"]["replace"]["label"] == "替え玉"
    assert {"random", "easy", "normal"} <= set(data["bots"])
    assert {s["name"] for s in data["settings"]} == {"idle_seconds", "bot_delay", "hints"}


def test_every_game_serves_its_rules_page_in_every_language_of_the_tables(client: TestClient) -> None:
    """A Korean table asks for ``?lang=ko``: it gets the Korean page, never the English one in
    its place (the server falls back only for a language a game has no page in)."""
    games = client.get("/api/games").json()["games"]
    assert games
    for g in games:
        assert g["rules"] == list(LANGS), g["id"]
        for lang in LANGS:
            data = client.get(f"/api/games/{g['id']}/rules?lang={lang}").json()
            assert data["lang"] == lang and data["html"].startswith("<h1>"), (g["id"], lang)
    ko = client.get("/api/games/trick-of-the-dead/rules?lang=ko").json()
    assert "좀비 마스터" in ko["html"] and "Zombie Masters" not in ko["html"]


def test_preview_counts_seats_and_refuses_bad_options(client: TestClient) -> None:
    r = client.post("/api/preview", json={"game": GAME, "options": {"players": 2}})
    assert r.status_code == 200 and r.json()["players"] == 2
    r = client.post("/api/preview", json={"game": GAME, "options": {"target": 0}})
    assert r.status_code == 400 and "minimum" in r.json()["message"]
    r = client.post("/api/preview", json={"game": "no-such-game"})
    assert r.status_code == 400 and "unknown game" in r.json()["message"]


def test_rules_page_is_rendered_or_reported_missing(client: TestClient) -> None:
    r = client.get(f"/api/games/{GAME}/rules?lang=ja")
    if r.status_code == 200:
        assert r.json()["html"].startswith("<")
    else:
        assert r.status_code == 404 and r.json()["error"] == "no_rules"
    assert client.get("/api/games/nope/rules").status_code == 404


def test_pages_and_static_files_are_served_with_a_strict_content_policy(client: TestClient) -> None:
    table = new_table(client)
    for path in ("/", f"/t/{table['id']}", "/static/app.js", "/static/table.js", "/static/i18n.js",
                 "/static/style.css"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"]
    unknown = client.get("/t/anything")  # a clear page with the way back, under the same policy
    assert unknown.status_code == 404 and "default-src 'self'" in unknown.headers["content-security-policy"]


def test_front_end_loads_nothing_from_the_internet() -> None:
    for f in WEB_DIR.iterdir():
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), f.name
        assert "@import" not in text and "fonts.googleapis" not in text, f.name


# ------------------------------------------------------------------ creating tables
def test_creating_a_table_returns_a_secret_link_per_human_seat_and_a_spectator_link(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human", "name": "Aiko"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    assert t["spectator"].endswith(f"/t/{t['id']}#watch")
    humans = [s for s in t["seats"] if s["kind"] == "human"]
    assert len(humans) == 2 and all(s["token"] in s["url"] for s in humans)
    assert humans[0]["token"] != humans[1]["token"]
    assert "token" not in t["seats"][2]
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][0]["name"] == "Aiko"
    assert "token" not in json.dumps(info) and humans[0]["token"] not in json.dumps(info)
    assert "seed" not in info


@pytest.mark.parametrize(("body", "code"), [
    ({"game": GAME, "seats": [{"kind": "human"}]}, "bad_seats"),
    ({"game": GAME, "seats": [{"kind": "human"}, {"kind": "bot", "level": "genius"}, {"kind": "bot"}]}, "bad_seats"),
    ({"game": GAME, "seats": [{"kind": "alien"}] * 3}, "bad_seats"),
    ({"game": GAME, "options": {"target": -5}, "seats": [{"kind": "bot"}] * 3}, "bad_options"),
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": {"idle_seconds": -1}}, "bad_settings"),
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": {"turbo": 1}}, "bad_settings"),
    # settings that are not an object: a clear 400, not a 500 (and a list of pairs is no object)
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": 5}, "bad_settings"),
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": [["idle_seconds", 1]]}, "bad_settings"),
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": "idle_seconds"}, "bad_settings"),
    ({"game": GAME, "seats": [{"kind": "bot"}] * 3, "settings": True}, "bad_settings"),
    ({"game": 7, "seats": []}, "bad_game"),
])
def test_bad_table_requests_are_refused_with_a_reason(client: TestClient, body: dict[str, Any], code: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == code and r.json()["message"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_json"


# ------------------------------------------------------------------ actions and tokens
def _first_legal(client: TestClient, table: dict[str, Any], seat: int) -> str:
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        m = join(ws, seat, token(table, seat))
        text: str = m["legal"][0]["text"]
        return text


def test_an_action_needs_the_seats_token(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    action = _first_legal(client, t, 0)
    url = f"/api/tables/{t['id']}/actions"
    _wait(lambda: client.get(f"/api/tables/{t['id']}").json()["n"] == 1)  # the bot has buried
    for body in ({"seat": 0, "action": action}, {"seat": 0, "token": "guess", "action": action},
                 {"seat": 0, "token": token(t, 1), "action": action},
                 {"seat": 2, "token": "", "action": action}, {"seat": 9, "token": token(t, 0), "action": action}):
        r = client.post(url, json=body)
        assert r.status_code == 403 and r.json()["error"] == "bad_token"
    assert client.get(f"/api/tables/{t['id']}").json()["n"] == 1
    r = client.post(url, json={"seat": 0, "token": token(t, 0), "action": action})
    assert r.status_code == 200 and r.json()["n"] == 2
    r = client.post(url, json={"seat": 0, "token": token(t, 0), "action": action})
    assert r.status_code == 409 and r.json()["error"] == "not_your_turn"


def test_an_illegal_action_is_refused_and_changes_nothing(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    url = f"/api/tables/{t['id']}/actions"
    for text in ("play 2C", "bury", "bury ZZ QQ", "", "x" * 500, "trump S"):
        r = client.post(url, json={"seat": 0, "token": token(t, 0), "action": text})
        assert r.status_code in (400, 409), text
        assert r.json()["message"]
    assert client.get(f"/api/tables/{t['id']}").json()["n"] == 0


def test_websocket_refuses_bad_messages_with_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
                  settings={"bot_delay": 10})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        def error_for(raw: str) -> Msg:
            ws.send_text(raw)
            return recv_until(ws, lambda m: m["type"] == "error")

        assert error_for("{not json")["code"] == "bad_json"
        assert error_for("[1, 2]")["code"] == "bad_message"
        assert error_for(json.dumps({"type": "dance"}))["code"] == "unknown_type"
        assert error_for(json.dumps({"type": "act", "action": "bury 2C 3C"}))["code"] == "not_seated"
        assert error_for(json.dumps({"type": "join", "seat": 0, "token": token(t, 1)}))["code"] == "bad_token"
        assert error_for(json.dumps({"type": "join", "seat": 2, "token": "x"}))["code"] == "bad_token"
        assert error_for(json.dumps({"type": "join", "seat": 2}))["code"] == "bad_token"
        assert error_for(json.dumps({"type": "join", "seat": "0", "token": token(t, 0)}))["code"] == "bad_token"
        assert error_for("x" * 10000)["code"] == "too_long"
        m = join(ws, 0, token(t, 0))
        assert m["seat"] == 0 and m["n"] == 0
        not_mine = next(c for c in ("2C", "3C", "4C", "5C", "6C") if c not in m["hand"])
        assert error_for(json.dumps({"type": "act", "action": f"bury {not_mine} {m['hand'][0]}"}))["code"] == "illegal"
        assert error_for(json.dumps({"type": "act", "action": "play " + m["hand"][0]}))["code"] == "illegal"
        assert error_for(json.dumps({"type": "act", "action": 42}))["code"] == "bad_action"
        wrong = {"type": "act", "action": m["legal"][0]["text"], "token": "no"}
        assert error_for(json.dumps(wrong))["code"] == "bad_token"
        ws.send_json({"type": "ping"})
        assert recv_until(ws, lambda x: x["type"] != "state")["type"] == "pong"
    assert client.get(f"/api/tables/{t['id']}").json()["n"] == 0


def test_not_your_turn_over_the_socket(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 1, token(t, 1))
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]})
        recv_until(ws, lambda x: x["type"] == "ack")
        ws.send_json({"type": "act", "action": m["legal"][1]["text"]})
        err = recv_until(ws, lambda x: x["type"] == "error")
        assert err["code"] == "not_your_turn" and "seat 1" in err["message"]


def test_unknown_table(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_hand_is_sent_sorted_and_legal_actions_carry_their_cards(client: TestClient) -> None:
    from torite.cards import parse_card
    from torite.engine.registry import make_game

    t = new_table(client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
    game = make_game(GAME)
    assert m["hand"] == sorted(m["hand"], key=lambda c: game.sort_key(parse_card(c)))
    table = client.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
    assert sorted(m["hand"]) == sorted(table.state.observation(0)["hand"])
    bury = m["legal"][0]
    assert bury["kind"] == "bury" and len(bury["cards"]) == 2 and set(bury["cards"]) <= set(m["hand"])
    c1, c2 = bury["cards"]
    pair = {"t": "cards", "cards": [c1, c2]}  # a token: each face draws it (♣3 ♣4), never "3C 4C"
    assert bury["label"] == {"en": ["Bury ", pair], "ja": [pair, "を埋葬"], "ko": [pair, " 매장"]}


def test_status_log_and_last_trick_come_in_every_language_with_the_seat_names(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random", "name": "Robo"},
                           {"kind": "bot", "level": "random"}], target=200)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        seen: list[Msg] = []
        first = join(ws, 0, token(t, 0))
        m = play_out(ws, 0, random.Random(4), seen, stop_after=10, first=first)
    status = {k: v for k, v, *_ in m["status"]["ja"]}
    assert {"切り札", "墓地", "このラウンドの得点"} <= set(status)
    grave = next(p for p in m["piles"] if p["name"] == "graveyard")
    assert words({k: v for k, v, *_ in m["status"]["en"]}["graveyard"]) == f"{grave['count']} cards"
    lines = [{k: words(v) for k, v in line["text"].items()} for x in seen if is_state(x) for line in x["log"]]
    assert any(x["en"].startswith("Robo plays the <card>") and x["ja"].startswith("Robo") for x in lines)
    assert any(x["en"].startswith("seat 2 plays the <card>") and x["ja"].startswith("席2が<card>") for x in lines)
    assert any(x["en"].startswith("Ann buries <cards>") for x in lines)
    assert m["last_trick"] and {"勝者", "得点"} <= {k for k, _ in m["last_trick"]["facts"]["ja"]}


# ------------------------------------------------------------------ leaks
def _tokens(x: Any) -> set[str]:
    return set(CARD.findall(json.dumps(x, ensure_ascii=False)))


class Truth:
    """Ground truth from a replay of the finished table's record: who holds what after k actions."""

    def __init__(self, record: Record, seat: int | None) -> None:
        _game, state = record.new_game()
        self.seat = seat
        self.forbidden = [self._forbidden(state)]
        self.event_step = [0] * len(state.events_for(seat))  # event index -> first k it exists
        self.after_round = [False] * len(self.event_step)
        self.action_cards: list[set[str]] = [set()]
        for k, (s, text) in enumerate(record.actions, start=1):
            state.apply_text(s, text)
            self.forbidden.append(self._forbidden(state))
            self.action_cards.append(set(CARD.findall(text)))
            events = state.events_for(seat)
            new_round = False
            for e in events[len(self.event_step):]:
                new_round = new_round or e.kind == "round"
                self.event_step.append(k)
                self.after_round.append(new_round)

    def _forbidden(self, state: Any) -> set[str]:
        """Cards in another seat's hand that neither the rules show publicly nor this seat holds."""
        public = _tokens(state.observation(None))
        mine = set(state.observation(self.seat)["hand"]) if self.seat is not None else set()
        others: set[str] = set()
        for s in range(state.game.num_players):
            if s != self.seat:
                others |= set(state.observation(s)["hand"])
        return others - public - mine

    def check(self, m: Msg) -> None:
        view = {k: v for k, v in m.items() if k != "log"}
        leaked = _tokens(view) & self.forbidden[m["n"]]
        assert not leaked, f"after {m['n']} actions seat {self.seat} was shown {leaked}"
        for line in m["log"]:
            k = self.event_step[line["i"]]
            if self.after_round[line["i"]] or k == 0:
                hidden = self.forbidden[k]
            else:  # emitted by action k before any new deal: judge it against the hands before
                hidden = self.forbidden[k - 1] - self.action_cards[k]
            leaked = set(CARD.findall(all_langs(line))) & hidden
            assert not leaked, f"log line {line['text']!r} showed seat {self.seat} {leaked}"


def test_no_seat_and_no_spectator_is_ever_shown_a_card_hidden_in_another_hand(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "easy"}],
                  target=200)
    seen: list[Msg] = []
    watched: list[Msg] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}") as spectator, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        watched.append(join(spectator, None))
        first = join(ws, 0, token(t, 0))
        seen.append(first)
        end = play_out(ws, 0, random.Random(5), seen, first=first)
        assert end["over"]
        recv_until(spectator, lambda m: m["type"] == "state" and m["over"], watched)
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 200
    record = Record.from_json(r.json())
    assert replay(record).is_over()
    states = [m for m in seen if is_state(m)]
    rounds = len(end["round_scores"])
    truth = Truth(record, 0)
    for m in states:
        truth.check(m)
    spectator_truth = Truth(record, None)
    for m in (x for x in watched if is_state(x)):
        assert m["hand"] == [] and m["legal"] == [] and m["seat"] is None
        spectator_truth.check(m)
    # the test saw the whole game, more than one round of it, and every log line once
    assert rounds >= 2
    lines = [line["i"] for m in states for line in m["log"]]
    assert lines == sorted(set(lines))


def test_every_connection_of_a_seat_gets_the_state_and_spectators_get_public_info(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as a, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as b, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as c:
        ma, mb, mc = join(a, 0, token(t, 0)), join(b, 0, token(t, 0)), join(c, 1, token(t, 1))
        assert ma["hand"] == mb["hand"] and not set(ma["hand"]) & set(mc["hand"])
        a.send_json({"type": "act", "action": ma["legal"][0]["text"]})
        mb2 = recv_until(b, lambda m: is_state(m) and m["phase"] == "bury" and 0 not in m["to_act"])
        assert len(mb2["hand"]) == len(ma["hand"]) - 2
        assert mb2["seats"][0]["connected"]


# ------------------------------------------------------------------ records and restarts
def test_the_record_is_refused_until_the_game_is_over_then_replays(client: TestClient, tmp_path: Path) -> None:
    t = new_table(client)
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 409 and r.json()["error"] == "not_finished"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        end = play_out(ws, 0, random.Random(1), first=join(ws, 0, token(t, 0)))
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_text(r.text, encoding="utf-8")
    assert cli_main(["replay", str(path)]) == 0
    rec = Record.load(path)
    assert rec.result == end["result"]
    assert rec.seats[1:] == ["bot:normal", "bot:random"]


def _wait(pred: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# the restart test runs on SQLite and PostgreSQL: tests/web/test_store.py


# ------------------------------------------------------------------ idle seats
def test_an_idle_seat_is_played_by_a_bot_until_its_player_returns(client: TestClient) -> None:
    t = new_table(client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], target=100,
                  settings={"idle_seconds": 0.2})
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        m = join(ws, 0, token(t, 0))
        ws.send_json({"type": "act", "action": m["legal"][0]["text"]})  # seat 0 buries, seat 1 stays idle
        away = recv_until(ws, lambda x: is_state(x) and x["seats"][1]["away"])
        assert not away["seats"][0]["away"] or away["n"] >= 1
        # the stand-in plays seat 1's decisions, so seat 0 gets turns again
        recv_until(ws, lambda x: is_state(x) and x["n"] >= 4)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        back = join(ws1, 1, token(t, 1))
        assert not back["seats"][1]["away"]


# ------------------------------------------------------------------ markdown
def test_markdown_renders_the_usual_blocks_and_escapes_html() -> None:
    md = ("# Title\n\nSome *em* and **strong** and `code <b>`.\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n"
          "| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n---\n\n<script>alert(1)</script> [x](javascript:alert(1)) "
          "[ok](https://example.org)\n")
    h = to_html(md)
    assert "<h1>Title</h1>" in h and "<em>em</em>" in h and "<strong>strong</strong>" in h
    assert "<code>code &lt;b&gt;</code>" in h
    assert "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>" in h
    assert "<ol><li>first</li><li>second</li></ol>" in h
    assert "<th>a</th>" in h and "<td>2</td>" in h and "<blockquote>" in h and "<hr>" in h
    assert "<script>" not in h and "&lt;script&gt;" in h
    assert "javascript:" not in h and '<a href="https://example.org">ok</a>' in h


def _kaedama_hidden_from(state: Any, seat: int) -> tuple[set[str], set[str]]:
    """Ground truth from the rules' own state, not from any observation: the cards ``seat``
    may not see (other hands, the stock, face-down cards; the turned card is public) and the
    face-down cards alone."""
    cs = card_str
    face_down = {cs(c) for c, d in zip(state.trick, state.down) if d}
    face_down |= {cs(c) for c, d in zip(state.out, state.out_down) if d}
    hidden = {cs(c) for s, h in enumerate(state.hands) if s != seat for c in iter_bits(h)}
    hidden |= {cs(c) for c in state.stock} | face_down
    return hidden - {cs(state.turned)}, face_down


def test_every_landed_game_plays_to_the_end_at_a_table_and_blind_cards_stay_hidden(client: TestClient) -> None:
    """Kaedama with blind draws (and two draws a trick) against bots, over the socket: no
    message shows the seat a card in another hand, in the stock or face down."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "random"}]
    r = client.post("/api/tables", json={"game": "kaedama", "options": {"blind": True, "double": True, "rounds": 2},
                                         "seats": seats})
    assert r.status_code == 201, r.text
    t = r.json()
    seen: list[Msg] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        first = join(ws, 0, token(t, 0))
        seen.append(first)
        end = play_out(ws, 0, random.Random(2), seen, first=first)
    assert end["over"] and len(end["round_scores"]) == 2
    record = Record.from_json(client.get(f"/api/tables/{t['id']}/record").json())
    _, state = record.new_game()
    hidden, _ = _kaedama_hidden_from(state, 0)
    hidden_after = [hidden]
    # a log line made by action k may name what that action made public: the card it played,
    # cards it turned up (the face-down ones swapped out of a blind trick too), every card of a
    # trick it ended (all face up by then), and, when it starts a round, the new hand and the
    # newly turned card
    # per event seat 0 sees: the cards its log line may not name.  An action that ends a round
    # also deals the next: its events up to the new round's "round" event are judged against
    # the round they belong to, not against the new deal's hidden hands.
    hidden_for_event: list[set[str]] = [hidden] * len(state.events_for(0))
    for s, text in record.actions:
        n_events = len(state.events)
        state.apply_text(s, text)
        new_hidden, _ = _kaedama_hidden_from(state, 0)
        allowed = set(CARD.findall(text)) | (hidden - new_hidden) | {card_str(state.turned)}
        allowed |= {card_str(c) for c in iter_bits(state.hands[0])}
        new_events = state.events[n_events:]
        for e in new_events:
            if e.kind == "trick":
                allowed |= set(e.data["cards"])
            if e.kind == "reveal":  # blind: every face-down card is turned up, those swapped out too
                allowed |= set(e.data["revealed"]) | set(e.data["out"])
        new_round = any(e.kind == "round" for e in new_events)
        judged = hidden - allowed if new_round else (hidden - allowed) | (new_hidden - allowed)
        for e in new_events:
            if e.kind == "round":
                judged = (hidden - allowed) | (new_hidden - allowed)
            if e.visible_to(0):
                hidden_for_event.append(judged)
        hidden = new_hidden
        hidden_after.append(hidden)
    face_down_seen = False
    for m in (x for x in seen if is_state(x)):
        view = {k: v for k, v in m.items() if k != "log"}
        leaked = _tokens(view) & hidden_after[m["n"]]
        assert not leaked, f"after {m['n']} actions seat 0 was shown {leaked}"
        face_down_seen = face_down_seen or any("face_down" in e["tags"] for e in m["trick"]["cards"])
        for line in m["log"]:
            leaked = set(CARD.findall(all_langs(line))) & hidden_for_event[line["i"]]
            assert not leaked, f"log line {line['text']!r} showed seat 0 {leaked}"
    assert face_down_seen  # the game did draw blind cards while the seat was watching


def test_tables_past_the_servers_limit_are_refused_until_one_finishes() -> None:
    bots = [{"kind": "bot", "level": "random"}] * 3
    with TestClient(create_app("sqlite://", max_tables=1)) as c:
        r = c.post("/api/tables", json={"game": GAME, "options": {"target": 1}, "seats": bots,
                                        "settings": {"bot_delay": 0}})
        assert r.status_code == 201
        first = r.json()["id"]
        r = c.post("/api/tables", json={"game": GAME, "options": {}, "seats": [{"kind": "human"}] * 3})
        if not c.get(f"/api/tables/{first}").json()["over"]:
            assert r.status_code == 503 and r.json()["error"] == "too_many_tables"
        _wait(lambda: bool(c.get(f"/api/tables/{first}").json()["over"]))
        r = c.post("/api/tables", json={"game": GAME, "options": {}, "seats": [{"kind": "human"}] * 3})
        assert r.status_code == 201
        r = c.post("/api/tables", json={"game": GAME, "options": {}, "seats": [{"kind": "human"}] * 3})
        assert r.status_code == 503 and r.json()["error"] == "too_many_tables"
