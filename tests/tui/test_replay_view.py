"""``torite replay FILE --view``: the terminal table over a record's steps, driven by its keys
through Textual's pilot: ←/→ step, ``t``/``r`` the next trick and round, ``v`` whose eyes; each
step shows what a fresh replay to that step shows that viewer, nothing more."""

from __future__ import annotations

import asyncio
import html

from torite.cli.tui.replay import ReplayApp, ReplaySession
from torite.engine.registry import make_game
from torite.record import Record, replay
from torite.replay import OPEN, Replay
from torite.sim import play


def shot(app: ReplayApp) -> str:
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def test_the_terminal_replay_steps_jumps_and_changes_whose_eyes() -> None:
    game = make_game("mighty", {})
    rec = play(game, ["random"] * 5, 11, max_rounds=1, keep_record=True)[1]
    assert rec is not None
    rp = Replay(rec)
    session = ReplaySession(rp)
    app = ReplayApp(session)

    def fresh(k: int) -> Record:
        data = rec.to_json()
        return Record.from_json({**data, "actions": data["actions"][:k], "result": None})

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert session.step == 0 and session.viewer == OPEN
            assert "step 0 of" in shot(app)
            for _ in range(3):
                await pilot.press("right")
            await pilot.press("left")
            assert session.step == 2
            want = replay(fresh(2), check_result=False)
            assert session.observation()["hands"] == [want.observation(s)["hand"] for s in range(5)]
            await pilot.press("t")
            assert session.step == rp.tricks()[0]
            await pilot.press("r")
            assert session.step == rp.rounds()[0] == rp.steps
            assert "Game over" in shot(app)
            await pilot.press("home")
            for _ in range(4):
                await pilot.press("right")
            await pilot.press("v")  # every hand open → seat 0
            assert session.viewer == 0
            want = replay(fresh(4), check_result=False)
            assert session.observation() == want.observation(0)
            # seat 0's table shows seat 0's hand and no other seat's
            screen = shot(app)
            assert "every hand open" not in screen
            for _ in range(5):
                await pilot.press("v")
            assert session.viewer is None  # a spectator: no hand at all
            assert session.observation() == want.observation(None)
            await pilot.press("q")

    asyncio.run(run())
