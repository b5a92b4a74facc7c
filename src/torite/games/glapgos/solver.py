"""Exact solvers for the open part of a Galapagos deal (the tricks and the play-off), used by the
search levels: after the melds both hands are shown (ruling R1) and the bid piles are public
(ruling G6), so from there to the end of the deal the game has no hidden card and no chance
event, and its value can be computed exactly.

Both solvers are alpha-beta searches with a transposition table that keeps bounds, and both
shrink the game before searching:

- **Tricks.** Only the order of the cards still in play matters, so within a suit the cards of
  one hand with no card of the other hand (or the card led) between them are the same card:
  only the lowest of such a run is tried.  A position also carries the tricks won so far,
  since the score depends on the final count (odd or even), not on each trick.
- **Play-off.** Suits do not matter, so a hand is 13 rank counts; ranks that neither hand holds
  any more are dropped, and the rank to beat is renumbered among the ranks left.

The value is the bot's points minus the other's from here to the end of the deal, *with* the
100 bonus (ruling G7): the tricks' leaves carry the exact value of the play-off that follows,
which depends on the trick points only through the bonus.  A node budget keeps a decision
bounded and deterministic (no clock): a solver that runs out raises ``OutOfBudget``, and its
caller falls back to searching.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final

from torite.cards import SUIT_MASKS, iter_bits, mask_of_texts, parse_card
from torite.engine.base import Action
from torite.engine.kit import PLAY
from torite.games.glapgos.melds import RANK_MASKS
from torite.games.glapgos.rules import BONUS, BONUS_AT, PLAYOFF

INF: Final = 10**9
#: a bound stored in the transposition table: (lower, upper)
_Bounds = tuple[int, int]


class OutOfBudget(Exception):
    """The solver visited more nodes than it was allowed."""


def bonus_after(points: Sequence[int], phase: int, given: bool, bonus: Mapping[int, int] = BONUS,
                at: int = BONUS_AT) -> tuple[int, int, bool]:
    """Per-seat points after the bonus at the end of ``phase`` (ruling G7), and whether a
    bonus has now been given this deal (mirrors ``rules.bonus_due``).  ``bonus`` (by phase) and
    ``at`` (the score that earns it): the house rules' (by default 100/50/30 at 100), which the
    bot reads from its observation's options so that a changed bonus changes its play."""
    p0, p1 = points[0], points[1]
    if given:
        return p0, p1, True
    r0, r1 = p0 >= at, p1 >= at
    if r0 and not r1:
        return p0 + bonus[phase], p1, True
    if r1 and not r0:
        return p0, p1 + bonus[phase], True
    return p0, p1, False


def _reps(cards: int, live: int) -> list[int]:
    """``cards`` (one player's options) minus the cards equivalent to a lower one: a card is
    skipped when the next lower live card of its suit is also among ``cards``."""
    out = []
    for c in iter_bits(cards):
        below = live & SUIT_MASKS[c // 13] & ((1 << c) - 1)
        if below and cards >> (below.bit_length() - 1) & 1:
            continue
        out.append(c)
    return out


def _bounds_after(best: int, alpha: int, beta: int, lo: int, hi: int) -> _Bounds:
    """What an alpha-beta search that returned ``best`` in the window (``alpha``, ``beta``)
    says of a position known to lie in [``lo``, ``hi``]: at most ``best`` if it failed low, at
    least ``best`` if it failed high, else exactly ``best``."""
    if best <= alpha:
        return lo, min(hi, best)
    if best >= beta:
        return max(lo, best), hi
    return best, best


class _Counted:
    """A search that stops with :class:`OutOfBudget` after ``budget`` nodes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.nodes = 0

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfBudget


class TrickSolver(_Counted):
    """Exact value of the rest of the tricks for one seat, both hands known.

    ``final[m]`` is the value for the bot when it ends the 13 tricks with ``m`` tricks (odd-count
    score, bonus and the play-off after them included).
    """

    def __init__(self, final: Sequence[int], budget: int) -> None:
        super().__init__(budget)
        self.final = tuple(final)
        self.memo: dict[tuple[int, int, bool, int], _Bounds] = {}

    def lead(self, me: int, op: int, my_lead: bool, mine: int, alpha: int = -INF, beta: int = INF) -> int:
        """The value with a trick to lead (``me``/``op``: the bot's hand and the other's)."""
        if not me:
            return self.final[mine]
        left = me.bit_count()
        reach = self.final[mine:mine + left + 1]
        lo_all, hi_all = min(reach), max(reach)
        if hi_all <= alpha or hi_all == lo_all:
            return hi_all
        if lo_all >= beta:
            return lo_all
        key = (me, op, my_lead, mine)
        lo, hi = self.memo.get(key, (lo_all, hi_all))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        self._tick()
        a0, b0 = alpha, beta
        alpha, beta = max(alpha, lo), min(beta, hi)
        live = me | op
        leader = me if my_lead else op
        best = -INF if my_lead else INF
        for c in _reps(leader, live):
            if my_lead:
                v = self.follow(op, me & ~(1 << c), False, c, mine, alpha, beta)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            else:
                v = self.follow(me, op & ~(1 << c), True, c, mine, alpha, beta)
                if v < best:
                    best = v
                    beta = min(beta, v)
            if alpha >= beta:
                break
        self.memo[key] = _bounds_after(best, a0, b0, lo, hi)
        return best

    def follow(self, mover: int, waiter: int, my_turn: bool, led: int, mine: int,
               alpha: int = -INF, beta: int = INF) -> int:
        """``mover`` answers the card ``led``; ``waiter`` is the leader's hand after leading;
        ``my_turn``: the mover is the bot."""
        suit = mover & SUIT_MASKS[led // 13]
        options = suit or mover
        live = mover | waiter | 1 << led
        best = -INF if my_turn else INF
        for c in _reps(options, live):
            follower_wins = c // 13 == led // 13 and c > led
            rest = mover & ~(1 << c)
            i_win = follower_wins == my_turn
            me, op = (rest, waiter) if my_turn else (waiter, rest)
            v = self.lead(me, op, i_win, mine + i_win, alpha, beta)
            if my_turn:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best


Counts = tuple[int, ...]


def compress(a: Counts, b: Counts, rank: int) -> tuple[Counts, Counts, int, list[int]]:
    """Drop the ranks neither hand holds; renumber the rank to beat among those kept (to the
    highest kept rank not above it: beating either takes the same ranks).  Also returns the
    kept ranks, by new index."""
    keep = [r for r in range(len(a)) if a[r] or b[r]]
    new_rank = sum(1 for r in keep if r <= rank) - 1 if rank >= 0 else -1
    return tuple(a[r] for r in keep), tuple(b[r] for r in keep), new_rank, keep


class ClimbSolver(_Counted):
    """Exact play-off values on rank counts for one seat.

    ``win[n]`` is the bot's value when it plays its last card with ``n`` cards left to the
    other, ``lose[n]`` when the other goes out leaving the bot ``n`` cards (bonus included).
    """

    def __init__(self, win: Sequence[int], lose: Sequence[int], budget: int) -> None:
        super().__init__(budget)
        self.win = tuple(win)
        self.lose = tuple(lose)
        self.memo: dict[tuple[Counts, Counts, bool, int, int], _Bounds] = {}
        # the extremes of win[1..n] and lose[1..n], by n
        self.win_lo = [0] + [min(self.win[1:n + 1]) for n in range(1, len(win))]
        self.win_hi = [0] + [max(self.win[1:n + 1]) for n in range(1, len(win))]
        self.lose_lo = [0] + [min(self.lose[1:n + 1]) for n in range(1, len(lose))]
        self.lose_hi = [0] + [max(self.lose[1:n + 1]) for n in range(1, len(lose))]

    def after_play(self, mover: Counts, other: Counts, my_move: bool, k: int, r: int,
                   alpha: int = -INF, beta: int = INF) -> int:
        """The value after the mover plays ``k`` cards of rank ``r``.  The counts are kept
        compressed (``compress``): a rank that both hands have run out of is dropped at once,
        the rank to beat moving down to the next one kept."""
        rest = list(mover)
        rest[r] -= k
        if not any(rest):
            n = sum(other)
            return self.win[n] if my_move else self.lose[n]
        if rest[r] == 0 and other[r] == 0:
            del rest[r]
            other = other[:r] + other[r + 1:]
            r -= 1
        return self.value(other, tuple(rest), not my_move, k, r, alpha, beta)

    def value(self, mover: Counts, other: Counts, my_move: bool, size: int, rank: int,
              alpha: int = -INF, beta: int = INF) -> int:
        """The value with ``mover`` to play: beat ``size`` cards of ``rank`` or pass, or lead
        when ``size`` is 0 (counts compressed, see ``compress``)."""
        if size == 0:
            rank = -1
        key = (mover, other, my_move, size, rank)
        got = self.memo.get(key)
        if got is None:
            n_mover, n_other = sum(mover), sum(other)
            n_me, n_op = (n_mover, n_other) if my_move else (n_other, n_mover)
            # the bot wins with the other holding at most what it holds now, or loses with at
            # most its own cards left
            lo = min(self.win_lo[n_op], self.lose_lo[n_me])
            hi = max(self.win_hi[n_op], self.lose_hi[n_me])
        else:
            lo, hi = got
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        self._tick()
        a0, b0 = alpha, beta
        alpha, beta = max(alpha, lo), min(beta, hi)
        best = -INF if my_move else INF
        for k, r in self._moves(mover, size, rank):
            if k == 0:
                v = self.value(other, mover, not my_move, 0, -1, alpha, beta)
            else:
                v = self.after_play(mover, other, my_move, k, r, alpha, beta)
            if my_move:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        self.memo[key] = _bounds_after(best, a0, b0, lo, hi)
        return best

    @staticmethod
    def _moves(mover: Counts, size: int, rank: int) -> list[tuple[int, int]]:
        """(size, rank) plays, a pass as (0, -1); whole groups and low ranks first (the usual
        good moves, so alpha-beta cuts early)."""
        if size == 0:
            out = [(mover[r], r) for r in range(len(mover)) if mover[r]]
            out += [(k, r) for r in range(len(mover)) for k in range(1, mover[r])]
            return out
        out = [(size, r) for r in range(rank + 1, len(mover)) if mover[r] == size]
        out += [(size, r) for r in range(rank + 1, len(mover)) if mover[r] > size]
        out.append((0, -1))
        return out


def climb_tables(points: Sequence[int], me: int, given: bool, bonus: Mapping[int, int] = BONUS,
                 at: int = BONUS_AT) -> tuple[list[int], list[int]]:
    """``win``/``lose`` leaves for ``ClimbSolver``: the bot's points minus the other's for the
    play-off plus its bonus (``bonus``, ``at``: see ``bonus_after``), from the deal's points
    before the play-off."""
    win: list[int] = []
    lose: list[int] = []
    for n in range(27):
        for table, winner in ((win, me), (lose, 1 - me)):
            pts = list(points)
            pts[winner] += 10 + n
            after = bonus_after(pts, 3, given, bonus, at)
            table.append((after[me] - points[me]) - (after[1 - me] - points[1 - me]))
    return win, lose


def trick_final(points: Sequence[int], me: int, given: bool,
                playoff: Callable[[int, int, bool], int], bonus: Mapping[int, int] = BONUS,
                at: int = BONUS_AT) -> list[int]:
    """``final[m]`` for ``TrickSolver``: the bot ends the tricks with ``m`` tricks;
    ``playoff(p_me, p_other, given)`` is the exact play-off value (bonus included) from those
    deal points; ``points``: the deal's points before the tricks; ``bonus``, ``at``: see
    ``bonus_after``."""
    out = []
    for m in range(14):
        p_me, p_other, g = _after_tricks(points, me, m, given, bonus, at)
        out.append(p_me - points[me] - (p_other - points[1 - me]) + playoff(p_me, p_other, g))
    return out


def _by_seat(me: int, p_me: int, p_other: int) -> list[int]:
    return [p_me, p_other] if me == 0 else [p_other, p_me]


def mtdf(search: Callable[[int, int], int], guess: int = 0) -> int:
    """The exact value by null-window searches (MTD(f), Plaat et al. 1996): each one only asks
    "above or below this?", which cuts far more than a full window, and the transposition table
    keeps what the earlier ones learned."""
    lower, upper = -INF, INF
    g = guess
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search(beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


def rank_counts(hand: int) -> Counts:
    """A play-off hand as 13 rank counts (suits do not matter there)."""
    return tuple((hand & m).bit_count() for m in RANK_MASKS)


class OpenSolver:
    """Exact choices for one seat in the open phases, with tables kept across its decisions.

    The transposition tables stay valid for a whole deal (and beyond: an entry is a fact about
    a position and the leaf values), so a decision that runs out of budget is not wasted: the
    next decision starts from what it learned.  Spare budget in the tricks is spent solving the
    play-off ahead (its hands, the bid piles, are known from the first trick), so that the
    play-off's first, largest decision is usually answered from the table.
    """

    def __init__(self, seat: int, budget: int) -> None:
        self.seat = seat
        self.budget = budget
        #: the bonus by phase and the score that earns it, as the table's house rules set them
        #: (read from each decision's observation; the defaults until the first)
        self.bonus: dict[int, int] = dict(BONUS)
        self.at: int = BONUS_AT
        self.tricks: dict[tuple[int, ...], TrickSolver] = {}
        self.climbs: dict[tuple[tuple[int, ...], tuple[int, ...]], ClimbSolver] = {}
        #: the whole play-off's value, by leaves (``_climb_key``), once solved
        self.roots: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.round = -1
        #: nodes visited by the last decision (solving and solving ahead)
        self.last_nodes = 0
        #: whether the last decision was exact: false when the play-off's bonus was valued as
        #: the play-off without it would end (see ``_trick``), or an answer came from the tables
        #: of such a valuation because the exact one ran out of budget
        self.last_whole = True
        #: the trick leaves of the last answered trick decision (see ``_trick``)
        self.last_final: tuple[int, ...] | None = None
        #: a ceiling on this decision's spent nodes, below the budget, for a first answer
        self._cap = INF

    def choose(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The best legal action, or ``None`` when the budget ran out first (or the phase is
        not an open one)."""
        options = obs["options"]
        bonus = {1: options["melds_bonus"], 2: options["tricks_bonus"], 3: options["playoff_bonus"]}
        if obs["round"] != self.round or bonus != self.bonus or options["bonus_at"] != self.at:
            # a new deal (or other house rules): drop the old tables, keep memory bounded
            self.round = obs["round"]
            self.bonus, self.at = bonus, options["bonus_at"]
            self.tricks.clear()
            self.climbs.clear()
            self.roots.clear()
            self.last_final = None
        self.last_nodes = 0
        spent = [0]
        try:
            if obs["phase"] == PLAY:
                return self._trick(obs, legal, spent)
            if obs["phase"] == PLAYOFF:
                self.tricks.clear()  # the tricks are over: free their tables
                return self._climb(obs, legal, spent)
            return None
        except OutOfBudget:
            return None
        finally:
            self.last_nodes = spent[0]
            self._cap = INF

    # ------------------------------------------------------------------ helpers
    def _climb_key(self, points: Sequence[int], given: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
        win, lose = climb_tables(points, self.seat, given, self.bonus, self.at)
        return tuple(win), tuple(lose)

    def _climb_solver(self, points: Sequence[int], given: bool) -> ClimbSolver:
        return self._climb_solver_by_key(self._climb_key(points, given))

    def _climb_solver_by_key(self, key: tuple[tuple[int, ...], tuple[int, ...]]) -> ClimbSolver:
        solver = self.climbs.get(key)
        if solver is None:
            solver = self.climbs[key] = ClimbSolver(key[0], key[1], 0)
        return solver

    def _run(self, solver: TrickSolver | ClimbSolver, spent: list[int], fn: Callable[[], int],
             limit: int | None = None) -> int:
        """Run ``fn`` on ``solver`` within what is left of this decision's budget (and within
        ``limit`` nodes)."""
        start = solver.nodes
        left = min(self.budget, self._cap) - spent[0]
        solver.budget = start + (left if limit is None else max(0, min(left, limit)))
        try:
            return fn()
        finally:
            spent[0] += solver.nodes - start

    def _playoff_root(self, obs: Mapping[str, Any], points: Sequence[int], given: bool,
                      spent: list[int], limit: int | None = None) -> int:
        """The exact value of the whole play-off from the deal's points after the tricks."""
        solver = self._climb_solver(points, given)
        piles = (rank_counts(mask_of_texts(obs["bid_pile_0"])), rank_counts(mask_of_texts(obs["bid_pile_1"])))
        leader = (obs["dealer"] + 1) % 2  # ruling G5
        mover, other, _, _ = compress(piles[leader], piles[1 - leader], -1)
        key = (solver.win, solver.lose)
        if key not in self.roots:
            self.roots[key] = self._run(solver, spent, lambda: mtdf(
                lambda a, b: solver.value(mover, other, leader == self.seat, 0, -1, a, b)), limit)
        return self.roots[key]

    # ------------------------------------------------------------------ the tricks
    def _trick(self, obs: Mapping[str, Any], legal: Sequence[Action], spent: list[int]) -> Action | None:
        me = self.seat
        points = obs["round_points"]
        given = obs["bonus_seat"] >= 0
        hand = mask_of_texts(obs["hand"])
        other = mask_of_texts(obs["known_hands"][1 - me])
        lead = parse_card(obs["trick"][0]["card"]) if obs["trick"] else -1
        mine = obs["tricks_won"][me]
        # The play-off's value enters the tricks only through the bonus: when every trick count
        # leaves the same play-off leaves, it is the same for every choice and is left out.
        # Else each way the points may stand after the tricks (up to 7) has its own play-off to
        # solve: they are solved ahead with the budget the tricks leave (``_ponder``).  A way not
        # solved yet is valued by the outcome of the play-off played for its points alone (who
        # goes out, how many cards the other keeps), as if the bonus did not change how it is
        # played: then the choice is not exact, only close (``last_whole``).
        afters = {_after_tricks(points, me, m, given, self.bonus, self.at)
                  for m in range(mine, mine + hand.bit_count() + 1)}
        keys = {a: self._climb_key(_by_seat(me, a[0], a[1]), a[2]) for a in afters}
        playoff_values: dict[tuple[int, int, bool], int] = {}
        self.last_whole = True
        if len(set(keys.values())) > 1:
            plain = self.roots.get(self._climb_key([0, 0], True), 0)
            for a, key in keys.items():
                if key in self.roots:
                    playoff_values[a] = self.roots[key]
                else:
                    self.last_whole = False
                    if plain:  # 10 + n: the bot goes out leaving n; -(10 + n): the other does
                        playoff_values[a] = key[0][plain - 10] if plain > 0 else key[1][-plain - 10]

        def playoff(p_me: int, p_other: int, g: bool) -> int:
            return playoff_values.get((p_me, p_other, g), 0)

        final = tuple(trick_final(points, me, given, playoff, self.bonus, self.at))
        choice = None
        if self.last_final is not None and self.last_final != final:
            # an answer first, cheaply, from the tables of the last decision's leaves; then the
            # better one from the new leaves if the budget allows
            self._cap = spent[0] + self.budget // 2
            with contextlib.suppress(OutOfBudget):
                choice = self._trick_choice(self.last_final, hand, other, lead, mine, legal, spent)
            self._cap = INF
        try:
            choice = self._trick_choice(final, hand, other, lead, mine, legal, spent)
            self.last_final = final
        except OutOfBudget:
            if choice is None:
                raise
            self.last_whole = False
        with contextlib.suppress(OutOfBudget):
            self._ponder(obs, me, afters, spent)
        return choice

    def _trick_choice(self, final: tuple[int, ...], hand: int, other: int, lead: int, mine: int,
                      legal: Sequence[Action], spent: list[int]) -> Action:
        solver = self.tricks.get(final)
        if solver is None:
            solver = self.tricks[final] = TrickSolver(final, 0)
        if lead < 0:
            root = self._run(solver, spent, lambda: mtdf(lambda a, b: solver.lead(hand, other, True, mine, a, b)))
            options = [(x, partial(solver.follow, other, hand & ~x.cards, False, x.card, mine)) for x in legal]
        else:
            root = self._run(solver, spent, lambda: mtdf(
                lambda a, b: solver.follow(hand, other, True, lead, mine, a, b)))
            options = []
            for x in legal:
                win = x.card // 13 == lead // 13 and x.card > lead
                options.append((x, partial(solver.lead, hand & ~x.cards, other, win, mine + win)))
        return self._pick(solver, spent, root, options)

    def _pick(self, solver: TrickSolver | ClimbSolver, spent: list[int], root: int,
              options: Sequence[tuple[Action, Callable[[int, int], int]]]) -> Action:
        """The first action whose value reaches the root's (one null-window test each)."""
        for action, child in options:
            if self._run(solver, spent, partial(child, root - 1, root)) >= root:
                return action
        raise AssertionError("some legal action reaches the root value")

    def _ponder(self, obs: Mapping[str, Any], me: int, afters: set[tuple[int, int, bool]],
                spent: list[int]) -> None:
        """Solve the play-off ahead with the budget the tricks left, for each way the deal's
        points may stand after the tricks (one play-off to solve unless the bonus is near; then
        the play-off without the bonus first, which values the ways not solved yet)."""
        ways = [([0, 0], True)] if len({self._climb_key(_by_seat(me, a[0], a[1]), a[2]) for a in afters}) > 1 else []
        ways += [(_by_seat(me, a[0], a[1]), a[2]) for a in sorted(afters)]
        for points, given in ways:
            self._playoff_root(obs, points, given, spent)

    # ------------------------------------------------------------------ the play-off
    def _climb(self, obs: Mapping[str, Any], legal: Sequence[Action], spent: list[int]) -> Action | None:
        me = self.seat
        last = obs["climb_last"]
        state = compress(rank_counts(mask_of_texts(obs["hand"])),
                         rank_counts(mask_of_texts(obs["known_hands"][1 - me])),
                         parse_card(last[0]) % 13 if last else -1)
        key = self._climb_key(obs["round_points"], obs["bonus_seat"] >= 0)
        plain = self._climb_key([0, 0], True)
        self.last_whole = True
        choice = None
        if key != plain and plain in self.roots:
            # the bonus is at stake but its play-off is not solved yet: an answer first from the
            # one solved without it (solved ahead in the tricks), then the exact one if the
            # budget allows (little chance while the whole play-off is not solved: all to the first)
            self._cap = spent[0] + (self.budget // 2 if key in self.roots else self.budget)
            with contextlib.suppress(OutOfBudget):
                choice = self._climb_choice(self.climbs[plain], state, len(last), legal, spent)
            self._cap = INF
        try:
            return self._climb_choice(self._climb_solver_by_key(key), state, len(last), legal, spent)
        except OutOfBudget:
            if choice is None:
                raise
            self.last_whole = False
            return choice

    def _climb_choice(self, solver: ClimbSolver, state: tuple[Counts, Counts, int, list[int]], size: int,
                      legal: Sequence[Action], spent: list[int]) -> Action:
        mine, theirs, rank, keep = state
        root = self._run(solver, spent, lambda: mtdf(lambda a, b: solver.value(mine, theirs, True, size, rank, a, b)))
        options: list[tuple[Action, Callable[[int, int], int]]] = []
        for x in legal:
            if x.kind == "pass":
                options.append((x, partial(solver.value, theirs, mine, False, 0, -1)))
            else:
                k, r = x.cards.bit_count(), keep.index((x.cards.bit_length() - 1) % 13)
                options.append((x, partial(solver.after_play, mine, theirs, True, k, r)))
        return self._pick(solver, spent, root, options)


def _after_tricks(points: Sequence[int], me: int, m: int, given: bool, bonus: Mapping[int, int] = BONUS,
                  at: int = BONUS_AT) -> tuple[int, int, bool]:
    """(the bot's deal points, the other's, bonus given) after the tricks end with the bot
    holding ``m`` of them."""
    pts = list(points)
    t = [0, 0]
    t[me], t[1 - me] = m, 13 - m
    for s in range(2):
        if t[s] % 2:
            pts[s] += 10 + t[s]
    p0, p1, g = bonus_after(pts, 2, given, bonus, at)
    after = (p0, p1)
    return after[me], after[1 - me], g
