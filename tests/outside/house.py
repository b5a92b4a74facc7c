"""A game from outside the package, as a designer writes one: a folder anywhere holding a rules
module written against the kit, its labels and its rules pages (:func:`write_house`).

Clubs House is Trick of the Dead as one house plays it, written as subclasses of the shipped
(compiled, on the compiled build) game and state classes: every club taken costs 4 (the game's
``points``), and the game ends after three rounds at the latest (the state's ``game_over``).
Its words are Trick of the Dead's with its own title, its rules pages Trick of the Dead's with a
section on the house rules first.
"""

from __future__ import annotations

import json
from pathlib import Path

from torite.engine.registry import game_class

MODULE = "clubs_house"
CLASS = "ClubsHouse"
ID = "clubs-house"

SOURCE = '''"""Clubs House: Trick of the Dead with clubs at -4 and three rounds at most."""

from __future__ import annotations

from functools import cached_property

from torite.games.trick_of_the_dead.rules import TrickOfTheDead, TrickOfTheDeadState


class ClubsHouseState(TrickOfTheDeadState):
    def game_over(self) -> bool:
        return super().game_over() or self.rounds_played >= 3


class ClubsHouse(TrickOfTheDead):
    id = "clubs-house"
    title = "Clubs House"

    @cached_property
    def points(self) -> tuple[int, ...]:
        return (-4,) * 13 + super().points[13:]


ClubsHouse.STATE = ClubsHouseState
'''

TITLES = {"en": "Clubs House", "ja": "クラブの家", "ko": "클럽 하우스"}
HOUSE_RULES = {
    "en": "## House rules\n\nEvery club taken costs 4 points, and the game ends after three rounds at the "
          "latest. Everything else is Trick of the Dead, below.\n\n",
    "ja": "## ハウスルール\n\n取ったクラブは1枚につき4点の減点です。ゲームは遅くとも3ラウンドで終わります。"
          "ほかは下のトリック・オブ・ザ・デッドのとおりです。\n\n",
    "ko": "## 하우스 규칙\n\n가져온 클럽은 한 장에 4점을 잃습니다. 게임은 늦어도 3라운드 뒤에 끝납니다. "
          "나머지는 아래의 트릭 오브 더 데드와 같습니다.\n\n",
}


def write_house(folder: Path) -> Path:
    """Clubs House's folder (module, labels, rules pages) in ``folder``; its module's path."""
    folder.mkdir(parents=True, exist_ok=True)
    shipped = Path(__import__(game_class("trick-of-the-dead").__module__, fromlist=["_"]).__file__ or ".").parent
    for lang, title in TITLES.items():
        words = json.loads((shipped / f"labels.{lang}.json").read_text(encoding="utf-8"))
        words["title"] = title
        (folder / f"labels.{lang}.json").write_text(json.dumps(words, ensure_ascii=False, indent=1), encoding="utf-8")
        page = (shipped / f"rules.{lang}.md").read_text(encoding="utf-8")
        _head, _, rest = page.partition("\n")
        (folder / f"rules.{lang}.md").write_text(f"# {title}\n\n{HOUSE_RULES[lang]}{rest}", encoding="utf-8")
    module = folder / f"{MODULE}.py"
    module.write_text(SOURCE, encoding="utf-8")
    return module
