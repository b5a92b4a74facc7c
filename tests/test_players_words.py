"""The players' words as their players write them, in every file that holds them: each game's
labels, the common labels, the terminal's and the web table's own words.

Korean: a particle after a placeholder in both forms (``{player}이(가)``, ``{card}을(를)``,
``(으)로``, ``은(는)``, ``과(와)``), since a name or a card may end in a consonant or not; "you"
is 나/내, never 당신; and the terms the reviewers settled (딜미스, 주공, 초구, 클로버, …).
Japanese: 主攻 and 公約 for Mighty, no Go or shogi words (棋譜), Umbridge's 予備のハンド.
English: one name per game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from torite.cli import terminal
from torite.cli.tui import words as tui_words
from torite.engine import game_class, game_ids
from torite.present import labels
from torite.present.labels import load as labels_of

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "torite" / "web" / "strings.js"

#: a Korean particle glued to a placeholder, in the one form that fits only some words (the
#: copula 이고/이며/입니다 fits every word and is not a particle)
GLUED = re.compile(r"\}(?:이|가|을|를|은|는|과|와|으로|로)(?=[\s,.:;)!?]|$)")

FORBIDDEN: dict[str, list[tuple[str, str]]] = {
    "ko": [("당신", "나/내"), ("미스딜", "딜미스"), ("主公", "主攻"), ("첫 판의 조커", "초구 조커"),
           ("마지막 판의 조커", "마지막 트릭의 조커"), ("첫 판 조커콜", "초구 조커콜"), ("1번째 트릭", "첫 트릭(초구)"),
           ("|plus1}번째", "{n|ordinal}: 두 번째"), ("몰래 프렌드", "비밀 프렌드"), ("클럽", "클로버"),
           ("기보", "게임 기록"), ("대신 둠", "봇이 대신 플레이함"), ("대신 둡", "대신 플레이합")],
    "ja": [("主公", "主攻"), ("棋譜", "記録"), ("予備の手", "予備のハンド"), ("4 中", "{deal_no}/4"),
           ("代打ち", "代わりにプレイ"), ("打ちます", "プレイします"), ("奇数枚", "奇数トリック")],
    "en": [("Good Cop, Bad Cop", "Good Cop")],
}
#: terms forbidden in one game's words only (another game may use the word rightly)
FORBIDDEN_IN_GAME: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("mighty", "ja"): [("契約", "公約")],
    ("glapgos", "ja"): [("メルド", "役")],
}


def strings(value: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """Every text in JSON-like data, with where it sits."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, f"{where}.{k}" if where else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, f"{where}[{i}]")


def js_strings(lang: str) -> dict[str, str]:
    """The web table's own words in one language (strings.js), plural forms included."""
    text = WEB.read_text(encoding="utf-8")
    block = re.search(rf"\n    {lang}: \{{\n(.*?)\n    \}},", text, re.S)
    assert block, f"no {lang} block in strings.js"
    out: dict[str, str] = {}
    for m in re.finditer(r'"([\w.]+)":\s*(\{[^}]*\}|"(?:[^"\\]|\\.)*")', block.group(1)):
        for n, s in enumerate(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)) if m.group(2).startswith("{")
                              else [json.loads(m.group(2))]):
            out[f"{m.group(1)}#{n}"] = s
    return out


def texts_of(lang: str) -> list[tuple[str, str]]:
    """Every text a player may read in ``lang``, as (file: where, text)."""
    out: list[tuple[str, str]] = []
    files = [labels.COMMON_DIR / f"labels.{lang}.json"]
    files += [labels.game_folder(game_class(g)) / f"labels.{lang}.json" for g in game_ids()]
    for f in dict.fromkeys(files):
        if f.exists():
            out += [(f"{f.relative_to(ROOT) if f.is_relative_to(ROOT) else f}: {w}", s)
                    for w, s in strings(json.loads(f.read_text(encoding="utf-8")))]
    out += [(f"cli/terminal.py: {k}", v) for k, v in terminal.WORDS[lang].items()]
    out += [(f"cli/tui/words.py: {k}", v) for k, v in tui_words.WORDS[lang].items()]
    out += [(f"web/strings.js: {k}", v) for k, v in js_strings(lang).items()]
    return out


def test_no_korean_particle_is_glued_to_a_placeholder() -> None:
    found = [f"{w}: {t!r}" for w, t in texts_of("ko") if GLUED.search(t)]
    assert not found, "write 이(가), 을(를), 은(는), 과(와), (으)로 after a placeholder:\n" + "\n".join(found)


@pytest.mark.parametrize("lang", sorted(FORBIDDEN))
def test_no_word_the_players_do_not_use(lang: str) -> None:
    found = [f"{w}: {t!r} has {bad!r} (write {good!r})" for w, t in texts_of(lang) for bad, good in FORBIDDEN[lang]
             if bad in t]
    for (game, glang), terms in FORBIDDEN_IN_GAME.items():
        if glang == lang:
            f = labels.game_folder(game_class(game)) / f"labels.{lang}.json"
            found += [f"{f.name} of {game}: {w}: {t!r} has {bad!r} (write {good!r})"
                      for w, t in strings(json.loads(f.read_text(encoding="utf-8"))) for bad, good in terms if bad in t]
    assert not found, "\n".join(found)


def test_the_settled_terms_are_there() -> None:
    """The words the reviewers settled, where a player meets them."""
    mighty = {lang: labels_of(game_class("mighty"), lang).data for lang in ("en", "ja", "ko")}
    ko = mighty["ko"]
    assert [r["label"] for r in ko["status"] if r.get("if") == "call_card"] == ["조커콜 카드"]
    assert (ko["options"]["deal_miss"]["label"], ko["options"]["joker_first_trick"]["label"],
            ko["options"]["joker_last_trick"]["label"], ko["options"]["joker_call_first_trick"]["label"]) == (
        "딜미스", "초구 조커", "마지막 트릭의 조커", "초구 조커콜")
    assert ko["denominations"]["NT"] == "노기루다" and ko["suits"]["C"] == "클로버"
    # ruling M6: the pair that is refused, said as such
    assert ko["options"]["joker_call_first_trick"]["help"].endswith("함께 쓸 수 없습니다)")
    assert mighty["ja"]["options"]["joker_call_first_trick"]["help"].endswith("とは併用できません）")
    assert "主攻" in mighty["ja"]["summary"] and mighty["ja"]["phases"]["bid"]["prompt"].endswith("。")
    assert labels_of(game_class("seconds"), "ja").title == "セカンズ"
    assert [labels_of(game_class("good-cop"), x).title for x in ("en", "ja", "ko")] == [
        "Good Cop", "グッドコップ", "굿 캅"]
    umbridge = labels_of(game_class("umbridge"), "ja").data
    assert "予備のハンド" in umbridge["phases"]["umbrage"]["prompt"]
    assert any(r.get("value") == "{deal_no}/4" for r in umbridge["status"])
    assert labels_of(game_class("glapgos"), "ja").data["scoring"]["melds"] == "役"
    web = {lang: js_strings(lang) for lang in ("ja", "ko")}
    assert web["ko"]["table.download#0"] == "게임 기록 내려받기"
    assert web["ja"]["table.download#0"] == "記録をダウンロード"
    assert "봇이 대신 플레이함" in web["ko"]["table.away#0"]


def test_the_lint_finds_a_planted_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each check above fails on the mistake it is for."""
    planted = {"help": "{player}가 {card}를 냅니다. 당신 차례. 미스딜. 클럽"}
    monkeypatch.setitem(terminal.WORDS, "ko", {**terminal.WORDS["ko"], **planted})
    with pytest.raises(AssertionError, match=r"cli/terminal\.py: help"):
        test_no_korean_particle_is_glued_to_a_placeholder()
    with pytest.raises(AssertionError) as err:
        test_no_word_the_players_do_not_use("ko")
    assert all(x in str(err.value) for x in ("'당신'", "'미스딜'", "'클럽'"))
    monkeypatch.setitem(terminal.WORDS, "ja", {**terminal.WORDS["ja"], "help": "棋譜をダウンロード"})
    with pytest.raises(AssertionError, match="棋譜"):
        test_no_word_the_players_do_not_use("ja")
