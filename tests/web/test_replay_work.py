"""What replaying costs the server, kept and bounded: each step's message comes out the same
from the step cache as made afresh, the landmarks are found once, and the replays' work from
every address together is held to its share of a core (``busy`` past it, nothing changed)."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.web.test_data_bounds import finished_record

from torite.record import Record
from torite.replay import OPEN, Replay
from torite.server.app import create_app
from torite.server.live import TableError
from torite.server.pacing import WorkBudget
from torite.server.replays import StepCache, step_json, step_message


def _plain(rp: Replay, step: int, viewer: Any) -> dict[str, Any]:
    return _same(step_message(rp, step, viewer))


def _same(msg: dict[str, Any] | bytes) -> dict[str, Any]:
    """A message but its time stamp (when its table object was made)."""
    out: dict[str, Any] = json.loads(msg) if isinstance(msg, bytes) else json.loads(json.dumps(msg))
    del out["ts"]
    return out


@pytest.mark.parametrize("game_id", ["trick-of-the-dead", "mighty", "umbridge"])
def test_a_step_from_the_cache_is_the_step_made_afresh(game_id: str) -> None:
    rp = Replay(Record.from_json(finished_record(3, game_id)))
    cache = StepCache()
    steps = sorted({0, 1, 2, rp.steps // 3, rp.steps // 2, rp.steps - 1, rp.steps})
    for viewer in [OPEN, None, *range(rp.game.num_players)]:
        for step in steps:
            fresh = _plain(rp, step, viewer)
            assert _same(step_json(rp, step, viewer, cache=cache)) == fresh  # the log rendered once, cut
            assert _same(step_json(rp, step, viewer, cache=cache)) == fresh  # the message kept
    # a step's own lines are marked, and no other step's (the kept lines are shared by all)
    for step in steps:
        log = json.loads(step_json(rp, step, None, cache=cache))["log"]
        assert all(line["now"] == (step > 0 and line["step"] == step) for line in log)


def test_the_landmarks_are_the_steps_whose_events_end_a_trick_or_a_round() -> None:
    rp = Replay(Record.from_json(finished_record(5, "mighty")))
    for kind, found in (("trick", rp.tricks()), ("round_end", rp.rounds())):
        by_steps = [k for k in range(1, rp.steps + 1)
                    if any(e.kind == kind for e in rp.final.events[rp.event_counts[k - 1]:rp.event_counts[k]])]
        assert found == by_steps and found
    assert len(rp.tricks()) == 10 and rp.rounds() == [rp.steps]
    rp.tricks().clear()  # a copy: the kept list cannot be changed from outside
    assert len(rp.tricks()) == 10


def test_the_step_cache_is_bounded_and_forgets_a_replay_with_it() -> None:
    rps = [Replay(Record.from_json(finished_record(seed))) for seed in range(3)]
    cache = StepCache(max_bytes=200_000)
    for rp in rps:
        for step in range(0, rp.steps + 1, 3):
            step_json(rp, step, OPEN, cache=cache)
            assert cache.bytes <= cache.max_bytes
            assert cache.bytes == sum(w for _, _, w in cache._kept.values())
    n = len(cache)
    assert n > 0
    del rps[:]  # the replays forgotten: their entries name them weakly and miss
    other = Replay(Record.from_json(finished_record(7)))
    assert all(cache.get(other, key[1:]) is None for key in list(cache._kept))


def test_the_work_budget_refuses_past_its_share_and_refills() -> None:
    now = [0.0]
    budget = WorkBudget(share=0.25, burst=0.5, clock=lambda: now[0])
    budget.check()
    budget.charge(0.7)  # a piece of work may overdraw it once: the next waits
    with pytest.raises(TableError) as e:
        budget.check()
    assert e.value.code == "busy" and e.value.detail["retry_after"] == 1
    now[0] += 1.0  # 0.25 s of work back at a quarter of a core: 0.05 s in hand
    budget.check()
    budget.charge(10.0)
    with pytest.raises(TableError) as e:
        budget.check()
    assert e.value.detail["retry_after"] == 40  # 9.95 s owed at 0.25 a second
    now[0] += 1000
    budget.check()
    assert budget.tokens == budget.burst  # never more than its burst saved up


def test_replays_past_the_servers_share_are_busy_for_every_address_and_change_nothing() -> None:
    app = create_app("sqlite://")
    with TestClient(app) as client:
        rec = finished_record(11)
        assert client.post("/api/replay", json={"record": rec, "step": 1}).status_code == 200
        work = app.state.pacing.work
        work.charge(work.burst + 5.0)  # as if many addresses had spent it
        kept = len(app.state.replays), len(app.state.replays.steps)
        for address in ("10.0.0.2", "10.0.0.3"):
            with TestClient(app, client=(address, 5000)) as other:
                r = other.post("/api/replay", json={"record": rec, "step": 2})
                assert r.status_code == 503 and r.json()["error"] == "busy", r.text
                assert r.json()["detail"]["retry_after"] >= 1
                r = other.post("/api/replay", json={"record": finished_record(12), "step": 0})
                assert r.status_code == 503 and r.json()["error"] == "busy"
        assert (len(app.state.replays), len(app.state.replays.steps)) == kept
        # a step already made is served from the cache, costing nothing
        assert client.post("/api/replay", json={"record": rec, "step": 1}).status_code == 200
