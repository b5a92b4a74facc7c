"""Every round's summary explains its points: from the ``summary`` of each ``round_end`` event a
reader recomputes every seat's points (rows that add up, or the calculation written out)."""

from __future__ import annotations

import random

from torite.engine.summary import problems

from .harness import Case, play_out


def test_every_round_summary_adds_up_to_the_rounds_points(case: Case) -> None:
    game = case.game()
    ends = 0
    for seed in case.seeds(4):
        state = game.new_state(seed, max_rounds=2)
        play_out(state, random.Random(seed), check=False)
        for e in state.events:
            if e.kind != "round_end":
                continue
            assert "summary" in e.data, "a round_end without a summary"
            assert not problems(e.data["summary"], e.data["points"]), (problems(e.data["summary"], e.data["points"]),
                                                                       e.data)
            ends += 1
    assert ends
