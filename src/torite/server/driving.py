"""Driving a table: its bots' loop and the idle clocks of its people.

Its own part because it is the one place that acts on a table by itself (a bot's move, an idle
player handed to the stand-in bot), and only in the process that drives the table: one asyncio
task per table, a bot thinking in a worker process (``torite.server.bots``), so no bot's
decision ever holds up a message.  An action it decides goes through the manager's ``act``
like anyone's.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from abc import ABC, abstractmethod
from typing import Any

import torite.bots.registry as bot_registry
from torite.bots.search import with_safety_cap
from torite.engine.driver import next_seat
from torite.server.bots import BotFailed, BotHandle, BotLost
from torite.server.keeper import TableKeeper
from torite.server.live import LiveTable, TableError, bot_names

log = logging.getLogger("torite.server")

IDLE_BOT = "normal"


class TableDriver(TableKeeper, ABC):
    """The bots and idle clocks of the tables this process drives."""

    @abstractmethod
    async def act(self, table: LiveTable, seat: int, text: str, *, decision: Any = None, by_bot: bool = False) -> str:
        """Apply one action: :meth:`torite.server.tables.TableManager.act`, the one way a table's
        state changes (a bot's move too); declared here because the bots' loop makes moves."""

    def _start(self, table: LiveTable) -> None:
        if not self._drives(table):
            return
        if not table.over and table.driver is None:
            table.driver = asyncio.get_running_loop().create_task(self._drive(table), name=f"table-{table.id}")
        self._update_idle(table)

    # ---------------------------------------------------------------- bots
    def _bot(self, table: LiveTable, seat: int) -> BotHandle:
        """The seat's bot (kept for the table's life: a bot's state carries from one decision to
        the next), living in a worker process."""
        s = table.seats[seat]
        level = s.level if s.kind == "bot" and s.level else IDLE_BOT
        if level not in bot_names():
            level = IDLE_BOT if IDLE_BOT in bot_names() else bot_names()[0]
        hit = table.bots.get(seat)
        if hit is not None and hit[0] == level and not hit[1].lost:
            return hit[1]
        if hit is not None:
            self.bots.remove(hit[1])
        # a search level's budget is counted; the table adds a wall-clock safety cap, logged when it fires
        bot = with_safety_cap(bot_registry.make_bot(level, table.game, seat, random.Random(secrets.randbits(64))))
        handle = self.bots.add(bot)
        table.bots[seat] = (level, handle)
        return handle

    def _release_bots(self, table: LiveTable) -> None:
        for _, handle in table.bots.values():
            self.bots.remove(handle)
        table.bots.clear()

    async def _drive(self, table: LiveTable) -> None:
        """The table's bot loop: whenever a bot (or an idle human's stand-in) must act, it asks
        the bot's worker process, with the seat's observation and legal actions only."""
        try:
            while not table.over:
                table.wake.clear()
                seat = next_seat(table.state, table.controlled_by_bot)
                if seat is None:
                    await table.wake.wait()
                    continue
                delay = table.settings.get("bot_delay", 0.0)
                if delay > 0:
                    await asyncio.sleep(delay)
                    if seat not in table.state.to_act() or not table.controlled_by_bot(seat):
                        continue
                state = table.state  # never changed in place (act applies to a clone)
                decision = table.decisions[seat]
                legal = state.legal_actions(seat)
                if not legal:
                    log.error("seat %d of table %s is to act without a legal action", seat, table.id)
                    await table.wake.wait()
                    continue
                try:
                    handle = self._bot(table, seat)
                    obs = state.observation(seat) if handle.uses_observation else {}
                    action = await self.bots.decide(handle, obs, legal)
                except BotLost:
                    continue  # its worker is gone: a new bot decides
                except BotFailed as e:
                    log.warning("bot for seat %d of table %s failed (%s); playing a random legal action",
                                seat, table.id, e)
                    action = random.choice(legal)
                if table.state is not state:
                    continue  # someone else moved meanwhile: decide again on the new state
                try:
                    await self.act(table, seat, table.game.action_text(action), by_bot=True, decision=decision)
                except TableError as e:
                    if e.code == "storage":
                        await asyncio.sleep(1.0)
                    continue
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot loop of table %s stopped", table.id)
        finally:
            table.driver = None
            self._release_bots(table)

    # ---------------------------------------------------------------- idle seats
    def _restart_idle(self, table: LiveTable, seat: int) -> None:
        h = table.idle_timers.pop(seat, None)
        if h is not None:
            h.cancel()
        self._update_idle(table, restarted=seat)

    def _update_idle(self, table: LiveTable, acted: int | None = None, restarted: int | None = None) -> None:
        """Keep one idle clock per human seat that must decide now and is not yet away (the
        process that drives the table does; the others hear the deadlines from it)."""
        if not self._drives(table):
            return
        if acted is not None:
            h = table.idle_timers.pop(acted, None)
            if h is not None:
                h.cancel()
        limit = table.settings.get("idle_seconds", 0.0)
        to_act = set() if table.over or limit <= 0 else set(table.state.to_act())
        for seat, s in enumerate(table.seats):
            want = s.kind == "human" and not s.away and seat in to_act
            h = table.idle_timers.get(seat)
            if want and h is None:
                table.idle_timers[seat] = asyncio.get_running_loop().call_later(
                    limit, self._idle_expired, table, seat)
            elif not want and h is not None:
                h.cancel()
                del table.idle_timers[seat]
        # the deadlines go to the clients (a countdown by a gone player's seat): a clock restarted
        # just now runs from now, the others keep theirs
        now = time.time()
        deadlines: dict[int, float] = {}
        for seat in table.idle_timers:
            kept = table.idle_deadlines.get(seat)
            deadlines[seat] = kept if kept is not None and seat not in (acted, restarted) else now + limit
        if deadlines != table.idle_deadlines:
            table.idle_deadlines = deadlines
            table.touch()
            self._tell_status(table)

    def _idle_expired(self, table: LiveTable, seat: int) -> None:
        table.idle_timers.pop(seat, None)
        table.idle_deadlines.pop(seat, None)
        if table.over or seat not in table.state.to_act():
            return
        table.seats[seat].away = True
        table.touch()
        table.wake.set()
        self._tell_status(table)

    def returned(self, table: LiveTable, seat: int) -> None:
        """The seat's player is back: the stand-in bot stops and the idle clock restarts (by
        the process that drives the table: told so, if it is another)."""
        if not self._drives(table):
            self._tell("b", table.id, s=seat)
            return
        s = table.seats[seat]
        if s.away:
            s.away = False
            table.touch()
            self._tell_status(table)
        self._restart_idle(table, seat)
