"""Which build of torite runs: the pure-Python one, or the one whose hot path mypyc compiled.

Both come from the same typed sources (``setup.py`` compiles the modules of :data:`COMPILED`
when a C compiler is there; an editable install never does).  Why a check: Python imports a
compiled module before the source beside it, so a compiled file left in a source tree would
run old code after the source changed.  :func:`check_fresh` refuses that at import: a compiled
module whose source is newer, and differs from the source it was compiled from (the build
records each source's hash in ``_compiled.json``), stops torite with a message saying what to
do.

This module imports nothing of torite: ``setup.py`` reads :data:`COMPILED` from it before
torite is installed.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
from pathlib import Path

#: the modules the compiled build compiles (paths under ``src/``), chosen by the profile: the
#: kit and what it calls on every decision, every game's rules and rule-of-thumb bot, the search
#: bots and the loop that lets bots play.  ``engine/base.py`` (the protocol's abstract classes),
#: ``engine/kit/gamedata.py`` (a game's declarations) and ``engine/kit/game.py`` (the factory of
#: its states) stay interpreted: a game class is read once per state, and interpreted, a
#: subclass's narrower ``game`` type is the same object to mypyc.  A compiled rules module
#: imports ``TrickGame`` from ``engine/kit/game.py`` itself: mypyc reads the base of the game's
#: (Python) class from the module that defines it, which a compiled module must have imported.
COMPILED: tuple[str, ...] = (
    "torite/cards.py",
    "torite/engine/trick.py",
    "torite/engine/draws.py",
    "torite/engine/sampling.py",
    "torite/engine/bot.py",
    "torite/engine/driver.py",
    "torite/engine/kit/tables.py",
    "torite/engine/kit/deals.py",
    "torite/engine/kit/views.py",
    "torite/engine/kit/statedata.py",
    "torite/engine/kit/classinfo.py",
    "torite/engine/kit/state.py",
    "torite/engine/kit/determinizer.py",
    "torite/bots/search.py",
    "torite/games/glapgos/bot.py",
    "torite/games/glapgos/melds.py",
    "torite/games/glapgos/rules.py",
    "torite/games/glapgos/solver.py",
    "torite/games/good_cop/bot.py",
    "torite/games/good_cop/rules.py",
    "torite/games/hearts/bot.py",
    "torite/games/hearts/rules.py",
    "torite/games/kaedama/bot.py",
    "torite/games/kaedama/rules.py",
    "torite/games/mighty/basics.py",
    "torite/games/mighty/bot.py",
    "torite/games/mighty/rules.py",
    "torite/games/mighty/scoring.py",
    "torite/games/seconds/bot.py",
    "torite/games/seconds/rules.py",
    "torite/games/trick_of_the_dead/bot.py",
    "torite/games/trick_of_the_dead/rules.py",
    "torite/games/umbridge/bot.py",
    "torite/games/umbridge/deal.py",
    "torite/games/umbridge/rules.py",
    "torite/games/umbridge/scoring.py",
)

#: written by the compiled build beside this module: each compiled module's source hash
RECORD = "_compiled.json"

_PACKAGE = Path(__file__).resolve().parent
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


class StaleBuild(ImportError):
    """A compiled module is older than its source: it would run code that is no longer there."""


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _compiled_file(source: Path) -> Path | None:
    """The compiled module beside ``source`` (``state.cpython-311-x86_64-linux-gnu.so``), if any."""
    for suffix in _SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def compiled_modules(package: Path = _PACKAGE) -> list[tuple[Path, Path]]:
    """(source, compiled file) of every module of :data:`COMPILED` that has a compiled file."""
    out = []
    for name in COMPILED:
        source = package.parent / name
        found = _compiled_file(source)
        if found is not None:
            out.append((source, found))
    return out


def check_fresh(package: Path = _PACKAGE) -> None:
    """Raise :class:`StaleBuild` if a compiled module of ``package`` is older than its source
    and was not compiled from that very source."""
    found = compiled_modules(package)
    if not found:
        return
    recorded: dict[str, str] = {}
    record = package / RECORD
    if record.exists():
        recorded = json.loads(record.read_text(encoding="utf-8"))
    for source, compiled in found:
        if not source.exists() or os.stat(source).st_mtime <= os.stat(compiled).st_mtime:
            continue
        rel = source.relative_to(package.parent).as_posix()
        if recorded.get(rel) == source_hash(source):
            continue  # installed from a wheel: written a moment after its compiled module
        raise StaleBuild(
            f"{compiled} is older than {source.name}, which changed since it was compiled: "
            f"torite would run old code.  Delete the compiled files (*.so, *.pyd) under {package} "
            f"for the pure-Python build, or build again (pip install .).")


def build_name() -> str:
    """Which build this is, for ``torite --version`` and the lobby: ``compiled (mypyc)`` when
    the kit's state runs compiled, else ``pure Python``."""
    import torite.engine.kit.state as state

    return "compiled (mypyc)" if state.__file__ is not None and state.__file__.endswith(_SUFFIXES) else "pure Python"
