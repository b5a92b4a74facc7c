"""Many games stepped in one call: a batched Gymnasium vector environment with numpy
observations and masks.

>>> from torite.adapters.vector import ToriteVectorEnv
>>> envs = ToriteVectorEnv("hearts", 64, opponents="random")
>>> obs, info = envs.reset(seed=0)                  # obs["observation"]: (64, 859) float32
>>> obs, rewards, terminated, truncated, info = envs.step(obs["action_mask"].argmax(axis=1))

or ``gymnasium.make_vec("torite/hearts-v0", num_envs=64, vectorization_mode="vector_entry_point")``.

Why: ``gymnasium.make_vec(..., vectorization_mode="sync")`` steps N copies of
:class:`~torite.adapters.gymnasium.ToriteGymEnv` one by one through Gymnasium's generic
machinery (a dict observation per copy, concatenated into the batch, copied again, an info dict
merged per copy), and that bookkeeping costs as much as the game.  Here the N games live in one
object: each seat's tracker writes its observation straight into its row of one ``(N, size)``
array, each legal-action mask is written into its row of one ``(N, actions)`` array, an action
is looked up in a table, and the rewards, ends and final returns are arrays from the start.

It is the same environment as ``ToriteGymEnv`` (one seat against torite bots, an episode of
``max_rounds`` rounds, rewards that add up to the seat's return), only batched: environment
``i`` reset with seed ``s + i`` plays exactly the episodes ``ToriteGymEnv`` reset with that seed
plays, action for action, observation for observation (tested).  Autoreset follows Gymnasium's
modes: ``next_step`` (the default, as ``make_vec``'s: the step after an episode ends resets
that environment, ignoring its action; its mask is all zero in between) or ``same_step`` (the
ending step returns the first observation of the next episode, the last one in
``info["final_obs"]``).  An action that is not legal changes nothing (reward
``illegal_reward``, ``info["illegal"]`` true at that index), as in ``ToriteGymEnv``; an id
outside the action space raises ``ValueError``.

``info``: ``seat`` (every step: the seat each environment plays), and at the step an episode
ends ``scores`` and ``returns`` (one row a seat), each with Gymnasium's ``_key`` mask of the
environments it holds for.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from torite.adapters import batch
from torite.adapters.batch import Slot
from torite.adapters.encoding import OBS_BOUND, GameSpec, Tracker, spec
from torite.bots import BOT_NAMES, make_bot
from torite.engine import driver
from torite.engine.bot import Bot, RandomBot
from torite.seeds import derive_seed

MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}


class ToriteVectorEnv(VectorEnv[dict[str, Any], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of ``game_id`` stepped together (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, game_id: str, num_envs: int, *, seat: int | str = 0,
                 opponents: str | Sequence[str] = "normal", max_rounds: int | None = 1,
                 autoreset: str = "next_step", illegal_reward: float = 0.0, copy: bool = True,
                 **options: Any) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive number, not {num_envs!r}")
        self.spec_: GameSpec = spec(game_id, options)
        self.game = game = self.spec_.game
        n = game.num_players
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n)):
            raise ValueError(f"seat must be a seat from 0 to {n - 1}, or 'random'")
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1, or None for the whole game")
        if autoreset not in MODES:
            raise ValueError(f"autoreset must be one of {', '.join(MODES)}, not {autoreset!r}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents: give one bot name, or one for each of the {n - 1} other seats")
        unknown = [b for b in names if b not in BOT_NAMES]
        if unknown:
            raise ValueError(f"unknown bot {unknown[0]!r} (bots: {', '.join(BOT_NAMES)})")
        self.game_id = game_id
        self.num_envs = num_envs
        self.seat_choice = seat
        self.opponents = names
        self.max_rounds = max_rounds
        self.autoreset_mode = MODES[autoreset]
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        size, actions = self.spec_.obs.size, self.spec_.actions.size
        self.size, self.actions = size, actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (num_envs, size), np.float32),
            "action_mask": spaces.Box(0, 1, (num_envs, actions), np.int8),
        })
        self.single_action_space = spaces.Discrete(actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions, np.int64))
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        # one item written by index: cheap (typed Any: typeshed knows only memoryviews of ints)
        self._mask_bytes: Any = memoryview(self._mask.reshape(-1))  # type: ignore[arg-type]
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._action_of = [self.spec_.actions.action(i) for i in range(actions)]
        self._id_of = {a: i for i, a in enumerate(self._action_of)}
        self._games = [Slot() for _ in range(num_envs)]

    # ------------------------------------------------------------------ Gymnasium's vector protocol
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Reset every game (``seed``: an int gives game ``i`` the seed ``seed + i``, a list one
        seed a game, None keeps each game's generator going), or only those of
        ``options["reset_mask"]``."""
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"give one seed a game: {len(seeds)} seeds for {n} games")
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            mask = np.asarray(mask, np.bool_)
            if mask.shape != (n,):
                raise ValueError(f"options['reset_mask'] must have shape ({n},)")
        for i in range(n):
            if mask is None or mask[i]:
                self._reset_game(i, seeds[i])
                self._terminated[i] = self._truncated[i] = self._autoreset[i] = False
        return self._observations(), {"seat": self._seats.copy()}

    def step(self, actions: Any) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float64],
                                          npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        ids = np.asarray(actions)
        n, top = self.num_envs, self.actions
        if ids.shape != (n,):
            raise ValueError(f"give one action id a game: an array of shape ({n},), not {ids.shape}")
        if not np.issubdtype(ids.dtype, np.integer):
            if not np.all(np.equal(np.mod(ids, 1), 0)):
                raise ValueError("an action is an id (a whole number)")
            ids = ids.astype(np.int64)
        if n and (int(ids.min()) < 0 or int(ids.max()) >= top):
            bad = int(ids[(ids < 0) | (ids >= top)][0])
            raise ValueError(f"action {bad} is outside 0..{top - 1}")
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        resetting = self._autoreset.tolist()
        for i in range(n):
            if resetting[i]:  # next-step autoreset: this step starts the next episode
                self._reset_game(i, None)
        rewards = [0.0] * n
        ended: list[int] = []
        illegal: list[int] = []
        batch.step(self._games, ids.tolist(), resetting, self.game, self._mask_bytes, top, self._action_of,
                   self._id_of, self.illegal_reward, rewards, ended, illegal)
        terminated = np.zeros(n, np.bool_)
        terminated[ended] = True
        truncated = np.zeros(n, np.bool_)
        infos: dict[str, Any] = {"seat": self._seats.copy()}
        if illegal:
            flags = np.zeros(n, np.bool_)
            flags[illegal] = True
            infos["illegal"], infos["_illegal"] = flags, flags.copy()
        if ended:
            self._final_info(infos, ended)
        if same_step:
            if ended:  # the last observation in the info, the next episode's first at once
                infos["final_obs"], infos["_final_obs"] = self._observations(True), terminated.copy()
                for i in ended:
                    self._reset_game(i, None)
                infos["seat"] = self._seats.copy()
        else:
            self._autoreset[:] = terminated
        self._terminated, self._truncated = terminated, truncated
        return self._observations(), np.array(rewards, np.float64), terminated.copy(), truncated, infos

    def action_masks(self) -> npt.NDArray[np.int8]:
        """Every game's legal action ids now, one row a game (``sb3-contrib``'s name)."""
        return self._mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        self._games = []

    # ------------------------------------------------------------------ the games
    def _reset_game(self, i: int, seed: int | None) -> None:
        """Game ``i``'s next episode, exactly as ``ToriteGymEnv.reset`` starts it."""
        g = self._games[i]
        if seed is not None or g.np_random is None:
            g.np_random, _ = seeding.np_random(seed)
        rng = g.np_random
        game_seed = int(rng.integers(2**63))
        n = self.game.num_players
        g.seat = int(rng.integers(n)) if self.seat_choice == "random" else int(self.seat_choice)
        self._seats[i] = g.seat
        g.state = self.game.new_state(game_seed, max_rounds=self.max_rounds)
        others = [s for s in range(n) if s != g.seat]
        bots: dict[int, Bot] = {}
        for s, name in zip(others, self.opponents):
            seed_s = derive_seed("gymnasium-bot", game_seed, s)
            old = g.bots.get(s)
            if type(old) is RandomBot:  # it keeps nothing but its generator: seeded again, it is a new one
                old.rng.seed(seed_s)
                bots[s] = old
            else:
                bots[s] = make_bot(name, self.game, s, random.Random(seed_s))
        g.bots = bots
        g.tracker = Tracker(self.spec_.obs, g.seat, self._obs[i])
        g.rounds = 0
        driver.run(g.state, g.bots)
        batch.observe(g, self._mask_bytes, i * self.actions, self._id_of)

    def _observations(self, copy: bool = False) -> dict[str, npt.NDArray[Any]]:
        if self.copy or copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _final_info(self, infos: dict[str, Any], ended: list[int]) -> None:
        n, seats = self.num_envs, self.game.num_players
        scores = np.zeros((n, seats), np.int64)
        returns = np.zeros((n, seats), np.float64)
        flags = np.zeros(n, np.bool_)
        for i in ended:
            state = self._games[i].state
            assert state is not None
            result = state.result()
            scores[i] = result.scores
            returns[i] = self.game.returns(result)
            flags[i] = True
        infos["scores"], infos["_scores"] = scores, flags
        infos["returns"], infos["_returns"] = returns, flags.copy()


__all__ = ["ToriteVectorEnv"]
