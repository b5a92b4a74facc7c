"""OpenSpiel's own ``hearts`` (default parameters) replayed in torite, move by move.

1,000 random trajectories of pyspiel's game: chance (the pass direction, then the deal) as
pyspiel's chance outcomes say, every decision uniform over pyspiel's legal actions.  torite gets
the same deal as an explicit deal and the same moves; at every decision both must offer the same
set of cards to the same seat and (in every fourth game, to keep the test fast) agree on what
pyspiel's state says (``to_json``): the hands, the cards each seat has chosen to pass and, once
they change hands, received, the points taken so far and whether hearts are broken; at the end
torite's ``26 - points`` must be pyspiel's returns.

Then through the OpenSpiel adapter, as an algorithm sees the two games: ``python_torite_hearts``
dealing card by card (``chance=deal``) takes pyspiel's chance outcomes (the pass direction, each
card dealt), offers the same chance outcomes and the same legal moves at every node, and returns
exactly what ``hearts`` returns, with the same utility bounds and game length.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from torite.cards import card_str, mask_of_texts
from torite.engine.base import Action
from torite.games.hearts.rules import DIRECTIONS, Hearts, HeartsState

pyspiel = pytest.importorskip("pyspiel")

TRAJECTORIES = 1000


def text(openspiel_card: str) -> str:
    """OpenSpiel's card text (``TS``) as torite's (``10S``)."""
    return openspiel_card.replace("T", "10")


def same_state(theirs: dict[str, Any], ours: HeartsState) -> None:
    """pyspiel's state (its ``to_json``) and torite's agree on everything both hold."""
    passing = ours.phase == "pass"
    for s in range(4):
        held = ours.hands[s] & ~ours.passed[s] if passing else ours.hands[s]
        assert mask_of_texts(text(c) for c in theirs["hands"][s]) == held
        assert mask_of_texts(text(c) for c in theirs["passed_cards"][s]) == ours.passed[s]
        if not passing and ours.pass_direction != "none":
            assert mask_of_texts(text(c) for c in theirs["received_cards"][s]) == ours.received[s]
    assert theirs["points"] == ours.round_points
    assert theirs["hearts_broken"] == ours.hearts_broken


def to_torite(card: int) -> int:
    """OpenSpiel's card ``rank * 4 + suit`` as torite's ``suit * 13 + rank``."""
    return card % 4 * 13 + card // 4


def chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return int(action)
    return int(outcomes[-1][0])


def replay(game: Any, rng: random.Random, hearts: Hearts,
           whole_state: bool = True) -> tuple[list[float], list[int], int, str]:
    """One random pyspiel trajectory replayed in torite (with ``whole_state`` comparing the
    states at every decision too); returns pyspiel's and torite's returns, the number of
    decisions compared and the pass direction."""
    st = game.new_initial_state()
    direction = chance(st, rng)
    st.apply_action(direction)
    hands: list[list[str]] = [[] for _ in range(4)]
    for i in range(52):
        card = chance(st, rng)
        hands[i % 4].append(card_str(to_torite(card)))
        st.apply_action(card)
    ours: HeartsState = hearts.new_state(seed=0, deals=[{"pass_direction": DIRECTIONS[direction], "hands": hands}])
    decisions = 0
    while not st.is_terminal():
        seat = st.current_player()
        legal = st.legal_actions()
        phase = "pass" if ours.phase == "pass" else "play"
        assert seat in ours.to_act(), (seat, ours.to_act(), str(st))
        mine = ours.legal_actions(seat)
        assert {a.kind for a in mine} == {phase}
        assert sorted(a.card for a in mine) == sorted(to_torite(c) for c in legal), str(st)
        if whole_state:
            same_state(json.loads(st.to_json()), ours)
        action = rng.choice(legal)
        ours.apply(seat, Action(phase, 1 << to_torite(action)))
        st.apply_action(action)
        decisions += 1
    assert ours.is_over()
    return list(st.returns()), ours.returns(), decisions, DIRECTIONS[direction]


def test_a_thousand_random_openspiel_games_have_the_same_moves_and_returns_in_torite() -> None:
    game = pyspiel.load_game("hearts")
    hearts = Hearts({})
    rng = random.Random(20261130)
    directions: dict[str, int] = {}
    moons = 0
    for i in range(TRAJECTORIES):
        # the whole state compared in every fourth game (to_json is slow), the moves in all
        theirs, mine, decisions, direction = replay(game, rng, hearts, whole_state=i % 4 == 0)
        assert mine == theirs
        assert decisions == (52 if direction == "none" else 64)
        directions[direction] = directions.get(direction, 0) + 1
        moons += 26 in mine and mine.count(0) == 3
    # every pass direction met, so both phases were compared, and moons were shot (4 with this seed)
    assert set(directions) == set(DIRECTIONS)
    assert moons > 0


ADAPTER_TRAJECTORIES = 250


def test_the_adapters_hearts_deals_plays_and_returns_as_openspiels() -> None:
    from torite.adapters import openspiel as adapter

    theirs = pyspiel.load_game("hearts")
    ours = adapter.load("hearts", chance="deal")
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility())
    assert ours.max_game_length() == theirs.max_game_length()
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes() == 52
    space = ours.spec.actions
    rng = random.Random(20261201)
    moons = 0
    for _ in range(ADAPTER_TRAJECTORIES):
        st, mine = theirs.new_initial_state(), ours.new_initial_state()
        while not st.is_terminal():
            assert mine.current_player() == st.current_player() and not mine.is_terminal()
            if st.is_chance_node():
                dealt = len(st.history()) > 0  # the first node is the pass direction
                as_ours = (lambda c: to_torite(c)) if dealt else (lambda c: c)
                assert sorted(as_ours(c) for c, _ in st.chance_outcomes()) == sorted(
                    c for c, _ in mine.chance_outcomes())
                outcome = chance(st, rng)
                st.apply_action(outcome)
                mine.apply_action(as_ours(outcome))
                continue
            kind = "pass" if mine.torite.phase == "pass" else "play"
            ids = {c: space.index(Action(kind, 1 << to_torite(c))) for c in st.legal_actions()}
            assert sorted(ids.values()) == mine.legal_actions()
            action = rng.choice(st.legal_actions())
            st.apply_action(action)
            mine.apply_action(ids[action])
        assert mine.is_terminal()
        assert mine.returns() == list(st.returns())
        moons += 26.0 in st.returns() and list(st.returns()).count(0.0) == 3
    assert moons > 0, "a moon shot met, so its returns were compared too"
