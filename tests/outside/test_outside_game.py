"""Games from outside the package: ``--game-module`` (every subcommand) and the ``torite.games``
entry point load a game written against the kit, a subclass of a shipped (compiled) game
included, and it plays a whole game at every face: the simulator (in worker processes too), the
line mode, the Textual table through its pilot, and the web table's server API (its bots
thinking in worker processes, which find the game as the server does)."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import os
import random
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from torite.cli.main import main
from torite.engine import registry
from torite.engine.base import OptionError
from torite.engine.registry import GAME_MODULES_ENV, game_class, game_ids, load_game_module, make_game
from torite.record import Record, replay

from .house import CLASS, ID, MODULE, write_house

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Clubs House written in a folder outside the package and off ``sys.path``; whatever
    loading it registers, puts on the path or in the environment is undone afterwards."""
    module = write_house(tmp_path / "house")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv(GAME_MODULES_ENV, "")
    monkeypatch.setenv("PYTHONPATH", os.environ.get("PYTHONPATH", ""))
    yield module
    registry.unregister_game(ID)
    sys.modules.pop(MODULE, None)


def test_a_game_module_is_loaded_by_its_file_or_its_module_and_registered_under_its_id(
        house: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ID not in game_ids()
    assert load_game_module(f"{house}:{CLASS}") == ID
    assert ID in game_ids() and game_class(ID).__name__ == CLASS
    assert os.environ[GAME_MODULES_ENV] == f"{ID}={MODULE}:{CLASS}"  # for the processes a run starts
    assert str(house.parent) in os.environ["PYTHONPATH"].split(os.pathsep)
    registry.unregister_game(ID)
    sys.modules.pop(MODULE, None)
    monkeypatch.chdir(house.parent)  # module:Class from the current directory, as python -m finds it
    assert load_game_module(f"{MODULE}:{CLASS}") == ID and load_game_module(f"{MODULE}:{CLASS}") == ID


def test_a_subclass_of_a_shipped_game_keeps_its_rules_but_the_ones_it_changes(house: Path) -> None:
    """On the compiled build the shipped classes are compiled: they allow interpreted subclasses
    (before, ``TypeError: ...TrickOfTheDead object expected; got ClubsHouse``)."""
    load_game_module(f"{house}:{CLASS}")
    game = make_game(ID, {"target": 1000})
    assert game.points[:13] == (-4,) * 13 and make_game("trick-of-the-dead").points[:13] == (-2,) * 13
    assert game.bounds().round_score[0] == -13 * 4  # the bounds follow the house's clubs
    state = game.new_state(5)
    rng = random.Random(5)
    clubs_seen = False
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        for e in state.events:
            if e.kind == "round_end":
                clubs = e.data["clubs"]
                taken = next(r["count"] for r in e.data["summary"]["rows"] if r["key"] == "clubs")
                assert clubs == [-4 * k for k in taken]
                clubs_seen = clubs_seen or any(clubs)
    assert state.rounds_played == 3 and max(state.scores) < 1000  # the house's end: three rounds at most
    assert clubs_seen


@pytest.mark.parametrize("target", ["nowhere:Game", "torite.engine.registry:nothing", "torite.engine.base:Result",
                                    "no-colon", "missing/file.py:X", "HOUSE:Copy"])
def test_a_bad_game_module_is_refused_saying_why(target: str, house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not importable, no such class, not a game, no module at all, no such file, a shipped
    game's id taken (a copy of Hearts that kept its id)."""
    copy = house.with_name("hearts_copy.py")
    copy.write_text("from torite.games.hearts.rules import Hearts\n\n\nclass Copy(Hearts):\n    pass\n",
                    encoding="utf-8")
    target = target.replace("HOUSE", str(copy))
    assert load_game_module("torite.games.hearts.rules:Hearts") == "hearts"  # the shipped game: nothing to do
    before = dict(registry._GAMES)
    with pytest.raises(OptionError) as e:
        load_game_module(target)
    assert str(e.value).startswith(f"--game-module {target!r}: ")
    assert before == registry._GAMES
    for command in (["games"], ["serve", "--port", "1"]):  # refused before anything starts
        assert main([*command, "--game-module", target]) == 2
        assert "--game-module" in capsys.readouterr().err


def test_the_simulator_plays_whole_games_of_it_in_this_process_and_in_workers(
        house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", ID, "--game-module", f"{house}:{CLASS}", "--games", "4", "--bots", "normal,random,random",
            "--json", "-o", "target=60"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert one["game"] == ID and one["games"] == 4 and 1 <= one["rounds_per_game"] <= 3
    timing = ("rounds_per_second", "actions_per_second", "jobs")
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}
    assert main(["rules", ID, "--game-module", f"{house}:{CLASS}", "--lang", "ko"]) == 0
    assert "하우스 규칙" in capsys.readouterr().out


def test_the_line_mode_plays_a_whole_game_and_its_record_replays(
        house: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    module = f"{house}:{CLASS}"
    assert main(["play", ID, "--game-module", module, "--plain", "--seed", "4", "-o", "target=30",
                 "--bots", "normal,random", "--record-dir", str(tmp_path / "records")]) == 0
    out = capsys.readouterr().out
    assert "Clubs House" in out and "Final scores" in out
    (saved,) = (tmp_path / "records").glob("*.json")
    rec = Record.load(saved)
    assert rec.game == ID and replay(rec).is_over()
    assert main(["replay", str(saved), "--game-module", module]) == 0


def _tui_driver() -> Any:
    """The keypress driver of the terminal table's own tests (``tests/tui/test_app.py``)."""
    spec = importlib.util.spec_from_file_location("tui_keys", ROOT / "tests" / "tui" / "test_app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_terminal_table_plays_a_whole_game_by_keypresses(house: Path, tmp_path: Path) -> None:
    load_game_module(f"{house}:{CLASS}")
    keys = _tui_driver()
    keys.short_options = lambda game_id: {}
    app, chosen = asyncio.run(keys.play_by_keys(ID, "en", 3, tmp_path, rounds=1))  # a game of one round
    session = app.session
    assert session.state.is_over() and session.game.id == ID and chosen
    assert any("Clubs House" in s for s in app.first_shots)
    assert replay(Record.load(next(tmp_path.glob("*.json")))).is_over()


def test_the_web_table_plays_a_whole_game_its_bots_thinking_in_workers(house: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from torite.server.app import create_app

    load_game_module(f"{house}:{CLASS}")  # as `torite serve --game-module …` does before the server starts
    with TestClient(create_app("sqlite://")) as client:
        games = client.get("/api/games").json()
        assert any(g["id"] == ID for g in (games["games"] if isinstance(games, dict) else games))
        seats = [{"kind": "human"}, {"kind": "bot", "level": "normal"}, {"kind": "bot", "level": "random"}]
        r = client.post("/api/tables", json={"game": ID, "options": {"target": 20}, "seats": seats})
        assert r.status_code == 201, r.text
        table = r.json()
        url, token = f"/api/tables/{table['id']}", table["seats"][0]["token"]
        rng = random.Random(1)
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "join", "seat": 0, "token": token})
            for _ in range(5000):
                m = ws.receive_json()
                if m["type"] != "state":
                    continue
                if m["over"]:
                    break
                if 0 in m["to_act"] and m["legal"]:  # the seat's move through the HTTP API
                    text = rng.choice(m["legal"])["text"]
                    posted = client.post(f"{url}/actions", json={"seat": 0, "token": token, "action": text})
                    assert posted.status_code in (200, 409), posted.text  # 409: a state already stale
            else:
                raise AssertionError("the game never ended")
        rec = Record.from_json(client.get(f"{url}/record").json())
    state = replay(rec)
    assert rec.game == ID and state.is_over() and 1 <= state.rounds_played <= 3


def _entry_point_dist(folder: Path, name: str, value: str, package: str = "clubs_house_pkg") -> None:
    """An installed package declaring ``torite.games`` (its metadata only, on ``sys.path``)."""
    dist = folder / f"{package}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[torite.games]\n{name} = {value}\n", encoding="utf-8")


def test_an_installed_packages_entry_point_adds_its_game_to_every_command(
        house: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _entry_point_dist(house.parent, ID, f"{MODULE}:{CLASS}")
    sys.path.insert(0, str(house.parent))
    monkeypatch.setattr(registry, "_found", False)
    assert ID in game_ids() and game_class(ID).id == ID
    assert main(["games", "--json"]) == 0
    assert ID in {g["id"] for g in json.loads(capsys.readouterr().out)}


def test_an_entry_point_with_another_id_or_a_shipped_one_is_refused_saying_why(
        house: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _entry_point_dist(house.parent / "a", "house-rules", f"{MODULE}:{CLASS}", "house_a")
    _entry_point_dist(house.parent / "b", "hearts", f"{MODULE}:{CLASS}", "house_b")
    sys.path[:0] = [str(house.parent), str(house.parent / "a"), str(house.parent / "b")]
    monkeypatch.setattr(registry, "_found", False)
    with pytest.warns(UserWarning, match="names the shipped game 'hearts'"):
        ids = game_ids()
    assert game_class("hearts").__name__ == "Hearts"
    with pytest.raises(OptionError, match="has the id 'clubs-house', but is registered as 'house-rules'"):
        game_class("house-rules")
    assert "house-rules" in ids
    registry.unregister_game("house-rules")
