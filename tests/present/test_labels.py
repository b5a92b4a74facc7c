"""Each game's words (labels.<lang>.json): complete in every language, same keys in en and ja,
the English of a fixed set of games reproduced, clear errors for broken files, the template
language itself, and its rich text: cards, suits and contracts as tokens, drawn in the compact
form and spelled out, counts in the plural form of the language."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from torite.engine.base import Action, Event, Game
from torite.engine.registry import game_class, game_ids, make_game
from torite.present import labels as L
from torite.present.labels import files
from torite.testing import labels as testing_labels
from torite.testing.labels import audit, choice_key, compare_languages

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
    assert audit(game_id, seeds=3) == []


@pytest.mark.parametrize(("game_id", "lang"), _game_langs())
def test_titles_options_and_phases_have_words(game_id: str, lang: str) -> None:
    cls = game_class(game_id)
    lab = L.load(cls, lang)
    assert lab.title.strip() and lab.data.get("summary")
    if lang == "en":
        assert lab.title == cls.title
    for spec in cls.OPTIONS:
        o = lab.data["options"][spec.name]
        assert o["label"].strip() and o["help"].strip()
        assert set(o.get("choices", {})) == {choice_key(c) for c in spec.choices or ()}


@pytest.mark.parametrize("game_id", game_ids())
def test_english_and_japanese_files_have_the_same_keys(game_id: str) -> None:
    assert compare_languages(game_class(game_id)) == []


def _replay(case: dict[str, Any]) -> tuple[Game, Any]:
    game = make_game(case["game"], case["options"])
    return game, game.new_state(case["seed"], max_rounds=case["max_rounds"])


@pytest.mark.parametrize("case", json.loads(GOLDEN.read_text(encoding="utf-8")),
                         ids=lambda c: f"{c['game']}-{c['seed']}")
def test_todays_english_is_reproduced(case: dict[str, Any]) -> None:
    """The status rows and log lines of these random games (records plus texts).  First captured
    from the rules modules' own code before the labels existed; written again when cards, suits
    and contracts stopped showing as notation (``10D`` became ``♦10``, ``[1, 2]`` ``1 / 2``, and
    counts took their plural: every other word stayed)."""
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


# ------------------------------------------------------------------ second person and names
def test_second_person_comes_from_the_data_and_names_replace_seat_numbers() -> None:
    game = make_game("trick-of-the-dead")
    play = Event("play", 1, {"card": "10D", "zombie": True})
    assert L.event_text(game, play) == "seat 1 plays the ♦10 (a zombie)"
    assert L.event_text(game, play, names=["Ann", "you"], you=1) == "you play the ♦10 (a zombie)"
    assert L.event_text(game, play, names=["Ann", "Bob"]) == "Bob plays the ♦10 (a zombie)"
    assert L.event_text(game, play, "ja", names=["Ann", "あなた"], you=1) == "あなたがゾンビの♦10を出しました"
    trick = Event("trick", 2, {"cards": ["KS", "7S", "7H"], "points": 1, "risen": "QD", "winner": 2})
    assert L.event_text(game, trick, you=2, names=[None, None, "you"]) == (
        "you win the trick (♠K ♠7 ♥7) for +1; a zombie rises: the ♦Q joins your hand")
    assert L.event_text(game, trick, names=["Ann", "Bob", "Cy"]) == (
        "Cy wins the trick (♠K ♠7 ♥7) for +1; a zombie rises: the ♦Q joins Cy's hand")
    round_ = Event("round", -1, {"round": 1, "dealer": 0})
    assert L.event_text(game, round_, you=0, names=["you"]) == "round 2: you deal"
    assert L.event_text(game, round_, you=1) == "round 2: seat 0 deals"
    assert L.event_text(game, round_, "ja") == "第2ラウンド：ディーラーは席0です"
    assert L.event_text(game, round_, "ko") == "2라운드: 딜러는 0번 자리입니다"
    assert L.event_text(game, play, "ko", names=["Ann", "나"], you=1) == "내가 좀비 ♦10을 냈습니다"
    # a particle after a Latin name keeps both forms (its reading is the name's own); after a card, one
    assert L.event_text(game, play, "ko", names=["Ann", "Bob"]) == "Bob이(가) 좀비 ♦10을 냈습니다"
    assert L.event_text(make_game("kaedama"), Event("kaedama_turn", 0, {"step": 1})) is None


def test_status_rows_conditions_value_maps_and_per_seat_lists() -> None:
    game = make_game("kaedama", {"blind": True})
    obs = game.new_state(3).observation(0)
    rows = dict(L.status(game, obs, "en"))
    assert rows["trump"].endswith(", somewhere in the stock)") and "kaedama" not in rows
    ja = dict(L.status(game, obs, "ja"))
    assert "山札のどこか" in ja["切り札"] and ja["捨て札"] == "なし"
    tod = make_game("trick-of-the-dead")
    obs = dict(tod.new_state(1).observation(0))
    obs["zombies"] = [["5S"], [], ["QH", "2C"]]
    obs["trump"], obs["trump_in_force"] = "S", None
    rows = dict(L.status(tod, obs, "en", names=["you", None, "Cy"]))
    assert rows["zombies"] == "you: ♠5; Cy: ♥Q ♣2"
    assert rows["trump"] == "none (♠ spades from the next trick)"
    assert dict(L.status(tod, obs, "ja"))["切り札"] == "なし（次のトリックから♠スペード）"


def test_action_buttons() -> None:
    tod = make_game("trick-of-the-dead")
    assert L.action_text(tod, Action.parse("trump S")) == "Trump: ♠ spades"
    assert L.action_text(tod, Action.parse("call H"), "ja") == "♥ハートを指定"
    assert L.action_text(tod, Action.parse("bury QC KC")) == "Bury ♣Q ♣K"
    assert L.action_text(tod, Action.parse("bury QC KC"), "ja") == "♣Q ♣Kを埋葬"
    assert L.action_text(tod, Action.parse("play 10D"), "ja") == "♦10を出す"
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
    for module in (files, testing_labels):  # where the loader and the audit look it up
        monkeypatch.setattr(module, "game_folder", lambda c: tmp_path if c is cls else real(c))
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
    (lambda d: d["phases"]["play"].update(name="{seat}"), "plain text, no placeholders"),
    (lambda d: d["phases"]["play"].update(prompt="{seat|shout}"), "unknown formatter 'shout' in {seat|shout}"),
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
    problems = "\n".join(audit("kaedama", seeds=1))
    assert "[ja]: tags.face_down: missing" in problems
    assert "[ja]: events.replace: missing" in problems
    assert "[ja]: options.trump_card.choices: no words for 'top'" in problems
    assert "reads 'nonsense', which never occurs" in problems
    assert "[en]" not in problems
    assert "labels.ja.json: lacks tags.face_down" in "\n".join(compare_languages(game_class("kaedama")))


@pytest.mark.parametrize(("game_id", "lang"), _game_langs())
def test_every_counter_has_words(game_id: str, lang: str) -> None:
    """``simulate`` and the ``compare`` report print a counter by its words, never its key."""
    cls = game_class(game_id)
    lab = L.load(cls, lang)
    assert cls.STAT_KEYS, "a game counts its rules' occasions"
    for key in cls.STAT_KEYS:
        assert lab.data["stats"].get(key, "").strip(), key
    if lang != "en":  # a translation, not the key copied
        assert not {lab.stat_label(k) for k in cls.STAT_KEYS} & set(cls.STAT_KEYS)


def test_a_counter_without_words_is_found_by_the_audit(kaedama_copy: Path) -> None:
    _edit(kaedama_copy / "labels.ko.json", lambda d: d["stats"].pop("reversals"))
    _edit(kaedama_copy / "labels.ja.json", lambda d: d["stats"].update(reversals=" "))
    problems = audit("kaedama", seeds=1)
    assert "kaedama [ko]: stats.reversals: no words for the counter" in problems
    assert "kaedama [ja]: stats.reversals: no words for the counter" in problems
    assert not [x for x in problems if "[en]" in x]
    assert L.load(game_class("kaedama"), "ko").stat_label("reversals") == "reversals"  # the key, as a last resort


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
    assert probe(n=3, xs=["5S", None], ys=["KD"], mode="a", s="H") == "♠5 ?? / ♠5 ?? ♦K / 5S /  / ♥♥ hearts"
    assert probe(n=3, xs=[1, 2], mode="b", who=0, m="top", e="", flag=True) == (
        "Ann on top of the stock none yes [1, 2]")
    with pytest.raises(L.LabelError, match="map 'turned_at' has no entry for 'nowhere'"):
        probe(n=3, xs=[], mode="b", who=0, m="nowhere", e="", flag=False)


# ------------------------------------------------------------------ rich text: cards, suits, contracts
def test_cards_suits_and_contracts_are_tokens_a_face_draws_its_own_way() -> None:
    """A placeholder's card, suit or contract is a token, never text: the compact form shows the
    suit symbol then the rank, the spoken form spells it out in the language's order."""
    mighty = make_game("mighty")
    ko = L.load(mighty, "ko")
    rich = ko.action_rich(Action.parse("bid 14 NT"))
    assert rich == [{"t": "contract", "level": 14, "denom": "NT"}, " 공약"]
    # in words, a bid is said in the players' order: 노기루다 14, 스페이드 15 (the symbol keeps 15♠)
    assert ko.text(rich) == "노기루다 14 공약"
    assert ko.action_text(Action.parse("bid 15 S")) == "15♠ 공약"
    assert ko.action_text(Action.parse("bid 15 S"), spoken=True) == "스페이드 15 공약"
    assert L.load(mighty, "en").action_text(Action.parse("bid 14 NT")) == "Bid 14 no-trump"
    assert L.load(mighty, "ja").action_text(Action.parse("bid 14 NT")) == "14ノートランプを入札"
    umbridge = L.load(make_game("umbridge"), "en")
    assert umbridge.action_text(Action.parse("bid 3 NT")) == "Bid 3NT"  # an abbreviation attaches
    assert umbridge.action_text(Action.parse("bid 2 H")) == "Bid 2♥"
    for lang, compact, spoken in (("en", "♠A ♥10 ??", "ace of spades, 10 of hearts, a face-down card"),
                                  ("ja", "♠A ♥10 ??", "スペードのA、ハートの10、裏向きのカード"),
                                  ("ko", "♠A ♥10 ??", "스페이드 A, 하트 10, 뒷면 카드")):
        lab = L.load(mighty, lang)
        tok = {"t": "cards", "cards": ["AS", "10H", None]}
        assert (lab.text([tok]), lab.text([tok], spoken=True)) == (compact, spoken)
    tod = L.load(make_game("trick-of-the-dead"), "en")
    assert tod.card_text("JK2") == "Joker 2" and tod.card_text("KC", spoken=True) == "king of clubs"
    # Mighty has one joker: its word alone, in every language
    assert [L.load(mighty, x).card_text("JK") for x in ("en", "ja", "ko")] == ["Joker", "ジョーカー", "조커"]
    assert tod.text([{"t": "suit", "suit": "H", "word": True}, " / ", {"t": "suit", "suit": "H", "word": False}]) \
        == "♥ hearts / ♥"
    assert L.load(make_game("trick-of-the-dead"), "ja").action_text(Action.parse("trump C")) == "切り札：♣クラブ"


def test_a_letter_in_the_templates_own_words_stays_a_letter() -> None:
    """Mighty's formula names its amount S: the template's own letter is text, not a suit (the
    old table guessed a ♠ there); only a placeholder's value can be a suit."""
    game = make_game("mighty")
    end = Event("round_end", -1, {"made": True, "alone": False, "contract": "14 H", "party_points": 15,
                                  "base": 3, "factor": 2, "amount": 6, "points": [12, 6, -6, -6, -6]})
    rich = L.load(game, "en").event_rich(end)
    assert rich is not None and {"t": "contract", "level": 14, "denom": "H"} in rich
    assert not [p for p in rich if isinstance(p, dict) and p["t"] == "suit"]
    assert L.event_text(game, end) == ("contract 14♥ made with 15 point cards: S = 3 × 2 = 6; "
                                       "12 / 6 / -6 / -6 / -6")


def test_counts_take_the_plural_form_of_the_language() -> None:
    """Babel's CLDR rules pick the form: English "1 point card" and "2 point cards", one form in
    Japanese and Korean."""
    game = make_game("mighty")
    one = Event("trick", 2, {"cards": ["AS", "2S", "3S", "4S", "5S"], "points": 1})
    two = Event("trick", 2, {"cards": ["AS", "KS", "3S", "4S", "5S"], "points": 2})
    assert L.event_text(game, one).endswith("with 1 point card")
    assert L.event_text(game, two).endswith("with 2 point cards")
    assert L.event_text(game, one, "ja").endswith("得点札1枚")
    assert L.event_text(game, two, "ko").endswith("점수 카드 2장")
    assert L.plural_category("en", 1) == "one" and L.plural_category("en", 0) == "other"
    assert L.plural_categories("ja") == {"other"}
    tod = make_game("trick-of-the-dead")
    obs = dict(tod.new_state(1).observation(0))
    assert dict(L.status(tod, {**obs, "graveyard_size": 1}, "en"))["graveyard"] == "1 card"


def test_korean_counts_deals_in_native_ordinals() -> None:
    """두 번째 판, not 2번째 판; past twenty the digits, as Korean writes them."""
    game = make_game("mighty")
    def deal(n: int, you: int | None = None) -> str | None:
        return L.event_text(game, Event("round", -1, {"round": n, "dealer": 3}), "ko", you=you)

    assert deal(1) == "두 번째 판: 딜러는 3번 자리입니다" and deal(0, you=3) == "첫 번째 판: 내가 딜러입니다"
    assert str(deal(24)).startswith("25번째 판")
    assert [L.load(game, "en").ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1st", "2nd", "3rd", "4th", "11th", "21st"]


def test_placeholder_output_stays_a_part_of_its_own() -> None:
    """Literal words and each value are separate parts, so a check (and a face) can tell them apart."""
    lab = L.load(make_game("kaedama"), "en")
    rich = lab.event_rich(Event("replace", 1, {"out": "5S", "drawn": None, "stock_size": 3}))
    assert rich == ["seat 1", " replaces the ", {"t": "card", "card": "5S"}, " with a card from the stock, face down (",
                    "3 cards", " left)"]


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(plurals={"card": {"one": "{n}枚", "other": "{n}枚"}}),
     "plurals.card: the forms of 'ja' are other (CLDR), not one, other"),
    (lambda d: d["events"].update(trick="{points|plural:nope}"), "uses plural 'nope'"),
    (lambda d: d["events"].update(trick="{points|by_seat:seats}"), "the argument is one of card"),
])
def test_a_broken_plural_or_formatter_argument_is_refused(kaedama_copy: Path, edit: Any, message: str) -> None:
    _edit(kaedama_copy / "labels.ja.json", edit)
    with pytest.raises(L.LabelError) as err:
        L.load(game_class("kaedama"), "ja")
    assert message in str(err.value) and "labels.ja.json" in str(err.value)


def test_a_card_suit_or_contract_formatter_refuses_what_is_not_one(kaedama_copy: Path) -> None:
    """A template that puts the wrong key through a formatter fails loudly (the audit finds it)."""
    _edit(kaedama_copy / "labels.en.json", lambda d: d["events"].update(
        pass_="x", reveal="{out|card}", trump="{suit|contract}"))
    game = make_game("kaedama")
    with pytest.raises(L.LabelError, match=r"events.reveal: \{out\|card\}: not a card"):
        L.event_text(game, Event("reveal", -1, {"revealed": [], "out": "turned", "trick": []}))
    with pytest.raises(L.LabelError, match="not a contract: 'H'"):
        L.event_text(game, Event("trump", -1, {"card": "5H", "suit": "H"}))
