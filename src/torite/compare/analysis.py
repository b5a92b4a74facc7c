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
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from torite.compare.experiment import Experiment, UnitData
from torite.compare.metrics import GROUPS, POSITIONS, Metric, leader_role, metrics_for, never_happened
from torite.compare.metrics import _decided_early as _decided_early
from torite.compare.metrics import _lead_changes as _lead_changes
from torite.compare.metrics import _skill as _skill
from torite.compare.verdicts import (
    NEGLIGIBLE,
    _band,
    _sentence,
    _signed,
    _verdict_line,
    in_play,
    in_play_sentence,
    marker,
    members_of,
    swing_line,
    verdict,
)
from torite.engine.registry import game_class
from torite.present import labels
from torite.seeds import derive_seed
from torite.stats import MeanCI, holm, mean_ci

LEVEL = 0.05  # 1 − confidence
BOOTSTRAP = 1000  # resamples of the deals for the bootstrap intervals
_CHUNK = 100  # resamples drawn at a time (memory: _CHUNK × deals weights)

__all__ = ["BOOTSTRAP", "GROUPS", "LEVEL", "NEGLIGIBLE", "POSITIONS", "Metric", "analyze", "metrics_for", "verdict"]


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
    role = leader_role(exp)
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
            d["marker"] = marker(d)
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
        unread = ignored_house_rules(exp.game_id, exp.variants[k].given, exp.bots)
        ordered = [*(ignored_sentence(names[k], bot, keys) for bot, keys in unread.items()), *ordered]
        findings += [note, *ordered]
        per_variant[names[k]] = {
            "ignored": unread,
            "verdict": _verdict_line(names[k], base, plan, metrics, play[names[k]], inconclusive, exp.deals),
            "swing": swing_line(names[k], base, metrics), "play": note, "findings": ordered}
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
        "first_leader_role": None if role is None else {"label": role[0], "share": role[1]},
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



def ignored_house_rules(game_id: str, changed: Mapping[str, Any], bots: Sequence[str]) -> dict[str, list[str]]:
    """Per bot of the comparison, the house rules ``changed`` sets that it does not read
    (:func:`torite.bots.registry.house_rules_read`): its play under the variant is its play
    under the defaults, only the scores differ."""
    from torite.bots.registry import house_rules_read

    cls = game_class(game_id)
    house = {s.name for s in cls.house_rules()}
    out: dict[str, list[str]] = {}
    for bot in dict.fromkeys(bots):
        unread = sorted(k for k in changed if k in house and k not in house_rules_read(bot, cls))
        if unread:
            out[bot] = unread
    return out


def ignored_sentence(variant: str, bot: str, keys: Sequence[str]) -> str:
    """The finding that a bot ignores changed house rules."""
    names = ", ".join(keys)
    return (f"{bot} ignores {names} (changed by {variant}): it plays as under the default value, only the "
            f"scoring changes")


def _histogram(values: Any) -> dict[str, int]:
    """A histogram as {value: count}, values in increasing order (JSON keys are text)."""
    c = Counter(values)
    return {f"{k:g}": c[k] for k in sorted(c)}

