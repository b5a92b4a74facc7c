"""PettingZoo AEC environments for every torite game: ``env(game_id, **options)``.

>>> from torite.adapters.pettingzoo import env
>>> e = env("trick-of-the-dead", max_rounds=1, survival=True)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, term, trunc, info = e.last()
...     mask = obs["action_mask"]
...     e.step(None if term or trunc else int(mask.nonzero()[0][0]))

Agents are ``player_0`` … ``player_{N-1}``, torite's seats.  Each observation is a dict:
``observation``, a ``float32`` vector of the fixed size of the game (its layout:
:mod:`torite.adapters.encoding`), built from ``state.observation(seat)`` only, so it holds
exactly what that seat may know; and ``action_mask``, an ``int8`` vector over the game's fixed
action space (:class:`torite.adapters.encoding.ActionSpace`; ``env.unwrapped.action_text(i)``
names an id), 1 for the legal actions of the agent to act and all 0 for the others.

Turn order is torite's: the agent to act is the first seat of ``state.to_act()``, so a
simultaneous phase (Trick of the Dead's burial) is played one seat after another, in that
order, each on its own observation, as torite's driver plays it.

Rewards: after every step, each agent's reward is the change of its game total
(``state.result().scores``) times the game's ``SCORE_SIGN``, so an episode's rewards add up to
the final scores (minus them in a game of penalty points such as Hearts: a reward is always
something to maximise); points are paid when a round is scored.  An episode is one game;
``max_rounds=R`` ends it after R rounds (``max_rounds=1``: single deals, the simulator's unit).
``reset(seed=s)`` starts the game torite starts from a seed derived from ``s``; the same seed
and actions give the same episode bit for bit.  An illegal action id raises ``ValueError`` and changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from torite.adapters.encoding import GameSpec, spec
from torite.engine.base import State
from torite.seeds import derive_seed

#: bounds of the observation Box: raw points and counts stay well inside
OBS_BOUND = 1.0e6


class ToriteEnv(AECEnv):  # type: ignore[misc]
    """One torite game as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "torite_v0", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.spec: GameSpec = spec(game_id, options)
        self.game_id = game_id
        self.game = self.spec.game
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        size, actions = self.spec.obs.size, self.spec.actions.size
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seeder = random.Random()
        self.game_state: State | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def action_text(self, index: int) -> str:
        """The torite action of an id (semantic spaces), e.g. ``play 10D``."""
        return str(self.spec.actions.action(index))

    # ------------------------------------------------------------------ AEC protocol
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(derive_seed("pettingzoo", seed))
        game_seed = self._seeder.getrandbits(63)
        self.game_state = self.game.new_state(game_seed, max_rounds=self.max_rounds)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = list(self.game_state.result().scores)
        self.agent_selection = self._next_agent()

    def _state(self) -> State:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _next_agent(self) -> str:
        state = self._state()
        if state.is_over():
            return self.agents[0] if self.agents else self.possible_agents[0]
        return self.possible_agents[state.to_act()[0]]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self.agent_name_mapping[agent]
        acting = not state.is_over() and seat == state.to_act()[0]
        legal = state.legal_actions(seat) if acting else []
        return {"observation": self.spec.obs.encode(state.observation(seat)),
                "action_mask": self.spec.actions.mask(legal)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self._state()
        seat = self.agent_name_mapping[agent]
        legal = state.legal_actions(seat)
        if action is None:
            raise ValueError(f"{agent} must act: give an action id, not None")
        try:
            chosen = self.spec.actions.action(int(action), legal)
        except KeyError as e:
            raise ValueError(f"{agent}: {e.args[0]}") from None
        if chosen not in legal:
            raise ValueError(f"{agent}: action {int(action)} ({chosen}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        state.apply(seat, chosen)
        scores = state.result().scores
        sign = self.game.SCORE_SIGN
        for s, a in enumerate(self.possible_agents):
            self.rewards[a] = float(sign * (scores[s] - self._scores[s]))
        self._scores = list(scores)
        if state.is_over():
            for a in self.agents:
                self.terminations[a] = True
            self.infos = {a: {"result": state.result().to_json()} for a in self.agents}
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The public view (a spectator's observation) as JSON text."""
        if self.game_state is None:
            return None
        text = json.dumps(self.game_state.observation(None), ensure_ascii=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
            **options: Any) -> ToriteEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return ToriteEnv(game_id, max_rounds=max_rounds, render_mode=render_mode, **options)


def env(game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
        **options: Any) -> Any:
    """The AEC environment of ``game_id`` under ``options`` (validated like everywhere in
    torite: a bad option raises ``OptionError``)."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(game_id, max_rounds=max_rounds, render_mode=render_mode, **options))
