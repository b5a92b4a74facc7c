"""Baselines on fixed deals: one seat's bot level against the game's ``normal`` bots, every
level on the same deals (duplicate), with 95% intervals.  The table of ``docs/research.md``
(every bot level and the trained policy, per game) comes from here:

    python -m torite.evaluate kaedama --levels random,easy,normal,learned,hard --deals 300 --jobs 2
    python -m torite.evaluate hearts --levels random,normal --deals 200 --json

Deal ``i`` is one single round seeded ``derive_seed(seed, "evaluate", i)``, dealt by seat
``i mod n`` as round ``i``; the level plays seat ``i mod n`` (so the seats take turns, deal by
deal), and every other seat plays ``--others`` (``normal``), seeded
``derive_seed(seed, "evaluate-bots", i)`` as the arena seeds a seating's bots: for a given deal
every level meets the same cards, the same seat and the same opponents with the same random
streams, and only its own decisions differ.  Per level: its seat's points a deal (the mean over
deals, with a 95% normal interval over deals), and its difference from ``normal`` playing that
seat on the same deals (paired deal by deal, 95% interval); in a game of penalty points (Hearts)
fewer is better.  A level the game has no bot for (``learned`` without a policy) is reported as
missing, with why.  The numbers are a function of the seed and the levels alone, whatever
``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from torite.arena import play_round
from torite.bots import BotError, make_bot, parse_bots
from torite.engine.registry import make_game
from torite.parallel import add_backend_arguments, ordered_map, start_backend
from torite.seeds import derive_seed
from torite.stats import interval_text, mean_ci

_Job = tuple[str, dict[str, Any], list[str], str, int, int]


def _deal(job: _Job) -> list[float]:
    """Deal ``index`` played once for each level: the level's seat's points each time."""
    game_id, options, levels, others, seed, index = job
    game = make_game(game_id, options)
    n = game.num_players
    seat = index % n
    deal_seed = derive_seed(seed, "evaluate", index)
    bot_seed = derive_seed(seed, "evaluate-bots", index)
    out = []
    for level in levels:
        names = [level if s == seat else others for s in range(n)]
        out.append(float(play_round(game, names, deal_seed, index % n, bot_seed, first_round=index)[seat]))
    return out


def evaluate(game_id: str, levels: Sequence[str], deals: int, *, options: Mapping[str, Any] | None = None,
             others: str = "normal", seed: int = 0, jobs: int = 1, backend: str = "local",
             address: str | None = None) -> dict[str, Any]:
    """Play ``deals`` deals for every level (see the module docstring); JSON-ready."""
    if deals < 2:
        raise ValueError("deals must be at least 2: an interval needs two deals")
    game = make_game(game_id, options or {})
    playable: list[str] = []
    missing: dict[str, str] = {}
    for level in dict.fromkeys([*levels, "normal"]):
        parse_bots([level], 1)  # an unknown name is an error, not a missing level
        try:
            make_bot(level, game, 0, 0)
        except BotError as e:
            missing[level] = str(e)
            continue
        playable.append(level)
    make_bot(others, game, 0, 0)  # an unknown name fails here, before any deal
    where = start_backend(backend, address, jobs)
    jobs_list: list[_Job] = [(game_id, dict(game.options), playable, others, seed, i) for i in range(deals)]
    start, cpu = time.perf_counter(), time.process_time()
    rows = list(ordered_map(_deal, jobs_list, jobs, chunksize=1 if backend == "local" else None,
                            backend=backend, address=address))
    ref = playable.index("normal")
    out: dict[str, Any] = {"game": game_id, "options": dict(game.options), "others": others, "seed": seed,
                           "deals": deals, "score_sign": game.SCORE_SIGN, "levels": {}, "missing": missing,
                           "jobs": where.jobs, "seconds": time.perf_counter() - start,
                           "cpu_seconds": time.process_time() - cpu}
    for k, level in enumerate(playable):
        ci = mean_ci([r[k] for r in rows])
        diff = mean_ci([r[k] - r[ref] for r in rows])
        out["levels"][level] = {"points_per_deal": ci.mean, "ci95": ci.interval,
                                "minus_normal": diff.mean, "minus_normal_ci95": diff.interval}
    return out


def table(result: Mapping[str, Any]) -> str:
    """A level a line: points a deal with its interval, and against ``normal``."""
    lines = [f"{result['game']}: one seat against {result['others']} bots, {result['deals']} deals (seed "
             f"{result['seed']}){'; fewer is better' if result['score_sign'] < 0 else ''}"]
    for level, row in result["levels"].items():
        diff = "" if level == "normal" else (f"   {row['minus_normal']:+.2f} {interval_text(row['minus_normal_ci95'])}"
                                             " against normal")
        lines.append(f"  {level:>10}: {row['points_per_deal']:7.2f} {interval_text(row['ci95'])}{diff}")
    for level, why in result["missing"].items():
        lines.append(f"  {level:>10}: not played ({why})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m torite.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--levels", default="random,easy,normal,learned")
    ap.add_argument("--others", default="normal")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--policies", default=None, metavar="DIR",
                    help="a folder of trained policies (<game id>.npz) the learned level plays, before the "
                         "shipped ones")
    ap.add_argument("--json", action="store_true")
    add_backend_arguments(ap)
    args = ap.parse_args(argv)
    if args.policies is not None:  # read by the learned bot, in the workers too
        from torite.bots.learned import POLICIES_ENV

        os.environ[POLICIES_ENV] = os.pathsep.join([str(Path(args.policies).resolve()),
                                                    *filter(None, [os.environ.get(POLICIES_ENV)])])
    try:
        out = evaluate(args.game, [x.strip() for x in args.levels.split(",") if x.strip()], args.deals,
                       others=args.others, seed=args.seed, jobs=args.jobs, backend=args.backend, address=args.address)
    except (ValueError, BotError) as e:
        print(f"torite evaluate: {e}", file=sys.stderr)
        return 2
    print(json.dumps(out) if args.json else table(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
