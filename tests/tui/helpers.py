"""What the terminal table's tests share: a table driven to a position by a bot playing the
person's seat (through ``app.act``, as the keys would), and the screen's text."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from torite.bots import make_bot
from torite.cli.tui import Session, TableApp
from torite.cli.tui.screens import SummaryScreen
from torite.engine.registry import make_game
from torite.present.view import SeatView
from torite.sim import derive_seed


def shot(app: TableApp) -> str:
    """The screen's text (from Textual's SVG export: spaces are no-break spaces there)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def table(game_id: str, seed: int, *, lang: str = "en", rounds: int | None = 1, records: Any = None,
          options: dict[str, Any] | None = None) -> TableApp:
    game = make_game(game_id, options or {})
    session = Session(game, 0, ["normal"] * (game.num_players - 1), seed, lang=lang, max_rounds=rounds)
    return TableApp(session, records=records, bot_delay=0)


def advance(app: TableApp, want: Callable[[SeatView], bool], *, limit: int = 3000) -> SeatView:
    """Before the table runs: play every seat (the person's by the ``normal`` bot, the others
    by their own bots, as the table would) until the person decides where ``want`` holds."""
    s = app.session
    me = make_bot("normal", s.game, s.human, derive_seed(s.seed, "person", s.human))
    for _ in range(limit):
        seat = s.bot_to_act()
        if seat is not None:
            s.apply(seat, s.bot_decision(seat))
            continue
        if s.state.is_over():
            break
        v = s.view(deciding=True)
        if want(v):
            app.rounds_seen = len(v.round_scores)
            return v
        s.apply(s.human, me.act(s.observation(), s.legal()))
    raise AssertionError("the position was never reached")


async def reach(pilot: Any, app: TableApp, want: Callable[[SeatView], bool], *, limit: int = 3000) -> SeatView:
    """Play the person's seat with the ``normal`` bot until the person decides where ``want``
    holds (round summaries gone on from); the view then."""
    s = app.session
    me = make_bot("normal", s.game, s.human, derive_seed(s.seed, "person", s.human))
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, SummaryScreen):
            await pilot.press("enter")
            continue
        if app.ui != "input":
            continue
        v = s.view(deciding=True)
        if want(v):
            await pilot.pause()
            return v
        app.act(me.act(s.observation(), s.legal()))
    raise AssertionError("the position was never reached")
