"""The Ray backend: the same numbers as the local one for the same seed, many games per task.

One local Ray with 2 CPUs is started for the whole module (its start-up takes seconds)."""

from __future__ import annotations

import operator
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from torite.arena import arena
from torite.cli.main import main
from torite.parallel import BackendError, check_backend, ordered_map, ray_batch_size
from torite.sim import simulate

ray = pytest.importorskip("ray")

_TIMING = {"rounds_per_second", "actions_per_second", "seconds", "backend", "jobs", "ray"}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


def _same(out: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if k not in _TIMING}


def test_ray_map_keeps_the_input_order_across_batches(local_ray: None) -> None:
    # a function the workers can import (not one of this test module)
    assert list(ordered_map(operator.neg, list(range(50)), 1, chunksize=7, backend="ray")) == [-x for x in range(50)]


def test_simulate_on_ray_gives_the_local_numbers(local_ray: None) -> None:
    kw: dict[str, Any] = {"rounds": 120, "seed": 5}
    local = simulate("trick-of-the-dead", {}, ["random", "normal", "random"], **kw)
    remote = simulate("trick-of-the-dead", {}, ["random", "normal", "random"], backend="ray", **kw)
    assert remote["backend"] == "ray" and _same(remote) == _same(local)
    games_local = simulate("kaedama", {"rounds": 2}, ["random"] * 3, games=6, seed=2)
    games_ray = simulate("kaedama", {"rounds": 2}, ["random"] * 3, games=6, seed=2, backend="ray")
    assert _same(games_ray) == _same(games_local)


def test_a_ray_run_reports_the_clusters_cpus_as_its_jobs_and_its_start_up_apart(
        local_ray: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``jobs`` is what the run played on (the cluster's 2 CPUs here, not ``--jobs``'s 1), and a
    slow start (a cluster far away) is said apart, not counted in the rates."""
    import time

    import torite.parallel as parallel

    real_init, real_clock = parallel._init_ray, time.perf_counter
    late = [0.0]

    def slow(ray_module: Any, address: str | None) -> None:  # joining takes an hour, by the clock
        real_init(ray_module, address)
        if not late[0]:
            late[0] = 3600.0

    monkeypatch.setattr(parallel, "_init_ray", slow)
    monkeypatch.setattr(time, "perf_counter", lambda: real_clock() + late[0])
    out = simulate("kaedama", {}, ["random"] * 3, rounds=30, seed=1, backend="ray")
    assert out["jobs"] == 2 and out["ray"]["cpus"] == 2 and out["ray"]["nodes"] == 1
    assert out["ray"]["startup_seconds"] >= 3600
    assert out["rounds"] / out["rounds_per_second"] < 600  # the rate's clock started after Ray was up
    late[0] = 0.0
    played = arena("kaedama", {}, ["normal", "random"], 2, seed=1, backend="ray")
    assert played["jobs"] == 2 and played["ray"]["startup_seconds"] >= 3600 and played["seconds"] < 600


def test_arena_on_ray_gives_the_local_numbers(local_ray: None) -> None:
    local = arena("kaedama", {}, ["normal", "random"], 6, seed=3)
    remote = arena("kaedama", {}, ["normal", "random"], 6, seed=3, backend="ray")
    strip = ("seconds_per_decision", "seconds_per_decision_p50", "seconds_per_decision_p99")
    for out in (local, remote):
        for row in out["bots"]:
            for k in strip:
                row.pop(k)
    assert _same(remote) == _same(local)


def test_compare_on_ray_gives_the_local_numbers(local_ray: None) -> None:
    """Deals go to Ray in batches, each deal holding every variant, as they go to local workers."""
    from torite.compare import compare

    kw: dict[str, Any] = {"deals": 3, "skill": ("normal", "random"), "seed": 4}
    local = compare("kaedama", ["base", "reverse:reverse=true"], "random", **kw)
    remote = compare("kaedama", ["base", "reverse:reverse=true"], "random", backend="ray", **kw)
    timing = ("cpu_seconds", "seconds", "jobs", "backend", "ray")
    assert remote["jobs"] == 2 and remote["backend"] == "ray" and local["jobs"] == 1
    assert {k: v for k, v in remote.items() if k not in timing} == {
        k: v for k, v in local.items() if k not in timing}


def test_the_cli_runs_simulate_and_arena_on_ray(local_ray: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kaedama", "--rounds", "20", "--backend", "ray", "--json"]) == 0
    assert '"backend": "ray"' in capsys.readouterr().out
    assert main(["arena", "kaedama", "--bots", "normal,random", "--deals", "2", "--backend", "ray"]) == 0
    assert "normal" in capsys.readouterr().out


def test_batches_hold_many_games() -> None:
    assert ray_batch_size(10_000, 2) == 256 and ray_batch_size(100, 2) == 13 and ray_batch_size(1, 8) == 1


def test_without_ray_the_backend_is_refused_clearly(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(BackendError, match="pip install"):
        check_backend("ray")
    assert main(["simulate", "kaedama", "--rounds", "5", "--backend", "ray"]) == 2
    assert "needs Ray" in capsys.readouterr().err
    assert main(["arena", "kaedama", "--bots", "normal,random", "--backend", "ray"]) == 2


def test_an_address_without_the_ray_backend_or_an_unknown_backend_is_refused() -> None:
    with pytest.raises(BackendError, match="ray backend"):
        simulate("kaedama", {}, ["random"] * 3, rounds=2, address="10.0.0.1:6379")
    with pytest.raises(BackendError, match="unknown backend"):
        arena("kaedama", {}, ["random"], 1, backend="dask")


def test_a_servers_search_bots_think_on_ray_and_decide_as_in_process(local_ray: None) -> None:
    """``torite serve --ray ADDRESS``: a search bot lives in a Ray actor for its life (its state
    kept between decisions), so it decides exactly as the same bot in-process."""
    import asyncio
    import random

    from torite.bots.search import ISMCTSBot
    from torite.engine.registry import make_game
    from torite.server.bots import BotPool

    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=4)

    def bot(seat: int) -> ISMCTSBot:
        return ISMCTSBot(game, seat, random.Random(50 + seat), iterations=100_000, work=3_000, time_limit=None)

    local = {s: bot(s) for s in range(3)}

    async def play() -> str:
        pool = BotPool(1, 1, ray_address="local")  # Ray is up already (the fixture): joined, not started
        await pool.start()
        try:
            remote = {s: pool.add(bot(s)) for s in range(3)}
            lanes = {h.worker.lane for h in remote.values()}
            for _ in range(5):
                seat = state.to_act()[0]
                obs, legal = state.observation(seat), state.legal_actions(seat)
                here = local[seat].act(obs, legal)
                assert await pool.decide(remote[seat], obs, legal) == here
                state.apply(seat, here)
            worker = remote[0].worker
            assert worker.proc is not None and worker.proc.name == "a Ray actor"
            return lanes.pop()
        finally:
            await pool.stop()

    assert asyncio.run(play()) == "think"


def test_a_game_from_outside_the_package_plays_on_ray_as_it_plays_here(
        local_ray: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers of a Ray already running register the game a task names (by ``module:Class``)
    and import its module: here from the folder the driver loaded it from."""
    from outside.house import CLASS, ID, MODULE, write_house
    from torite.engine import registry

    module = write_house(tmp_path / "house")
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv(registry.GAME_MODULES_ENV, "")
    try:
        registry.load_game_module(f"{module}:{CLASS}")
        kw: dict[str, Any] = {"games": 4, "seed": 9}
        local = simulate(ID, {"target": 40}, ["normal", "random", "random"], **kw)
        remote = simulate(ID, {"target": 40}, ["normal", "random", "random"], backend="ray", **kw)
        assert _same(remote) == _same(local) and local["game"] == ID
    finally:
        registry.unregister_game(ID)
        sys.modules.pop(MODULE, None)
