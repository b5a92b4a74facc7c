"""Each game's words (labels.<lang>.json): complete in every language, same keys in en and ja,
today's English reproduced, clear errors for broken files, and the template language itself."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from torite.engine import labels as L
from torite.engine.base import Action, Event, Game
from torite.engine.registry import game_class, game_ids, make_game

GOLDEN = Path(__file__).with_name("labels_golden_en.json")


def _game_langs() -> list[tuple[str, str]]:
    return [(g, lang) for g in game_ids() for lang in L.languages(game_class(g))]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_ships_english_japanese_and_korean(game_id: str) -> None:
    """Korean came with Mighty as the third language of the whole table: a game without it would
    show English words to a Korean player."""
    assert {"en", "ja", "ko"} <= set(L.languages(game_class(game_id)))


@pytest.mark.parametrize("game_id", game_ids())
def test_labels_are_complete_and_every_template_renders(game_id: str) -> None:
    """Every option and choice, and every phase, action kind, event kind and trick flag met in
    random games (every option variant) has its words in every language; every template renders
    on what those games produce and reads only keys that occur."""
    assert L.audit(game_id, seeds=3) == []


@pytest.mark.parametrize(("game_id", "lang"), _game_langs())
def test_titles_options_and_phases_have_words(game_id: str, lang: str) -> None:
    cls = game_class(game_id)
    lab = cls.labels(lang)
    assert lab.title.strip() and lab.data.get("summary")
    if lang == "en":
        assert lab.title == cls.title
    for spec in cls.OPTIONS:
        o = lab.data["options"][spec.name]
        assert o["label"].strip() and o["help"].strip()
        assert set(o.get("choices", {})) == {L.choice_key(c) for c in spec.choices or ()}


@pytest.mark.parametrize("game_id", game_ids())
def test_english_and_japanese_files_have_the_same_keys(game_id: str) -> None:
    assert L.compare_languages(game_class(game_id)) == []


def _replay(case: dict[str, Any]) -> tuple[Game, Any]:
    game = make_game(case["game"], case["options"])
    return game, game.new_state(case["seed"], max_rounds=case["max_rounds"])


@pytest.mark.parametrize("case", json.loads(GOLDEN.read_text(encoding="utf-8")),
                         ids=lambda c: f"{c['game']}-{c['seed']}")
def test_todays_english_is_reproduced(case: dict[str, Any]) -> None:
    """The status rows and log lines the rules modules wrote in code before the labels existed
    (captured from that code over these random games, as records plus texts), now from the labels."""
    game, state = _replay(case)
    table = case["status_rows"]
    checks = case["status"]
    assert len(checks) == len(case["actions"]) + 1
    for k, check in enumerate(checks):
        assert check["after"] == k
        expected = [tuple(table[i]) for i in check["rows"]]
        assert L.status(game, state.observation(check["seat"]), "en") == expected, f"after {k} actions"
        if k < len(case["actions"]):
            seat, text = case["actions"][k]
            state.apply_text(seat, text)
    assert state.is_over()
    assert [L.event_text(game, e, "en") for e in state.events] == case["events"]


def test_game_methods_default_to_the_labels() -> None:
    game = make_game("kaedama")
    state = game.new_state(4)
    obs = state.observation(1)
    assert Game.status(game, obs, lang="ja") == L.status(game, obs, "ja")
    e = state.events[0]
    assert Game.event_text(game, e, lang="ja", names=["A", "B", "C"]) == L.event_text(game, e, "ja", ["A", "B", "C"])
    assert game_class("kaedama").labels("ja").title == "替え玉トリック"


# ------------------------------------------------------------------ second person and names
def test_second_person_comes_from_the_data_and_names_replace_seat_numbers() -> None:
    game = make_game("trick-of-the-dead")
    play = Event("play", 1, {"card": "10D", "zombie": True})
    assert L.event_text(game, play) == "seat 1 plays 10D (zombie)"
    assert L.event_text(game, play, names=["Ann", "you"], you=1) == "you play 10D (zombie)"
    assert L.event_text(game, play, names=["Ann", "Bob"]) == "Bob plays 10D (zombie)"
    assert L.event_text(game, play, "ja", names=["Ann", "あなた"], you=1) == "あなたがゾンビの10Dを出しました"
    trick = Event("trick", 2, {"cards": ["KS", "7S", "7H"], "points": 1, "risen": "QD", "winner": 2})
    assert L.event_text(game, trick, you=2, names=[None, None, "you"]) == (
        "you win the trick (KS 7S 7H) for +1; a zombie rises: QD joins your hand")
    assert L.event_text(game, trick, names=["Ann", "Bob", "Cy"]) == (
        "Cy wins the trick (KS 7S 7H) for +1; a zombie rises: QD joins Cy's hand")
    round_ = Event("round", -1, {"round": 1, "dealer": 0})
    assert L.event_text(game, round_, you=0, names=["you"]) == "round 2: you deal"
    assert L.event_text(game, round_, you=1) == "round 2: seat 0 deals"
    assert L.event_text(game, round_, "ja") == "第2ラウンド：ディーラーは席0です"
    assert L.event_text(game, round_, "ko") == "2라운드: 딜러는 0번 자리입니다"
    assert L.event_text(game, play, "ko", names=["Ann", "나"], you=1) == "나: 좀비 10D 냄"
    assert L.event_text(make_game("kaedama"), Event("kaedama_turn", 0, {"step": 1})) is None


def test_status_rows_conditions_value_maps_and_per_seat_lists() -> None:
    game = make_game("kaedama", {"blind": True})
    obs = game.new_state(3).observation(0)
    rows = dict(L.status(game, obs, "en"))
    assert rows["trump"].endswith(", somewhere in the stock)") and "kaedama" not in rows
    ja = dict(L.status(game, obs, "ja"))
    assert "山札のどこか" in ja["切り札"] and ja["除外されたカード"] == "なし"
    tod = make_game("trick-of-the-dead")
    obs = dict(tod.new_state(1).observation(0))
    obs["zombies"] = [["5S"], [], ["QH", "2C"]]
    obs["trump"], obs["trump_in_force"] = "S", None
    rows = dict(L.status(tod, obs, "en", names=["you", None, "Cy"]))
    assert rows["zombies"] == "you: 5S; Cy: QH 2C"
    assert rows["trump"] == "none (S from the next trick)"
    assert dict(L.status(tod, obs, "ja"))["切り札"] == "なし（次のトリックから♠スペード）"


def test_action_buttons() -> None:
    tod = make_game("trick-of-the-dead")
    assert L.action_text(tod, Action.parse("trump S")) == "Trump: ♠ spades"
    assert L.action_text(tod, Action.parse("call H"), "ja") == "♥ハートを指定"
    assert L.action_text(tod, Action.parse("bury QC KC")) == "Bury QC KC"
    assert L.action_text(tod, Action.parse("play 10D"), "ja") == "10Dを出す"
    assert L.action_text(make_game("kaedama"), Action.parse("pass"), "ja") == "見送る"
    assert L.action_text(tod, Action.parse("frobnicate 2C")) == "frobnicate 2C"  # no words: the notation


# ------------------------------------------------------------------ broken files
@pytest.fixture
def kaedama_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Kaedama's labels in a folder of our own, which the loader then reads instead."""
    cls = game_class("kaedama")
    src = L.game_folder(cls)
    for f in src.glob("labels.*.json"):
        shutil.copy(f, tmp_path / f.name)
    real = L.game_folder
    monkeypatch.setattr(L, "game_folder", lambda c: tmp_path if c is cls else real(c))
    return tmp_path


def _edit(path: Path, fn: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(colour="red"), "unknown section(s) colour"),
    (lambda d: d.pop("title"), "title: a game's labels need a title"),
    (lambda d: d["options"]["blind"].pop("help"), "options.blind: expected"),
    (lambda d: d["events"].update(pass_="{player passes"), "unmatched '{'"),
    (lambda d: d["events"].update(trump="{card|shout}"), "unknown formatter 'shout'"),
    (lambda d: d["status"][0].update(value="{trump_card_at|map:where}"), "uses map 'where'"),
    (lambda d: d["status"][0].update({"if": "phase ~ 'x'"}), "bad condition"),
    (lambda d: d["status"][0].update({"if": "phase == x y"}), "bad operand"),
    (lambda d: d["events"].update(trick=[]), "empty list of variants"),
    (lambda d: d["actions"]["replace"].update(button={"text": "x", "you": "y"}), "for event texts only"),
    (lambda d: d["phases"]["play"].update(prompt="{seat}"), "plain text, no placeholders"),
])
def test_a_broken_file_is_refused_naming_the_file_and_the_key(kaedama_copy: Path, edit: Any, message: str) -> None:
    _edit(kaedama_copy / "labels.ja.json", edit)
    with pytest.raises(L.LabelError) as err:
        L.load(game_class("kaedama"), "ja")
    assert message in str(err.value) and "labels.ja.json" in str(err.value)


def test_a_missing_language_or_bad_json_is_a_clear_error(kaedama_copy: Path) -> None:
    with pytest.raises(L.LabelError, match="no 'fr' labels"):
        L.load(game_class("kaedama"), "fr")
    (kaedama_copy / "labels.ja.json").write_text("{", encoding="utf-8")
    with pytest.raises(L.LabelError, match=r"labels\.ja\.json: not valid JSON"):
        L.load(game_class("kaedama"), "ja")


def test_a_template_reading_a_missing_key_names_file_entry_and_key(kaedama_copy: Path) -> None:
    _edit(kaedama_copy / "labels.en.json", lambda d: d["events"].update(pass_="x", reveal="{revealed} {hidden}"))
    with pytest.raises(L.LabelError, match=r"labels.en.json: events.reveal: \{hidden\} reads 'hidden'"):
        L.event_text(make_game("kaedama"), Event("reveal", -1, {"revealed": ["5S"], "out": [], "trick": []}))


def test_the_audit_finds_what_is_missing(kaedama_copy: Path) -> None:
    def strip(d: dict[str, Any]) -> None:
        del d["tags"]["face_down"]
        del d["events"]["replace"]
        del d["options"]["trump_card"]["choices"]["top"]
        d["status"].append({"label": "x", "value": "{nonsense}"})
    _edit(kaedama_copy / "labels.ja.json", strip)
    problems = "\n".join(L.audit("kaedama", seeds=1))
    assert "[ja]: tags.face_down: missing" in problems
    assert "[ja]: events.replace: missing" in problems
    assert "[ja]: options.trump_card.choices: no words for 'top'" in problems
    assert "reads 'nonsense', which never occurs" in problems
    assert "[en]" not in problems
    assert "labels.ja.json: lacks tags.face_down" in "\n".join(L.compare_languages(game_class("kaedama")))


@pytest.mark.parametrize(("game_id", "lang"), _game_langs())
def test_every_counter_has_words(game_id: str, lang: str) -> None:
    """``simulate`` and the ``compare`` report print a counter by its words, never its key."""
    cls = game_class(game_id)
    lab = cls.labels(lang)
    assert cls.STAT_KEYS, "a game counts its rules' occasions"
    for key in cls.STAT_KEYS:
        assert lab.data["stats"].get(key, "").strip(), key
    if lang != "en":  # a translation, not the key copied
        assert not {lab.stat_label(k) for k in cls.STAT_KEYS} & set(cls.STAT_KEYS)


def test_a_counter_without_words_is_found_by_the_audit(kaedama_copy: Path) -> None:
    _edit(kaedama_copy / "labels.ko.json", lambda d: d["stats"].pop("reversals"))
    _edit(kaedama_copy / "labels.ja.json", lambda d: d["stats"].update(reversals=" "))
    problems = L.audit("kaedama", seeds=1)
    assert "kaedama [ko]: stats.reversals: no words for the counter" in problems
    assert "kaedama [ja]: stats.reversals: no words for the counter" in problems
    assert not [x for x in problems if "[en]" in x]
    assert game_class("kaedama").labels("ko").stat_label("reversals") == "reversals"  # the key, as a last resort


# ------------------------------------------------------------------ the template language
def test_formatters_and_conditions(kaedama_copy: Path) -> None:
    def add(d: dict[str, Any]) -> None:
        d["events"]["probe"] = [
            {"if": "n == 0 & !xs", "text": "zero {{braces}} {n|signed} {n|plus1} {xs|count}"},
            {"if": "mode == 'a' & n != none_key",
             "text": "{xs|cards} / {xs+ys|cards} / {xs|seats} / {s|symbol}{s|suit}"},
            {"text": "{who|player} {m|map:turned_at} {e|or:none} {flag} {xs}"},
        ]
    _edit(kaedama_copy / "labels.en.json", add)
    game = make_game("kaedama")

    def probe(**data: Any) -> str | None:
        return L.event_text(game, Event("probe", -1, data), names=["Ann"])

    assert probe(n=0, xs=[]) == "zero {braces} +0 1 0"
    assert probe(n=3, xs=["5S", None], ys=["KD"], mode="a", s="H") == "5S ?? / 5S ?? KD / 5S /  / ♥hearts"
    assert probe(n=3, xs=[1, 2], mode="b", who=0, m="top", e="", flag=True) == (
        "Ann on top of the stock none yes [1, 2]")
    with pytest.raises(L.LabelError, match="map 'turned_at' has no entry for 'nowhere'"):
        probe(n=3, xs=[], mode="b", who=0, m="nowhere", e="", flag=False)
