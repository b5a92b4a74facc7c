"""House rules as data (issue 38.2): every game declares its main rule values as typed, bounded
options (``house_rule``) that ``-o`` sets, that the rules page and the lobby list, that records
carry and ``compare`` varies; a changed value changes the points, the bounds, and the play of
the ``normal`` bot that reads it."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from torite.bots import make_bot
from torite.bots.registry import house_rules_read
from torite.cli.main import main
from torite.compare.analysis import ignored_house_rules
from torite.engine.base import Game, OptionError, State
from torite.engine.registry import game_class, game_ids, make_game
from torite.record import Record, RecordError, replay, start_record

#: per game: house rules set away from their defaults (and the options under which they count),
#: for the test that a changed value changes the points (the same actions, other points)
CHANGED: dict[str, dict[str, int]] = {
    "hearts": {"heart_points": 2, "queen_points": 5},
    "trick-of-the-dead": {"club_points": -4, "joker_points": 10},
    "kaedama": {"reversal_points": 3, "most_tricks_bonus": 5},
    "good-cop": {"penalty_points": 3},
    "seconds": {"edition": "2021", "exact3_points": 25},
    "glapgos": {"bonus_at": 40, "melds_bonus": 150, "tricks_bonus": 80},
    "mighty": {"doubling": 3},
    "umbridge": {"scoring": "chicago", "part_score_bonus": 200},
}
#: per game: a seed and house rules under which the ``normal`` bot's first decision differs from
#: its decision under the defaults (the bot reads the values it is given)
BOT_CHANGES: dict[str, tuple[int, dict[str, int]]] = {
    "hearts": (0, {"queen_points": 1, "heart_points": 5}),
    "trick-of-the-dead": (0, {"club_points": -6}),
    "kaedama": (1, {"reversal_points": 5}),
    "good-cop": (0, {"penalty_points": 5}),
    "mighty": (33, {"doubling": 4}),
    "umbridge": (0, {"rubber_two_nil": 0, "rubber_two_one": 0}),
}

#: rounds to play where the house rules count only in a later round (Seconds' eighth deal)
ROUNDS: dict[str, int] = {"seconds": 8, "umbridge": 4}
#: the bots whose play the points test scores, where random play never meets the house rules
#: (random bidding in Umbridge goes to 7 NT, never a part-score; its normal bot reads none of them)
PLAYS: dict[str, str] = {"umbridge": "normal"}

HOUSE_GAMES = [g for g in game_ids() if game_class(g).house_rules()]


def play_random(game: Game, seed: int, *, max_rounds: int = 1,
                bot: str = "random") -> tuple[State, list[tuple[int, str]]]:
    """A seeded game of random moves (or of ``bot``), with the actions made (as text)."""
    state = game.new_state(seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    bots = [make_bot(bot, game, s, random.Random(seed + s)) for s in range(game.num_players)]
    actions: list[tuple[int, str]] = []
    while not state.is_over():
        seat = rng.choice(state.to_act())
        legal = state.legal_actions(seat)
        action = rng.choice(legal) if bot == "random" else bots[seat].act(state.observation(seat), legal)
        actions.append((seat, game.action_text(action)))
        state.apply(seat, action)
    return state, actions


def replay_actions(game: Game, seed: int, actions: list[tuple[int, str]], *, max_rounds: int = 1) -> State:
    state = game.new_state(seed, max_rounds=max_rounds)
    for seat, text in actions:
        state.apply_text(seat, text)
    return state


def test_every_shipped_game_declares_house_rules_and_each_is_tested_here() -> None:
    shipped = [g for g in game_ids() if game_class(g).__module__.startswith("torite.games.")]
    assert set(shipped) <= set(HOUSE_GAMES), f"no house rules: {sorted(set(shipped) - set(HOUSE_GAMES))}"
    assert set(HOUSE_GAMES) <= set(CHANGED), f"untested house rules: {sorted(set(HOUSE_GAMES) - set(CHANGED))}"


@pytest.mark.parametrize("game_id", HOUSE_GAMES)
def test_house_rules_are_bounded_integers_that_refuse_a_value_past_a_bound_naming_it(game_id: str) -> None:
    cls = game_class(game_id)
    for spec in cls.house_rules():
        assert spec.kind is int and spec.minimum is not None and spec.maximum is not None
        assert spec.minimum <= spec.default <= spec.maximum
        assert spec.describe()["house"] is True
        assert make_game(game_id, {spec.name: str(spec.maximum)}).options[spec.name] == spec.maximum
        with pytest.raises(OptionError, match=f"{spec.name}: {spec.maximum + 1} is above the maximum {spec.maximum}"):
            make_game(game_id, {spec.name: spec.maximum + 1})
        with pytest.raises(OptionError, match=f"{spec.name}: {spec.minimum - 1} is below the minimum {spec.minimum}"):
            make_game(game_id, {spec.name: spec.minimum - 1})
        with pytest.raises(OptionError, match=f"{spec.name}: expected an integer"):
            make_game(game_id, {spec.name: "lots"})
    assert make_game(game_id).changed_house_rules() == {}


@pytest.mark.parametrize("game_id", sorted(CHANGED))
def test_a_changed_house_rule_changes_the_points_of_the_same_play(game_id: str) -> None:
    """The same seeded actions under the defaults and under changed house rules: the rules of
    play are the same, the points are not (in some of a few games), and each stays within the
    bounds the game declares under its house rules."""
    names = {s.name for s in game_class(game_id).house_rules()}
    rules = {k: v for k, v in CHANGED[game_id].items() if k in names}
    plain = make_game(game_id, {k: v for k, v in CHANGED[game_id].items() if k not in names})
    house = make_game(game_id, CHANGED[game_id])
    assert house.changed_house_rules() == rules and rules
    differ = 0
    rounds = ROUNDS.get(game_id, 1)
    for seed in range(6):
        base, actions = play_random(plain, seed, max_rounds=rounds, bot=PLAYS.get(game_id, "random"))
        changed = replay_actions(house, seed, actions, max_rounds=rounds)
        assert changed.is_over()
        differ += changed.result().round_scores != base.result().round_scores
        lo, hi = house.bounds().round_score
        for points in changed.result().round_scores:
            assert all(lo <= p <= hi for p in points), (points, house.bounds())
    assert differ, f"{game_id}: {CHANGED[game_id]} never changed the points of six games"


@pytest.mark.parametrize("game_id", HOUSE_GAMES)
def test_random_play_stays_within_the_bounds_at_every_house_rules_extremes(game_id: str) -> None:
    cls = game_class(game_id)
    for pick in (min, max):
        options = {s.name: pick(s.minimum or 0, s.maximum or 0) for s in cls.house_rules()}
        game = make_game(game_id, options)
        lo, hi = game.bounds().round_score
        for seed in range(3):
            state, _ = play_random(game, seed)
            for points in state.result().round_scores:
                assert all(lo <= p <= hi for p in points), (options, points, game.bounds())


def test_hearts_scores_a_heart_and_the_queen_at_the_house_values() -> None:
    game = make_game("hearts", {"heart_points": 2, "queen_points": 5})
    assert game.bounds().round_score == (0, 2 * 13 + 5)
    for seed in range(8):
        state, _ = play_random(game, seed)
        points = [0] * 4
        for t in state.history:
            points[t["winner"]] += sum(2 if c.endswith("H") else 5 if c == "QS" else 0 for c in t["cards"])
        if 31 in points:  # the moon: every point card, the others the total
            points = [0 if p == 31 else 31 for p in points]
        assert list(state.result().round_scores[0]) == points


def first_different_choice(game_id: str, seed: int, options: Mapping[str, Any],
                           base: Mapping[str, Any] | None = None) -> tuple[int, str, str] | None:
    """Two games of ``normal`` bots in lockstep, one under the defaults and one under
    ``options``, the same seed and bot generators: at each decision both bots choose on their
    own state, and while they agree the same action goes to both.  The first decision where they
    differ (its index and the two choices), or None if they never do.  ``base``: options of
    both games (the defaults otherwise), under which the house rules count."""
    games = [make_game(game_id, dict(base or {})), make_game(game_id, {**(base or {}), **options})]
    states = [g.new_state(seed, max_rounds=1) for g in games]
    bots = [[make_bot("normal", g, s, random.Random(seed * 7 + s)) for s in range(g.num_players)] for g in games]
    step = 0
    while not states[0].is_over():
        seat = states[0].to_act()[0]
        chosen = [b[seat].act(st.observation(seat), st.legal_actions(seat)) for b, st in zip(bots, states)]
        if chosen[0] != chosen[1]:
            return step, games[0].action_text(chosen[0]), games[1].action_text(chosen[1])
        for st in states:
            st.apply(seat, chosen[0])
        step += 1
    return None


@pytest.mark.parametrize("game_id", sorted(BOT_CHANGES))
def test_the_normal_bot_reads_the_house_rules_it_is_given(game_id: str) -> None:
    """A seeded game where the ``normal`` bot decides otherwise when a value it reads changes."""
    seed, options = BOT_CHANGES[game_id]
    assert set(options) <= house_rules_read("normal", game_class(game_id))
    assert first_different_choice(game_id, seed, options) is not None, f"{game_id}: the normal bot ignored {options}"


def test_compare_says_which_bot_ignores_a_changed_house_rule() -> None:
    assert ignored_house_rules("hearts", {"queen_points": 20}, ["normal", "random", "hard"]) == {
        "random": ["queen_points"]}
    assert ignored_house_rules("hearts", {"target": 100}, ["random"]) == {}  # not a house rule


def test_a_record_carries_its_house_rules_and_replays(tmp_path: Any) -> None:
    game = make_game("hearts", {"queen_points": 7})
    state, actions = play_random(game, 4)
    record = start_record(game, 4, ["a", "b", "c", "d"], max_rounds=1)
    record.actions = actions
    record.result = state.result().to_json()
    again = Record.from_json(json.loads(record.dumps()))
    assert again.options["queen_points"] == 7
    assert replay(again).result() == state.result()
    bad = json.loads(record.dumps())
    bad["options"]["queen_points"] = 99
    with pytest.raises(RecordError, match="queen_points: 99 is above the maximum 26"):
        replay(Record.from_json(bad))


def test_o_sets_a_house_rule_on_the_command_line_and_a_bad_value_names_its_bound(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "hearts", "-o", "queen_points=20", "--rounds", "2", "--json"]) == 0
    out: Mapping[str, Any] = json.loads(capsys.readouterr().out)
    assert out["options"]["queen_points"] == 20
    code = main(["simulate", "hearts", "-o", "queen_points=27", "--rounds", "2"])
    assert code != 0
    assert "queen_points: 27 is above the maximum 26" in capsys.readouterr().err


def test_compare_varies_a_house_rule_and_reports_the_bot_that_ignores_it() -> None:
    from torite.compare import compare

    out = compare("hearts", ["base:", "dear:queen_points=20"], "normal,normal,random,normal", deals=2, skill=None)
    dear = next(v for v in out["variants"] if v["name"] == "dear")
    assert dear["changed"] == {"queen_points": 20} and dear["options"]["queen_points"] == 20
    assert out["per_variant"]["dear"]["ignored"] == {"random": ["queen_points"]}
    assert any(f.startswith("random ignores queen_points") for f in out["findings"])
