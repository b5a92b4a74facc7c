"""Make the README's screenshot of the terminal table: a mid-trick position, as Textual's SVG.

    .venv/bin/python scripts/tui_screenshot.py [--game trick-of-the-dead] [--seed 3] [--size 120x32]
                                               [--lang en] [--out docs/tui.svg]

The person's seat is played by the ``normal`` bot until, a few tricks into the round, it is the
person's turn with cards already in the trick; the table is then saved as it looks.  The same
arguments give the same picture.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from torite.bots import make_bot
from torite.cli.tui import Session, TableApp
from torite.engine.registry import make_game
from torite.sim import derive_seed


async def shoot(game_id: str, seed: int, size: tuple[int, int], lang: str, out: Path, tricks: int) -> None:
    game = make_game(game_id)
    n = game.num_players
    session = Session(game, 0, ["normal"] * (n - 1), seed, lang=lang)
    me = make_bot("normal", game, 0, derive_seed(seed, "person", 0))
    app = TableApp(session, records=None, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(5000):
            await pilot.pause()
            if app.ui == "summary":
                await pilot.press("enter")
                continue
            if app.ui != "input":
                continue
            obs = session.observation()
            if obs.get("trick") and len(obs.get("tricks") or []) >= tricks and app.decision.singles:
                break
            app.act(me.act(obs, session.legal()))
        else:
            raise SystemExit("no mid-trick position found; try another --seed")
        await pilot.pause()
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(app.export_screenshot(title=f"torite play {game_id}"), encoding="utf-8")
    print(f"{out}: {game_id}, seed {seed}, {size[0]}x{size[1]}, {lang}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="trick-of-the-dead")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--size", default="120x32", help="columns x rows")
    p.add_argument("--lang", default="en")
    p.add_argument("--tricks", type=int, default=4, help="finished tricks before the picture")
    p.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "tui.svg"))
    a = p.parse_args()
    cols, _, rows = a.size.partition("x")
    asyncio.run(shoot(a.game, a.seed, (int(cols), int(rows)), a.lang, Path(a.out), a.tricks))


if __name__ == "__main__":
    main()
