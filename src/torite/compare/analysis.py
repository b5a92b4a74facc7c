"""The numbers of a comparison: per variant with 95% intervals, and each variant against the first.

Every number is clustered by *deal index* ``i``: unit ``i`` of every variant was played on the
same seeds (see :mod:`torite.compare.experiment`), so the deals are the independent samples and a
difference is paired deal by deal.

Two kinds of estimate:

- **means of a per-deal value** (points per round, game length, lead changes, seats by
  position, skill, the game's counters …): the interval is :func:`torite.stats.mean_ci` over the
  deals (each deal's value weighs the same: a per-round value is first averaged over that deal's
  game), and the difference against the first variant is ``mean_ci`` of the per-deal differences;
- **whole-sample quantities** that are not a mean of per-deal values (the standard deviation of
  round scores; luck, a share of variance): a percentile bootstrap over deals, the *same*
  resampled deals for every variant, so the difference is paired too.  The resampling is seeded
  from the run's seed: the report is reproducible bit for bit.

Seats by position.  The first dealer is drawn from the seed, so a seat's *number* says nothing
about the rules; a seat's *position* does.  Its *edge* (its round points less the mean of the
other seats', so a change every seat shares cancels out) is measured for the dealer, the seats
after the dealer, the first leader and the seats after it (when the first leader is always the
seat after the dealer, the two lists are one), and the games won by each position from the
first dealer.  Seats by position are many comparisons at once, so their verdicts are
corrected for multiplicity (Holm, per variant, over every measure of the group): one
comparison in twenty of unchanged seats no longer looks significant by chance.  They come
after the game-level measures, in the findings too.

Verdicts.  A difference is *significant* when its 95% interval excludes zero (and, for seats by
position, when its Holm-adjusted p-value is below 0.05).  When it is not, the interval either
lies within a negligible band (5% of the first variant's value, 5 percentage points for a share,
5% of a seat's round-score deviation for points): *no meaningful difference*; or it is wider:
*too wide to conclude*, with the number of deals at which the interval would narrow to that band
(intervals shrink as one over the square root of the deals).

Rules in play.  Each game's counters (``STAT_KEYS``) are reported by their words in the game's
labels; a counter that stays 0 in every variant is said once ("never happened"), not listed.
Each variant's games are compared with the reference's action by action
(:mod:`torite.compare.experiment`), per set of bots (the table's, and the skill measure's two):
when a set's games are all the same card for card, the rule never came into play with those
bots, which the analysis says rather than "no significant difference", naming the bots that did
use it.  Every variant gets a one-line verdict.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from torite.compare.experiment import ENDS, PLAY, SAME, SCORES, Experiment, UnitData
from torite.engine.registry import game_class
from torite.present import labels
from torite.seeds import derive_seed
from torite.stats import MeanCI, holm, mean_ci

NEGLIGIBLE = 0.05  # the band within which a difference does not matter (see the module docstring)
LEVEL = 0.05  # 1 − confidence
BOOTSTRAP = 1000  # resamples of the deals for the bootstrap intervals
_CHUNK = 100  # resamples drawn at a time (memory: _CHUNK × deals weights)
POSITIONS = "seats by position"
#: the groups in report order: the game as a whole first, the seats by position last
GROUPS = ("points", "spread", "game", "rules in play", "skill and luck", POSITIONS)


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


def _seat_edge(unit: UnitData, seats: Sequence[int]) -> float:
    """The mean edge of the given seat of each round (-1: unknown, the round left out)."""
    return _mean([_edge(pts, seat) for pts, seat in zip(unit.round_points, seats, strict=True) if seat >= 0])


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
    # the dealer and the seats after it; the first leader and the seats after it, unless the first
    # leader is always the seat after the dealer (then it takes that seat's place)
    order = ([("dealer", 0), ("leader", 0), *(("dealer", p) for p in range(2, n))] if follows
             else [(start, p) for start in ("dealer", "leader") for p in range(n)])
    for start, p in order:
        name = "the dealer" if start == "dealer" else "the first leader"
        pos = name if p == 0 else f"the {ordinal(p)} seat after {name}"
        label = f"{name[4:]}'s edge" if p == 0 else f"edge of the {ordinal(p)} after {name}"
        if start == "leader" and follows:
            pos, label = pos + " (the 1st seat after the dealer)", label + " (1st after the dealer)"
        key = {("dealer", 0): "dealer_advantage", ("leader", 0): "first_leader_advantage"}.get(
            (start, p), f"edge_by_position.{start}_{p}")
        out.append(Metric(key, f"{label} (points/round)", POSITIONS, "points",
                          f"the edge of {pos} over the other seats is", "points a round larger",
                          "points a round smaller",
                          f"Round points of {pos} less the mean of the other seats' in the same round"
                          + (" (the seat that plays a round's first card)." if pos.startswith("the first l")
                             else "."),
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


# ---------------------------------------------------------------------------- bootstrap estimates
def _sd_parts(units: Sequence[UnitData]) -> np.ndarray:
    """Per deal: count, sum and sum of squares of every seat-round score."""
    rows = []
    for u in units:
        xs = [float(p) for pts in u.round_points for p in pts]
        rows.append((len(xs), math.fsum(xs), math.fsum(x * x for x in xs)))
    return np.array(rows, dtype=np.float64)


def _sd_from(parts: np.ndarray) -> np.ndarray:
    """Standard deviation from (weighted) sums; ``parts[..., 0:3]`` = count, sum, sum of squares."""
    c, s1, s2 = parts[..., 0], parts[..., 1], parts[..., 2]
    var = (s2 - s1 * s1 / np.maximum(c, 1)) / np.maximum(c - 1, 1)
    return np.asarray(np.sqrt(np.maximum(var, 0.0)))


def _luck_parts(units: Sequence[UnitData]) -> tuple[np.ndarray, int, int]:
    """Per deal: sum, sum of squares, sum over (deal, seat) cells of the squared cell sum;
    and the cells per deal (seats) and observations per cell (seatings)."""
    rows = []
    m = len(units[0].duplicate)
    n = len(units[0].duplicate[0]) if m else 0
    for u in units:
        ys = [float(y) for pts in u.duplicate for y in pts]
        cells = [math.fsum(float(pts[s]) for pts in u.duplicate) for s in range(n)]
        rows.append((math.fsum(ys), math.fsum(y * y for y in ys), math.fsum(c * c for c in cells)))
    return np.array(rows, dtype=np.float64), n, m


def _luck_from(parts: np.ndarray, deals: np.ndarray | float, n: int, m: int) -> np.ndarray:
    """One-way random-effects share of variance between (deal, seat) cells, clipped to [0, 1].
    ``deals`` is the (weighted) number of deals."""
    sy, syy, scc = parts[..., 0], parts[..., 1], parts[..., 2]
    cells = deals * n
    total = cells * m
    ssw = syy - scc / m
    sst = syy - sy * sy / np.maximum(total, 1)
    ssb = sst - ssw
    msb = ssb / np.maximum(cells - 1, 1)
    msw = ssw / np.maximum(cells * (m - 1), 1)
    between = (msb - msw) / m
    denom = between + msw
    share = np.where(denom > 0, between / np.where(denom > 0, denom, 1.0), 0.0)
    return np.asarray(np.clip(share, 0.0, 1.0))


class _Bootstrap:
    """Resampled deal weights, drawn once per run and shared by every estimate, so bootstrap
    differences between variants are paired."""

    def __init__(self, deals: int, seed: int, resamples: int = BOOTSTRAP) -> None:
        rng = np.random.default_rng(derive_seed(seed, "compare-bootstrap") % 2**63)
        self.chunks: list[np.ndarray] = []
        left = resamples
        p = np.full(deals, 1.0 / deals)
        while left > 0:
            k = min(_CHUNK, left)
            self.chunks.append(rng.multinomial(deals, p, size=k).astype(np.float64))
            left -= k

    def apply(self, parts: np.ndarray) -> np.ndarray:
        """Weighted sums of per-deal rows for every resample: shape (resamples, columns)."""
        return np.concatenate([w @ parts for w in self.chunks])

    def weights(self) -> np.ndarray:
        return np.concatenate([w.sum(axis=1) for w in self.chunks])


def _interval(samples: np.ndarray) -> list[float]:
    lo, hi = np.percentile(samples, [2.5, 97.5])
    return [float(lo), float(hi)]


# ---------------------------------------------------------------------------- verdicts and sentences
def _signed(metric: Metric, x: float) -> str:
    if metric.fmt.endswith("%}"):
        return f"{100 * x:+.1f} pp"
    text = metric.fmt.format(x)
    return text if text.startswith("-") else "+" + text


def verdict(diff: float, low: float, high: float, band: float, deals: int) -> tuple[str, int | None]:
    """``higher``/``lower`` (the interval excludes zero), ``same`` (it lies within ±band) or
    ``inconclusive`` with the deals at which its half-width would shrink to the band."""
    if low > 0:
        return "higher", None
    if high < 0:
        return "lower", None
    half = max(high - diff, diff - low, 0.0)
    if half <= band:
        return "same", None
    if band <= 0:
        return "inconclusive", None
    return "inconclusive", math.ceil(deals * (half / band) ** 2)


def _sentence(metric: Metric, name: str, base: str, d: dict[str, Any], x: float, y: float) -> str:
    diff, (lo, hi) = d["diff"], d["ci95"]
    up = diff > 0
    if metric.key == "round_score_sd":
        pct, (plo, phi) = 100 * d["relative"], (100 * v for v in d["relative_ci95"])
        return (f"In {name} a round's points spread {abs(pct):.1f}% {'more' if up else 'less'} "
                f"[{plo:+.1f}%, {phi:+.1f}%] than in {base} (standard deviation {x:.2f} against {y:.2f} points).")
    if metric.scale == "share":
        subject = metric.subject.format(x=f"{x:.1%}", y=f"{y:.1%}", base=base)
        word = metric.up if up else metric.down
        return (f"In {name} {subject}: {abs(100 * diff):.1f} percentage points {word.split(' (')[0]} "
                f"[{100 * lo:+.1f}, {100 * hi:+.1f}]{' (' + word.split(' (')[1] if ' (' in word else ''}.")
    rel = d.get("relative")
    tail = f", {100 * rel:+.1f}%" if rel is not None else ""
    f = metric.fmt
    if metric.group == "rules in play":  # "replacements while winning per round: 2.1 more"
        return (f"In {name} {metric.subject}: {f.format(abs(diff))} {metric.up if up else metric.down} "
                f"[{_signed(metric, lo)}, {_signed(metric, hi)}] than in {base} ({f.format(x)} against "
                f"{f.format(y)}{tail}).")
    return (f"In {name} {metric.subject} {f.format(abs(diff))} {metric.up if up else metric.down} "
            f"[{_signed(metric, lo)}, {_signed(metric, hi)}] than in {base} ({f.format(x)} against "
            f"{f.format(y)}{tail}).")


def _short(metric: Metric, d: dict[str, Any]) -> str:
    """A difference in a few words, for a verdict line: ``game length −0.41 [−0.62, −0.20]``."""
    if metric.key == "round_score_sd":
        lo, hi = d["relative_ci95"]
        return f"{metric.label} {100 * d['relative']:+.1f}% [{100 * lo:+.1f}%, {100 * hi:+.1f}%]"
    lo, hi = d["ci95"]
    return f"{metric.label} {_signed(metric, d['diff'])} [{_signed(metric, lo)}, {_signed(metric, hi)}]"


# ---------------------------------------------------------------------------- rules in play
def _bot_names(names: Sequence[str]) -> str:
    """``normal`` for three normal bots, ``hard, normal, random`` for a mixed table."""
    return names[0] if len(set(names)) == 1 else ", ".join(names)


def _counts(pairs: Sequence[tuple[str, str | None]], bots: str, role: str) -> dict[str, Any]:
    kinds = Counter(kind for kind, _ in pairs)
    first = Counter(bot for kind, bot in pairs if kind == PLAY and bot is not None)
    games = len(pairs)
    use = "never" if kinds[SAME] == games else "scores" if not kinds[PLAY] else "play"
    return {"set": role, "bots": bots, "games": games, "same": kinds[SAME], "scores": kinds[SCORES],
            "ends": kinds[ENDS], "play": kinds[PLAY], "first_different_decision": dict(first.most_common()),
            "use": use}


def in_play(exp: Experiment) -> dict[str, list[dict[str, Any]]]:
    """Per variant after the first, per set of bots: how many of its games were the same as the
    reference's card for card (``same``), played the same with other scores (``scores``), played the
    same as long as both lasted but ended at another round (``ends``), or played otherwise
    (``play``, with the bots whose decision first differed), and ``use``:
    ``never`` (every game the same: the rule never came into play with these bots), ``scores``
    (it changed scores, never a decision) or ``play``."""
    out: dict[str, list[dict[str, Any]]] = {}
    for v, us in zip(exp.variants[1:], exp.units[1:], strict=True):
        sets = [_counts([u.versus[0] for u in us], _bot_names(exp.bots), "table")]
        if exp.skill is not None:
            sets.append(_counts([x for u in us for x in u.versus[1:]], f"{exp.skill[0]} against {exp.skill[1]}",
                                "skill"))
        out[v.name] = sets
    return out


def in_play_sentence(name: str, base: str, sets: Sequence[dict[str, Any]]) -> str:
    """What a variant's games against the reference's say, set of bots by set: whether the rule
    came into play, and which bots' decisions it changed first."""
    where = {"table": "with the table's bots ({bots})", "skill": "with {bots} (the skill measure's games)"}
    if all(s["use"] == "never" for s in sets):
        who = " and ".join(where[s["set"]].format(bots=s["bots"]) for s in sets)
        return (f"In {name} every game was the same as in {base}, card for card, {who}: the rule never came "
                "into play with these bots.")
    parts = []
    for s in sets:
        bots = where[s["set"]].format(bots=s["bots"])
        if s["use"] == "never":
            parts.append(f"{bots} every game was the same as in {base}, card for card: the rule never came "
                         "into play with these bots")
        elif s["use"] == "scores":
            ends = (f", {s['ends']} of them ending at another round" if s["ends"] else "")
            lasted = " while both lasted" if s["ends"] else ""
            parts.append(f"{bots} every game was played as in {base}, card for card{lasted}, but "
                         f"{s['scores'] + s['ends']} of {s['games']} scored otherwise{ends}: the rule changed "
                         "scores, never a decision")
        else:
            first = ", ".join(f"{b} in {k}" for b, k in s["first_different_decision"].items())
            parts.append(f"{bots} the rule came into play: {s['play']} of {s['games']} games were played "
                         f"otherwise (the first different decision: {first})")
    return f"In {name}, " + "; ".join(parts) + "."


# ---------------------------------------------------------------------------- the analysis
def analyze(exp: Experiment) -> dict[str, Any]:
    """Every number of the report, as JSON-ready data (the ``--json`` output)."""
    names = [v.name for v in exp.variants]
    base = names[0]
    boot = _Bootstrap(exp.deals, exp.seed)
    total_w = boot.weights()
    sd_parts = [_sd_parts(us) for us in exp.units]
    sd_point = [float(_sd_from(p.sum(axis=0))) for p in sd_parts]
    sd_boot = [_sd_from(boot.apply(p)) for p in sd_parts]
    points_band = NEGLIGIBLE * sd_point[0]
    luck_point: list[float] = []
    luck_boot: list[np.ndarray] = []
    if exp.skill is not None:
        for us in exp.units:
            parts, n, m = _luck_parts(us)
            luck_point.append(float(_luck_from(parts.sum(axis=0), float(exp.deals), n, m)))
            luck_boot.append(_luck_from(boot.apply(parts), total_w, n, m))

    plan = metrics_for(exp)
    metrics: dict[str, Any] = {}
    points_of: dict[str, list[float]] = {}
    tests: dict[tuple[str, int], MeanCI] = {}  # the paired differences' samples, for p-values
    for metric in plan:
        values: dict[str, Any] = {}
        diffs: dict[str, Any] = {}
        per_deal: list[list[float]] = []
        points: list[float] = []
        if metric.value is not None:
            for name, us in zip(names, exp.units, strict=True):
                xs = [metric.value(u) for u in us]
                per_deal.append(xs)
                ci = mean_ci(xs)
                points.append(ci.mean)
                values[name] = {"mean": ci.mean, "ci95": ci.interval}
        else:
            point, samples = ((sd_point, sd_boot) if metric.key == "round_score_sd" else (luck_point, luck_boot))
            points = list(point)
            for name, p, s in zip(names, point, samples, strict=True):
                values[name] = {"mean": p, "ci95": _interval(s)}
        for k in range(1, len(names)):
            d: dict[str, Any]
            if metric.value is not None:
                ci = mean_ci([a - b for a, b in zip(per_deal[k], per_deal[0], strict=True)])
                tests[metric.key, k] = ci
                d = {"diff": ci.mean, "ci95": [ci.low, ci.high], "p": ci.p_value}
                if metric.scale == "relative" and points[0] != 0:
                    d["relative"] = ci.mean / abs(points[0])
                    d["relative_ci95"] = [ci.low / abs(points[0]), ci.high / abs(points[0])]
            elif metric.key == "round_score_sd":
                s0, sk = sd_boot[0], sd_boot[k]
                rel = np.where(s0 > 0, sk / np.where(s0 > 0, s0, 1.0) - 1.0, 0.0)
                d = {"diff": points[k] - points[0], "ci95": _interval(sk - s0),
                     "relative": points[k] / points[0] - 1.0 if points[0] > 0 else 0.0,
                     "relative_ci95": _interval(rel)}
            else:
                d = {"diff": points[k] - points[0], "ci95": _interval(luck_boot[k] - luck_boot[0])}
            diffs[names[k]] = d
        points_of[metric.key] = points
        metrics[metric.key] = {"label": metric.label, "group": metric.group, "family": metric.family,
                               "description": metric.description, "scale": metric.scale, "format": metric.fmt,
                               "values": values, "diffs": diffs}

    # Holm over each family, variant by variant
    families = sorted({m.family for m in plan if m.family})
    for fam in families:
        members = [m.key for m in plan if m.family == fam]
        for k in range(1, len(names)):
            adjusted = holm([tests[key, k].p_value for key in members])
            for key, p in zip(members, adjusted, strict=True):
                metrics[key]["diffs"][names[k]]["p_holm"] = p

    found: list[list[tuple[int, str]]] = [[] for _ in names]  # (group rank, sentence)
    inconclusive: list[dict[str, Any]] = []
    for metric in plan:
        points = points_of[metric.key]
        rank = GROUPS.index(metric.group)
        for k in range(1, len(names)):
            d = metrics[metric.key]["diffs"][names[k]]
            band = _band(metric, points[0], points[k], points_band)
            if metric.key == "round_score_sd":  # judged on the relative change
                band = NEGLIGIBLE
                kind, needed = verdict(d["relative"], d["relative_ci95"][0], d["relative_ci95"][1], band, exp.deals)
            else:
                kind, needed = verdict(d["diff"], d["ci95"][0], d["ci95"][1], band, exp.deals)
            corrected = kind in ("higher", "lower") and d.get("p_holm", 0.0) >= LEVEL
            if corrected:  # the interval excludes zero, but not once the family is counted
                kind, needed = "inconclusive", None
            d["verdict"] = kind
            d["significant"] = kind in ("higher", "lower")
            d["deals_needed"] = needed
            d["negligible"] = d["significant"] and abs(d["relative"] if metric.key == "round_score_sd"
                                                      else d["diff"]) < band
            d["sentence"] = (_sentence(metric, names[k], base, d, points[k], points[0])
                             if d["significant"] else None)
            if d["negligible"]:
                d["sentence"] = d["sentence"][:-1] + "; significant but negligible."
            if d["sentence"] and metric.family:
                holm_note = f"Holm-corrected over the {len(members_of(plan, metric))} seat-by-position measures"
                s = d["sentence"]
                d["sentence"] = s[:-2] + f"; {holm_note})." if s.endswith(").") else s[:-1] + f" ({holm_note})."
            if d["sentence"]:
                found[k].append((rank, d["sentence"]))
            if kind == "inconclusive":
                lo, hi = d["ci95"]
                shown = f"[{_signed(metric, lo)}, {_signed(metric, hi)}]"
                if metric.key == "round_score_sd":
                    shown = f"[{100 * d['relative_ci95'][0]:+.1f}%, {100 * d['relative_ci95'][1]:+.1f}%]"
                more = (f"about {needed} deals would narrow it to the negligible band"
                        if needed else "raise --deals")
                why = (f"excludes zero, but not once corrected for the {len(members_of(plan, metric))} "
                       f"seat-by-position comparisons (Holm p = {d['p_holm']:.2f})" if corrected
                       else "is too wide to conclude")
                inconclusive.append({
                    "variant": names[k], "metric": metric.key, "ci95": [lo, hi], "deals_needed": needed,
                    "text": f"{metric.label}, {names[k]} against {base}: the interval {shown} {why}; "
                            f"{more} (now {exp.deals}).",
                })

    play = in_play(exp)
    quiet = never_happened(exp)
    words = labels.load(game_class(exp.game_id), "en")
    findings: list[str] = []
    per_variant: dict[str, dict[str, Any]] = {}
    for k in range(1, len(names)):
        note = in_play_sentence(names[k], base, play[names[k]])
        ordered = [s for _, s in sorted(found[k], key=lambda x: x[0])]  # stable: the game first
        findings += [note, *ordered]
        per_variant[names[k]] = {
            "verdict": _verdict_line(names[k], base, plan, metrics, play[names[k]], inconclusive, exp.deals),
            "play": note, "findings": ordered}
    title = game_class(exp.game_id).title
    return {
        "game": exp.game_id,
        "title": title,
        "seed": exp.seed,
        "deals": exp.deals,
        "seats": exp.seats,
        "bots": exp.bots,
        "skill": {"strong": exp.skill[0], "weak": exp.skill[1]} if exp.skill else None,
        "jobs": exp.jobs,
        **({"backend": exp.backend.backend, "ray": exp.backend.to_json()}
           if exp.backend is not None and exp.backend.backend != "local" else {}),
        "seconds": exp.seconds,
        "cpu_seconds": exp.cpu_seconds,
        "rounds_played": sum(len(u.round_points) + len(u.duplicate) for us in exp.units for u in us),
        "confidence": 1 - LEVEL,
        "bootstrap_resamples": BOOTSTRAP,
        "negligible": NEGLIGIBLE,
        "variants": [{"name": v.name, "changed": dict(v.given), "options": dict(v.options)} for v in exp.variants],
        "per_variant": per_variant,
        "metrics": metrics,
        "findings": findings,
        "in_play": play,
        "identical": [name for name, sets in play.items() if all(s["use"] == "never" for s in sets)],
        "never_happened": [{"key": key, "label": words.stat_label(key)} for key in quiet],
        "inconclusive": inconclusive,
        "distributions": {
            "round_points": {name: _histogram(float(p) for u in us for pts in u.round_points for p in pts)
                             for name, us in zip(names, exp.units, strict=True)},
            "game_length": {name: _histogram(float(len(u.round_points)) for u in us)
                            for name, us in zip(names, exp.units, strict=True)},
        },
    }


def members_of(plan: Sequence[Metric], metric: Metric) -> list[str]:
    """The keys of the measures corrected together with ``metric``."""
    return [m.key for m in plan if m.family == metric.family]


def _verdict_line(name: str, base: str, plan: Sequence[Metric], metrics: dict[str, Any],
                  sets: Sequence[dict[str, Any]], inconclusive: Sequence[dict[str, Any]], deals: int) -> str:
    """One line on a variant: the rule never came into play, or what changes most, or why
    nothing can be said yet (and, below 30 deals, that it is a first look)."""
    line = _verdict_text(name, base, plan, metrics, sets, inconclusive, deals)
    return line + (f" Only {deals} deals: a first look." if deals < 30 else "")


def _verdict_text(name: str, base: str, plan: Sequence[Metric], metrics: dict[str, Any],
                  sets: Sequence[dict[str, Any]], inconclusive: Sequence[dict[str, Any]], deals: int) -> str:
    table = next(s for s in sets if s["set"] == "table")
    if all(s["use"] == "never" for s in sets):
        return f"{name}: plays exactly as {base} with these bots: the rule never came into play."
    lead = ""
    used = "".join(f", only with {s['bots']} ({s['play']} of {s['games']} games played otherwise)"
                   for s in sets if s["set"] != "table" and s["use"] == "play")
    if table["use"] == "never":
        lead = f"the rule never came into play with the table's bots ({table['bots']}){used}; "
    elif table["use"] == "scores":
        lead = f"the table's bots ({table['bots']}) played every game as in {base}, only the scores changed; "
    else:
        lead = f"at the table ({table['bots']}) {table['play']} of {table['games']} games were played otherwise; "
    big = [(m, metrics[m.key]["diffs"][name]) for m in plan]
    big = [(m, d) for m, d in big if d["significant"] and not d["negligible"]]
    big.sort(key=lambda x: GROUPS.index(x[0].group))  # the game first, seats by position last
    wide = [x for x in inconclusive if x["variant"] == name]
    if big:
        shown = "; ".join(_short(m, d) for m, d in big[:3])
        more = f"; {len(big) - 3} more" if len(big) > 3 else ""
        return f"{name}: {lead}changes the game: {shown}{more}."
    if wide:
        needed = [x["deals_needed"] for x in wide if x["deals_needed"]]
        settle = f" (about {max(needed)} would settle them)" if needed else ""
        return (f"{name}: {lead}no significant difference at {deals} deals; {len(wide)} measure"
                f"{'s' if len(wide) > 1 else ''} too wide to conclude{settle}.")
    return f"{name}: {lead}no meaningful difference from {base}: every interval lies within the negligible band."


def _band(metric: Metric, base: float, other: float, points_band: float) -> float:
    if metric.scale == "points":
        return points_band
    if metric.scale == "share":
        return NEGLIGIBLE
    return NEGLIGIBLE * (abs(base) if base != 0 else abs(other))


def _histogram(values: Any) -> dict[str, int]:
    """A histogram as {value: count}, values in increasing order (JSON keys are text)."""
    c = Counter(values)
    return {f"{k:g}": c[k] for k in sorted(c)}
