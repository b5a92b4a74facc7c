"""The rule-of-thumb bot: legal under every option, sensible in the spots its rules of thumb
name, and better than random players on the same deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.bot import Bot, RandomBot
from torite.engine.driver import run
from torite.engine.registry import make_game
from torite.games.good_cop.bot import GoodCopBot
from torite.games.good_cop.rules import GoodCop, GoodCopState

from .helpers import play, start

HC = ("9H", "2C")  # ♥ trump, ♣ penalty


def choice(state: GoodCopState) -> str:
    seat = state.to_act()[0]
    bot = GoodCopBot(state.game, seat, random.Random(0))
    action = bot.act(state.observation(seat), state.legal_actions(seat))
    return str(action).split()[1]


def test_the_game_wires_its_rule_bot() -> None:
    bot = make_game("good-cop").rule_bot(2, random.Random(0))
    assert isinstance(bot, GoodCopBot) and bot.name == "normal" and bot.seat == 2


@pytest.mark.parametrize("options", [{}, {"joker": "wild"}, {"lone_factor": 1}], ids=str)
def test_the_bot_plays_legal_games_under_every_option(options: dict[str, Any]) -> None:
    game = make_game("good-cop", options | {"deals": 1})
    for seed in range(4):
        state = game.new_state(seed)
        bots = [GoodCopBot(game, s, random.Random(s)) for s in range(4)]
        run(state, dict(enumerate(bots)))  # a bot's illegal action raises IllegalAction
        assert state.is_over()


def test_it_feeds_its_penalty_cards_to_a_trick_a_known_foe_is_sure_to_take() -> None:
    # seat 1 shows itself a good cop with the first joker; seat 2, a bad cop out of spades
    state = start(HC, {0: "2S", 1: "JK1", 2: "AC KC 5D", 3: "JK2"}, voids={1: "S", 2: "SJ"})
    play(state, "2S", "JK1")
    assert choice(state).endswith("C")


def test_it_feeds_no_penalty_card_to_its_partners_trick() -> None:
    # seat 2 holds JK2: seat 1's joker shows its partner, who takes the trick
    state = start(HC, {0: "2S", 1: "JK1", 2: "JK2 AC KC 5D"}, voids={1: "S", 2: "S"})
    play(state, "2S", "JK1")
    assert not choice(state).endswith("C")


def test_last_to_play_it_takes_a_clean_trick_with_its_cheapest_winner() -> None:
    state = start(HC, {0: "2D", 1: "3D", 2: "4D", 3: "5D AD"})
    play(state, "2D", "3D", "4D")
    assert choice(state) == "5D"


def test_it_ducks_a_trick_full_of_penalty_cards() -> None:
    state = start(HC, {0: "5C", 1: "KC", 2: "QC", 3: "AC 3C"})
    play(state, "5C", "KC", "QC")
    assert choice(state) == "3C"


def play_deal(game: GoodCop, bots: list[Bot], seed: int) -> tuple[int, ...]:
    state = game.new_state(seed, dealer=seed % 4)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observation(seat), state.legal_actions(seat)))
    return state.result().scores


def test_the_bot_beats_random_players_on_the_same_deals() -> None:
    """Two bots against two random players, then the seats swapped, on every deal."""
    game = make_game("good-cop", {"deals": 1})
    assert isinstance(game, GoodCop)
    diff = 0.0
    n = 40
    for i in range(n):
        for mine in ((0, 2), (1, 3)):
            bots: list[Bot] = [GoodCopBot(game, s, random.Random(i)) if s in mine
                               else RandomBot(game, s, random.Random(i * 4 + s)) for s in range(4)]
            scores = play_deal(game, bots, i)
            diff += sum(scores[s] for s in mine) - sum(scores[s] for s in range(4) if s not in mine)
    assert diff / (2 * n) > 1.0
