"""``torite play``: the table as a Textual app, for any registered game.

Generic over the protocol and the labels, like the web table: the seats around the table (names,
cards left, tricks, points, the card each played to the trick), the game's status rows, your
hand with the cards you may play, and every other decision drawn from the form of the legal
actions (``decisions.group``): buttons with number keys, a bidding box, a card picker, several
cards selected then confirmed.  Side panels (last trick, score sheet, log) sit beside the table
in a wide terminal and open by key in an 80×24 one; the rules page, the round summary and the
end of the game are views over it.  Every game word comes from the game's labels.

Bots think off the event loop (``asyncio.to_thread``), one decision at a time through the
driver, with a short pause so a person can follow the cards.

This module holds the game loop, the keys and the widgets; the pictures they show (the seats,
the status rows, the score sheet, the log, a round's summary) are drawn by
:mod:`torite.cli.tui.pictures`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from torite.engine.base import Action, IllegalAction, OptionError
from torite.present.decision import Decision
from torite.present.pages import rules_page
from torite.present.view import SeatView, ViewWords
from torite.record import Record

from .controls import Controls, pile_kind
from .pictures import TablePictures
from .prose import Prose
from .screens import ConfirmScreen, LogScreen, PanelScreen, RulesScreen, SummaryScreen
from .session import Session
from .widgets import ChoiceBar, GridView, HandView
from .words import rich_text, words


class Mode(StrEnum):
    """What the table is doing: bots are moving, the person decides, a round's summary or the
    game's end is shown."""

    BUSY = "busy"
    INPUT = "input"
    SUMMARY = "summary"
    OVER = "over"


WIDE = 110  # from this width the side panels show beside the table

#: a message said again in the table's language each time it is drawn (``g`` changes it)
Say = Callable[[], str]


class TableApp(Controls, TablePictures, App[Record | None]):
    """One person against bots at a table; returns the game's record."""

    TITLE = "torite"
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $primary-background; padding: 0 1; text-style: bold; }
    #body { height: 1fr; }
    #main { width: 1fr; }
    #ring { height: auto; padding: 0 1; }
    #status { height: auto; padding: 0 1; color: $text-muted; }
    #summary { height: auto; padding: 0 1; }
    #strip { height: auto; max-height: 4; margin-top: 1; padding: 0 1; color: $text-muted; }
    #side { display: none; width: 42; border-left: solid $primary; padding: 0 1; }
    Screen.wide #side { display: block; }
    Screen.wide #strip { display: none; }
    #bottom { height: auto; max-height: 70%; dock: bottom; }
    #prompt { height: auto; padding: 0 1; text-style: bold; color: $warning; }
    #prompt.mine { color: $success; }
    #grid { display: none; }
    #grid.on { display: block; }
    #pile { display: none; }
    #pile.on { display: block; }
    #choices { height: auto; }
    #keys { height: auto; max-height: 2; padding: 0 1; background: $primary-background; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "confirm", show=False),
        Binding("x", "clear", show=False),
        Binding("t", "panel('last')", show=False),
        Binding("s", "panel('sheet')", show=False),
        Binding("l", "panel('log')", show=False),
        Binding("r", "rules", show=False),
        Binding("g", "language", show=False),
        Binding("h", "hint", show=False),
        Binding("question_mark", "panel('keys')", show=False),
        Binding("q", "quit_game", show=False),
        # the table above the controls scrolls by keys (a small terminal, Umbridge's many rows)
        Binding("pageup", "scroll_main(-1)", show=False),
        Binding("pagedown", "scroll_main(1)", show=False),
        Binding("ctrl+up", "scroll_main(-1)", show=False),
        Binding("ctrl+down", "scroll_main(1)", show=False),
        *(Binding(str(i), f"button({i})", show=False) for i in range(1, 10)),
        Binding("0", "button(10)", show=False),
    ]

    def __init__(self, session: Session, *, records: Path | None = None, bot_delay: float = 0.6,
                 on_exit: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.session = session
        self.records = records
        self.bot_delay = bot_delay
        self.on_exit_message = on_exit
        self.ui = Mode.BUSY
        self.decision = Decision()
        self.legal: list[Action] = []
        self.selecting: str | None = None  # the multi-card kind being selected
        self.selected: set[int] = set()
        self._say: Say | None = None
        #: why the card under the cursor is refused (said as the cursor reaches it)
        self._note: Say | None = None
        self.rounds_seen = len(session.view().round_scores)
        self._buttons: list[tuple[Text, Callable[[], None]]] = []
        self.button_actions: list[Action | None] = []
        self.refused_cards: dict[int, str] = {}
        self.refused_actions: dict[Action, str] = {}
        #: what was drawn last: the person's view and its words
        self.seen: SeatView = session.view()
        self.seen_words: ViewWords = session.words(self.seen)
        self.saved: Path | None = None
        #: the step (actions recorded) at which the hint or Tab put focus on the buttons: within
        #: that decision the buttons keep it (a redraw gave it back to the grid, and Enter after a
        #: hinted "pass" bid the grid's cell)
        self._bar_step = -1
        self._shown: dict[str, str] = {}
        self._drawn = False

    @property
    def message(self) -> str:
        """The last thing said to the person (a refusal, a hint), in the table's language now."""
        return self._say() if self._say is not None else ""

    @message.setter
    def message(self, said: str | Say) -> None:
        self._say = None if said == "" else said if callable(said) else (lambda: said)

    @property
    def note(self) -> str:
        return self._note() if self._note is not None else ""

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="body"):
            with VerticalScroll(id="main"):
                yield Static(id="ring")
                yield Prose(id="status")
                yield Static(id="summary")  # a replay's round summary, at the step a round ends
                yield Static(id="strip")
            with VerticalScroll(id="side"):
                yield Static(id="side-last")
                yield Static(id="side-sheet")
                yield Static(id="side-log")
        with Vertical(id="bottom"):
            yield Prose(id="prompt")
            yield HandView(id="hand")
            yield HandView(id="pile", row="pile")
            yield GridView(id="grid")
            yield ChoiceBar(id="choices")
            yield Static(id="keys")

    def on_mount(self, event: events.Mount) -> None:
        for scroller in self.query(VerticalScroll):
            scroller.can_focus = False  # Tab moves between the hand, the grid and the buttons
        self.screen.set_class(self.size.width >= WIDE, "wide")
        self._drawn = True
        self.draw()
        self.run_worker(self.advance(), exclusive=True, group="game")

    def on_resize(self, event: events.Resize) -> None:
        # the event's size is the new one (``self.size`` may still be the old one here)
        wide = event.size.width >= WIDE
        if wide != self.screen.has_class("wide"):
            self.screen.set_class(wide, "wide")
            self.draw()  # the side panels are drawn only while they show

    def action_scroll_main(self, by: int) -> None:
        main = self.query_one("#main", VerticalScroll)
        if by < 0:
            main.scroll_page_up(animate=False)
        else:
            main.scroll_page_down(animate=False)

    def action_help_quit(self) -> None:
        """Ctrl+C: how to quit, in the person's language (not Textual's English toast)."""
        self.notify(self.w["ctrl_c"], title=self.w["ctrl_c_title"])

    # ------------------------------------------------------------ the game loop
    async def advance(self) -> None:
        """Bots act until the person must (or the game ends); round summaries on the way."""
        s = self.session
        self.ui = Mode.BUSY
        self.draw()
        while (seat := s.bot_to_act()) is not None:
            if self.bot_delay > 0:
                # a trick just taken stays on the table a little longer, to be read
                taken = bool(s.state.events) and s.state.events[-1].kind == "trick"
                await asyncio.sleep(self.bot_delay * (3 if taken else 1))
            action = await asyncio.to_thread(s.bot_decision, seat)
            s.apply(seat, action)
            # a round just ended goes to its summary before the next deal is drawn behind it
            if self.bot_delay > 0 and not self.round_ended():
                self.draw()  # without a pause nobody could see the step: drawn once at the end
            if not await self.round_summary():
                return
        if s.state.is_over():
            await self.game_over()
            return
        self.ui = Mode.INPUT
        self.selecting = None
        self.selected = set()
        self.draw()

    def round_ended(self) -> bool:
        """A round ended (the game going on) since its summary was last shown."""
        return len(self.session.view().round_scores) > self.rounds_seen and not self.session.state.is_over()

    async def round_summary(self) -> bool:
        """After a round ends (the game going on): its summary until the person goes on (the
        summary covers the table: the next deal is not shown under it).  False when the person
        chose to quit there."""
        v = self.session.view()
        rows = v.round_scores
        if len(rows) <= self.rounds_seen:
            return True
        self.rounds_seen = len(rows)
        if self.session.state.is_over():
            return True
        self.ui = Mode.SUMMARY
        title = self.session.labels.word("round_over").replace("{n}", str(len(rows)))
        go = await self.push_screen_wait(SummaryScreen(title, self.summary_body(v, self.session.words(v)),
                                                       self.w["continue"]))
        if not go:
            self.finish()
            self.exit(self.session.record)
            return False
        self.ui = Mode.BUSY
        self.draw()
        return True

    async def game_over(self) -> None:
        self.ui = Mode.OVER
        self.draw()
        s = self.session
        res = s.state.result()
        v = s.view()
        vw = s.words(v)
        head = Text(self.w["winners"].format(who=s.labels.word("item_sep").join(s.seat_name(x)
                                                                                  for x in res.winners)))
        if vw.goal:
            head = Group(rich_text(vw.goal, s.labels, style="italic"), head)  # type: ignore[assignment]
        self.finish()
        saved = Text(self.w["saved"].format(path=self.saved)) if self.saved else Text("")
        body = Group(head, Text(""), self.summary_body(v, vw), saved)
        await self.push_screen_wait(SummaryScreen(self.w["game_over"], body, self.w["quit_hint"]))
        self.exit(s.record)

    def finish(self) -> None:
        """Save the record (once): finished or not, it replays (and an unfinished one resumes)."""
        if self.saved is None:
            self.saved = self.session.finish(self.records)
        if self.on_exit_message is not None and self.saved is not None and not self.session.state.is_over():
            self.on_exit_message(self.w["unfinished"])
            self.on_exit_message(self.w["resume"].format(path=self.saved))

    def act(self, action: Action) -> None:
        """The person's decision."""
        if self.ui != Mode.INPUT:
            return
        try:
            self.session.apply(self.session.human, action)
        except IllegalAction as e:
            self.message = str(e)
            self.draw()
            return
        self.message = ""
        self.ui = Mode.BUSY
        self.selecting = None
        self.selected = set()
        if not self.round_ended():
            self.draw()
        self.run_worker(self._after_person(), exclusive=True, group="game")

    async def _after_person(self) -> None:
        if await self.round_summary():
            await self.advance()

    # ------------------------------------------------------------ keys and widgets
    def refused_card(self, card: int) -> Say:
        """Why ``card`` may not be chosen, in the rules' words ("You must follow suit: you hold
        ♥."), said again in the language of the moment."""
        def say() -> str:
            return self.refused_cards.get(card) or self.not_now(
                self.session.labels.card_text(self.session.game.card_text(card)))
        return say

    def on_hand_view_chosen(self, msg: HandView.Chosen) -> None:
        if self.ui != Mode.INPUT:
            return
        if msg.row == "pile":
            kind = pile_kind(self.decision)
            mp = self.decision.named.get(kind or "", {})
            if msg.card in mp:
                self.act(mp[msg.card])
                return
        else:
            for kind_map in self.decision.singles.values():
                if msg.card in kind_map:
                    self.act(kind_map[msg.card])
                    return
        self.message = self.refused_card(msg.card)
        self.draw()

    def on_hand_view_focused(self, msg: HandView.Focused) -> None:
        """The cursor reached a card: a refused one says why at once (as the web table does on
        focus; see :meth:`cursor_note`)."""
        if self.ui == Mode.INPUT:
            self.draw()

    def cursor_note(self) -> Say | None:
        """Why the card under the cursor of the row in use may not be chosen (None: it may)."""
        if self.ui != Mode.INPUT:
            return None
        pile = self.query_one("#pile", HandView)
        on_pile = self.focused is pile
        row = pile if on_pile and pile.has_class("on") else self.query_one("#hand", HandView)
        card = row.cursor
        if card is None or card in row.active or card not in self.refused_cards:
            return None
        return self.refused_card(card)

    def on_hand_view_toggled(self, msg: HandView.Toggled) -> None:
        if self.ui != Mode.INPUT or self.selecting is None:
            return
        most = max(m.bit_count() for m in self.decision.multis[self.selecting].combos)
        if msg.card in self.selected:
            self.selected.discard(msg.card)
        elif len(self.selected) < most:
            self.selected.add(msg.card)
        self.message = ""
        self.draw()

    def on_grid_view_chosen(self, msg: GridView.Chosen) -> None:
        if self.ui != Mode.INPUT:
            return
        if msg.action is None:
            label = msg.label.strip()
            self.message = msg.reason or self.not_now(label)
            self.draw()
            return
        self.act(msg.action)

    def on_choice_bar_chosen(self, msg: ChoiceBar.Chosen) -> None:
        self.action_button(msg.index + 1)

    def action_button(self, number: int) -> None:
        if self.ui != Mode.INPUT or not 1 <= number <= len(self._buttons):
            return
        self._buttons[number - 1][1]()

    def action_confirm(self) -> None:
        if self.ui != Mode.INPUT or self.selecting is None:
            return
        mask = sum(1 << c for c in self.selected)
        action = self.decision.multis[self.selecting].combos.get(mask)
        if action is None:
            # a set the rules refuse says which rule ("your cards must outrank ♦A ♠A")
            tried = Action(self.selecting, mask)
            self.message = lambda: self.session.refusal(tried) or self.w["no_such_set"]
            self.draw()
            return
        self.act(action)

    def action_clear(self) -> None:
        if self.selecting is not None:
            self.selected = set()
            self.draw()

    def start_selecting(self, kind: str) -> None:
        self.selecting = kind
        self.selected = set()
        self.draw()
        self.query_one(HandView).focus()

    def action_panel(self, which: str) -> None:
        w = self.w
        key = {"last": "t", "sheet": "s", "log": "l", "keys": "question_mark"}[which]
        if which == "log":
            self.push_screen(LogScreen(w["log"], self.log_text(), w["close"], key=key))
            return
        title, body = {"last": (w["last_trick"], self.last_trick(self.seen, self.seen_words)),
                       "sheet": (w["score_sheet"], self.score_sheet(self.seen)),
                       "keys": (w["keys"], Text(self.help_text()))}[which]
        self.push_screen(PanelScreen(title, body, w["close"], key=key))

    def help_text(self) -> str:
        return self.w["help"]

    def action_rules(self) -> None:
        cls = type(self.session.game)
        page = None
        for lang in (self.session.lang, "en"):
            try:
                page = rules_page(cls, lang)
                break
            except (OptionError, OSError):
                continue
        self.push_screen(RulesScreen(page or self.session.labels.title, self.w["close"]))

    def action_language(self) -> None:
        langs = self.session.languages
        if len(langs) < 2:
            return
        i = langs.index(self.session.lang) if self.session.lang in langs else -1
        self.session.set_language(langs[(i + 1) % len(langs)])
        self.draw()

    def action_hint(self) -> None:
        """The ``normal`` bot's suggestion and its reason, from what the person sees; the cursor
        goes to the hinted card, cell or button."""
        if self.ui != Mode.INPUT or not self.legal:
            return
        action, reason = self.session.hint()
        s = self.session

        def say() -> str:
            text = s.labels.text(s.action_rich(action))
            return self.w["hint"].format(action=text) + (" — " + s.labels.text(reason) if reason else "")

        self.message = say
        self.point_at(action)
        self.draw()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Tab onto the buttons at the person's decision: they keep the focus until it ends."""
        if self.ui == Mode.INPUT and isinstance(event.widget, ChoiceBar):
            self._bar_step = len(self.session.record.actions)

    def point_at(self, action: Action) -> None:
        """Put the cursor of the control that offers ``action`` on it (the hint's)."""
        d = self.decision
        hand, pile = self.query_one("#hand", HandView), self.query_one("#pile", HandView)
        grid = self.query_one(GridView)
        if any(mp.get(action.card) == action for mp in d.singles.values()):
            hand.jump(action.card)
            hand.focus()
        elif action.kind == pile_kind(d):
            pile.jump(action.card)
            pile.focus()
        elif action in self.button_actions:
            bar = self.query_one(ChoiceBar)
            bar.cursor = self.button_actions.index(action)
            bar.refresh()
            bar.focus()
            self._bar_step = len(self.session.record.actions)
        elif action.kind in d.multis:
            if self.selecting != action.kind:
                self.selecting, self.selected = action.kind, set()
            first = next((c for c in hand.cards if action.cards >> c & 1), None)
            if first is not None:
                hand.jump(first)
            hand.focus()
        else:
            for r, (_, cells) in enumerate(grid.rows):
                for c, cell in enumerate(cells):
                    if cell.action == action:
                        grid.cursor = (r, c)
                        grid.refresh()
                        grid.focus()

    def action_quit_game(self) -> None:
        """``q``: ask first (the game is saved and resumes with ``torite play --resume``)."""
        if isinstance(self.screen, ConfirmScreen):
            return

        def answered(quit_now: bool | None) -> None:
            if quit_now:
                self.finish()
                self.exit(self.session.record)

        self.push_screen(ConfirmScreen(self.w["quit_ask"], self.w["quit_keys"]), answered)

    # ------------------------------------------------------------ drawing
    def draw(self) -> None:
        if not self._drawn:
            return
        s = self.session
        mine = self.ui == Mode.INPUT
        v = self.seen = s.view(deciding=mine)
        vw = self.seen_words = s.words(v)
        self.legal = list(v.legal)
        self.decision = v.decision or Decision()
        d = self.decision
        lab = vw.labels
        self.refused_cards = {c: lab.text(r) for c, r in vw.refused_cards.items()}
        self.refused_actions = {a: lab.text(r) for a, r in vw.refused_actions.items()}
        if self.selecting not in d.multis:
            self.selecting = None
            self.selected = set()
        if mine and self.selecting is None and not d.singles and d.multis:
            self.selecting = next(iter(d.multis))
        self.put("#top", self.header(v, vw))
        ring_key = repr((s.lang, v.over, v.to_act, v.trick, v.last_trick and v.last_trick.cards, v.seats, vw.roles))
        if self._shown.get("#ring-key") != ring_key:  # the ring is the costly one: drawn on change
            self._shown["#ring-key"] = ring_key
            self.query_one("#ring", Static).update(self.ring(v, vw))
        self.put("#status", self.status(v, vw))
        self.put("#strip", self.log_lines(s.log[-3:]))
        if self.screen.has_class("wide"):
            self.query_one("#side-last", Static).update(Group(Text(self.w["last_trick"], style="bold"),
                                                              self.last_trick(v, vw)))
            self.query_one("#side-sheet", Static).update(Group(Text(""), Text(self.w["score_sheet"], style="bold"),
                                                               self.score_sheet(v, width=40)))
            self.query_one("#side-log", Static).update(Group(Text(""), Text(self.w["log"], style="bold"),
                                                             self.log_lines(s.log[-12:])))
        self.put("#keys", self.key_hints())
        hand = self.query_one("#hand", HandView)
        hand.labels = s.labels
        hand.game = s.game
        if self.selecting is not None:
            hand.show(v.hand, d.multis[self.selecting].cards, selecting=True, selected=self.selected)
        else:
            hand.show(v.hand, d.playable)
        self.draw_pile(v, vw, d)
        self.draw_grid(d)
        self.draw_buttons(d)
        self._note = self.cursor_note()
        self.put("#prompt", self.prompt(v, vw))
        self.query_one("#prompt", Prose).set_class(mine, "mine")
        if mine:
            self.focus_decision()
            # a control just shown takes focus only once its style shows it
            self.call_after_refresh(self.focus_decision)

    def put(self, selector: str, text: Text) -> None:
        """Update a widget only when its text changed: each update costs a layout."""
        key = text.markup
        if self._shown.get(selector) != key:
            self._shown[selector] = key
            widget = self.query_one(selector)
            widget.update(text)

    def focus_decision(self) -> None:
        """Focus the control that decides now, unless the person's focus is on one that still
        offers something (Tab moved it there)."""
        if self.ui != Mode.INPUT:
            return
        hand = self.query_one("#hand", HandView)
        pile = self.query_one("#pile", HandView)
        grid = self.query_one(GridView)
        bar = self.query_one(ChoiceBar)
        offers = {hand: bool(hand.active), pile: pile.has_class("on") and bool(pile.active),
                  grid: grid.has_class("on"), bar: bool(bar.items)}
        focused = self.focused
        if focused in (hand, pile, grid) and offers.get(focused):
            return  # Tab moved it there, and it offers something
        if focused is bar and offers[bar] and (self._bar_step == len(self.session.record.actions)
                                               or not any(offers[c] for c in (hand, pile, grid))):
            return  # the hint or Tab put it there in this decision, or nothing else offers
        for control in (hand, pile, grid, bar):
            if offers[control]:
                control.focus()
                return

    def prompt(self, v: SeatView, vw: ViewWords) -> Text:
        w = self.w
        if self.ui == Mode.OVER:
            return Text(w["game_over"])
        if self.ui != Mode.INPUT:
            if len(v.to_act) > 1:
                return Text(w["waiting_simul"])
            return Text(w["waiting"].format(who=", ".join(self.seat_label(x) for x in v.to_act)))
        lines = self.decision_prompt(vw)
        if self.note and self.note != self.message:  # said once when Enter repeats it
            lines.append("· " + self.note)
        if self.message:
            lines.append("! " + self.message)
        return Text("\n".join(lines))

    def explain(self, why: str, label: str) -> None:
        """A refused button's reason, or at least its name."""
        self.message = why or self.not_now(label)
        self.draw()


def play_tui(game: Any, human: int, bots: Sequence[str], seed: int, *, records: Path, lang: str = "en",
             max_rounds: int | None = None, bot_delay: float = 0.6, session: Session | None = None) -> Record:
    """Play in the terminal; the record is saved in ``records`` (finished or not).  ``session``:
    one already set up (a resumed game's)."""
    if session is None:
        session = Session(game, human, bots, seed, lang=lang, max_rounds=max_rounds)
    notes: list[str] = []
    app = TableApp(session, records=records, bot_delay=bot_delay, on_exit=notes.append)
    app.run()
    if app.saved is None:
        app.saved = session.finish(records)
    w = words(session.lang)
    for note in notes:
        print(note)
    print(w["saved"].format(path=app.saved))
    return session.record
