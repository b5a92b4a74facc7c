"""The rule-of-thumb bot: legal under every option, sees only its observation, beats random."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.bot import Bot, RandomBot
from torite.engine.driver import run
from torite.games.kaedama.bot import KaedamaBot
from torite.games.kaedama.rules import Kaedama

from .test_deals import A, B, C, example_state
from .test_variants import COMBOS


def play_round(game: Kaedama, bots: list[Bot], seed: int) -> tuple[int, ...]:
    st = game.new_state(seed)
    run(st, dict(enumerate(bots)))  # a bot's illegal action raises IllegalAction
    assert st.is_over()
    return st.result().scores


def test_the_game_wires_its_rule_bot() -> None:
    game = Kaedama()
    bot = game.rule_bot(1, random.Random(0))
    assert isinstance(bot, KaedamaBot) and bot.name == "normal" and bot.seat == 1


@pytest.mark.parametrize("options", COMBOS[::3], ids=str)
def test_the_bot_plays_legal_games_under_every_option(options: dict[str, Any]) -> None:
    game = Kaedama({"rounds": 1, **options})
    for seed in range(3):
        play_round(game, [KaedamaBot(game, s, random.Random(s)) for s in range(3)], seed)


def test_the_bot_replaces_a_losing_card_when_the_draw_may_win() -> None:
    st = example_state()
    bot = KaedamaBot(st.game, A, random.Random(0))
    for seat, text in ((A, "play 9S"), (B, "play KS"), (C, "play QC")):
        st.apply_text(seat, text)
    assert str(bot.act(st.observation(A), st.legal_actions(A))) == "replace"


def test_the_bot_keeps_a_winning_card_under_reverse() -> None:
    st = example_state({"reverse": True})
    for seat, text in ((A, "play 9S"), (B, "play KS"), (C, "play QC"), (A, "pass")):
        st.apply_text(seat, text)
    bot = KaedamaBot(st.game, B, random.Random(0))
    assert str(bot.act(st.observation(B), st.legal_actions(B))) == "pass"


def test_the_bot_beats_random_players() -> None:
    game = Kaedama({"rounds": 1})
    bot_total = random_total = 0.0
    n = 150
    for i in range(n):
        seat = i % 3
        bots: list[Bot] = [KaedamaBot(game, s, random.Random(i)) if s == seat
                           else RandomBot(game, s, random.Random(i * 3 + s)) for s in range(3)]
        scores = play_round(game, bots, i)
        bot_total += scores[seat]
        random_total += (sum(scores) - scores[seat]) / 2
    assert bot_total / n > random_total / n + 1.5
