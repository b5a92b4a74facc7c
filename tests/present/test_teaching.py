"""The words that teach a newcomer: why a choice is refused, how the game is won, what each row of
a round summary is, the scoring written out, and who holds which role; and the audit that finds
any of them missing."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from torite.cards import card_str, iter_bits
from torite.engine.base import Refusal
from torite.engine.registry import game_class, game_ids, make_game
from torite.present import labels as L
from torite.present.hint import suggest
from torite.present.labels import files
from torite.testing import labels as testing_labels
from torite.testing.labels import audit, bot_reasons, raised_rules


def text(game: str, rich: Any, lang: str = "en") -> str:
    return L.load(game_class(game), lang).text(rich)


def test_a_refusal_is_said_in_the_players_words_with_its_suit_and_card() -> None:
    lab = L.load(game_class("mighty"), "en")
    assert lab.text(lab.reason_rich("follow", {"suit": "H"})) == "You must follow suit: you hold ♥."
    assert lab.text(lab.reason_rich("joker_leads_first_trick", {})) == "The joker may not be led to trick 1."
    assert lab.text(lab.reason_rich("trump_leads_first_trick", {"suit": "S"})) == \
        "Trumps (♠) may not be led to trick 1 unless you have nothing else."
    assert lab.text(lab.reason_rich("joker_called", {"card": "3C"})) == \
        "A joker call (♣3): you must play the joker."
    assert lab.text(lab.reason_rich("bid_higher", {"contract": "15 NT"})) == \
        "A bid must beat 15 no-trump (no-trump beats the same number in a suit)."
    ko = L.load(game_class("mighty"), "ko")
    assert ko.text(ko.reason_rich("contract_at_least", {"contract": "14 H", "level": 16, "cost": 2})) == \
        "14♥에서 이 기루다로 바꾸면 +2: 16 이상으로 하세요."
    # a rule without words says "not now", never its key
    assert lab.text(lab.reason_rich("no_such_rule", {})) == "That cannot be chosen now."


@pytest.mark.parametrize("game_id", game_ids())
def test_every_rule_a_game_can_refuse_by_has_its_words_in_every_language(game_id: str) -> None:
    game = make_game(game_id)
    rules = raised_rules(game)
    assert {"follow", "not_in_hand", "not_now", "not_your_turn", "game_over"} <= set(rules)
    for lang in L.languages(game):
        lab = L.load(game, lang)
        assert set(rules) <= set(lab.reasons), (lang, set(rules) - set(lab.reasons))


def test_the_way_to_win_follows_the_options() -> None:
    sec = L.load(game_class("seconds"), "en")
    assert "second-highest" in sec.text(sec.goal_rich({"winner": "second"}))
    assert "the highest total wins" in sec.text(sec.goal_rich({"winner": "highest"}))
    hearts = L.load(game_class("hearts"), "ja")
    assert hearts.text(hearts.goal_rich({"target": 100})) == "合計が100点に達したら、合計の最も低い人が勝ちです。"
    assert "失点の最も少ない" in hearts.text(hearts.goal_rich({"target": 0}))


def test_mightys_scoring_is_written_out_from_its_data() -> None:
    """Contract 14, 15 point cards, no-trump: 2·(14 − 13) + (15 − 14) = 3, doubled to 6."""
    lab = L.load(game_class("mighty"), "en")
    data = {"president": 0, "friend": 2, "contract": "14 NT", "party_points": 15, "made": True, "base": 3,
            "multipliers": ["no_trump"], "factor": 2, "amount": 6, "formula": "pagat", "minimum": 13}
    rows = [(k, lab.text(v)) for k, v in lab.explain_rich(data)]
    assert ("base score", "2·(14 − 13) + (15 − 14) = 3 (made)") in rows
    assert ("doublings", "3, no-trump ×2 = 6") in rows
    assert ("contract", "14 no-trump by seat 0, friend seat 2") in rows
    failed = dict((k, lab.text(v)) for k, v in lab.explain_rich({**data, "made": False, "party_points": 11,
                                                                  "base": 3, "multipliers": [], "friend": None}))
    assert failed["base score"] == "14 − 11 = 3 (failed)" and "doublings" not in failed
    assert failed["contract"] == "14 no-trump by seat 0, alone"


def test_roles_sit_on_the_seats_the_observation_names() -> None:
    lab = L.load(game_class("mighty"), "en")
    obs = {"num_players": 5, "seat": 1, "dealer": 3, "leader": 0, "phase": "play", "trick": [],
           "president": 0, "friend": 2}
    assert lab.roles(obs) == [["leads", "president"], [], ["friend"], ["dealer"], []]
    # a friend not known to the reader is null in its observation: no chip anywhere
    assert lab.roles({**obs, "friend": None, "trick": [{"seat": 0, "card": "AS"}]}) == \
        [["president"], [], [], ["dealer"], []]


@pytest.fixture
def hearts_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cls = game_class("hearts")
    src = L.game_folder(cls)
    for f in src.glob("labels.*.json"):
        shutil.copy(f, tmp_path / f.name)
    real = L.game_folder
    for module in (files, testing_labels):
        monkeypatch.setattr(module, "game_folder", lambda c: tmp_path if c is cls else real(c))
    return tmp_path


def test_the_audit_finds_a_missing_reason_goal_and_scoring_word(hearts_copy: Path) -> None:
    path = hearts_copy / "labels.ko.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["reasons"]["hearts_not_broken"]
    del data["goal"]
    del data["scoring"]["queen"]
    data["reasons"]["lead_two_clubs"] = "{suit|symbol}"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    problems = "\n".join(audit("hearts", seeds=1))
    assert "hearts [ko]: reasons.hearts_not_broken: missing" in problems
    assert "hearts [ko]: goal: missing" in problems
    assert "hearts [ko]: scoring.queen: missing" in problems
    assert "hearts [ko]: reasons.lead_two_clubs reads 'suit', which lead_two_clubs never carries" in problems
    assert "[en]" not in problems and "[ja]" not in problems


def test_a_refusal_the_state_gives_renders_in_every_language() -> None:
    game = make_game("hearts")
    state = game.new_state(3)
    while state.phase != "play":  # the passing
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()[0]
    hand = state.observation(seat)["hand"]
    other = next(c for c in hand if c != "2C")
    why = state.refusal(seat, game.parse_action(f"play {other}"))
    assert why == Refusal("lead_two_clubs")
    assert [text("hearts", L.load(game, lang).reason_rich(why.rule, why.data), lang) for lang in ("en", "ja", "ko")] \
        == ["The two of clubs leads the first trick.", "最初のトリックはクラブの2でリードします。",
            "첫 트릭은 클로버 2를 선으로 냅니다."]


@pytest.mark.parametrize("game_id", [g for g in game_ids() if bot_reasons(make_game(g))])
def test_the_rule_bot_says_why_at_every_decision_and_the_hint_reads_only_the_seats_view(game_id: str) -> None:
    """A hint is the normal bot's choice from the seat's observation and legal actions, with a
    reason the labels say in every language; the same view gives the same hint."""
    game = make_game(game_id)
    state = game.new_state(1, max_rounds=1)
    rng = random.Random(1)
    decisions = 0
    while not state.is_over() and decisions < 60:
        seat = state.to_act()[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        action, why = suggest(game, seat, obs, legal)
        assert action in legal and why is not None, (obs["phase"], action)
        assert suggest(game, seat, obs, legal) == (action, why)
        for lang in L.languages(game):
            assert L.load(game, lang).hint_rich(why.key, why.data), (lang, why)
        state.apply(seat, rng.choice(legal))
        decisions += 1


# ------------------------------------------------------------------ a hint's reason is true of its card
def _rank(card: str) -> int:
    return "23456789TJQKA".index("T" if card[:-1] == "10" else card[:-1])


@pytest.mark.parametrize("game_id", game_ids())
def test_a_hints_reason_is_true_of_the_card_it_names(game_id: str) -> None:
    """The rule bot's reasons, over games it plays itself: "lead low" names a card below a jack
    on a lead (never an ace or a king: "Lead low: the ace of clubs gives little away" was the
    mistake), "lowest" the lowest rank of the legal cards, "takes its points" a trick with some."""
    game = make_game(game_id)
    if not game.BOT or not type(game).__module__.startswith("torite.games."):
        return  # a test game's bot (the guide's example) says what it likes
    seen = 0
    for seed in range(3):
        state = game.new_state(seed, max_rounds=1)
        bot = game.rule_bot(0, random.Random(seed))
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            obs = state.observation(seat)
            bot.seat, bot.reason = seat, None
            action = bot.act(obs, legal)
            why = bot.reason
            card = why.data.get("card") if why is not None else None
            if why is not None and isinstance(card, str) and not card.startswith("JK"):
                cards = [x for a in legal if a.kind == action.kind and a.cards.bit_count() == 1
                         for x in [card_str(next(iter_bits(a.cards)))] if not x.startswith("JK")]
                if why.key == "lead_low":
                    assert not obs.get("trick") and _rank(card) < _rank("JS"), (game_id, why, obs.get("trick"))
                    seen += 1
                if why.key == "lowest":
                    assert all(_rank(card) <= _rank(x) for x in cards), (game_id, why, cards)
                    seen += 1
            if why is not None and why.key == "bury":  # it names a suit only when it buries one
                said = text(game_id, L.load(game, "en").hint_rich(why.key, why.data), "en")
                suits = {c[-1] for c in why.data["cards"]}
                assert ("club" in said) <= ("C" in suits) and ("spade" in said) <= ("S" in suits), (said, why)
                seen += 1
            if why is not None and why.key == "take_points":
                assert why.data["points"] > 0, (game_id, why)
            state.apply(seat, action)
    assert seen or game_id in ("umbridge", "seconds")
