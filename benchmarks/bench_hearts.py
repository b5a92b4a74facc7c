"""Hearts and Trick of the Dead random playouts: torite's public protocol against a lean
plain-Python bitmask loop of the same game (``lean_loops.py``) and, for Hearts, against
OpenSpiel's C++ ``hearts`` driven from Python the same way, all in one process.

    .venv/bin/python benchmarks/bench_hearts.py [--rounds 4000] [--repeats 3] [--profile]

Every loop plays single rounds with uniform random decisions.  torite's loop is the protocol:
``to_act``, ``legal_actions``, a uniform choice, ``apply``.  pyspiel's loop is the same
through its Python API: ``legal_actions`` (or ``chance_outcomes`` at a chance node), a uniform
choice, ``apply_action``; its chance actions (the pass direction and 52 dealt cards) are not
counted as actions, its decisions are.  Times are the process's CPU time (``time.process_time``:
on a machine shared with other work, wall time measures the others too; pyspiel's C++ runs in
this process and counts alike); figures are the best of ``--repeats`` runs, interleaved.
Bars (issue 15): torite at least 0.5× the lean loop; goal 1× pyspiel.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lean_loops import hearts_round, trick_of_the_dead_round
from torite.engine.registry import make_game

Timing = tuple[int, int, float]  # rounds, actions, seconds


def lean(play: Callable[[random.Random], tuple[int, list[int]]], rounds: int) -> Timing:
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for _ in range(rounds):
        actions += play(rng)[0]
    return rounds, actions, time.process_time() - start


def torite_loop(game_id: str, rounds: int) -> Timing:
    game = make_game(game_id, {})
    rng = random.Random(1)
    actions = 0
    n = game.num_players
    start = time.process_time()
    for i in range(rounds):
        state = game.new_state(i, dealer=i % n, max_rounds=1)
        while not state.is_over():
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
                actions += 1
    return rounds, actions, time.process_time() - start


def pyspiel_loop(rounds: int) -> Timing:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform in hearts
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
    return rounds, actions, time.process_time() - start


def best_of(runs: dict[str, Callable[[], Timing]], repeats: int) -> dict[str, Timing]:
    """The fastest of ``repeats`` runs of each loop, the loops interleaved (a load that comes and
    goes on a shared machine then falls on all of them alike)."""
    out: dict[str, Timing] = {}
    for _ in range(repeats):
        for name, run in runs.items():
            t = run()
            if name not in out or t[2] / t[0] < out[name][2] / out[name][0]:
                out[name] = t
    return out


def line(name: str, t: Timing) -> tuple[float, float]:
    rounds, actions, secs = t
    print(f"  {name:<34} {rounds / secs:10.0f} rounds/s {actions / secs:12.0f} actions/s "
          f"({actions / rounds:.1f} actions a round)")
    return rounds / secs, actions / secs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--profile", action="store_true", help="profile torite's Hearts loop and print the top")
    args = ap.parse_args()
    r, k = args.rounds, args.repeats
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(torite_loop, "hearts", r)
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)
        return
    runs: dict[str, Callable[[], Timing]] = {
        "hearts lean": lambda: lean(hearts_round, r),
        "hearts torite": lambda: torite_loop("hearts", r),
        "totd lean": lambda: lean(trick_of_the_dead_round, r),
        "totd torite": lambda: torite_loop("trick-of-the-dead", r),
    }
    try:
        import pyspiel  # noqa: F401
        runs["hearts pyspiel"] = lambda: pyspiel_loop(r)
    except ImportError:
        pass
    torite_loop("hearts", 10)  # imports and one-off tables outside the timings
    got = best_of(runs, k)
    print(f"Hearts, {r} rounds, best of {k}:")
    lean_h = line("lean bitmask loop", got["hearts lean"])
    tor_h = line("torite protocol", got["hearts torite"])
    spiel_h = line("pyspiel (C++) from Python", got["hearts pyspiel"]) if "hearts pyspiel" in got else None
    if spiel_h is None:
        print("  pyspiel: not installed")
    print(f"Trick of the Dead, {r} rounds, best of {k}:")
    lean_t = line("lean bitmask loop", got["totd lean"])
    tor_t = line("torite protocol", got["totd torite"])
    print("Ratios (rounds/s; bar torite/lean >= 0.5, goal torite/pyspiel >= 1):")
    print(f"  Hearts            torite / lean    {tor_h[0] / lean_h[0]:5.2f}")
    if spiel_h is not None:
        print(f"  Hearts            torite / pyspiel {tor_h[0] / spiel_h[0]:5.2f}")
    print(f"  Trick of the Dead torite / lean    {tor_t[0] / lean_t[0]:5.2f}")


if __name__ == "__main__":
    main()
