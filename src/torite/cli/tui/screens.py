"""Views over the table: a scrollable text panel (last trick, score sheet, log, keys), the rules
page, the round summary and the end of the game.  Each closes by key; none changes the game."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from torite.server.markdown import parser

from .prose import Prose


class PanelScreen(ModalScreen[None]):
    """A titled, scrollable panel; Esc, Enter or the key that opened it closes it."""

    DEFAULT_CSS = """
    PanelScreen { align: center middle; }
    PanelScreen > Vertical { width: 96%; max-width: 110; height: 90%; border: round $accent;
                             background: $surface; padding: 0 1; }
    PanelScreen .title { text-style: bold; height: 1; }
    PanelScreen .hint { color: $text-muted; height: 1; }
    PanelScreen VerticalScroll { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False), Binding("enter", "close", show=False),
        Binding("q", "close", show=False)]

    def __init__(self, title: str, body: RenderableType, hint: str, *, key: str | None = None,
                 name: str | None = None) -> None:
        super().__init__(name=name)
        self.title_text = title
        self.body = body
        self.hint = hint
        if key:
            self._bindings.bind(key, "close", show=False)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="title")
            with VerticalScroll(id="panel-body"):
                yield Static(self.body, id="panel-text")
            yield Static(self.hint, classes="hint")

    def on_mount(self) -> None:
        self.query_one("#panel-body", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class LogScreen(PanelScreen):
    """The whole log, scrolled to its end."""

    def on_mount(self) -> None:
        body = self.query_one("#panel-body", VerticalScroll)
        body.focus()
        body.scroll_end(animate=False)


class RulesScreen(ModalScreen[None]):
    """The game's rules page (Markdown, tables included), scrollable by keys."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical { width: 100%; height: 100%; border: round $accent; background: $surface; }
    RulesScreen VerticalScroll { height: 1fr; }
    RulesScreen .hint { color: $text-muted; height: 1; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False), Binding("q", "close", show=False),
                Binding("r", "close", show=False)]

    def __init__(self, page: str, hint: str) -> None:
        super().__init__()
        self.page = page
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll(id="rules-body"):
                yield Markdown(self.page, id="rules-md", parser_factory=parser, open_links=False)
            yield Static(self.hint, classes="hint")

    def on_mount(self) -> None:
        self.query_one("#rules-body", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class SummaryScreen(ModalScreen[bool]):
    """The round summary, or the end of the game: Enter goes on (False from q: quit).  It covers
    the table (an opaque background): under it the next deal is already dealt, which is not
    shown until the person goes on."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; background: $background; }
    SummaryScreen > Vertical { width: auto; min-width: 40; max-width: 96%; height: auto; max-height: 90%;
                               border: double $accent; background: $surface; padding: 0 2; }
    SummaryScreen .title { text-style: bold; height: 1; }
    SummaryScreen .hint { color: $text-muted; height: 1; }
    SummaryScreen VerticalScroll { height: auto; max-height: 18; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go", show=False), Binding("space", "go", show=False),
                Binding("escape", "go", show=False), Binding("q", "quit_game", show=False)]

    def __init__(self, title: str, body: RenderableType, hint: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), classes="title")
            with VerticalScroll():
                yield Static(self.body, id="summary-body")
            yield Static(self.hint, classes="hint")

    def action_go(self) -> None:
        self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question over the table (quit?): y or Enter says yes, n or Esc no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; max-width: 90%; height: auto; border: double $warning;
                               background: $surface; padding: 0 2; }
    ConfirmScreen .hint { color: $text-muted; height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", show=False), Binding("enter", "answer(True)", show=False),
        Binding("q", "answer(True)", show=False),
        Binding("n", "answer(False)", show=False), Binding("escape", "answer(False)", show=False)]

    def __init__(self, question: str, hint: str) -> None:
        super().__init__()
        self.question = question
        self.hint = hint

    def compose(self) -> ComposeResult:
        with Vertical():
            question = Prose(id="question")  # Japanese broken as it is set, not mid-word at any character
            question.update(Text(self.question))
            yield question
            yield Static(self.hint, classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
