"""The terminal table's layout as a person sees it (Textual's pilot): the size's own layout after a
resize, a picker's wrapped rows all in view, every status row reachable, the round summary not
over the next deal, a replay that is a replay, no colour under ``NO_COLOR``, Japanese wrapped as
Japanese is set, Korean headers whole, Ctrl+C in the player's language.  Each test fails on the
table as it was before issue 36 (said in each)."""

from __future__ import annotations

import asyncio
import random

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll

from torite.cli.tui.prose import NO_END, NO_START, wrap
from torite.cli.tui.replay import ReplayApp, ReplaySession
from torite.cli.tui.screens import PanelScreen, SummaryScreen
from torite.cli.tui.widgets import Cell, GridView, HandView
from torite.cli.tui.words import card_text
from torite.engine.base import Action
from torite.engine.registry import make_game
from torite.replay import Replay
from torite.sim import play

from .helpers import advance, reach, shot, table


def test_a_resize_applies_the_new_sizes_layout_at_once() -> None:
    """120×40 → 80×24: no side panel, the table takes the width; back: the panels, drawn.
    (Before, the handler read the old size: the 42-column panel stayed at 80×24 and came back
    empty at 120×40.)"""
    app = table("good-cop", 5)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await reach(pilot, app, lambda v: True)
            side = app.query_one("#side")
            assert side.display and app.screen.has_class("wide")
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await pilot.pause()
            assert not app.screen.has_class("wide") and app.query_one("#main").size.width == 80
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            await pilot.pause()
            assert app.screen.has_class("wide") and side.display
            assert "Score sheet" in shot(app) and "Game log" in shot(app)

    asyncio.run(run())


class _Picker(App[None]):
    def compose(self) -> ComposeResult:
        yield GridView(id="grid")


def test_a_picker_row_that_wraps_counts_its_lines_and_shows_every_row() -> None:
    """Five rows of 13 cards in a terminal too narrow for a row: each row takes two lines, the
    height counts them, every row's head and last card shows.  (Before, the height counted one
    line a row: ♦ and ♣ were out of sight, and the cursor moved into them.)"""
    app = _Picker()

    async def run() -> None:
        async with app.run_test(size=(40, 24)) as pilot:
            grid = app.query_one(GridView)
            heads = ["★", "♠", "♥", "♦", "♣"]
            rows = [(Text(h), [Cell(Text(f"{h}{r:>2}"), None) for r in range(1, 14)]) for h in heads]
            grid.show(Text("pick"), rows)
            await pilot.pause()
            lines = grid.get_content_height(None, None, grid.content_size.width)
            assert lines > 1 + len(rows)
            assert grid.size.height == lines
            text = shot(app)  # type: ignore[arg-type]
            for h in heads:
                assert f"{h}13" in text, h

    asyncio.run(run())


def test_every_status_row_shows_and_the_table_scrolls_by_keys() -> None:
    """Umbridge keeps 11 status rows (tricks, vulnerability, above and below the line, games):
    all of them are drawn, and at 80×24 PgDn scrolls the table to them.  (Before, six rows at
    most were drawn, and nothing scrolled the table by keyboard.)"""
    app = table("umbridge", 1)
    advance(app, lambda v: v.phase == "play" and len(v.legal) > 1)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot, app, lambda v: True)
            rows = app.seen_words.status
            assert len(rows) >= 10
            status = app.query_one("#status")
            assert status.size.height >= len(rows)
            main = app.query_one("#main", VerticalScroll)
            assert main.max_scroll_y > 0, "the table is taller than its place at 80×24"
            await pilot.press("pagedown")
            await pilot.pause()
            assert main.scroll_y > 0
            text = shot(app)  # type: ignore[arg-type]
            assert rows[-1].label in text

    asyncio.run(run())


def test_the_round_summary_covers_the_table_and_not_the_next_deal() -> None:
    """Kaedama, two rounds: the summary of round 1 is shown alone; the second deal (already
    dealt under it) is not drawn behind it.  (Before, the modal let the new deal's header and
    hand show through.)"""
    app = table("kaedama", 6, rounds=2)

    async def run() -> None:
        rng = random.Random(6)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                await pilot.pause()
                if isinstance(app.screen, SummaryScreen):
                    break
                if app.ui == "input":
                    app.act(rng.choice(app.session.legal()))
            assert isinstance(app.screen, SummaryScreen)
            for _ in range(3):
                await pilot.pause()
            assert app.session.view().round == 1, "the next deal is dealt"
            text = shot(app)  # type: ignore[arg-type]
            assert "Round 1 is over" in text
            assert "round 2 of 2" not in text and "Kaedama Trick ·" not in text

    asyncio.run(run())


def replay_app(game_id: str, lang: str = "en") -> ReplayApp:
    game = make_game(game_id, {})
    rec = play(game, ["random"] * game.num_players, 11, max_rounds=2, keep_record=True)[1]
    assert rec is not None
    return ReplayApp(ReplaySession(Replay(rec), lang=lang))


def test_the_replay_viewer_has_its_own_keys_no_turn_of_anyone_and_its_round_summaries() -> None:
    """? lists the replay's keys; step 0 is the deal, nobody's "your turn"; the key bar has g; the
    step a round ends at shows the round's summary; every seat's open hand is drawn.  (Before: the
    play table's keys, "Your turn to bid" at step 0, no g, no summary, hands cut after a seat.)"""
    app = replay_app("mighty")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            text = shot(app)
            assert "Your turn" not in text and "The deal." in text
            assert "g language" in app.key_hints().plain
            for seat in range(5):
                assert f"seat {seat} · random: " in text, seat
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, PanelScreen) and "whose eyes" in shot(app)
            await pilot.press("escape")
            await pilot.press("r")
            await pilot.pause()
            assert "Deal 1 is over" in shot(app)
            await pilot.press("q")

    asyncio.run(run())


def test_a_message_follows_the_language_after_g() -> None:
    """A refusal said in English is said in Japanese after ``g``.  (Before, it stayed English.)"""
    app = table("kaedama", 11)
    advance(app, lambda v: bool(v.refused_cards))

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot, app, lambda v: True)
            hand = app.query_one("#hand", HandView)
            card = next(c for c in hand.cards if c not in hand.active)
            hand.jump(card)
            await pilot.press("enter")
            await pilot.pause()
            assert app.message.startswith("You must follow suit")
            while app.session.lang != "ja":
                await pilot.press("g")
                await pilot.pause()
            why = app.session.state.refusal(0, Action("play", 1 << card))
            assert why is not None
            lab = app.session.labels
            assert app.message == lab.text(lab.reason_rich(why.rule, why.data, app.session.names()))
            assert app.message in shot(app)

    asyncio.run(run())


def test_no_color_draws_the_suits_by_symbol_and_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under NO_COLOR (Textual greys every colour: red hearts came out at about 1.3:1) the cards
    carry no colour, hearts and diamonds in bold; refused cards struck as well as dim."""
    assert "red" in str(card_text("QH").style)
    monkeypatch.setenv("NO_COLOR", "1")
    for card in ("QH", "10D", "AS", "2C"):
        style = str(card_text(card).style)
        assert "red" not in style and "magenta" not in style
    assert str(card_text("QH").style) == "bold" and str(card_text("AS").style) == ""
    app = table("kaedama", 11)
    advance(app, lambda v: bool(v.refused_cards))

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot, app, lambda v: True)
            assert app.no_color
            hand = app.query_one("#hand", HandView)
            drawn = hand.render()
            assert not any(span.style and "red" in str(span.style) for span in drawn.spans)
            assert any("strike" in str(span.style) for span in drawn.spans)

    asyncio.run(run())


JAPANESE = ("替え玉：出したカードを山札の一番上と入れ替えるか、見送るかを選んでください。"
            "「あなたの番です。」カードを選んでください（ヒントはエイチ）。")


def test_japanese_never_breaks_before_closing_punctuation() -> None:
    """At every width a line begins with no 。、」） and ends with no 「（, and fits.  (Rich's own
    folding put 。 and 」 at the start of lines.)"""
    from rich.cells import cell_len

    rich_broke = False
    for width in range(6, 60):
        lines = wrap(Text(JAPANESE), width).plain.split("\n")
        assert "".join(lines) == JAPANESE
        for i, line in enumerate(lines):
            assert cell_len(line) <= width
            if i:
                assert line[0] not in NO_START, (width, lines)
            if i < len(lines) - 1:
                assert line[-1] not in NO_END, (width, lines)
        folded = Text(JAPANESE).wrap(__import__("rich.console").console.Console(), width)
        rich_broke |= any(str(x.plain)[:1] in NO_START for x in folded)
    assert rich_broke, "the case is one Rich's folding gets wrong"


def test_japanese_roles_and_korean_headers_are_not_cut_and_ctrl_c_speaks_the_players_language() -> None:
    """Japanese role chips whole at 80×24 (before: "席1・ふつう [ディーラー…"); Korean seat names
    whole in the score sheet (before: "1번" / "자리" on two lines); Ctrl+C says how to quit in
    Japanese (before: Textual's English toast)."""
    app = table("mighty", 5, lang="ja")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await reach(pilot, app, lambda v: True)
            text = shot(app)
            for chips in app.seen_words.roles:
                for role in chips:
                    assert f"[{role}]" in text, role
            await pilot.press("ctrl+c")
            await pilot.pause()
            notes = list(app._notifications)
            assert notes and notes[-1].message == app.w["ctrl_c"] and "q" in notes[-1].message
            assert "Press" not in notes[-1].message

    asyncio.run(run())
    ko = table("mighty", 5, lang="ko")

    async def sheet() -> None:
        async with ko.run_test(size=(80, 24)) as pilot:
            await reach(pilot, ko, lambda v: True)
            await pilot.press("s")
            await pilot.pause()
            text = shot(ko)
            for seat in range(1, 5):
                assert ko.session.seat_name(seat) in text

    asyncio.run(sheet())
