"""The English and Japanese rules pages of a game say the same thing.

A translation can drift: a point value changed in one language, an option left out of one page,
a default that no longer matches the code.  These tests compare what can be compared without
reading prose:

- the options table of each page lists exactly the game's ``OPTIONS``, each with the default
  the code has, its choices, and its range;
- the numbers of each section, of each paragraph or list item (where both pages split the
  section alike, which a test keeps so), of each table row and of each option row are the same
  in both languages;
- the Japanese page has no italics (Japanese type has none).

Numbers are compared as sets, not counts: Japanese says 「2倍」 again where English says "it",
so counting occurrences would fail on style.  For the same reason the 1 of 「1枚につき」 (or
「1つにつき」, 「1トリックにつき」) is left out: English writes "per" or "for each" there.
A number that appears in one language and not in the other, in the same section or table row,
is a real difference.  Digits count everywhere (card codes such as ``10D`` and ruling ids such
as ``G1`` included, so a ruling cited in one language only is caught too); a minus sign is part
of the number (a club is −2, not 2).  In English prose, the number words a rulebook uses for
counts count as numbers ("two jokers", "once", "twice", "the second joker", "doubled"); "one"
is not counted after "the", "no", "any", "each", "every" or "which", where it is a pronoun.
Japanese pages write counts in Arabic digits (「2枚」, 「1回」), as Japanese rulebooks do.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from torite.engine.base import Game, OptionSpec
from torite.engine.registry import game_class
from torite.server.markdown import to_html

GAMES = ("trick-of-the-dead", "kaedama", "seconds", "good-cop", "hearts", "glapgos", "umbridge", "mighty")
LANGS = ("en", "ja")

WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "once": 1, "twice": 2, "second": 2,
    "third": 3, "double": 2, "doubles": 2, "doubled": 2, "doubling": 2,
}
PRONOUN_BEFORE_ONE = {"the", "no", "any", "each", "every", "which"}
OPTION_HEADER = {"option", "オプション"}
DEFAULT_HEADER = {"default", "標準"}

_FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_LIST_MARKER = re.compile(r"^(\s*)\d+[.)]\s+", re.M)
_NUMBER = re.compile(r"(?<![A-Za-z0-9.)\]])([-−])(?=\d)|(\d+)")
_PER = re.compile(r"1(?:枚|つ|人|回|トリック)?につき")  # 「1枚につき」 is English "per"
_WORD = re.compile(r"[A-Za-z]+")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def page(game_id: str, lang: str) -> str:
    return unicodedata.normalize("NFKC", game_class(game_id).rules_page(lang))


def numbers(text: str) -> set[int]:
    """Every number the text states (see the module docstring for what counts)."""
    text = _PER.sub("につき", _LIST_MARKER.sub(r"\1", text))
    found: set[int] = set()
    sign = 1
    for m in _NUMBER.finditer(text):
        if m.group(1):
            sign = -1
            continue
        found.add(sign * int(m.group(2)))
        sign = 1
    prose = _CODE_SPAN.sub(" ", _FENCE.sub(" ", text))
    words = [w.lower() for w in _WORD.findall(prose)]
    for i, w in enumerate(words):
        if w in WORDS and not (w == "one" and i > 0 and words[i - 1] in PRONOUN_BEFORE_ONE):
            found.add(WORDS[w])
    return found


def blocks(body: str) -> list[str]:
    """A section's paragraphs, list items (nested ones apart) and code blocks, in order; tables
    are left out (they are compared row by row)."""
    out: list[str] = []
    cur: list[str] = []
    in_fence = False
    for line in body.splitlines():
        if line.startswith("```"):
            if not in_fence and cur:
                out.append("\n".join(cur))
                cur = []
            cur.append(line)
            in_fence = not in_fence
            if not in_fence:
                out.append("\n".join(cur))
                cur = []
            continue
        if in_fence:
            cur.append(line)
            continue
        starts = not line.strip() or line.startswith("#") or line.lstrip().startswith("|") \
            or _ITEM.match(line) is not None
        if starts:
            if cur:
                out.append("\n".join(cur))
            cur = [line] if line.strip() and not line.lstrip().startswith("|") else []
        else:
            cur.append(line)
    if cur:
        out.append("\n".join(cur))
    return out


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) for the text before the first ``##`` heading and for each section."""
    out: list[tuple[str, str]] = []
    heading = "(title)"
    body: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_fence = not in_fence
        if not in_fence and line.startswith("## "):
            out.append((heading, "\n".join(body)))
            heading, body = line[3:].strip(), []
        body.append(line)
    out.append((heading, "\n".join(body)))
    return out


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(text: str) -> list[list[list[str]]]:
    """Every table as its rows of cells, the header first, the separator row left out."""
    out: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            row = cells(line)
            if not all(re.fullmatch(r":?-{2,}:?", c) for c in row):
                rows.append(row)
        elif rows:
            out.append(rows)
            rows = []
    return out


def option_rows(text: str) -> dict[str, dict[str, Any]]:
    """The options table: option name -> its default cell, its whole row and the row's text."""
    found = [t for t in tables(text) if t[0][0].lower() in OPTION_HEADER]
    assert len(found) == 1, "the page needs exactly one options table"
    header, *rows = found[0]
    default_col = next(i for i, h in enumerate(header) if h.lower() in DEFAULT_HEADER)
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        m = re.fullmatch(r"`([a-z_][a-z0-9_]*)`", row[0])
        assert m, f"an options row must start with the option name in backticks: {row[0]!r}"
        out[m.group(1)] = {"default": row[default_col], "row": row, "text": " | ".join(row)}
    return out


def shown(value: Any) -> str:
    """An option value as the pages (and ``-o KEY=VALUE``) write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def params() -> list[Any]:
    return [pytest.param(gid, id=gid) for gid in GAMES]


# ------------------------------------------------------------------ options
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", params())
def test_the_options_table_lists_every_option_with_its_default(game_id: str, lang: str) -> None:
    cls: type[Game] = game_class(game_id)
    rows = option_rows(page(game_id, lang))
    assert list(rows) == [spec.name for spec in cls.OPTIONS], f"rules.{lang}.md options table"
    for spec in cls.OPTIONS:
        row = rows[spec.name]
        assert row["default"] == f"`{shown(spec.default)}`", (
            f"rules.{lang}.md gives {spec.name} the default {row['default']}, the code {shown(spec.default)}")
        for value in allowed_values(spec):
            assert f"`{value}`" in row["text"], f"rules.{lang}.md: {spec.name} does not list `{value}`"
        bounds = {b for b in (spec.minimum, spec.maximum) if b is not None}
        assert bounds <= numbers(row["text"]), f"rules.{lang}.md: {spec.name} does not give its range {bounds}"


def allowed_values(spec: OptionSpec) -> list[str]:
    if spec.choices is not None:
        return [shown(c) for c in spec.choices]
    if isinstance(spec.default, bool):
        return ["false", "true"]
    return []


@pytest.mark.parametrize("game_id", params())
def test_every_option_is_named_in_both_pages(game_id: str) -> None:
    for lang in LANGS:
        text = page(game_id, lang)
        for spec in game_class(game_id).OPTIONS:
            assert f"`{spec.name}`" in text, f"{spec.name} missing from rules.{lang}.md"


@pytest.mark.parametrize("game_id", params())
def test_both_pages_give_each_option_the_same_numbers(game_id: str) -> None:
    en, ja = (option_rows(page(game_id, lang)) for lang in LANGS)
    for name in en:
        assert numbers(en[name]["text"]) == numbers(ja[name]["text"]), (
            f"option {name}: en {sorted(numbers(en[name]['text']))}, ja {sorted(numbers(ja[name]['text']))}")


# ------------------------------------------------------------------ numbers
def section_differences(en_text: str, ja_text: str) -> list[str]:
    en, ja = sections(en_text), sections(ja_text)
    if len(en) != len(ja):
        return [f"en has {len(en)} sections {[h for h, _ in en]}, ja {len(ja)} {[h for h, _ in ja]}"]
    diffs = []
    for (en_head, en_body), (ja_head, ja_body) in zip(en, ja):
        a, b = numbers(en_body), numbers(ja_body)
        if a != b:
            diffs.append(f"{en_head} / {ja_head}: only en {sorted(a - b)}, only ja {sorted(b - a)}")
    return diffs


def paragraph_differences(en_text: str, ja_text: str) -> list[str]:
    """Finer than a section: a value changed in one language is caught even when its section
    states that value elsewhere.  1 is left out here, because Japanese writes it where English
    writes "a" or "first" (「1ラウンド」, 「1回目」, 「1人ずつ」).  A section whose paragraphs and
    items the two pages split differently is left to the section comparison."""
    diffs = []
    for (en_head, en_body), (_, ja_body) in zip(sections(en_text), sections(ja_text)):
        en_blocks, ja_blocks = blocks(en_body), blocks(ja_body)
        if len(en_blocks) != len(ja_blocks):
            continue
        for a_text, b_text in zip(en_blocks, ja_blocks):
            a, b = numbers(a_text) - {1}, numbers(b_text) - {1}
            if a != b:
                diffs.append(f"{en_head}: {a_text.strip()[:60]!r}: only en {sorted(a - b)}, "
                             f"only ja {sorted(b - a)}")
    return diffs


def row_differences(en_text: str, ja_text: str) -> list[str]:
    en, ja = tables(en_text), tables(ja_text)
    if [len(t) for t in en] != [len(t) for t in ja]:
        return [f"the tables differ in number or rows: en {[len(t) for t in en]}, ja {[len(t) for t in ja]}"]
    diffs = []
    for en_table, ja_table in zip(en, ja):
        for en_row, ja_row in zip(en_table[1:], ja_table[1:]):
            a, b = numbers(" | ".join(en_row)), numbers(" | ".join(ja_row))
            if a != b:
                diffs.append(f"{en_row[0]} / {ja_row[0]}: only en {sorted(a - b)}, only ja {sorted(b - a)}")
    return diffs


def differences(en_text: str, ja_text: str) -> list[str]:
    return (section_differences(en_text, ja_text) + paragraph_differences(en_text, ja_text)
            + row_differences(en_text, ja_text))


@pytest.mark.parametrize("game_id", params())
def test_both_pages_state_the_same_numbers(game_id: str) -> None:
    diffs = differences(page(game_id, "en"), page(game_id, "ja"))
    assert not diffs, "\n".join(diffs)


@pytest.mark.parametrize("game_id", params())
def test_both_pages_split_every_section_the_same_way(game_id: str) -> None:
    """Not a rule, but the paragraph comparison above only works where this holds: keep the
    pages parallel, one paragraph or list item for one."""
    en, ja = (sections(page(game_id, lang)) for lang in LANGS)
    uneven = [f"{h}: en {len(blocks(a))}, ja {len(blocks(b))}"
              for (h, a), (_, b) in zip(en, ja) if len(blocks(a)) != len(blocks(b))]
    assert not uneven, "\n".join(uneven)


# ------------------------------------------------------------------ Japanese text
@pytest.mark.parametrize("game_id", params())
def test_the_japanese_page_has_no_italics(game_id: str) -> None:
    """Japanese has no italic type; a rulebook marks a word with 「」 or bold instead."""
    assert "<em>" not in to_html(page(game_id, "ja"))


# ------------------------------------------------------------------ the checker itself
def test_numbers_counts_digits_signs_and_english_count_words() -> None:
    assert numbers("club −2, heart +1, diamonds (10+3)×2 = 26") == {-2, 1, 10, 3, 2, 26}
    assert numbers("two jokers, at most once, the second joker, doubled") == {2, 1}
    assert numbers("the one played first; one of the four suits") == {1, 4}
    assert numbers("the one played first") == set()
    assert numbers("1. **Deal.** deal 16 to each") == {16}  # a list marker is not a number
    assert numbers("`JK1`, ruling G1, `10D`") == {1, 10}
    assert numbers("With `double`, 9 tricks") == {9}  # an option name is not a number word
    assert numbers("クラブは−3点、ハート1枚につき+3点") == {-3, 3}


CHANGES = [  # (game, language, text, changed text): each a real difference between the pages
    ("trick-of-the-dead", "en", "**+5** is added", "**+4** is added"),
    ("trick-of-the-dead", "ja", "**+2点**が加算", "**+3点**が加算"),
    ("trick-of-the-dead", "ja", "| ♥ハート | +1 |", "| ♥ハート | +2 |"),
    ("trick-of-the-dead", "en", "| ♣ club | −2 |", "| ♣ club | 2 |"),
    ("trick-of-the-dead", "en", "**target** (100 by", "**target** (150 by"),
    ("kaedama", "en", "scores 2 points instead of 1", "scores 3 points instead of 1"),
    ("kaedama", "ja", "1ラウンドは10トリックです（`double` では9トリック）", "1ラウンドは必ず10トリックです"),
    ("kaedama", "en", "(12 with `double`)", ""),
    ("kaedama", "ja", "**+3点**", "**+2点**"),
]


@pytest.mark.parametrize(("game_id", "lang", "old", "new"), CHANGES)
def test_a_changed_number_in_one_language_is_caught(game_id: str, lang: str, old: str, new: str) -> None:
    texts = {x: page(game_id, x) for x in LANGS}
    old, new = (unicodedata.normalize("NFKC", t) for t in (old, new))
    assert old in texts[lang]
    texts[lang] = texts[lang].replace(old, new, 1)
    assert differences(texts["en"], texts["ja"])


def test_formatting_is_not_a_difference() -> None:
    en = page("trick-of-the-dead", "en")
    ja = page("trick-of-the-dead", "ja")
    reflowed = en.replace("\n  ", " ")  # list items on one line each
    bulleted = re.sub(r"^(\s*)\d+\. ", r"\1- ", ja, flags=re.M)  # numbered lists as bullets
    spelled = en.replace("The 6 cards left", "The six cards left")  # a count in words
    assert not differences(reflowed, bulleted)
    assert not differences(en.replace("10 to 2", "10…2"), ja)
    assert spelled != en and not differences(spelled, ja)
