"""``learned``: a policy trained by reinforcement learning, played with numpy alone.

A baseline to beat, as RLCard ships them: a small network trained with MaskablePPO against
torite's ``normal`` bots (``examples/train_maskable_ppo.py``; the command that made it is in the
file), kept as a package data file (``torite/bots/policies/<game id>.npz``: its layers, the
observation normaliser and what it was trained on).  Torch is needed to train it, never to play
it: a decision encodes the seat's observation as the research adapters do
(:meth:`torite.adapters.encoding.ObsSpec.encode`, the vector the policy was trained on),
normalises it, runs the layers (tanh between them) and plays the legal action with the highest
logit.  No randomness, no clock: a decision is a function of the observation alone.

Only the games with a policy file have the bot (``kaedama`` ships; ``TORITE_POLICIES`` names
folders of one's own); another game, or options that change the observation's layout, is
refused saying so.  It needs numpy (torite's research extra).
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from torite.bots.registry import BotError
from torite.engine.base import Action, Game
from torite.engine.bot import Bot

POLICIES = Path(__file__).resolve().parent / "policies"
#: folders (``os.pathsep``-separated) searched before the shipped policies: a policy of one's own,
#: ``<game id>.npz`` as the example exports it (``python -m torite.evaluate --policies DIR``)
POLICIES_ENV = "TORITE_POLICIES"


def _folders() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(POLICIES_ENV, "").split(os.pathsep) if p]
    return [*extra, POLICIES]


def policy_games() -> list[str]:
    """The games a policy is found for (shipped: ``kaedama``)."""
    return sorted({p.stem for folder in _folders() for p in folder.glob("*.npz")})


def policy_path(game_id: str) -> Path | None:
    for folder in _folders():
        path = folder / f"{game_id}.npz"
        if path.is_file():
            return path
    return None


class Policy:
    """A trained policy's network, read from its ``.npz`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        import numpy as np

        with np.load(path) as data:
            self.meta: dict[str, Any] = json.loads(str(data["meta"]))
            k = int(self.meta["layers"])
            self.layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(k)]
            self.mean = data["obs_mean"]
            self.scale = 1.0 / np.sqrt(data["obs_var"] + float(self.meta["epsilon"]))
        self.clip = float(self.meta["clip_obs"])
        self.size = int(self.layers[0][0].shape[1])
        self.actions = int(self.layers[-1][0].shape[0])

    def logits(self, vector: Any) -> Any:
        """The action logits of an observation vector."""
        import numpy as np

        x = np.clip((vector - self.mean) * self.scale, -self.clip, self.clip)
        for i, (w, b) in enumerate(self.layers):
            x = w @ x + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        return x


def load_policy(game_id: str) -> Policy:
    path = policy_path(game_id)
    if path is None:
        have = ", ".join(policy_games()) or "none"
        raise BotError(f"the learned bot has no policy for {game_id} (it has one for: {have}; train one: "
                       "examples/train_maskable_ppo.py)")
    return _load(path)


@functools.lru_cache(maxsize=16)
def _load(path: Path) -> Policy:
    return Policy(path)


class LearnedBot(Bot):
    """Plays the shipped policy of its game (see the module docstring)."""

    name = "learned"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        try:
            from torite.adapters.encoding import spec
        except ImportError as e:  # numpy, the research extra
            raise BotError(f"the learned bot needs numpy: pip install 'torite[research]' ({e})") from None
        self.policy = load_policy(game.id)
        self.spec = spec(game.id, game.options)
        if (self.spec.obs.size, self.spec.actions.size) != (self.policy.size, self.policy.actions):
            raise BotError(f"the learned bot's {game.id} policy was trained with the options "
                           f"{self.policy.meta['options']}: these options change what it sees")

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        logits = self.policy.logits(self.spec.obs.encode(obs))
        index = self.spec.actions.index
        return max(legal, key=lambda a: float(logits[index(a)]))
