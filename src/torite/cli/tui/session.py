"""One person against bots, through the protocol only: the game behind the terminal table.

Kept apart from the widgets so that what the person may see is decided in one place: the table
draws the seat's view (:func:`torite.present.view.view`, from ``state.observation(seat)``, the
seat's legal actions and the rules' refusals: the one the web table draws too) and the events
its seat may see; bots decide through the shared driver on their own observations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torite.bots import make_bot
from torite.cli.resume import Resumed
from torite.engine.base import Action, Game, State
from torite.engine.bot import Bot
from torite.engine.driver import decide, next_seat
from torite.present.hint import suggest
from torite.present.labels import LabelError, Labels, Rich, languages
from torite.present.labels import load as load_labels
from torite.present.view import SeatView, ViewWords, view, words
from torite.record import Record, start_record
from torite.sim import derive_seed

#: a label bug must not take the table down: the face shows a plain fallback (the labels tests
#: are what catch the bug)
RENDER_ERRORS = (LabelError, KeyError, TypeError, ValueError, IndexError)


@dataclass(frozen=True)
class LogLine:
    index: int  # the event's index in state.events
    kind: str
    rich: Rich  # the labels' rich text (cards, suits and contracts as tokens)
    text: str  # the same, plain


class Session:
    """The game, its bots and its record; the person plays ``human``."""

    def __init__(self, game: Game, human: int, bots: Sequence[str], seed: int, *, lang: str = "en",
                 max_rounds: int | None = None) -> None:
        self.game = game
        self.human = human
        self.seed = seed
        self.labels: Labels = load_labels(game, lang)  # an unknown language fails here, before anything is played
        self.lang = lang
        self.state: State = game.new_state(seed, max_rounds=max_rounds)
        n = game.num_players
        if len(bots) != n - 1:
            raise ValueError(f"{len(bots)} bots for {n - 1} other seats")
        self.levels: list[str | None] = []
        self.bots: dict[int, Bot] = {}
        names = []
        it = iter(bots)
        for s in range(n):
            if s == human:
                names.append("you")
                self.levels.append(None)
            else:
                level = next(it)
                names.append(f"bot:{level}")
                self.levels.append(level)
                self.bots[s] = make_bot(level, game, s, derive_seed(seed, "bot", s))
        self.record: Record = start_record(game, seed, names, max_rounds=max_rounds)
        self.hints = 0  # hints the person took (the record counts them)
        self.log: list[LogLine] = []
        self._logged = 0
        #: where the record is saved (None: in the records folder, named by the game and seed)
        self.path: Path | None = None
        self.read_events()

    @classmethod
    def resumed(cls, res: Resumed, *, lang: str = "en") -> Session:
        """The session of an unfinished game, replayed to where it stopped (``torite play
        --resume``): its bots caught up, its record saved back where it was read."""
        self = cls.__new__(cls)
        self.game = res.game
        self.human = res.human
        self.seed = res.record.seed or 0
        self.labels = load_labels(res.game, lang)
        self.lang = lang
        self.state = res.state
        self.levels = res.levels
        self.bots = dict(res.bots)
        self.record = res.record
        self.hints = (res.record.hints or [0] * res.game.num_players)[res.human]
        self.log = []
        self._logged = 0
        self.path = res.path
        self.read_events()
        return self

    # ------------------------------------------------------------ language
    @property
    def languages(self) -> list[str]:
        return languages(self.game)

    def set_language(self, lang: str) -> None:
        self.labels = load_labels(self.game, lang)
        self.lang = lang
        old = self._logged
        self.log, self._logged = [], 0
        self.read_events(upto=old)

    # ------------------------------------------------------------ whose turn
    def bot_to_act(self) -> int | None:
        return next_seat(self.state, self.bots.__contains__)

    def human_to_act(self) -> bool:
        return (not self.state.is_over() and self.human in self.state.to_act()
                and self.bot_to_act() is None)

    def bot_decision(self, seat: int) -> Action:
        """The bot's choice (may take a while for the search bots; the state is not changed)."""
        return decide(self.state, seat, self.bots[seat])

    def apply(self, seat: int, action: Action) -> None:
        """Apply and record (IllegalAction, state untouched, when the rules refuse it)."""
        self.state.apply(seat, action)
        self.record.actions.append((seat, self.game.action_text(action)))
        self.read_events()

    # ------------------------------------------------------------ what the person sees
    def names(self) -> list[str | None]:
        you = self.labels.word("you")
        return [you if s == self.human else None for s in range(self.game.num_players)]

    def seat_name(self, seat: int) -> str:
        return self.labels.name_of(seat, self.names())

    def action_rich(self, action: Action) -> Rich:
        try:
            return self.labels.action_rich(action)
        except RENDER_ERRORS:
            return [self.labels.action_label(action.kind)]

    def observation(self) -> dict[str, Any]:
        return self.state.observation(self.human)

    @property
    def viewer_seat(self) -> int | None:
        """The seat whose eyes the table shows (None: a spectator's, or every hand open)."""
        return self.human

    def view(self, *, deciding: bool = False) -> SeatView:
        """What the person sees now; with ``deciding``, their decision with its refusals (when it
        is theirs to make: a bot of a simultaneous phase may still have to move)."""
        return view(self.state, self.viewer_seat, obs=self.observation(), deciding=deciding and self.human_to_act())

    def words(self, v: SeatView) -> ViewWords:
        """The view in the table's language, the person named "you"."""
        return words(v, self.lang, self.names(), you=self.viewer_seat)

    def refusal(self, action: Action) -> str | None:
        """Why the rules refuse the person's ``action`` now, in words (None: no rule to tell)."""
        why = self.state.refusal(self.human, action)
        if why is None or why.rule == "not_now":
            return None
        try:
            return self.labels.text(self.labels.reason_rich(why.rule, why.data, self.names()))
        except RENDER_ERRORS:
            return None

    def legal(self) -> list[Action]:
        return list(self.state.legal_actions(self.human)) if self.human_to_act() else []

    # ------------------------------------------------------------ what teaches
    def hint(self) -> tuple[Action, Rich | None]:
        """The ``normal`` bot's choice for the person now, from the person's observation and
        legal actions only, with its reason in words; counted in the record."""
        action, reason = suggest(self.game, self.human, self.observation(), self.legal())
        self.hints += 1
        self.record.hints = [self.hints if s == self.human else 0 for s in range(self.game.num_players)]
        if reason is None:
            return action, None
        try:
            return action, self.labels.hint_rich(reason.key, reason.data, self.names())
        except RENDER_ERRORS:
            return action, None

    def read_events(self, upto: int | None = None) -> list[LogLine]:
        """Log lines of the events the person may see since the last call."""
        events = self.state.events
        end = len(events) if upto is None else upto
        new = []
        names = self.names()
        for i in range(self._logged, end):
            e = events[i]
            if not e.visible_to(self.human) or e.kind == "deal":
                continue
            try:
                rich = self.labels.event_rich(e, names, self.human)
            except RENDER_ERRORS:
                rich = [e.kind]  # a label bug (the labels tests catch it): the kind, not a crash
            if rich:
                new.append(LogLine(i, e.kind, rich, self.labels.text(rich)))
        self._logged = end
        self.log.extend(new)
        return new

    def finish(self, records: Path | None) -> Path | None:
        """Store the result (when over) and save the record; returns its path."""
        if self.state.is_over():
            self.record.result = self.state.result().to_json()
        if self.path is not None:
            return self.record.save(self.path)
        if records is None:
            return None
        path = records / f"{self.game.id}-{self.seed}.json"
        self.record.save(path)
        return path
