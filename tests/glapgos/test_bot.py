"""The rule-of-thumb Galapagos bot: legal everywhere, sensible auction choices, exact in the open
endgames (checked against an exhaustive search on the real rules), and better than random."""

from __future__ import annotations

import random

import pytest

from torite.engine import driver
from torite.engine.base import Action
from torite.engine.bot import RandomBot
from torite.games.glapgos.bot import GlapgosBot
from torite.games.glapgos.rules import PLAY, PLAYOFF, TAKE_FACED, Glapgos, GlapgosState, odd_trick_points

from .helpers import do, mask, new_state, rest_of_deck


@pytest.mark.parametrize("meld_values", ["pips", "cards"])
def test_the_bot_plays_whole_games_with_legal_actions_only(meld_values: str) -> None:
    game = Glapgos({"meld_values": meld_values, "target": 150})
    for seed in range(1):
        st = game.new_state(seed)
        bots = {0: GlapgosBot(game, 0, random.Random(seed)), 1: GlapgosBot(game, 1, random.Random(seed + 9))}
        driver.run(st, bots)  # the driver applies each choice through the one legality check
        assert st.is_over() and max(st.scores) >= 150


def test_the_bot_takes_the_faced_card_that_completes_a_run() -> None:
    hand0 = "5H 6H AC KC QC 9D 8D 4S 3S 2C 3C 4C 10D"
    hand1 = "2D 3D 4D 5D 6D 7D JD QD KD AD 2S 5S 6S"
    st = new_state(hands=(hand0, hand1), stock="7H " + rest_of_deck(hand0, hand1, "7H"))
    do(st, 0, "bid AC")
    do(st, 1, "bid 2D")
    bot = GlapgosBot(st.game, 0, random.Random(0))
    assert bot.act(st.observation(0), st.legal_actions(0)) == TAKE_FACED


def test_the_bot_does_not_break_a_big_meld_to_bid() -> None:
    hand0 = "KC KD KH AS AH AD 2C 4D 6H 8S 10C QD 9H"
    hand1 = "2D 3D 5D 7D 8D 9D 10D JD 2H 3H 4H 5H 7H"
    st = new_state(hands=(hand0, hand1), stock=rest_of_deck(hand0, hand1))
    bot = GlapgosBot(st.game, 0, random.Random(0))
    choice = bot.act(st.observation(0), st.legal_actions(0))
    assert choice.cards & mask("KC KD KH AS AH AD") == 0


def _exact(st: GlapgosState, me: int, phase: str) -> int:
    """The best score difference for ``me`` (this phase's points only) by exhaustive search on
    clones of the real state, both seats playing their best."""
    if st.phase != phase:
        if phase == PLAY:
            pts = odd_trick_points(st.tricks_won)
        else:
            out = [e for e in st.events if e.kind == "out"][-1]
            pts = [0, 0]
            pts[out.seat] = out.data["points"]
        return pts[me] - pts[1 - me]
    seat = st.to_act()[0]
    values = []
    for a in st.legal_actions(seat):
        nxt = st.clone()
        nxt.apply(seat, a)
        values.append(_exact(nxt, me, phase))
    return max(values) if seat == me else min(values)


def _reach(seed: int, phase: str, cards_left: int) -> GlapgosState:
    """A random game (random moves) stopped in ``phase`` with at most ``cards_left`` cards a hand."""
    game = Glapgos()
    for attempt in range(seed, seed + 1000, 7):
        st = game.new_state(attempt, max_rounds=1)
        rng = random.Random(attempt)
        while not st.is_over() and not (st.phase == phase and max(h.bit_count() for h in st.hands) <= cards_left):
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        if not st.is_over():
            assert isinstance(st, GlapgosState)
            return st
    raise AssertionError("no game reached the position")


@pytest.mark.parametrize("seed", range(6))
def test_the_bot_plays_the_last_tricks_exactly(seed: int) -> None:
    st = _reach(seed, PLAY, 4)
    seat = st.to_act()[0]
    best = _exact(st, seat, PLAY)
    choice = GlapgosBot(st.game, seat, random.Random(0)).act(st.observation(seat), st.legal_actions(seat))
    after = st.clone()
    after.apply(seat, choice)
    assert _exact(after, seat, PLAY) == best


@pytest.mark.parametrize("seed", range(6))
def test_the_bot_plays_the_end_of_the_play_off_exactly(seed: int) -> None:
    st = _reach(seed, PLAYOFF, 4)
    seat = st.to_act()[0]
    best = _exact(st, seat, PLAYOFF)
    choice = GlapgosBot(st.game, seat, random.Random(0)).act(st.observation(seat), st.legal_actions(seat))
    after = st.clone()
    after.apply(seat, choice)
    assert _exact(after, seat, PLAYOFF) == best


def test_the_bot_beats_random_on_the_same_deals() -> None:
    game = Glapgos()
    diff = 0
    for seed in range(4):
        for bot_seat in (0, 1):
            st = game.new_state(seed, dealer=0, max_rounds=1)
            bots = {bot_seat: GlapgosBot(game, bot_seat, random.Random(seed)),
                    1 - bot_seat: RandomBot(game, 1 - bot_seat, random.Random(seed))}
            driver.run(st, bots)
            diff += st.scores[bot_seat] - st.scores[1 - bot_seat]
    assert diff / 8 > 30


def test_the_bot_decides_from_its_observation_alone() -> None:
    st = new_state()
    obs = st.observation(0)
    legal = st.legal_actions(0)
    a = GlapgosBot(st.game, 0, random.Random(1)).act(obs, legal)
    b = GlapgosBot(st.game, 0, random.Random(1)).act(obs, legal)
    assert a == b and a in legal and isinstance(a, Action)
