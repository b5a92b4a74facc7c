"""The batched environment (``torite.adapters.vector.ToriteVectorEnv``) against Gymnasium's
``make_vec`` sync vector of ``ToriteGymEnv`` (issue 38: at least 3× the agent steps a second
of ``make_vec`` sync ×8).

    .venv/bin/python benchmarks/bench_vec.py [--game hearts] [--opponents random] [--envs 8,64,256]
                                             [--steps 20000] [--rounds 5]

Both loops play the same policy: a uniformly random legal id per game, drawn from the mask
by numpy for the whole batch at once (``(u * mask).argmax(axis=1)``), so the policy costs the
same small part of both.  An *agent step* is one decision of the seat the environment plays
(the bots' moves between two of them are part of it).  Times are the process's CPU time
(``time.process_time``: the machine is shared and loaded, and wall time would count the other
work too), in rounds that alternate the loops (``make_vec`` ×8, then the batch at each
``--envs`` size, then again), so a change in the machine's load falls on every loop alike;
each figure is the median over the rounds.  Per call: the CPU time of one ``step`` call of the
whole batch, and of one agent step within it.  It prints which build of torite it measured.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from torite.adapters.gymnasium import make_vec
from torite.adapters.vector import ToriteVectorEnv
from torite.build import build_name


def loop(envs: Any, n: int, steps: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, agent steps) of ``steps`` agent steps or more, the environment reset first
    (not timed)."""
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    t0 = time.process_time()
    while done < steps:
        mask = obs["action_mask"]
        obs, _r, _term, _trunc, _info = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))
        done += n
    return time.process_time() - t0, done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--envs", default="8,64,256", help="batch sizes of the batched environment")
    ap.add_argument("--steps", type=int, default=20000, help="agent steps a loop a round")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sizes = [int(x) for x in args.envs.split(",")]
    makers: dict[str, tuple[int, Callable[[], Any]]] = {
        "make_vec sync x8": (8, lambda: make_vec(args.game, 8, opponents=args.opponents)),
    }
    for k in sizes:
        makers[f"batched x{k}"] = (k, lambda k=k: ToriteVectorEnv(args.game, k, opponents=args.opponents))
    made = {name: (n, make()) for name, (n, make) in makers.items()}
    rates: dict[str, list[float]] = {name: [] for name in made}
    calls: dict[str, list[float]] = {name: [] for name in made}
    loop(made["make_vec sync x8"][1], 8, 2000, 99)  # warm-up: imports, caches
    for r in range(args.rounds):
        for name, (n, envs) in made.items():
            seconds, done = loop(envs, n, args.steps, r)
            rates[name].append(done / seconds)
            calls[name].append(seconds / (done / n))
    print(f"{args.game}, opponents {args.opponents}, torite {build_name()} build; CPU time, median of "
          f"{args.rounds} interleaved rounds of {args.steps} agent steps")
    base = statistics.median(rates["make_vec sync x8"])
    print(f"{'loop':<18} {'agent steps/s':>14} {'x make_vec':>11} {'us/call':>9} {'us/agent step':>14}")
    for name in made:
        rate = statistics.median(rates[name])
        call = statistics.median(calls[name])
        print(f"{name:<18} {rate:>14,.0f} {rate / base:>10.2f}x {1e6 * call:>9,.0f} {1e6 / rate:>14.1f}")


if __name__ == "__main__":
    main()
