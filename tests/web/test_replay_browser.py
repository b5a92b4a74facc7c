"""The replay viewer in a real browser (Debian's chromium through Playwright): a short game of
every game opened from a record file and stepped through forward (every hand open) and back (as
one seat saw it); at every step the page shows what a fresh replay to that step shows (the
state message's seat view, through ``window.__torite``), and the seat's view never draws a
card the seat did not know then.  A tampered record is refused with the action and the reason,
over HTTP and in the page; a finished table's game over offers its replay, which opens at the
end and says what ``hard`` would play at a seat's decision; a table in play is shown to anyone
only as a spectator sees it.  One browser page for all of it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from conformance.harness import cards_text, known_cards
from torite.cards import parse_card
from torite.engine.registry import game_ids, make_game
from torite.present.view import view
from torite.record import Record
from torite.replay import Replay
from torite.server.app import create_app
from torite.server.viewjson import view_json
from torite.sim import play

from .test_browser import ARGS, CHROMIUM, MANY_TABLES, new_page, new_table, serving

#: a seat's view is checked from this seat (every game has at least two)
SEAT = 1

#: the page steps itself and hands back what it showed at each step (one round trip a pass)
STEP_ALL = """async ({button, to}) => {
  const r = () => window.__torite.replay();
  const settled = (k) => new Promise((ok, no) => {
    const t0 = Date.now();
    const f = () => {
      const x = r();
      if (x.step === k && !x.loading) ok();
      else if (Date.now() - t0 > 10000) no(new Error('step ' + k));
      else setTimeout(f, 2);
    };
    f();
  });
  const shown = () => ({
    step: r().step, viewer: r().viewer, view: window.__torite.state(),
    cards: [...document.querySelectorAll('#table [data-card]')].map((e) => e.dataset.card).filter((c) => c),
    mine: document.getElementById('table').dataset.myTurn,
  });
  const out = [shown()];
  while (r().step !== to) {
    const k = r().step + (to > r().step ? 1 : -1);
    document.getElementById(button).click();
    await settled(k);
    out.push(shown());
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("replay") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    with sync_playwright() as p:
        b: Browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        pg = new_page(b)
        pg.add_init_script("localStorage.setItem('torite.pause', '0')")
        yield pg
        assert not pg.errors, pg.errors  # type: ignore[attr-defined]
        b.close()


def short_record(game_id: str, seed: int = 7) -> Record:
    game = make_game(game_id, {})
    rec = play(game, ["random"] * game.num_players, seed, max_rounds=1, keep_record=True)[1]
    assert rec is not None
    return rec


def open_file(page: Page, server: str, path: Path) -> None:
    page.goto(f"{server}/replay")
    page.wait_for_function("() => window.__torite && window.__torite.replay")
    page.set_input_files("#replay-file", str(path))


#: what a state message declares of the seat's view, drawn by the page (its words aside)
VIEW_KEYS = ("phase", "round", "dealer", "hand", "facts", "trick", "last_trick", "piles", "auction", "contract",
             "trump", "round_scores", "scores", "over")


def declared(m: dict[str, Any]) -> dict[str, Any]:
    out = {k: m[k] for k in VIEW_KEYS}
    if out["last_trick"] is not None:
        out["last_trick"] = {k: v for k, v in out["last_trick"].items() if k != "facts"}
    return out


def expected(state: Any, key: int | None) -> dict[str, Any]:
    """The view a fresh replay gives: ``key``'s, or with every hand laid open (None)."""
    obs = None
    if key is None:
        obs = state.observation(None)
        obs["hands"] = [state.observation(s)["hand"] for s in range(state.game.num_players)]
        obs |= state.open_piles()  # every pile open too
    return declared(view_json(view(state, key, obs=obs), {}))


@pytest.mark.parametrize("game_id", [pytest.param(g, id=g) for g in game_ids()])
def test_every_step_forward_and_back_is_a_fresh_replay_and_a_seat_sees_only_what_it_knew(
        page: Page, server: str, tmp_path: Path, game_id: str) -> None:
    rec = short_record(game_id)
    path = tmp_path / f"{game_id}.json"
    path.write_text(rec.dumps())
    open_file(page, server, path)
    page.wait_for_function("() => window.__torite.replay().steps > 0 && !window.__torite.replay().loading")
    # the ground truth: a fresh game from the record, one action at a time
    _, state = rec.new_game()
    truth = [(expected(state, None), expected(state, SEAT), known_cards(state, SEAT))]
    for seat, text in rec.actions:
        state.apply_text(seat, text)
        truth.append((expected(state, None), expected(state, SEAT), known_cards(state, SEAT)))
    steps = len(rec.actions)
    assert state.is_over()

    forward = page.evaluate(STEP_ALL, {"button": "rp-next", "to": steps})
    assert [x["step"] for x in forward] == list(range(steps + 1))
    for x in forward:
        laid_open, _, _ = truth[x["step"]]
        assert x["viewer"] == "open" and x["mine"] == "0"
        assert declared(x["view"]) == laid_open, f"step {x['step']} differs from a fresh replay"

    page.select_option("#rp-viewer", str(SEAT))
    page.wait_for_function(f"() => window.__torite.replay().viewer === {SEAT} && !window.__torite.replay().loading")
    back = page.evaluate(STEP_ALL, {"button": "rp-prev", "to": 0})
    assert [x["step"] for x in back] == list(range(steps, -1, -1))
    leaks = []
    for x in back:
        _, seen, known = truth[x["step"]]
        assert x["viewer"] == SEAT and declared(x["view"]) == seen, f"step {x['step']}: seat {SEAT}'s view differs"
        drawn = 0
        for c in x["cards"]:
            drawn |= 1 << parse_card(c)
        if drawn & ~known:
            leaks.append(f"step {x['step']}: seat {SEAT} was shown {cards_text(drawn & ~known)}")
    assert not leaks, "\n".join(leaks)


def test_a_tampered_record_is_refused_with_the_action_and_its_reason(page: Page, server: str, tmp_path: Path) -> None:
    data = short_record("trick-of-the-dead", 4).to_json()
    first = data["actions"][10]["action"]
    data["actions"][10]["action"] = "play " + ("2C" if "2C" not in first else "3C")
    r = page.request.post(f"{server}/api/replay", data={"record": data, "step": 0, "viewer": "open"})
    assert r.status == 400
    body = r.json()
    assert body["error"] == "bad_record" and "action 10 (seat" in body["message"]
    assert body["detail"]["action"] == 10 and body["detail"]["reason"]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    open_file(page, server, path)
    page.wait_for_selector("#replay-error:not(.hidden)")
    said = page.inner_text("#replay-error")
    assert "action 10" in said and body["detail"]["reason"] in said
    assert page.locator("#replay-controls.hidden").count() == 1  # nothing of it is drawn
    # not JSON at all: said too, nothing sent
    path.write_text("{not json")
    open_file(page, server, path)
    page.wait_for_selector("#replay-error:not(.hidden)")
    assert "not a record" in page.inner_text("#replay-error")
    # too many actions, or a body past the bound: refused before anything is replayed
    data["actions"] = data["actions"] * 400
    r = page.request.post(f"{server}/api/replay", data={"record": data, "step": 0})
    assert r.status in (400, 413) and ("5000" in r.text() or r.status == 413)


def test_the_game_over_offers_the_replay_which_shows_what_hard_would_play(page: Page, server: str) -> None:
    t = new_table(page, server, "trick-of-the-dead", [{"kind": "bot", "level": "random"}] * 3, {"target": 1})
    page.goto(f"{server}/t/{t['id']}#watch")
    page.wait_for_selector("#round-dialog[open] #final:not(.hidden)")  # the game over
    for link in ("#final-replay", "#watch-replay"):
        assert page.get_attribute(link, "href") == f"/replay/{t['id']}"
    page.click("#final-replay")
    page.wait_for_function("() => window.__torite.replay && window.__torite.replay().steps > 0"
                           " && !window.__torite.replay().loading")
    info = page.evaluate("() => window.__torite.replay()")
    assert info["step"] == info["steps"] and info["viewer"] == "open"
    record = Record.from_json(page.request.get(f"{server}/api/tables/{t['id']}/record").json())
    rp = Replay(record)
    # a seat's first choice of a card to play (not a trump or a call, which some deals ask for
    # first): what hard would play, from that seat's view
    step = next(k for k in range(rp.steps) if rp.state(k).to_act()
                and {a.kind for a in rp.state(k).legal_actions(rp.state(k).to_act()[0])} == {"play"})
    seat = rp.state(step).to_act()[0]
    page.select_option("#rp-viewer", str(seat))
    page.evaluate("([k, v]) => window.__torite.goto(k, v)", [step, seat])
    page.wait_for_function(f"() => window.__torite.replay().step === {step} && !window.__torite.replay().loading")
    page.click("#rp-suggest")
    page.wait_for_selector("#rp-suggestion:not(.hidden)")
    want = rp.suggest(step, seat, "hard", seed=0)
    assert want is not None
    shown = page.inner_text("#rp-suggestion")
    assert "hard" in shown
    hinted = page.eval_on_selector_all("#hand .hinted", "els => els.map(e => e.dataset.card)")
    assert hinted == rp.game.action_text(want).split()[1:2]


def test_a_game_that_ended_before_the_page_came_opens_on_its_end(page: Page, server: str) -> None:
    t = new_table(page, server, "trick-of-the-dead", [{"kind": "bot", "level": "random"}] * 3, {"target": 1})
    for _ in range(200):  # the bots play it out at once (no delay); the page comes after
        if page.request.get(f"{server}/api/tables/{t['id']}/record").json().get("result"):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the bots never finished")
    page.goto(f"{server}/t/{t['id']}#watch")
    page.wait_for_selector("#round-dialog[open] #final:not(.hidden)")
    assert page.get_attribute("#final-replay", "href") == f"/replay/{t['id']}"


def test_a_table_in_play_is_replayed_only_as_a_spectator_sees_it(page: Page, server: str) -> None:
    t = new_table(page, server, "kaedama", [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2)
    for viewer in ("open", "0"):
        r = page.request.get(f"{server}/api/tables/{t['id']}/replay?viewer={viewer}")
        assert r.status == 200
        m = r.json()
        assert m["replay"]["viewer"] is None and m["replay"]["viewers"] == [None]
        assert m["hand"] == [] and all(f["open_hand"] is None for f in m["facts"])
    r = page.request.get(f"{server}/api/tables/{t['id']}/replay/suggest?step=0&seat=0")
    assert r.status == 409


def test_a_replay_shows_no_connection_state_and_every_hand_open_opens_every_pile(
        page: Page, server: str, tmp_path: Path) -> None:
    """A record's seats are people who are not here now: none is drawn gone, none offers a bot
    in its place; with every hand open Mighty's kitty and the president's discards lie face up
    too (a seat's view keeps them hidden)."""
    rec = short_record("mighty", 3)
    path = tmp_path / "mighty.json"
    path.write_text(json.dumps(rec.to_json()), encoding="utf-8")
    open_file(page, server, path)
    page.wait_for_function("() => window.__torite.replay().steps > 0 && !window.__torite.replay().loading")
    rp = Replay(rec)
    discarded = next(k for k in range(rp.steps + 1) if len(rp.observation(k, "open").get("discards") or []) == 3)
    for step, piles in ((0, {"kitty": 3}), (discarded, {"discards": 3})):
        page.evaluate("(k) => window.__torite.goto(k, 'open')", step)
        page.wait_for_function(f"() => window.__torite.replay().step === {step} && !window.__torite.replay().loading")
        assert page.locator("#seats .seat.gone, #seats [data-stand-in]").count() == 0
        assert "gone" not in page.inner_text("#seats")
        assert page.locator("#seats .dot:visible").count() == 0
        for name, count in piles.items():
            cards = page.eval_on_selector_all(f"#piles .pile[data-pile='{name}'] .card",
                                              "els => els.map(e => e.dataset.card)")
            assert len(cards) == count and all(cards), (name, cards)
        assert page.locator("#piles .card.back").count() == 0
    # a seat's eyes: the kitty face down again, the discards only to the president
    page.evaluate("(k) => window.__torite.goto(k, 1)", 0)
    page.wait_for_function("() => window.__torite.replay().step === 0 && !window.__torite.replay().loading"
                           " && window.__torite.replay().viewer === 1")
    assert page.locator("#piles .pile[data-pile='kitty'] .card.back").count() > 0
