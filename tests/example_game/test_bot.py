"""Bid and Call's rule-of-thumb bot (``normal``): it bids what it holds, calls the best card it
lacks, wins tricks cheaply, and beats random play on the same deals."""

from __future__ import annotations

import random

from example_game.bot import BidAndCallBot
from example_game.rules import BidAndCallState
from example_game.test_rules import PARTNERS, SPADES, act, start
from torite.bots.registry import make_bot
from torite.engine import make_game
from torite.engine.driver import decide, run


def choice(state: BidAndCallState, seat: int) -> str:
    """What the bot decides for ``seat``, given only its observation and legal actions."""
    return str(decide(state, seat, BidAndCallBot(state.game, seat, random.Random(0))))


def test_it_bids_the_tricks_its_own_cards_take() -> None:
    assert choice(start(*SPADES), 0) == "bid 3 S"  # three top trumps


def test_it_passes_a_hand_without_a_sure_trick() -> None:
    assert choice(start("2C 3D 4H", "AH KH QH", "AD KD QD"), 0) == "pass"


def test_it_doubles_a_contract_its_own_sure_tricks_beat() -> None:
    state = start("2C 3D 4H", "AS 2S 5H", "AD KD QD")
    act(state, "bid 3 H")  # seat 1's ace of spades is enough to beat 3 H
    assert choice(state, 1) == "double"


def test_it_calls_the_highest_trump_it_lacks() -> None:
    state = start(*PARTNERS)
    act(state, "bid 2 S", "pass", "pass")
    assert choice(state, 0) == "call QS"


def test_it_wins_a_trick_as_cheaply_as_it_can() -> None:
    state = start("AS KS 2C", "AC 3C 4D", "QC KC QH")
    act(state, "bid 2 S", "pass", "pass", "call JS", "play 2C")
    assert choice(state, 1) == "play 3C"  # beats 2C and keeps the ace
    act(state, "play 3C")
    assert choice(state, 2) == "play QC"


def test_playing_last_it_leaves_a_trick_its_side_wins() -> None:
    hands = ("QC 2S 3S", "2C 4D 5D", "KC 3C KS")
    for called, partner in (("KS", True), ("AH", False)):
        state = start(*hands)
        act(state, "bid 1 S", "pass", "pass", f"call {called}", "play QC", "play 2C")
        assert choice(state, 2) == ("play 3C" if partner else "play KC")


def test_normal_scores_more_than_random_on_the_same_deals() -> None:
    game = make_game("bidding-test")
    totals = {"normal": 0, "random": 0}
    for seed in range(300):
        for name in totals:
            state = game.new_state(seed, dealer=2)
            bots = {s: make_bot(name if s == 0 else "random", game, s, seed * 3 + s) for s in range(3)}
            run(state, bots)
            totals[name] += state.result().scores[0]
    assert totals["normal"] > totals["random"]


def test_every_decision_is_legal() -> None:
    game = make_game("bidding-test")
    for seed in range(100):
        state = game.new_state(seed)
        bots = {s: make_bot("normal", game, s, seed + s) for s in range(3)}
        applied = run(state, bots)
        assert state.is_over() and applied >= 3
