"""The measures of a comparison: what each one is, how it reads a deal, and its words.

Each :class:`Metric` is one measured quantity of :mod:`torite.compare.analysis` (whose docstring
says how they are estimated and judged): its group in the report, the scale of a negligible
difference, the words of its sentence, and the per-deal value it takes from a
:class:`~torite.compare.experiment.UnitData` (None: a bootstrap estimate over the deals).

Seats by position know the game's roles: when the rules choose the seat that leads a round
(Mighty's president leads the first trick), the first leader's edge is that role's, and its
label, sentence and description say so (:func:`leader_role`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from torite.compare.experiment import Experiment, UnitData
from torite.engine.registry import game_class
from torite.present import labels

POSITIONS = "seats by position"
#: the groups in report order: the game as a whole first, the seats by position last
GROUPS = ("points", "spread", "game", "rules in play", "skill and luck", POSITIONS)
#: a role is the first leader's when its holder led at least this share of the rounds
ROLE_SHARE = 0.5


@dataclass(frozen=True)
class Metric:
    """One measured quantity.  ``scale`` says what a negligible difference is: ``points`` (5% of
    the first variant's round-score deviation), ``relative`` (5% of the first variant's value),
    ``share`` (5 percentage points).  ``subject`` and ``up``/``down`` build the plain sentence.
    ``family``: the measures whose comparisons are corrected together for multiplicity."""

    key: str
    label: str
    group: str
    scale: str
    subject: str
    up: str
    down: str
    description: str
    value: Callable[[UnitData], float] | None = None  # per-deal value; None: a bootstrap estimate
    fmt: str = "{:.2f}"
    family: str | None = None


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def _per_round(unit: UnitData, f: Callable[[tuple[int, ...], int], float]) -> float:
    return _mean([f(pts, k) for k, pts in enumerate(unit.round_points)])


def _edge(pts: tuple[int, ...], seat: int) -> float:
    """A seat's points less the mean of the other seats' points in the same round."""
    others = [p for s, p in enumerate(pts) if s != seat]
    return pts[seat] - _mean([float(p) for p in others])


def _lead_changes(unit: UnitData) -> float:
    return float(sum(1 for a, b in zip(unit.leading, unit.leading[1:]) if set(a) != set(b)))


def _decided_early(unit: UnitData) -> float:
    lead = unit.leading
    return 1.0 if len(lead) >= 2 and set(lead[-2]) == set(unit.winners) else 0.0


def _skill(unit: UnitData, plan: Sequence[tuple[int, ...]]) -> float:
    """The strong bot's mean round points minus the weak bot's over every seating of the deal."""
    sums, counts = [0.0, 0.0], [0, 0]
    for seating, pts in zip(plan, unit.duplicate, strict=True):
        for seat, b in enumerate(seating):
            sums[b] += pts[seat]
            counts[b] += 1
    return sums[0] / counts[0] - sums[1] / counts[1]


def _position_edge(p: int, from_leader: bool) -> Callable[[UnitData], float]:
    """The edge of the seat ``p`` places after each round's dealer (or first leader): its round
    points less the mean of the other seats' (a change every seat shares cancels out)."""
    def value(u: UnitData) -> float:
        starts = u.leaders if from_leader else u.dealers
        return _mean([_edge(pts, (start + p) % len(pts)) for pts, start in zip(u.round_points, starts, strict=True)
                      if start >= 0])
    return value


def _position_wins(p: int) -> Callable[[UnitData], float]:
    """The game won by the seat ``p`` places after the first dealer (a tie shares the win)."""
    def value(u: UnitData) -> float:
        if not u.round_points or u.dealers[0] < 0:
            return 0.0
        seat = (u.dealers[0] + p) % len(u.round_points[0])
        return 1.0 / len(u.winners) if seat in u.winners else 0.0
    return value


def _stat_per_round(key: str) -> Callable[[UnitData], float]:
    return lambda u: u.stats.get(key, 0.0) / max(1, len(u.round_points))


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, … (a position after the dealer)."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def leader_follows_dealer(exp: Experiment) -> bool:
    """Whether every round of every variant was led by the seat after its dealer (then the
    positions from the first leader are those from the dealer, turned by one)."""
    return all(lead == (dealer + 1) % exp.seats for us in exp.units for u in us
               for dealer, lead in zip(u.dealers, u.leaders, strict=True) if dealer >= 0 and lead >= 0)


def leader_role(exp: Experiment) -> tuple[str, float] | None:
    """The game's role the round's first leader held most often, and in which share of the
    rounds a first card was played in (every variant, the table's games), when that share is
    at least :data:`ROLE_SHARE`: then the rules, not the seating, chose the first leader
    (Mighty's president leads the first trick)."""
    rounds = [roles for us in exp.units for u in us for roles, lead in zip(u.leader_roles, u.leaders) if lead >= 0]
    if not rounds:
        return None
    held = Counter(r for roles in rounds for r in set(roles))
    if not held:
        return None
    label, k = min(held.items(), key=lambda x: (-x[1], x[0]))
    share = k / len(rounds)
    return (label, share) if share >= ROLE_SHARE else None


def role_words(role: tuple[str, float]) -> str:
    """``the president`` (every round) or ``the president in 87% of the rounds``."""
    return f"the {role[0]}" + ("" if role[1] >= 1.0 else f" in {role[1]:.0%} of the rounds")


def never_happened(exp: Experiment) -> list[str]:
    """The game's counters that stayed 0 in every game of every variant."""
    return [key for key in exp.stat_keys if all(not u.stats.get(key) for us in exp.units for u in us)]


def metrics_for(exp: Experiment) -> list[Metric]:
    """The metrics of an experiment, in report order (:data:`GROUPS`)."""
    from torite.arena import seatings

    n = exp.seats
    cls = game_class(exp.game_id)
    out = [
        Metric("points_per_round", "points per round (a seat)", "points", "points",
               "a seat scores", "more points a round", "fewer points a round",
               "Mean points a seat scores in a round (all seats, all rounds of the whole games).",
               lambda u: _per_round(u, lambda pts, _k: _mean([float(p) for p in pts]))),
        Metric("round_score_sd", "spread of round scores (std. dev.)", "spread", "relative",
               "a round's points spread", "more", "less",
               "Standard deviation of a seat's points in a round, over every seat and round: how far "
               "a round's result swings.", None),
        Metric("round_range", "best − worst seat in a round", "spread", "points",
               "the gap between a round's best and worst seat is", "wider", "narrower",
               "Mean gap between the top and the bottom round score of a round.",
               lambda u: _per_round(u, lambda pts, _k: float(max(pts) - min(pts)))),
        Metric("game_length", "game length (rounds)", "game", "relative",
               "a game lasts", "rounds longer", "rounds shorter",
               "Rounds in a whole game.", lambda u: float(len(u.round_points))),
        Metric("lead_changes", "lead changes per game", "game", "relative",
               "the lead changes", "times more a game", "times fewer a game",
               "How often the seats that would win if the game stopped now (the game's own result "
               "rule) change from one round to the next.", _lead_changes, "{:.3f}"),
        Metric("decided_before_last_round", "decided before the last round", "game", "share",
               "the game is decided before its last round in {x} of games against {y} in {base}",
               "more often", "less often",
               "Share of games whose winners already led after the second-to-last round: the last "
               "round did not change who wins (a one-round game counts as not decided early).",
               _decided_early, "{:.1%}"),
    ]
    words = labels.load(cls, "en")
    quiet = set(never_happened(exp))
    for key in exp.stat_keys:
        if key in quiet:
            continue
        label = words.stat_label(key)
        out.append(Metric(f"stats.{key}_per_round", f"{label} per round", "rules in play", "relative",
                          f"{label} per round", "more", "fewer",
                          f"The game's counter of {label}, per round of the whole games: how often (or how "
                          "much) the rule behind it came into play.", _stat_per_round(key), "{:.3f}"))
    if exp.skill is not None:
        plan = seatings(2, n)
        strong, weak = exp.skill
        sign = cls.SCORE_SIGN  # -1: penalty points, so the gap is weak − strong
        unit = "points/round" if sign > 0 else "penalty points/round avoided"
        out += [
            Metric("skill", f"skill: {strong} − {weak} ({unit})", "skill and luck", "points",
                   f"{strong} beats {weak} by", "points a round more", "points a round less",
                   f"Duplicate play: each deal is played under every seating of {strong} and {weak}; "
                   f"the mean round points of {strong} less those of {weak}. Larger: skill matters more.",
                   lambda u: sign * _skill(u, plan)),
            Metric("luck", "luck: share of variance from the deal", "skill and luck", "share",
                   "the deal explains {x} of the variance of a seat's round score against {y} in {base}",
                   "more (luck weighs more)", "less (luck weighs less)",
                   "Of the variance of a seat's round score in duplicate play, the share explained by "
                   "the cards that seat was dealt (between deal-and-seat variance, one-way random "
                   "effects estimate) rather than by who played them.", None, "{:.1%}"),
        ]
    follows = leader_follows_dealer(exp)
    role = leader_role(exp)
    # the dealer and the seats after it; the first leader and the seats after it, unless the first
    # leader is always the seat after the dealer (then it takes that seat's place)
    order = ([("dealer", 0), ("leader", 0), *(("dealer", p) for p in range(2, n))] if follows
             else [(start, p) for start in ("dealer", "leader") for p in range(n)])
    for start, p in order:
        name = "the dealer" if start == "dealer" else "the first leader"
        if start == "leader" and role is not None:  # the rules chose it: a role's seat, not a position
            name = f"the first leader ({role_words(role)})"
        pos = name if p == 0 else f"the {ordinal(p)} seat after {name}"
        label = f"{name[4:]}'s edge" if p == 0 else f"edge of the {ordinal(p)} after {name}"
        if start == "leader" and p == 0 and role is not None:
            label = f"first leader's edge: the {role[0]}'s"
        if start == "leader" and follows:
            pos, label = pos + " (the 1st seat after the dealer)", label + " (1st after the dealer)"
        key = {("dealer", 0): "dealer_advantage", ("leader", 0): "first_leader_advantage"}.get(
            (start, p), f"edge_by_position.{start}_{p}")
        about = (" (the seat that plays a round's first card)." if pos.startswith("the first l") else ".")
        if start == "leader" and role is not None:
            about += (f" The rules choose that seat: it was the {role[0]} "
                      + ("in every round" if role[1] >= 1.0 else f"in {role[1]:.0%} of the rounds")
                      + (f", so this edge is the {role[0]}'s, a role's rather than a position's."
                         if p == 0 else f", so this seat is placed by the {role[0]}, not by the deal."))
        out.append(Metric(key, f"{label} (points/round)", POSITIONS, "points",
                          f"the edge of {pos} over the other seats is", "points a round larger",
                          "points a round smaller",
                          f"Round points of {pos} less the mean of the other seats' in the same round" + about,
                          _position_edge(p, start == "leader"), family=POSITIONS))
    for p in range(n):
        pos = "the first dealer" if p == 0 else f"the {ordinal(p)} seat after the first dealer"
        short = "first dealer" if p == 0 else f"{ordinal(p)} after the first dealer"
        out.append(Metric(f"wins_by_position.{p}", f"games won: {short}", POSITIONS, "share",
                          f"{pos} wins {{x}} of games against {{y}} in {{base}}", "more often", "less often",
                          f"Share of the whole games won by {pos} (the seat that dealt the first round; a "
                          f"tie shares the win). With no edge: {1 / n:.0%}.", _position_wins(p), "{:.1%}",
                          family=POSITIONS))
    return out

