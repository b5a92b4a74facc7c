"""Find games by id.  Faces look games up here and never import a rules module directly.

Three kinds of game are found here: the shipped games (:data:`_GAMES`), games a program
registers itself (:func:`register_game`: the tests' example game), and **games from outside the
package**, written against the kit by a designer:

- ``torite --game-module my_rules:MyGame`` (any subcommand) loads one for the run
  (:func:`load_game_module`): ``module:Class`` importable from here or from the current
  directory, or ``path/to/my_rules.py:Class``;
- an installed package declares it as a ``torite.games`` entry point, its name the game's id
  (``my-game = "my_rules:MyGame"``), and every torite program finds it (:func:`game_ids`).

A game loaded by ``--game-module`` is also written to the environment variable
:data:`GAME_MODULES_ENV` (and its folder to ``PYTHONPATH``), so the processes a run starts (the
simulator's workers, a server's bot workers and ``--workers`` processes) find it as this process
does; :func:`outside_games` lists what a Ray task must register on a worker of a cluster.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from torite.engine.base import Game, OptionError

# id -> "module:Class".  Adding a game is one line here plus its rules module.
_GAMES: dict[str, str] = {
    "trick-of-the-dead": "torite.games.trick_of_the_dead.rules:TrickOfTheDead",
    "kaedama": "torite.games.kaedama.rules:Kaedama",
    "good-cop": "torite.games.good_cop.rules:GoodCop",
    "seconds": "torite.games.seconds.rules:Seconds",
    "umbridge": "torite.games.umbridge.rules:Umbridge",
    "glapgos": "torite.games.glapgos.rules:Glapgos",
    "hearts": "torite.games.hearts.rules:Hearts",
    "mighty": "torite.games.mighty.rules:Mighty",
}
SHIPPED: frozenset[str] = frozenset(_GAMES)

#: games loaded by ``--game-module``, for the processes a run starts: ``id=module:Class`` entries
#: separated by commas
GAME_MODULES_ENV = "TORITE_GAME_MODULES"
#: the entry-point group an installed package declares its games in (name: the game's id)
ENTRY_POINTS = "torite.games"

_outside: dict[str, str] = {}  # id -> target of the games from outside (entry points, --game-module)
_folders: dict[str, str] = {}  # id -> the folder put on sys.path to import it (--game-module)
_found = False  # the entry points and the environment read (once, on the first lookup)


class GameModuleError(OptionError):
    """A game module that cannot be loaded: not importable, no such class, not a game."""


def register_game(game_id: str, target: str) -> None:
    """Add a game by ``"module:Class"`` (tests register example games this way; shipped games
    are listed above).  Registering an id again replaces it."""
    module, sep, name = target.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"register {game_id!r} as 'module:Class', not {target!r}")
    _GAMES[game_id] = target


def unregister_game(game_id: str) -> None:
    """Remove a game added by :func:`register_game` or loaded from outside (a no-op for an
    unknown id)."""
    _GAMES.pop(game_id, None)
    _outside.pop(game_id, None)
    _folders.pop(game_id, None)
    _forget_in_environment(game_id)


def _discover() -> None:
    """Register the games of the ``torite.games`` entry points and of :data:`GAME_MODULES_ENV`,
    once: their classes are imported when first used, not here (a broken plugin fails where it
    is used, and says why, rather than every torite command)."""
    global _found
    if _found:
        return
    _found = True
    for ep in importlib.metadata.entry_points(group=ENTRY_POINTS):
        _add_outside(ep.name, ep.value, f"the entry point {ep.name} = {ep.value!r} of {_dist_name(ep)}")
    for entry in _environment():
        game_id, _, target = entry.partition("=")
        _add_outside(game_id, target, f"{GAME_MODULES_ENV} ({entry!r})")


def _dist_name(ep: importlib.metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"the package {dist.name}" if dist is not None else "an installed package"


def _add_outside(game_id: str, target: str, origin: str) -> None:
    module, sep, name = target.partition(":")
    if not game_id or not sep or not module or not name:
        warnings.warn(f"torite: {origin} is not 'game-id = module:Class': left out", stacklevel=3)
        return
    if game_id in SHIPPED and _GAMES.get(game_id) != target:
        warnings.warn(f"torite: {origin} names the shipped game {game_id!r}: left out (give the game "
                      "an id of its own)", stacklevel=3)
        return
    _GAMES[game_id] = target
    _outside[game_id] = target


def _environment() -> list[str]:
    return [x.strip() for x in os.environ.get(GAME_MODULES_ENV, "").split(",") if x.strip()]


def _remember_in_environment(game_id: str, target: str, folder: str | None) -> None:
    """Tell the processes this one starts about a game loaded here (see the module docstring)."""
    entries = [x for x in _environment() if x.partition("=")[0] != game_id]
    os.environ[GAME_MODULES_ENV] = ",".join([*entries, f"{game_id}={target}"])
    if folder is not None:
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if folder not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([folder, *paths])


def _forget_in_environment(game_id: str) -> None:
    entries = _environment()
    kept = [x for x in entries if x.partition("=")[0] != game_id]
    if kept != entries:
        if kept:
            os.environ[GAME_MODULES_ENV] = ",".join(kept)
        else:
            os.environ.pop(GAME_MODULES_ENV, None)


def _import_target(target: str) -> tuple[Any, str, str | None]:
    """Import ``module:Class`` or ``path/to/file.py:Class``: the class, its ``module:Class``
    and the folder put on ``sys.path`` to import it (None: it was importable as it was)."""
    where, sep, name = target.rpartition(":")
    if not sep or not where or not name or not name.isidentifier():
        raise GameModuleError(f"--game-module {target!r}: write it as module:Class or path/to/file.py:Class, "
                              "e.g. my_rules:MyGame")
    folder: str | None = None
    if where.endswith(".py") or os.sep in where or "/" in where:
        path = Path(where).expanduser().resolve()
        if path.suffix != ".py" or not path.is_file():
            raise GameModuleError(f"--game-module {target!r}: no Python file {where}")
        module_name, folder = path.stem, str(path.parent)
        if not module_name.isidentifier():
            raise GameModuleError(f"--game-module {target!r}: {path.name} cannot be imported "
                                  "(a module's name is letters, digits and _)")
        if folder not in sys.path:
            sys.path.insert(0, folder)
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            raise GameModuleError(f"--game-module {target!r}: {e}") from None
        if Path(module.__file__ or "").resolve() != path:
            raise GameModuleError(f"--game-module {target!r}: the module {module_name} is already "
                                  f"{module.__file__}: rename {path.name}")
    else:
        module_name = where
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            here = os.getcwd()
            if e.name != module_name.partition(".")[0] or here in sys.path:
                raise GameModuleError(f"--game-module {target!r}: {e}") from None
            sys.path.insert(0, here)  # as ``python -m`` would: the current directory first
            folder = here
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as e2:
                sys.path.remove(here)
                raise GameModuleError(f"--game-module {target!r}: {e2} (looked here, {here}, too)") from None
        except ImportError as e:
            raise GameModuleError(f"--game-module {target!r}: {e}") from None
    cls = getattr(module, name, None)
    if cls is None:
        raise GameModuleError(f"--game-module {target!r}: {module_name} has no {name}")
    return cls, f"{module_name}:{name}", folder


def _check_class(cls: Any, target: str, game_id: str | None = None) -> type[Game]:
    if not isinstance(cls, type) or not issubclass(cls, Game):
        raise GameModuleError(f"{target}: {getattr(cls, '__name__', cls)!r} is not a torite game (a subclass of "
                              "torite.engine.kit.TrickGame)")
    own = getattr(cls, "id", None)
    if not isinstance(own, str) or not own:
        raise GameModuleError(f"{target}: {cls.__name__} has no id (id = \"my-game\")")
    if game_id is not None and own != game_id:
        raise GameModuleError(f"{target}: the game {cls.__name__} has the id {own!r}, but is registered "
                              f"as {game_id!r}: give the entry point the game's id")
    return cls


def load_game_module(target: str) -> str:
    """Load a game from outside the package (``module:Class`` or ``path/to/file.py:Class``) and
    register it under its own ``id``; returns the id.  Loading the same game again changes
    nothing; a game may not take a shipped game's id (a house version of a shipped game is a
    subclass with an id of its own)."""
    cls, resolved, folder = _import_target(target)
    game_cls = _check_class(cls, f"--game-module {target!r}")
    game_id = game_cls.id
    _discover()
    if game_id in SHIPPED:
        if _GAMES[game_id] == resolved:
            return game_id  # the shipped game itself: nothing to load
        raise GameModuleError(f"--game-module {target!r}: {game_id!r} is a shipped game's id: give "
                              f"{game_cls.__name__} an id of its own (id = \"my-{game_id}\")")
    _GAMES[game_id] = resolved
    _outside[game_id] = resolved
    if folder is not None:
        _folders[game_id] = folder
    _remember_in_environment(game_id, resolved, folder)
    return game_id


def load_game_modules(targets: Sequence[str]) -> list[str]:
    """:func:`load_game_module` for each of ``targets``."""
    return [load_game_module(t) for t in targets]


def outside_games() -> dict[str, tuple[str, str | None]]:
    """The games from outside the package known here: id -> (``module:Class``, the folder it was
    imported from, if torite put it on the path): what a worker of a Ray cluster must
    :func:`register_outside` before playing one."""
    _discover()
    return {game_id: (target, _folders.get(game_id)) for game_id, target in _outside.items()}


def register_outside(games: Mapping[str, tuple[str, str | None]]) -> None:
    """Register games listed by :func:`outside_games` of another process (a Ray worker's task
    does, before its first game).  Their modules must be importable here: installed, shipped by
    Ray's runtime environment, or in the same folder as where they were loaded (this machine,
    or a shared file system), which goes on the path when it is there."""
    _discover()
    for game_id, (target, folder) in games.items():
        if folder is not None and folder not in sys.path and os.path.isdir(folder):
            sys.path.append(folder)
        if _GAMES.get(game_id) != target:
            _GAMES[game_id] = target
            _outside[game_id] = target


def game_ids() -> list[str]:
    _discover()
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    _discover()
    try:
        target = _GAMES[game_id]
    except KeyError:
        raise OptionError(f"unknown game {game_id!r} (games: {', '.join(_GAMES)}; a game of your own: "
                          "--game-module my_rules:MyGame)") from None
    module, _, name = target.partition(":")
    if game_id not in _outside:
        cls: type[Game] = getattr(importlib.import_module(module), name)
        return cls
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise GameModuleError(f"the game {game_id!r} ({target}) cannot be loaded here: {e} (its module must be "
                              "importable wherever it is played: on a Ray cluster, see 'Ray on a cluster' in "
                              "docs/research.md)") from None
    return _check_class(found, target, game_id)


def make_game(game_id: str, options: Mapping[str, Any] | None = None) -> Game:
    return game_class(game_id)(options or {})
