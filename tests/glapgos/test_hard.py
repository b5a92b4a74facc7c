"""The search levels in Galapagos: the exact solvers of the open phases (checked against the rule
bot's small solvers and against exhaustive play on the real rules, bonus included), the search
bots' deferral to a rule bot's ``exact`` answer (and nothing changed for games without one),
and determinism."""

from __future__ import annotations

import random

import pytest

from torite.bots.search import ISMCTSBot, PIMCBot
from torite.engine.base import Action
from torite.engine.registry import game_ids, make_game
from torite.games.glapgos import bot as bot_module
from torite.games.glapgos.bot import GlapgosBot, _ClimbSolver, _counts, _TrickSolver
from torite.games.glapgos.rules import PLAY, PLAYOFF, Glapgos, GlapgosState, bonus_due
from torite.games.glapgos.solver import (
    ClimbSolver,
    OpenSolver,
    OutOfBudget,
    TrickSolver,
    bonus_after,
    climb_tables,
    compress,
    mtdf,
    rank_counts,
    trick_final,
)

from .test_bot import _reach

ODD_COUNT = [10 + m if m % 2 else -(10 + 13 - m) for m in range(14)]


@pytest.mark.parametrize("seed", range(20))
def test_the_trick_solver_agrees_with_the_seven_card_solver(seed: int) -> None:
    st = _reach(seed, PLAY, 7)
    seat = st.to_act()[0]
    me, op, mine = st.hands[seat], st.hands[1 - seat], st.tricks_won[seat]
    ref = _TrickSolver(mine)
    solver = TrickSolver(ODD_COUNT, 10**7)
    if st.trick:
        want = ref.value(me, op, True, st.trick[0])
        got = mtdf(lambda a, b: solver.follow(me, op, True, st.trick[0], mine, a, b))
    else:
        want = ref._lead(me, op, True, mine)
        got = mtdf(lambda a, b: solver.lead(me, op, True, mine, a, b))
    assert got == want
    # a full window gives the same value as the null-window searches
    fresh = TrickSolver(ODD_COUNT, 10**7)
    full = (fresh.follow(me, op, True, st.trick[0], mine) if st.trick else fresh.lead(me, op, True, mine))
    assert full == want


@pytest.mark.parametrize("seed", range(20))
def test_the_climb_solver_agrees_with_the_small_climb_solver(seed: int) -> None:
    st = _reach(seed, PLAYOFF, 6)
    seat = st.to_act()[0]
    rank = st.climb[-1] % 13 if st.climb_last else -1
    size = len(st.climb_last)
    want = _ClimbSolver().value(_counts(st.hands[seat]), _counts(st.hands[1 - seat]), size, rank)
    win, lose = climb_tables([0, 0], seat, False)
    assert win[:5] == [10, 11, 12, 13, 14] and lose[:5] == [-10, -11, -12, -13, -14]
    a, b, r, _ = compress(rank_counts(st.hands[seat]), rank_counts(st.hands[1 - seat]), rank)
    solver = ClimbSolver(win, lose, 10**7)
    assert mtdf(lambda x, y: solver.value(a, b, True, size, r, x, y)) == want


def test_a_solver_out_of_budget_says_so_and_the_next_call_goes_on() -> None:
    st = _reach(3, PLAY, 9)
    seat = st.to_act()[0]
    solver = TrickSolver(ODD_COUNT, 50)
    me, op, mine = st.hands[seat], st.hands[1 - seat], st.tricks_won[seat]
    with pytest.raises(OutOfBudget):
        mtdf(lambda a, b: solver.lead(me, op, True, mine, a, b))
    solver.budget = 10**7
    value = mtdf(lambda a, b: solver.lead(me, op, True, mine, a, b))
    assert value == mtdf(lambda a, b: TrickSolver(ODD_COUNT, 10**7).lead(me, op, True, mine, a, b))


@pytest.mark.parametrize("points", [(0, 0), (99, 0), (100, 40), (100, 100), (64, 99), (30, 120)])
@pytest.mark.parametrize("given", [False, True])
def test_bonus_after_is_the_rules_bonus(points: tuple[int, int], given: bool) -> None:
    for phase in (1, 2, 3):
        due = bonus_due(list(points), phase, given)
        p0, p1, now_given = bonus_after(points, phase, given)
        assert (p0 - points[0], p1 - points[1]) == tuple(due)
        assert now_given == (given or any(due))


def test_the_trick_leaves_count_the_odd_tricks_and_the_bonus() -> None:
    # seat 0 at 90: any odd count (10 + m >= 11) reaches 100 and wins 50; seat 1 never does
    final = trick_final([90, 20], 0, False, lambda p_me, p_other, g: 0)
    assert final[1] == 11 + 50 and final[13] == 23 + 50
    assert final[0] == -(10 + 13) and final[12] == -(10 + 1)
    assert trick_final([0, 0], 1, False, lambda *_: 0) == ODD_COUNT


# ------------------------------------------------------------------ exact against exhaustive play
def _best_diff(st: GlapgosState, me: int, phase: str) -> int:
    """The best deal-points difference for ``me`` at the end of ``phase``, by exhaustive play on
    clones of the real state (the rules score the phase and its bonus)."""
    if st.phase != phase or st.is_over():
        return (st.round_points[me] - st.round_points[1 - me]) if not st.is_over() else _final_diff(st, me)
    seat = st.to_act()[0]
    values = []
    for a in st.legal_actions(seat):
        nxt = st.clone()
        nxt.apply(seat, a)
        values.append(_best_diff(nxt, me, phase))
    return max(values) if seat == me else min(values)


def _final_diff(st: GlapgosState, me: int) -> int:
    scores = st.result().scores
    return scores[me] - scores[1 - me]


def _choice_point(seed: int, phase: str, cards_left: int) -> GlapgosState:
    """A random position of ``phase`` where the player to move has a real choice."""
    for attempt in range(seed, seed + 8000, 8):
        st = _reach(attempt, phase, cards_left)
        if st.phase == phase and len(st.legal_actions(st.to_act()[0])) > 1:
            return st
    raise AssertionError("no choice found")


def _exact_choice(st: GlapgosState) -> tuple[int, Action]:
    seat = st.to_act()[0]
    legal = st.legal_actions(seat)
    choice = OpenSolver(seat, 5000).choose(st.observation(seat), legal)  # small: no solving ahead
    assert choice is not None and choice in legal
    return seat, choice


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("points", [(95, 60), (60, 95), (88, 99)])
def test_the_exact_play_off_choice_is_best_with_the_bonus(seed: int, points: tuple[int, int]) -> None:
    st = _choice_point(seed, PLAYOFF, 4)
    st.round_points = list(points)  # near 100: the 30 bonus is at stake
    seat, choice = _exact_choice(st)
    best = _best_diff(st, seat, "none")
    after = st.clone()
    after.apply(seat, choice)
    assert _best_diff(after, seat, "none") == best


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("points", [(88, 100), (100, 88), (92, 100), (100, 92)])
def test_the_exact_trick_choice_is_best_with_the_bonus(seed: int, points: tuple[int, int]) -> None:
    """Points chosen so the play-off that follows is worth the same whatever the tricks do (the
    bonus is settled by the end of the tricks), so exhaustive play of the tricks decides."""
    st = _choice_point(seed, PLAY, 3)
    st.round_points = list(points)
    seat, choice = _exact_choice(st)
    best = _best_diff(st, seat, PLAY)
    after = st.clone()
    after.apply(seat, choice)
    assert _best_diff(after, seat, PLAY) == best


def test_exact_answers_only_in_the_open_phases() -> None:
    st = _reach(1, "bid", 13)
    bot = GlapgosBot(st.game, 0, random.Random(0))
    assert bot.exact(st.observation(0), st.legal_actions(0)) is None
    st = _reach(1, PLAY, 13)
    seat = st.to_act()[0]
    assert isinstance(GlapgosBot(st.game, seat, random.Random(0)).exact(st.observation(seat), st.legal_actions(seat)),
                      Action)


def test_a_decision_out_of_budget_answers_none_and_the_tables_carry_on() -> None:
    st = _choice_point(4, PLAY, 10)
    st.round_points = [0, 0]  # no bonus within reach: the tricks alone decide
    seat = st.to_act()[0]
    obs, legal = st.observation(seat), st.legal_actions(seat)
    small = OpenSolver(seat, 500)
    answers = [small.choose(obs, legal)]
    assert answers[0] is None and small.last_nodes <= 500 + 1
    while answers[-1] is None and len(answers) < 100:  # the same decision, solved bit by bit
        answers.append(small.choose(obs, legal))
    choice = answers[-1]
    assert choice is not None
    # its value is the position's (a fresh solver, the odd-count leaves: no bonus within reach)
    me, op, mine = st.hands[seat], st.hands[1 - seat], st.tricks_won[seat]
    fresh = TrickSolver(ODD_COUNT, 10**7)
    if st.trick:
        lead = st.trick[0]
        best = fresh.follow(me, op, True, lead, mine)
        won = choice.card // 13 == lead // 13 and choice.card > lead
        assert fresh.lead(me & ~choice.cards, op, won, mine + won) == best
    else:
        assert fresh.follow(op, me & ~choice.cards, False, choice.card, mine) == fresh.lead(me, op, True, mine)


# ------------------------------------------------------------------ the search bots defer
def test_the_search_levels_play_the_exact_answer_in_the_open_phases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_module, "EXACT_BUDGET", 5000)  # enough here; less solving ahead
    game = Glapgos()
    for phase, left in ((PLAY, 6), (PLAYOFF, 8)):
        st = _reach(2, phase, left)
        seat = st.to_act()[0]
        obs, legal = st.observation(seat), st.legal_actions(seat)
        want = GlapgosBot(game, seat, random.Random(5)).exact(obs, legal)
        assert want is not None
        for cls in (ISMCTSBot, PIMCBot):
            bot = cls(game, seat, random.Random(1), iterations=30)
            assert bot.act(obs, legal) == want
            assert bot.last_exact and bot.last_iterations == 0


def test_when_the_exact_answer_runs_out_the_search_level_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot_module, "EXACT_BUDGET", 5)
    game = Glapgos()
    st = _reach(2, PLAY, 13)
    seat = st.to_act()[0]
    bot = ISMCTSBot(game, seat, random.Random(1), iterations=30)
    assert bot.act(st.observation(seat), st.legal_actions(seat)) in st.legal_actions(seat)
    assert not bot.last_exact and bot.last_iterations > 0


@pytest.mark.parametrize("game_id", [g for g in game_ids() if g != "glapgos"])
def test_other_games_search_as_before(game_id: str) -> None:
    """No other rule bot has ``exact``: the search bot takes one draw of its generator per
    decision, as before, so its every search is unchanged."""
    game = make_game(game_id)
    state = game.new_state(4)
    while True:  # the rule bot up to the first decision a search level searches
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1 and state.observation(seat).get("phase") not in game.RULE_BOT_PHASES:
            break
        state.apply(seat, game.rule_bot(seat, random.Random(0)).act(state.observation(seat), legal))
    bot = ISMCTSBot(game, seat, random.Random(8), iterations=5)
    bot.act(state.observation(seat), legal)
    assert bot._exact_solver() is None and not bot.last_exact and bot.last_iterations > 0
    ref = random.Random(8)
    ref.getrandbits(64)
    assert bot.rng.getstate() == ref.getstate()


def test_a_hard_deal_is_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets are counted in nodes and iterations, never time: the same seeds replay the same
    deal, exact answers, fallback searches and all."""
    monkeypatch.setattr(bot_module, "EXACT_BUDGET", 3000)
    game = Glapgos()

    def deal() -> list[tuple[int, Action]]:
        st = game.new_state(21, dealer=0, max_rounds=1)
        bots = {0: ISMCTSBot(game, 0, random.Random(3), iterations=20),
                1: GlapgosBot(game, 1, random.Random(4))}
        moves = []
        while not st.is_over():
            seat = st.to_act()[0]
            action = bots[seat].act(st.observation(seat), st.legal_actions(seat))
            moves.append((seat, action))
            st.apply(seat, action)
        return moves

    assert deal() == deal()


def test_the_rule_bots_auction_is_a_function_of_the_observation() -> None:
    """Its samples of unseen cards are seeded by what it sees, not by its generator: a search
    level's auction (the rule bot's) is exactly ``normal``'s."""
    st = _reach(6, "bid", 13)
    obs, legal = st.observation(0), st.legal_actions(0)
    assert GlapgosBot(st.game, 0, random.Random(1)).act(obs, legal) == \
        GlapgosBot(st.game, 0, random.Random(2)).act(obs, legal)
