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
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from torite.cards import parse_card
from torite.engine.base import Action, IllegalAction, OptionError
from torite.present.decision import Decision
from torite.present.labels import SUIT_SYMBOLS, korean
from torite.present.pages import rules_page
from torite.present.view import SeatView, ViewWords
from torite.record import Record

from .pictures import TablePictures
from .screens import LogScreen, PanelScreen, RulesScreen, SummaryScreen
from .session import Session
from .widgets import Cell, ChoiceBar, GridView, HandView
from .words import card_text, rich_text, words

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


class Mode(StrEnum):
    """What the table is doing: bots are moving, the person decides, a round's summary or the
    game's end is shown."""

    BUSY = "busy"
    INPUT = "input"
    SUMMARY = "summary"
    OVER = "over"
WIDE = 110  # from this width the side panels show beside the table


class TableApp(TablePictures, App[Record | None]):
    """One person against bots at a table; returns the game's record."""

    TITLE = "torite"
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1; background: $primary-background; padding: 0 1; text-style: bold; }
    #body { height: 1fr; }
    #main { width: 1fr; }
    #ring { height: auto; padding: 0 1; }
    #status { height: auto; max-height: 6; padding: 0 1; color: $text-muted; }
    #strip { height: auto; max-height: 4; margin-top: 1; padding: 0 1; color: $text-muted; }
    #side { display: none; width: 42; border-left: solid $primary; padding: 0 1; }
    Screen.wide #side { display: block; }
    Screen.wide #strip { display: none; }
    #bottom { height: auto; dock: bottom; }
    #prompt { height: auto; padding: 0 1; text-style: bold; color: $warning; }
    #prompt.mine { color: $success; }
    #grid { display: none; }
    #grid.on { display: block; }
    #choices { height: auto; }
    #keys { height: 1; padding: 0 1; background: $primary-background; color: $text-muted; }
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
        self.message = ""
        self.rounds_seen = len(session.view().round_scores)
        self._buttons: list[tuple[Text, Callable[[], None]]] = []
        self.refused_cards: dict[int, str] = {}
        self.refused_actions: dict[Action, str] = {}
        #: what was drawn last: the person's view and its words
        self.seen: SeatView = session.view()
        self.seen_words: ViewWords = session.words(self.seen)
        self.saved: Path | None = None
        self._shown: dict[str, str] = {}
        self._drawn = False

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="body"):
            with VerticalScroll(id="main"):
                yield Static(id="ring")
                yield Static(id="status")
                yield Static(id="strip")
            with VerticalScroll(id="side"):
                yield Static(id="side-last")
                yield Static(id="side-sheet")
                yield Static(id="side-log")
        with Vertical(id="bottom"):
            yield Static(id="prompt")
            yield HandView(id="hand")
            yield GridView(id="grid")
            yield ChoiceBar(id="choices")
            yield Static(id="keys")

    def on_mount(self) -> None:
        for scroller in self.query(VerticalScroll):
            scroller.can_focus = False  # Tab moves between the hand, the grid and the buttons
        self.screen.set_class(self.size.width >= WIDE, "wide")
        self._drawn = True
        self.draw()
        self.run_worker(self.advance(), exclusive=True, group="game")

    def on_resize(self) -> None:
        self.screen.set_class(self.size.width >= WIDE, "wide")

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
            if self.bot_delay > 0:  # without a pause nobody could see the step: draw once at the end
                self.draw()
            if not await self.round_summary():
                return
        if s.state.is_over():
            await self.game_over()
            return
        self.ui = Mode.INPUT
        self.selecting = None
        self.selected = set()
        self.draw()

    async def round_summary(self) -> bool:
        """After a round ends (the game going on): its summary until the person goes on.
        False when the person chose to quit there."""
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
        """Save the record (once): finished or not, it replays."""
        if self.saved is None:
            self.saved = self.session.finish(self.records)
        if self.on_exit_message is not None and self.saved is not None and not self.session.state.is_over():
            self.on_exit_message(self.w["unfinished"])

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
        self.draw()
        self.run_worker(self._after_person(), exclusive=True, group="game")

    async def _after_person(self) -> None:
        if await self.round_summary():
            await self.advance()

    # ------------------------------------------------------------ keys and widgets
    def on_hand_view_chosen(self, msg: HandView.Chosen) -> None:
        if self.ui != Mode.INPUT:
            return
        for mp in self.decision.singles.values():
            if msg.card in mp:
                self.act(mp[msg.card])
                return
        # a refused card says why, in the rules' words ("You must follow suit: you hold ♥.")
        self.message = self.refused_cards.get(msg.card) or self.not_now(
            self.session.labels.card_text(self.session.game.card_text(msg.card)))
        self.draw()

    def on_hand_view_toggled(self, msg: HandView.Toggled) -> None:
        if self.ui != Mode.INPUT or self.selecting is None:
            return
        need = self.decision.multis[self.selecting].count
        if msg.card in self.selected:
            self.selected.discard(msg.card)
        elif len(self.selected) < need:
            self.selected.add(msg.card)
        self.message = ""
        self.draw()

    def on_grid_view_chosen(self, msg: GridView.Chosen) -> None:
        if self.ui != Mode.INPUT:
            return
        if msg.action is None:
            self.message = msg.reason or self.not_now(msg.label.strip())
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
            self.message = self.w["no_such_set"]
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
                       "keys": (w["keys"], Text(w["help"]))}[which]
        self.push_screen(PanelScreen(title, body, w["close"], key=key))

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
        """The ``normal`` bot's suggestion and its reason, from what the person sees."""
        if self.ui != Mode.INPUT or not self.legal:
            return
        action, reason = self.session.hint()
        text = self.session.labels.text(self.session.action_rich(action))
        why = self.session.labels.text(reason) if reason else ""
        self.message = self.w["hint"].format(action=text) + (" — " + why if why else "")
        self.draw()

    def action_quit_game(self) -> None:
        self.finish()
        self.exit(self.session.record)

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
                                                               self.score_sheet(v)))
            self.query_one("#side-log", Static).update(Group(Text(""), Text(self.w["log"], style="bold"),
                                                             self.log_lines(s.log[-12:])))
        self.put("#keys", self.key_hints())
        self.put("#prompt", self.prompt(v, vw))
        self.query_one("#prompt", Static).set_class(mine, "mine")
        hand = self.query_one(HandView)
        hand.labels = s.labels
        hand.game = s.game
        if self.selecting is not None:
            hand.show(v.hand, d.multis[self.selecting].cards, selecting=True, selected=self.selected)
        else:
            hand.show(v.hand, d.playable)
        self.draw_grid(d)
        self.draw_buttons(d)
        if mine:
            self.focus_decision()
            # a control just shown takes focus only once its style shows it
            self.call_after_refresh(self.focus_decision)

    def put(self, selector: str, text: Text) -> None:
        """Update a Static only when its text changed: each update costs a layout."""
        key = text.markup
        if self._shown.get(selector) != key:
            self._shown[selector] = key
            self.query_one(selector, Static).update(text)

    def focus_decision(self) -> None:
        if self.ui != Mode.INPUT:
            return
        hand = self.query_one(HandView)
        grid = self.query_one(GridView)
        focused = self.focused
        if hand.active and focused is not hand and not (focused is grid and grid.has_class("on")):
            hand.focus()
        elif not hand.active and grid.has_class("on") and focused is not grid:
            grid.focus()
        elif not hand.active and not grid.has_class("on"):
            bar = self.query_one(ChoiceBar)
            if bar.items and focused is not bar:
                bar.focus()

    def prompt(self, v: SeatView, vw: ViewWords) -> Text:
        s = self.session
        w = self.w
        d = self.decision
        if self.ui == Mode.OVER:
            return Text(w["game_over"])
        if self.ui != Mode.INPUT:
            if len(v.to_act) > 1:
                return Text(w["waiting_simul"])
            return Text(w["waiting"].format(who=", ".join(self.seat_label(x) for x in v.to_act)))
        lines = []
        why = vw.labels.text(vw.prompt) if vw.prompt else None
        if self.selecting is not None:
            m = d.multis[self.selecting]
            lines.append(w["select_n"].format(n=m.count, kind=s.labels.action_label(self.selecting)))
            lines.append(w["selected"].format(k=len(self.selected), n=m.count))
        elif why:
            lines.append(why)
        elif d.singles:
            lines.append(w["your_turn"])
        elif self.legal:
            lines.append(w["your_choice"].format(kind=s.labels.action_label(self.legal[0].kind)))
        if self.message:
            lines.append("! " + self.message)
        return Text("  ".join(lines[:1]) + ("\n" + "  ".join(lines[1:]) if lines[1:] else ""))

    def draw_grid(self, d: Decision) -> None:
        grid = self.query_one(GridView)
        lab = self.session.labels
        if d.bids:
            b = next(iter(d.bids.values()))  # the whole ladder: a bid shows where it stands
            rows = []
            for dn in b.denoms:
                head = Text(SUIT_SYMBOLS.get(dn, lab.data["denominations"].get(dn, dn)),
                            style="bold red" if dn in "HD" else "bold")
                # a suit's cells read 14♥; a word's row (노기루다) names it once, its cells the level
                rows.append((head, [Cell(rich_text([{"t": "contract", "level": lv, "denom": dn}], lab)
                                         if dn in SUIT_SYMBOLS else Text(str(lv), style="bold"),
                                         b.cells.get((lv, dn)),
                                         self.refused_actions.get(Action(b.kind, 0, f"{lv} {dn}"), ""))
                                    for lv in b.levels]))
            grid.show(Text(self.w["bid_title"].format(kind=lab.action_label(b.kind)), style="bold"), rows)
            grid.set_class(True, "on")
        elif d.named:
            kind, mp = next(iter(d.named.items()))
            suits = [("S", 3), ("H", 2), ("D", 1), ("C", 0)]
            rows = []
            jokers = sorted(c for c in mp if c >= 52)
            if jokers:
                rows.append((Text("★", style="bold magenta"),
                             [Cell(card_text(self.session.game.card_text(c), lab), mp.get(c),
                                   self.refused_cards.get(c, "")) for c in jokers]))
            for letter, _ in suits:
                cards = [parse_card(r + letter) for r in RANKS]
                rows.append((Text(SUIT_SYMBOLS[letter], style="bold red" if letter in "HD" else "bold"),
                             [Cell(card_text(self.session.game.card_text(c), lab), mp.get(c),
                                   self.refused_cards.get(c, "")) for c in cards]))
            grid.show(Text(self.w["pick_title"].format(kind=lab.action_label(kind)), style="bold"), rows)
            grid.set_class(True, "on")
        else:
            grid.show(Text(), [])
            grid.set_class(False, "on")

    def draw_buttons(self, d: Decision) -> None:
        lab = self.session.labels
        buttons: list[tuple[Text, Callable[[], None]]] = []
        for a in d.buttons:
            buttons.append((rich_text(self.session.action_rich(a), lab), lambda a=a: self.act(a)))  # type: ignore[misc]
        if self.selecting is not None:
            m = d.multis[self.selecting]
            combo = m.combos.get(sum(1 << c for c in self.selected))
            text = rich_text(self.session.action_rich(combo), lab) if combo else Text(lab.action_label(self.selecting))
            head, _, tail = self.w["confirm"].partition("{text}")
            buttons.append((Text(head) + text + Text(tail), self.action_confirm))
        for kind, m in d.multis.items():
            if kind != self.selecting:
                buttons.append((Text(f"{lab.action_label(kind)} ({m.count})"),
                                lambda kind=kind: self.start_selecting(kind)))  # type: ignore[misc]
        # the calls that may not be made now stay in view, dimmed, and say why when chosen
        for a in d.all_calls:
            if a not in d.calls:
                why = self.refused_actions.get(a, "")
                label = lab.action_label(a.kind)
                buttons.append((Text(label, style="dim strike"),
                                lambda why=why, label=label: self.explain(why, label)))  # type: ignore[misc]
        self._buttons = buttons
        self.query_one(ChoiceBar).show([t for t, _ in buttons])

    def explain(self, why: str, label: str) -> None:
        """A refused button's reason, or at least its name."""
        self.message = why or self.not_now(label)
        self.draw()

    def not_now(self, what: str) -> str:
        """A refusal with no rule to tell: "Double cannot be chosen now." (더블은 …: its particle
        in the form its word takes)."""
        return korean.finish(self.w["not_legal"].format(card=what))


def play_tui(game: Any, human: int, bots: Sequence[str], seed: int, *, records: Path, lang: str = "en",
             max_rounds: int | None = None, bot_delay: float = 0.6) -> Record:
    """Play in the terminal; the record is saved in ``records`` (finished or not)."""
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
