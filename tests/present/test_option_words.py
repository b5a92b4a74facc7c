"""Every explanation whose content depends on an option says what the option in force makes
true: each glossary entry, the goal and the rule bot's hint reasons, rendered under each value
of each option that changes them, in every language.

``FACTS`` names, per game and option, the explanations a value changes and, for each value and
language, words the explanation must hold under that value; the words of every other value of
the option must not appear in any of the game's explanations under it (the glossary that said
"a trick it wins counts double" where only its diamonds double, ruling Z1, is the mistake this
test is for).  An option a newcomer's explanation mentions belongs here.
"""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from torite.engine import game_class, make_game
from torite.present.labels import LabelError, Labels, languages, load
from torite.present.labels.files import COMMON_DIR, _load

#: game -> option -> {"about": explanations the value changes ("glossary.<term>", "goal",
#: "hints.<key>"), value: {lang: (words it must hold, words no explanation may hold)}}
FACTS: dict[str, dict[str, dict[Any, Any]]] = {
    "trick-of-the-dead": {"zombie_doubles": {
        "about": ["glossary.zombie"],
        "diamonds": {"en": ("its diamonds double", ["whole trick", "counts double"]),
                     "ja": ("ダイヤの得点が2倍", ["トリック全体", "トリックは2倍"]),
                     "ko": ("다이아몬드 점수가 2배", ["트릭 전체", "트릭은 2배"])},
        "trick": {"en": ("the whole trick double", ["its diamonds double"]),
                  "ja": ("トリック全体の得点が2倍", ["ダイヤの得点が2倍"]),
                  "ko": ("트릭 전체의 점수가 2배", ["다이아몬드 점수가 2배"])},
    }},
    "kaedama": {"reverse": {
        "about": ["glossary.kaedama"],
        False: {"en": ("your losing card", ["even while winning"]),
                "ja": ("負けているカード", ["勝っていても"]),
                "ko": ("지고 있는 카드", ["이기고 있어도"])},
        True: {"en": ("even while winning", ["your losing card"]),
               "ja": ("勝っていても", ["負けているカードを"]),
               "ko": ("이기고 있어도", ["지고 있는 카드를"])},
    }},
    "hearts": {"target": {
        "about": ["goal"],
        0: {"en": ("One deal", ["reaches"]), "ja": ("1ディール", ["達したら"]), "ko": ("한 딜", ["이르면"])},
        100: {"en": ("reaches 100", ["One deal"]), "ja": ("100点に達したら", ["1ディール"]),
              "ko": ("100점에 이르면", ["한 딜"])},
    }},
    "seconds": {"winner": {
        "about": ["goal"],
        "second": {"en": ("second-highest total", ["the highest total wins"]), "ja": ("2番目に高い人", ["最も高い人"]),
                   "ko": ("두 번째로 높은 사람", ["가장 높은 사람"])},
        "highest": {"en": ("the highest total", ["second-highest total"]), "ja": ("最も高い人", ["2番目に高い人"]),
                    "ko": ("가장 높은 사람", ["두 번째로 높은 사람"])},
    }},
    "umbridge": {"scoring": {
        "about": ["goal"],
        "rubber": {"en": ("two games", ["four deals"]), "ja": ("2ゲーム", ["4ディール"]), "ko": ("두 게임", ["네 딜"])},
        "chicago": {"en": ("four deals", ["two games"]), "ja": ("4ディール", ["2ゲーム"]),
                    "ko": ("네 딜", ["두 게임"])},
    }},
}


def _values(game_id: str, option: str) -> list[Any]:
    spec = next(s for s in game_class(game_id).OPTIONS if s.name == option)
    return list(spec.choices) if spec.choices is not None else [False, True]


def _hints(game_id: str, options: Mapping[str, Any], lab: Labels, seeds: int = 2) -> dict[str, str]:
    """The rule bot's reasons over a few random games under the options, rendered (one per key)."""
    game = make_game(game_id, dict(options))
    out: dict[str, str] = {}
    if not game.BOT:
        return out
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_state(seed, max_rounds=1)
        bot = game.rule_bot(0, random.Random(seed))
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            bot.seat, bot.reason = seat, None
            bot.act(state.observation(seat), legal)
            if bot.reason is not None and bot.reason.key not in out:
                rich = lab.hint_rich(bot.reason.key, bot.reason.data)
                if rich is not None:
                    out[bot.reason.key] = lab.text(rich)
            state.apply(seat, rng.choice(legal))
    return out


def explanations(game_id: str, options: Mapping[str, Any], lang: str, *, hints: bool = True) -> dict[str, str]:
    """Every option-dependent explanation of a game under the options, in one language: its
    glossary entries, its goal and (with ``hints``) its rule bot's reasons."""
    game = make_game(game_id, dict(options))
    lab = load(game, lang)
    out = {f"glossary.{k}": v for k, v in lab.glossary(game.options).items()}
    goal = lab.goal_rich(game.options)
    if goal is not None:
        out["goal"] = lab.text(goal)
    if hints:
        out |= {f"hints.{k}": v for k, v in _hints(game_id, game.options, lab).items()}
    return out


def contradictions(game_id: str, option: str, value: Any, lang: str, texts: Mapping[str, str]) -> list[str]:
    facts = FACTS[game_id][option]
    must, _ = facts[value][lang]
    out = [f"{where} under {option} = {value!r} does not say {must!r}: {texts.get(where)!r}"
           for where in facts["about"] if must not in texts.get(where, "")]
    for other in _values(game_id, option):
        if other == value:
            continue
        for bad in facts[value][lang][1]:
            out += [f"{where} under {option} = {value!r} says {bad!r}: {text!r}"
                    for where, text in texts.items() if bad in text]
    return out


CASES = [(g, o, v, lang) for g, opts in FACTS.items() for o in opts for v in _values(g, o)
         for lang in languages(game_class(g))]


@pytest.mark.parametrize(("game_id", "option", "value", "lang"), CASES)
def test_each_explanation_follows_the_option_in_force(game_id: str, option: str, value: Any, lang: str) -> None:
    texts = explanations(game_id, {option: value}, lang)
    assert contradictions(game_id, option, value, lang, texts) == []


def test_the_facts_cover_every_value_and_language() -> None:
    for game_id, options in FACTS.items():
        for option, facts in options.items():
            assert set(facts) - {"about"} == set(_values(game_id, option)), (game_id, option)
            for value in _values(game_id, option):
                assert set(facts[value]) == set(languages(game_class(game_id))), (game_id, option, value)


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_the_z1_mistake_is_found(lang: str) -> None:
    """The glossary line that taught the wrong game ("a trick it wins counts double" under the
    default, where only its diamonds double) fails, in every language it was written in."""
    old = {"en": "zombie: a card risen from the graveyard into the hand of the trick's winner; it plays as a "
                 "normal card, and a trick it wins counts double",
           "ja": "ゾンビ：墓地からよみがえり、トリックの勝者の手札に入ったカード。"
                 "普通に出せて、ゾンビで取ったトリックは2倍になります",
           "ko": "좀비: 묘지에서 되살아나 트릭 승자의 손패에 들어간 카드. "
                 "보통 카드처럼 낼 수 있고, 좀비로 이긴 트릭은 2배가 됩니다"}
    texts = {**explanations("trick-of-the-dead", {}, lang, hints=False), "glossary.zombie": old[lang]}
    assert contradictions("trick-of-the-dead", "zombie_doubles", "diamonds", lang, texts)
    assert contradictions("trick-of-the-dead", "zombie_doubles", "diamonds", lang,
                          explanations("trick-of-the-dead", {}, lang, hints=False)) == []


#: game -> house rule -> (the explanation that states its number, value -> {lang: the words it
#: must hold under that value}); the default's words must not appear under another value
HOUSE_FACTS: dict[str, dict[str, tuple[str, dict[int, dict[str, str]]]]] = {
    "kaedama": {"reversal_points": ("glossary.reversal", {
        2: {"en": "scores 2 instead of 1", "ja": "1点ではなく2点", "ko": "1점이 아니라 2점"},
        4: {"en": "scores 4 instead of 1", "ja": "1点ではなく4点", "ko": "1점이 아니라 4점"},
        1: {"en": "scores 1, as any trick", "ja": "同じ1点", "ko": "같이 1점"},
    })},
}

HOUSE_CASES = [(g, rule, v, lang) for g, rules in HOUSE_FACTS.items() for rule, (_, values) in rules.items()
               for v in values for lang in languages(game_class(g))]


@pytest.mark.parametrize(("game_id", "rule", "value", "lang"), HOUSE_CASES)
def test_an_explanation_states_the_number_a_house_rule_sets(game_id: str, rule: str, value: int, lang: str) -> None:
    """The glossary said a reversal scores 2 whatever the table's ``reversal_points``: it says
    the value in force, and none of the other values' words."""
    where, values = HOUSE_FACTS[game_id][rule]
    texts = explanations(game_id, {rule: value}, lang, hints=False)
    assert values[value][lang] in texts.get(where, ""), (where, texts.get(where))
    for other, words in values.items():
        if other != value:
            assert words[lang] not in texts.get(where, ""), (where, other, texts.get(where))


def test_a_glossary_text_takes_only_the_games_options() -> None:
    """``{name}`` in a glossary text must name an option of the game (a typo would show braces)."""
    data = json.loads((Path(load(make_game("kaedama"), "en").files[-1])).read_text("utf-8"))
    data["maps"]["glossary"]["reversal"] = "reversal: it scores {reversal_pionts}"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "labels.en.json"
        path.write_text(json.dumps(data), "utf-8")
        with pytest.raises(LabelError, match="reversal_pionts"):
            _load("kaedama", "Kaedama", "en", str(COMMON_DIR / "labels.en.json"), str(path))
