"""The terminal table's controls as a person uses them (Textual's pilot): a cursor moves only by
the person's keys, a button keeps its number, a refused choice says why, a hint points at its
card, a set of several cards is asked for with its rule and its range, a pile played from has a
row of its own.  Each test fails on the table as it was before issue 36 (said in each)."""

from __future__ import annotations

import asyncio
from typing import Any

from rich.console import Console

from torite.cli.tui.controls import pile_kind
from torite.cli.tui.widgets import GridView, HandView
from torite.engine.base import Action
from torite.engine.phases import Word
from torite.present.decision import phase_of

from .helpers import advance, reach, shot, table

SIZE = (80, 24)


def test_the_bidding_box_cursor_stays_where_the_person_put_it_after_a_refused_cell() -> None:
    """Mighty, Korean, seed 11: ↓ ← (13♦) Enter is refused; the cursor stayed on 13♦, so → Enter
    bids 14♦ as meant.  (Before, the redraw put the cursor on the first legal cell, 14♣, and
    → Enter bid 15♣.)"""
    app = table("mighty", 11, lang="ko")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision and v.decision.bids))
            grid = app.query_one(GridView)
            assert app.focused is grid
            await pilot.press("down", "left")
            at = grid.cursor
            cell = grid.current
            assert cell is not None and cell.action is None, "13♦ is below the ladder's legal bids"
            before = len(app.session.record.actions)
            await pilot.press("enter")
            await pilot.pause()
            assert len(app.session.record.actions) == before and app.message
            assert grid.cursor == at
            await pilot.press("right")
            meant = grid.current
            assert meant is not None and meant.action is not None
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.record.actions[before] == (0, str(meant.action))
            assert str(meant.action) == "bid 14 D"

    asyncio.run(run())


def test_call_buttons_keep_the_number_the_phase_declares_refused_ones_struck_in_place() -> None:
    """Umbridge's auction: Pass, Double, Redouble are buttons 1, 2, 3 all through it, whichever
    of them may be made.  (Before, the legal calls came first: 3 was Redouble early and Double
    later, and with Double refused Redouble was 2.)"""
    app = table("umbridge", 1)
    advance(app, lambda v: Action("redouble") in v.legal)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            v = await reach(pilot, app, lambda v: Action("redouble") in v.legal)
            phase = phase_of(v.game.phases(), v.phase)
            assert phase is not None
            declared = [Action(t.kind) for t in phase.actions if isinstance(t, Word)]
            assert [a.kind for a in declared] == ["pass", "double", "redouble"]
            labels = [t.plain for t, _ in app._buttons[:3]]
            for i, a in enumerate(declared):
                # struck out or not, a call reads the same ("Redouble", never the bare "redouble")
                assert labels[i] == app.session.labels.text(app.session.action_rich(a))
                assert app.button_actions[i] == (a if a in v.legal else None)
            assert Action("double") not in v.legal
            before = len(app.session.record.actions)
            await pilot.press("2")  # Double, struck out: says why, does nothing
            await pilot.pause()
            assert len(app.session.record.actions) == before and app.message
            await pilot.press("3")
            await pilot.pause()
            assert app.session.record.actions[before] == (0, "redouble")

    asyncio.run(run())


def test_h_puts_the_cursor_on_the_hinted_card() -> None:
    """(Before, ``h`` only said the hint: the cursor stayed where it was.)"""
    app = table("hearts", 4)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision and len(v.decision.playable) > 2
                                                   and v.phase == "play"))
            hand = app.query_one("#hand", HandView)
            hinted, _ = app.session.hint()
            others = [c for c in hand.cards if c != hinted.card]
            hand.jump(others[0])
            await pilot.press("h")
            await pilot.pause()
            assert hand.cursor == hinted.card and app.focused is hand
            before = len(app.session.record.actions)
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.record.actions[before] == (0, str(hinted))

    asyncio.run(run())


def test_a_set_of_one_to_three_cards_is_asked_with_the_games_rule_and_a_bad_set_says_why() -> None:
    """Galapagos' play-off: the game's own instruction stays above the how-to, which says the
    legal range ("1–3 cards", never "Select 3 cards" nor "1 cards"); a set the rules refuse says
    its rule.  (Before: 'Select 3 cards for "play"', no rule, "Those cards are not a legal
    choice".)"""
    app = table("glapgos", 1)
    v = advance(app, lambda v: bool(v.decision and any(
        len({m.bit_count() for m in x.combos}) > 1 for x in v.decision.multis.values())))

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await reach(pilot, app, lambda v: True)
            assert app.selecting is not None
            sizes = {m.bit_count() for m in app.decision.multis[app.selecting].combos}
            lo, hi = min(sizes), max(sizes)
            prompt = app.query_one("#prompt").content.plain  # type: ignore[attr-defined]
            said = app.seen_words
            assert said.prompt and said.labels.text(said.prompt) in prompt
            assert f"Select {lo}–{hi} cards" in prompt and "1 cards" not in prompt
            # a set no legal action makes: a refused card's set, or too few of a rank
            m = app.decision.multis[app.selecting]
            hand = app.query_one("#hand", HandView)
            pairs = [(a, b) for a in sorted(m.cards) for b in sorted(m.cards)
                     if a < b and (1 << a | 1 << b) not in m.combos]
            assert pairs, "two cards that make no legal set together"
            bad = 1 << pairs[0][0] | 1 << pairs[0][1]
            for c in pairs[0]:
                hand.jump(c)
                await pilot.press("space")
            await pilot.press("c")
            await pilot.pause()
            why = app.session.refusal(Action(app.selecting, bad))
            assert why is not None and app.message == why and why in shot(app)
            assert v.decision is not None

    asyncio.run(run())


def test_trick_of_the_deads_burial_keeps_its_prompt() -> None:
    app = table("trick-of-the-dead", 1)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision and v.decision.multis))
            said = app.seen_words
            prompt = app.query_one("#prompt").content.plain  # type: ignore[attr-defined]
            assert said.prompt and said.labels.text(said.prompt) in prompt and "Select" in prompt

    asyncio.run(run())


def dummy_turn(v: Any) -> bool:
    return bool(v.decision and pile_kind(v.decision))


def test_umbridges_dummy_is_played_from_a_row_of_its_own() -> None:
    """The dummy's cards in a row headed by its name (not a 52-card picker where a dummy card
    that may not be played looked like a card not in the dummy); a refused dummy card says why
    on the cursor; the dummy's card lies on the dummy's place and the last trick credits it to
    the dummy."""
    app = table("umbridge", 1)
    advance(app, dummy_turn)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            v = await reach(pilot, app, dummy_turn)
            d = v.decision
            assert d is not None
            kind = pile_kind(d)
            assert kind is not None
            pile = app.query_one("#pile", HandView)
            grid = app.query_one(GridView)
            dummy = next(p for p in v.piles if p.name == d.sources[kind])
            assert pile.has_class("on") and not grid.has_class("on")
            assert pile.cards == [c for c in dummy.cards or () if c is not None]
            assert pile.active == set(d.named[kind]) and app.focused is pile
            word = app.session.labels.data["maps"]["piles"]["dummy"]
            assert pile.head.plain.startswith(word)
            refused = [c for c in pile.cards if c not in pile.active]
            if refused:
                pile.jump(refused[0])
                await pilot.press("right", "left")
                await pilot.pause()
                assert app.note == app.refused_cards[refused[0]]
            card = sorted(pile.active)[0]
            while pile.cursor != card:
                await pilot.press("right")
            before = len(app.session.record.actions)
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.record.actions[before] == (0, str(d.named[kind][card]))
            # the dummy's card, on the dummy's own place and credited to it in the last trick
            await reach(pilot, app, lambda v: v.last_trick is not None and any(
                p.pile == "dummy" for p in v.last_trick.cards))
            text = shot(app)
            assert word in text
            console = Console(width=120, record=True)
            console.print(app.last_trick(app.seen, app.seen_words))
            assert f"{word} (played by" in console.export_text()

    asyncio.run(run())



def test_enter_after_a_hinted_pass_passes_it_does_not_bid_the_grids_cell() -> None:
    """Mighty, Korean, seed 1: the hint at the first bid is Pass; ``h`` puts the focus on the
    Pass button and Enter passes.  (Before, the redraw after the hint gave the focus back to the
    bidding box, and Enter bid its cell, 13♣: a bid the person never chose.)"""
    app = table("mighty", 1, lang="ko")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision and v.decision.bids))
            hinted, _ = app.session.hint()
            assert hinted == Action("pass")
            before = len(app.session.record.actions)
            await pilot.press("h")
            await pilot.pause()
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert app.session.record.actions[before] == (0, "pass")

    asyncio.run(run())


def test_the_header_names_the_round_by_the_games_word() -> None:
    """Hearts in Korean is played in deals: the header says "1번째 딜 (전체 1)" as the status rows
    and the line mode do.  (Before, "1/1라운드" over "이번 딜의 벌점".)"""
    app = table("hearts", 2, lang="ko")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision))
            screen = shot(app)
            assert "1번째 딜 (전체 1)" in screen and "1/1라운드" not in screen

    asyncio.run(run())


def test_the_summary_and_the_last_trick_name_the_round_by_the_games_word() -> None:
    """Hearts in Korean: the summary's row of the deal's points is "이번 딜", and before any trick
    the last-trick panel says "이번 딜에 …" (before: "이번 라운드" in a game of deals)."""
    app = table("hearts", 2, lang="ko")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await reach(pilot, app, lambda v: bool(v.decision))
            assert "이번 딜에 끝난 트릭이 아직 없습니다." in shot(app)
            v = await reach(pilot, app, lambda v: v.phase == "play" and len(v.hand) == 1)
            assert v.hand
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause()
                if "이번 딜" in shot(app) and "합계" in shot(app):
                    break
            screen = shot(app)
            assert "이번 딜" in screen and "이번 라운드" not in screen

    asyncio.run(run())
