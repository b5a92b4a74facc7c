"""No text a player reads shows notation: every status row, log line (as the web and as the
terminal tell it), prompt, button, trick fact and round-summary word of random games of every
registered game, in every language, as rich text (each string part and token) and in its
plain and spoken forms (``words.py``).  A new game gets this by being registered."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from torite.engine import game_class
from torite.engine.base import Action, Event
from torite.present import labels
from torite.present.labels import files as label_files
from torite.present.labels import load as labels_of
from torite.testing.labels import count_problems, raw_count_problems, word_problems

from .harness import Case, cases
from .words import korean_me, problems, rich_problems, sample


def word_cases() -> list[Case]:
    """Per game: the defaults, and the case with the most options away from their defaults."""
    out: list[Case] = []
    for game_id in dict.fromkeys(c.game_id for c in cases()):
        mine = [c for c in cases() if c.game_id == game_id]
        out.extend(dict.fromkeys([mine[0], max(mine, key=lambda c: len(c.changed))]))
    return out


@pytest.mark.parametrize("case", word_cases(), ids=lambda c: c.id)
def test_no_text_a_player_reads_shows_notation(case: Case) -> None:
    """Two rounds of random play: a card text (10D, AS, JK1), a suit letter put in for a suit,
    a contract "14 H", a raw id or list, in any language, is a failure naming game, language,
    where and the text."""
    found = problems(sample(case.game(), case.seeds(1), max_rounds=2))
    assert not found, "\n".join(found[:40])


# --------------------------------------------------------------------------- the guard itself
IDS = frozenset({"first-trick", "deal_miss", "play", "FACED"})


@pytest.mark.parametrize(("rich", "found"), [
    (["seat 1 plays ", "10D"], "a card in notation '10D'"),
    (["seat 1 plays ", "JK1"], "a joker in notation 'JK1'"),
    (["contract: ", "14 H", " by seat 0"], "a contract in notation '14 H'"),
    (["bid ", "15 NT"], "a contract in notation '15 NT'"),
    (["trump: ", "S"], "a suit letter 'S'"),
    (["call ", "H", " to follow"], "a suit letter 'H'"),
    (["points ", "[1, 2, 3]"], "a raw list or null '[1'"),
    (["friend: ", "first-trick"], "a raw id 'first-trick'"),
    (["phase ", "deal_miss"], "a raw id 'deal_miss'"),
    ([{"t": "card", "card": "XS"}], "cannot be drawn"),
    ([{"t": "suit", "suit": "X"}], "cannot be drawn"),
    ([{"t": "tile", "tile": "5m"}], "unknown token"),
])
def test_the_guard_finds_planted_notation(rich: list[Any], found: str) -> None:
    lab = labels_of(game_class("mighty"), "en")
    assert any(found in p for p in rich_problems(rich, lab, IDS)), rich_problems(rich, lab, IDS)


@pytest.mark.parametrize("rich", [
    ["contract ", {"t": "contract", "level": 14, "denom": "H"}, " made: S = ", "3", " × ", "2"],
    ["seat 1 plays ", {"t": "card", "card": "10D"}, " and ", {"t": "cards", "cards": ["AS", None]}],
    ["trump: ", {"t": "suit", "suit": "S", "word": True}, "; bid ", {"t": "contract", "level": 3, "denom": "NT"}],
    ["the play-off and the first trick: no-trump"],
])
def test_the_guard_passes_words_and_tokens(rich: list[Any]) -> None:
    lab = labels_of(game_class("mighty"), "en")
    assert rich_problems(rich, lab, IDS) == []


def test_a_raw_placeholder_in_a_labels_file_fails_the_guard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A template that forgets its formatter (``{card}`` where ``{card|card}`` belongs) puts the
    notation in front of a player: the guard over random games names it."""
    cls = game_class("kaedama")
    for f in labels.game_folder(cls).glob("labels.*.json"):
        shutil.copy(f, tmp_path / f.name)
    ko = tmp_path / "labels.ko.json"
    data = json.loads(ko.read_text(encoding="utf-8"))
    data["events"]["trump"] = "{card}을(를) 뒤집었습니다. 기루다는 {suit}입니다"
    ko.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    real = labels.game_folder
    monkeypatch.setattr(label_files, "game_folder", lambda c: tmp_path if c is cls else real(c))
    label_files._LOADED.clear()
    try:
        found = "\n".join(problems(sample(cls({}), [1], max_rounds=1)))
    finally:
        label_files._LOADED.clear()
    assert "kaedama [ko] event trump: a card in notation" in found
    assert "kaedama [ko] event trump: a suit letter" in found
    assert "[en]" not in found and "[ja]" not in found


def test_the_guard_reads_buttons_events_and_status_of_a_sample() -> None:
    """What the guard reads: every kind of text, so a mistake in any of them is seen."""
    from .words import Sample, texts
    game = game_class("mighty")({})
    s = Sample(game, events=[Event("bid", 1, {"bid": "14 S"})],
               actions={"bid 14 NT": Action.parse("bid 14 NT")}, phases={"bid"})
    where = [w for w, _ in texts(s, labels_of(game, "ko"))]
    assert "event bid" in where and "event bid (to its seat)" in where and "button bid" in where
    assert "prompt bid" in where and "phase bid" in where and "action bid" in where


def test_the_readers_own_korean_takes_its_you_form() -> None:
    """나이(가) reads "age"; the reader's own events say 내가 (the guard fails on the former)."""
    assert korean_me("나이(가) 트릭을 가져갔습니다") and korean_me("좀비 ♠Q이(가) 나을(를) 따라")
    assert korean_me("내가 트릭을 가져갔습니다") == [] and korean_me("하나이(가) 남았습니다") == []


# --------------------------------------------------------------------------- counts and names
def test_a_count_that_disagrees_with_its_noun_is_found() -> None:
    """"1 points", "1 penalty cards", "3 card" in English; a Japanese or Korean count that lost its
    counter; and what agrees passes (trick 1 and seat 1 are no counts)."""
    assert count_problems("you win the trick for 1 points", "en")
    assert count_problems("with 1 penalty cards", "en") and count_problems("Answer with 3 card", "en")
    assert count_problems("클로버 3 카드를 버립니다", "ko") and count_problems("3 カードを捨てます", "ja")
    assert count_problems("1 point, 2 points, 0 points, 1 point card, trick 1, seat 1 plays", "en") == []
    assert count_problems("점수 카드 1장, 3점", "ko") == [] and count_problems("得点札1枚", "ja") == []


def test_a_planted_1_points_fails_the_audit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A template that writes its count's noun itself ("{points} points") is found twice: in the
    file, whatever the count, and rendered, when a count is 1."""
    cls = game_class("mighty")
    for f in labels.game_folder(cls).glob("labels.*.json"):
        shutil.copy(f, tmp_path / f.name)
    en = tmp_path / "labels.en.json"
    data = json.loads(en.read_text(encoding="utf-8"))
    data["events"]["trick"] = "{player} wins the trick ({cards|cards}) with {points} points"
    en.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert any("'{points} points'" in p for p in raw_count_problems(data))
    real = labels.game_folder
    monkeypatch.setattr(label_files, "game_folder", lambda c: tmp_path if c is cls else real(c))
    label_files._LOADED.clear()
    try:
        lab = labels_of(cls, "en")
        found = word_problems(lab, list(lab.event_rich(Event("trick", 2, {"cards": ["AS", "2S"], "points": 1})) or []))
    finally:
        label_files._LOADED.clear()
    assert found == ["'1 points': 1 takes the singular"]


def test_no_labels_file_writes_a_count_without_its_plural() -> None:
    """Every count in every English file goes through the plural rules (``|plural:``), and the line
    mode's own words write none bare."""
    from torite.cli import terminal
    files = [labels.COMMON_DIR / "labels.en.json"] + [labels.game_folder(game_class(g)) / "labels.en.json"
                                                       for g in dict.fromkeys(c.game_id for c in cases())]
    found = [p for f in files for p in raw_count_problems(json.loads(f.read_text(encoding="utf-8")), f.name)]
    found += raw_count_problems(terminal.WORDS["en"], "cli/terminal.py")
    assert not found, "\n".join(found)


def test_one_card_named_twice_in_a_sentence_is_found() -> None:
    hearts = labels_of(game_class("hearts"), "en")
    rich = ["The ", {"t": "card", "card": "KS"}, " is in the trick: drop the queen of spades, ",
            {"t": "card", "card": "QS"}, ", under it."]
    assert any("'queen of spades' named twice" in p for p in word_problems(hearts, rich))
    tod = labels_of(game_class("trick-of-the-dead"), "ja")
    doubled = ["クラブ", {"t": "card", "card": "9C"}, "を捨てます"]
    assert any("the suit said twice" in p for p in word_problems(tod, doubled))
    ko = labels_of(game_class("trick-of-the-dead"), "ko")
    assert word_problems(ko, ["낮은 카드 ", {"t": "card", "card": "9C"}, " 카드를 버립니다"])
    assert word_problems(hearts, ["The ", {"t": "card", "card": "KS"}, " is in the trick: drop your ",
                                  {"t": "card", "card": "QS"}, " under it."]) == []
