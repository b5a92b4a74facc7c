"""The bots read the house rules they are given (issue 38.2), for the games whose values count
only in a later deal or only in the search levels' exact answers: Seconds' eighth deal, and
Galapagos' bonus in the open phases' solver.  (The games whose ``normal`` bot decides otherwise
from the first deal are in ``test_house_rules.BOT_CHANGES``.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.bots import make_bot
from torite.bots.registry import house_rules_read
from torite.compare.analysis import ignored_house_rules
from torite.engine.registry import game_class, make_game
from torite.games.glapgos.rules import PLAY, GlapgosState, bonus_due
from torite.games.glapgos.solver import OpenSolver, bonus_after, trick_final


def _deal_eight_difference(seed: int, options: dict[str, Any]) -> tuple[str, str] | None:
    """Seconds, edition 2021, under the defaults and under ``options``: the same random moves
    through the first seven deals, then ``normal`` bots in lockstep in the eighth (the same
    action to both while they agree).  Their first two different choices, or None."""
    games = [make_game("seconds", {"edition": "2021"}), make_game("seconds", {"edition": "2021", **options})]
    states = [g.new_state(seed, max_rounds=8) for g in games]
    rng = random.Random(seed)
    while states[0].observation(states[0].to_act()[0])["deal_kind"] != 8:
        seat = states[0].to_act()[0]
        action = rng.choice(states[0].legal_actions(seat))
        for st in states:
            st.apply(seat, action)
    bots = [[make_bot("normal", g, s, random.Random(seed + s)) for s in range(4)] for g in games]
    while not states[0].is_over():
        seat = states[0].to_act()[0]
        chosen = [b[seat].act(st.observation(seat), st.legal_actions(seat)) for b, st in zip(bots, states, strict=True)]
        if chosen[0] != chosen[1]:
            return games[0].action_text(chosen[0]), games[1].action_text(chosen[1])
        for st in states:
            st.apply(seat, chosen[0])
    return None


def test_the_seconds_bot_reads_exact3_points_in_the_eighth_deal() -> None:
    """A free exact three (0 points) leaves the bot nothing to take tricks for in deal 8: it
    plays otherwise than for the default 10; a dearer one (the values scaled) does not change
    which card is best, only by how much."""
    assert house_rules_read("normal", game_class("seconds")) == {"exact3_points"}
    assert any(_deal_eight_difference(seed, {"exact3_points": 0}) for seed in range(3))
    assert _deal_eight_difference(0, {"exact3_points": 10}) is None


def test_the_umbridge_bot_reads_the_chicago_part_score_bonus() -> None:
    """Chicago against Chicago: a dearer part-score makes the bot bid a thinner contract."""
    from .test_house_rules import first_different_choice

    assert "part_score_bonus" in house_rules_read("normal", game_class("umbridge"))
    chicago = {"scoring": "chicago"}
    assert first_different_choice("umbridge", 0, {"part_score_bonus": 500}, chicago) is not None
    assert first_different_choice("umbridge", 0, {"part_score_bonus": 50}, chicago) is None


# ------------------------------------------------------------------ Galapagos: the exact solver
HOUSE = {"bonus_at": 40, "tricks_bonus": 200}


def _reach(game_options: dict[str, Any], seed: int, cards_left: int) -> GlapgosState:
    """A random Galapagos game stopped in the tricks, at most ``cards_left`` cards a hand, with
    a choice to make."""
    game = make_game("glapgos", game_options)
    for attempt in range(seed, seed + 4000, 7):
        st = game.new_state(attempt, max_rounds=1)
        rng = random.Random(attempt)
        while not st.is_over() and not (st.phase == PLAY and max(h.bit_count() for h in st.hands) <= cards_left):
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        if not st.is_over() and len(st.legal_actions(st.to_act()[0])) > 1:
            assert isinstance(st, GlapgosState)
            return st
    raise AssertionError("no position found")


@pytest.mark.parametrize("points", [(28, 40), (40, 28), (45, 0), (0, 39)])
@pytest.mark.parametrize("given", [False, True])
def test_the_solvers_bonus_is_the_house_rules_bonus(points: tuple[int, int], given: bool) -> None:
    """The solver's bonus at the end of each phase is what the rules give under the house
    values (a bonus of 200 at 40), not the default 100/50/30 at 100."""
    game = make_game("glapgos", {"bonus_at": 40, "melds_bonus": 150, "tricks_bonus": 200, "playoff_bonus": 5})
    for phase in (1, 2, 3):
        due = bonus_due(list(points), phase, given, game.bonus, game.options["bonus_at"])
        p0, p1, now = bonus_after(points, phase, given, game.bonus, game.options["bonus_at"])
        assert (p0 - points[0], p1 - points[1]) == tuple(due)
        assert now == (given or any(due))
    assert any(bonus_due([45, 0], phase, False, game.bonus, 40) != bonus_due([45, 0], phase, False)
               for phase in (1, 2, 3))


def test_the_exact_solver_values_the_tricks_with_the_house_bonus() -> None:
    """One seat at 28, the other at 40 (not given yet): under a 200 bonus at 40 the solver's
    trick leaves carry it (the seat at 40 takes 200 unless the other's odd tricks reach 40 too);
    under the defaults (at 100) no leaf carries a bonus."""
    st = _reach(HOUSE, 0, 3)
    st.round_points = [28, 40]
    st.bonus_seat = -1  # no bonus given yet (the melds of this random deal may have given one)
    seat = st.to_act()[0]
    obs, legal = st.observation(seat), st.legal_actions(seat)
    house = OpenSolver(seat, 5000)
    assert house.choose(obs, legal) is not None and house.last_final is not None
    bonus = st.game.bonus  # type: ignore[attr-defined]
    assert list(house.last_final) == trick_final([28, 40], seat, False, lambda *_: 0, bonus, 40)
    plain = OpenSolver(seat, 5000)
    assert plain.choose({**obs, "options": make_game("glapgos").options}, legal) is not None
    assert list(plain.last_final or ()) == trick_final([28, 40], seat, False, lambda *_: 0)
    assert house.last_final != plain.last_final
    # the seat at 40 keeps its 200 when the other ends the tricks short of 40 (even tricks)
    assert house.last_final[0 if seat == 0 else 13] == (plain.last_final or ())[0 if seat == 0 else 13] - 200


def test_compare_says_the_galapagos_rule_bot_ignores_the_bonus_and_the_search_levels_read_it() -> None:
    """The ``normal`` Galapagos bot plays its rules of thumb, which never weigh the bonus (as
    under the defaults); the search levels play the exact solver, which does."""
    changed = {"tricks_bonus": 80, "bonus_at": 60}
    assert ignored_house_rules("glapgos", changed, ["normal", "hard", "expert"]) == {
        "normal": ["bonus_at", "tricks_bonus"]}
