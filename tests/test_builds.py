"""The two builds of torite, pure Python and the hot path compiled by mypyc, are one program: the
same games from the same seeds, each saying which it is, and never a compiled module older than
the source it was made from."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import torite
from torite import build
from torite.server.app import create_app

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
#: a folder holding a compiled torite (``scripts/compile.sh`` makes ``build/compiled``): the
#: compiled side of the comparison when this process runs the pure build
COMPILED_PATH = os.environ.get("TORITE_COMPILED_PATH", "")


def _run(code: str, pythonpath: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


_PLAY = "from torite.build import build_name; from torite.testing import played_games; " \
        "print(build_name()); print(played_games())"


def test_both_builds_play_the_same_games_byte_for_byte() -> None:
    """Every game, with random, rule-of-thumb and search bots: the same actions, results, stats,
    events and observations, to the byte, from the pure sources and from the compiled build."""
    if build.build_name().startswith("compiled"):
        compiled_path = None  # this interpreter's own torite is the compiled one
    elif COMPILED_PATH:
        compiled_path = COMPILED_PATH
    else:
        pytest.skip("no compiled build to compare with (CI's compiled job runs this test; "
                    "TORITE_COMPILED_PATH names one)")
    pure = _run(_PLAY, str(SRC)).split("\n", 1)
    compiled = _run(_PLAY, compiled_path).split("\n", 1)
    assert pure[0] == "pure Python"
    assert compiled[0] == "compiled (mypyc)"
    games = json.loads(pure[1])
    assert {g["bots"] for g in games} == {"random", "normal", "search"} and all(g["actions"] for g in games)
    assert compiled[1] == pure[1]


def test_the_command_says_which_build_runs() -> None:
    out = _run("import sys; from torite.cli.main import main; sys.argv = ['torite', '--version']; main()", None)
    assert out.strip() == f"torite {torite.__version__} ({build.build_name()} build)"


def test_the_lobby_is_told_which_build_serves() -> None:
    with TestClient(create_app("sqlite://")) as c:
        got = c.get("/api/version").json()
    assert got == {"version": torite.__version__,
                   "build": "compiled" if build.build_name().startswith("compiled") else "pure"}


def _package(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A stand-in ``torite`` package with one module of the compiled list and a file where its
    compiled module would be (never imported: the check only compares files)."""
    package = tmp_path / "torite"
    package.mkdir()
    source = package / "cards.py"
    source.write_text("X = 1\n")
    compiled = package / ("cards" + importlib.machinery.EXTENSION_SUFFIXES[0])
    compiled.write_bytes(b"not really compiled")
    return package, source, compiled


def _age(path: Path, seconds: float) -> None:
    t = path.stat().st_mtime - seconds
    os.utime(path, (t, t))


def test_a_compiled_module_older_than_its_changed_source_stops_torite(tmp_path: Path) -> None:
    package, _, compiled = _package(tmp_path)
    _age(compiled, 60)
    with pytest.raises(build.StaleBuild, match=r"cards\.py, which changed since it was compiled"):
        build.check_fresh(package)


def test_a_compiled_module_newer_than_its_source_runs(tmp_path: Path) -> None:
    package, source, _ = _package(tmp_path)
    _age(source, 60)
    build.check_fresh(package)


def test_an_installed_wheel_whose_sources_were_written_after_its_modules_runs(tmp_path: Path) -> None:
    """An install writes a source a moment after its compiled module: the hash the build
    recorded says it is the source the module was made from."""
    package, source, compiled = _package(tmp_path)
    _age(compiled, 1)
    (package / build.RECORD).write_text(json.dumps({"torite/cards.py": build.source_hash(source)}))
    build.check_fresh(package)
    source.write_text("X = 2\n")  # changed after the install: stale again
    with pytest.raises(build.StaleBuild):
        build.check_fresh(package)


def _setup() -> Any:
    spec = importlib.util.spec_from_file_location("torite_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not as __main__: setup() is not called
    return module


def test_an_editable_install_never_compiles_and_metadata_steps_compile_nothing() -> None:
    setup = _setup()
    assert setup.ext_modules(["setup.py", "editable_wheel", "--dist-dir", "x"]) == []
    assert setup.ext_modules(["setup.py", "egg_info"]) == []
    assert setup.ext_modules(["setup.py", "dist_info"]) == []


def test_without_a_c_compiler_the_install_is_pure_and_says_why(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    setup = _setup()
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert setup.why_not_compiled() == "no C compiler (/nonexistent/cc not found)"
    assert setup.ext_modules(["setup.py", "bdist_wheel"]) == []
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["torite: no C compiler (/nonexistent/cc not found): installing the pure-Python version "
                   "(slower; the same games)"]
