"""The words of a comparison: verdicts, markers, sentences, the one-line answers.

:func:`verdict` judges one difference (:mod:`torite.compare.analysis` says how); the rest turn
the judged numbers into what the report and the command line print: a marker a difference
(:data:`MARKERS`: significant, significant but negligible, no meaningful difference, too wide),
a plain sentence per finding, a one-line verdict per variant, a one-line answer to "is it
swingier?" (:func:`swing_line`), and what the games said about the rules in play.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from torite.compare.experiment import ENDS, PLAY, SAME, SCORES, Experiment
from torite.compare.metrics import GROUPS, Metric

NEGLIGIBLE = 0.05  # the band within which a difference does not matter (see analysis's docstring)

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



#: a difference's marker, by verdict: significant (up, down), significant but negligible (up,
#: down: the interval excludes zero but the difference lies within the negligible band), no
#: meaningful difference, too wide to conclude
MARKERS = {"higher": "▲", "lower": "▼", "higher negligible": "△", "lower negligible": "▽", "same": "≈",
           "inconclusive": "?"}


def marker(d: dict[str, Any]) -> str:
    """The marker of a judged difference (:data:`MARKERS`)."""
    return MARKERS[d["verdict"] + (" negligible" if d.get("negligible") else "")]


#: the measures "is it swingier?" reads, and how each says it moved
_SWING = (("round_score_sd", "a round's points spread {x} {way}", "more", "less"),
          ("round_range", "the gap between a round's best and worst seat is {x} points {way}", "wider", "narrower"),
          ("lead_changes", "the lead changes {x} times {way} a game", "more", "fewer"))


def swing_line(name: str, base: str, metrics: dict[str, Any]) -> str:
    """One line answering "is it swingier?": the spread of round scores, the gap between a
    round's best and worst seat and the lead changes read together (each counts when it is
    significant and more than negligible)."""
    up: list[str] = []
    down: list[str] = []
    wide: list[str] = []
    read: list[str] = []
    quiet = ""
    for key, text, more, less in _SWING:
        m = metrics.get(key)
        if m is None:
            continue
        d = m["diffs"][name]
        if key == "lead_changes" and all(v["mean"] == 0 for v in m["values"].values()):
            quiet = " (one-round games: no lead to change)"
            continue
        read.append(m["label"])
        if d["verdict"] == "inconclusive":
            wide.append(m["label"])
            continue
        if not d["significant"] or d["negligible"]:
            continue
        x = f"{100 * abs(d['relative']):.1f}%" if key == "round_score_sd" else m["format"].format(abs(d["diff"]))
        (up if d["diff"] > 0 else down).append(text.format(x=x, way=more if d["diff"] > 0 else less))
    open_ = f"; too wide to tell for {' and '.join(wide)}" if wide else ""
    if up and down:
        return f"Mixed: in {name} {' and '.join(up)}, but {' and '.join(down)} than in {base}{open_}{quiet}."
    if up:
        return f"Yes, {name} is swingier: {' and '.join(up)} than in {base}{open_}{quiet}."
    if down:
        return f"No, {name} is steadier: {' and '.join(down)} than in {base}{open_}{quiet}."
    if wide:
        return (f"Too wide to tell whether {name} is swingier than {base}: {' and '.join(wide)} "
                f"{'is' if len(wide) == 1 else 'are'} too wide to conclude (raise --deals){quiet}.")
    return f"No: {name} swings as {base} does ({', '.join(read)}: no meaningful difference){quiet}."


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


# ---------------------------------------------------------------------------- verdict lines
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
