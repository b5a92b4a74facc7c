"""The rule-of-thumb bot: wired to the game, legal under every option, plays for what the deal
pays when it knows the trick's end, and beats random players on the same deals."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from torite.engine.bot import Bot, RandomBot
from torite.engine.driver import run
from torite.games.seconds.bot import SecondsBot, trick_values
from torite.games.seconds.rules import Seconds

from .deals import hands_with, play, state

COMBOS = [dict(zip(("edition", "winner", "tie_mode"), v))
          for v in itertools.product(("classic", "2021"), ("second", "highest"), ("position", "distinct"))]


def test_the_game_wires_its_rule_bot() -> None:
    bot = Seconds().rule_bot(2, random.Random(0))
    assert isinstance(bot, SecondsBot) and bot.name == "normal" and bot.seat == 2


@pytest.mark.parametrize("options", COMBOS, ids=str)
def test_the_bot_plays_legal_whole_games_under_every_option(options: dict[str, Any]) -> None:
    game = Seconds(options)
    st = game.new_state(len(str(options)))
    bots = [SecondsBot(game, s, random.Random(s)) for s in range(4)]
    run(st, dict(enumerate(bots)))  # a bot's illegal action raises IllegalAction
    assert st.is_over()


def test_a_trick_is_worth_what_the_deal_pays() -> None:
    def obs(kind: int, tricks: list[int], mate: int | None, exact3: int = 10) -> dict[str, Any]:
        return {"seat": 0, "tricks_won": tricks, "deal_kind": kind, "num_players": 4, "your_mate": mate,
                "options": {"exact3_points": exact3}}
    assert trick_values(obs(1, [2, 0, 5, 1], 2)) == [6.0, 0.0, 3.0, 0.0]  # evening the split pays
    assert trick_values(obs(6, [3, 0, 0, 0], None)) == [7.0, 0.0, 0.0, 0.0]
    assert trick_values(obs(7, [3, 0, 0, 0], None)) == [-1.0, 0.0, 0.0, 0.0]
    assert trick_values(obs(8, [2, 0, 0, 0], None))[0] > 0 > trick_values(obs(8, [3, 0, 0, 0], None))[0]
    # deal 8 in the scale of the house rules' exact3_points: dearer, the same signs larger; free, nothing
    assert trick_values(obs(8, [2, 0, 0, 0], None, 25)) == [2.5, 0.0, 0.0, 0.0]
    assert trick_values(obs(8, [3, 0, 0, 0], None, 25)) == [-7.5, 0.0, 0.0, 0.0]
    assert not any(trick_values(obs(8, [2, 0, 0, 0], None, 0)))


@pytest.mark.parametrize(("kind", "card"), [(1, "9H"), (6, "9H"), (7, "3H"), (8, "9H")])
def test_playing_last_the_bot_takes_a_trick_it_wants_and_ducks_one_it_does_not(kind: int, card: str) -> None:
    """The dealer plays last to the first trick, holding hearts 3 and 9 after 7H AH 2H: the 9
    takes the trick (A 9 7 2: second-highest), the 3 leaves it to the leader's 7.  Deal 1 (its
    partner does not hold the 7), 6 and 8 want the trick; deal 7 does not."""
    dealer = (kind - 1) % 4
    first = [(dealer + k) % 4 for k in (1, 2, 3)]
    hands = hands_with({first[0]: ["7H"], first[1]: ["AH"], first[2]: ["2H"], dealer: ["3H", "9H"]},
                       {dealer: "H"})
    st = state(hands, kind=kind, options={"edition": "2021"})
    play(st, "7H", "AH", "2H")
    assert st.to_act() == (dealer,)
    bot = SecondsBot(st.game, dealer, random.Random(0))
    assert str(bot.act(st.observation(dealer), st.legal_actions(dealer))) == f"play {card}"


def duplicate_points(game: Seconds, seeds: range) -> tuple[float, float]:
    """Mean points a seat of the rule bot and of the random bot make on the same deals, each
    deal played twice with the bots' seats swapped (N+S normal, then E+W normal)."""
    bot_total = rnd_total = 0.0
    for seed in seeds:
        for swap in (0, 1):
            st = game.new_state(seed, dealer=seed % 4, max_rounds=1, first_round=seed)
            bots: list[Bot] = [SecondsBot(game, s, random.Random(seed + s)) if (s + swap) % 2 == 0
                               else RandomBot(game, s, random.Random(seed + s)) for s in range(4)]
            while not st.is_over():
                seat = st.to_act()[0]
                st.apply(seat, bots[seat].act(st.observation(seat), st.legal_actions(seat)))
            for s, p in enumerate(st.result().scores):
                if (s + swap) % 2 == 0:
                    bot_total += p
                else:
                    rnd_total += p
    n = 2 * len(seeds) * 2
    return bot_total / n, rnd_total / n


def test_the_bot_beats_random_players_over_the_schedule() -> None:
    bot, rnd = duplicate_points(Seconds(), range(14))
    assert bot > rnd
