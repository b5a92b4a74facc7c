"""Bots think in worker processes (issue 26): the same decisions as the bot in-process, the
event loop free while they think, a bounded queue, and a lost worker that loses only its bots."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import signal
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import torite.bots.registry as bot_registry
from torite.bots.search import ISMCTSBot, PIMCBot
from torite.engine.base import Action, Game
from torite.engine.bot import Bot
from torite.engine.registry import game_ids, make_game
from torite.server.bots import BotFailed, BotLost, BotPool, _Process


class SleepyBot(Bot):
    """Takes ``seconds`` over each decision (in whatever process it runs in)."""

    name = "sleepy"

    def __init__(self, game: Game, seat: int, rng: random.Random, seconds: float = 1.0) -> None:
        super().__init__(game, seat, rng)
        self.seconds = seconds

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        time.sleep(self.seconds)
        return legal[0]


class BrokenBot(Bot):
    name = "broken"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        raise RuntimeError("no idea")


def _refuse() -> Bot:
    raise RuntimeError("this bot does not travel")


class HomesickBot(Bot):
    """Cannot be unpickled: a worker is sent what it cannot load."""

    name = "homesick"

    def __reduce__(self) -> tuple[Any, ...]:
        return _refuse, ()

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[0]


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


def _search(game: Game, seat: int, rng: random.Random) -> Bot:
    """The hard level's search on a budget of work alone: its time cap (a safety net) would make
    a decision depend on the machine's load."""
    return ISMCTSBot(game, seat, rng, iterations=100_000, work=8_000, time_limit=None)


def _make(level: str, game: Game, seat: int, seed: int) -> Bot:
    if level == "small search":
        return ISMCTSBot(game, seat, random.Random(seed), iterations=100_000, work=1_500, time_limit=None)
    if level == "small pimc":
        return PIMCBot(game, seat, random.Random(seed), iterations=100_000, work=1_500, time_limit=None)
    return _search(game, seat, random.Random(seed)) if level == "search" else \
        bot_registry.make_bot(level, game, seat, random.Random(seed))


@pytest.mark.parametrize(("game_id", "level", "decisions"), [
    ("glapgos", "normal", 400),            # keeps its exact solver's tables from one decision to the next
    ("trick-of-the-dead", "easy", 400),    # draws from its generator at every decision
    ("mighty", "normal", 400),
    ("trick-of-the-dead", "search", 6),    # a search
])
def test_a_bot_in_a_worker_decides_exactly_as_the_same_bot_in_process(game_id: str, level: str,
                                                                       decisions: int) -> None:
    """Same seed, same observations in the same order: the same decisions, so a bot object's
    state between decisions (its generator, a solver's tables) lives on in its worker."""
    game = make_game(game_id)
    state = game.new_state(seed=21)
    local = {s: _make(level, game, s, 100 + s) for s in range(game.num_players)}

    async def play() -> int:
        pool = BotPool(1, 1)
        await pool.start()
        try:
            remote = {s: pool.add(_make(level, game, s, 100 + s)) for s in range(game.num_players)}
            n = 0
            while not state.is_over() and n < decisions:
                seat = state.to_act()[0]
                obs, legal = state.observation(seat), state.legal_actions(seat)
                here = local[seat].act(obs, legal)
                there = await pool.decide(remote[seat], obs, legal)
                assert there == here, f"decision {n}: {there} in the worker, {here} in-process"
                state.apply(seat, here)
                n += 1
            return n
        finally:
            await pool.stop()

    assert _run(play()) == decisions or state.is_over()


@pytest.mark.parametrize("game_id", game_ids())
def test_every_bot_of_every_game_reaches_its_worker_whole(game_id: str) -> None:
    """A bot goes to its worker pickled: the copy decides as the bot itself does, at every level.
    Compiled, a bot is a native object that pickle must rebuild without calling ``__init__``."""
    game = make_game(game_id)
    for level, decisions in (("random", 30), ("easy", 30), ("normal", 30), ("small search", 3), ("small pimc", 2)):
        state = game.new_state(seed=8)
        bots = {s: _make(level, game, s, 50 + s) for s in range(game.num_players)}
        copies = {s: pickle.loads(pickle.dumps(b, protocol=pickle.HIGHEST_PROTOCOL)) for s, b in bots.items()}
        for n in range(decisions):
            if state.is_over():
                break
            seat = state.to_act()[0]
            obs, legal = state.observation(seat), state.legal_actions(seat)
            here, there = bots[seat].act(obs, legal), copies[seat].act(obs, legal)
            assert there == here, f"{level}, decision {n}: {there} from the copy, {here} from the bot"
            state.apply(seat, here)


def test_a_bot_written_in_a_test_keeps_its_own_attributes_on_the_way() -> None:
    """An interpreted subclass of the (compiled) ``Bot`` keeps its attributes in its ``__dict__``:
    they travel with the ones ``Bot`` declares (its native ones, compiled)."""
    bot = SleepyBot(make_game("hearts"), 2, random.Random(3), 0.25)
    copy = pickle.loads(pickle.dumps(bot, protocol=pickle.HIGHEST_PROTOCOL))
    assert (type(copy), copy.seconds, copy.seat, copy.rng.getstate()) == \
        (SleepyBot, 0.25, 2, random.Random(3).getstate())


def test_a_bot_its_worker_cannot_load_fails_its_decision_and_the_worker_lives_on() -> None:
    """Not a worker dying at each try (its bots lost, the table's bot made again, forever)."""
    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=1)
    obs, legal = state.observation(0), state.legal_actions(0)

    async def send() -> None:
        pool = BotPool(1, 1)
        await pool.start()
        try:
            normal = pool.add(bot_registry.make_bot("normal", game, 0, 1))
            assert await pool.decide(normal, obs, legal) in legal
            generation = normal.worker.generation
            homesick = pool.add(HomesickBot(game, 0, random.Random(1)))
            assert homesick.worker is normal.worker
            with pytest.raises(BotFailed, match="cannot load the bot: RuntimeError: this bot does not travel"):
                await pool.decide(homesick, obs, legal)
            assert await pool.decide(normal, obs, legal) in legal  # its worker kept its bots
            assert normal.worker.generation == generation
        finally:
            await pool.stop()

    _run(send())


def test_search_bots_and_rule_bots_think_in_separate_lanes() -> None:
    game = make_game("trick-of-the-dead")

    async def lanes() -> tuple[str, str]:
        pool = BotPool(1, 1)
        await pool.start()
        try:
            hard = pool.add(bot_registry.make_bot("hard", game, 0, 1))
            normal = pool.add(bot_registry.make_bot("normal", game, 1, 1))
            return hard.worker.lane, normal.worker.lane
        finally:
            await pool.stop()

    assert _run(lanes()) == ("think", "quick")


def test_the_event_loop_runs_while_a_bot_thinks() -> None:
    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=1)

    async def think() -> int:
        pool = BotPool(1, 1)
        await pool.start()
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        try:
            handle = pool.add(SleepyBot(game, 0, random.Random(1), 1.0))
            await pool.decide(handle, state.observation(0), state.legal_actions(0))
            return ticks
        finally:
            ticker.cancel()
            await pool.stop()

    assert _run(think()) > 0  # a bot thinking in this process would have held the loop throughout


def test_the_decisions_waiting_in_a_lane_are_bounded() -> None:
    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=1)

    async def crowd() -> tuple[int, int]:
        pool = BotPool(1, 1, max_pending=2)
        await pool.start()
        try:
            handles = [pool.add(SleepyBot(game, 0, random.Random(i), 0.2)) for i in range(6)]
            tasks = [asyncio.create_task(pool.decide(h, {}, state.legal_actions(0))) for h in handles]
            most = 0
            while not all(t.done() for t in tasks):
                most = max(most, pool.pending("quick"))
                await asyncio.sleep(0.01)
            return most, sum(1 for t in tasks if t.exception() is None)
        finally:
            await pool.stop()

    most, answered = _run(crowd())
    assert most <= 2 and answered == 6  # the others waited their turn, outside the workers' queues


def test_a_worker_that_dies_or_hangs_loses_only_its_bots_and_is_replaced() -> None:
    game = make_game("trick-of-the-dead")
    state = game.new_state(seed=1)
    obs, legal = state.observation(0), state.legal_actions(0)

    async def lose() -> None:
        pool = BotPool(1, 1, timeout=3.0)
        await pool.start()
        try:
            bot = pool.add(bot_registry.make_bot("normal", game, 0, 1))
            assert await pool.decide(bot, obs, legal) in legal
            worker = bot.worker
            assert isinstance(worker.proc, _Process) and worker.proc.proc.pid != os.getpid()
            os.kill(worker.proc.proc.pid, signal.SIGKILL)
            with pytest.raises(BotLost):
                await pool.decide(bot, obs, legal)
            fresh = pool.add(bot_registry.make_bot("normal", game, 0, 1))
            assert await pool.decide(fresh, obs, legal) in legal  # a new worker took over
            with pytest.raises(BotLost):
                await pool.decide(bot, obs, legal)  # the lost bot stays lost
            slow = pool.add(SleepyBot(game, 0, random.Random(1), 30.0))
            with pytest.raises(BotLost):
                await pool.decide(slow, obs, legal)  # killed past the timeout
            again = pool.add(bot_registry.make_bot("normal", game, 0, 1))
            assert await pool.decide(again, obs, legal) in legal
            broken = pool.add(BrokenBot(game, 0, random.Random(1)))
            with pytest.raises(BotFailed, match="no idea"):
                await pool.decide(broken, obs, legal)
        finally:
            await pool.stop()

    _run(lose())
