"""The three faces draw one view: at random decisions of every game, the web table's state message,
the Textual table (through its pilot) and the line mode show the same hand in the same order, the
same trick, the same choices and the same refusals, each as the seat's view
(:func:`torite.present.view.view`) holds them.  A face that assembled its own picture from the
observation again (the hand sorted its own way, a card cut out of an action's text, a refusal
asked of the rules a second time) would disagree here."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from torite.cards import parse_card
from torite.cli.terminal import WORDS, decision_lines, ordered, read_action
from torite.cli.tui import Session, TableApp
from torite.cli.tui.screens import SummaryScreen
from torite.cli.tui.widgets import GridView, HandView
from torite.engine.base import IllegalAction
from torite.engine.registry import game_ids, make_game
from torite.present.view import SeatView, view, words
from torite.server.live import LiveTable, Seat

#: decisions checked a game (random play between them)
CHECKS = 6


async def settle(pilot: Any, app: TableApp) -> None:
    for _ in range(3000):
        if app.ui == "input" and not isinstance(app.screen, SummaryScreen):
            return
        if isinstance(app.screen, SummaryScreen):
            if app.ui == "over":
                return
            await pilot.press("enter")
        await pilot.pause()
    raise AssertionError("the table never came back to the person")


def web_message(state: Any, seat: int) -> dict[str, Any]:
    n = state.game.num_players
    seats = [Seat("human", None, "", None)] + [Seat("bot", "random", "", None) for _ in range(n - 1)]
    table = LiveTable(id="t", game=state.game, state=state, seed=0, seats=seats, settings={}, created=0.0)
    return table.view(seat, lang="en")


def check_agreement(app: TableApp, v: SeatView) -> None:
    game = v.game
    lab = app.session.labels
    m = web_message(app.session.state, 0)
    said = words(v, "en", app.session.names(), you=0)
    lines = decision_lines(v, said, WORDS["en"], app.session.seat_name)
    hand = app.query_one(HandView)
    # the hand: one order everywhere
    assert [parse_card(c) for c in m["hand"]] == list(v.hand) == hand.cards
    names = [lab.card_text(game.card_text(c), spoken=True) for c in v.hand]
    hand_line = next(x for x in lines if x.startswith("  your hand: "))
    assert hand_line == "  your hand: " + lab.word("card_sep").join(names)
    # the trick as it lies
    assert [(e["seat"], None if e["card"] is None else parse_card(e["card"])) for e in m["trick"]["cards"]] \
        == [(p.seat, p.card) for p in v.trick.cards]
    if v.trick.cards:
        trick_line = next(x for x in lines if x.startswith("  trick: "))
        for p in v.trick.cards:
            assert lab.card_text(None if p.card is None else game.card_text(p.card), spoken=True) in trick_line
    # the choices: the web's legal actions, the line mode's numbered list, the Textual controls
    listed = ordered(v)
    assert {a["text"] for a in m["legal"]} == {game.action_text(a) for a in listed} == \
        {game.action_text(a) for a in app.legal}
    choose = lines[-1]
    for i, a in enumerate(listed):
        assert f"{i + 1}) {lab.action_text(a, spoken=True)}" in choose
    singles = {parse_card(c) for cards in m["decision"]["singles"].values() for c in cards}
    d = v.decision
    assert d is not None and singles == d.playable
    if app.selecting is None:
        assert hand.active == singles
    in_hand = [a for a in listed if a.cards.bit_count() == 1 and a.card in v.hand]
    assert [a.card for a in in_hand] == [c for c in v.hand if c in {a.card for a in in_hand}], "numbered in hand order"
    grid = app.query_one(GridView)
    if d.bids:
        cells = {cell.action for _, row in grid.rows for cell in row if cell.action is not None}
        texts = set(next(iter(m["decision"]["bids"].values()))["cells"].values())
        assert {game.action_text(a) for a in cells} == texts
    # refusals: the same cards refused, for the same reason, in every face
    web_refused = {parse_card(c): r["en"] for c, r in m["reasons"]["cards"].items()}
    assert set(web_refused) == set(v.refused_cards) == set(app.refused_cards)
    for c, rich in web_refused.items():
        assert app.refused_cards[c] == lab.text(rich)
        card = game.card_text(c)
        try:
            read_action(card, listed, game, WORDS["en"], lab, app.session.state, 0)
        except IllegalAction as e:
            if v.refused_cards[c].rule != "not_now":  # "not now" says no more than the refusal itself
                assert lab.text(rich, spoken=True) in str(e), f"the line mode refuses {card} without its rule"
        else:
            raise AssertionError(f"the line mode took the refused {card}")
    assert {a: lab.text(r) for a, r in said.refused_actions.items()} == app.refused_actions


@pytest.mark.parametrize("game_id", game_ids())
def test_the_web_table_the_textual_table_and_the_line_mode_draw_one_view(game_id: str) -> None:
    game = make_game(game_id, {})
    n = game.num_players
    session = Session(game, 0, ["random"] * (n - 1), 11, max_rounds=2)
    app = TableApp(session, records=None, bot_delay=0)
    rng = random.Random(game_id)

    async def run() -> int:
        checked = 0
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                if app.ui == "over" or session.state.is_over():
                    break
                await pilot.pause()
                v = view(session.state, 0, deciding=True)
                if rng.random() < 0.3 or checked < 2:
                    check_agreement(app, v)
                    checked += 1
                    if checked >= CHECKS:
                        break
                app.act(rng.choice(list(v.legal)))
        return checked

    assert asyncio.run(run()) >= 2


def test_a_card_typed_with_its_rank_and_suit_apart_is_the_card() -> None:
    """The documented way of typing a card in the line mode (``10 D``, ``q s``), which the rules'
    notation would read as a rank and a suit argument."""
    game = make_game("hearts", {})
    state = game.new_state(seed=1)
    seat = state.to_act()[0]
    while state.observation(seat)["phase"] != "play":  # the passes first
        state.apply(seat, state.legal_actions(seat)[0])
        seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    card = legal[0].card
    text = game.card_text(card)
    rank, suit = text[:-1], text[-1]
    for typed in (f"{rank} {suit}", f"{rank.lower()} {suit.lower()}", f"play {rank} {suit}", text):
        assert read_action(typed, legal, game) == legal[0], typed


def test_the_seat_deciding_reads_its_instruction_once() -> None:
    """Kaedama's phase has a status row named after it ("kaedama: swap the card you played…"):
    every other seat reads it there, the seat deciding reads it in its prompt only (the web, the
    Textual table and the line mode said it twice, the Japanese table word for word)."""
    game = make_game("kaedama", {"rounds": 1})
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while state.phase != "kaedama":
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    decider = state.to_act()[0]
    other = next(s for s in range(game.num_players) if s not in state.to_act())
    for lang in ("en", "ja", "ko"):
        mine = words(view(state, decider), lang, you=decider)
        theirs = words(view(state, other), lang, you=other)
        assert mine.prompt
        phase_rows = [r for r in theirs.status if r.label and theirs.phase.lower().startswith(r.label.lower())]
        assert phase_rows, (lang, [r.label for r in theirs.status])  # the bystander is told what is going on
        assert not [r for r in mine.status if r.label == phase_rows[0].label], lang
        assert len(mine.status) == len(theirs.status) - 1  # nothing else is dropped
