"""The terminal table, driven by keypresses through Textual's pilot in an 80×24 terminal.

A scripted person picks a legal action at random (seeded) and enters it with the keys a player
would press: arrows and Enter on the hand, Space and ``c`` to select and confirm several cards,
arrows and Enter in a bidding box or card picker, the number of a button.  Each pick must be
exactly the action the game records, so a wrong key mapping fails here.
"""

from __future__ import annotations

import asyncio
import html
import random
import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from torite.cli.tui import Session, TableApp
from torite.cli.tui.controls import pile_kind
from torite.cli.tui.screens import ConfirmScreen, LogScreen, PanelScreen, RulesScreen, SummaryScreen
from torite.cli.tui.widgets import ChoiceBar, GridView, HandView
from torite.cli.tui.words import words
from torite.engine.base import Action
from torite.engine.registry import game_class, game_ids, make_game
from torite.present.labels import languages
from torite.record import Record, replay

SIZE = (80, 24)


def shot(app: TableApp) -> str:
    """The screen's text (from Textual's SVG export: spaces are no-break spaces there)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def short_options(game_id: str) -> dict[str, Any]:
    """Options that keep a game small where a game has them (one round is played anyway)."""
    return {}


async def settle(pilot: Any, app: TableApp, limit: int = 2000) -> None:
    """Wait until the bots are done and the table waits for the person (or shows a view)."""
    for _ in range(limit):
        if app.ui == "input" and not isinstance(app.screen, SummaryScreen):
            return
        if app.ui in ("summary", "over") and isinstance(app.screen, SummaryScreen):
            return
        await pilot.pause()
    raise AssertionError("the table never came back to the person")


def hand_steps(hand: HandView, frm: int | None, to: int) -> tuple[str, int]:
    """The shorter way round the cards that may be chosen, as (key, presses)."""
    order = hand.order
    i = order.index(frm) if frm in order else 0
    j = order.index(to)
    right = (j - i) % len(order)
    return ("right", right) if right <= len(order) - right else ("left", len(order) - right)


def grid_steps(grid: GridView, to: tuple[int, int]) -> list[str]:
    (r, c), (tr, tc) = grid.cursor, to
    rows = len(grid.rows)
    down = (tr - r) % rows
    keys = ["down"] * down if down <= rows - down else ["up"] * (rows - down)
    width = len(grid.rows[tr][1])
    c = min(c, width - 1) if width else 0
    right = (tc - c) % width
    keys += ["right"] * right if right <= width - right else ["left"] * (width - right)
    return keys


def cost(app: TableApp, action: Action) -> int:
    """Keypresses the action takes from where the cursors are now."""
    d = app.decision
    hand = app.query_one("#hand", HandView)
    pile = app.query_one("#pile", HandView)
    grid = app.query_one(GridView)
    if action in app.button_actions:
        return 1
    if action.kind == pile_kind(d):
        return hand_steps(pile, pile.cursor, action.card)[1] + 1
    if any(mp.get(action.card) == action for mp in d.singles.values()):
        return hand_steps(hand, hand.cursor, action.card)[1] + 1
    if action.kind in d.multis:
        at, n = hand.cursor, 2 if app.selecting != action.kind else 1
        for c in [c for c in hand.order if action.cards >> c & 1] if app.selecting == action.kind else []:
            n += hand_steps(hand, at, c)[1] + 1
            at = c
        return n
    where = [(r, c) for r, (_, cells) in enumerate(grid.rows) for c, cell in enumerate(cells) if cell.action == action]
    return len(grid_steps(grid, where[0])) + 1 if where else 99


async def move_hand(pilot: Any, hand: HandView, card: int) -> None:
    key, n = hand_steps(hand, hand.cursor, card)  # every card is on the way: the refused ones too
    for _ in range(n):
        await pilot.press(key)
    assert hand.cursor == card


async def enter(pilot: Any, app: TableApp, action: Action) -> None:
    """The keys for ``action`` on the table as drawn now."""
    d = app.decision
    hand = app.query_one("#hand", HandView)
    pile = app.query_one("#pile", HandView)
    grid = app.query_one(GridView)
    buttons = app.button_actions
    if action in buttons:
        i = buttons.index(action)
        if i < 10:
            await pilot.press(str(i + 1) if i < 9 else "0")
            return
        bar = app.query_one(ChoiceBar)  # past ten: Tab to the buttons, arrows, Enter
        for _ in range(4):
            if app.focused is bar:
                break
            await pilot.press("tab")
        assert app.focused is bar
        while bar.cursor != i:
            await pilot.press("right")
        await pilot.press("enter")
        return
    for mp in d.singles.values():
        if action.card in mp and mp[action.card] == action:
            assert app.focused is hand
            await move_hand(pilot, hand, action.card)
            await pilot.press("enter")
            return
    if action.kind == pile_kind(d):  # a card of a pile played from (the dummy): its own row
        assert app.focused is pile
        await move_hand(pilot, pile, action.card)
        await pilot.press("enter")
        return
    if action.kind in d.multis:
        if app.selecting != action.kind:
            labels = [t.plain for t, _ in app._buttons]
            i = next(k for k, t in enumerate(labels) if t.startswith(app.session.labels.action_label(action.kind)))
            await pilot.press(str(i + 1))
        assert app.selecting == action.kind
        for c in [c for c in hand.order if action.cards >> c & 1]:
            await move_hand(pilot, hand, c)
            await pilot.press("space")
        await pilot.press("c")
        return
    assert grid.has_class("on"), f"no control for {action}"
    where = [(r, c) for r, (_, cells) in enumerate(grid.rows) for c, cell in enumerate(cells) if cell.action == action]
    assert len(where) == 1, f"{action} is not in the grid once"
    assert app.focused is grid
    for key in grid_steps(grid, where[0]):
        await pilot.press(key)
    assert grid.cursor == where[0]
    await pilot.press("enter")


def pick(app: TableApp, legal: list[Action], rng: random.Random) -> Action:
    """A random legal action a few keys away, half the time the nearest (every control still
    gets used; walking the whole hand each time would only make the test slow)."""
    costs = [cost(app, a) for a in legal]
    best = min(costs)
    reach = best if rng.random() < 0.5 else max(best, 3)
    near = [a for a, c in zip(legal, costs) if c <= reach]
    return near[rng.randrange(len(near))]


async def play_by_keys(game_id: str, lang: str, seed: int, tmp: Path, *, rounds: int = 1,
                       shots: list[str] | None = None) -> tuple[TableApp, list[Action]]:
    game = make_game(game_id, short_options(game_id))
    n = game.num_players
    session = Session(game, seed % n, ["random"] * (n - 1), seed, lang=lang, max_rounds=rounds)
    app = TableApp(session, records=tmp, bot_delay=0)
    app.first_shots = []  # type: ignore[attr-defined]
    rng = random.Random(seed)
    chosen: list[Action] = []
    kinds_seen: set[str] = set()
    summaries = 0
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2000):
            await settle(pilot, app)
            if app.ui in ("summary", "over"):
                if app.ui == "summary":
                    summaries += 1
                await pilot.press("enter")
                await pilot.pause()
                if app.ui == "over" or app.return_value is not None:
                    break
                continue
            legal = session.legal()
            assert legal, "the table waits for the person, who has no choice"
            action = pick(app, legal, rng)
            before = len(session.record.actions)
            await enter(pilot, app, action)  # the key's handler has applied it when press returns
            mine = [a for s, a in session.record.actions[before:] if s == session.human]
            assert mine[:1] == [str(action)], f"pressed for {action}, got {mine[:1]}"
            if shots is not None or not chosen:
                (shots if shots is not None else app.first_shots).append(shot(app))
            elif action.kind not in kinds_seen:  # each kind of decision once, as drawn after it
                app.first_shots.append(shot(app))  # type: ignore[attr-defined]
            kinds_seen.add(action.kind)
            chosen.append(action)
        else:
            raise AssertionError("the game did not end")
    assert summaries == rounds - 1
    return app, chosen


def params() -> list[Any]:
    out = []
    for gid in game_ids():
        langs = languages(game_class(gid))
        out.extend(pytest.param(gid, lang, id=f"{gid}-{lang}") for lang in ("en", "ja") if lang in langs)
    # Korean: Mighty, with a bidding box, a card picker and the most words of its own (every game's
    # Korean texts are read by the conformance suite's guard)
    out.extend(pytest.param(gid, "ko", id=f"{gid}-ko") for gid in ("mighty",) if gid in game_ids())
    return out


#: the action notation, which no screen of the table may show (a card, a joker, a contract)
NOTATION = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9JQKA])[CDHS]|JK\d?|\d+ (?:NT|[CDHS]))(?![A-Za-z0-9])")


#: the table's own English words, which must not show in another language
ENGLISH = ("Your turn", "Waiting for", "cards ", "tricks ", " pts", "last trick", "scores", "quit")


@pytest.mark.parametrize(("game_id", "lang"), params())
def test_a_whole_game_is_played_by_keypresses_at_80x24(game_id: str, lang: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """...in that language only, and drawn from the person's own view: on the app's thread no
    other seat's observation or choices are ever read (the bots read theirs, off it)."""
    game = make_game(game_id, short_options(game_id))
    reads = watch_reads(type(game.new_state(0)), monkeypatch)
    app, chosen = asyncio.run(play_by_keys(game_id, lang, 7, tmp_path))
    rec = app.return_value
    assert isinstance(rec, Record) and rec.result is not None
    assert chosen, "the person never decided"
    saved = tmp_path / f"{game_id}-7.json"
    assert saved.exists()
    state = replay(Record.load(saved))
    assert state.is_over()
    first = app.first_shots[0]  # type: ignore[attr-defined]
    for screen in app.first_shots:  # type: ignore[attr-defined]
        assert not NOTATION.search(screen), NOTATION.findall(screen)
    assert app.session.labels.title in first
    assert words(lang)["k_rules"] in first
    if lang != "en":
        for english in ENGLISH:
            assert english not in first, english
    assert reads and set(reads) == {app.session.human}


def watch_reads(state_cls: type[Any], monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The seats whose observation or legal actions the app's own thread reads."""
    import threading

    reads: list[int | None] = []
    main = threading.main_thread()
    real_obs, real_legal = state_cls.observation, state_cls.legal_actions

    def observation(self: Any, seat: int | None) -> dict[str, Any]:
        if threading.current_thread() is main:
            reads.append(seat)
        return real_obs(self, seat)  # type: ignore[no-any-return]

    def legal_actions(self: Any, seat: int) -> list[Action]:
        if threading.current_thread() is main:
            reads.append(seat)
        return real_legal(self, seat)  # type: ignore[no-any-return]

    monkeypatch.setattr(state_cls, "observation", observation)
    monkeypatch.setattr(state_cls, "legal_actions", legal_actions)
    return reads


def test_rounds_end_with_a_summary_enter_goes_on_and_q_ends_the_game_there(tmp_path: Path) -> None:
    async def run() -> TableApp:
        game = make_game("kaedama")
        app = TableApp(Session(game, 0, ["random", "random"], 6, max_rounds=3), records=tmp_path, bot_delay=0)
        rng = random.Random(6)
        summaries = 0
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(300):
                await settle(pilot, app)
                if app.ui == "summary":
                    summaries += 1
                    assert f"Round {summaries} is over" in shot(app)
                    await pilot.press("enter" if summaries == 1 else "q")
                    await pilot.pause()
                    if summaries == 2:
                        break
                    continue
                await enter(pilot, app, pick(app, app.session.legal(), rng))
        return app

    app = asyncio.run(run())
    rec = app.return_value
    assert isinstance(rec, Record) and rec.result is None
    state = replay(Record.load(tmp_path / "kaedama-6.json"))
    assert not state.is_over() and len(state.observation(0)["round_scores"]) == 2


def test_quitting_saves_an_unfinished_record_that_replays(tmp_path: Path) -> None:
    async def run() -> TableApp:
        game = make_game("trick-of-the-dead")
        app = TableApp(Session(game, 0, ["random", "random"], 4), records=tmp_path, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("q")  # asks first: n (or Esc) goes back to the table, y quits
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen) and "--resume" in shot(app)
            await pilot.press("n")
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen) and app.return_value is None
            assert not (tmp_path / "trick-of-the-dead-4.json").exists()
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        return app

    app = asyncio.run(run())
    rec = app.return_value
    assert isinstance(rec, Record) and rec.result is None
    assert replay(Record.load(tmp_path / "trick-of-the-dead-4.json")).is_over() is False


def test_a_card_that_may_not_be_played_is_reached_by_the_arrows_says_the_rule_and_nothing_changes(
        tmp_path: Path) -> None:
    """The arrows reach every card of the hand, the refused ones too: the cursor on one says
    why at once (as the web table says it on focus), Enter on it plays nothing and says it again,
    in the rules' words.  (Before, ←/→ skipped the dimmed cards: only a click told why.)"""
    async def run() -> None:
        game = make_game("kaedama")
        session = Session(game, 0, ["random", "random"], 11, max_rounds=1)
        app = TableApp(session, records=None, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(40):
                await settle(pilot, app)
                hand = app.query_one("#hand", HandView)
                if app.ui == "input" and set(hand.cards) - hand.active:
                    assert hand.active == app.decision.playable and hand.order == hand.cards
                    before = len(session.record.actions)
                    card = next(c for c in hand.cards if c not in hand.active)
                    await move_hand(pilot, hand, card)
                    why = session.state.refusal(0, Action("play", 1 << card))
                    assert why is not None and why.rule == "follow"
                    said = session.labels.text(session.labels.reason_rich(why.rule, why.data))
                    assert said.startswith("You must follow suit")
                    await pilot.pause()
                    assert app.note == said and said in shot(app)  # on focus, before Enter
                    await pilot.press("enter")
                    await pilot.pause()
                    assert len(session.record.actions) == before
                    assert app.message == said and said in shot(app)
                    await pilot.press("right")  # on to a card that may be played: the note goes
                    while hand.cursor not in hand.active:
                        await pilot.press("right")
                    assert app.note == ""
                    return
                if app.ui != "input":
                    return
                legal = session.legal()
                await enter(pilot, app, legal[0])
            pytest.skip("no hand with an unplayable card in this deal")

    asyncio.run(run())


def test_side_views_open_and_close_by_key(tmp_path: Path) -> None:
    async def run() -> None:
        game = make_game("trick-of-the-dead")
        app = TableApp(Session(game, 0, ["random", "random"], 5, max_rounds=1), records=None, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            base = app.screen
            for key, kind, word in (("t", PanelScreen, "Last trick"), ("s", PanelScreen, "Score sheet"),
                                    ("l", LogScreen, "Game log"), ("question_mark", PanelScreen, "Keys")):
                await pilot.press(key)
                await pilot.pause()
                assert isinstance(app.screen, kind) and app.screen.title_text == word
                await pilot.press("escape")
                await pilot.pause()
                assert app.screen is base
            await pilot.press("g")
            await pilot.pause()
            lang = app.session.lang
            assert lang != "en" and app.session.labels.lang == lang
            assert app.session.labels.title in str(app.query_one("#top", Static).content)

    asyncio.run(run())


def test_a_wide_terminal_shows_the_side_panels_beside_the_table(tmp_path: Path) -> None:
    async def run() -> None:
        game = make_game("good-cop")
        app = TableApp(Session(game, 0, ["random"] * 3, 5, max_rounds=1), records=None, bot_delay=0)
        async with app.run_test(size=(130, 36)) as pilot:
            await settle(pilot, app)
            assert app.query_one("#side").display
            text = shot(app)
            assert "Score sheet" in text and "Last trick" in text and "Game log" in text

    asyncio.run(run())


def test_a_game_is_played_in_korean_where_the_game_has_korean_words(tmp_path: Path) -> None:
    with_ko = [g for g in game_ids() if "ko" in languages(game_class(g))]
    assert with_ko, "every shipped game has Korean words"
    shots: list[str] = []
    app, _ = asyncio.run(play_by_keys(with_ko[0], "ko", 5, tmp_path, shots=shots))
    assert app.return_value is not None
    text = "\n".join(shots)
    assert app.session.labels.title in text and "차례" in text


def test_the_rules_view_shows_japanese_bold_as_bold_not_asterisks(tmp_path: Path) -> None:
    async def run() -> str:
        game = make_game("kaedama")
        app = TableApp(Session(game, 0, ["random", "random"], 1, lang="ja", max_rounds=1), records=None, bot_delay=0)
        async with app.run_test(size=(100, 50)) as pilot:
            await settle(pilot, app)
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen) and "替え玉トリック" in app.screen.page
            text = shot(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, RulesScreen)
            return text

    text = asyncio.run(run())
    assert "替え玉" in text and "**" not in text


def test_the_same_seed_and_keys_give_the_same_game_bit_for_bit(tmp_path: Path) -> None:
    records = []
    for i in range(2):
        app, _ = asyncio.run(play_by_keys("kaedama", "en", 9, tmp_path / str(i)))
        assert isinstance(app.return_value, Record)
        records.append(app.return_value.to_json())
    assert records[0] == records[1]


def test_h_gives_the_normal_bots_hint_and_the_record_counts_it(tmp_path: Path) -> None:
    async def run() -> TableApp:
        game = make_game("hearts")
        app = TableApp(Session(game, 0, ["random"] * 3, 8, max_rounds=1), records=tmp_path, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await pilot.press("h")
            await pilot.pause()
            assert app.message.startswith("Hint: ") and app.message in shot(app)
            await pilot.press("q", "y")
            await pilot.pause()
        return app

    app = asyncio.run(run())
    assert app.session.record.hints == [1, 0, 0, 0]
    assert Record.load(tmp_path / "hearts-8.json").hints == [1, 0, 0, 0]


def test_the_round_summary_explains_the_points_with_the_games_words(tmp_path: Path) -> None:
    async def run() -> str:
        game = make_game("mighty", {"deals": 2})
        app = TableApp(Session(game, 0, ["normal"] * 4, 3, max_rounds=2), records=None, bot_delay=0)
        rng = random.Random(3)
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                if app.ui == "summary":
                    return shot(app)
                await enter(pilot, app, pick(app, app.session.legal(), rng))
        raise AssertionError("no round summary")

    text = asyncio.run(run())
    assert "Deal 1 is over" in text  # the game says deal
    assert "base score" in text and "point cards taken" in text and "contract" in text


@pytest.mark.parametrize(("lang", "label", "said"), [("en", "Double", "Double cannot be chosen now."),
                                                     ("ko", "더블", "더블은 지금 고를 수 없습니다."),
                                                     ("ko", "패스", "패스는 지금 고를 수 없습니다.")])
def test_a_refused_button_without_a_rule_names_itself(lang: str, label: str, said: str) -> None:
    """A struck-out call with no refusal of its own said " cannot be chosen now." (and in Korean
    began with a particle, "은(는) …"): it names the button, with the particle its word takes."""
    async def run() -> None:
        app = TableApp(Session(make_game("kaedama"), 0, ["random", "random"], 5, lang=lang), records=None,
                       bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            app.explain("", label)
            assert app.message == said
            app.explain("a rule's reason", label)
            assert app.message == "a rule's reason"

    asyncio.run(run())
