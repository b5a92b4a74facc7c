"""``torite replay FILE --view``: a record stepped through in the terminal table.

The same table as ``torite play`` draws it (``TableApp``'s ring, status, hand, log, score sheet
and summaries), over a :class:`torite.replay.Replay` instead of a game in play: ←/→ step,
``t``/``r`` go to the next trick or round (``T``/``R`` back), ``v`` changes whose eyes (every
hand open, each seat, a spectator; a game in progress only as a spectator sees it), ``h`` asks
the ``hard`` bot what it would play at the seat's decision, from that seat's view only.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Static

from torite.engine.base import Action
from torite.present.labels import load as load_labels
from torite.present.view import SeatView, ViewWords
from torite.replay import OPEN, Replay, Viewer

from .app import WIDE, Mode, TableApp
from .pictures import key_line
from .session import RENDER_ERRORS, LogLine, Session
from .words import level_name, rich_text, words

#: the level asked "what would it play here?"
SUGGEST_LEVEL = "hard"


class ReplaySession(Session):
    """The session of a record: the state of one step, seen by one viewer.  ``human`` is the
    seat the table is drawn around (the viewer's, else seat 0)."""

    def __init__(self, rp: Replay, *, lang: str = "en") -> None:  # no game to set up: the record's
        self.replay = rp
        self.game = rp.game
        self.labels = load_labels(rp.game, lang)
        self.lang = lang
        self.seed = rp.record.seed or 0
        self.bots = {}
        self.levels = [name[4:] if name.startswith("bot:") else None for name in rp.record.seats]
        self.record = rp.record
        self.hints = 0
        self.log: list[LogLine] = []
        self._logged = 0
        self.viewer: Viewer = OPEN if rp.finished else None
        self.human = 0
        self.step = 0
        self.goto(0)

    def goto(self, step: int) -> None:
        self.step = max(0, min(self.replay.steps, step))
        self.state = self.replay.state(self.step)
        self.log, self._logged = [], 0
        self.read_events()

    def set_viewer(self, viewer: Viewer) -> None:
        self.viewer = self.replay.allowed(viewer)
        self.human = self.viewer if isinstance(self.viewer, int) else 0
        self.goto(self.step)

    def next_viewer(self) -> None:
        views = self.replay.viewers()
        self.set_viewer(views[(views.index(self.viewer) + 1) % len(views)])

    def set_language(self, lang: str) -> None:
        self.labels = load_labels(self.game, lang)
        self.lang = lang
        self.goto(self.step)

    def names(self) -> list[str | None]:
        return [None] * self.game.num_players

    def human_to_act(self) -> bool:
        return False

    def observation(self) -> dict[str, Any]:
        return self.replay.observation(self.step, self.viewer)

    @property
    def viewer_seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    def read_events(self, upto: int | None = None) -> list[LogLine]:
        """The log lines the viewer could read by this step."""
        names = self.names()
        you = self.viewer if isinstance(self.viewer, int) else None
        new = []
        for i, e in self.replay.events(self.step, self.viewer):
            if e.kind == "deal":
                continue
            try:
                rich = self.labels.event_rich(e, names, you)
            except RENDER_ERRORS:
                rich = [e.kind]
            if rich:
                new.append(LogLine(i, e.kind, rich, self.labels.text(rich)))
        self.log = new
        return new

    def suggest(self) -> Action | None:
        """What ``hard`` would play at the viewer's decision now (None: no decision of its)."""
        if not isinstance(self.viewer, int):
            return None
        return self.replay.suggest(self.step, self.viewer, SUGGEST_LEVEL)


class ReplayApp(TableApp):
    """The terminal table over a record's steps."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False, priority=True),
        Binding("right", "step(1)", show=False, priority=True),
        Binding("t", "trick(1)", show=False),
        Binding("T", "trick(-1)", show=False),
        Binding("r", "round(1)", show=False),
        Binding("R", "round(-1)", show=False),
        Binding("v", "viewer", show=False),
        Binding("home", "goto(0)", show=False, priority=True),
        Binding("end", "goto(-1)", show=False, priority=True),
        Binding("s", "panel('sheet')", show=False),
        Binding("l", "panel('log')", show=False),
        Binding("g", "language", show=False),
        Binding("h", "hint", show=False),
        Binding("q", "quit_game", show=False),
        Binding("question_mark", "panel('keys')", show=False),
    ]

    def __init__(self, session: ReplaySession) -> None:
        super().__init__(session, records=None, bot_delay=0.0)
        self.rs = session
        self.suggestion: tuple[int, Viewer, Action] | None = None

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not the play table's mount: no game loop runs over a record
        for scroller in self.query("VerticalScroll"):
            scroller.can_focus = False
        self.screen.set_class(self.size.width >= WIDE, "wide")
        self._drawn = True
        self.redraw()

    def draw(self) -> None:
        super().draw()
        if not self._drawn:
            return
        # the step a round ends at shows its summary (the scoring written out, the points)
        rs = self.rs
        summary = self.query_one("#summary", Static)
        key = f"{rs.step}:{rs.lang}:{rs.viewer}"
        if self._shown.get("#summary") == key:
            return
        self._shown["#summary"] = key
        if rs.step in rs.replay.rounds():
            v, vw = self.seen, self.seen_words
            title = rs.labels.word("round_over").replace("{n}", str(len(v.round_scores)))
            summary.update(Group(Text(""), Text(title, style="bold"), self.summary_body(v, vw)))
        else:
            summary.update(Text(""))

    def help_text(self) -> str:
        return words(self.rs.lang)["replay_help"]

    def redraw(self) -> None:
        self.ui = Mode.OVER if self.rs.state.is_over() else Mode.BUSY
        self._shown.pop("#ring-key", None)
        self.draw()

    # ------------------------------------------------------------ keys
    def action_step(self, by: int) -> None:
        self.rs.goto(self.rs.step + by)
        self.redraw()

    def action_goto(self, step: int) -> None:
        self.rs.goto(self.rs.replay.steps if step < 0 else step)
        self.redraw()

    def _jump(self, marks: list[int], by: int) -> None:
        k = self.rs.step
        if by > 0:
            self.rs.goto(next((m for m in marks if m > k), k))
        else:
            self.rs.goto(max((m for m in [0, *marks] if m < k), default=0))
        self.redraw()

    def action_trick(self, by: int) -> None:
        self._jump(self.rs.replay.tricks(), by)

    def action_round(self, by: int) -> None:
        self._jump(self.rs.replay.rounds(), by)

    def action_viewer(self) -> None:
        self.rs.next_viewer()
        self.redraw()

    def action_hint(self) -> None:
        """What hard would play here, thought off the event loop from the seat's view only."""
        rs = self.rs
        if not isinstance(rs.viewer, int) or rs.state.is_over() or rs.viewer not in rs.state.to_act():
            return
        self.message = lambda: words(rs.lang).get("thinking", "…")  # said in the language of the moment
        self.redraw()
        step, viewer = rs.step, rs.viewer
        self.run_worker(self._suggest(step, viewer), exclusive=True, group="suggest")

    async def _suggest(self, step: int, viewer: Viewer) -> None:
        import asyncio

        action = await asyncio.to_thread(self.rs.replay.suggest, step, int(viewer or 0), SUGGEST_LEVEL)
        if action is not None:
            self.suggestion = (step, viewer, action)
        self.message = ""
        self.redraw()

    def action_quit_game(self) -> None:
        self.exit(None)  # nothing to lose in a replay: no question


    # ------------------------------------------------------------ what differs from a game in play
    def header(self, v: SeatView, vw: ViewWords) -> Text:
        rs = self.rs
        w = words(rs.lang)
        eyes = rs.viewer
        viewer = rs.seat_name(eyes) if isinstance(eyes, int) else w["open" if eyes == OPEN else "spectator"]
        head = super().header(v, vw)
        head.append(" · " + w["replay_step"].format(k=rs.step, n=rs.replay.steps) + " · " + viewer)
        return head

    def status(self, v: SeatView, vw: ViewWords) -> Text:
        out = super().status(v, vw)
        for seat, facts in enumerate(v.seats):  # every hand open: each seat's cards by its name
            if facts.open_hand is None:
                continue
            line = Text(f"\n{self.seat_label(seat)}: ", style="bold")
            for c in facts.open_hand:
                line.append_text(self.card(c, vw))
                line.append(" ")
            out.append_text(line)
        return out

    def prompt(self, v: SeatView, vw: ViewWords) -> Text:
        """Where the record stands: the deal (step 0), whose move comes next, or the end; never
        a "your turn" (nobody plays in a replay)."""
        rs = self.rs
        w = words(rs.lang)
        if rs.state.is_over():
            text = Text(w["game_over"])
        else:
            who = rs.labels.word("item_sep").join(self.seat_label(x) for x in v.to_act)
            text = Text((w["replay_start"] + " " if rs.step == 0 else "") + w["replay_next"].format(who=who))
        sug = self.suggestion
        if sug is not None and sug[0] == rs.step and sug[1] == rs.viewer:
            text.append("\n" + words(rs.lang)["would_play"].format(level=level_name(rs.lang, SUGGEST_LEVEL)) + " ")
            text.append_text(rich_text(rs.action_rich(sug[2]), rs.labels))
        elif self.message:
            text.append("\n" + self.message)
        return text

    def key_hints(self) -> Text:
        w = words(self.rs.lang)
        pairs = [("←/→", w["k_step"]), ("t/T", w["k_trick"]), ("r/R", w["k_round"]), ("v", w["k_viewer"]),
                 ("h", w["k_would"]), ("s", w["k_sheet"]), ("l", w["k_log"])]
        if len(self.rs.languages) > 1:
            pairs.append(("g", w["k_lang"]))
        pairs += [("?", w["k_help"]), ("q", w["k_quit"])]
        return key_line(pairs)


def view_replay(rp: Replay, *, lang: str = "en") -> None:
    """Open the record's steps in the terminal table."""
    ReplayApp(ReplaySession(rp, lang=lang)).run()
