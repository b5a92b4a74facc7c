"""Umbridge's claim at the terminal table (ruling U19): on lead in the last four tricks, "Claim
the rest" is a numbered button beside the hand; pressed, the claim is made and the bot answers."""

from __future__ import annotations

import asyncio

from torite.engine.base import Action

from .helpers import advance, reach, table

SIZE = (100, 30)
CLAIM = Action("claim")


def test_the_claim_is_a_button_and_pressing_it_claims() -> None:
    app = table("umbridge", 3, options={"claims": True})
    advance(app, lambda v: CLAIM in v.legal)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: CLAIM in v.legal)
            labels = [t.plain for t, _ in app._buttons]
            assert "Claim the rest" in labels
            key = str(app.button_actions.index(CLAIM) + 1)
            before = len(app.session.record.actions)
            await pilot.press(key)
            for _ in range(20):
                await pilot.pause()
            acts = app.session.record.actions[before:]
            assert acts[0] == (0, "claim") and acts[1][0] == 1 and acts[1][1] in ("accept", "refuse")

    asyncio.run(run())
