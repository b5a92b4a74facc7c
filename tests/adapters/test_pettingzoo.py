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
    e.final_infos = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.final_infos[agent] = info
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return totals, taken


@pytest.mark.parametrize("game_id", GAMES)
def test_rewards_add_up_to_the_games_returns_and_seeds_replay(game_id: str) -> None:
    """Rewards are the game's returns, paid as rounds are scored (the points times the score's
    sign, Hearts' 26 minus the points a deal), and the final info holds the scores."""
    e = raw_env(game_id, max_rounds=2)
    totals, taken = _play(e, 11)
    result = e.game_state.result()  # type: ignore[union-attr]
    returns = e.game.returns(result)
    assert [totals[a] for a in e.possible_agents] == list(returns)
    sign = e.game.SCORE_SIGN
    if game_id != "hearts":  # maximised: minus penalty points where points are penalties
        assert list(returns) == [float(sign * s) for s in result.scores]
    for agent in e.possible_agents:
        info = e.final_infos[agent]
        assert info["scores"] == list(result.scores) and info["returns"] == list(returns)
        assert info["winners"] == list(result.winners) and info["result"] == result.to_json()
    again = raw_env(game_id, max_rounds=2)
    assert _play(again, 11) == (totals, taken)


def test_hearts_rewards_are_openspiels_returns() -> None:
    """The yardstick pays what OpenSpiel's ``hearts`` returns: 26 minus a deal's points."""
    e = raw_env("hearts", max_rounds=1)
    totals, _ = _play(e, 3)
    points = e.game_state.result().scores  # type: ignore[union-attr]
    assert [totals[a] for a in e.possible_agents] == [26.0 - p for p in points]


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_render_ansi_is_a_table_in_words(lang: str) -> None:
    """``render()`` is the public table a person reads: the seats' rows, the cards of the trick
    as the tables show them, the game's status in the chosen language; no JSON, no notation,
    and no card of any hand (the public view)."""
    e = env("hearts", max_rounds=1, render_mode="ansi", lang=lang)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(22):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    text = e.render()
    raw = e.unwrapped
    state = raw.game_state
    seat_word = {"en": "seat 1", "ja": "席1", "ko": "1번 자리"}[lang]
    assert seat_word in text and "{" not in text and '"' not in text
    lines = text.splitlines()
    assert len(lines) >= 1 + 1 + 4  # a title, a header, a row a seat
    assert any(ch in text for ch in "♠♥♦♣")
    assert not any(t in text.split() for t in ("10D", "QS", "2C", "AH"))  # the notation
    played = [c for t in state.history for c in t["cards"]] + [state.notation.texts[c] for c in state.trick]
    held = {state.notation.texts[c] for s in range(4) for c in range(52) if state.hands[s] >> c & 1}
    assert played and held
    from torite.present.labels import load

    labels = load(state.game, lang)
    for card in held - set(played):
        assert labels.card_text(card) not in text.split()  # a hand's card is never shown
    done = env("kaedama", max_rounds=1, render_mode="ansi", lang=lang)
    done.reset(seed=1)
    for _agent in done.agent_iter():
        obs, _r, term, trunc, _i = done.last()
        done.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    end = done.render()
    assert {"en": "winner", "ja": "勝者", "ko": "승자"}[lang] in end
    with pytest.raises(ValueError, match="lang"):
        env("hearts", lang="fr")


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
