"""Live tables: the one authority on game state, its bots, its connections.

A live table holds the rules state, rebuilt from the store's log when needed.  Every change
goes through :meth:`TableManager.act`, which applies the action to a clone, appends it to the
log, and only then makes the clone the table's state – so a refused action or a failed write
changes nothing.  Bots and idle seats are driven by one asyncio task per table; a bot thinks in
a worker process (``torite.server.bots``), so no bot's decision ever holds up a message.

The manager is built in layers, each a module: :mod:`torite.server.live` (the table, its
seats and connections, and the messages they are sent), :mod:`torite.server.keeper` (the
tables in memory and the store behind them), :mod:`torite.server.driving` (bots and idle
clocks), :mod:`torite.server.peers` (the other server processes); this module is the top one:
what requests ask of the tables (create, rematch, load, join, hint, act).  The names other
modules import from here (``LiveTable``, ``TableError``…) are re-exported.

What a connection is sent is built from ``state.observation(seat)`` and
``state.events_for(seat)`` alone (``None`` for a spectator): nothing else about the state
reaches a client, so no hidden card can leak through the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from torite.engine.base import Game, IllegalAction, OptionError, State
from torite.engine.registry import make_game
from torite.present import hint, labels
from torite.server.cluster import Cluster
from torite.server.live import (
    SETTINGS,
    Connection,
    LiveTable,
    Seat,
    TableError,
    bot_names,
    check_length,
    hash_token,
    log_line,
    stop_after,
)
from torite.server.peers import EXPIRED, TablePeers
from torite.server.store import TableCap, TableGone, TableRow

__all__ = ["SETTINGS", "Connection", "LiveTable", "Seat", "TableError", "TableManager", "bot_names", "log_line"]

log = logging.getLogger("torite.server")

#: how often an action is checked again after another process took its position in the log
CONFLICT_RETRIES = 3
#: seconds a table no socket holds (finished, or driven by another process) stays in memory
UNUSED_SECONDS = 60.0
MAX_SEAT_NAME = 40
#: a name a player gives their own seat at the table (shorter: it is drawn on a seat's plate)
MAX_CHOSEN_NAME = 24


def chosen_name(raw: Any) -> str:
    """A name a player chose for their seat, cleaned, or a ``bad_name`` refusal: text of at most
    ``MAX_CHOSEN_NAME`` characters once control and format characters (a bidi override, a
    zero-width joiner) are taken out and spaces (a tab, a line break) run together; not ``bot:…`` (a record names its
    bots so).  Empty: the seat goes back to the game's own name for it."""
    if not isinstance(raw, str) or len(raw) > 4 * MAX_CHOSEN_NAME:
        raise TableError("bad_name", f"a name is text of at most {MAX_CHOSEN_NAME} characters")
    name = " ".join("".join(" " if c.isspace() else c for c in raw
                            if c.isspace() or unicodedata.category(c)[0] != "C").split())
    if len(name) > MAX_CHOSEN_NAME:
        raise TableError("bad_name", f"a name is text of at most {MAX_CHOSEN_NAME} characters")
    if name.lower().startswith("bot:"):
        raise TableError("bad_name", "a person's name may not begin with \"bot:\" (a record names its bots so)")
    return name


def _clean_settings(given: Mapping[str, Any] | None) -> dict[str, float]:
    out: dict[str, float] = {}
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        # a list of pairs would pass dict(); anything but an object is refused, not guessed at
        raise TableError("bad_settings", "settings must be an object such as {\"idle_seconds\": 120}")
    given = dict(given)
    unknown = sorted(set(given) - set(SETTINGS))
    if unknown:
        raise TableError("bad_settings", f"unknown table setting {', '.join(unknown)} "
                                         f"(settings: {', '.join(SETTINGS)})")
    for name, (default, lo, hi) in SETTINGS.items():
        v = given.get(name, default)
        what = "0 or 1" if name == "hints" else "a number of seconds"
        if isinstance(v, bool) and name == "hints":
            v = float(v)
        if isinstance(v, bool) or not isinstance(v, int | float | str):
            raise TableError("bad_settings", f"{name}: expected {what}")
        try:
            f = float(v)
        except ValueError:
            raise TableError("bad_settings", f"{name}: expected {what}") from None
        if not lo <= f <= hi:
            raise TableError("bad_settings", f"{name}: must be from {lo:g} to {hi:g}")
        out[name] = f
    return out


class TableManager(TablePeers):
    """Every live table; creation, loading by replay, actions, bots and idle timers."""

    # --------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        """Rebuild every unfinished table from its log and let its bots resume (on PostgreSQL:
        every table no live process drives, and then, every ``sweep_seconds``, those whose
        process died)."""
        if not self.bots.lanes:
            await self.bots.start()
        if self.store.postgres:
            self.cluster = Cluster(self.store.url, self._on_notice, self._leases_lost, self._reconnected)
            await self.cluster.start()
            await self._sweep()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever(), name="cluster-sweep")
            self.started = True
            return
        rows = await self._db_call(lambda: list(self.store.unfinished()))
        for row in rows:
            table = await self._revive(row)
            if table is not None:
                self.tables[table.id] = table
                self._start(table)
        self.started = True

    async def prune(self, finished_before: float) -> list[str]:
        """Forget the tables finished (or abandoned) before ``finished_before``: in the store and
        in memory (a game in play is never dropped, whatever its age)."""
        ids: list[str] = await self._db_call(self.store.prune, finished_before)
        for i in ids:
            t = self.tables.get(i)
            if t is not None and t.state.is_over():
                self._drop(t, "not_found", "this table is no longer kept")
            self._tell("x", i, c="not_found")
        return ids

    async def expire(self, unjoined_seconds: float, idle_seconds: float) -> list[str]:
        """Tables nobody joined for ``unjoined_seconds``, or where nothing happened for
        ``idle_seconds``, leave play: they no longer count against the cap, are not rebuilt
        after a restart, and are pruned with the finished ones.  A table with a seated
        person connected here is active, whatever its log says."""
        now = time.time()
        seated = [t.id for t in self.tables.values() if not t.over and any(c.seat is not None for c in t.conns)]
        if seated:
            await self._db_call(self.store.mark_active, seated, now)
        ids: list[str] = await self._db_call(self.store.expire, now, now - unjoined_seconds, now - idle_seconds)
        for i in ids:
            t = self.tables.get(i)
            if t is not None:
                self._drop(t, "expired", EXPIRED)
            self._tell("x", i, c="expired")
        if ids:
            log.info("%d tables expired unplayed", len(ids))
        # tables a request loaded (a record, an info) that nobody watches and this process does
        # not drive leave memory; they are loaded again if asked for
        quiet = time.monotonic() - UNUSED_SECONDS
        for t in list(self.tables.values()):
            if not t.conns and t.used < quiet and (t.over or not self._drives(t)):
                self.tables.pop(t.id, None)
        return ids

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for t in list(self.tables.values()):
            if t.driver is not None:
                t.driver.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t.driver
            for h in t.idle_timers.values():
                h.cancel()
            t.idle_timers.clear()
            for c in t.conns:
                c.closed = True
                c.wake.set()
        self.tables.clear()
        if self.cluster is not None:
            await self.cluster.stop()
        for task in list(self._background):
            task.cancel()
        await self.bots.stop()
        self._db.shutdown(wait=True)

    # ---------------------------------------------------------------- creation
    async def create(self, game_id: Any, options: Mapping[str, Any] | None, seats: Sequence[Mapping[str, Any]],
                     settings: Mapping[str, Any] | None = None, seed: int | None = None,
                     ) -> tuple[LiveTable, dict[int, str]]:
        """A new table; returns it with the secret token of each human seat (shown once)."""
        if not isinstance(game_id, str):
            raise TableError("bad_game", "game must be a game id")
        if options is not None and not isinstance(options, Mapping):
            raise TableError("bad_options", "options must be an object")
        try:
            game = make_game(game_id, options or {})
        except OptionError as e:
            raise TableError("bad_options", str(e)) from None
        check_length(game)
        n = game.num_players
        if not isinstance(seats, Sequence) or len(seats) != n:
            raise TableError("bad_seats", f"{game.title} with these options needs {n} seats")
        known_bots = bot_names()
        seat_objs: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats):
            if not isinstance(s, Mapping):
                raise TableError("bad_seats", f"seat {i}: expected an object")
            kind = s.get("kind")
            name = s.get("name") or ""
            if not isinstance(name, str) or len(name) > MAX_SEAT_NAME:
                raise TableError("bad_seats", f"seat {i}: a name is text of at most {MAX_SEAT_NAME} characters")
            if kind == "bot":
                level = s.get("level") or "normal"
                if level not in known_bots:
                    raise TableError("bad_seats", f"seat {i}: unknown bot level {level!r} "
                                                  f"(levels: {', '.join(known_bots)})")
                seat_objs.append(Seat("bot", str(level), name, None))
            elif kind == "human":
                token = secrets.token_urlsafe(18)
                tokens[i] = token
                seat_objs.append(Seat("human", None, name.strip(), hash_token(token), host=s.get("host") is True))
            else:
                raise TableError("bad_seats", f"seat {i}: kind must be 'human' or 'bot'")
        clean = _clean_settings(settings)
        table, row = self._new_table(game, seat_objs, clean, seed)
        if self.cluster is not None and await self.cluster.try_lease(table.id):
            row.driver = self.cluster.member  # its creator drives it
        # what is really in play counts: finished and expired tables do not (in any process);
        # counted and stored in one step, so creations at once never overshoot the cap
        try:
            await self._db_create(self.store.create_table, row, self.max_tables)
        except TableCap:
            if self.cluster is not None:
                await self.cluster.release(table.id)
            raise self._full() from None
        self.tables[table.id] = table
        self._start(table)
        return table, tokens

    def _full(self) -> TableError:
        return TableError("too_many_tables", f"the server already runs {self.max_tables} unfinished tables; "
                                             "try again later")

    @staticmethod
    def _new_table(game: Game, seats: list[Seat], settings: dict[str, float],
                   seed: int | None) -> tuple[LiveTable, TableRow]:
        if seed is None:
            seed = secrets.randbelow(2**53)
        stop = stop_after(game)
        state = game.new_state(seed, max_rounds=stop)
        now = time.time()
        # a table of bots has nobody to wait for: it counts as joined from the start
        joined = None if any(s.kind == "human" for s in seats) else now
        table = LiveTable(id=secrets.token_urlsafe(9), game=game, state=state, seed=seed, seats=seats,
                          settings=settings, created=now, joined=joined, max_rounds=stop)
        row = TableRow(id=table.id, game=game.id, options=dict(game.options), seed=seed,
                       seats=[{"kind": s.kind, "level": s.level, "name": s.name, **({"host": True} if s.host else {})}
                              for s in seats],
                       token_hashes=[s.token_hash for s in seats], settings=settings, created=now, joined=joined)
        return table, row

    async def rematch(self, table: LiveTable) -> LiveTable:
        """A new table for the same players: same game, options, seats (people, bots and names)
        and settings, a new deal, and each person's own seat token, so the link each seat is
        shown is the one it already holds.  Stored with the finished table in one transaction:
        asked twice (by two players, in two processes, before and after a restart), it is the
        same new table."""
        if not table.over:
            raise TableError("not_finished", "a rematch starts when the game is over")
        async with table.lock:
            if table.rematch is None:
                seats = [Seat(s.kind, s.level, s.name, s.token_hash, host=s.host) for s in table.seats]
                _, row = self._new_table(table.game, seats, dict(table.settings), None)
                try:
                    table.rematch = await self._db_create(self.store.create_rematch, table.id, row, self.max_tables)
                except TableCap:
                    raise self._full() from None
                table.touch()
                self._tell("r", table.id, r=table.rematch)
        found = await self.get(table.rematch)
        if found is None:
            raise TableError("not_found", "the rematch's table is no longer kept")
        return found

    async def get(self, table_id: str) -> LiveTable | None:
        """A live table, loading (by replay) a finished or evicted one from the store."""
        t = self.tables.get(table_id)
        if t is not None:
            t.used = time.monotonic()
            if self.cluster is not None and not t.conns and not t.over and not self._drives(t):
                await self._catch_up(t)  # nobody tells this process of its actions: read them
            return t
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 40:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await self._db_call(self.store.load_table, table_id)
            table = None
            if row is not None and row.abandoned is None:
                try:
                    table = self._rebuild(row)
                except Exception:
                    log.exception("table %s cannot be rebuilt from its log", table_id)
            if table is not None:
                table = self.tables.setdefault(table_id, table)
                assert table is not None
                if self.cluster is not None:
                    self._tell("q", table.id)  # who is connected, who is away: their processes say
                    if not table.over:
                        self._background_task(self._claim(table))
                self._start(table)
            fut.set_result(table)
            return table
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: no "never retrieved" warning if nobody else waits
            raise
        finally:
            del self._loading[table_id]

    # ---------------------------------------------------------------- seats
    @staticmethod
    def check_token(table: LiveTable, seat: Any, token: Any) -> bool:
        """Constant-time comparison against the stored hash; bots and bad seats never match."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            return False
        expected = table.seats[seat].token_hash
        if expected is None or not isinstance(token, str) or len(token) > 200:
            return False
        return hmac.compare_digest(hash_token(token), expected)

    def attach(self, table: LiveTable, conn: Connection, seat: int | None, token: str | None = None) -> None:
        if conn in table.conns:
            self.detach(table, conn)
        if seat is not None:
            if token is not None:
                table.tokens[seat] = token  # its link to the rematch holds it
            self.seen(table)
        conn.seat = seat
        conn.joined = True
        conn.log_sent = 0
        table.conns.add(conn)
        conn.mark_dirty()  # the joiner gets the whole state and log
        if seat is not None:
            table.seats[seat].connections += 1
            if table.seats[seat].connections == 1:
                table.touch()  # the seat shows as connected: everyone's view changed
            self.returned(table, seat)
        self._tell_presence(table)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        if conn not in table.conns:
            return
        table.conns.discard(conn)
        if conn.seat is not None:
            table.seats[conn.seat].connections -= 1
            if table.seats[conn.seat].connections == 0:
                table.touch()  # nobody else's view changes when a spectator or a second tab leaves
        self._tell_presence(table)
        if not table.conns and (table.over or not self._drives(table)):
            # finished (or driven by another process) and unwatched here: reload from the store if asked
            self.tables.pop(table.id, None)

    def seen(self, table: LiveTable) -> None:
        """A person is at the table: the store hears of it (at most once a minute a table), so
        the table is joined and does not expire as idle while people sit at it."""
        now = time.time()
        if table.joined is not None and now - table.seen_at < 60:
            return
        table.seen_at = now
        table.joined = table.joined or now

        async def tell() -> None:
            with contextlib.suppress(TableError):
                await self._db_call(self.store.mark_active, [table.id], now)

        task = asyncio.get_running_loop().create_task(tell())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def others_on_seat(self, table: LiveTable, conn: Connection) -> list[Connection]:
        """The other connections of ``conn``'s seat from another browser tab (a reload keeps its
        tab, so it is not another)."""
        if conn.seat is None:
            return []
        return [c for c in table.conns if c is not conn and c.seat == conn.seat and not c.closed
                and not (conn.tab and c.tab == conn.tab)]

    def take_over(self, table: LiveTable, conn: Connection) -> int:
        """``conn`` keeps its seat alone: every other tab on it is told and goes on watching (public
        information only).  Returns how many were moved."""
        moved = self.others_on_seat(table, conn)
        for c in moved:
            c.push({"type": "taken_over", "seat": c.seat})
            table.seats[c.seat].connections -= 1  # type: ignore[index]
            c.seat = None
            c.log_sent = 0
        if moved:
            table.touch()
        return len(moved)

    def stand_in(self, table: LiveTable, by: int, seat: Any) -> None:
        """The host hands a gone player's seat to the stand-in bot at once (the player takes it
        back by returning).  Any seated player may when no seat is the host's."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise TableError("bad_seat", "no such seat")
        if any(s.host for s in table.seats) and not table.seats[by].host:
            raise TableError("not_host", "only the table's host may hand a seat to a bot")
        s = table.seats[seat]
        if s.kind != "human" or s.connections > 0 or seat == by:
            raise TableError("not_gone", f"seat {seat} is not a gone player's seat")
        if table.over:
            raise TableError("game_over", "the game is over")
        if not s.away:
            s.away = True
            h = table.idle_timers.pop(seat, None)
            if h is not None:
                h.cancel()
            table.idle_deadlines.pop(seat, None)
            table.touch()
            table.wake.set()

    async def hint(self, table: LiveTable, seat: int, lang: str | None = None) -> dict[str, Any]:
        """A hint for ``seat`` now: the ``normal`` bot's choice from the seat's observation and
        legal actions only, with its reason, in ``lang`` (None: every language); counted for
        the record."""
        if table.settings.get("hints", 1.0) <= 0:
            raise TableError("no_hints", "this table gives no hints")
        state = table.state
        if state.is_over() or seat not in state.to_act():
            raise TableError("not_your_turn", "a hint is for a decision of your own")
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        n = len(table.actions)
        try:
            # a rule bot's one decision (well under a millisecond): a thread, not a bot worker,
            # since the worker's answer carries no reason; a flood of asks is paced per socket
            action, reason = await asyncio.to_thread(hint.suggest, table.game, seat, obs, legal)
        except Exception:  # a bot's bug must not leave the asker waiting
            log.exception("no hint for seat %d of table %s", seat, table.id)
            raise TableError("no_hint", "no hint can be made now") from None
        langs = None if lang is None else (lang,)
        texts = labels.view_texts(table.game, obs, [action], table.seat_names(), langs)
        table.hints[seat] += 1
        self._count_hints(table, seat)
        # the asker's alone: nobody else's view changes (no state to the others; the count shows
        # in everyone's next state)
        return {"type": "hint", "n": n, "action": table.game.action_text(action), "label": texts["actions"][0],
                "reason": labels.hint_texts(table.game, reason, table.seat_names(), langs)}

    async def rename(self, table: LiveTable, seat: int, raw: Any) -> str:
        """``seat``'s player names it (``chosen_name``): stored, shown to everyone at the table
        and in its record; paced per seat.  Returns the name as cleaned."""
        name = chosen_name(raw)
        if table.seats[seat].kind != "human":
            raise TableError("not_human", "only a person's seat is named at the table")
        if table.over:
            raise TableError("game_over", "the game is over: its record keeps the names it was played with")
        if table.seats[seat].name == name:
            return name
        wait = self._renames.allow((table.id, seat))
        if wait:
            raise TableError("slow_down", f"renamed too often: try again in {max(1, round(wait))} s",
                             {"retry_after": max(1, round(wait))})
        await self._db_call(self.store.set_seat_name, table.id, seat, name)
        table.seats[seat].name = name
        table.touch()
        self._tell("m", table.id, s=seat, name=name)
        return name

    def _count_hints(self, table: LiveTable, seat: int) -> None:
        """The store counts the seat's hints up, one write at a time a seat: asks that come while
        one is written are counted by the next, so a flood of asks is a few writes."""
        key = (table.id, seat)
        if key in self._hint_writes:
            return
        self._hint_writes.add(key)

        async def write() -> None:
            try:
                while (more := table.hints[seat] - table.hints_saved[seat]) > 0:
                    await self._db_call(self.store.add_hints, table.id, seat, more)
                    table.hints_saved[seat] += more
            except Exception:
                log.exception("cannot count the hints of seat %d of table %s", seat, table.id)
            finally:
                self._hint_writes.discard(key)

        self._background_task(write())

    # ---------------------------------------------------------------- actions
    async def act(self, table: LiveTable, seat: int, text: str, *, decision: Any = None, by_bot: bool = False) -> str:
        """Apply one action; returns its canonical text.  Raises :class:`TableError`.

        ``decision``, when given, is the number of the seat's decision the action answers (the
        state's ``decision_no``): if the seat has decided since, the action is refused as stale
        rather than taken as the answer to a question it was not meant for."""
        return (await self.act_placed(table, seat, text, decision=decision, by_bot=by_bot))[0]

    async def act_placed(self, table: LiveTable, seat: int, text: str, *, decision: Any = None,
                         by_bot: bool = False) -> tuple[str, int]:
        """:meth:`act`, and the position the action took: the number of actions up to and with
        it, which an ack names (the table's length when the answer is written may be more:
        another seat's action, or another process's read meanwhile)."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise TableError("bad_action", "an action is text such as 'play 10D'")
        if decision is not None and (isinstance(decision, bool) or not isinstance(decision, int)):
            raise TableError("bad_action", "decision is the number of the decision the action answers")
        # shielded: once the write has started, the table must take the action in memory too,
        # even when the client that sent it is gone before the answer (its handler cancelled)
        return await asyncio.shield(self._act_locked(table, seat, text, decision, by_bot))

    async def _act_locked(self, table: LiveTable, seat: int, text: str, decision: int | None,
                          by_bot: bool) -> tuple[str, int]:
        async with table.lock:
            for attempt in range(CONFLICT_RETRIES + 1):
                new, canonical = self._check(table, seat, text, decision, by_bot)
                idx = len(table.actions)
                over = new.is_over()
                result = new.result().to_json() if over else None
                notice = None
                if self.cluster is not None and self._needs_notice(table):
                    notice = self.cluster.payload("a", table.id, i=idx, s=seat, a=canonical, h=not by_bot)
                try:
                    # the action that ends the game and the "finished" mark: one transaction
                    await self._append(table.id, idx, seat, canonical, result, notice)
                    break
                except TableError:
                    raise
                except TableGone:
                    self._drop(table, "expired", EXPIRED)
                    raise TableError("game_over", "this table is no longer in play") from None
                except IntegrityError:
                    # another process wrote this position first: read what it wrote, and check
                    # the action again against the table as it now is
                    if self.cluster is None or attempt == CONFLICT_RETRIES:
                        log.error("table %s: position %d is taken in the log", table.id, idx)
                        raise TableError("storage", "the server could not save this action; try again") from None
                    await self._catch_up_locked(table)
                except Exception:
                    log.exception("cannot store action %d of table %s", idx, table.id)
                    raise TableError("storage", "the server could not save this action; try again") from None
            table.state = new
            table.actions.append((seat, canonical))
            table.decisions[seat] += 1
            if over:
                self._ended(table)
            if not by_bot:
                self.returned(table, seat)
            table.touch()
        self._update_idle(table, acted=seat)
        table.wake.set()
        return canonical, idx + 1

    @staticmethod
    def _check(table: LiveTable, seat: int, text: str, decision: int | None, by_bot: bool) -> tuple[State, str]:
        """The state after the action, and its canonical text; or the reason it is refused."""
        state = table.state
        if state.is_over():
            raise TableError("game_over", "the game is over")
        if by_bot and not table.controlled_by_bot(seat):
            raise TableError("not_bot", f"seat {seat} is played by a person now")
        if decision is not None and decision != table.decisions[seat]:
            raise TableError("stale", f"seat {seat} has already made decision {decision}: "
                                      "this action was meant for a table that has moved on")
        if seat not in state.to_act():
            who = ", ".join(map(str, state.to_act()))
            raise TableError("not_your_turn", f"it is not seat {seat}'s turn (to act: seat {who})")
        try:
            action = table.game.parse_action(text)
            new = state.clone()
            new.apply(seat, action)
        except (IllegalAction, ValueError) as e:
            raise TableError("illegal", f"illegal action {text.strip()!r}: {e}") from None
        return new, table.game.action_text(action)
