"""Issue 35.6: a player names their own seat at the table.  The name is cleaned and bounded,
stored with the table (a restart keeps it, the record carries it), shown to everyone in the
seats of the next state, paced per seat, and refused with a reason when it cannot be used:
from a spectator, a name too long or posing as a bot, after the game."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from torite.server.app import create_app
from torite.server.live import TableError
from torite.server.tables import MAX_CHOSEN_NAME, chosen_name

from .test_server import join, new_table, recv_until, token

PEOPLE = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


@pytest.mark.parametrize(("raw", "kept"), [
    ("  Ann  ", "Ann"),
    ("Ann\u202e\u200dBen", "AnnBen"),      # a bidi override and a zero-width joiner taken out
    ("A\tn\nn   Lee", "A n n Lee"),        # control characters out, spaces run together
    ("みどり", "みどり"),
    ("<img src=x onerror=alert(1)>"[:MAX_CHOSEN_NAME], "<img src=x onerror=alert"),  # kept as text
    ("", ""),
])
def test_a_chosen_name_is_cleaned(raw: str, kept: str) -> None:
    assert chosen_name(raw) == kept


@pytest.mark.parametrize("raw", ["x" * (MAX_CHOSEN_NAME + 1), "bot:hard", "BOT: me", 7, None, ["Ann"]])
def test_a_name_that_cannot_be_used_is_refused(raw: Any) -> None:
    with pytest.raises(TableError) as e:
        chosen_name(raw)
    assert e.value.code == "bad_name"


def test_a_seated_player_names_their_seat_and_everyone_sees_it_stored_and_recorded(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    with TestClient(create_app(db)) as client:
        t = new_table(client, PEOPLE)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ann, \
                client.websocket_connect(f"/ws/tables/{t['id']}") as watcher:
            join(ann, 0, token(t, 0))
            join(watcher, None)
            ann.send_json({"type": "name", "name": " Ann\u202e "})
            assert recv_until(ann, lambda m: m["type"] in ("named", "error")) == {"type": "named", "seat": 0,
                                                                                 "name": "Ann"}
            seen = recv_until(watcher, lambda m: m["type"] == "state" and m["seats"][0]["name"] == "Ann")
            assert seen["seats"][1]["name"] == ""  # the other seat keeps its own
            # a spectator names nobody
            watcher.send_json({"type": "name", "name": "Eve"})
            assert recv_until(watcher, lambda m: m["type"] == "error")["code"] == "not_seated"
            ann.send_json({"type": "name", "name": "bot:hard"})
            assert recv_until(ann, lambda m: m["type"] == "error")["code"] == "bad_name"
    with TestClient(create_app(db)) as client:  # a restart: the store kept it
        assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == "Ann"
        kept = client.app.state.manager.tables[t["id"]]  # type: ignore[attr-defined]
        assert kept.record().seats[:2] == ["Ann", "human"]  # the record names the seat so


def test_renames_are_paced_per_seat_and_change_nothing_when_refused() -> None:
    with TestClient(create_app("sqlite://")) as client:
        t = new_table(client, PEOPLE)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ann:
            join(ann, 0, token(t, 0))
            answers = []
            for i in range(6):
                ann.send_json({"type": "name", "name": f"Ann {i}"})
                answers.append(recv_until(ann, lambda m: m["type"] in ("named", "error")))
            named = [a for a in answers if a["type"] == "named"]
            assert len(named) == 3 and all(a.get("code") == "slow_down" for a in answers[3:])
            assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == "Ann 2"
            ann.send_json({"type": "name", "name": "Ann 2"})  # the name it has: no rename spent
            assert recv_until(ann, lambda m: m["type"] in ("named", "error"))["type"] == "named"
