"""The ``learned`` bot (a trained policy played with numpy alone) and the baselines harness:
it beats ``random`` clearly on the same deals, decides from the observation alone, refuses
what it cannot play, and the example that trains it trains (when torch is installed)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest

from torite.bots import BotError, make_bot
from torite.bots.learned import load_policy, policy_games
from torite.engine.registry import make_game
from torite.evaluate import evaluate, main, table

ROOT = Path(__file__).resolve().parents[2]


def test_a_policy_ships_for_kaedama_with_the_command_that_trained_it() -> None:
    assert "kaedama" in policy_games()
    meta = load_policy("kaedama").meta
    assert meta["game"] == "kaedama" and meta["opponents"] == "normal" and meta["seat"] == "random"
    assert meta["command"].startswith("python examples/train_maskable_ppo.py kaedama ")
    assert "torch" not in sys.modules  # played with numpy alone


def test_learned_beats_random_by_a_clear_margin_on_the_same_deals() -> None:
    out = evaluate("kaedama", ["random", "learned"], 240, seed=11)
    learned, rnd = out["levels"]["learned"], out["levels"]["random"]
    assert learned["ci95"][0] > rnd["ci95"][1]  # the intervals do not touch
    assert learned["points_per_deal"] - rnd["points_per_deal"] > 1.0  # points a deal, of 0 to 21
    assert "learned" in table(out) and not out["missing"]


def test_it_decides_legally_from_the_observation_alone_and_the_same_way_every_time() -> None:
    game = make_game("kaedama")
    state = game.new_state(4)
    bots = {s: make_bot("learned", game, s, random.Random(s)) for s in range(3)}
    other = make_bot("learned", game, 0, random.Random(99))  # another generator: the same choices
    while not state.is_over():
        seat = state.to_act()[0]
        obs, legal = state.observation(seat), state.legal_actions(seat)
        choice = bots[seat].act(obs, legal)
        assert choice in legal
        if seat == 0:
            assert other.act(obs, legal) == choice
        state.apply(seat, choice)


def test_a_game_without_a_policy_is_refused_saying_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BotError, match=r"no policy for hearts .*train one: examples/train_maskable_ppo\.py"):
        make_bot("learned", make_game("hearts"), 0, 0)
    out = evaluate("hearts", ["random", "learned"], 4)
    assert "learned" in out["missing"] and "learned: not played" in table(out)
    assert main(["kaedama", "--levels", "random,nobody", "--deals", "3"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_the_harness_gives_the_same_numbers_whatever_the_jobs() -> None:
    one = evaluate("kaedama", ["random", "easy"], 6, seed=2)
    two = evaluate("kaedama", ["random", "easy"], 6, seed=2, jobs=2)
    timing = ("seconds", "cpu_seconds", "jobs")
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}
    assert one["levels"]["normal"]["minus_normal"] == 0.0


@pytest.mark.skipif(importlib.util.find_spec("torch") is None or importlib.util.find_spec("sb3_contrib") is None,
                    reason="training needs torch and sb3-contrib: pip install -r requirements-baselines.lock")
def test_the_example_trains_a_policy_the_learned_bot_plays(tmp_path: Path) -> None:
    from torite.bots.learned import LearnedBot, Policy

    out = tmp_path / "kaedama.npz"
    subprocess.run([sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), "kaedama", "--steps", "1024",
                    "--envs", "2", "--out", str(out)], check=True, capture_output=True, timeout=600)
    policy = Policy(out)
    assert policy.meta["steps"] == 1024 and policy.size == 796 and policy.actions == 38
    game = make_game("kaedama")
    bot = LearnedBot(game, 0, random.Random(0))
    bot.policy = policy  # the freshly trained one instead of the shipped one
    state = game.new_state(1)
    seat = state.to_act()[0]
    assert bot.act(state.observation(seat), state.legal_actions(seat)) in state.legal_actions(seat)
