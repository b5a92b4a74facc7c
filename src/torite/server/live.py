"""A live table and what it shows: its seats, its connections, and every message built for them.

Its own part because it is the table's data and views, with no store, cluster or bot in it:
the manager's layers (``keeper``, ``driving``, ``peers``, ``tables``) change a table, this
module says what it holds and what each seat is shown, and a replay (``torite.server.replays``)
builds a step's messages with the same views.

What a connection is sent is built from ``state.observation(seat)`` and
``state.events_for(seat)`` alone (``None`` for a spectator): nothing else about the state
reaches a client, so no hidden card can leak through the server.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torite.bots.registry as bot_registry
from torite.engine.base import Event, Game, State
from torite.present import labels
from torite.present.view import view as present_view
from torite.record import Record, start_record
from torite.server.bots import BotHandle
from torite.server.viewjson import view_json, words_in

#: Table settings (not game options) and their bounds.
SETTINGS: dict[str, tuple[float, float, float]] = {
    # name: (default, minimum, maximum)
    "idle_seconds": (0.0, 0.0, 86400.0),   # 0 = never replace an idle player by a bot
    "bot_delay": (0.0, 0.0, 10.0),         # pause before a bot moves, so people can follow
    "hints": (1.0, 0.0, 1.0),              # 1: a player may ask for a hint; 0: the table gives none
}


class TableError(ValueError):
    """A request the server refuses; ``code`` is a stable machine-readable reason, ``detail``
    what a page needs to say it in its reader's language (the numbers in it)."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.detail: dict[str, Any] = detail or {}


#: the longest game a table plays, in actions (all seats): its log, record and replays stay
#: small (a table of bots told to play 10,000 rounds made 42,000 actions in a minute)
MAX_GAME_ACTIONS = 5000


def most_rounds_here(game: Game) -> int:
    """The most rounds a game at a table may have: as many of its longest rounds (the rules'
    ``round_actions``, with a thrown-in deal's) as fit in :data:`MAX_GAME_ACTIONS`."""
    b = game.bounds()
    return max(1, MAX_GAME_ACTIONS // max(1, b.round_actions + b.thrown_in_actions))


def stop_after(game: Game) -> int | None:
    """The ``max_rounds`` a table's game is dealt with: none when its options count its rounds
    (checked at creation by :func:`check_length`), else :func:`most_rounds_here`: a game played
    to a target that is not reached by then ends there, scored as it stands."""
    return most_rounds_here(game) if game.most_rounds() is None else None


def check_length(game: Game) -> None:
    """Refuse options that ask for a longer game than a table plays (``too_long``; ``detail``
    carries the most rounds allowed, for the lobby to say in its reader's language)."""
    asked, most = game.most_rounds(), most_rounds_here(game)
    if asked is not None and asked > most:
        raise TableError("too_long", f"{game.title}: at most {most} rounds or deals at a table (a game here "
                                     f"is at most {MAX_GAME_ACTIONS} actions); these options ask for {asked}",
                         {"most_rounds": most, "asked": asked})


def hash_token(token: str) -> str:
    """Only this hash is stored, so a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: bots a table does not offer: OpenSpiel's ISMCTS needs the research extra and takes about a second
#: a decision through the adapter (it is for `torite arena`, not for a person waiting at a table);
#: the learned baseline exists for the games a policy ships for only (torite.bots.learned)
TABLE_HIDDEN_BOTS = frozenset({"openspiel-ismcts", "learned"})


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
    client is not reading, and ``too_slow`` (with ``given_up``, which the socket awaits: its
    writer may be stuck in a send, its reader waiting for a frame) tells the socket to close.  ``inbox``
    holds the messages read but not yet handled (bounded by the socket's reader).
    """

    seat: int | None = None
    joined: bool = False
    #: the browser tab's own id (a reload keeps it): another tab on the same seat is asked first
    tab: str = ""
    log_sent: int = 0
    #: the one language its words come in (``join``'s or a ``lang`` message's), or None for all
    lang: str | None = None
    dirty: bool = False
    outbox: deque[dict[str, Any]] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    max_outbox: int = 100
    too_slow: bool = False
    given_up: asyncio.Event = field(default_factory=asyncio.Event)
    #: texts to handle, or (code, message) of a frame refused unread (binary, too long): answered
    #: in turn, at the same pace
    inbox: deque[str | tuple[str, str]] = field(default_factory=deque)
    inbox_wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: the server ends the connection (the table expired): the writer sends what is queued, then closes
    close_code: int | None = None
    #: an act of this connection is being answered: its ack goes out before the state it changed
    hold: bool = False
    #: the log is being caught up (a join, a resend): the next page goes when its pacing allows
    log_behind: bool = False

    def close(self, code: int) -> None:
        self.close_code = code
        self.wake.set()

    def give_up(self) -> None:
        self.too_slow = True
        self.given_up.set()

    def push(self, message: dict[str, Any]) -> None:
        if len(self.outbox) >= self.max_outbox:
            self.give_up()  # nothing more is kept for a client that does not read
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
    #: the game stops after this many rounds (:func:`stop_after`: a game played to a target)
    max_rounds: int | None = None
    #: how many hints each seat took (the record counts them)
    hints: list[int] = field(default_factory=list)
    #: of those, how many the store has counted (the rest are being written)
    hints_saved: list[int] = field(default_factory=list)
    version: int = 0
    changed_at: float = field(default_factory=time.time)
    #: what was rendered, per reader: (seat or None, language or None for every language)
    _views: dict[tuple[int | None, str | None], tuple[int, str]] = field(default_factory=dict)
    _goal_texts: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    #: log lines made, per reader, as (index, JSON text or None for a line the log does not say):
    #: texts, not dicts, since a few hundred tables' logs as dicts would be objects by the
    #: hundred thousand for the garbage collector to walk through at each full collection
    _logs: dict[tuple[int | None, str | None], list[tuple[int, str | None]]] = field(default_factory=dict)
    #: events looked at, lines made, per reader
    _scanned: dict[tuple[int | None, str | None], tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.decisions:
            self.decisions = [0] * len(self.seats)
            for seat, _ in self.actions:
                self.decisions[seat] += 1
        if len(self.hints) != len(self.seats):
            self.hints = [0] * len(self.seats)
        self.hints_saved = list(self.hints)

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
    def log_for(self, key: int | None, lang: str | None = None) -> list[tuple[int, str | None]]:
        """Log lines ``key`` may see (its ``events_for(key)``) as ``(index, JSON text)``, extended
        from where the last call stopped (the events are only ever appended: nothing before is
        looked at again); each line's ``text`` is by language: ``lang`` only, or every language
        (None)."""
        reader = (key, lang)
        cached = self._logs.setdefault(reader, [])
        events = self.state.events
        scanned, count = self._scanned.get(reader, (0, 0))
        langs = None if lang is None else (lang,)
        if scanned > len(events):  # a game that trimmed its events: start over
            cached.clear()
            scanned = count = 0
        for e in events[scanned:]:
            if not e.visible_to(key):
                continue
            line = log_line(self.game, e, count, self.seat_names(), langs)
            if line is not None:
                cached.append((count, json.dumps(line, ensure_ascii=False, separators=(",", ":"))))
            count += 1
        self._scanned[reader] = (len(events), count)
        # remember how far we looked even when the last events had no text
        if count and (not cached or cached[-1][0] != count - 1):
            cached.append((count - 1, None))
        return cached

    def view_json(self, key: int | None, lang: str | None = None) -> str:
        """The state as ``key`` sees it in ``lang`` (None: every language), as a JSON object text
        without its closing brace; made once per version for all the sockets that read it."""
        reader = (key, lang)
        hit = self._views.get(reader)
        if hit is not None and hit[0] == self.version:
            return hit[1]
        text = json.dumps(self.view(key, lang=lang), ensure_ascii=False, separators=(",", ":"))[:-1]
        self._views[reader] = (self.version, text)
        return text

    def view(self, key: int | None, obs: dict[str, Any] | None = None, lang: str | None = None) -> dict[str, Any]:
        """The state message (without its log) as ``key`` sees it: the seat's view
        (:func:`torite.present.view.view`, built from ``obs``, which is ``state.observation(key)``
        unless given: a replay's open view gives the spectator's with every hand laid open; a
        finished game's only) with the table's own parts.  Its words are in ``lang`` alone, or in
        every language (None): each language costs as much again, so a socket asks for its own."""
        game = self.game
        seen = present_view(self.state, key, obs=obs)
        langs = labels.languages(game) if lang is None else [x for x in labels.languages(game) if x == lang]
        words = words_in(seen, langs, self.seat_names())
        return {
            "type": "state", "lang": lang, "table": self.id, "game": game.id, "title": game.title,
            "options": game.options, "seat": key, "n": len(self.actions), "version": self.version,
            "decision_no": self.decisions[key] if key is not None else None,
            "ts": self.changed_at, "num_players": game.num_players,
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            **view_json(seen, words), "goal": self._goal(lang), "tricks_score": labels.load(game).tricks_score,
            "settings": self.settings, "hints": self.hint_counts(), **self._moments(key),
        }

    def _goal(self, lang: str | None) -> dict[str, Any]:
        """How the game is won, by language (the same for the whole table)."""
        hit = self._goal_texts.get(lang)
        if hit is None:
            hit = self._goal_texts[lang] = labels.goal_texts(self.game, None if lang is None else (lang,))
        return hit

    def hint_counts(self) -> list[int]:
        """How many hints each seat took."""
        return list(self.hints)

    def _moments(self, key: int | None) -> dict[str, Any]:
        """What the table shows beside the seat's view: the idle clocks running now, the
        rematch (with this seat's own link).  (A finished
        trick and a round's end come as log lines with their event's ``data``: every line
        reaches the client once, in order, however quickly the states that follow replace
        each other.)"""
        idle = [self.idle_deadlines.get(s) for s in range(len(self.seats))]
        rematch = None
        if self.rematch is not None:
            new_id, tokens = self.rematch, self.tokens
            frag = f"#seat={key}&token={tokens[key]}" if key is not None and key in tokens else "#watch"
            rematch = {"id": new_id, "path": f"/t/{new_id}{frag}"}
        return {"idle_deadlines": idle, "rematch": rematch}

    def message_for(self, conn: Connection, page: bool = True) -> str:
        """The next state message for one connection: the shared view plus its new log lines, at
        most :data:`LOG_PAGE` of them (none when ``page`` is false: a log being caught up whose
        next page must wait); ``log_rest`` says how many are still to come (as ``log``
        messages, :meth:`log_page`)."""
        start, new, rest = self._page(conn, page)
        # "now": the server's clock, so a countdown shows right whatever the client's clock says
        return (self.view_json(conn.seat, conn.lang) + ',"log_from":' + str(start) + ',"now":' + f"{time.time():.3f}"
                + ',"log_rest":' + str(rest) + ',"log":[' + ",".join(new) + "]}")

    def log_page(self, conn: Connection) -> str:
        """The next page of a log being caught up: ``{"type": "log", "log_from", "log",
        "log_rest"}`` (the lines after those sent, and how many are still to come)."""
        start, new, rest = self._page(conn, True)
        return '{"type":"log","log_from":' + str(start) + ',"log_rest":' + str(rest) + ',"log":[' + ",".join(new) + "]}"

    def _page(self, conn: Connection, page: bool) -> tuple[int, list[str], int]:
        lines = self.log_for(conn.seat, conn.lang)
        start = conn.log_sent
        end = min(len(lines), start + LOG_PAGE) if page else start
        conn.log_sent = end
        conn.log_behind = end < len(lines)
        if conn.log_behind:
            conn.wake.set()  # the writer sends the next page when its pacing allows
        return start, [text for _, text in lines[start:end] if text is not None], len(lines) - end

    def record(self) -> Record:
        names = [f"bot:{s.level}" if s.kind == "bot" else (s.name or "human") for s in self.seats]
        rec = start_record(self.game, self.seed, names, max_rounds=self.max_rounds)
        rec.actions = list(self.actions)
        rec.hints = self.hint_counts()
        if self.over:
            rec.result = self.state.result().to_json()
        return rec


#: the most log lines (events a reader sees) one message carries: a whole log goes out in pages
LOG_PAGE = 200

#: events whose log lines carry their data
_LOG_DATA = frozenset({"trick", "round_end", "game_end"})


def log_line(game: Game, e: Event, i: int, names: Sequence[str | None],
             langs: labels.Langs = None) -> dict[str, Any] | None:
    """An event as a log line (``i``: its index among the events its reader sees), by language
    (``langs``, or every one); None for an event the log does not say.  The live table and a
    replay both write their logs with it."""
    text = labels.event_texts(game, e, names, langs)
    if text is None:
        return None
    line: dict[str, Any] = {"i": i, "text": text, "kind": e.kind}
    if e.kind in _LOG_DATA:
        # the table shows these as well as saying them: a finished trick stays on the table a
        # moment, a round's end opens its summary
        line["data"] = e.data
    if e.kind == "round_end":  # its scoring written out, in words
        line["explain"] = labels.explain_texts(game, e.data, names, langs)
    return line
