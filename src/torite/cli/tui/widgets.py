"""The table's keyboard widgets: the hand (a row of cards with a cursor) and a grid of choices
(the bidding box and the card picker).  Both post a message when the person chooses; the app
decides what that means.  They draw with Rich text only, so they work in any terminal, over
SSH, at 80 columns."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget

from torite.cards import card_str
from torite.engine.base import Action, Game
from torite.present.labels import Labels

from .words import card_text, theme


class HandView(Widget, can_focus=True):
    """A row of cards in display order (the person's hand, or a pile played from: Umbridge's
    dummy): ←/→ move over every card, the ones that may not be chosen now too (the table says
    why when the cursor reaches one, as the web table does on focus), Enter chooses (or toggles,
    when selecting several), Space toggles, a click chooses.  The cursor moves only by the
    person's keys while a decision lasts (a redraw, a refused card leave it where it is); when its
    card has been played it goes to the card at the same place, and when the next decision
    begins, to the playable card nearest it."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 1; padding: 0 1; }
    HandView:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "previous card", show=False),
        Binding("right", "move(1)", "next card", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("enter", "choose", "choose", show=False),
        Binding("space", "select_card", "select", show=False),
    ]

    @dataclass
    class Chosen(Message):
        card: int
        #: the row it was chosen on (``hand``, or a pile's name)
        row: str = "hand"

    @dataclass
    class Toggled(Message):
        card: int

    @dataclass
    class Focused(Message):
        """The cursor came to ``card`` by the person's keys."""

        card: int
        row: str = "hand"

    def __init__(self, *, id: str | None = None, row: str = "hand") -> None:
        super().__init__(id=id)
        self.row = row
        self.head = Text()  # a pile's row is headed by its name
        self.cards: list[int] = []
        self.active: set[int] = set()
        self.selected: set[int] = set()
        self.selecting = False
        self.cursor: int | None = None  # the card under the cursor
        self._spans: list[tuple[int, int, int, int]] = []  # (line, start, end, card)
        self.labels: Labels | None = None  # the words of the game's jokers
        self.game: Game | None = None  # its names of the cards (Mighty's one joker is "JK")

    def show(self, cards: Iterable[int], active: Iterable[int], *, selecting: bool = False,
             selected: Iterable[int] = (), head: Text | None = None) -> None:
        new = list(cards)
        active_set = set(active)
        resized = len(new) != len(self.cards)
        head = head if head is not None else Text()
        same = (new == self.cards and active_set == self.active and selecting == self.selecting
                and set(selected) == self.selected and head.markup == self.head.markup)
        if self.cursor not in new:
            # its card has gone (played): the card now at its place, else the first that may be chosen
            old = self.cards.index(self.cursor) if self.cursor in self.cards else None
            if old is not None and new:
                self.cursor = new[min(old, len(new) - 1)]
            else:
                self.cursor = next((c for c in new if c in active_set), new[0] if new else None)
        if active_set and not self.active and self.cursor not in active_set and self.cursor in new:
            # a new decision begins (the last one's card gone): the playable card nearest the cursor
            at = new.index(self.cursor)
            self.cursor = min((c for c in new if c in active_set), key=lambda c: abs(new.index(c) - at))
        self.cards = new
        self.active = active_set
        self.selecting = selecting
        self.selected = set(selected)
        self.head = head
        if not same:
            self.refresh(layout=resized)

    @property
    def order(self) -> list[int]:
        """The cards the cursor visits, in order: every card of the row."""
        return list(self.cards)

    def jump(self, card: int) -> None:
        """Put the cursor on ``card`` (the person asked for it: ``h`` shows the hinted card)."""
        if card in self.cards:
            self.cursor = card
            self.refresh()

    def action_move(self, step: int) -> None:
        order = self.order
        if not order:
            return
        if self.cursor not in order:
            self.cursor = order[0]
        elif abs(step) > 1:
            self.cursor = order[0] if step < 0 else order[-1]
        else:
            self.cursor = order[(order.index(self.cursor) + step) % len(order)]
        self.refresh()
        self.post_message(self.Focused(self.cursor, self.row))

    def action_choose(self) -> None:
        if self.cursor is None:
            return
        if self.selecting and self.cursor in self.active:
            self.post_message(self.Toggled(self.cursor))
        else:
            self.post_message(self.Chosen(self.cursor, self.row))  # a refused card: the table says why

    def action_select_card(self) -> None:
        self.action_choose()

    def _lines(self, width: int) -> list[Text]:
        lines: list[Text] = [Text()]
        self._spans = []
        if self.head.cell_len:
            lines[-1].append_text(self.head)
            lines[-1].append(" ")
        for c in self.cards:
            label = card_text(self.game.card_text(c) if self.game is not None else card_str(c), self.labels)
            cell = Text(" ") + label + Text(" ")
            if c not in self.active:
                cell.stylize(theme().refused)
            else:
                cell.stylize("underline" if not self.selecting else "")
            if c in self.selected:
                cell.stylize(theme().selected)
            if c == self.cursor and self.has_focus:
                cell.stylize("reverse")
            elif c == self.cursor and self.active:  # a row with nothing to choose shows no cursor
                cell.stylize(theme().cursor)
            if lines[-1].cell_len and lines[-1].cell_len + cell.cell_len > max(8, width):
                lines.append(Text())
            start = lines[-1].cell_len
            lines[-1].append_text(cell)
            self._spans.append((len(lines) - 1, start, lines[-1].cell_len, c))
        return lines

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.content_size.width or 78))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, len(self._lines(width)))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        x = event.x - 1  # the left padding
        for line, start, end, card in self._spans:
            if line == event.y and start <= x < end:
                self.cursor = card
                self.focus()
                self.refresh()
                self.action_choose()
                return


@dataclass
class Cell:
    label: Text
    action: Action | None  # None: shown but not a legal choice now
    reason: str = ""  # why not, from the rules (said when it is tried)


class GridView(Widget, can_focus=True):
    """Rows of cells with a cursor (a bidding box, a card picker): arrows move, Enter chooses a
    legal cell (a refused one says why), a click chooses.  A row too long for the width wraps
    onto more lines, and the height counts them.  The cursor moves only by the person's keys:
    a redraw of the same box (after a refused cell, a bid of another seat) leaves it where it
    is; only a box of another shape puts it on the first legal cell."""

    DEFAULT_CSS = """
    GridView { height: auto; padding: 0 1; }
    GridView:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(0, -1)", show=False),
        Binding("right", "move(0, 1)", show=False),
        Binding("up", "move(-1, 0)", show=False),
        Binding("down", "move(1, 0)", show=False),
        Binding("enter", "choose", show=False),
        Binding("space", "choose", show=False),
    ]

    @dataclass
    class Chosen(Message):
        action: Action | None
        label: str
        reason: str = ""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = Text()
        self.rows: list[tuple[Text, list[Cell]]] = []
        self.cursor = (0, 0)
        self._width = 3
        self._head = 0
        self._spans: list[tuple[int, int, int, int, int]] = []  # (line, start, end, row, column)

    def show(self, title: Text, rows: list[tuple[Text, list[Cell]]]) -> None:
        if not rows and not self.rows:
            return
        shape = [len(r[1]) for r in rows]
        same_shape = shape == [len(r[1]) for r in self.rows]
        self.title = title
        self.rows = rows
        self._width = max([c.label.cell_len for _, cells in rows for c in cells] + [2]) + 1
        self._head = max([h.cell_len for h, _ in rows] + [0])
        if not same_shape:
            first = [(i, j) for i, (_, cells) in enumerate(rows) for j, cell in enumerate(cells) if cell.action]
            self.cursor = first[0] if first else (0, 0)
        self.refresh(layout=True)

    def action_move(self, dr: int, dc: int) -> None:
        if not self.rows:
            return
        r, c = self.cursor
        r = (r + dr) % len(self.rows)
        c = c + dc
        width = len(self.rows[r][1])
        c = c % width if width else 0
        self.cursor = (r, c)
        self.refresh()

    @property
    def current(self) -> Cell | None:
        r, c = self.cursor
        if r < len(self.rows) and c < len(self.rows[r][1]):
            return self.rows[r][1][c]
        return None

    def action_choose(self) -> None:
        cell = self.current
        if cell is not None:
            self.post_message(self.Chosen(cell.action, cell.label.plain, cell.reason))

    def _per_line(self, width: int) -> int:
        return max(1, (max(8, width) - self._head - 1) // self._width)

    def _lines(self, width: int) -> list[Text]:
        per = self._per_line(width)
        out = [self.title]
        self._spans = []
        for i, (head, cells) in enumerate(self.rows):
            for k in range(0, max(1, len(cells)), per):
                line = Text()
                if k == 0:
                    line.append_text(head)
                    line.append(" " * (self._head - head.cell_len + 1))
                else:
                    line.append(" " * (self._head + 1))
                for j in range(k, min(k + per, len(cells))):
                    cell = cells[j]
                    t = cell.label.copy()
                    t.pad_right(self._width - t.cell_len)
                    if cell.action is None:
                        t.stylize(theme().refused)
                    if (i, j) == self.cursor:
                        t.stylize("reverse" if self.has_focus else theme().cursor)
                    start = line.cell_len
                    line.append_text(t)
                    self._spans.append((len(out), start, line.cell_len, i, j))
                out.append(line)
        return out

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.content_size.width or 78))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lines(width)) if self.rows else 1

    def on_click(self, event: events.Click) -> None:
        x = event.x - 1
        for line, start, end, r, c in self._spans:
            if line == event.y and start <= x < end:
                self.cursor = (r, c)
                self.focus()
                self.refresh()
                self.action_choose()
                return

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class ChoiceBar(Widget, can_focus=True):
    """Numbered buttons that wrap over as many lines as they need: ←/→ move, Enter or the
    number chooses, a click chooses."""

    DEFAULT_CSS = """
    ChoiceBar { height: auto; padding: 0 1; }
    ChoiceBar:focus { background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("enter", "choose", show=False),
        Binding("space", "choose", show=False),
    ]

    @dataclass
    class Chosen(Message):
        index: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[Text] = []
        self.cursor = 0
        self._spans: list[tuple[int, int, int, int]] = []  # (line, start, end, index)

    def show(self, items: list[Text]) -> None:
        if [t.markup for t in items] == [t.markup for t in self.items]:
            return
        if len(items) != len(self.items):  # the same buttons redrawn keep the cursor where it is
            self.cursor = 0
        self.items = items
        self.refresh(layout=True)

    def action_move(self, step: int) -> None:
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)
            self.refresh()

    def action_choose(self) -> None:
        if self.items:
            self.post_message(self.Chosen(self.cursor))

    def _lines(self, width: int) -> list[Text]:
        lines: list[Text] = [Text()]
        self._spans = []
        for i, item in enumerate(self.items):
            key = str(i + 1) if i < 9 else "0" if i == 9 else " "
            cell = Text(f" {key} ", style="bold") + item + Text(" ")
            cell.stylize("reverse" if i == self.cursor and self.has_focus else theme().button)
            if lines[-1].cell_len and lines[-1].cell_len + 1 + cell.cell_len > max(8, width):
                lines.append(Text())
            elif lines[-1].cell_len:
                lines[-1].append(" ")
            start = lines[-1].cell_len
            lines[-1].append_text(cell)
            self._spans.append((len(lines) - 1, start, lines[-1].cell_len, i))
        return lines

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.content_size.width or 78))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._lines(width)) if self.items else 0

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        x = event.x - 1
        for line, start, end, i in self._spans:
            if line == event.y and start <= x < end:
                self.cursor = i
                self.focus()
                self.action_choose()
                return
