"""A played game's record survives JSON and replays to the same game; the same seed and the same
actions give the same game, bit for bit."""

from __future__ import annotations

import json
import random

from torite.record import Record, replay, start_record

from .harness import Case, RandomPlay, assert_same, event_log, snapshot


def test_a_record_survives_json_and_replays_to_the_same_game(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(2):
        state = game.new_state(seed, max_rounds=2)
        record = start_record(game, seed, [f"player {s}" for s in range(game.num_players)], max_rounds=2)
        play = RandomPlay(state, random.Random(seed))
        for _ in play:
            pass
        record.actions = [(seat, str(action)) for seat, action in play.actions]
        record.result = state.result().to_json()
        text = json.dumps(record.to_json())
        back = Record.from_json(json.loads(text))
        assert back.to_json() == record.to_json()
        again = replay(back)
        assert again.is_over()
        assert again.result() == state.result()
        assert again.result().to_json() == record.result
        assert_same(snapshot(state), snapshot(again), "the replayed game ends differently")
        assert event_log(again) == event_log(state)


def test_same_seed_and_same_actions_give_identical_observations_and_events(case: Case) -> None:
    """The second game takes each action as text, the way a record or the web table gives it."""
    game = case.game()
    for seed in case.seeds(1):
        one, two = game.new_state(seed, max_rounds=2), game.new_state(seed, max_rounds=2)
        play = RandomPlay(one, random.Random(seed))
        for st in play:
            if play.actions:
                seat, action = play.actions[-1]
                two.apply_text(seat, str(action))
            assert_same(snapshot(st, cheap=True), snapshot(two, cheap=True),
                        f"after {len(play.actions)} actions the two games differ")
            assert len(st.events) == len(two.events)
        assert event_log(one) == event_log(two)
        assert one.result() == two.result()
        assert one.stats() == two.stats()
