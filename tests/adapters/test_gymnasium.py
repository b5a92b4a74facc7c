"""The Gymnasium single-agent environment (one seat against torite bots) and its vectorised
form: Gymnasium's own ``check_env`` on every registered game, rewards that add up to the seat's
return, the scores in the final info, bots chosen by name, illegal actions refused."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from torite.adapters.gymnasium import ToriteGymEnv, env_id, make_vec, register_all
from torite.bots.registry import make_bot
from torite.engine.registry import game_ids

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasiums_check_env_passes(game_id: str) -> None:
    register_all()
    env = gymnasium.make(env_id(game_id), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker fails the test too
        check_env(env.unwrapped)


def _episode(env: ToriteGymEnv, seed: int) -> tuple[float, list[int], dict[str, object]]:
    obs, info = env.reset(seed=seed)
    total, taken = 0.0, []
    rng = np.random.default_rng(seed)
    while True:
        assert np.array_equal(obs["action_mask"], env.action_masks()) and obs["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert not truncated
        if terminated:
            return total, taken, info


@pytest.mark.parametrize("game_id", ["hearts", "trick-of-the-dead", "umbridge"])
def test_rewards_add_up_to_the_seats_return_and_the_final_info_has_the_scores(game_id: str) -> None:
    env = ToriteGymEnv(game_id, seat=1, opponents="random", max_rounds=2)
    total, taken, info = _episode(env, 5)
    state = env.game_state
    assert state is not None and state.is_over()
    result = state.result()
    assert total == env.game.returns(result)[1]
    assert info["scores"] == list(result.scores) and info["winners"] == list(result.winners)
    assert info["returns"] == list(env.game.returns(result)) and info["result"] == result.to_json()
    again = ToriteGymEnv(game_id, seat=1, opponents="random", max_rounds=2)
    assert _episode(again, 5)[:2] == (total, taken)  # the same seed, the same episode


def test_the_other_seats_are_the_bots_named() -> None:
    env = ToriteGymEnv("trick-of-the-dead", seat=2, opponents=["random", "normal"])
    env.reset(seed=3)
    kinds = {s: type(b).__name__ for s, b in env._bots.items()}
    assert set(kinds) == {0, 1}
    assert kinds[0] == type(make_bot("random", env.game, 0, 1)).__name__
    assert kinds[1] == type(make_bot("normal", env.game, 1, 1)).__name__
    with pytest.raises(ValueError, match="unknown bot"):
        ToriteGymEnv("hearts", opponents="grandmaster")
    with pytest.raises(ValueError, match="one for each of the 3"):
        ToriteGymEnv("hearts", opponents=["random", "normal"])
    with pytest.raises(ValueError, match="seat"):
        ToriteGymEnv("hearts", seat=4)
    seats = {ToriteGymEnv("hearts", seat="random").reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    env = ToriteGymEnv("kaedama", opponents="random")
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game_state.observation(None)  # type: ignore[union-attr]
    again, reward, terminated, truncated, info = env.step(illegal)
    assert "not legal" in info["illegal"] and reward == 0.0 and not terminated and not truncated
    assert env.game_state.observation(None) == before  # type: ignore[union-attr]
    assert all(np.array_equal(again[k], obs[k]) for k in obs)
    with pytest.raises(ValueError, match="outside"):
        env.step(10**6)
    strict = ToriteGymEnv("kaedama", opponents="random", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


def test_the_vectorised_form_plays_episodes_and_reports_their_scores() -> None:
    envs = make_vec("kaedama", 3, opponents="random")
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    obs, _ = envs.reset(seed=1)
    assert obs["observation"].shape[0] == 3
    finished = 0
    for _ in range(60):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
        obs, _reward, terminated, _truncated, info = envs.step(actions)
        for i in np.flatnonzero(terminated):
            assert len(info["scores"][i]) == 3
            finished += 1
        if finished >= 3:
            break
        # an environment that ended is reset on the next step (Gymnasium's next-step autoreset)
        obs["action_mask"][terminated] = 1
    envs.close()
    assert finished >= 3
