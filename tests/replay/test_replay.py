"""A record stepped through: the state at step k is a fresh replay to step k, a seat's view of a
step holds only what the seat knew then, a game in progress shows nobody's hand, and a tampered
record is refused naming the action and the reason."""

from __future__ import annotations

import random

import pytest

from conformance.harness import card_mentions, cases
from torite.engine.registry import make_game
from torite.record import Record, RecordError, replay
from torite.replay import OPEN, Replay
from torite.sim import play


def record_of(game_id: str, seed: int, **options: object) -> Record:
    game = make_game(game_id, options)
    rec = play(game, ["random"] * game.num_players, seed, max_rounds=1, keep_record=True)[1]
    assert rec is not None
    return rec


@pytest.mark.parametrize("case", [c for c in cases() if c.changed == {}], ids=lambda c: c.game_id)
def test_every_step_is_the_state_a_fresh_replay_reaches_and_views_leak_nothing(case):  # type: ignore[no-untyped-def]
    rec = record_of(case.game_id, 3)
    rp = Replay(rec)
    assert rp.steps == len(rec.actions) and rp.finished
    for k in sorted({0, 1, rp.steps // 2, rp.steps - 1, rp.steps}):
        fresh = Record.from_json({**rec.to_json(), "actions": rec.to_json()["actions"][:k], "result": None})
        want = replay(fresh, check_result=False)
        for v in range(rp.game.num_players):
            assert rp.observation(k, v) == want.observation(v)
            # what a seat is shown at step k: nothing beyond what it knew then
            assert card_mentions(rp.observation(k, v)) & ~want.known_cards(v) == 0
            shown = [e.data for _, e in rp.events(k, v)]
            assert shown == [e.data for e in want.events_for(v)]
        assert rp.observation(k, None) == want.observation(None)
        assert len(rp.observation(k, OPEN)["hands"]) == rp.game.num_players


def test_landmarks_are_the_steps_that_end_tricks_and_rounds() -> None:
    rp = Replay(record_of("hearts", 5))
    tricks, rounds = rp.tricks(), rp.rounds()
    assert len(tricks) == 13 and rounds == [rp.steps] and tricks == sorted(tricks)
    for k in tricks:
        assert len(rp.observation(k, None)["tricks"]) == len(rp.observation(k - 1, None)["tricks"]) + 1 \
            or rp.observation(k, None)["round_scores"]


def test_a_game_in_progress_is_shown_to_everyone_as_a_spectator_sees_it() -> None:
    rec = record_of("kaedama", 2)
    unfinished = Record.from_json({**rec.to_json(), "actions": rec.to_json()["actions"][:7], "result": None})
    rp = Replay(unfinished)
    assert not rp.finished and rp.viewers() == [None]
    assert rp.observation(7, 0) == rp.observation(7, None) and rp.observation(7, 0)["hand"] == []
    assert "hands" not in rp.observation(7, OPEN)


def test_a_tampered_record_is_refused_with_the_action_and_its_reason() -> None:
    data = record_of("trick-of-the-dead", 4).to_json()
    data["actions"][10]["action"] = "play " + ("2C" if "2C" not in data["actions"][10]["action"] else "3C")
    with pytest.raises(RecordError, match=r"action 10 \(seat \d"):
        Replay(Record.from_json(data))
    data = record_of("trick-of-the-dead", 4).to_json()
    data["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="recorded result"):
        Replay(Record.from_json(data))


def test_a_bot_suggests_from_the_seats_observation_at_that_step() -> None:
    rp = Replay(record_of("seconds", 1))
    step = 4
    seat = rp.state(step).to_act()[0]
    suggestion = rp.suggest(step, seat, "normal", seed=random.Random(0).randrange(99))
    assert suggestion in rp.state(step).legal_actions(seat)
    assert rp.suggest(step, (seat + 1) % 4, "normal") is None


def test_a_long_record_keeps_a_state_every_checkpoint_and_every_step_is_as_it_was() -> None:
    """An 850-action record holds a state every CHECKPOINT steps (not one a step, which
    made a 42,000-action game cost gigabytes), and every step, visited in order, backwards and
    at random, is the state the game was in then, as every viewer saw it."""
    from torite.replay import CHECKPOINT

    game = make_game("kaedama", {"rounds": 20})
    rec = play(game, ["random"] * game.num_players, 11, keep_record=True)[1]
    assert rec is not None and len(rec.actions) > 16 * CHECKPOINT
    rp = Replay(rec)
    assert rp.kept() <= rp.steps // CHECKPOINT + 3
    _, state = rec.new_game()
    want = [state.clone()]
    for seat, text in rec.actions:
        state.apply_text(seat, text)
        want.append(state.clone())
    order = list(range(rp.steps + 1))
    rng = random.Random(5)
    for k in order + order[::-1] + rng.sample(order, len(order)):
        for v in (None, 0, 2):
            assert rp.observation(k, v) == want[k].observation(v), (k, v)
        assert rp.state(k).to_act() == want[k].to_act()
    assert rp.kept() <= rp.steps // CHECKPOINT + 3
    # the copy handed out is the caller's: changing it changes no step
    s = rp.state(10)
    s.apply(s.to_act()[0], s.legal_actions(s.to_act()[0])[0])
    assert rp.observation(10, None) == want[10].observation(None)
