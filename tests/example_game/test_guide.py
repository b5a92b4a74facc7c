"""``docs/new-game.md`` quotes the example game and the kit's games: every line of its Python
snippets and of its labels snippet is still in the code it quotes (``...`` marks a cut)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "new-game.md"
QUOTED = [
    ROOT / "tests" / "example_game" / "rules.py",
    ROOT / "tests" / "conftest.py",
    ROOT / "src" / "torite" / "games" / "trick_of_the_dead" / "rules.py",
    ROOT / "src" / "torite" / "games" / "hearts" / "rules.py",  # the house rules' example
    ROOT / "src" / "torite" / "engine" / "registry.py",
    ROOT / "tests" / "outside" / "house.py",  # the house-rules subclass of "A game of your own"
]
#: lines that show what a new game adds, not what exists
ILLUSTRATIONS = {'"mighty": "torite.games.mighty.rules:Mighty",'}


def blocks(lang: str) -> list[str]:
    return re.findall(rf"^ *```{lang}\n(.*?)^ *```$", GUIDE.read_text(encoding="utf-8"), re.M | re.S)


def test_every_line_of_the_python_snippets_is_in_the_code_it_quotes() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in QUOTED)
    missing = []
    for block in blocks("python"):
        for line in block.splitlines():
            text = line.strip()
            if text and not text.startswith("...") and text not in ILLUSTRATIONS and text not in code:
                missing.append(text)
    assert not missing, "the guide quotes lines the code no longer has:\n" + "\n".join(missing)


def test_the_labels_snippet_is_in_the_example_labels() -> None:
    labels = json.loads((ROOT / "tests" / "example_game" / "labels.en.json").read_text(encoding="utf-8"))
    rows = [json.loads(b) for b in blocks("json") if b.lstrip().startswith('{"label"')]
    assert rows and all(row in labels["status"] for row in rows)
