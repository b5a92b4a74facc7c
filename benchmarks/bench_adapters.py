"""Steps a second through the research adapters, with an observation at every step, against
OpenSpiel's own ``hearts`` with its information-state tensor, in one process and one run.

    .venv/bin/python benchmarks/bench_adapters.py [--game hearts] [--steps 6000] [--pairs 9]

Loops (random legal actions, single deals, seeds fixed):

* ``pettingzoo``: ``torite.adapters.pettingzoo.env(game)``, the usual ``agent_iter`` loop:
  ``last()`` (the acting agent's observation vector and action mask), an action drawn from the
  mask, ``step``.  The vector is kept up to date by the adapter's tracker.
* ``pettingzoo, whole encoding``: the same loop with each observation encoded whole from
  ``state.observation(seat)`` (what the adapter did before the tracker), for comparison.
* ``openspiel hearts``: pyspiel's ``hearts`` (C++), ``information_state_tensor(player)`` (its
  5,088 floats, as a Python list), ``legal_actions()``, ``apply_action``; its chance nodes (the
  pass direction and 52 cards dealt) are applied and not counted.
* ``openspiel hearts, numpy observer``: the same with the tensor written into a numpy array by
  ``make_observation`` (OpenSpiel's faster route, no Python list).
* ``python_torite_<game>``: torite's OpenSpiel adapter driven the same way, its tensor from
  the tracker.

A step is a decision.  Times are CPU times (``time.process_time``).  The ratios are medians of
sandwiches (OpenSpiel, torite, OpenSpiel, each a fraction of a second), the steady figure on a
shared machine; the best run of each loop is printed too.  The benchmark uses whatever
``torite`` is importable, and says which (a compiled build's modules are extension modules).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import torite
from torite.adapters.encoding import spec
from torite.adapters.pettingzoo import env as pettingzoo_env

Timing = tuple[int, float]  # steps, seconds


def build() -> str:
    """Which torite this is: its folder, and whether its modules are compiled."""
    from torite.engine.kit import state

    compiled = not str(state.__file__).endswith(".py")
    return f"torite from {torite.__file__.rsplit('/', 2)[0]} ({'compiled' if compiled else 'pure Python'})"


def pettingzoo_loop(game_id: str, steps: int, whole: bool = False) -> Timing:
    e = pettingzoo_env(game_id, max_rounds=1)
    raw = e.unwrapped
    if whole:  # the observation encoded whole, as before the tracker
        sp = spec(game_id)

        def observe(agent: str) -> dict[str, Any]:
            seat = raw.agent_name_mapping[agent]
            state = raw.game_state
            mask = (sp.actions.mask(raw.legal_actions()) if seat == raw._acting
                    else np.zeros(sp.actions.size, np.int8))
            return {"observation": sp.obs.encode(state.observation(seat)), "action_mask": mask}
        raw.observe = observe
    rng = random.Random(1)
    done = episode = 0
    start = time.process_time()
    while done < steps:
        e.reset(seed=episode)
        episode += 1
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            done += 1
    return done, time.process_time() - start


def openspiel_loop(name: str, steps: int, numpy_observer: bool = False, **params: Any) -> Timing:
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name, params)
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)) if numpy_observer else None
    rng = random.Random(1)
    done = 0
    start = time.process_time()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            if observer is not None:
                observer.set_from(state, player)
            else:
                state.information_state_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return done, time.process_time() - start


def rate(t: Timing) -> float:
    return t[0] / t[1]


def sandwiched(yardstick: Callable[[], Timing], loop: Callable[[], Timing], pairs: int) -> tuple[float, float, float]:
    """The loop's speed over the yardstick's, run as yardstick, loop, yardstick, ``pairs`` times;
    the median and quartiles of the ratios."""
    ratios = []
    for _ in range(pairs):
        a, b, c = yardstick(), loop(), yardstick()
        ratios.append(rate(b) / ((rate(a) + rate(c)) / 2))
    ratios.sort()
    q = len(ratios) // 4
    return statistics.median(ratios), ratios[q], ratios[-1 - q]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hearts", help="the torite game of the PettingZoo loops")
    ap.add_argument("--steps", type=int, default=6000, help="steps of each timed run")
    ap.add_argument("--pairs", type=int, default=9, help="sandwiches for the ratios")
    args = ap.parse_args()
    print(build())
    game, steps = args.game, args.steps
    loops: dict[str, Callable[[], Timing]] = {
        "pettingzoo": lambda: pettingzoo_loop(game, steps),
        "pettingzoo, whole encoding": lambda: pettingzoo_loop(game, steps // 4, whole=True),
    }
    try:
        import pyspiel

        import torite.adapters.openspiel as adapter
    except ImportError:
        print("OpenSpiel is not installed: pip install 'torite[research]'")
        pyspiel = None
    if pyspiel is not None:
        loops["openspiel hearts"] = lambda: openspiel_loop("hearts", steps)
        loops["openspiel hearts, numpy observer"] = lambda: openspiel_loop("hearts", steps, numpy_observer=True)
        loops[adapter.short_name(game)] = lambda: openspiel_loop(adapter.short_name(game), steps // 2)
    for run in loops.values():  # warm up: imports, tables, the interpreter's specialisation
        run()
    best: dict[str, float] = {}
    for _ in range(3):
        for name, run in loops.items():
            best[name] = max(best.get(name, 0.0), rate(run()))
    print(f"steps a second, best of 3 ({game} for torite's loops):")
    for name, r in best.items():
        print(f"  {name:<36} {r:10,.0f}")
    if pyspiel is not None:
        yardstick = loops["openspiel hearts"]
        print(f"against openspiel hearts, median of {args.pairs} sandwiches [quartiles]:")
        for name in ("pettingzoo", "pettingzoo, whole encoding", "openspiel hearts, numpy observer",
                     adapter.short_name(game)):
            med, lo, hi = sandwiched(yardstick, loops[name], args.pairs)
            print(f"  {name:<36} {med:5.2f}x [{lo:.2f}, {hi:.2f}]")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
