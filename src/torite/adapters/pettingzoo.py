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
:mod:`torite.adapters.encoding`), holding exactly what ``state.observation(seat)`` shows that
seat; and ``action_mask``, an ``int8`` vector over the game's fixed action space
(:class:`torite.adapters.encoding.ActionSpace`; ``env.unwrapped.action_text(i)`` names an id),
1 for the legal actions of the agent to act and all 0 for the others.  Each agent's vector is
kept up to date by a :class:`~torite.adapters.encoding.Tracker` (what changed since its last
observation is written, not the whole observation encoded again): the speed RL loops need.

Turn order is torite's: the agent to act is the first seat of ``state.to_act()``, so a
simultaneous phase (Trick of the Dead's burial) is played one seat after another, in that
order, each on its own observation, as torite's driver plays it.

Rewards are the game's returns (``Game.round_returns``: the points times ``SCORE_SIGN``, so
a reward is always something to maximise; the Hearts yardstick's are OpenSpiel's ``26 -
points`` a deal), paid to every agent when a round is scored: an episode's rewards add up to
``game.returns(result)``, the returns the OpenSpiel adapter gives.  An episode is one game;
``max_rounds=R`` ends it after R rounds (``max_rounds=1``: single deals, the simulator's unit).
At the end every agent's ``info`` holds ``scores`` (the game's points), ``returns``,
``winners`` and the whole ``result``.  ``reset(seed=s)`` starts the game torite starts from a
seed derived from ``s``; the same seed and actions give the same episode bit for bit.  An
illegal action id raises ``ValueError`` and changes nothing.  ``render()`` with
``render_mode="ansi"`` returns the table as text a person reads (in ``lang``: en, ja or ko),
``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from torite.adapters import table
from torite.adapters.encoding import OBS_BOUND, GameSpec, Tracker, spec
from torite.engine.base import Action
from torite.engine.kit import TrickState
from torite.seeds import derive_seed


class ToriteEnv(AECEnv):  # type: ignore[misc]
    """One torite game as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "torite_v1", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": False}

    def __init__(self, game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
                 lang: str = "en", **options: Any) -> None:
        super().__init__()
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.lang = table.check_lang(lang)
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
        self.game_state: TrickState[Any] | None = None
        self.agents: list[str] = []
        self._trackers: list[Tracker] = []
        self._acting = -1  # the seat to act, -1 when the game is over
        self._legal: list[Action] | None = None  # its legal actions, once asked for
        self._rounds = 0

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
        self._trackers = [self.spec.tracker(s) for s in range(self.game.num_players)]
        self._rounds = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next()

    def _state(self) -> TrickState[Any]:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _next(self) -> None:
        """The agent to act now (the first agent once the game is over)."""
        state = self._state()
        self._legal = None
        self._acting = -1 if state.is_over() else state.to_act()[0]
        if self._acting >= 0:
            self.agent_selection = self.possible_agents[self._acting]
        else:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def legal_actions(self) -> list[Action]:
        """The torite actions of the agent to act (empty once the game is over)."""
        if self._legal is None:
            self._legal = list(self._state().legal_actions(self._acting)) if self._acting >= 0 else []
        return self._legal

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self.agent_name_mapping[agent]
        vector = self._trackers[seat].update(state).copy()
        if seat == self._acting:
            mask = self.spec.actions.mask(self.legal_actions())
        else:
            mask = np.zeros(self.spec.actions.size, np.int8)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self._state()
        seat = self.agent_name_mapping[agent]
        if action is None:
            raise ValueError(f"{agent} must act: give an action id, not None")
        try:
            chosen = self.spec.actions.action(int(action))
        except KeyError as e:
            raise ValueError(f"{agent}: {e.args[0]}") from None
        if chosen not in self.legal_actions():
            raise ValueError(f"{agent}: action {int(action)} ({chosen}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        state.apply(seat, chosen)
        rewards = self.rewards
        paying = state.rounds_played != self._rounds
        if paying:  # a round was scored: its returns are paid
            paid = self.game.returns(state.result(), since=self._rounds)
            self._rounds = state.rounds_played
            for s, a in enumerate(self.possible_agents):
                rewards[a] = paid[s]
        elif any(rewards.values()):
            for a in rewards:
                rewards[a] = 0.0
        if state.is_over():
            result = state.result()
            info = {"scores": list(result.scores), "returns": list(self.game.returns(result)),
                    "winners": list(result.winners), "result": result.to_json()}
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = dict(info)
        self._next()
        if paying:  # nothing to add otherwise: every reward is 0 between scored rounds
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text a person reads (the public view: what a spectator sees)."""
        if self.game_state is None:
            return None
        text = table.render(self.game_state, self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with the same checks, reading the few attributes
    an ``agent_iter`` loop reads at every step directly rather than through the wrapper's
    ``__getattr__``: that forwarding cost about as much as the step itself."""

    def _check(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agents(self) -> list[str]:
        self._check("agents")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        self._check("agent_selection")
        agent: str = self.env.agent_selection
        return agent

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check("agent_selection")
        found: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return found


def raw_env(game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
            lang: str = "en", **options: Any) -> ToriteEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return ToriteEnv(game_id, max_rounds=max_rounds, render_mode=render_mode, lang=lang, **options)


def env(game_id: str, *, max_rounds: int | None = None, render_mode: str | None = None,
        lang: str = "en", **options: Any) -> Any:
    """The AEC environment of ``game_id`` under ``options`` (validated like everywhere in
    torite: a bad option raises ``OptionError``)."""
    return _OrderEnforcing(
        raw_env(game_id, max_rounds=max_rounds, render_mode=render_mode, lang=lang, **options))

