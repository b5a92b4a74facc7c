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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from torite.cards import card_str, parse_card
from torite.engine.base import Action, IllegalAction, OptionError
from torite.present.decision import Decision, group, phase_of
from torite.present.labels import SUIT_SYMBOLS
from torite.present.pages import rules_page
from torite.record import Record

from .screens import LogScreen, PanelScreen, RulesScreen, SummaryScreen
from .session import RENDER_ERRORS, Session
from .widgets import Cell, ChoiceBar, GridView, HandView
from .words import card_text, level_name, rich_text, words

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


class Mode(StrEnum):
    """What the table is doing: bots are moving, the person decides, a round's summary or the
    game's end is shown."""

    BUSY = "busy"
    INPUT = "input"
    SUMMARY = "summary"
    OVER = "over"
WIDE = 110  # from this width the side panels show beside the table


class TableApp(App[Record | None]):
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
        self.rounds_seen = len(session.observation().get("round_scores") or [])
        self._buttons: list[tuple[Text, Callable[[], None]]] = []
        self.refused_cards: dict[int, str] = {}
        self.refused_actions: dict[Action, str] = {}
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

    @property
    def w(self) -> dict[str, str]:
        return words(self.session.lang)

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
        obs = self.session.observation()
        rows = obs.get("round_scores") or []
        if len(rows) <= self.rounds_seen:
            return True
        self.rounds_seen = len(rows)
        if self.session.state.is_over():
            return True
        self.ui = Mode.SUMMARY
        title = self.session.labels.word("round_over").replace("{n}", str(len(rows)))
        go = await self.push_screen_wait(SummaryScreen(title,
                                                       self.summary_body(obs), self.w["continue"]))
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
        head = Text(self.w["winners"].format(who=s.labels.word("item_sep").join(s.seat_name(x)
                                                                                  for x in res.winners)))
        try:
            goal = s.labels.goal_rich(s.game.options)
        except RENDER_ERRORS:
            goal = None
        if goal:
            head = Group(rich_text(goal, s.labels, style="italic"), head)  # type: ignore[assignment]
        self.finish()
        saved = Text(self.w["saved"].format(path=self.saved)) if self.saved else Text("")
        body = Group(head, Text(""), self.summary_body(s.observation()), saved)
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
        self.message = self.refused_cards.get(msg.card) or self.w["not_legal"].format(
            card=self.session.labels.card_text(card_str(msg.card)))
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
            self.message = msg.reason or self.w["not_legal"].format(card=msg.label.strip())
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
        title, body = {"last": (w["last_trick"], self.last_trick()),
                       "sheet": (w["score_sheet"], self.score_sheet()),
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
        obs = s.observation()
        mine = self.ui == Mode.INPUT
        self.legal = s.legal() if mine else []
        self.decision = group(phase_of(s.game.phases(), obs["phase"]), self.legal, obs.get("hand") or [])
        d = self.decision
        self.refused_cards, self.refused_actions = s.refusals(d) if mine else ({}, {})
        if self.selecting not in d.multis:
            self.selecting = None
            self.selected = set()
        if mine and self.selecting is None and not d.singles and d.multis:
            self.selecting = next(iter(d.multis))
        self.put("#top", self.header(obs))
        ring_key = repr((s.lang, s.state.is_over(), [obs.get(k) for k in self._RING_KEYS], self.roles(obs)))
        if self._shown.get("#ring-key") != ring_key:  # the ring is the costly one: drawn on change
            self._shown["#ring-key"] = ring_key
            self.query_one("#ring", Static).update(self.ring(obs))
        self.put("#status", self.status(obs))
        self.put("#strip", self.log_lines(s.log[-3:]))
        if self.screen.has_class("wide"):
            self.query_one("#side-last", Static).update(Group(Text(self.w["last_trick"], style="bold"),
                                                              self.last_trick()))
            self.query_one("#side-sheet", Static).update(Group(Text(""), Text(self.w["score_sheet"], style="bold"),
                                                               self.score_sheet()))
            self.query_one("#side-log", Static).update(Group(Text(""), Text(self.w["log"], style="bold"),
                                                             self.log_lines(s.log[-12:])))
        self.put("#keys", self.key_hints())
        self.put("#prompt", self.prompt(obs))
        self.query_one("#prompt", Static).set_class(mine, "mine")
        hand = self.query_one(HandView)
        hand.labels = s.labels
        cards = sorted((parse_card(c) for c in obs.get("hand") or []), key=s.game.sort_key)
        if self.selecting is not None:
            hand.show(cards, d.multis[self.selecting].cards, selecting=True, selected=self.selected)
        else:
            hand.show(cards, d.playable)
        self.draw_grid(d)
        self.draw_buttons(d)
        if mine:
            self.focus_decision()
            # a control just shown takes focus only once its style shows it
            self.call_after_refresh(self.focus_decision)

    _RING_KEYS = ("to_act", "trick", "tricks", "hand_sizes", "tricks_won", "scores", "dealer", "led")

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

    def header(self, obs: Mapping[str, Any]) -> Text:
        s = self.session
        lab = s.labels
        parts = [lab.title]
        if isinstance(obs.get("round"), int):
            m = obs.get("max_rounds")
            parts.append(self.w["of_rounds"].format(n=obs["round"] + 1, m=m) if isinstance(m, int)
                         else self.w["round"].format(n=obs["round"] + 1))
        if isinstance(obs.get("phase"), str):
            parts.append(lab.phase_name(obs["phase"]))
        if isinstance(obs.get("dealer"), int):
            parts.append(f"{self.w['dealer']}: {s.seat_name(obs['dealer'])}")
        return Text(" · ".join(parts))

    def seat_label(self, seat: int) -> str:
        s = self.session
        name = s.seat_name(seat)
        level = s.levels[seat]
        return self.w["bot"].format(name=name, level=level_name(s.lang, level)) if level else name

    def positions(self) -> dict[int, tuple[int, int]]:
        """Where each seat sits in a 3×3 grid: you at the bottom, the others clockwise from your
        left, in the order they play after you."""
        s = self.session
        n = s.game.num_players
        others = [(s.human + k) % n for k in range(1, n)]
        spots = {1: [(0, 1)], 2: [(1, 0), (1, 2)], 3: [(1, 0), (0, 1), (1, 2)],
                 4: [(1, 0), (0, 0), (0, 2), (1, 2)], 5: [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)]}
        places = spots.get(len(others), [(0, i % 3) for i in range(len(others))])
        out = {seat: places[i] for i, seat in enumerate(others)}
        out[s.human] = (2, 1)
        return out

    def roles(self, obs: Mapping[str, Any]) -> list[list[str]]:
        """Each seat's roles now (dealer, president, declarer, your partner…), from the labels."""
        try:
            return self.session.labels.roles(obs)
        except RENDER_ERRORS:
            return []

    def ring(self, obs: Mapping[str, Any]) -> RenderableType:
        s = self.session
        lab = s.labels
        roles = self.roles(obs)
        n = s.game.num_players
        to_act = set(obs.get("to_act") or [])
        trick = {e["seat"]: e for e in obs.get("trick") or [] if isinstance(e, Mapping) and "seat" in e}
        tricks = obs.get("tricks") or []
        last = tricks[-1] if tricks and isinstance(tricks[-1], Mapping) else None
        shown_last = not trick and last is not None and isinstance(last.get("cards"), list)
        if shown_last and last is not None:
            seats = last.get("seats") or [(int(last.get("leader", 0)) + k) % n for k in range(len(last["cards"]))]
            trick = {seat: {"seat": seat, "card": c} for seat, c in zip(seats, last["cards"])}
        cells: dict[tuple[int, int], RenderableType] = {}
        sizes = obs.get("hand_sizes") or [None] * n
        won = obs.get("tricks_won") or [None] * n
        scores = obs.get("scores") or [None] * n
        for seat, place in self.positions().items():
            name = Text()
            if seat in to_act and not s.state.is_over():
                name.append("▶ ", style="bold green")
            name.append(self.seat_label(seat), style="bold" if seat == s.human else "")
            for role in roles[seat] if seat < len(roles) else ():
                name.append(f" [{role}]", style="bold magenta")
            if scores[seat] is not None:
                name.append("  " + self.w["points"].format(n=scores[seat]), style="bold yellow")
            stats = []
            if sizes[seat] is not None:
                stats.append(self.w["cards"].format(n=sizes[seat]))
            if won[seat] is not None:
                stats.append(self.w["tricks"].format(n=won[seat]))
            played = Text()
            entry = trick.get(seat)
            if entry is not None:
                card = card_text(entry.get("card"), lab)
                played.append("[")
                played.append_text(card)
                played.append("]")
                if shown_last:
                    played.stylize("dim")
                    if last is not None and last.get("winner") == seat:
                        played.append(" ★", style="yellow")
                for k, v in entry.items():
                    if v is True and k not in ("seat", "card"):
                        played.append(" " + str(lab.data["tags"].get(k, k)), style="italic cyan")
            cells[place] = Group(name, Text(" · ".join(stats), style="dim"), played)
        centre = Text()
        centre.append(self.w["trick"], style="bold")
        if isinstance(obs.get("led"), str) and obs["led"] in SUIT_SYMBOLS:
            centre.append(f"  {SUIT_SYMBOLS[obs['led']]}", style="bold red" if obs["led"] in "HD" else "bold")
        current = [e for e in obs.get("trick") or [] if isinstance(e, Mapping)]
        if current:
            centre.append("\n")
            for i, e in enumerate(current):
                centre.append("  " if i else "")
                centre.append_text(card_text(e.get("card"), lab))
        elif shown_last and last is not None and isinstance(last.get("winner"), int):
            centre.append("\n" + self.w["last_won"].format(who=s.seat_name(last["winner"])), style="dim")
        else:
            centre.append("\n" + self.w["no_trick"], style="dim")
        if (1, 1) not in cells:
            cells[(1, 1)] = centre
        grid = Table.grid(expand=True, padding=(0, 1))
        for _ in range(3):
            grid.add_column(ratio=1)
        for r in range(3):
            if any((r, c) in cells for c in range(3)):
                grid.add_row(*(cells.get((r, c), Text("")) for c in range(3)))
        return grid

    def status(self, obs: Mapping[str, Any]) -> Text:
        s = self.session
        rows = s.status(dict(obs))
        out = Text()
        for i, (k, v) in enumerate(rows):
            if i:
                out.append("\n")
            out.append(f"{k}: ", style="bold")
            out.append_text(rich_text(v, s.labels))
        return out

    def prompt(self, obs: Mapping[str, Any]) -> Text:
        s = self.session
        w = self.w
        d = self.decision
        if self.ui == Mode.OVER:
            return Text(w["game_over"])
        if self.ui != Mode.INPUT:
            to_act = [x for x in obs.get("to_act") or []]
            if len(to_act) > 1:
                return Text(w["waiting_simul"])
            return Text(w["waiting"].format(who=", ".join(self.seat_label(x) for x in to_act)))
        lines = []
        why = s.labels.phase_prompt(str(obs.get("phase")), obs)
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
                             [Cell(card_text(card_str(c), lab), mp.get(c), self.refused_cards.get(c, ""))
                              for c in jokers]))
            for letter, _ in suits:
                cards = [parse_card(r + letter) for r in RANKS]
                rows.append((Text(SUIT_SYMBOLS[letter], style="bold red" if letter in "HD" else "bold"),
                             [Cell(card_text(card_str(c), lab), mp.get(c), self.refused_cards.get(c, ""))
                              for c in cards]))
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
                buttons.append((Text(lab.action_label(a.kind), style="dim strike"),
                                lambda why=why: self.explain(why)))  # type: ignore[misc]
        self._buttons = buttons
        self.query_one(ChoiceBar).show([t for t, _ in buttons])

    def explain(self, why: str) -> None:
        self.message = why or self.w["not_legal"].format(card="")
        self.draw()

    def key_hints(self) -> Text:
        w = self.w
        pairs = [("h", w["k_hint"]), ("t", w["k_last"]), ("s", w["k_sheet"]), ("l", w["k_log"]), ("r", w["k_rules"])]
        if len(self.session.languages) > 1:
            pairs.append(("g", w["k_lang"]))
        pairs += [("?", w["k_help"]), ("q", w["k_quit"])]
        out = Text()
        for i, (k, v) in enumerate(pairs):
            if i:
                out.append("  ")
            out.append(k, style="bold")
            out.append(" " + v)
        return out

    def last_trick(self) -> RenderableType:
        s = self.session
        obs = s.observation()
        tricks = obs.get("tricks") or []
        if not tricks or not isinstance(tricks[-1], Mapping):
            return Text(self.w["no_last_trick"], style="dim")
        t = tricks[-1]
        n = s.game.num_players
        cards = t.get("cards") or []
        seats = t.get("seats") or [(int(t.get("leader", 0)) + k) % n for k in range(len(cards))]
        line = Text()
        for seat, c in zip(seats, cards):
            line.append(f"{s.seat_name(seat)} ")
            line.append_text(card_text(c, s.labels))
            line.append("   ")
        facts = Text()
        for k, v in s.trick_facts(t):
            facts.append(f"\n{k}: ", style="bold")
            facts.append_text(rich_text(v, s.labels))
        return Group(line, facts)

    def score_sheet(self) -> RenderableType:
        s = self.session
        obs = s.observation()
        n = s.game.num_players
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("#", justify="right")
        for seat in range(n):
            table.add_column(s.seat_name(seat), justify="right")
        for r, row in enumerate(obs.get("round_scores") or []):
            table.add_row(str(r + 1), *(str(v) for v in row))
        if obs.get("scores") is not None:
            table.add_row(self.w["total"], *(str(v) for v in obs["scores"]), style="bold")
        return table

    def log_text(self) -> Text:
        return Text("\n").join(Text(f"{i + 1:>4}  ") + rich_text(x.rich, self.session.labels)
                                for i, x in enumerate(self.session.log))

    def log_lines(self, lines: Sequence[Any]) -> Text:
        """Log lines drawn with their cards and suits in colour."""
        return Text("\n").join(rich_text(x.rich, self.session.labels) for x in lines)

    def summary_body(self, obs: Mapping[str, Any]) -> RenderableType:
        """The last round's points explained: the scoring written out (the game's ``explain``),
        then its summary's rows with their units, each seat's calculation step by step, the
        round's points and the totals (``torite.engine.summary``)."""
        s = self.session
        lab = s.labels
        n = s.game.num_players
        ends = [e for e in s.state.events if e.kind == "round_end" and e.visible_to(s.human)]
        data: Mapping[str, Any] = ends[-1].data if ends else {}
        out: list[RenderableType] = []
        try:
            explain = lab.explain_rich(data, s.names(), s.human)
        except RENDER_ERRORS:
            explain = []
        for k, v in explain:
            out.append(Text(f"{k}: ", style="bold") + rich_text(v, lab))
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("")
        for seat in range(n):
            table.add_column(s.seat_name(seat), justify="right")
        summary = data.get("summary") or {"rows": []}
        steps = summary.get("steps") or []
        for r in summary.get("rows", ()):
            label = lab.scoring_word(r["key"]) + (f" ×{r['per']}" if "per" in r else "")
            counted = "count" in r and r.get("per", 1) != 1
            cells = [f"{r['count'][i]} = {v}" if counted and r["count"][i] else str(v)
                     for i, v in enumerate(r["values"])]
            table.add_row(Text(label, style="" if r["adds"] else "dim italic"), *cells,
                          style="" if r["adds"] else "dim")
        for i in range(max((len(x) for x in steps), default=0)):
            keys = dict.fromkeys(x[i]["key"] for x in steps if len(x) > i)
            cells = []
            for x in steps:
                st = x[i] if len(x) > i else None
                cells.append("" if st is None else str(st["value"]) if st["op"] == "=" else f"{st['op']} {st['value']}")
            table.add_row(" / ".join(lab.scoring_word(key) for key in keys), *cells, style="cyan")
        if isinstance(data.get("points"), list):
            table.add_row(self.w["round_points"], *(f"{v:+}" for v in data["points"]), style="bold")
        totals = obs.get("scores")
        if isinstance(totals, list):
            table.add_row(self.w["total"], *(str(v) for v in totals), style="bold")
        out.append(table)
        return Group(*out)


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
