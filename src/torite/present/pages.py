"""The rules pages players read: ``rules.<lang>.md`` beside each game's rules module."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Final

from torite.engine.base import Game, OptionError

#: The words of the house-rules section, by language: its heading, the sentence under it, the
#: table's heads (the first is what the rules-page tests know the table by).
HOUSE_WORDS: Final = {
    "en": ("House rules",
           "Rule values a table may change: set them with `-o name=value` or under the lobby's house "
           "rules; a record keeps them, so its game replays.",
           ("house rule", "default", "range", "effect")),
    "ja": ("ハウスルール",
           "卓ごとに変えられるルールの値です。`-o 名前=値` またはロビーのハウスルールで設定します。"
           "記録に残るので、そのゲームは再生できます。",
           ("ハウスルール", "標準", "範囲", "効果")),
    "ko": ("하우스 규칙",
           "테이블마다 바꿀 수 있는 규칙의 값입니다. `-o 이름=값` 또는 로비의 하우스 규칙에서 정합니다. "
           "기록에 남으므로 그 게임은 다시 볼 수 있습니다.",
           ("하우스 규칙", "기본", "범위", "효과")),
}
#: the heading of each page's options section, in every language a page is written in
_OPTIONS_HEADING: Final = re.compile(r"^## (?:Options|オプション|옵션)\s*$", re.M)


def rules_page(cls: type[Game] | Game, lang: str = "en") -> str:
    """The player-facing rules page of a game in ``lang``, with every ruling torite implements,
    and the game's house rules (:func:`house_rules_section`) after its options."""
    cls = cls if isinstance(cls, type) else type(cls)
    folder = Path(sys.modules[cls.__module__].__file__ or ".").parent
    page = folder / f"rules.{lang}.md"
    if not page.is_file():
        have = sorted(p.name.split(".")[1] for p in folder.glob("rules.*.md"))
        raise OptionError(f"no {lang!r} rules page for {cls.id} (languages: {', '.join(have)})")
    text = page.read_text(encoding="utf-8")
    section = house_rules_section(cls, lang)
    if not section:
        return text
    m = _OPTIONS_HEADING.search(text)
    after = text.find("\n## ", m.end()) if m else -1
    if after < 0:
        return text.rstrip("\n") + "\n\n" + section
    return text[:after + 1] + section + "\n" + text[after + 1:]


def house_rules_section(cls: type[Game], lang: str) -> str:
    """The page's "House rules" section, made from the game's declarations (so it cannot drift
    from the code): each house rule with its default, its range and what it changes, in the
    labels' words of ``lang`` (the option's ``help``); empty for a game without house rules."""
    specs = cls.house_rules()
    if not specs:
        return ""
    from torite.present import labels  # the labels read the rules modules: imported when needed

    words = labels.load(cls, lang) if lang in labels.languages(cls) else None
    heading, intro, heads = HOUSE_WORDS.get(lang, HOUSE_WORDS["en"])
    lines = [f"## {heading}", "", intro, "", "| " + " | ".join(heads) + " |", "| --- | --- | --- | --- |"]
    for spec in specs:
        found = words.data["options"].get(spec.name, {}) if words is not None else {}
        effect = str(found.get("help") or spec.help)
        lines.append(f"| `{spec.name}` | `{spec.default}` | {spec.minimum} – {spec.maximum} | {effect} |")
    return "\n".join(lines) + "\n"
