"""Throughput of random self-play for every game: rounds/s and actions/s with 1 and 2 local
processes and on Ray, one line per game.

    .venv/bin/python benchmarks/bench_throughput.py [--rounds 4000] [--game kaedama] [--no-ray]
                                                    [--ray-cpus 2 | --address ADDR] [--json]

Every figure is ``torite.sim.simulate`` on ``--rounds`` single rounds with random bots, timed
inside it (Ray's start-up and its workers' first imports are paid before, by a warm-up run).
The numbers played are the same on every backend (the tests check it); only the speed differs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from torite.engine.registry import game_ids, make_game
from torite.sim import simulate


def measure(game_id: str, rounds: int, jobs: int, backend: str = "local",
            address: str | None = None) -> dict[str, float]:
    bots = ["random"] * make_game(game_id).num_players
    out = simulate(game_id, {}, bots, rounds=rounds, seed=1, jobs=jobs, backend=backend, address=address)
    return {"rounds_per_second": out["rounds_per_second"], "actions_per_second": out["actions_per_second"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--game", action="append", default=None, help="a game id (repeatable; default: all)")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--ray-cpus", type=int, default=2, help="CPUs of the local Ray started here")
    ap.add_argument("--address", default=None, help="a Ray cluster to use instead of a local one")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    games = args.game or game_ids()
    columns = ["1 process", "2 processes"] + ([] if args.no_ray else ["ray"])
    rows: dict[str, dict[str, Any]] = {}
    # local figures first: worker processes forked from a process running Ray inherit it
    for g in games:
        rows[g] = {"1 process": measure(g, args.rounds, 1), "2 processes": measure(g, args.rounds, 2)}
    if not args.no_ray:
        import ray

        if args.address:
            ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(num_cpus=args.ray_cpus, include_dashboard=False, log_to_driver=False)
        measure(games[0], 200, 1, "ray")  # warm-up: workers start and import torite
        for g in games:
            rows[g]["ray"] = measure(g, args.rounds, 1, "ray")
    if not args.json:
        print(f"random self-play, {args.rounds} single rounds per figure")
        print(f"{'game':<20}" + "".join(f"{c + ' rounds/s':>22}{'actions/s':>12}" for c in columns))
        for g, row in rows.items():
            print(f"{g:<20}" + "".join(f"{row[c]['rounds_per_second']:>22,.0f}{row[c]['actions_per_second']:>12,.0f}"
                                       for c in columns))
    if args.json:
        print(json.dumps({"rounds": args.rounds, "columns": columns, "games": rows}))


if __name__ == "__main__":
    main()
