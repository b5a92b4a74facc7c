"""Actions: every legal action is accepted, anything else is refused with ``IllegalAction`` and
changes nothing, and every action's text reads back as the same action."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from torite.engine import Action, IllegalAction, State

from .harness import (
    ALL_CARDS,
    Case,
    RandomPlay,
    Snapshot,
    action_catalog,
    assert_same,
    game_deck,
    refusal_candidates,
    snapshot,
    snapshot_differences,
)


def refusal_problem(state: State, before: Snapshot, seat: int, action: Action, why: str) -> str | None:
    """None when ``action`` by ``seat`` raises IllegalAction and leaves ``state`` as ``before``
    shows it; else what went wrong."""
    raised = ""
    try:
        state.apply(seat, action)
    except IllegalAction:
        pass
    except Exception as e:
        raised = f"{why}: {action!r} by seat {seat} raised {type(e).__name__}: {e}, not IllegalAction"
    else:
        return f"{why}: {action!r} by seat {seat} was accepted"
    after = snapshot(state, legal=False, cheap=True)
    if after != before:
        return f"{why}: {action!r} by seat {seat} changed the state:\n" + snapshot_differences(before, after)
    return raised or None


class Refusals:
    """Tries refusals, each on a fresh clone (a wrongly accepted action spoils nothing), and
    reports every sort that failed, one example each, at the end: one bug hides no other."""

    def __init__(self) -> None:
        self.problems: dict[str, str] = {}
        self.tried: Counter[str] = Counter()

    def check(self, state: State, before: Snapshot, seat: int, action: Action, why: str) -> None:
        self.tried[why] += 1
        if why not in self.problems:
            problem = refusal_problem(state.clone(), before, seat, action, why)
            if problem is not None:
                self.problems[why] = problem

    def assert_none(self) -> None:
        if self.problems:
            raise AssertionError("\n".join(self.problems.values()))


def test_every_legal_action_of_every_seat_is_accepted(case: Case) -> None:
    """Every legal action of every seat to act, at every step (at most 24 a seat a step, drawn at
    random, where there are more: a burial has over a hundred)."""
    game = case.game()
    rng = random.Random(0)
    for seed in case.seeds(1):
        for state in RandomPlay(game.new_state(seed, max_rounds=1), random.Random(seed)):
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                for action in legal if len(legal) <= 24 else rng.sample(legal, 24):
                    try:
                        state.clone().apply(seat, action)
                    except IllegalAction as e:
                        raise AssertionError(f"legal {action!r} of seat {seat} refused: {e}") from e


#: Refusals tried at each step of a game (the sorts tried least so far first).
REFUSALS_PER_STEP = 5


def test_actions_that_are_not_legal_are_refused_and_change_nothing(case: Case) -> None:
    """At every step, for the seats to act and one that is not: another seat's legal action, an
    action of another moment (phase, kind), malformed actions (a card too many or too few, no
    card, a card not held, a card outside the deck, a negative mask, an unknown argument) and an
    unknown kind.  Each must raise IllegalAction and leave every observation, ``to_act``, the
    event count and the generator as they were."""
    game = case.game()
    catalog = action_catalog(case)
    n = game.num_players
    deck = game_deck(game) or ALL_CARDS
    for seed in case.seeds(1):
        refusals = Refusals()
        rng = random.Random(seed + 1)
        for state in RandomPlay(game.new_state(seed, max_rounds=1), random.Random(seed)):
            if state.is_over():
                break
            seats = list(state.to_act())
            idle = [s for s in range(n) if s not in seats]
            if idle:
                seats.append(rng.choice(idle))
            candidates = [(seat, why, action) for seat in seats
                          for why, action in refusal_candidates(state, seat, catalog, rng, deck)]
            rng.shuffle(candidates)
            candidates.sort(key=lambda c: refusals.tried[c[1]])
            before = snapshot(state, legal=False, cheap=True)
            for seat, why, action in candidates[:REFUSALS_PER_STEP]:
                refusals.check(state, before, seat, action, why)
        refusals.assert_none()


def test_a_seat_that_does_not_exist_is_refused(case: Case) -> None:
    game = case.game()
    n = game.num_players
    refusals = Refusals()
    for i, state in enumerate(RandomPlay(game.new_state(case.seeds(1)[0], max_rounds=1), random.Random(0))):
        if state.is_over():
            break
        if i % 4:
            continue
        seat = state.to_act()[0]
        before = snapshot(state, legal=False, cheap=True)
        action = state.legal_actions(seat)[0]
        for bad in (-1, n, n + 7):
            refusals.check(state, before, bad, action, f"seat {bad} of a {n}-player game")
    refusals.assert_none()


def test_once_the_game_is_over_every_action_is_refused(case: Case) -> None:
    game = case.game()
    state = game.new_state(case.seeds(1)[0], max_rounds=1)
    for _ in RandomPlay(state, random.Random(1)):
        pass
    assert state.is_over()
    refusals = Refusals()
    before = snapshot(state, legal=False, cheap=True)
    for seat in range(game.num_players):
        for action in action_catalog(case):
            refusals.check(state, before, seat, action, f"{action.kind} after the end")
    refusals.assert_none()


def test_every_action_text_reads_back_as_the_same_action(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(2):
        for state in RandomPlay(game.new_state(seed, max_rounds=1), random.Random(seed)):
            for seat in state.to_act():
                for action in state.legal_actions(seat):
                    text = str(action)
                    assert game.parse_action(text) == action, f"{text!r} reads back as {game.parse_action(text)!r}"


@pytest.mark.parametrize("text", ["", "   ", "play ZZ", "play 10D 10D", "bury 1C"])
def test_text_that_is_no_action_is_refused_with_illegal_action(case: Case, text: str) -> None:
    game = case.game()
    state = game.new_state(case.seeds(1)[0], max_rounds=1)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply_text(state.to_act()[0], text)
    assert_same(before, snapshot(state), f"refusing {text!r} changed the state")
