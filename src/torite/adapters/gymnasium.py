"""One seat of a torite game as a single-agent Gymnasium environment, the other seats played by
torite bots chosen by name; and its vectorised form.

>>> import gymnasium, torite.adapters.gymnasium      # registers torite/<game id>-v0
>>> env = gymnasium.make("torite/hearts-v0", opponents="normal")
>>> obs, info = env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().nonzero()[0][0])
>>> envs = gymnasium.make_vec("torite/kaedama-v0", num_envs=8, vectorization_mode="sync")

Why: most RL libraries take one agent in one environment (Stable-Baselines3, CleanRL), and a
card game needs the other seats played; torite's bots (``random``, ``easy``, ``normal``,
``hard``, …) play them, each from its own seat's observation, as everywhere in torite.

The agent plays ``seat`` (0 by default; ``"random"``: a seat drawn at each reset).  Its
observation is the PettingZoo adapter's: a dict of ``observation`` (the seat's vector, kept up
to date by a :class:`~torite.adapters.encoding.Tracker`) and ``action_mask`` (``int8`` over the
game's fixed action ids); :meth:`ToriteGymEnv.action_masks` gives the mask too (the name
``sb3-contrib``'s maskable algorithms call).  After the agent's action the bots play until the
agent must decide again or the game ends.  The reward is the agent's return of the rounds scored
meanwhile (``Game.round_returns``: points times ``SCORE_SIGN``; Hearts: 26 minus the points), so
an episode's rewards add up to its return.  An episode is ``max_rounds`` rounds (1: a deal;
``None``: the whole game).  At the end ``info`` holds ``scores``, ``returns``, ``winners`` and
the ``result``.  An action id outside the action space raises ``ValueError``; an id that is not
legal now changes nothing: the step returns the same observation, reward ``illegal_reward`` and
``info["illegal"]`` saying why (``illegal="raise"`` raises instead).  ``render()`` with
``render_mode="ansi"`` is the table in words (``lang``: en, ja or ko).  The same seed gives the
same episode: the game and the bots are seeded from the environment's generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from torite.adapters import table
from torite.adapters.encoding import OBS_BOUND, GameSpec, Tracker, spec
from torite.bots import BOT_NAMES, make_bot
from torite.engine import driver
from torite.engine.bot import Bot
from torite.engine.kit import TrickState
from torite.engine.registry import game_ids
from torite.seeds import derive_seed

ILLEGAL = ("refuse", "raise")


class ToriteGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a torite game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 2}  # noqa: RUF012

    def __init__(self, game_id: str, *, seat: int | str = 0, opponents: str | Sequence[str] = "normal",
                 max_rounds: int | None = 1, render_mode: str | None = None, lang: str = "en",
                 illegal: str = "refuse", illegal_reward: float = 0.0, **options: Any) -> None:
        self.spec_: GameSpec = spec(game_id, options)
        self.game = self.spec_.game
        n = self.game.num_players
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n)):
            raise ValueError(f"seat must be a seat from 0 to {n - 1}, or 'random'")
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1, or None for the whole game")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: give one bot name, or one for each of the {n - 1} other seats")
        unknown = [b for b in names if b not in BOT_NAMES]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (bots: {', '.join(BOT_NAMES)})")
        self.game_id = game_id
        self.seat_choice = seat
        self.opponents = names
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.lang = table.check_lang(lang)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        size, actions = self.spec_.obs.size, self.spec_.actions.size
        self.observation_space: spaces.Dict = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.action_space = spaces.Discrete(actions)
        self.actions = actions
        self.game_state: TrickState[Any] | None = None
        self.seat = seat if isinstance(seat, int) else 0
        self._bots: dict[int, Bot] = {}
        self._tracker: Tracker | None = None
        self._rounds = 0

    # ------------------------------------------------------------------ Gymnasium protocol
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        n = self.game.num_players
        self.seat = int(self.np_random.integers(n)) if self.seat_choice == "random" else int(self.seat_choice)
        self.game_state = self.game.new_state(game_seed, max_rounds=self.max_rounds)
        others = [s for s in range(n) if s != self.seat]
        self._bots = {s: make_bot(name, self.game, s, random.Random(derive_seed("gymnasium-bot", game_seed, s)))
                      for s, name in zip(others, self.opponents)}
        self._tracker = self.spec_.tracker(self.seat)
        self._rounds = 0
        driver.run(self.game_state, self._bots)
        return self._observe(), {"seat": self.seat}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.is_over():
            raise RuntimeError("the episode is over: call reset()")
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise ValueError(f"an action is an id from 0 to {self.actions - 1}, not {action!r}") from None
        if not 0 <= index < self.actions:
            raise ValueError(f"action {index} is outside 0..{self.actions - 1}")
        chosen = self.spec_.actions.action(index)
        legal = state.legal_actions(self.seat)
        if chosen not in legal:
            why = f"action {index} ({self.game.action_text(chosen)}) is not legal now"
            if self.illegal == "raise":
                raise ValueError(why)
            return self._observe(), self.illegal_reward, False, False, {"illegal": why}
        state.apply(self.seat, chosen)
        driver.run(state, self._bots)
        reward = self._paid()
        info: dict[str, Any] = {}
        if state.is_over():
            info = self._final()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, state.is_over(), False, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal action ids now, as a mask (all 0 once the episode is over)."""
        state = self._state()
        if state.is_over() or self.seat not in state.to_act():
            return np.zeros(self.actions, np.int8)
        return self.spec_.actions.mask(state.legal_actions(self.seat))

    def render(self) -> str | None:
        """The table as text a person reads (the public view: what a spectator sees)."""
        if self.game_state is None:
            return None
        text = table.render(self.game_state, self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ helpers
    def _state(self) -> TrickState[Any]:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def _observe(self) -> dict[str, np.ndarray]:
        assert self._tracker is not None
        return {"observation": self._tracker.update(self._state()).copy(), "action_mask": self.action_masks()}

    def _paid(self) -> float:
        """The agent's return of the rounds scored since it was last paid."""
        state = self._state()
        if state.rounds_played == self._rounds:
            return 0.0
        paid = self.game.returns(state.result(), since=self._rounds)[self.seat]
        self._rounds = state.rounds_played
        return float(paid)

    def _final(self) -> dict[str, Any]:
        result = self._state().result()
        return {"scores": list(result.scores), "returns": list(self.game.returns(result)),
                "winners": list(result.winners), "result": result.to_json()}


class FlatMasked(gymnasium.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """The observation vector alone, as a ``Box``, with the legal actions from
    :meth:`action_masks`: the form most libraries take (Stable-Baselines3's ``MlpPolicy`` with
    sb3-contrib's ``MaskablePPO``, a CleanRL-style loop), a torite environment's dict of
    ``observation`` and ``action_mask`` being one they do not.

    >>> env = FlatMasked(ToriteGymEnv("kaedama", opponents="normal", seat="random"))
    >>> obs, info = env.reset(seed=0)          # obs: float32 (796,)
    >>> mask = env.action_masks()              # int8 (38,), what MaskablePPO asks for

    Its mask is always the one of the observation just returned (all zero once the episode is
    over)."""

    def __init__(self, env: gymnasium.Env[dict[str, Any], np.int64]) -> None:
        super().__init__(env)
        space = env.observation_space
        if not isinstance(space, spaces.Dict) or "observation" not in space.spaces:
            raise TypeError("FlatMasked wraps a torite environment (a dict of observation and action_mask)")
        box = space.spaces["observation"]
        assert isinstance(box, spaces.Box)
        self.observation_space = box
        mask_space = space.spaces["action_mask"]
        assert isinstance(mask_space, spaces.Box)
        self._mask: npt.NDArray[np.int8] = np.zeros(mask_space.shape, np.int8)

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        self._mask = observation["action_mask"]
        vector: npt.NDArray[np.float32] = observation["observation"]
        return vector

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action ids of the observation just returned (booleans, as sb3-contrib
        takes them)."""
        return self._mask.astype(np.bool_)


def flat_env(game_id: str, **kwargs: Any) -> FlatMasked:
    """:class:`FlatMasked` over ``ToriteGymEnv(game_id, **kwargs)``."""
    return FlatMasked(ToriteGymEnv(game_id, **kwargs))


def env_id(game_id: str) -> str:
    """The Gymnasium id of a torite game: ``torite/<game id>-v0``."""
    return f"torite/{game_id}-v0"


def register_all() -> list[str]:
    """Register every torite game with Gymnasium (once); returns the ids."""
    ids = []
    for game_id in game_ids():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=f"{__name__}:ToriteGymEnv", kwargs={"game_id": game_id},
                               vector_entry_point="torite.adapters.vector:ToriteVectorEnv",
                               disable_env_checker=True)
        ids.append(name)
    return ids


def make_vec(game_id: str, num_envs: int, *, vectorization_mode: str = "sync", **kwargs: Any) -> Any:
    """``num_envs`` copies of the environment as one ``gymnasium.vector`` environment (``sync``:
    one process; ``async``: a process each)."""
    register_all()
    return gymnasium.make_vec(env_id(game_id), num_envs=num_envs, vectorization_mode=vectorization_mode, **kwargs)


register_all()

__all__ = ["FlatMasked", "ToriteGymEnv", "env_id", "flat_env", "make_vec", "register_all"]
