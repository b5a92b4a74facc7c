"""The batched environment (``torite.adapters.vector``): N games in one call, the same
trajectories as the single-seat Gymnasium environment from the same seeds (every game, both
autoreset modes, a random seat, bots that read their observation), numpy rows, masks, the
final scores, refusals."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from torite.adapters.gymnasium import ToriteGymEnv, env_id, register_all
from torite.adapters.vector import ToriteVectorEnv
from torite.engine.registry import game_ids


def _pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row (0 for an empty mask: an episode that has ended)."""
    return np.asarray((rng.random(mask.shape) * mask).argmax(axis=1))


def _single(game_id: str, seed: int, steps: int, picks: list[list[int]], **kw: Any) -> list[tuple[Any, ...]]:
    """What ``ToriteGymEnv`` shows, episode after episode, for the actions chosen by the batch:
    (observation, mask, reward, terminated, returns at the end)."""
    env = ToriteGymEnv(game_id, **kw)
    obs, _ = env.reset(seed=seed)
    out: list[tuple[Any, ...]] = [(obs["observation"], obs["action_mask"], 0.0, False, None)]
    for t in range(steps):
        action = picks[t]
        if out[-1][3]:  # the batch reset this game at this step, ignoring its action
            obs, _ = env.reset()
            out.append((obs["observation"], obs["action_mask"], 0.0, False, None))
            continue
        obs, reward, terminated, _, info = env.step(action)
        out.append((obs["observation"], obs["action_mask"], reward, terminated,
                    info.get("returns") if terminated else None))
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_each_game_of_the_batch_plays_what_the_single_environment_plays_from_its_seed(game_id: str) -> None:
    n, seed = 3, 11
    kw: dict[str, Any] = {"opponents": "random", "seat": "random"}
    envs = ToriteVectorEnv(game_id, n, **kw)
    bounds = envs.game.bounds()
    steps = bounds.round_actions + 8 * bounds.thrown_in_actions + 1  # more than any episode takes
    obs, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = [[(obs["observation"][i], obs["action_mask"][i], 0.0, False, None)] for i in range(n)]
    picks: list[list[int]] = [[] for _ in range(n)]
    for _ in range(steps):
        actions = _pick(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert obs["observation"].shape == (n, envs.size) and obs["observation"].dtype == np.float32
        assert obs["action_mask"].dtype == np.int8 and not truncated.any()
        for i in range(n):
            picks[i].append(int(actions[i]))
            returns = list(info["returns"][i]) if terminated[i] else None
            assert bool(terminated[i]) == bool(info.get("_returns", np.zeros(n, bool))[i])
            seen[i].append((obs["observation"][i], obs["action_mask"][i], float(rewards[i]), bool(terminated[i]),
                            returns))
    ends = 0
    for i in range(n):
        single = _single(game_id, seed + i, steps, picks[i], **kw)
        assert len(single) == len(seen[i])
        for t, (a, b) in enumerate(zip(seen[i], single, strict=True)):
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]), (i, t)
            assert a[2:4] == b[2:4] and a[4] == b[4], (i, t)
            ends += a[3]
    assert ends  # an episode ended (and the next began) in the window


def test_a_reset_in_the_middle_of_episodes_starts_them_afresh() -> None:
    envs = ToriteVectorEnv("hearts", 3, opponents="random")
    obs, _ = envs.reset(seed=4)
    for _ in range(5):
        obs, *_ = envs.step(_pick(obs["action_mask"], np.random.default_rng(1)))
    again, _ = envs.reset(seed=8)
    fresh, _ = ToriteVectorEnv("hearts", 3, opponents="random").reset(seed=8)
    assert np.array_equal(again["observation"], fresh["observation"])
    assert np.array_equal(again["action_mask"], fresh["action_mask"])


def test_same_step_autoreset_gives_the_last_observation_in_the_info_and_the_next_episode_at_once() -> None:
    n, seed = 4, 3
    nxt = ToriteVectorEnv("kaedama", n, opponents="normal")
    same = ToriteVectorEnv("kaedama", n, opponents="normal", autoreset="same_step")
    a, _ = nxt.reset(seed=seed)
    b, _ = same.reset(seed=seed)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(80):
        actions = _pick(a["action_mask"], rng)
        a, ra, ta, _, _ia = nxt.step(actions)
        b, rb, tb, _, ib = same.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb)
        for i in np.flatnonzero(ta):
            finals += 1
            assert ib["_final_obs"][i] and np.array_equal(ib["final_obs"]["observation"][i], a["observation"][i])
            assert b["action_mask"][i].any() and not a["action_mask"][i].any()  # same step: already the next
            # next step: the next-step env resets; bring it level with the same-step env
            a2, ra2, ta2, _, _ = nxt.step(actions)
            assert ra2[i] == 0 and not ta2[i]
            assert np.array_equal(a2["observation"][i], b["observation"][i])
            return
    raise AssertionError(f"no episode ended ({finals})")


def test_an_illegal_id_changes_nothing_and_an_id_outside_the_space_is_refused() -> None:
    envs = ToriteVectorEnv("hearts", 2, opponents="random")
    obs, _ = envs.reset(seed=0)
    illegal = np.array([int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), int(obs["action_mask"][1].argmax())])
    after, rewards, _terminated, _, info = envs.step(illegal)
    assert info["illegal"].tolist() == [True, False] and rewards[0] == 0.0
    assert np.array_equal(after["observation"][0], obs["observation"][0])
    assert not np.array_equal(after["observation"][1], obs["observation"][1])
    for bad in (np.array([0, 10**6]), np.array([-1, 0]), np.array([0])):
        with pytest.raises(ValueError):
            envs.step(bad)
    with pytest.raises(ValueError, match="autoreset"):
        ToriteVectorEnv("hearts", 2, autoreset="sometimes")


def test_the_batch_is_gymnasiums_vector_entry_point_and_masks_are_what_sb3_reads() -> None:
    register_all()
    envs = gymnasium.make_vec(env_id("hearts"), num_envs=5, vectorization_mode="vector_entry_point",
                              opponents="random")
    obs, info = envs.reset(seed=2)
    assert isinstance(envs.unwrapped, ToriteVectorEnv) and obs["observation"].shape[0] == 5
    assert np.array_equal(envs.unwrapped.action_masks(), obs["action_mask"]) and info["seat"].tolist() == [0] * 5
    assert envs.action_space.shape == (5,) and envs.single_action_space.n == envs.unwrapped.actions
