"""The web server's data paths, bounded (issue 40): a game's length at a table, a replay's
memory, the records a page may send, the log resent on a language switch or a ``sync``, hints,
suggestions, an ack's position and a spectator's state once it leaves.  Each bound is a clear
refusal, and nothing else changes."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

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
