"""The leak test over the web socket: at a table of bots and one person, no message the person's
socket or a spectator's socket receives names a card that reader may not know at that moment.

Each message carries ``n``, the number of actions behind it, and its log lines carry ``i``, the
index of their event among those the reader can see; the ground truth is a replay of the
table's own record through ``LeakJudge`` (``known_cards`` after each action and at each event).
One round is played, the person's decisions at random.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette suggests httpx2; httpx is what we pin
    from starlette.testclient import TestClient

from torite.engine import State
from torite.present.labels import load as labels_of
from torite.server.app import create_app
from torite.server.limits import ServerLimits

from .harness import Case, LeakJudge, Viewer, card_mentions, cards_text, cases, require, who
from .words import rich_problems

Msg = dict[str, Any]
HUMAN = 0


def web_cases() -> list[Case]:
    """Per game: the defaults, and the case with the most options away from their defaults."""
    out: list[Case] = []
    for game_id in dict.fromkeys(c.game_id for c in cases()):
        mine = [c for c in cases() if c.game_id == game_id]
        out.extend(dict.fromkeys([mine[0], max(mine, key=lambda c: len(c.changed))]))
    return out


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # one client opens a table per case, far more than a person's ten a minute
    limits = ServerLimits(tables_per_minute=10_000, tables_burst=10_000)
    with TestClient(create_app("sqlite://", limits=limits)) as c:
        yield c


def receive_until(ws: Any, pred: Callable[[Msg], bool], seen: list[Msg], limit: int = 20_000) -> Msg:
    for _ in range(limit):
        m: Msg = ws.receive_json()
        seen.append(m)
        if pred(m):
            return m
    raise AssertionError("the expected message never came")


def is_state(m: Msg) -> bool:
    return m.get("type") == "state"


def wait(pred: Callable[[], bool], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.mark.parametrize("case", web_cases(), ids=lambda c: c.id)
def test_no_message_of_a_web_table_names_a_card_its_reader_may_not_know(client: TestClient, case: Case) -> None:
    game = case.game()
    require(game.new_state(0), "known_cards")
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (game.num_players - 1)
    r = client.post("/api/tables", json={"game": case.game_id, "options": dict(case.options), "seats": seats,
                                         "settings": {"bot_delay": 0}})
    assert r.status_code == 201, r.text
    info = r.json()
    table = client.app.state.manager.tables[info["id"]]  # type: ignore[attr-defined]
    token = info["seats"][HUMAN]["token"]
    rng = random.Random(case.seeds(1)[0])
    seen: dict[Viewer, list[Msg]] = {HUMAN: [], None: []}

    def my_turn(floor: int) -> Callable[[Msg], bool]:
        """A state of at least ``floor`` actions in which the person decides, or the end."""
        return lambda m: is_state(m) and m["n"] >= floor and (
            m["over"] or (HUMAN in m["to_act"] and bool(m["legal"])))

    def join(ws: Any, seat: Viewer) -> Msg:
        ws.send_json({"type": "join", "seat": seat, "token": token if seat is not None else None})
        return receive_until(ws, is_state, seen[seat])

    with client.websocket_connect(f"/ws/tables/{info['id']}") as watcher, \
            client.websocket_connect(f"/ws/tables/{info['id']}") as ws:
        join(watcher, None)
        m = join(ws, HUMAN)
        while True:
            if not my_turn(0)(m):
                m = receive_until(ws, my_turn(m["n"]), seen[HUMAN])
            if m["over"] or table.state.rounds_played >= 1:
                break
            if rng.random() < 0.3:  # a hint now and then: built from the person's view only
                ws.send_json({"type": "hint"})
                receive_until(ws, lambda x: x.get("type") in ("hint", "error"), seen[HUMAN])
            ws.send_json({"type": "act", "action": rng.choice(m["legal"])["text"]})
            # the ack counts the person's action; an error (a view already stale: the bots moved
            # during a simultaneous phase) is followed by the current state
            reply = receive_until(ws, lambda x: x.get("type") in ("ack", "error"), seen[HUMAN])
            m = receive_until(ws, my_turn(reply["n"] if reply["type"] == "ack" else m["n"]), seen[HUMAN])
        # the bots stop when only the person may act: then every message has been sent
        wait(lambda: table.state.is_over() or set(table.state.to_act()) <= {HUMAN})
        final = len(table.actions)
        for sock, viewer in ((ws, HUMAN), (watcher, None)):
            if not any(is_state(x) and x["n"] == final for x in seen[viewer]):
                receive_until(sock, lambda x: is_state(x) and x["n"] == final, seen[viewer])

    record = table.record()
    assert record.seed is not None
    judge = LeakJudge(game, record.seed)
    # a seat's legal actions may name cards it cannot see (a partner's card named from the whole
    # deck): what they name is judged against what the protocol offers the seat at that moment
    offered = [_named_by_legal(judge.state)]
    for seat, text in record.actions:
        judge.apply(seat, game.parse_action(text))
        offered.append(_named_by_legal(judge.state))
    assert judge.state.rounds_played >= 1, "the table did not play a whole round"
    leaks: list[str] = []
    for viewer, messages in seen.items():
        states = [m for m in messages if is_state(m)]
        assert states, f"{who(viewer)} received no state"
        for m in states:
            view = {k: v for k, v in m.items() if k not in ("log", "legal", "decision")}
            known = judge.known_after[m["n"]][viewer]
            extra = card_mentions(view) & ~known
            # the decision groups the legal actions: both may name a card to call from the deck
            choices = [m.get("legal", []), m.get("decision") or {}]
            extra |= card_mentions(choices) & ~known & ~(offered[m["n"]] if viewer == HUMAN else 0)
            if extra:
                leaks.append(f"after {m['n']} actions {who(viewer)} was sent {cards_text(extra)}")
            for line in m["log"]:
                extra = card_mentions([line["text"], line.get("explain")]) & ~judge.event_known[viewer][line["i"]]
                if extra:
                    leaks.append(f"{who(viewer)} was sent the log line {line['text']!r} naming {cards_text(extra)}")
        for h in (x for x in messages if x.get("type") == "hint"):
            # a hint names one of the person's legal actions and the bot's reason for it
            extra = card_mentions([h["action"], h["label"], h["reason"]]) & ~judge.known_after[h["n"]][viewer] \
                & ~offered[h["n"]]
            if extra:
                leaks.append(f"after {h['n']} actions the hint named {cards_text(extra)}")
    assert not leaks, "\n".join(dict.fromkeys(leaks))
    assert not _notation(game, seen[HUMAN]), "\n".join(_notation(game, seen[HUMAN])[:20])


def _notation(game: Any, messages: list[Msg]) -> list[str]:
    """What the web table was sent to show (status rows, the last trick, buttons, log lines) as
    rich text in every language: none of it is notation (the table draws tokens, never guesses)."""
    ids = frozenset({a["kind"] for m in messages if is_state(m) for a in m["legal"]})
    found: dict[str, None] = {}
    for m in (x for x in messages if is_state(x)):
        shown: list[tuple[str, str, Any]] = []
        for lang, rows in m["status"].items():
            shown += [(lang, f"status {k}", v) for k, v, *_ in rows]
        for group in ("cards", "actions"):
            shown += [(lang, f"reason for {key}", rich) for key, by_lang in m["reasons"][group].items()
                      for lang, rich in by_lang.items()]
        shown += [(lang, "goal", rich) for lang, rich in m["goal"].items()]
        for lang, rows in (m["last_trick"] or {"facts": {}})["facts"].items():
            shown += [(lang, f"last trick {k}", v) for k, v in rows]
        shown += [(lang, f"button {a['text']}", rich) for a in m["legal"] for lang, rich in a["label"].items()]
        shown += [(lang, f"log line {line['i']}", rich) for line in m["log"] for lang, rich in line["text"].items()]
        for lang, where, rich in shown:
            for p in rich_problems(rich, labels_of(game, lang), ids):
                found[f"[{lang}] {where}: {p}"] = None
    for h in (x for x in messages if x.get("type") == "hint"):
        for part in ("label", "reason"):
            for lang, rich in (h[part] or {}).items():
                for p in rich_problems(rich, labels_of(game, lang), ids):
                    found[f"[{lang}] hint {part}: {p}"] = None
    return list(found)


def _named_by_legal(state: State) -> int:
    """The cards the person's legal actions name now."""
    named = 0
    for a in state.legal_actions(HUMAN):
        named |= a.cards
    return named
