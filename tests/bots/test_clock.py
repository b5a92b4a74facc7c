"""Bots never depend on the clock (issue 37): every level's budget is counted, so the same seed
plays the same games on an idle machine and on one a CPU hog keeps busy; only the web table's
safety cap reads the clock, and it says so when it fires."""

from __future__ import annotations

import logging
import random
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from torite.arena import arena
from torite.bots import make_bot
from torite.bots.search import CAP_HITS, LEVELS, WEB_SAFETY_CAP, SearchBot, with_safety_cap
from torite.engine.registry import make_game
from torite.sim import simulate

#: the numbers of a run that are timings, not functions of the seed
TIMINGS = {"seconds", "rounds_per_second", "actions_per_second", "seconds_per_decision",
           "seconds_per_decision_p50", "seconds_per_decision_p99"}


def _untimed(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _untimed(x) for k, x in v.items() if k not in TIMINGS}
    if isinstance(v, list):
        return [_untimed(x) for x in v]
    return v


@pytest.fixture
def hog() -> Iterator[None]:
    """A process that spins: the searches run beside it, on a busy machine."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_no_level_reads_the_clock() -> None:
    for level, spec in LEVELS.items():
        assert spec.get("time_limit") is None, level
        bot = make_bot(level, make_game("hearts"), 0, 1)
        assert isinstance(bot, SearchBot) and bot.time_limit is None and bot.work is not None


def test_the_same_seed_gives_the_same_numbers_beside_a_cpu_hog(hog: None) -> None:
    # a search level in one seat, the round played twice with the hog spinning: every number
    # that is not a timing is the same (with a clock in the budget, the load changed the moves)
    runs = [simulate("hearts", {}, ["hard", "random", "random", "normal"], rounds=1, seed=37) for _ in range(2)]
    assert _untimed(runs[0]) == _untimed(runs[1])
    deals = [arena("trick-of-the-dead", {"players": 2}, ["hard", "random"], deals=1, seed=37) for _ in range(2)]
    assert _untimed(deals[0]) == _untimed(deals[1])
    assert deals[0]["bots"][0]["decisions"] > 0


def test_the_web_tables_safety_cap_logs_and_counts_when_it_fires(caplog: pytest.LogCaptureFixture) -> None:
    game = make_game("hearts")
    state = game.new_state(3, max_rounds=1)
    while len(state.legal_actions(seat := state.to_act()[0])) < 2:
        state.apply(seat, state.legal_actions(seat)[0])
    bot = with_safety_cap(make_bot("expert", game, seat, random.Random(1)))
    assert isinstance(bot, SearchBot) and bot.time_limit == WEB_SAFETY_CAP["expert"]
    bot.time_limit = 1e-9  # a machine infinitely slow: the cap must fire at the first check
    before = CAP_HITS[0]
    with caplog.at_level(logging.WARNING, logger="torite.bots"):
        bot.act(state.observation(seat), state.legal_actions(seat))
    assert bot.capped == 1 and CAP_HITS[0] == before + 1
    assert bot.last_iterations == 8  # the cap is checked every 8 iterations
    assert any("safety cap" in r.getMessage() for r in caplog.records)
    assert with_safety_cap(make_bot("normal", game, 0, 1)).name == "normal"  # not a search: unchanged
