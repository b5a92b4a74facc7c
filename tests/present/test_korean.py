"""Korean particles follow the sound before them (``present/labels/korean.py``): 카드를 but
카드10을, 자리가 but 조커 1이; what cannot be read (a name in Latin letters) keeps both forms.
The cases are shared with the web table's copy of the rules (tests/web/test_browser.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torite.cli.terminal import WORDS, read_action
from torite.engine.base import Event, IllegalAction
from torite.engine.registry import make_game
from torite.present import labels as L
from torite.present.labels import korean

CASES = json.loads(Path(__file__).with_name("particles.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize(("written", "shown"), CASES, ids=[c[1] for c in CASES])
def test_each_particle_takes_the_form_of_the_sound_before_it(written: str, shown: str) -> None:
    assert korean.finish(written) == shown


def test_every_dual_form_has_its_two_forms_and_ㄹ_takes_ro() -> None:
    """(으)로 alone of the five follows ㄹ like a vowel (물로, not 물으로); the others follow it
    like any consonant (물이, 물을)."""
    assert [korean.particle(d, "rieul") for d in korean.FORMS] == ["이", "을", "은", "과", "로"]
    assert [korean.particle(d, "vowel") for d in korean.FORMS] == ["가", "를", "는", "와", "로"]
    assert [korean.particle(d, "consonant") for d in korean.FORMS] == ["이", "을", "은", "과", "으로"]
    assert [korean.particle(d, None) for d in korean.FORMS] == list(korean.FORMS)


def test_a_rendered_event_reads_the_card_token_before_its_particle() -> None:
    """The card is a token in the rich text (drawn by each face): the particle after it follows
    its spoken name, 스페이드 A (에이: a vowel), 하트 10 (십: a consonant)."""
    game = make_game("trick-of-the-dead")
    ko = L.load(game, "ko")
    ace = ko.event_rich(Event("play", 1, {"card": "AS", "zombie": False}))
    assert ace is not None and ko.text(ace) == "1번 자리가 ♠A를 냈습니다"
    assert {"t": "card", "card": "AS"} in ace  # still a token, drawn by the face
    ten = L.event_text(game, Event("play", 0, {"card": "10H", "zombie": False}), "ko")
    assert ten == "0번 자리가 ♥10을 냈습니다"
    assert L.event_text(game, Event("play", 0, {"card": "10H", "zombie": False}), "ja") == "席0が♥10を出しました"


def test_the_terminal_refuses_a_choice_with_the_particle_its_words_take() -> None:
    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=3)
    while not all(a.kind == "play" for a in state.legal_actions(state.to_act()[0])):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    playable = {game.action_text(a) for a in legal}
    card_not_played = next(c for c in ("AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH") if f"play {c}" not in playable)
    with pytest.raises(IllegalAction) as e:
        read_action(card_not_played, legal, game, WORDS["ko"], L.load(game, "ko"), state, seat)
    assert "지금 고를 수 없습니다" in str(e.value)
    assert korean.DUAL.search(str(e.value)) is None, str(e.value)
