"""Duplicate evaluation of bots: the same deals, every seating, paired statistics.

Every *deal* is one seeded single round (``game.new_state(seed, dealer=…, max_rounds=1,
first_round=…)``, the dealer rotating with the deal number, which is also the round's number, so
a game whose rounds differ by number plays them in turn).  A deal is played once for each *seating*, so the
luck of the cards falls on every bot alike and cancels in the comparisons.

Seatings.  A seating gives every seat a bot; the seatings used are all the assignments of the
bots to the seats in which every bot sits at least once (onto maps).  With as many bots as
seats these are the ``n!`` permutations.  With fewer bots than seats a bot sits in several
seats of one round, e.g. for two bots A, B in three seats: ``AAB ABA BAA ABB BAB BBA``.  The
set is closed under renaming the bots, so every bot sits in every seat equally often and plays
every deal equally often.  When a bot holds several seats of one round each seat counts as one
of its rounds.

Numbers per bot (over all deals, seatings and seats it held):

- ``points_per_round``: mean round points.
- ``ci95``: a 95% normal interval of that mean, ``[low, high]``, from the *per-deal* means (a
  deal's seatings are not independent, a deal is), so it reflects the duplicate pairing; ``None``
  from a single deal, whose spread cannot be measured.
- ``win_rate``: the mean share of round wins per seat played: the seats with the top score of
  a round (the lowest, in a game of penalty points: ``score_sign`` -1) share one win equally (a
  tie of two gives each 1/2), so the shares of a round sum to 1 and a bot that is no better
  than the others scores 1/(number of seats).
- ``seconds_per_decision`` (mean), ``seconds_per_decision_p50``, ``..._p99``, ``decisions``:
  wall time of ``act`` over all its decisions, forced ones included.  (Timing varies run to
  run; every other number is a function of the seed alone, whatever ``jobs``.)

``pairs``: for every two bots ``a`` before ``b`` in the list, ``diff`` is the mean over deals
of (a's mean minus b's mean on that deal) – a paired difference – with its 95% interval (``None``
from a single deal).  In a
game of penalty points (``score_sign`` -1, Hearts) a negative difference means ``a`` is better.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from torite.bots import make_bot
from torite.engine import driver
from torite.engine.base import Action, Game
from torite.engine.registry import make_game
from torite.parallel import ordered_map, start_backend
from torite.seeds import derive_seed
from torite.stats import mean_ci


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """Every assignment of ``bots`` bots (by index) to ``seats`` seats using each bot at least
    once, in lexicographic order."""
    if not 1 <= bots <= seats:
        raise ValueError(f"{bots} bots for {seats} seats: name from 1 to {seats} bots")
    return [s for s in itertools.product(range(bots), repeat=seats) if len(set(s)) == bots]


@dataclass
class DealResult:
    """One deal played under every seating: ``points[j][seat]`` for seating ``j``, and the
    decision times of each bot (by index)."""

    index: int
    points: list[tuple[int, ...]]
    times: list[list[float]]


def play_round(game: Game, names: Sequence[str], deal_seed: int, dealer: int, bot_seed: int,
               times: list[list[float]] | None = None, owners: Sequence[int] | None = None,
               first_round: int = 0, log: list[tuple[int, str]] | None = None) -> tuple[int, ...]:
    """Play one single-round deal between named bots; returns the round's points by seat.

    The bots share one generator, seeded ``bot_seed``.  With ``times`` and ``owners`` (seat →
    bot index), each decision's wall time of ``act`` is
    appended to ``times[owners[seat]]``; ``log`` receives every action as (seat, text)."""
    state = game.new_state(deal_seed, dealer=dealer, max_rounds=1, first_round=first_round)
    rng = random.Random(bot_seed)  # one generator for the bots of the round (see torite.sim)
    players = {s: make_bot(name, game, s, rng) for s, name in enumerate(names)}
    timed = times is not None and owners is not None
    if timed or log is not None:
        sink, owner = times, owners

        def on_action(seat: int, action: Action, seconds: float) -> None:
            if sink is not None and owner is not None:
                sink[owner[seat]].append(seconds)
            if log is not None:
                log.append((seat, str(action)))

        driver.run(state, players, on_action=on_action, timed=timed)
    else:
        driver.run(state, players)
    res = state.result()
    return res.round_scores[-1] if res.round_scores else res.scores


_Job = tuple[str, dict[str, Any], list[str], int, int]


def _run_deal(job: _Job) -> DealResult:
    game_id, options, bots, seed, index = job
    game = make_game(game_id, options)
    n = game.num_players
    deal_seed = derive_seed(seed, "arena-deal", index)
    times: list[list[float]] = [[] for _ in bots]
    points = []
    for j, seating in enumerate(seatings(len(bots), n)):
        names = [bots[b] for b in seating]
        bot_seed = derive_seed(seed, "arena-bots", index, j)
        points.append(play_round(game, names, deal_seed, index % n, bot_seed, times, seating, index))
    return DealResult(index, points, times)


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summarize(bots: Sequence[str], seats: int, deals: Sequence[DealResult], sign: int = 1) -> dict[str, Any]:
    """The per-bot and per-pair numbers from played deals (pure: no play, no clock).  ``sign`` is
    the game's ``SCORE_SIGN``: with -1 (penalty points) the lowest score of a round wins it."""
    k = len(bots)
    plan = seatings(k, seats)
    per_deal: list[list[float]] = [[] for _ in bots]  # per_deal[b][d]: bot b's mean on deal d
    wins = [0.0] * k
    rounds = [0] * k
    times: list[list[float]] = [[] for _ in bots]
    for deal in deals:
        sums = [0.0] * k
        counts = [0] * k
        for seating, pts in zip(plan, deal.points, strict=True):
            top = max(pts) if sign > 0 else min(pts)
            share = 1.0 / sum(1 for p in pts if p == top)
            for seat, b in enumerate(seating):
                sums[b] += pts[seat]
                counts[b] += 1
                if pts[seat] == top:
                    wins[b] += share
        for b in range(k):
            per_deal[b].append(sums[b] / counts[b])
            rounds[b] += counts[b]
            times[b].extend(deal.times[b] if b < len(deal.times) else [])
    rows = []
    for b, name in enumerate(bots):
        ci = mean_ci(per_deal[b])
        ts = sorted(times[b])
        rows.append({
            "name": name,
            "points_per_round": ci.mean,
            "ci95": ci.interval,
            "win_rate": wins[b] / rounds[b] if rounds[b] else 0.0,
            "rounds": rounds[b],
            "decisions": len(ts),
            "seconds_per_decision": math.fsum(ts) / len(ts) if ts else 0.0,
            "seconds_per_decision_p50": _quantile(ts, 0.50),
            "seconds_per_decision_p99": _quantile(ts, 0.99),
        })
    pairs = []
    for a, b in itertools.combinations(range(k), 2):
        ci = mean_ci([x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)])
        pairs.append({"a": bots[a], "b": bots[b], "diff": ci.mean, "ci95": ci.interval})
    return {"bots": rows, "pairs": pairs}


def arena(game_id: str, options: Mapping[str, Any] | None, bots: Sequence[str], deals: int, seed: int = 0,
          jobs: int = 1, progress: Callable[[int, int], None] | None = None, backend: str = "local",
          address: str | None = None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between ``bots`` (distinct names, at most one per seat)
    and summarize; see the module docstring for every number.  ``backend="ray"`` plays the
    deals on Ray, several per task (the cluster at ``address``, else a local one)."""
    game = make_game(game_id, options)
    names = list(bots)
    if len(set(names)) != len(names):
        raise ValueError("name each bot once: the arena seats the bots itself")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    n = game.num_players
    plan = seatings(len(names), n)
    for name in names:  # fail fast on an unknown name, before any worker starts
        make_bot(name, game, 0, 0)
    where = start_backend(backend, address, jobs)  # Ray's start-up before the clock
    job_list: list[_Job] = [(game_id, dict(game.options), names, seed, i) for i in range(deals)]
    results: list[DealResult] = []
    start = time.perf_counter()
    # a deal is long: show each one locally; on Ray batch them, a task costs more than a deal
    chunk = 1 if backend == "local" else None
    for res in ordered_map(_run_deal, job_list, jobs, chunksize=chunk, backend=backend, address=address):
        results.append(res)
        if progress is not None:
            progress(len(results), deals)
    out: dict[str, Any] = {
        "game": game_id,
        "options": dict(game.options),
        "seed": seed,
        "deals": deals,
        "seatings": [[names[b] for b in s] for s in plan],
        "rounds": deals * len(plan),
        "jobs": where.jobs,
        "seconds": time.perf_counter() - start,
    }
    if backend != "local":
        out["backend"] = backend
        out["ray"] = where.to_json()
    out["score_sign"] = game.SCORE_SIGN
    out.update(summarize(names, n, results, game.SCORE_SIGN))
    return out


def plot(result: Mapping[str, Any], path: str) -> None:
    """A bar chart of points per round with the 95% intervals, and win rates, to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["bots"]
    names = [r["name"] for r in rows]
    means = [r["points_per_round"] for r in rows]
    err = [[m - r["ci95"][0] if r["ci95"] else 0.0 for m, r in zip(means, rows)],
           [r["ci95"][1] - m if r["ci95"] else 0.0 for m, r in zip(means, rows)]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(4 + 1.6 * len(names), 4.2))
    xs = range(len(names))
    ax1.bar(xs, means, yerr=err, capsize=6, color="#4c72b0")
    ax1.set_xticks(list(xs), names)
    ax1.set_ylabel("points per round (95% interval)" if rows[0]["ci95"] else "points per round (one deal: no interval)")
    ax1.axhline(0, color="black", linewidth=0.6)
    ax2.bar(xs, [100 * r["win_rate"] for r in rows], color="#dd8452")
    ax2.set_xticks(list(xs), names)
    ax2.set_ylabel("round wins (%)")
    seats = len(result["seatings"][0]) if result.get("seatings") else 0
    if seats:
        ax2.axhline(100 / seats, color="black", linewidth=0.6, linestyle="--")
    fig.suptitle(f"{result['game']}: {result['deals']} duplicate deals × {len(result.get('seatings', []))} "
                 f"seatings, seed {result['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
