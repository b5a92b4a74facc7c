"""The rules pages players read: ``rules.<lang>.md`` beside each game's rules module."""

from __future__ import annotations

import sys
from pathlib import Path

from torite.engine.base import Game, OptionError


def rules_page(cls: type[Game] | Game, lang: str = "en") -> str:
    """The player-facing rules page of a game in ``lang``, with every ruling torite implements."""
    cls = cls if isinstance(cls, type) else type(cls)
    folder = Path(sys.modules[cls.__module__].__file__ or ".").parent
    page = folder / f"rules.{lang}.md"
    if not page.is_file():
        have = sorted(p.name.split(".")[1] for p in folder.glob("rules.*.md"))
        raise OptionError(f"no {lang!r} rules page for {cls.id} (languages: {', '.join(have)})")
    return page.read_text(encoding="utf-8")
