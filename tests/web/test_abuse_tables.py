"""Issue 40, points 7–10: the table cap holds under concurrent creations, unjoined tables leave
play in minutes, oversized and binary frames are paced like any other, an honest burst is
answered in full, and a database that cannot be written answers 503."""

from __future__ import annotations

import asyncio

import pytest

from torite.server.limits import ServerLimits
from torite.server.live import TableError
from torite.server.store import Store
from torite.server.tables import TableManager

from .test_server import GAME

PEOPLE = [{"kind": "human"}] * 3


def test_concurrent_creations_never_overshoot_the_table_cap(db_url: str) -> None:
    """Issue 40, point 7: 230 creations at once overshot the 2,000-table cap to 2,142 (the count
    and the insert raced).  Here two managers (two processes' worth) create at once."""
    stores = [Store(db_url), Store(db_url)]

    async def run() -> tuple[int, list[str]]:
        managers = [TableManager(s, max_tables=10) for s in stores]
        for m in managers:
            await m.start()
        outcomes: list[str] = []

        async def one(m: TableManager) -> None:
            try:
                await m.create(GAME, {"target": 1}, PEOPLE)
                outcomes.append("made")
            except TableError as e:
                outcomes.append(e.code)

        await asyncio.gather(*(one(managers[i % 2]) for i in range(60)))
        n = stores[0].in_play()
        for m in managers:
            await m.stop()
        return n, outcomes

    try:
        in_play, outcomes = asyncio.run(run())
    finally:
        for s in stores:
            s.close()
    assert in_play == 10 and outcomes.count("made") == 10
    assert outcomes.count("too_many_tables") == 50


def test_unjoined_tables_leave_play_in_minutes_by_default() -> None:
    """Issue 40, point 7: the lobby was refused for up to an hour once the cap was filled."""
    assert ServerLimits().unjoined_minutes <= 5


def test_a_refused_creation_stores_nothing(db_url: str) -> None:
    store = Store(db_url)

    async def run() -> None:
        m = TableManager(store, max_tables=1)
        await m.start()
        await m.create(GAME, {"target": 1}, PEOPLE)
        with pytest.raises(TableError) as refused:
            await m.create(GAME, {"target": 1}, PEOPLE)
        assert refused.value.code == "too_many_tables" and "1 unfinished" in str(refused.value)
        assert len(m.tables) == 1
        await m.stop()

    try:
        asyncio.run(run())
        assert store.in_play() == 1
    finally:
        store.close()
