"""PettingZoo AEC environments: PettingZoo's own API and seed tests on every registered game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from torite.adapters.pettingzoo import env, raw_env
from torite.engine.base import OptionError
from torite.engine.registry import game_ids

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice about Dict observation spaces, not failures
        api_test(env(game_id, max_rounds=1), num_cycles=40)
        seed_test(lambda: env(game_id, max_rounds=1), num_cycles=40)


def _play(e, seed: int) -> tuple[dict[str, float], list[int]]:  # type: ignore[no-untyped-def]
    e.reset(seed=seed)
    totals = {a: 0.0 for a in e.possible_agents}
    taken = []
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return totals, taken


@pytest.mark.parametrize("game_id", GAMES)
def test_rewards_add_up_to_the_game_result_and_seeds_replay(game_id: str) -> None:
    e = raw_env(game_id, max_rounds=2)
    totals, taken = _play(e, 11)
    scores = e.game_state.result().scores  # type: ignore[union-attr]
    sign = e.game.SCORE_SIGN  # rewards are to be maximised: minus penalty points in Hearts
    assert [totals[a] for a in e.possible_agents] == [float(sign * s) for s in scores]
    again = raw_env(game_id, max_rounds=2)
    assert _play(again, 11) == (totals, taken)


def test_an_illegal_or_unknown_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("trick-of-the-dead", max_rounds=1)
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.game_state.observation(None)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError, match="outside"):
        e.step(10**6)
    assert e.game_state.observation(None) == before  # type: ignore[union-attr]
    assert e.agent_selection == agent


def test_only_the_agent_to_act_has_legal_actions_and_options_are_checked() -> None:
    e = raw_env("kaedama", max_rounds=1)
    e.reset(seed=1)
    for agent in e.possible_agents:
        assert (e.observe(agent)["action_mask"].sum() > 0) == (agent == e.agent_selection)
    assert e.action_text(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])).startswith(
        ("play", "pass", "replace"))
    with pytest.raises(OptionError):
        env("kaedama", bogus=1)
