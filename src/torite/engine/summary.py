"""A round's points, explained: the ``summary`` of the ``round_end`` event.

Why: a newcomer reads a round summary to learn where the points came from.  Every game puts in
its ``round_end`` data a ``summary`` from which each seat's points can be recomputed:

- ``rows``: one value per seat each, ``adds`` for the rows whose values add up to the points
  (diamonds, clubs, a joker bonus), the others facts that explain them (tricks won).  A row may
  carry ``count`` and ``per`` (3 hearts × 1, 1 queen × 13): then each value is count × per.
- ``steps``: per seat, a calculation read left to right, for games whose scoring multiplies
  (Mighty's 2·(B−M)+(P−B), its doublings and shares; Seconds' tricks × a partner's tricks):
  ``{"key", "value", "op"}`` with ``op`` one of ``=`` (start), ``+``, ``-``, ``×``.

A seat's points are the sum of its adding rows plus the result of its steps; :func:`problems`
says where a summary does not add up (the conformance suite runs it over random rounds of every
game).  The keys are words of the game's labels (``summary``), shown with their units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: a step's operation on the running value
OPS = ("=", "+", "-", "×")


def row(key: str, values: Sequence[int], *, adds: bool = True, count: Sequence[int] | None = None,
        per: int | None = None) -> dict[str, Any]:
    """A summary row: ``values`` by seat; with ``count`` and ``per``, each value is count × per."""
    out: dict[str, Any] = {"key": key, "values": list(values), "adds": adds}
    if count is not None:
        out["count"] = list(count)
    if per is not None:
        out["per"] = per
    return out


def step(key: str, value: int, op: str = "×") -> dict[str, Any]:
    """One step of a seat's calculation (``op`` ``=`` for the first)."""
    return {"key": key, "value": value, "op": op}


def summary(rows: Sequence[Mapping[str, Any]] = (),
            steps: Sequence[Sequence[Mapping[str, Any]]] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {"rows": [dict(r) for r in rows]}
    if steps:
        out["steps"] = [[dict(s) for s in seat] for seat in steps]
    return out


def evaluate(steps: Sequence[Mapping[str, Any]]) -> int:
    """The result of one seat's steps (0 for none)."""
    value = 0
    for s in steps:
        op, v = s["op"], s["value"]
        if op == "=":
            value = v
        elif op == "+":
            value += v
        elif op == "-":
            value -= v
        elif op == "×":
            value *= v
        else:
            raise ValueError(f"unknown step operation {op!r}")
    return value


def points(summary: Mapping[str, Any], seats: int) -> list[int]:
    """Each seat's points as the summary gives them."""
    steps = summary.get("steps") or [[] for _ in range(seats)]
    return [sum(r["values"][s] for r in summary["rows"] if r["adds"]) + evaluate(steps[s]) for s in range(seats)]


def problems(summary: Mapping[str, Any], round_points: Sequence[int]) -> list[str]:
    """What in a summary does not add up to the round's points (empty: it explains them)."""
    n = len(round_points)
    out = []
    for r in summary["rows"]:
        if len(r["values"]) != n:
            out.append(f"row {r['key']} has {len(r['values'])} values for {n} seats")
            return out
        if "count" in r and "per" in r and [c * r["per"] for c in r["count"]] != r["values"]:
            out.append(f"row {r['key']}: count × {r['per']} is not its values")
        for s in r.get("steps", ()):
            if s["op"] not in OPS:
                out.append(f"row {r['key']}: unknown operation {s['op']!r}")
    if "steps" in summary and len(summary["steps"]) != n:
        out.append(f"steps for {len(summary['steps'])} seats, not {n}")
        return out
    got = points(summary, n)
    if got != list(round_points):
        out.append(f"the summary gives {got}, the round's points are {list(round_points)}")
    return out
