"""``torite play --resume`` in the Textual table: a game quit with q (and y) goes on from its
record where it stopped, its log read from the start, its bots where they were: the same moves
of the person give the very game an unbroken table gives."""

from __future__ import annotations

import asyncio
from pathlib import Path

from torite.cli.resume import resume
from torite.cli.tui import Session, TableApp
from torite.cli.tui.screens import ConfirmScreen, SummaryScreen
from torite.engine.registry import make_game


async def first_choices(pilot: object, app: TableApp, moves: int | None) -> None:
    """The person takes the first legal action ``moves`` times (None: to the end)."""
    done = 0
    for _ in range(4000):
        await pilot.pause()  # type: ignore[attr-defined]
        if isinstance(app.screen, SummaryScreen):
            if app.ui == "over":
                return
            await pilot.press("enter")  # type: ignore[attr-defined]
            continue
        if app.ui != "input":
            continue
        if moves is not None and done >= moves:
            return
        app.act(app.session.legal()[0])
        done += 1
    raise AssertionError("the game did not come back to the person")


def test_a_game_quit_in_the_table_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    game = make_game("kaedama")
    whole = Session(game, 0, ["normal"] * 2, 9, max_rounds=1)  # the unbroken game, played as the table plays it
    while not whole.state.is_over():
        seat = whole.bot_to_act()
        if seat is not None:
            whole.apply(seat, whole.bot_decision(seat))
        else:
            whole.apply(0, whole.legal()[0])
    cut = TableApp(Session(game, 0, ["normal"] * 2, 9, max_rounds=1), records=tmp_path / "cut", bot_delay=0)

    async def run() -> None:
        async with cut.run_test(size=(80, 24)) as pilot:
            await first_choices(pilot, cut, 5)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(cut.screen, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()

    asyncio.run(run())
    saved = tmp_path / "cut" / "kaedama-9.json"
    res = resume(saved)
    assert res.state.to_act() == cut.session.state.to_act()
    session = Session.resumed(res)
    assert [x.text for x in session.log] == [x.text for x in cut.session.log]  # read from the start
    again = TableApp(session, records=None, bot_delay=0)

    async def go_on() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await first_choices(pilot, again, None)

    asyncio.run(go_on())
    assert again.saved == saved
    assert again.session.record.to_json() == {**whole.record.to_json(), "result": whole.state.result().to_json()}
