"""The numbers of a comparison: per variant with 95% intervals, and each variant against the first.

Every number is clustered by *deal index* ``i``: unit ``i`` of every variant was played on the
same seeds (see :mod:`torite.compare.experiment`), so the deals are the independent samples and a
difference is paired deal by deal.

Two kinds of estimate:

- **means of a per-deal value** (points per round, game length, lead changes, seat advantages,
  skill, the game's ``stats`` keys …): the interval is :func:`torite.stats.mean_ci` over the deals
  (each deal's value weighs the same: a per-round value is first averaged over that deal's
  game), and the difference against the first variant is ``mean_ci`` of the per-deal differences;
- **whole-sample quantities** that are not a mean of per-deal values (the standard deviation of
  round scores; luck, a share of variance): a percentile bootstrap over deals, the *same*
  resampled deals for every variant, so the difference is paired too.  The resampling is seeded
  from the run's seed: the report is reproducible bit for bit.

Verdicts.  A difference is *significant* when its 95% interval excludes zero.  When it does not,
the interval either lies within a negligible band (5% of the first variant's value, 5 percentage
points for a share, 5% of a seat's round-score deviation for points): *no meaningful difference*;
or it is wider: *too wide to conclude*, with the number of deals at which the interval would
narrow to that band (intervals shrink as one over the square root of the deals).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from torite.compare.experiment import Experiment, UnitData
from torite.engine.registry import game_class
from torite.seeds import derive_seed
from torite.stats import mean_ci

NEGLIGIBLE = 0.05  # the band within which a difference does not matter (see the module docstring)
BOOTSTRAP = 1000  # resamples of the deals for the bootstrap intervals
_CHUNK = 100  # resamples drawn at a time (memory: _CHUNK × deals weights)


@dataclass(frozen=True)
class Metric:
    """One measured quantity.  ``scale`` says what a negligible difference is: ``points`` (5% of
    the first variant's round-score deviation), ``relative`` (5% of the first variant's value),
    ``share`` (5 percentage points).  ``subject`` and ``up``/``down`` build the plain sentence."""

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


def _seat_points(seat: int) -> Callable[[UnitData], float]:
    return lambda u: _per_round(u, lambda pts, _k: float(pts[seat]))


def _stat_per_round(key: str) -> Callable[[UnitData], float]:
    return lambda u: u.stats.get(key, 0.0) / max(1, len(u.round_points))


def metrics_for(exp: Experiment) -> list[Metric]:
    """The metrics of an experiment, in report order."""
    from torite.arena import seatings

    n = exp.seats
    out = [
        Metric("points_per_round", "points per round (a seat)", "points", "points",
               "a seat scores", "more points a round", "fewer points a round",
               "Mean points a seat scores in a round (all seats, all rounds of the whole games).",
               lambda u: _per_round(u, lambda pts, _k: _mean([float(p) for p in pts]))),
    ]
    for s in range(n):
        out.append(Metric(f"points_per_round_seat_{s}", f"points per round, seat {s}", "points", "points",
                          f"seat {s} scores", "more points a round", "fewer points a round",
                          f"Mean points of seat {s} in a round (the first dealer is drawn from the seed, so "
                          "seats differ only by chance and by their place at the table).",
                          _seat_points(s)))
    out += [
        Metric("round_score_sd", "spread of round scores (std. dev.)", "spread", "relative",
               "a round's points spread", "more", "less",
               "Standard deviation of a seat's points in a round, over every seat and round: how far "
               "a round's result swings.", None),
        Metric("round_range", "best − worst seat in a round", "spread", "points",
               "the gap between a round's best and worst seat is", "wider", "narrower",
               "Mean gap between the top and the bottom round score of a round.",
               lambda u: _per_round(u, lambda pts, _k: float(max(pts) - min(pts)))),
        Metric("dealer_advantage", "dealer's edge (points/round)", "seats", "points",
               "the dealer's edge over the other seats is", "points a round larger",
               "points a round smaller",
               "The dealer's round points less the mean of the other seats' in the same round.",
               lambda u: _seat_edge(u, u.dealers)),
        Metric("first_leader_advantage", "first leader's edge (points/round)", "seats", "points",
               "the first leader's edge over the other seats is", "points a round larger",
               "points a round smaller",
               "Round points of the seat that plays the round's first card, less the mean of the others'.",
               lambda u: _seat_edge(u, u.leaders)),
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
    if exp.skill is not None:
        plan = seatings(2, n)
        strong, weak = exp.skill
        sign = game_class(exp.game_id).SCORE_SIGN  # -1: penalty points, so the gap is weak − strong
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
    for key in exp.stat_keys:
        out.append(Metric(f"stats.{key}_per_round", f"{key} per round", "game's statistics", "relative",
                          f"{key} per round is", "higher", "lower",
                          f"The game's own counter {key!r}, per round of the whole games.",
                          _stat_per_round(key),
                          "{:.3f}"))
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
def _fmt(metric: Metric, x: float) -> str:
    return metric.fmt.format(x)


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
    return (f"In {name} {metric.subject} {f.format(abs(diff))} {metric.up if up else metric.down} "
            f"[{_signed(metric, lo)}, {_signed(metric, hi)}] than in {base} ({f.format(x)} against "
            f"{f.format(y)}{tail}).")


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

    metrics: dict[str, Any] = {}
    found: list[list[str]] = [[] for _ in names]
    inconclusive: list[dict[str, Any]] = []
    for metric in metrics_for(exp):
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
                values[name] = {"mean": ci.mean, "ci95": [ci.low, ci.high]}
        else:
            point, samples = ((sd_point, sd_boot) if metric.key == "round_score_sd" else (luck_point, luck_boot))
            points = list(point)
            for name, p, s in zip(names, point, samples, strict=True):
                values[name] = {"mean": p, "ci95": _interval(s)}
        for k in range(1, len(names)):
            d: dict[str, Any]
            if metric.value is not None:
                ci = mean_ci([a - b for a, b in zip(per_deal[k], per_deal[0], strict=True)])
                d = {"diff": ci.mean, "ci95": [ci.low, ci.high]}
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
            band = _band(metric, points[0], points[k], points_band)
            if metric.key == "round_score_sd":  # judged on the relative change
                band = NEGLIGIBLE
                kind, needed = verdict(d["relative"], d["relative_ci95"][0], d["relative_ci95"][1], band, exp.deals)
            else:
                kind, needed = verdict(d["diff"], d["ci95"][0], d["ci95"][1], band, exp.deals)
            d["verdict"] = kind
            d["significant"] = kind in ("higher", "lower")
            d["deals_needed"] = needed
            d["negligible"] = d["significant"] and abs(d["relative"] if metric.key == "round_score_sd"
                                                      else d["diff"]) < band
            d["sentence"] = (_sentence(metric, names[k], base, d, points[k], points[0])
                             if d["significant"] else None)
            if d["negligible"]:
                d["sentence"] = d["sentence"][:-1] + "; significant but negligible."
            if d["sentence"]:
                found[k].append(d["sentence"])
            if kind == "inconclusive":
                lo, hi = d["ci95"]
                shown = f"[{_signed(metric, lo)}, {_signed(metric, hi)}]"
                if metric.key == "round_score_sd":
                    shown = f"[{100 * d['relative_ci95'][0]:+.1f}%, {100 * d['relative_ci95'][1]:+.1f}%]"
                more = (f"about {needed} deals would narrow it to the negligible band"
                        if needed else "raise --deals")
                inconclusive.append({
                    "variant": names[k], "metric": metric.key, "ci95": [lo, hi], "deals_needed": needed,
                    "text": (f"{metric.label}, {names[k]} against {base}: the interval "
                             f"{shown} is too wide to conclude; "
                             f"{more} (now {exp.deals})."),
                })
            diffs[names[k]] = d
        metrics[metric.key] = {"label": metric.label, "group": metric.group, "description": metric.description,
                               "scale": metric.scale, "format": metric.fmt, "values": values, "diffs": diffs}

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
        "seconds": exp.seconds,
        "rounds_played": sum(len(u.round_points) + len(u.duplicate) for us in exp.units for u in us),
        "confidence": 0.95,
        "bootstrap_resamples": BOOTSTRAP,
        "negligible": NEGLIGIBLE,
        "variants": [{"name": v.name, "changed": dict(v.given), "options": dict(v.options)} for v in exp.variants],
        "metrics": metrics,
        "findings": [f for fs in found for f in fs],
        "identical": [names[k] for k in range(1, len(names)) if _same_play(exp.units[k], exp.units[0])],
        "inconclusive": inconclusive,
        "distributions": {
            "round_points": {name: _counts(float(p) for u in us for pts in u.round_points for p in pts)
                             for name, us in zip(names, exp.units, strict=True)},
            "game_length": {name: _counts(float(len(u.round_points)) for u in us)
                            for name, us in zip(names, exp.units, strict=True)},
        },
    }


def _same_play(a: Sequence[UnitData], b: Sequence[UnitData]) -> bool:
    """Whether every deal of two variants was played to the same scores, stats and duplicate
    results: the rules that differ never came into play with these bots."""
    return all((x.round_points, x.leading, x.stats, x.duplicate) == (y.round_points, y.leading, y.stats, y.duplicate)
               for x, y in zip(a, b, strict=True))


def _band(metric: Metric, base: float, other: float, points_band: float) -> float:
    if metric.scale == "points":
        return points_band
    if metric.scale == "share":
        return NEGLIGIBLE
    return NEGLIGIBLE * (abs(base) if base != 0 else abs(other))


def _counts(values: Any) -> dict[str, int]:
    """A histogram as {value: count}, values in increasing order (JSON keys are text)."""
    c = Counter(values)
    return {f"{k:g}": c[k] for k in sorted(c)}
