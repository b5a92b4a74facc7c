"""Many games at once: self-play of bots, statistics with confidence intervals.

Every unit of work (one round, or one whole game) gets its own seed derived from the run's
seed and the unit's index, and results are folded in index order, so the numbers are the same
whatever the number of worker processes.

The bots of one game share one generator, seeded ``derive_seed(seed, "bots")``: a Mersenne
Twister costs more to seed than a random round of Hearts costs to play (issue 37), and the
driver asks one bot at a time, so one stream serves them all as reproducibly as one each.  A
worker keeps the game object and, for bots that keep nothing between decisions but their
generator (``Bot.stateless``), the bots themselves, reseeding their generator each unit: the
same draws as bots made afresh, without making them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from torite.bots import make_bot
from torite.engine import driver
from torite.engine.base import Action, Game, State
from torite.engine.bot import Bot
from torite.engine.registry import make_game
from torite.parallel import ordered_map, start_backend
from torite.record import Record, start_record
from torite.seeds import derive_seed
from torite.stats import mean_ci

__all__ = ["UnitResult", "derive_seed", "play", "simulate"]


@dataclass
class UnitResult:
    index: int
    round_scores: list[tuple[int, ...]]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    stats: dict[str, float]
    actions: int
    record: dict[str, Any] | None = None
    decision_seconds: list[float] = field(default_factory=list)


def make_players(game: Game, bots: Sequence[str], rng: random.Random) -> dict[int, Bot]:
    """The named bots of a game, seat by seat, sharing the generator ``rng``."""
    return {s: make_bot(name, game, s, rng) for s, name in enumerate(bots)}


def play(game: Game, bots: Sequence[str], seed: int, *, dealer: int | None = None,
         max_rounds: int | None = None, keep_record: bool = False,
         bot_seed: int | None = None, first_round: int = 0,
         players: dict[int, Bot] | None = None) -> tuple[State, Record | None, int]:
    """Play one game between named bots; returns the final state, its record, and the number
    of actions taken.  The bots share one generator seeded ``derive_seed(bot_seed or seed,
    "bots")``; ``players``: those bots already made (their generator is reseeded here)."""
    state = game.new_state(seed, dealer=dealer, max_rounds=max_rounds, first_round=first_round)
    rng_seed = derive_seed(seed if bot_seed is None else bot_seed, "bots")
    if players is None:
        players = make_players(game, bots, random.Random(rng_seed))
    else:
        for bot in players.values():  # one generator, shared: seeding it once reseeds them all
            bot.rng.seed(rng_seed)
            break
    rec = start_record(game, seed, [f"bot:{b}" for b in bots], dealer=dealer,
                       max_rounds=max_rounds, first_round=first_round) if keep_record else None
    on_action: Callable[[int, Action, float], None] | None = None
    if rec is not None:
        log = rec.actions

        def on_action(seat: int, action: Action, _seconds: float) -> None:
            log.append((seat, game.action_text(action)))

    actions = driver.run(state, players, on_action=on_action)
    if rec is not None:
        rec.result = state.result().to_json()
    return state, rec, actions


_Job = tuple[str, dict[str, Any], list[str], int, str, bool, int]


#: a worker's games and reusable bots, by (game id, options, bot names): kept across units
_KEPT: dict[tuple[str, str, tuple[str, ...]], tuple[Game, dict[int, Bot] | None]] = {}
_KEPT_MAX = 16


def _kept(game_id: str, options: dict[str, Any], bots: list[str]) -> tuple[Game, dict[int, Bot] | None]:
    """The game of a unit, and its bots when every one is ``stateless`` (else None: made anew
    each game), made once per worker process."""
    key = (game_id, repr(options), tuple(bots))
    found = _KEPT.get(key)
    if found is None:
        if len(_KEPT) >= _KEPT_MAX:
            _KEPT.clear()
        game = make_game(game_id, options)
        players = make_players(game, bots, random.Random(0))
        found = _KEPT[key] = (game, players if all(b.stateless for b in players.values()) else None)
    return found


def _run_unit(job: _Job) -> UnitResult:
    game_id, options, bots, seed, mode, keep, index = job
    game, players = _kept(game_id, options, bots)
    unit_seed = derive_seed(seed, mode, index)
    if mode == "rounds":
        # round ``index`` of a game, so games whose rounds differ by number play them in turn
        state, rec, actions = play(game, bots, unit_seed, dealer=index % game.num_players,
                                   max_rounds=1, keep_record=keep, first_round=index, players=players)
    else:
        state, rec, actions = play(game, bots, unit_seed, keep_record=keep, players=players)
    res = state.result()
    return UnitResult(index, list(res.round_scores), res.scores, res.winners, state.stats(), actions,
                      rec.to_json() if rec else None)


def simulate(game_id: str, options: Mapping[str, Any], bots: Sequence[str], *, rounds: int | None = None,
             games: int | None = None, seed: int = 0, jobs: int = 1, records: str | Path | None = None,
             progress: Callable[[int, int], None] | None = None, backend: str = "local",
             address: str | None = None) -> dict[str, Any]:
    """Play ``rounds`` single rounds (dealer rotating, single round ``i`` played as round ``i``
    of a game: ``first_round=i``) or ``games`` whole games; summarize.  ``backend="ray"`` plays
    them on Ray (the cluster at ``address``, else a local one): the same numbers."""
    if (rounds is None) == (games is None):
        raise ValueError("give exactly one of rounds or games")
    count = rounds if rounds is not None else games
    assert count is not None
    if count < 1:
        raise ValueError("the number of rounds or games must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    game = make_game(game_id, options)
    n = game.num_players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} seats")
    where = start_backend(backend, address, jobs)  # Ray's start-up before the clock: not in the rates
    mode = "rounds" if rounds is not None else "games"
    keep = records is not None
    jobs_list: list[_Job] = [(game_id, dict(game.options), list(bots), seed, mode, keep, i)
                             for i in range(count)]
    start = time.perf_counter()
    results: list[UnitResult] = []
    outdir = Path(records) if records is not None else None
    if outdir is not None:
        outdir.mkdir(parents=True, exist_ok=True)
    for res in ordered_map(_run_unit, jobs_list, jobs, backend=backend, address=address):
        results.append(res)
        if outdir is not None and res.record is not None:
            Record.from_json(res.record).save(outdir / f"{game_id}-{seed}-{mode}-{res.index:06d}.json")
        if progress is not None:
            progress(len(results), count)
    elapsed = time.perf_counter() - start
    round_rows = [r for res in results for r in res.round_scores]
    per_seat = [mean_ci([float(r[s]) for r in round_rows]) for s in range(n)]
    total_actions = sum(res.actions for res in results)
    stat_totals = {k: math.fsum(res.stats.get(k, 0.0) for res in results) for k in game.STAT_KEYS}
    out: dict[str, Any] = {
        "game": game_id,
        "options": dict(game.options),
        "bots": list(bots),
        "seed": seed,
        "mode": mode,
        "rounds": len(round_rows),
        "points_per_round": [ci.mean for ci in per_seat],
        # [low, high] per seat, as in every JSON of torite; None from a single round (no spread)
        "points_per_round_ci95": [ci.interval for ci in per_seat],
        "stats": {f"{k}_per_round": v / max(1, len(round_rows)) for k, v in stat_totals.items()},
        "actions": total_actions,
        "rounds_per_second": len(round_rows) / elapsed if elapsed > 0 else 0.0,
        "actions_per_second": total_actions / elapsed if elapsed > 0 else 0.0,
        "jobs": where.jobs,
    }
    if backend != "local":
        out["backend"] = backend
        out["ray"] = where.to_json()
    if mode == "games":
        out["games"] = len(results)
        out["wins"] = [sum(1 for res in results if s in res.winners) for s in range(n)]
        finals = [mean_ci([float(res.scores[s]) for res in results]) for s in range(n)]
        out["final_score_mean"] = [ci.mean for ci in finals]
        out["rounds_per_game"] = len(round_rows) / len(results)
    return out

