"""Train a baseline policy for one seat of a torite game with MaskablePPO (sb3-contrib), and
export it for the ``learned`` bot (numpy only at run time).

    pip install -r requirements-baselines.lock        # torch (CPU) and sb3-contrib, pinned
    python examples/train_maskable_ppo.py kaedama --steps 150000 --out kaedama.npz
    python examples/train_maskable_ppo.py hearts --opponents random --steps 100000 --out hearts.npz

The environment is torite's Gymnasium environment (``torite.adapters.gymnasium``) through the
package's :class:`~torite.adapters.gymnasium.FlatMasked` wrapper: the observation vector as a
``Box`` and the legal actions from ``action_masks()``, which MaskablePPO reads at every step, so
the policy only ever chooses a legal action.  The agent's seat is drawn at every reset
(``seat="random"``), so one policy plays every seat; the other seats are torite bots
(``--opponents``, ``normal`` by default); an episode is one deal (``max_rounds=1``); the
reward is the seat's points for the deal (its return: minus the penalty points in Hearts).
Observations and rewards are normalised by running statistics (Stable-Baselines3's
``VecNormalize``), which the export keeps with the weights.

The export (``--out``, a ``.npz``): the policy network's layers (weights and biases, tanh
between them, the action logits last), the observation normaliser's mean, variance and clip,
and what the policy was trained on (game, options, seat, opponents, steps, seed), which
``torite.bots.learned`` reads.  Seeded (``--seed``): the same command gives the same policy
on the same machine (torch's CPU kernels are deterministic with one thread; ``--threads``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np


def make_env(game: str, opponents: str, options: dict[str, Any], seed: int, rank: int) -> Any:
    from stable_baselines3.common.monitor import Monitor

    from torite.adapters.gymnasium import flat_env

    def thunk() -> Any:
        env = flat_env(game, opponents=opponents, seat="random", max_rounds=1, **options)
        env.reset(seed=seed + rank)
        return Monitor(env)

    return thunk


def export(model: Any, norm: Any, path: Path, meta: dict[str, Any]) -> None:
    """The policy's action path as numpy arrays: features → policy MLP (tanh) → action logits."""
    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if hasattr(m, "weight")] + [policy.action_net]
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"b{i}"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    arrays["obs_mean"] = norm.obs_rms.mean.astype(np.float32)
    arrays["obs_var"] = norm.obs_rms.var.astype(np.float32)
    arrays["meta"] = np.array(json.dumps({**meta, "layers": len(layers), "clip_obs": float(norm.clip_obs),
                                          "epsilon": float(norm.epsilon)}))
    np.savez_compressed(path, **arrays)


def main() -> None:
    ap = argparse.ArgumentParser(description="MaskablePPO for one seat of a torite game; exports for the learned bot")
    ap.add_argument("game")
    ap.add_argument("--opponents", default="normal", help="the other seats' bots (default normal)")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--steps", type=int, default=150_000, help="agent steps (decisions) to train on")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: deterministic)")
    ap.add_argument("--out", type=Path, required=True, help="the .npz to write")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    from torite.cli.common import parse_options
    from torite.engine.registry import make_game

    torch.set_num_threads(args.threads)
    options = dict(make_game(args.game, parse_options(args.option)).options)
    venv = DummyVecEnv([make_env(args.game, args.opponents, options, args.seed, k) for k in range(args.envs)])
    norm = VecNormalize(venv, norm_obs=True, norm_reward=True, clip_obs=10.0, gamma=1.0)
    model = MaskablePPO("MlpPolicy", norm, n_steps=512, batch_size=256, n_epochs=5, gamma=1.0, gae_lambda=0.95,
                        learning_rate=3e-4, ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": {"pi": [128, 64], "vf": [128, 64]}})
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(total_timesteps=args.steps)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rewards = [r for env in venv.envs for r in env.get_episode_rewards()[-50:]]
    meta = {"game": args.game, "options": options, "seat": "random", "opponents": args.opponents,
            "steps": args.steps, "seed": args.seed, "algorithm": "MaskablePPO (sb3-contrib 2.9.2)",
            "cpu_seconds": round(cpu, 1),
            "command": f"python examples/train_maskable_ppo.py {args.game} --opponents {args.opponents} "
                       f"--steps {args.steps} --envs {args.envs} --seed {args.seed}"
                       + "".join(f" -o {o}" for o in args.option) + f" --out {args.out.name}"}
    export(model, norm, args.out, meta)
    mean = f"{float(np.mean(rewards)):.2f}" if rewards else "n/a"
    print(f"{args.game}: {args.steps} steps in {wall:.0f} s ({cpu:.0f} s of processor time); the last episodes' "
          f"mean return {mean}; written {args.out}")


if __name__ == "__main__":
    main()
