"""Live tables: the one authority on game state, its bots, its connections.

A live table holds the rules state, rebuilt from the store's log when needed.  Every change
goes through :meth:`TableManager.act`, which applies the action to a clone, appends it to the
log, and only then makes the clone the table's state – so a refused action or a failed write
changes nothing.  Bots and idle seats are driven by one asyncio task per table; a bot thinks in
a worker process (``torite.server.bots``), so no bot's decision ever holds up a message.

What a connection is sent is built from ``state.observation(seat)`` and
``state.events_for(seat)`` alone (``None`` for a spectator): nothing else about the state
reaches a client, so no hidden card can leak through the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError

import torite.bots.registry as bot_registry
from torite.cards import parse_card
from torite.engine.base import Event, Game, IllegalAction, OptionError, State
from torite.engine.driver import next_seat
from torite.engine.phases import Contract
from torite.engine.registry import make_game
from torite.present import decision, hint, labels
from torite.record import Record, start_record
from torite.server.bots import BotFailed, BotHandle, BotLost, BotPool
from torite.server.cluster import Cluster
from torite.server.store import DB_THREADS, Store, TableGone, TableRow

log = logging.getLogger("torite.server")

T = TypeVar("T")

#: Table settings (not game options) and their bounds.
SETTINGS: dict[str, tuple[float, float, float]] = {
    # name: (default, minimum, maximum)
    "idle_seconds": (0.0, 0.0, 86400.0),   # 0 = never replace an idle player by a bot
    "bot_delay": (0.0, 0.0, 10.0),         # pause before a bot moves, so people can follow
    "hints": (1.0, 0.0, 1.0),              # 1: a player may ask for a hint; 0: the table gives none
}
IDLE_BOT = "normal"
#: how often an action is checked again after another process took its position in the log
CONFLICT_RETRIES = 3
EXPIRED = "this table expired: nobody played at it for too long"
#: seconds a process leaves a table it handed over to the process it was handed to
HAND_OVER_GRACE = 5.0
#: seconds a table no socket holds (finished, or driven by another process) stays in memory
UNUSED_SECONDS = 60.0
MAX_SEAT_NAME = 40


class TableError(ValueError):
    """A request the server refuses; ``code`` is a stable machine-readable reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def hash_token(token: str) -> str:
    """Only this hash is stored, so a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: bots a table does not offer: OpenSpiel's ISMCTS needs the research extra and takes about a second
#: a decision through the adapter (it is for `torite arena`, not for a person waiting at a table)
TABLE_HIDDEN_BOTS = frozenset({"openspiel-ismcts"})


def bot_names() -> tuple[str, ...]:
    """Read at call time: search levels register themselves after import."""
    return tuple(n for n in bot_registry.BOT_NAMES if n not in TABLE_HIDDEN_BOTS)


@dataclass
class Seat:
    kind: str                 # "human" or "bot"
    level: str | None         # bot level for a bot seat
    name: str
    token_hash: str | None
    away: bool = False        # a human seat played by a bot after idling
    connections: int = 0      # sockets of this seat in this process
    elsewhere: int = 0        # other server processes with a socket of this seat
    host: bool = False        # the seat of whoever made the table (it may hand a gone seat to a bot)

    def public(self, index: int) -> dict[str, Any]:
        return {"seat": index, "kind": self.kind, "level": self.level, "name": self.name,
                "connected": self.connections > 0 or self.elsewhere > 0, "away": self.away,
                "host": self.host}


@dataclass(eq=False)
class Connection:
    """One client (a websocket): which seat it speaks for and how much of the log it has.

    States are not queued: the table marks the connection dirty and its writer task builds the
    newest state when the socket is ready, so a slow client gets fewer, fresher snapshots.
    Replies (acks, errors, pongs) are queued, at most ``max_outbox`` of them: past that the
    client is not reading, and ``too_slow`` tells the socket's tasks to close it.  ``inbox``
    holds the messages read but not yet handled (bounded by the socket's reader).
    """

    seat: int | None = None
    joined: bool = False
    #: the browser tab's own id (a reload keeps it): another tab on the same seat is asked first
    tab: str = ""
    log_sent: int = 0
    dirty: bool = False
    outbox: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    max_outbox: int = 100
    too_slow: bool = False
    inbox: deque[str] = field(default_factory=deque)
    inbox_wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: the server ends the connection (the table expired): the writer sends what is queued, then closes
    close_code: int | None = None
    #: an act of this connection is being answered: its ack goes out before the state it changed
    hold: bool = False

    def close(self, code: int) -> None:
        self.close_code = code
        self.wake.set()

    def push(self, message: dict[str, Any]) -> None:
        if len(self.outbox) >= self.max_outbox:
            self.too_slow = True  # nothing more is kept for a client that does not read
        else:
            self.outbox.append(message)
        self.wake.set()

    def mark_dirty(self) -> None:
        self.dirty = True
        self.wake.set()


@dataclass(eq=False)
class LiveTable:
    id: str
    game: Game
    state: State
    seed: int
    seats: list[Seat]
    settings: dict[str, float]
    created: float
    actions: list[tuple[int, str]] = field(default_factory=list)
    finished: float | None = None
    #: per seat, the actions it has made: its next decision's number (an act names the decision
    #: it answers, so a stale second click cannot land on the next one)
    decisions: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, tuple[str, BotHandle]] = field(default_factory=dict)
    idle_timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    #: when each idle clock running now runs out (epoch seconds): shown as a countdown
    idle_deadlines: dict[int, float] = field(default_factory=dict)
    #: the table the same players moved on to (stored: it outlives a restart).  Each person
    #: keeps their seat's token there, so the link each seat is shown holds its own token,
    #: which the table learns when the seat joins (``tokens``, kept in memory only)
    rematch: str | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    #: when a person last joined a seat here (the store heard of it): joined, and active
    joined: float | None = None
    seen_at: float = 0.0
    #: other processes' seats with a socket there (member -> one flag a seat), and the processes
    #: with any socket there (a spectator's too), who need to hear of every action
    presence: dict[int, list[bool]] = field(default_factory=dict)
    watched_by: set[int] = field(default_factory=set)
    #: what this process last told the others of its sockets here
    told_presence: tuple[list[bool], bool] | None = None
    #: when a request last asked for it (monotonic): an idle table no socket holds leaves memory
    used: float = field(default_factory=time.monotonic)
    #: the seat of each hint taken, in order (the record counts them)
    hints: list[int] = field(default_factory=list)
    version: int = 0
    changed_at: float = field(default_factory=time.time)
    _views: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    _goal_texts: dict[str, Any] | None = None
    _logs: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    _scanned: dict[int | None, tuple[int, int]] = field(default_factory=dict)  # events looked at, lines

    def __post_init__(self) -> None:
        if not self.decisions:
            self.decisions = [0] * len(self.seats)
            for seat, _ in self.actions:
                self.decisions[seat] += 1

    @property
    def over(self) -> bool:
        return self.state.is_over()

    @property
    def schema(self) -> dict[str, Any]:
        return self.game.schema()

    def controlled_by_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return s.kind == "bot" or s.away

    def seat_names(self) -> list[str | None]:
        """The names chosen in the lobby (None: the game's words name the seat, "seat 1", "席1")."""
        return [s.name or None for s in self.seats]

    def touch(self) -> None:
        """Something visible changed: invalidate cached views and wake every connection."""
        self.version += 1
        self.changed_at = time.time()
        for c in self.conns:
            c.mark_dirty()

    # ------------------------------------------------------------------ views
    def log_for(self, key: int | None) -> list[dict[str, Any]]:
        """Log lines ``key`` may see (its ``events_for(key)``), extended from where the last call
        stopped (the events are only ever appended: nothing before is looked at again); each
        line's ``text`` is by language."""
        cached = self._logs.setdefault(key, [])
        events = self.state.events
        scanned, count = self._scanned.get(key, (0, 0))
        if scanned > len(events):  # a game that trimmed its events: start over
            cached.clear()
            scanned = count = 0
        for e in events[scanned:]:
            if not e.visible_to(key):
                continue
            line = log_line(self.game, e, count, self.seat_names())
            if line is not None:
                cached.append(line)
            count += 1
        self._scanned[key] = (len(events), count)
        # remember how far we looked even when the last events had no text
        if count and (not cached or cached[-1]["i"] != count - 1):
            cached.append({"i": count - 1, "text": None})
        return cached

    def view_json(self, key: int | None) -> str:
        """The state as ``key`` sees it, as a JSON object text without its closing brace."""
        hit = self._views.get(key)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        text = json.dumps(self.view(key), ensure_ascii=False, separators=(",", ":"))[:-1]
        self._views[key] = (self.version, text)
        return text

    def view(self, key: int | None, obs: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state message (without its log) as ``key`` sees it: built from ``obs``, which is
        ``state.observation(key)`` unless given (a replay's open view gives the spectator's with
        every hand laid open; a finished game's only)."""
        state, game = self.state, self.game
        if obs is None:
            obs = state.observation(key)
        over = state.is_over()
        to_act = state.to_act()
        legal: list[dict[str, Any]] = []
        actions = state.legal_actions(key) if key is not None and key in to_act and not over else []
        texts = labels.view_texts(game, obs, actions, self.seat_names())  # by language
        for a, label in zip(actions, texts["actions"]):
            text = game.action_text(a)
            legal.append({"text": text, "kind": a.kind, "label": label,
                          "cards": text.split()[1:1 + a.cards.bit_count()], "arg": a.arg})
        hand = obs.get("hand") or []
        try:
            hand = sorted(hand, key=lambda c: game.sort_key(parse_card(c)))
        except (ValueError, TypeError):
            hand = list(hand)
        phase = decision.phase_of(game.phases(), obs["phase"])
        grouped = decision.group(phase, actions, hand) if actions else None
        reasons: dict[str, Any] = {"cards": {}, "actions": {}}
        if grouped is not None and key is not None:
            cards, refused = decision.refused(state, key, phase, grouped, obs)
            reasons = {"cards": labels.reason_texts(game, cards, self.seat_names()),
                       "actions": labels.reason_texts(game, {game.action_text(a): r for a, r in refused.items()},
                                                      self.seat_names())}
        return {
            "type": "state", "table": self.id, "game": game.id, "title": game.title,
            "options": game.options, "seat": key, "n": len(self.actions), "version": self.version,
            "decision_no": self.decisions[key] if key is not None else None,
            "ts": self.changed_at, "num_players": game.num_players, "to_act": list(to_act),
            "seats": [s.public(i) for i, s in enumerate(self.seats)], "hand": hand,
            "legal": legal, "decision": decision.to_json(grouped, game) if grouped is not None else None,
            "reasons": reasons, "roles": texts["roles"], "prompt": texts.get("prompt"), "goal": self._goal(),
            "auction": auction_of(game, obs), "tricks_score": labels.load(game).tricks_score,
            "status": texts["status"], "last_trick": texts["last_trick"], "over": over,
            "result": state.result().to_json() if over else None, "obs": obs,
            "settings": self.settings, "hints": self.hint_counts(), **self._moments(key, obs),
        }

    def _goal(self) -> dict[str, Any]:
        """How the game is won, by language (the same for the whole table)."""
        if self._goal_texts is None:
            self._goal_texts = labels.goal_texts(self.game)
        return self._goal_texts

    def hint_counts(self) -> list[int]:
        """How many hints each seat took."""
        out = [0] * len(self.seats)
        for s in self.hints:
            out[s] += 1
        return out

    def _moments(self, key: int | None, obs: Mapping[str, Any]) -> dict[str, Any]:
        """What the table shows beside the observation: the idle clocks running now, the
        rematch (with this seat's own link), who is winning the trick, the piles.  (A finished
        trick and a round's end come as log lines with their event's ``data``: every line
        reaches the client once, in order, however quickly the states that follow replace
        each other.)"""
        idle = [self.idle_deadlines.get(s) for s in range(len(self.seats))]
        rematch = None
        if self.rematch is not None:
            new_id, tokens = self.rematch, self.tokens
            frag = f"#seat={key}&token={tokens[key]}" if key is not None and key in tokens else "#watch"
            rematch = {"id": new_id, "path": f"/t/{new_id}{frag}"}
        return {"idle_deadlines": idle, "rematch": rematch,
                "winning": obs.get("winning"), "piles": piles_of(self.schema, obs)}

    def message_for(self, conn: Connection) -> str:
        """The next state message for one connection: the shared view plus its new log lines."""
        lines = self.log_for(conn.seat)
        start = conn.log_sent
        new = [x for x in lines[start:] if x["text"] is not None]
        conn.log_sent = len(lines)
        # "now": the server's clock, so a countdown shows right whatever the client's clock says
        return (self.view_json(conn.seat) + ',"log_from":' + str(start) + ',"now":' + f"{time.time():.3f}"
                + ',"log":' + json.dumps(new, ensure_ascii=False, separators=(",", ":")) + "}")

    def record(self) -> Record:
        names = [f"bot:{s.level}" if s.kind == "bot" else (s.name or "human") for s in self.seats]
        rec = start_record(self.game, self.seed, names)
        rec.actions = list(self.actions)
        rec.hints = self.hint_counts()
        if self.over:
            rec.result = self.state.result().to_json()
        return rec


#: events whose log lines carry their data
_LOG_DATA = frozenset({"trick", "round_end", "game_end"})


def log_line(game: Game, e: Event, i: int, names: Sequence[str | None]) -> dict[str, Any] | None:
    """An event as a log line (``i``: its index among the events its reader sees), by language;
    None for an event the log does not say.  The live table and a replay both write their logs
    with it."""
    text = labels.event_texts(game, e, names)
    if text is None:
        return None
    line: dict[str, Any] = {"i": i, "text": text, "kind": e.kind}
    if e.kind in _LOG_DATA:
        # the table shows these as well as saying them: a finished trick stays on the table a
        # moment, a round's end opens its summary
        line["data"] = e.data
    if e.kind == "round_end":  # its scoring written out, in words
        line["explain"] = labels.explain_texts(game, e.data, names)
    return line


def auction_of(game: Game, obs: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """The bidding so far (the observation's public ``auction``: ``[[seat, action text], …]``),
    each call as the table writes it in a bidding history: a bid's contract or card as a token,
    another call by its kind (the labels name it: pass, double).  None when the game keeps no
    auction."""
    entries = obs.get("auction")
    if not isinstance(entries, list):
        return None
    out: list[dict[str, Any]] = []
    for seat, text in entries:
        try:
            a = game.parse_action(text)
        except (IllegalAction, ValueError):
            continue
        entry: dict[str, Any] = {"seat": seat, "kind": a.kind}
        if a.cards:
            entry["rich"] = [{"t": "cards", "cards": [game.card_text(c) for c in range(54) if a.cards >> c & 1]}]
        elif a.arg:
            try:
                c = Contract.parse(a.arg)
            except ValueError:
                pass
            else:
                entry["rich"] = [{"t": "contract", "level": c.level, "denom": c.denomination}]
        out.append(entry)
    return out


def piles_of(schema: Mapping[str, Any], obs: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The piles of cards on the table, as the game declares them (``schema["piles"]``) and the
    seat's observation shows them: ``{"name", "cards"}`` for a pile the seat sees (a card it may
    not see is null, drawn as a back), ``{"name", "count"}`` for one it does not.  The table
    shows those its game's labels name in ``maps.piles``."""
    out: list[dict[str, Any]] = []
    for p in schema["piles"]:
        cards = obs[p["name"]]
        out.append({"name": p["name"], "cards": list(cards)} if cards is not None
                   else {"name": p["name"], "count": obs[p["name"] + "_size"]})
    return out


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


class TableManager:
    """Every live table; creation, loading by replay, actions, bots and idle timers."""

    def __init__(self, store: Store, *, bots: BotPool | None = None, max_tables: int = 2000) -> None:
        self.store = store
        #: tables in play (unfinished and not expired, in the store: every process's together);
        #: past it a new table is refused, so a flood of requests cannot exhaust the server
        self.max_tables = max_tables
        self.tables: dict[str, LiveTable] = {}
        self._db = ThreadPoolExecutor(max_workers=DB_THREADS if store.postgres else 1, thread_name_prefix="torite-db")
        #: PostgreSQL: the other processes, their notices, and the leases of the tables this one drives
        self.cluster: Cluster | None = None
        self.sweep_seconds = 1.0
        self._sweeper: asyncio.Task[None] | None = None
        self._live: set[int] = set()
        #: tables this process handed to another one lately (not taken back by the sweep at once)
        self._handed: dict[str, float] = {}
        #: the worker processes the bots think in
        self.bots = bots if bots is not None else BotPool()
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}
        self.started = False
        self._background: set[asyncio.Task[None]] = set()
        #: since when the database has been out of reach (None: reachable)
        self.db_down_since: float | None = None

    async def _db_call(self, fn: Callable[..., T], *args: Any) -> T:
        """Store calls off the event loop (SQLite: on one thread, its one writer; PostgreSQL: on
        a few, a table's writes kept in order by its lock).  The database out of reach is a
        :class:`TableError` ``storage`` (answered 503), said in the log once when it goes and
        once when it is back, not once per request or table."""
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)
        except (OperationalError, InterfaceError) as e:
            if self.db_down_since is None:
                self.db_down_since = time.time()
                log.error("the database cannot be reached (%s): answering 503 and retrying until it is back",
                          str(e).splitlines()[0])
            raise TableError("storage", "the server cannot reach its database; try again shortly") from None
        if self.db_down_since is not None:
            log.warning("the database is back after %.0f s: tables and bots carry on",
                        time.time() - self.db_down_since)
            self.db_down_since = None
        return out

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

    async def _revive(self, row: TableRow) -> LiveTable | None:
        """An unfinished table from its log; None if it cannot be (said in the log)."""
        try:
            table = self._rebuild(row)
        except Exception:
            log.exception("table %s cannot be rebuilt from its log; left out", row.id)
            return None
        if table.over:
            # its last action was stored but not the mark (a database from before they shared
            # a transaction): the log is the truth
            await self._db_call(self.store.finish_table, table.id, table.state.result().to_json())
            log.info("table %s: its log ends the game; marked finished", table.id)
            return None
        return table

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

    def _drop(self, table: LiveTable, code: str, message: str) -> None:
        """Take a table out of memory: its bots stop, its sockets are told why and closed."""
        self.tables.pop(table.id, None)
        self._stop_driving(table)
        self._release(table)
        for c in list(table.conns):
            c.push({"type": "error", "code": code, "message": message})
            c.close(4410)

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

    def _rebuild(self, row: TableRow) -> LiveTable:
        game = make_game(row.game, row.options)
        state = game.new_state(row.seed)
        for i, (seat, text) in enumerate(row.actions):
            if seat not in state.to_act():
                raise ValueError(f"action {i} ({seat}: {text!r}) is out of turn")
            state.apply_text(seat, text)
        seats = [Seat(kind=s["kind"], level=s.get("level"), name=s.get("name", ""), token_hash=h,
                      host=bool(s.get("host")))
                 for s, h in zip(row.seats, row.token_hashes)]
        settings = {k: float(row.settings.get(k, SETTINGS[k][0])) for k in SETTINGS}
        table = LiveTable(id=row.id, game=game, state=state, seed=row.seed, seats=seats, settings=settings,
                          created=row.created, actions=list(row.actions), finished=row.finished,
                          rematch=row.rematch, joined=row.joined,
                          hints=[h for h in row.hints if 0 <= h < len(seats)])
        return table

    def _drives(self, table: LiveTable) -> bool:
        """Whether this process drives the table's bots and idle clocks (on SQLite: always)."""
        return self.cluster is None or table.id in self.cluster.leases

    def _start(self, table: LiveTable) -> None:
        if not self._drives(table):
            return
        if not table.over and table.driver is None:
            table.driver = asyncio.get_running_loop().create_task(self._drive(table), name=f"table-{table.id}")
        self._update_idle(table)

    def _stop_driving(self, table: LiveTable) -> None:
        if table.driver is not None:
            table.driver.cancel()
        for h in table.idle_timers.values():
            h.cancel()
        table.idle_timers.clear()

    def _release(self, table: LiveTable) -> None:
        """The table needs no driver any more (it ended or left play): its lease goes."""
        if self.cluster is not None and table.id in self.cluster.leases:
            self._background_task(self.cluster.release(table.id))

    def _background_task(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _tell(self, kind: str, table_id: str, **data: Any) -> None:
        """A notice to the other processes (none on SQLite)."""
        if self.cluster is not None:
            self._background_task(self.cluster.notify(kind, table_id, **data))

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
        # what is really in play counts: finished and expired tables do not (in any process)
        if await self._db_call(self.store.in_play) >= self.max_tables:
            raise TableError("too_many_tables",
                             f"the server already runs {self.max_tables} unfinished tables; try again later")
        table, row = self._new_table(game, seat_objs, clean, seed)
        if self.cluster is not None and await self.cluster.try_lease(table.id):
            row.driver = self.cluster.member  # its creator drives it
        await self._db_call(self.store.create_table, row)
        self.tables[table.id] = table
        self._start(table)
        return table, tokens

    @staticmethod
    def _new_table(game: Game, seats: list[Seat], settings: dict[str, float],
                   seed: int | None) -> tuple[LiveTable, TableRow]:
        if seed is None:
            seed = secrets.randbelow(2**53)
        state = game.new_state(seed)
        now = time.time()
        # a table of bots has nobody to wait for: it counts as joined from the start
        joined = None if any(s.kind == "human" for s in seats) else now
        table = LiveTable(id=secrets.token_urlsafe(9), game=game, state=state, seed=seed, seats=seats,
                          settings=settings, created=now, joined=joined)
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
                if await self._db_call(self.store.in_play) >= self.max_tables:
                    raise TableError("too_many_tables", f"the server already runs {self.max_tables} unfinished "
                                                        "tables; try again later")
                _, row = self._new_table(table.game, seats, dict(table.settings), None)
                table.rematch = await self._db_call(self.store.create_rematch, table.id, row)
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

    def _tell_presence(self, table: LiveTable) -> None:
        """Tell the other processes which seats have a socket here, and whether any socket does
        (a spectator's too: its process then needs the table's notices), when that changes."""
        now = ([s.connections > 0 for s in table.seats], bool(table.conns))
        if now != table.told_presence:
            table.told_presence = now
            self._tell("p", table.id, p=now[0], w=now[1])

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

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """A hint for ``seat`` now: the ``normal`` bot's choice from the seat's observation and
        legal actions only, with its reason, in every language; counted for the record."""
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
        texts = labels.view_texts(table.game, obs, [action], table.seat_names())
        idx = len(table.hints)
        table.hints.append(seat)
        try:
            await self._db_call(self.store.add_hint, table.id, idx, seat)
        except Exception:
            log.exception("cannot store hint %d of table %s", idx, table.id)
        table.touch()
        return {"type": "hint", "n": n, "action": table.game.action_text(action), "label": texts["actions"][0],
                "reason": labels.hint_texts(table.game, reason, table.seat_names())}

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

    # ---------------------------------------------------------------- actions
    async def act(self, table: LiveTable, seat: int, text: str, *, decision: Any = None, by_bot: bool = False) -> str:
        """Apply one action; returns its canonical text.  Raises :class:`TableError`.

        ``decision``, when given, is the number of the seat's decision the action answers (the
        state's ``decision_no``): if the seat has decided since, the action is refused as stale
        rather than taken as the answer to a question it was not meant for."""
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise TableError("bad_action", "an action is text such as 'play 10D'")
        if decision is not None and (isinstance(decision, bool) or not isinstance(decision, int)):
            raise TableError("bad_action", "decision is the number of the decision the action answers")
        # shielded: once the write has started, the table must take the action in memory too,
        # even when the client that sent it is gone before the answer (its handler cancelled)
        return await asyncio.shield(self._act_locked(table, seat, text, decision, by_bot))

    async def _act_locked(self, table: LiveTable, seat: int, text: str, decision: int | None,
                          by_bot: bool) -> str:
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
                    await self._db_call(self.store.append_action, table.id, idx, seat, canonical, result, notice)
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
        return canonical

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

    def _ended(self, table: LiveTable) -> None:
        table.finished = time.time()
        self._release(table)

    # ---------------------------------------------------------------- other processes
    async def _catch_up_locked(self, table: LiveTable) -> None:
        """Read the actions other processes appended to the table's log (its lock held)."""
        more = await self._db_call(self.store.actions_since, table.id, len(table.actions))
        self._apply_remote(table, more)

    def _apply_remote(self, table: LiveTable, actions: list[tuple[int, str]]) -> None:
        if not actions:
            return
        new = table.state.clone()
        try:
            for seat, text in actions:
                if seat not in new.to_act():
                    raise ValueError(f"{seat}: {text!r} is out of turn")
                new.apply_text(seat, text)
        except Exception:
            log.exception("table %s: the log another process wrote does not replay here; reloading it", table.id)
            self._drop(table, "storage", "the table is being reloaded: join it again")
            return
        table.state = new
        start = len(table.actions)
        table.actions.extend(actions)
        for seat, _ in actions:
            table.decisions[seat] += 1
        if new.is_over():
            self._ended(table)
        table.touch()
        table.wake.set()
        if self._drives(table):
            for seat, _ in actions:
                self._update_idle(table, acted=seat)
        log.debug("table %s: caught up %d actions from %d", table.id, len(actions), start)

    async def _remote_action(self, table: LiveTable, idx: int, seat: int, text: str, human: bool) -> None:
        async with table.lock:
            if idx < len(table.actions):
                return  # known already (ours, or read from the log)
            if idx == len(table.actions):
                self._apply_remote(table, [(seat, text)])
            else:
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)  # notices were missed: the log has them
        if human and self._drives(table) and self.tables.get(table.id) is table:
            self.returned(table, seat)

    def _on_notice(self, msg: dict[str, Any]) -> None:
        """A notice from another process (see ``torite.server.cluster``)."""
        table = self.tables.get(str(msg.get("t")))
        if table is None:
            return
        kind, member = msg.get("k"), msg.get("m")
        try:
            if kind == "a":
                self._background_task(self._remote_action(table, int(msg["i"]), int(msg["s"]), str(msg["a"]),
                                                          bool(msg.get("h"))))
            elif kind == "p" and isinstance(member, int):
                table.presence[member] = [bool(x) for x in msg["p"]][:len(table.seats)]
                if msg.get("w"):
                    new = member not in table.watched_by
                    table.watched_by.add(member)
                    if new and self._drives(table):
                        self._tell_length(table)  # it may have loaded the table before it was notified
                else:
                    table.watched_by.discard(member)
                self._count_presence(table)
            elif kind == "n":
                if int(msg["n"]) > len(table.actions):
                    self._background_task(self._catch_up(table))
            elif kind == "s" and not self._drives(table):
                for seat, away in zip(table.seats, msg["away"]):
                    seat.away = bool(away)
                table.idle_deadlines = {i: float(d) for i, d in enumerate(msg["d"]) if d is not None}
                table.touch()
                table.wake.set()
            elif kind == "b" and self._drives(table):
                self.returned(table, int(msg["s"]))
            elif kind == "h" and msg.get("to") == (self.cluster.member if self.cluster else None):
                self._background_task(self._claim(table))
            elif kind == "q":
                if self._drives(table):
                    self._tell_status(table)
                    self._tell_length(table)
                if table.conns:
                    table.told_presence = None  # say it again, for the one asking
                    self._tell_presence(table)
            elif kind == "r":
                table.rematch = str(msg["r"])
                table.touch()
            elif kind == "x":
                self._drop(table, str(msg.get("c", "expired")),
                           EXPIRED if msg.get("c") == "expired" else "this table is no longer kept")
        except (KeyError, TypeError, ValueError, IndexError):
            log.warning("a malformed notice from another process: %r", msg)

    def _count_presence(self, table: LiveTable) -> None:
        for i, seat in enumerate(table.seats):
            seat.elsewhere = sum(1 for flags in table.presence.values() if i < len(flags) and flags[i])
        table.touch()

    def _tell_length(self, table: LiveTable) -> None:
        """How long the log is here: a process that loaded the table while no notice went out
        for it reads what it missed."""
        self._tell("n", table.id, n=len(table.actions))

    async def _catch_up(self, table: LiveTable) -> None:
        async with table.lock:
            with contextlib.suppress(TableError):
                await self._catch_up_locked(table)

    def _needs_notice(self, table: LiveTable) -> bool:
        """Whether another process must hear of this table's actions: the one driving it (if not
        this one), and those holding a socket of it.  A table whose sockets and driver are all
        here (the usual case once its players' process drives it) sends none."""
        return self.cluster is not None and (not self._drives(table) or bool(table.watched_by))

    def _tell_status(self, table: LiveTable) -> None:
        self._tell("s", table.id, away=[s.away for s in table.seats],
                   d=[table.idle_deadlines.get(i) for i in range(len(table.seats))])

    def _leases_lost(self) -> None:
        """The lock connection broke: another process may drive any of our tables now."""
        for table in self.tables.values():
            self._stop_driving(table)

    async def _reconnected(self) -> None:
        """Notices may have been missed: read every table's log again, then take tables back."""
        for table in list(self.tables.values()):
            async with table.lock:
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)
        with contextlib.suppress(TableError):
            await self._sweep()

    async def _claim(self, table: LiveTable) -> None:
        """Drive a table nobody drives (a table loaded for a socket, whose driver may be gone)."""
        assert self.cluster is not None
        if await self.cluster.try_lease(table.id):
            with contextlib.suppress(TableError):
                await self._db_call(self.store.set_driver, table.id, self.cluster.member)
            async with table.lock:  # what the last driver did before it went
                with contextlib.suppress(TableError):
                    await self._catch_up_locked(table)
            if self.tables.get(table.id) is table and not table.over:
                self._start(table)
            else:
                self._release(table)  # it ended, or left memory meanwhile: nobody to drive here

    async def _hand_over(self) -> None:
        """A table driven here whose players sit at another process is handed to that one: its
        bots then decide where their moves are shown, and each move is applied in one process,
        not two."""
        assert self.cluster is not None
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.over or not self._drives(table) or any(s.connections for s in table.seats):
                continue
            there = [m for m, flags in table.presence.items() if m in self._live and any(flags)]
            if not there:
                continue
            async with table.lock:  # not in the middle of an action
                self._stop_driving(table)
                await self.cluster.release(table.id)
                with contextlib.suppress(TableError):
                    await self._db_call(self.store.set_driver, table.id, None)
            self._handed[table.id] = now
            self._tell("h", table.id, to=there[0])
            if not table.conns:
                self.tables.pop(table.id, None)
        for table_id, at in list(self._handed.items()):
            if now - at > HAND_OVER_GRACE:
                del self._handed[table_id]

    async def _sweep(self) -> None:
        """Take the tables whose process died (or that nobody took); forget the dead's sockets;
        hand tables to the process their players are at."""
        assert self.cluster is not None
        try:
            live = await self.cluster.live_members()
        except Exception:
            return
        if live != self._live:
            gone = self._live - live
            self._live = live
            if gone:
                for table in self.tables.values():
                    if any(m in table.presence or m in table.watched_by for m in gone):
                        for m in gone:
                            table.presence.pop(m, None)
                            table.watched_by.discard(m)
                        self._count_presence(table)
        await self._hand_over()
        orphans = await self._db_call(self.store.orphans, live, self.cluster.member)
        for table_id in orphans:
            if table_id in self._handed:
                continue
            held = self.tables.get(table_id)
            if table_id in self.cluster.leases and held is not None and held.driver is not None:
                continue  # ours, and driven
            if not await self.cluster.try_lease(table_id):
                continue
            await self._db_call(self.store.set_driver, table_id, self.cluster.member)
            held = self.tables.get(table_id)
            if held is None:
                row = await self._db_call(self.store.load_table, table_id)
                revived = await self._revive(row) if row is not None and row.abandoned is None else None
                if revived is None:
                    await self.cluster.release(table_id)
                    continue
                held = self.tables.setdefault(table_id, revived)
                self._tell("q", table_id)
            else:
                async with held.lock:
                    await self._catch_up_locked(held)
            self._start(held)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self._sweep()
            except TableError:
                pass  # the database is out of reach: said once
            except Exception:
                log.exception("taking over orphaned tables failed; will retry")

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
        bot = bot_registry.make_bot(level, table.game, seat, random.Random(secrets.randbits(64)))
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
