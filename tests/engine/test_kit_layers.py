"""The kit's files stand in layers: none imports, even for its types alone (``if TYPE_CHECKING:``),
a file that imports it back, so the kit reads from the bottom up – the declarations, the
game's and the state's data, what is built on them, the state, the game – and a file never
depends on what is built on it (issue 23: no import circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import torite.engine.kit as kit

KIT = Path(kit.__file__).parent


def kit_imports(folder: Path) -> dict[str, set[str]]:
    """Per module of the kit (``__init__`` aside: it only hands names on), the kit's modules it
    imports, wherever the import stands (under ``if TYPE_CHECKING:`` too)."""
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        found: set[str] = set()
        for node in ast.walk(ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if module == "torite.engine.kit":
                    found |= {a.name for a in node.names}  # ``from torite.engine.kit import deals``
                elif module.startswith("torite.engine.kit."):
                    found.add(module.split(".")[3])
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[3] for a in node.names if a.name.startswith("torite.engine.kit.")}
        graph[name] = found & modules
    return graph


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A loop of imports (its modules in order, the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return [*path[path.index(n):], n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_file_of_the_kit_imports_a_file_that_imports_it_back() -> None:
    graph = kit_imports(KIT)
    assert {"game", "state", "gamedata", "statedata", "views", "deals"} <= set(graph)  # read the kit
    assert graph["state"] >= {"deals", "views", "statedata"}  # imports are seen, the module form too
    loop = circle(graph)
    assert loop is None, "the kit's files import each other in a circle: " + " -> ".join(loop or ())


def test_a_circle_is_found_where_there_is_one(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from torite.engine.kit.b import x\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                   "    from torite.engine.kit import a\n", encoding="utf-8")
    (tmp_path / "c.py").write_text("import torite.engine.kit.a\n", encoding="utf-8")
    graph = kit_imports(tmp_path)
    assert graph == {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert circle(graph) == ["a", "b", "a"]
