"""Malformed input from a stranger: every body and frame gets a clear 400 or error message, the
socket stays open, and nothing on the server or the table changes."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.server import safejson
from torite.server.app import create_app

GAME = "trick-of-the-dead"
DEEP = "[" * 30_000 + "]" * 30_000
DEEP_OBJECT = '{"game": ' + '{"a": ' * 3_000 + "1" + "}" * 3_000 + "}"
HUGE_INT = '{"game": "trick-of-the-dead", "seed": ' + "9" * 5_000 + "}"
BAD_BODIES = [
    pytest.param(DEEP, id="deeply-nested-list"),
    pytest.param(DEEP_OBJECT, id="deeply-nested-object"),
    pytest.param(HUGE_INT, id="integer-of-5000-digits"),
    pytest.param('{"game": NaN}', id="nan"),
    pytest.param(b"\xff\xfe{", id="not-utf8"),
    pytest.param("{", id="truncated"),
]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


def _table(client: TestClient) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    r = client.post("/api/tables", json={"game": GAME, "options": {"target": 1}, "seats": seats, "seed": 7})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.parametrize("body", BAD_BODIES)
@pytest.mark.parametrize("path", ["/api/tables", "/api/preview"])
def test_a_malformed_body_is_a_clear_400_and_creates_nothing(client: TestClient, path: str, body: str | bytes) -> None:
    tables = client.app.state.manager.tables  # type: ignore[attr-defined]
    before = dict(tables)
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_json" and r.json()["message"]
    assert tables == before
    assert client.get("/api/games").status_code == 200  # the server carries on


def test_a_body_over_the_limit_is_refused(client: TestClient) -> None:
    r = client.post("/api/tables", content=b" " * (64 * 1024 + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "Too Large" in r.text


@pytest.mark.parametrize("frame", [DEEP[:4000], '{"type": "act", "action": ' + "9" * 4_000 + "}",
                                   '{"type": "ping", "x": Infinity}'])
def test_a_malformed_frame_is_an_error_message_and_the_socket_and_table_stay(client: TestClient, frame: str) -> None:
    table = _table(client)
    tid = table["id"]
    tok = table["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "join", "seat": 0, "token": tok})
        while ws.receive_json()["type"] != "state":
            pass
        before = client.get(f"/api/tables/{tid}").json()
        ws.send_text(frame)
        reply = ws.receive_json()
        while reply["type"] != "error":
            reply = ws.receive_json()
        assert reply["code"] == "bad_json" and reply["message"]
        ws.send_json({"type": "ping"})  # still open, still answering
        while ws.receive_json()["type"] != "pong":
            pass
        assert client.get(f"/api/tables/{tid}").json() == before


def test_safejson_reads_ordinary_values_and_names_each_refusal() -> None:
    assert safejson.loads('{"seed": 12345678901234567890, "x": [1.5, -2, "[{"]}') == {
        "seed": 12345678901234567890, "x": [1.5, -2, "[{"]}
    for raw, reason in [(DEEP, "nested"), (HUGE_INT, "digits"), ('[NaN]', "NaN"), ("[1,", "not valid JSON")]:
        with pytest.raises(safejson.BadJSON, match=reason):
            safejson.loads(raw)


@pytest.mark.parametrize("open_, close", [("[", "]"), ('{"k": ', "}")])
def test_safejson_takes_exactly_its_depth_and_not_one_more(open_: str, close: str) -> None:
    at_most = open_ * safejson.MAX_DEPTH + "1" + close * safejson.MAX_DEPTH
    assert safejson.loads(at_most) is not None
    with pytest.raises(safejson.BadJSON, match="nested"):
        safejson.loads(open_ + at_most + close)
    # siblings are not depth: many shallow lists side by side are read
    assert len(safejson.loads("[" + ",".join(["[[1]]"] * 10_000) + "]")) == 10_000


def test_safejson_does_not_count_brackets_inside_strings_escapes_and_all() -> None:
    inside = '"' + "[" * 100 + '\\"' + "{" * 100 + '\\\\"'
    assert safejson.loads("[" + inside + "]") == ["[" * 100 + '"' + "{" * 100 + "\\"]
    # an escaped quote does not end the string: the brackets after it are still inside it
    assert safejson.loads('["\\"[[[[[[[[[[[[[[[[[[[[[[["]') == ['"' + "[" * 23]


@pytest.mark.parametrize("raw", ["[" * 20_000 + "}" + "]" * 19_999, "[" * 5_000 + '"' + "]" * 5_000,
                                 "{" * 20_000])
def test_safejson_refuses_malformed_deep_text_with_a_reason(raw: str) -> None:
    with pytest.raises(safejson.BadJSON):
        safejson.loads(raw)
