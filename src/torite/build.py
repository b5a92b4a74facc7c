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

import ast
import hashlib
import importlib.machinery
import json
import os
import re
from pathlib import Path

#: the modules the compiled build compiles (paths under ``src/``), chosen by the profile: the
#: kit and what it calls on every decision, every game's rules and rule-of-thumb bot, the search
#: bots, the loop that lets bots play, the simulator's unit of work and the seeds it derives
#: (issue 37: interpreted, they were 5 % of ``torite simulate``), and a research environment's step (the observation
#: layout, the tracker that keeps a seat's vector, the batched environment's loop; numpy is
#: reached through them as Python objects).  ``engine/base.py`` (the protocol's abstract classes),
#: ``engine/kit/gamedata.py`` (a game's declarations) and ``engine/kit/game.py`` (the factory of
#: its states) stay interpreted: a game class is read once per state, and interpreted, a
#: subclass's narrower ``game`` type is the same object to mypyc.  A compiled rules module
#: imports ``TrickGame`` from ``engine/kit/game.py`` itself: mypyc reads the base of the game's
#: (Python) class from the module that defines it, which a compiled module must have imported.
COMPILED: tuple[str, ...] = (
    "torite/cards.py",
    "torite/seeds.py",
    "torite/sim.py",
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
    "torite/adapters/obsspec.py",
    "torite/adapters/tracker.py",
    "torite/adapters/batch.py",
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

def open_classes(src: Path) -> dict[str, str]:
    """The classes of the :data:`COMPILED` modules declared ``@mypyc_attr(native_class=False,
    allow_interpreted_subclasses=True)`` (each game's class), in the sources under ``src``: class name
    -> module path."""
    found: dict[str, str] = {}
    for name in COMPILED:
        tree = ast.parse((src / name).read_text(encoding="utf-8"))
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            for deco in node.decorator_list:
                if not (isinstance(deco, ast.Call) and getattr(deco.func, "id", None) == "mypyc_attr"):
                    continue
                flags = {k.arg: getattr(k.value, "value", None) for k in deco.keywords}
                if flags.get("native_class") is False and flags.get("allow_interpreted_subclasses") is True:
                    if node.name in found:
                        raise ValueError(f"two open classes named {node.name} ({found[node.name]}, {name})")
                    found[node.name] = name
    return found


def open_non_native_classes(c_files: list[Path], classes: dict[str, str]) -> dict[str, int]:
    """Make the C that mypyc generated honour ``allow_interpreted_subclasses=True`` on the
    non-native ``classes`` (:func:`open_classes`), as mypyc honours it on a native class: every
    exact type check of such a class becomes an ``isinstance`` check.  Called by ``setup.py``
    between generating the C and compiling it; returns the checks rewritten per class.

    Why: each game's class is a Python (non-native) class in a compiled module, and a designer's
    house rules subclass it (``docs/new-game.md``).  mypyc assumes it knows every subclass of a
    class it compiles: where code takes the game class (a state's ``game``, ``self`` of every
    method the game class defines) it checks the *exact* type (``Py_TYPE(x) == T``), so an
    interpreted subclass was refused (``TypeError: ...TrickOfTheDead object expected; got
    ClubsHouse``).  The attribute that lifts that assumption (mypyc then writes
    ``PyObject_TypeCheck(x, T)``) is read only for native classes: mypyc 2.4 skips the
    attributes of a non-native class, and mypyc is itself compiled, so it cannot be patched from
    here.  A non-native class's methods and attributes are looked up as Python looks them up
    anyway, so the type checks are all that changes; ``tests/outside`` runs on the compiled build
    and fails without this."""
    counts = dict.fromkeys(classes, 0)
    if not classes:
        return counts
    names = "|".join(re.escape(c) for c in sorted(classes))
    check = re.compile(r"Py_TYPE\(([A-Za-z_][A-Za-z0-9_]*)\) == (CPyType_(?:[A-Za-z0-9_]*___)?(" + names + r"))\b")

    def rewrite(m: re.Match[str]) -> str:
        counts[m.group(3)] += 1
        return f"PyObject_TypeCheck({m.group(1)}, {m.group(2)})"

    for path in c_files:
        text = path.read_text(encoding="utf-8")
        new = check.sub(rewrite, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
    return counts


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
