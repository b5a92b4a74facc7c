"""``torite play`` opens the table on a terminal and keeps the line mode for --plain and pipes."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import torite.cli.terminal
import torite.cli.tui
from torite.cli.main import main


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    def fake(name: str) -> Any:
        def run(game: Any, seat: int, bots: Any, seed: int, **kw: Any) -> None:
            seen[name] = {"game": game.id, "seat": seat, "bots": list(bots), "seed": seed, **kw}
        return run

    monkeypatch.setattr(torite.cli.tui, "play_tui", fake("tui"))
    monkeypatch.setattr(torite.cli.terminal, "play_terminal", fake("plain"))
    return seen


def test_play_on_a_terminal_opens_the_table(monkeypatch: pytest.MonkeyPatch, calls: dict[str, Any],
                                            tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", Tty())
    monkeypatch.setattr("sys.stdout", Tty())
    assert main(["play", "kaedama", "--seed", "4", "--rounds", "1", "--lang", "ja", "--bot-delay", "0",
                 "--record-dir", str(tmp_path)]) == 0
    assert set(calls) == {"tui"}
    assert calls["tui"]["max_rounds"] == 1 and calls["tui"]["lang"] == "ja" and calls["tui"]["bot_delay"] == 0


def test_plain_or_a_pipe_keeps_the_line_mode(monkeypatch: pytest.MonkeyPatch, calls: dict[str, Any]) -> None:
    monkeypatch.setattr("sys.stdin", Tty())
    monkeypatch.setattr("sys.stdout", Tty())
    assert main(["play", "kaedama", "--plain", "--seed", "1"]) == 0
    assert set(calls) == {"plain"}
    calls.clear()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "kaedama", "--seed", "1"]) == 0
    assert set(calls) == {"plain"}


@pytest.mark.parametrize("args", [["--rounds", "0"], ["--bot-delay", "-1"], ["--lang", "xx", "--plain"]])
def test_bad_play_arguments_are_one_clear_line(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(["play", "kaedama", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("torite play: ") and "Traceback" not in err


def test_an_unknown_language_is_refused_before_the_table_opens(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", Tty())
    monkeypatch.setattr("sys.stdout", Tty())
    assert main(["play", "kaedama", "--lang", "xx"]) == 2
    assert "'xx'" in capsys.readouterr().err
