"""Every game has a rules page in every language the tables offer, and the pages say the same thing.

The web table and the terminal show a game's rules in the player's language; a missing page
shows English to a Korean table without a word, so a test fails on it.  A translation can drift:
a point value changed in one language, an option left out of one page, a default that no longer
matches the code.  These tests compare each translation (Japanese, Korean) with the English page
in what can be compared without reading prose:

- the options table of each page lists exactly the game's ``OPTIONS``, each with the default
  the code has, its choices, and its range;
- the numbers of each section, of each paragraph or list item (where both pages split the
  section alike, which a test keeps so), of each table row and of each option row are the same
  in both languages;
- the Japanese and Korean pages have no italics (their type has none).

Numbers are compared as sets, not counts: Japanese says 「2倍」 again where English says "it",
so counting occurrences would fail on style.  For the same reason the 1 of 「1枚につき」 (or
「1つにつき」, 「1トリックにつき」, Korean 「1장당」, 「1장마다」) is left out: English writes "per"
or "for each" there.
A number that appears in one language and not in the other, in the same section or table row,
is a real difference.  Digits count everywhere (card codes such as ``10D`` and ruling ids such
as ``G1`` included, so a ruling cited in one language only is caught too); a minus sign is part
of the number (a club is −2, not 2).  In English prose, the number words a rulebook uses for
counts count as numbers ("two jokers", "once", "twice", "the second joker", "doubled"); "one"
is not counted after "the", "no", "any", "each", "every" or "which", where it is a pronoun.
A bridge "double" counts as 2 in every language (「ダブル」, 「더블」), as English cannot tell it
from "doubled".  Japanese pages write counts in Arabic digits (「2枚」, 「1回」), as Japanese rulebooks do; Korean
pages mostly do too (「2장」, 「1번」), and where Korean says a count in words before its counter
(「두 번째 판」, 「두 배」, 「세 장」) the word counts, as does Mighty's 「초구」 (trick 1).

Then the words: a page must not use a term its players do not (Korean 당신, 미스딜, 클럽; the
Japanese 主公 for Mighty's 主攻; …, see ``WRONG_WORDS``), and a Korean page glues no particle to
notation (「`JK`를」 is wrong for a reader who says "joker", 「`call`이면」 right).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest

from torite.engine.base import Game, OptionError, OptionSpec
from torite.engine.registry import game_class, game_ids
from torite.present import labels
from torite.present.pages import HOUSE_WORDS, rules_page
from torite.server import app
from torite.server.markdown import to_html

I18N_JS = app.WEB_DIR / "i18n.js"


def web_languages() -> list[str]:
    """The languages the web table offers (``LANG_NAMES`` in ``web/i18n.js``), read from the file."""
    m = re.search(r"LANG_NAMES\s*=\s*\[(.*?)\];", I18N_JS.read_text(encoding="utf-8"), re.S)
    assert m, "web/i18n.js no longer declares LANG_NAMES: read the table's languages from where they are"
    return re.findall(r"\[\s*\"([a-z]{2})\"", m.group(1))


def offered_languages(game_id: str) -> list[str]:
    """Every language a player can pick at a table of this game: the web table's, the languages
    the server serves rules pages in, and the terminal's (the game's labels)."""
    found = [*web_languages(), *app.LANGS, *labels.languages(game_class(game_id))]
    return list(dict.fromkeys(found))


GAMES = tuple(game_ids())  # every registered game, the tests' example game included
LANGS = tuple(dict.fromkeys(lang for gid in GAMES for lang in offered_languages(gid)))
TRANSLATIONS = tuple(lang for lang in LANGS if lang != "en")

WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "once": 1, "twice": 2, "second": 2,
    "third": 3, "double": 2, "doubles": 2, "doubled": 2, "doubling": 2,
}
PRONOUN_BEFORE_ONE = {"the", "no", "any", "each", "every", "which"}
KO_COUNT_WORDS: dict[str, int] = {
    "한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10,
}
OPTION_HEADER = {"option", "オプション", "옵션"}
HOUSE_HEADER = {heads[0] for _, _, heads in HOUSE_WORDS.values()}
DEFAULT_HEADER = {"default", "標準", "기본"}

_FENCE = re.compile(r"^```.*?^```[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_LIST_MARKER = re.compile(r"^(\s*)\d+[.)]\s+", re.M)
_NUMBER = re.compile(r"(?<![A-Za-z0-9.)\]])([-−])(?=\d)|(\d+)")
_PER = re.compile(r"1(?:枚|つ|人|回|トリック)?につき")  # 「1枚につき」 is English "per"
_PER_KO = re.compile(r"1\s?(?:장|개|명|번|트릭|점)?(?:당|마다)")  # so is 「1장당」, 「1장마다」
_DOUBLE_CALL = re.compile(r"(?<![ァ-ヴー])ダブル|(?<![가-힣])더블")  # a bridge double (not リダブル, 리더블)
_KO_COUNT = re.compile(r"(?<![가-힣])(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s?"
                       r"(?=번째|번|배|장|명|가지|판|트릭|사람|자리|개|편)")
_WORD = re.compile(r"[A-Za-z]+")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


def page(game_id: str, lang: str) -> str:
    return unicodedata.normalize("NFKC", rules_page(game_class(game_id), lang))


def numbers(text: str) -> set[int]:
    """Every number the text states (see the module docstring for what counts)."""
    text = _PER_KO.sub("당", _PER.sub("につき", _LIST_MARKER.sub(r"\1", text)))
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
    found.update(KO_COUNT_WORDS[m.group(1)] for m in _KO_COUNT.finditer(prose))
    if "초구" in prose:
        found.add(1)  # Mighty's word for trick 1 (初球), where English writes the number
    if _DOUBLE_CALL.search(prose):
        found.add(2)  # English counts its word "double": so do the pages that borrow it
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


def option_rows(text: str, header: set[str] = OPTION_HEADER) -> dict[str, dict[str, Any]]:
    """The options table (or with ``HOUSE_HEADER`` the house rules'): option name -> its
    default cell, its whole row and the row's text."""
    found = [t for t in tables(text) if t[0][0].lower() in header]
    assert len(found) <= 1, "a page has one options table and one house rules table"
    if not found:
        return {}  # a game without options (the tests' example game) has none
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
    specs = [spec for spec in cls.OPTIONS if not spec.house]
    assert list(rows) == [spec.name for spec in specs], f"rules.{lang}.md options table"
    for spec in specs:
        row = rows[spec.name]
        assert row["default"] == f"`{shown(spec.default)}`", (
            f"rules.{lang}.md gives {spec.name} the default {row['default']}, the code {shown(spec.default)}")
        for value in allowed_values(spec):
            assert f"`{value}`" in row["text"], f"rules.{lang}.md: {spec.name} does not list `{value}`"
        bounds = {b for b in (spec.minimum, spec.maximum) if b is not None}
        assert bounds <= numbers(row["text"]), f"rules.{lang}.md: {spec.name} does not give its range {bounds}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", params())
def test_the_house_rules_table_lists_every_house_rule_with_its_default_and_range(game_id: str, lang: str) -> None:
    """Made from the declarations (``pages.house_rules_section``), after the options, in the
    page's language: each house rule with its default, its bounds and its labels' help."""
    cls: type[Game] = game_class(game_id)
    text = page(game_id, lang)
    rows = option_rows(text, HOUSE_HEADER)
    assert list(rows) == [spec.name for spec in cls.house_rules()], f"rules.{lang}.md house rules table"
    if not rows:
        return
    words = labels.load(cls, lang).data["options"]
    heading = HOUSE_WORDS[lang][0] if lang in HOUSE_WORDS else HOUSE_WORDS["en"][0]
    assert f"## {heading}" in text
    for spec in cls.house_rules():
        row = rows[spec.name]
        assert row["default"] == f"`{spec.default}`"
        assert {spec.minimum, spec.maximum} <= numbers(row["text"]), f"{spec.name}: its range"
        help_text = unicodedata.normalize("NFKC", words[spec.name]["help"])
        assert help_text in row["text"], f"{spec.name}: the {lang} labels' help"


def allowed_values(spec: OptionSpec) -> list[str]:
    if spec.choices is not None:
        return [shown(c) for c in spec.choices]
    if isinstance(spec.default, bool):
        return ["false", "true"]
    return []


@pytest.mark.parametrize("game_id", params())
def test_every_option_is_named_in_every_page(game_id: str) -> None:
    for lang in LANGS:
        text = page(game_id, lang)
        for spec in game_class(game_id).OPTIONS:
            assert f"`{spec.name}`" in text, f"{spec.name} missing from rules.{lang}.md"


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game_id", params())
def test_every_translation_gives_each_option_the_numbers_of_english(game_id: str, lang: str) -> None:
    en, other = ({**option_rows(page(game_id, x)), **option_rows(page(game_id, x), HOUSE_HEADER)}
                 for x in ("en", lang))
    for name in en:
        assert numbers(en[name]["text"]) == numbers(other[name]["text"]), (
            f"option {name}: en {sorted(numbers(en[name]['text']))}, "
            f"{lang} {sorted(numbers(other[name]['text']))}")


# ------------------------------------------------------------------ numbers
def section_differences(en_text: str, ja_text: str) -> list[str]:
    en, ja = sections(en_text), sections(ja_text)
    if len(en) != len(ja):
        return [f"en has {len(en)} sections {[h for h, _ in en]}, the translation {len(ja)} {[h for h, _ in ja]}"]
    diffs = []
    for (en_head, en_body), (ja_head, ja_body) in zip(en, ja):
        a, b = numbers(en_body), numbers(ja_body)
        if a != b:
            diffs.append(f"{en_head} / {ja_head}: only en {sorted(a - b)}, only the translation {sorted(b - a)}")
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
                             f"only the translation {sorted(b - a)}")
    return diffs


def row_differences(en_text: str, ja_text: str) -> list[str]:
    en, ja = tables(en_text), tables(ja_text)
    if [len(t) for t in en] != [len(t) for t in ja]:
        return [f"the tables differ in number or rows: en {[len(t) for t in en]}, "
                f"the translation {[len(t) for t in ja]}"]
    diffs = []
    for en_table, ja_table in zip(en, ja):
        for en_row, ja_row in zip(en_table[1:], ja_table[1:]):
            a, b = numbers(" | ".join(en_row)), numbers(" | ".join(ja_row))
            if a != b:
                diffs.append(f"{en_row[0]} / {ja_row[0]}: only en {sorted(a - b)}, "
                             f"only the translation {sorted(b - a)}")
    return diffs


def differences(en_text: str, ja_text: str) -> list[str]:
    return (section_differences(en_text, ja_text) + paragraph_differences(en_text, ja_text)
            + row_differences(en_text, ja_text))


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game_id", params())
def test_every_translation_states_the_numbers_of_english(game_id: str, lang: str) -> None:
    diffs = differences(page(game_id, "en"), page(game_id, lang))
    assert not diffs, f"rules.{lang}.md against rules.en.md:\n" + "\n".join(diffs)


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game_id", params())
def test_every_translation_splits_every_section_as_english_does(game_id: str, lang: str) -> None:
    """Not a rule, but the paragraph comparison above only works where this holds: keep the
    pages parallel, one paragraph or list item for one."""
    en, other = (sections(page(game_id, x)) for x in ("en", lang))
    uneven = [f"{h}: en {len(blocks(a))}, {lang} {len(blocks(b))}"
              for (h, a), (_, b) in zip(en, other) if len(blocks(a)) != len(blocks(b))]
    assert not uneven, "\n".join(uneven)


# ------------------------------------------------------------------ rulings
_RULING = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,2}[0-9]{1,2}(?![A-Za-z0-9])")


def ruling_ids(text: str) -> set[str]:
    """The ids a page cites (G1, A16, M6; also seat names such as P1), outside code."""
    return set(_RULING.findall(_CODE_SPAN.sub(" ", _FENCE.sub(" ", text))))


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game_id", params())
def test_every_translation_cites_every_ruling_of_english(game_id: str, lang: str) -> None:
    en, other = ruling_ids(page(game_id, "en")), ruling_ids(page(game_id, lang))
    assert en == other, f"rules.{lang}.md: missing {sorted(en - other)}, extra {sorted(other - en)}"


# ------------------------------------------------------------------ every page, every language
def missing_pages(game_ids: list[str] | tuple[str, ...], langs_of: Any) -> list[str]:
    """``game/lang`` for every language ``langs_of(game)`` offers that has no page of the game."""
    out = []
    for gid in game_ids:
        for lang in langs_of(gid):
            try:
                text = rules_page(game_class(gid), lang)
            except OptionError:
                out.append(f"{gid}/{lang}")
                continue
            if not text.strip():
                out.append(f"{gid}/{lang} (empty)")
    return out


def test_every_language_the_tables_offer_has_a_rules_page_of_every_game() -> None:
    """A Korean table of a game with no Korean page would show the English page unannounced."""
    assert "ko" in LANGS and "ja" in LANGS  # the languages were found where the tables list them
    missing = missing_pages(game_ids(), offered_languages)
    assert not missing, f"no rules page for {missing}"


def test_a_missing_page_is_reported() -> None:
    assert missing_pages(["kaedama"], lambda gid: ["en", "xx"]) == ["kaedama/xx"]


# ------------------------------------------------------------------ words
#: (languages, games or None for every game, pattern, why): words a page must not use
WRONG_WORDS: list[tuple[set[str], set[str] | None, str, str]] = [
    ({"ko"}, None, "당신", "Korean \"you\" is 나/내 at torite's tables"),
    ({"ko"}, None, "클럽", "the Korean suit is 클로버"),
    ({"ko"}, None, r"(?<![0-9])1번째", "Korean says 첫 (첫 트릭, 첫 번째)"),
    ({"en", "ja", "ko"}, None, "主公", "주공 is 主攻 (主公 means \"my lord\")"),
    ({"en", "ko"}, {"mighty"}, "미스딜", "Korean Mighty players say 딜미스"),
    ({"ko"}, {"mighty"}, "몰래 프렌드", "the secret friend is 비밀 프렌드"),
    ({"ko"}, {"mighty"}, r"2번째 판|첫 판의 조커|마지막 판의 조커|첫 판 조커콜",
     "판 is a deal: 두 번째 판, and the joker options are about tricks (초구 조커, 마지막 트릭의 조커, 초구 조커콜)"),
    ({"ja"}, {"mighty"}, "契約", "Mighty's contract is 公約 in Japanese, as in Korean"),
    ({"ja"}, {"umbridge"}, "予備の手", "Umbridge's spare hands are 予備のハンド"),
    ({"ja"}, {"glapgos"}, "メルド", "Galapagos' page and table say 役"),
    ({"ja"}, {"glapgos"}, r"奇数枚|枚のトリック|トリックを[^、。\n]{0,4}枚", "tricks are counted in トリック, not 枚"),
    ({"ja"}, {"seconds"}, r"セカンド(?!ズ)", "the game is セカンズ"),
    ({"ja"}, {"hearts"}, "少ないほど良い失点|失点で、少ないほど", "点数は失点です。少ないほど有利です。"),
]


def wrong_words(game_id: str, lang: str, text: str) -> list[str]:
    return [f"{m.group(0)!r}: {why}" for langs, games, pattern, why in WRONG_WORDS
            if lang in langs and (games is None or game_id in games)
            for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", params())
def test_no_page_uses_a_word_its_players_do_not(game_id: str, lang: str) -> None:
    found = wrong_words(game_id, lang, page(game_id, lang))
    assert not found, f"rules.{lang}.md of {game_id}:\n" + "\n".join(found)


#: a Korean particle whose form depends on the sound before it (이/가, 을/를, 은/는, 과/와, (으)로,
#: and the forms that drop the copula's 이 after a vowel: 라고, 나, 면, …)
_PARTICLE = r"(?:가|을|를|은|는|와|과|으로|로|라고|라는|란|랑|나|면|며|든|야|이(?![가-힣]))"
#: a code span a reader may say either way (`JK` is 제이케이 or 조커, `double` 더블 or "double"):
#: no such particle may follow it.  A lone letter has one Korean name (B 비, M 엠), so the particle
#: after it can be right and is not checked.
_CODE = re.compile(r"`[^`\n]+`(?:\*\*)?" + _PARTICLE)
#: a card or an id with a number (A7, P3) and the particle after it: Korean says a card's rank
#: A 에이, K 케이, Q 큐, J 제이, and a number in Sino-Korean (「클로버 삼 조커콜」, 「3을」), so the
#: particle follows that sound
_COUNTED = re.compile(r"(?:[♠♥♦♣](10|[2-9AKQJ])|(?<![A-Za-z0-9])[A-Z]+([0-9]+)(?![A-Za-z0-9]))(?:\*\*)?"
                      r"(가|을|를|은|는|와|과|으로|로|이(?![가-힣]))")
#: the last sound of a rank or number: 이 사 오 구 and the letters end in a vowel, 일 칠 팔 in ㄹ,
#: 삼 육 and every number ending in 0 (십, 이십, 백) in another consonant
_LAST_SOUND = {**dict.fromkeys("AKQJ2459", "vowel"), **dict.fromkeys("178", "rieul"),
               **dict.fromkeys("036", "consonant")}
_PARTICLE_AFTER = {
    "vowel": {"가", "를", "는", "와", "로"},
    "consonant": {"이", "을", "은", "과", "으로"},
    "rieul": {"이", "을", "은", "과", "로"},  # ㄹ takes 로, not 으로
}


def glued_particles(text: str) -> list[str]:
    """Every particle glued to notation, or not matching the card before it, in a Korean text
    (code blocks left out)."""
    text = _FENCE.sub(" ", text)
    wrong = [m.group(0) for m in _CODE.finditer(text)]
    for m in _COUNTED.finditer(text):
        rank = m.group(1) or m.group(2)
        if m.group(3) not in _PARTICLE_AFTER[_LAST_SOUND[rank if rank in _LAST_SOUND else rank[-1]]]:
            wrong.append(m.group(0))
    return wrong


@pytest.mark.parametrize("game_id", params())
def test_no_korean_particle_is_glued_to_notation(game_id: str) -> None:
    """「`friend JK`를」 reads wrong as soon as the reader says the card's name (조커를): rephrase
    (「`friend JK`로 부릅니다」 → 「조커를 부릅니다(`friend JK`)」) or use an invariant particle
    (의, 에, 도, 만, 부터, 까지) or the copula (이면, 입니다, 일 때); and 「♣3를」 is 「♣3을」."""
    glued = glued_particles(page(game_id, "ko"))
    assert not glued, f"rules.ko.md of {game_id}: {glued}"


def test_the_word_checks_catch_what_they_are_for() -> None:
    assert wrong_words("mighty", "ko", "딜미스(미스딜)는 당신의 패") == [
        "'당신': Korean \"you\" is 나/내 at torite's tables", "'미스딜': Korean Mighty players say 딜미스"]
    assert wrong_words("mighty", "ja", "主公が契約を宣言") and not wrong_words("umbridge", "ja", "契約")
    assert not wrong_words("mighty", "ko", "딜미스, 주공(主攻), 클로버, 첫 트릭(초구), 두 번째 판")
    assert wrong_words("seconds", "ja", "# セカンド") and not wrong_words("seconds", "ja", "# セカンズ")
    assert glued_particles("`JK`를 냅니다, `call`**로, ♠A이 이깁니다, ♣3를, ♥10로, ♦7으로, **A7**으로, P2은") == [
        "`JK`를", "`call`**로", "♠A이", "♣3를", "♥10로", "♦7으로", "A7**으로", "P2은"]
    assert not glued_particles("`call`이면, `JK`입니다, B는, M은, ♠A가, ♣3을, ♥10으로, ♦7로, ♠9를, ♥10이고, "
                               "NT일 때, ♣3도, **A7**로, M6은, P1이, P2는, P10이")


# ------------------------------------------------------------------ Japanese and Korean text
_KANA_KANJI = "\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
_WRAPPED = re.compile(rf"[{_KANA_KANJI}]\n[ \t]*(?![-*+] |\d+[.)] |#|\|)[{_KANA_KANJI}]")


def wrapped_lines(text: str) -> list[str]:
    """Japanese sentences broken across source lines: Markdown joins the lines with a space,
    which Japanese never writes ("主攻（주공、 プレジデント）")."""
    return [m.group(0).replace("\n", "⏎") for m in _WRAPPED.finditer(_FENCE.sub(" ", text))]


@pytest.mark.parametrize("game_id", params())
def test_no_japanese_sentence_is_broken_across_lines(game_id: str) -> None:
    found = wrapped_lines(page(game_id, "ja"))
    assert not found, f"rules.ja.md of {game_id} wraps a sentence (one paragraph or item a line): {found}"


def test_a_wrapped_japanese_sentence_is_found() -> None:
    assert wrapped_lines("主攻（주공、\nプレジデント）") and wrapped_lines("- 手札の\n  カード")
    assert not wrapped_lines("です。\n\n次") and not wrapped_lines("です。\n- 次")
    assert not wrapped_lines("です。\n2. 次")


@pytest.mark.parametrize("lang", TRANSLATIONS)
@pytest.mark.parametrize("game_id", params())
def test_no_japanese_or_korean_page_has_italics(game_id: str, lang: str) -> None:
    """Japanese and Korean type has no italics; a rulebook marks a word with 「」 or bold instead."""
    assert "<em>" not in to_html(page(game_id, lang))


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
    assert numbers("클로버는 −3점, 하트 1장당 +3점, 1장마다 +2점") == {-3, 3, 2}
    assert numbers("두 번째 판, 세 장, 두 배, 네 가지 무늬, 한 번") == {2, 3, 4, 1}
    assert numbers("세상, 두더지, 네모") == set()  # a count word only before its counter
    assert numbers("초구 조커") == numbers("the joker in trick 1") == {1}
    assert numbers("ダブルの後") == numbers("더블 뒤") == numbers("After a double") == {2}
    assert numbers("リダブル") == numbers("리더블") == numbers("redouble") == set()


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
    ("trick-of-the-dead", "ko", "**+2**점을", "**+3**점을"),
    ("trick-of-the-dead", "ko", "| ♥ 하트 | +1 |", "| ♥ 하트 | +2 |"),
    ("mighty", "ko", "두 번째 판", "세 번째 판"),
    ("hearts", "ko", "26점", "25점"),
]


@pytest.mark.parametrize(("game_id", "lang", "old", "new"), CHANGES)
def test_a_changed_number_in_one_language_is_caught(game_id: str, lang: str, old: str, new: str) -> None:
    other = lang if lang != "en" else "ja"
    texts = {x: page(game_id, x) for x in ("en", other)}
    old, new = (unicodedata.normalize("NFKC", t) for t in (old, new))
    assert old in texts[lang]
    texts[lang] = texts[lang].replace(old, new, 1)
    assert differences(texts["en"], texts[other])


def test_formatting_is_not_a_difference() -> None:
    en = page("trick-of-the-dead", "en")
    ja = page("trick-of-the-dead", "ja")
    reflowed = en.replace("\n  ", " ")  # list items on one line each
    bulleted = re.sub(r"^(\s*)\d+\. ", r"\1- ", ja, flags=re.M)  # numbered lists as bullets
    spelled = en.replace("The 6 cards left", "The six cards left")  # a count in words
    assert not differences(reflowed, bulleted)
    assert not differences(en.replace("10 to 2", "10…2"), ja)
    assert spelled != en and not differences(spelled, ja)
