"""The rule-of-thumb bot: legal under every option, sensible in the spots its rules of thumb name
(umbrage, bids, repeats, doubles, draws, cheap wins, low leads), and better than random players
on the same deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.bot import RandomBot
from torite.engine.driver import run
from torite.engine.registry import make_game
from torite.games.umbridge.bot import UmbridgeBot, expected_tricks, hcp
from torite.games.umbridge.rules import UmbridgeState

from .helpers import act, keep_both, start, suit, suits_deal
from .test_rules import worked_trick_deal

SPADES_TO_0 = suits_deal("S", "H", "D", "C")


def choice(state: UmbridgeState, seat: int | None = None) -> str:
    seat = state.to_act()[0] if seat is None else seat
    bot = UmbridgeBot(state.game, seat, random.Random(0))
    return str(bot.act(state.observation(seat), state.legal_actions(seat)))


def test_the_game_wires_its_rule_bot() -> None:
    bot = make_game("umbridge").rule_bot(1, random.Random(0))
    assert isinstance(bot, UmbridgeBot) and bot.name == "normal" and bot.seat == 1


@pytest.mark.parametrize("options", [{}, {"scoring": "chicago"}, {"dummy_control": "leader", "honours": True},
                                     {"dummy_control": "declarer"}], ids=str)
def test_the_bot_plays_legal_games_under_every_option(options: dict[str, Any]) -> None:
    game = make_game("umbridge", options)
    for seed in range(3):
        state = game.new_state(seed, max_rounds=2)
        run(state, {s: UmbridgeBot(game, s, random.Random(s)) for s in range(2)})  # illegal raises
        assert state.is_over()


def test_high_card_points_and_the_trick_estimate_follow_the_hand() -> None:
    strong = sum(1 << c for c in range(39, 52))  # every spade
    assert hcp(strong) == 10 and expected_tricks(strong, "S") > expected_tricks(strong, "H") + 5
    assert expected_tricks(strong, "S") >= 12


def test_it_takes_umbrage_at_a_hand_without_points_and_keeps_a_good_one() -> None:
    low = [r + s for s in "CD" for r in ("2", "3", "4", "5", "6", "7", "8")][:13]
    rest = [c for s in "CDHS" for c in suit(s) if c not in low]
    state = start([{"hands": [low, rest[:13]], "dummy": rest[13:26], "bridge": rest[26:39]}])
    assert choice(state, 0) == "umbrage"
    assert choice(start([SPADES_TO_0]), 0) == "keep"


def test_it_bids_its_long_suit_and_passes_a_hand_without_points() -> None:
    state = start([SPADES_TO_0], dealer=0)
    keep_both(state)
    assert choice(state) == "bid 1 S"
    state = start([suits_deal("H", "S", "D", "C")], dealer=1)  # seat 1 holds the spades, seat 0 deals
    keep_both(state)
    act(state, (1, "bid 1 S"))
    assert choice(state, 0) == "bid 2 H"  # all thirteen hearts: over 1 S, the cheapest heart bid


def test_it_repeats_its_contract_when_it_must() -> None:
    state = start([SPADES_TO_0], dealer=0)
    keep_both(state)
    act(state, (0, "bid 1 H"), (1, "pass"), (0, "discard 2S"), (0, "done"), (1, "done"))
    assert state.must_bid and choice(state) == "bid 1 H"


def test_it_doubles_a_contract_its_cards_should_beat() -> None:
    state = start([SPADES_TO_0], dealer=1)
    keep_both(state)
    act(state, (1, "bid 7 NT"))
    assert choice(state, 0) == "double"


def test_in_a_draw_round_it_swaps_small_cards_outside_its_trumps_smallest_first() -> None:
    hand = ["AS", "KS", "QS", "JS", "10S", "9S", "2H", "3H", "4C", "5C", "6D", "7D", "8D"]
    rest = [c for s in "CDHS" for c in suit(s) if c not in hand]
    state = start([{"hands": [hand, rest[:13]], "dummy": rest[13:26], "bridge": rest[26:39]}], dealer=0)
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"))
    picks = []
    while state.to_act() == (0,):
        text = choice(state)
        picks.append(text)
        act(state, (0, text))
    assert picks == ["discard 2H", "discard 3H", "discard 4C", "discard 5C", "discard 6D", "discard 7D", "done"]


def test_it_keeps_a_hand_of_trumps_in_a_draw_round() -> None:
    state = start([SPADES_TO_0], dealer=0)
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"))
    assert choice(state) == "done"


def test_it_ducks_with_the_dummy_and_wins_with_its_own_ace() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"), (0, "play KH"))
    assert choice(state) == "play 2H"  # the dummy's smallest heart: N's own ace will win
    act(state, (1, "play 2H"))
    assert choice(state) == "play AH"


def test_without_a_sure_winner_it_leads_low_from_its_longest_suit() -> None:
    state = start([worked_trick_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "pass"), (1, "bid 2 S"), (0, "pass"), (1, "done"), (0, "done"))
    assert choice(state) == "play 2C"


def test_normal_scores_more_than_random_on_the_same_deals() -> None:
    game = make_game("umbridge")
    totals = {"normal": 0, "random": 0}
    for seed in range(6):
        for normal_seat in (0, 1):
            state = game.new_state(seed, dealer=0, max_rounds=1)
            bots = {normal_seat: UmbridgeBot(game, normal_seat, random.Random(seed)),
                    1 - normal_seat: RandomBot(game, 1 - normal_seat, random.Random(seed))}
            run(state, bots)
            totals["normal"] += state.scores[normal_seat]
            totals["random"] += state.scores[1 - normal_seat]
    assert totals["normal"] > totals["random"] + 1000
