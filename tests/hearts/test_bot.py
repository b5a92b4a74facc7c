"""The rule-of-thumb Hearts bot: wired to the game, legal under both options, passes and sheds
its dangerous cards, ducks points, and takes fewer points than random players on the same deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.bot import Bot, RandomBot
from torite.engine.driver import run
from torite.games.hearts.bot import HeartsBot
from torite.games.hearts.rules import Hearts

from .deals import CLUBS_AND_HEARTS, legal, new, pass_cards, play


def choose(st: Any, seat: int) -> str:
    bot = HeartsBot(st.game, seat, random.Random(0))
    return str(bot.act(st.observation(seat), st.legal_actions(seat)))


def test_the_game_wires_its_rule_bot() -> None:
    bot = Hearts().rule_bot(1, random.Random(0))
    assert isinstance(bot, HeartsBot) and bot.name == "normal" and bot.seat == 1


@pytest.mark.parametrize("target", [0, 100])
def test_the_bot_plays_legal_whole_games_under_both_options(target: int) -> None:
    game = Hearts({"target": target})
    st = game.new_state(target + 1)
    run(st, {s: HeartsBot(game, s, random.Random(s)) for s in range(4)})  # an illegal action raises
    assert st.is_over()


def test_the_bot_passes_the_queen_first_then_high_hearts_when_four_low_spades_guard_its_ace_and_king() -> None:
    st = new(CLUBS_AND_HEARTS, "left")
    # seat 3 holds hearts 9 to A and spades 8 to A: 8, 9, 10, J guard AS and KS
    picks = []
    for _ in range(3):
        picks.append(choose(st, 3))
        pass_cards(st, 3, picks[-1].split()[1])
    assert picks == ["pass QS", "pass AH", "pass KH"]


def test_the_bot_sheds_the_queen_when_it_cannot_follow() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC", "8D", "8S", "9C", "9D")
    assert "QS" in legal(st, 3)
    assert choose(st, 3) == "play QS"


def test_the_bot_ducks_under_the_winning_card_with_its_highest_lower_card() -> None:
    st = new(CLUBS_AND_HEARTS)
    play(st, "2C", "AC", "8D", "8S", "KC", "9D", "9H")  # a heart in the trick: avoid it
    assert choose(st, 0) == "play 8C"  # the highest club under KC


def test_the_bot_takes_fewer_points_than_random_players_on_the_same_deals() -> None:
    game = Hearts()
    bot_pts, rnd_pts = [], []
    for seed in range(30):
        for seat in range(4):
            bots: dict[int, Bot] = {s: RandomBot(game, s, random.Random(seed * 7 + s)) for s in range(4)}
            bots[seat] = HeartsBot(game, seat, random.Random(seed))
            st = game.new_state(seed)
            run(st, bots)
            pts = st.round_scores[-1]
            bot_pts.append(pts[seat])
            rnd_pts.extend(pts[s] for s in range(4) if s != seat)
    assert sum(bot_pts) / len(bot_pts) < sum(rnd_pts) / len(rnd_pts) - 2
