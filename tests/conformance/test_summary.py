"""Every round's summary explains its points: from the ``summary`` of each ``round_end`` event a
reader recomputes every seat's points from what the summary shows, and the lines that write the
scoring out never say two things of one line.

Two recounts.  The summary's own sum (``engine.summary.problems``): the adding rows and each
seat's steps give the round's points.  And the reader's recount: where a calculation's steps
start from figures the rows must account for (Mighty's base score from the point cards the
ruling party holds, Seconds' tricks, Good Cop's team nets), the reader of this game recomputes
those figures from the rows, as the rules page says, and then the points.  A figure that counts
without a row of its own (the point cards in Mighty's discards) makes the recount differ: that
is the summary a player cannot follow ("point cards taken: 9 and 0", "the ruling party took 10").
Every game torite ships whose summary has steps has a reader here (a test game, such as the
guide's example, is read by the sum); a game of adding rows only is read by the sum.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from torite.engine import Game, make_game
from torite.engine.summary import problems
from torite.present.labels import languages
from torite.present.labels import load as labels_of

from .harness import Case, play_out


def _rows(data: Mapping[str, Any]) -> dict[str, list[int]]:
    return {r["key"]: list(r["values"]) for r in data["summary"]["rows"]}


def _compare(what: str, recounted: Sequence[int], shown: Sequence[int]) -> list[str]:
    return [] if list(recounted) == list(shown) else [f"{what}: recounted {list(recounted)}, shown {list(shown)}"]


def _steps_start(data: Mapping[str, Any], key: str) -> list[int]:
    """Each seat's value of its first step named ``key`` (the figure its calculation starts from)."""
    return [next(st["value"] for st in seat if st["key"] == key) for seat in data["summary"]["steps"]]


def read_mighty(game: Game, data: Mapping[str, Any]) -> list[str]:
    """§9: P is the point cards of the president and the friend, and of the discards where they
    count (each a row); S from P, the contract B and the formula, doubled per multiplier; the
    president 2S (alone: the lone share), the friend S, the others −S (lost: the signs turn)."""
    rows = _rows(data)
    level = int(str(data["contract"]).split()[0])
    party = [data["president"]] + ([data["friend"]] if data["friend"] is not None else [])
    p = sum(rows["points_taken"][s] for s in party) + sum(rows.get("discards", []))
    out = _compare("the ruling party's point cards", [p], [data["party_points"]])
    m = min(13, level)
    formula = game.options["score_formula"]
    base = (level - p if p < level else p - 10 if formula == "P-10" else p - m if formula == "P-M"
            else p - m + 1 if formula == "P-M+1" else 2 * (level - m) + (p - level))
    out += _compare("the base score", [base] * game.num_players, _steps_start(data, "base"))
    doublings = 2 ** len(data["multipliers"])
    sign = 1 if p >= level else -1
    lone = game.options["lone_share"]
    shares = [(2 if len(party) == 2 else lone) if s == party[0] else 1 if s in party else -1
              for s in range(game.num_players)]
    return out + _compare("the points", [base * doublings * sign * k for k in shares], data["points"])


def read_seconds(game: Game, data: Mapping[str, Any]) -> list[str]:
    """§4: a seat's tricks (the row) times its partner's, squared, 13 less, or the exact-3 points."""
    t = _rows(data)["tricks"]
    kind, mates = data["deal"], data["mates"]
    if kind <= 5:
        points = [t[s] * t[mates[s]] for s in range(4)]
    elif kind == 6:
        points = [x * x for x in t]
    elif kind == 7:
        points = [13 - x for x in t]
    else:
        points = [game.options["exact3_points"] if x == 3 else 0 for x in t]
    return _compare("the points", points, data["points"])


def read_good_cop(game: Game, data: Mapping[str, Any]) -> list[str]:
    """§7: a seat's net is its tricks less its penalty cards (rows); each records its team's net,
    a lone good cop theirs times the lone factor."""
    rows = _rows(data)
    nets = [a - b for a, b in zip(rows["tricks"], rows["penalty_cards"])]
    out = _compare("the nets", nets, rows["nets"])
    teams = (data["good"], data["bad"])
    team_net = [sum(nets[x] for x in next(t for t in teams if s in t)) for s in range(4)]
    out += _compare("the team nets", team_net, _steps_start(data, "team_net"))
    lone = len(data["good"]) == 1
    points = [team_net[s] * (game.options["lone_factor"] if lone and s in data["good"] else 1) for s in range(4)]
    return out + _compare("the points", points, data["points"])


#: how a player recomputes a game's points from its summary, where its calculation has steps
READERS: dict[str, Callable[[Game, Mapping[str, Any]], list[str]]] = {
    "mighty": read_mighty, "seconds": read_seconds, "good-cop": read_good_cop}


def recount(game: Game, data: Mapping[str, Any]) -> list[str]:
    """What in a round end's summary a reader cannot follow to the round's points (empty: it
    explains them)."""
    summary = data["summary"]
    out = problems(summary, data["points"])
    for seat, steps in enumerate(summary.get("steps") or ()):
        for st in steps:
            if st["op"] == "=" and st["key"] in _rows(data) and st["value"] != _rows(data)[st["key"]][seat]:
                out.append(f"seat {seat}'s calculation starts from {st['key']} {st['value']}, "
                           f"its row says {_rows(data)[st['key']][seat]}")
    reader = READERS.get(game.id)
    if reader is not None:
        out += reader(game, data)
    elif summary.get("steps") and type(game).__module__.startswith("torite.games."):
        out.append(f"no reader for {game.id}'s calculation (READERS)")
    return out


def round_ends(case: Case, seeds: int = 4) -> list[dict[str, Any]]:
    game = case.game()
    out = []
    for seed in case.seeds(seeds):
        state = game.new_state(seed, max_rounds=2)
        play_out(state, random.Random(seed), check=False)
        out += [e.data for e in state.events if e.kind == "round_end"]
    return out


def test_every_round_summary_recomputes_from_its_rows(case: Case) -> None:
    game = case.game()
    ends = round_ends(case)
    for data in ends:
        assert "summary" in data, "a round_end without a summary"
        assert not recount(game, data), (recount(game, data), data)
    assert ends


def test_no_summary_says_two_things_of_one_line(case: Case) -> None:
    """The lines that write a round's scoring out (``explain``) are each said once: two lines of
    one label are a line whose condition is missing ("by seat 4, friend seat 0" and "by seat 4,
    alone")."""
    game = case.game()
    for data in round_ends(case, 2):
        for lang in languages(game):
            labels = [k for k, _ in labels_of(game, lang).explain_rich(data)]
            assert len(labels) == len(set(labels)), (lang, labels, data)


# --------------------------------------------------------------------------- the checks themselves
def _mighty_end_with_discarded_points() -> tuple[Game, dict[str, Any]]:
    game = make_game("mighty")
    for seed in range(200):
        state = game.new_state(seed, max_rounds=1)
        play_out(state, random.Random(seed), check=False)
        for e in state.events:
            if e.kind == "round_end" and e.data.get("discard_points"):
                return game, dict(e.data)
    raise AssertionError("no random Mighty deal with a point card discarded")


def test_the_recount_finds_a_point_row_left_out() -> None:
    """Mighty's discards count for the ruling party (``discards_count``): without their row the
    summary shows fewer point cards than the party is scored for, and the recount says so."""
    game, data = _mighty_end_with_discarded_points()
    assert recount(game, data) == []
    planted = {**data, "summary": {**data["summary"],
                                   "rows": [r for r in data["summary"]["rows"] if r["key"] != "discards"]}}
    found = recount(game, planted)
    assert any("the ruling party's point cards" in p for p in found), found


def test_a_game_with_steps_and_no_reader_is_named() -> None:
    game, data = _mighty_end_with_discarded_points()
    with pytest.MonkeyPatch.context() as mp:
        mp.delitem(READERS, "mighty")
        assert "no reader for mighty's calculation (READERS)" in recount(game, data)


def test_a_summary_line_without_its_condition_is_found() -> None:
    """The line that said "alone" under every contract, friend or not, is two lines of one label."""
    game, data = _mighty_end_with_discarded_points()
    data = {**data, "friend": 0 if data["president"] else 1}
    lab = labels_of(game, "en")
    assert [k for k, _ in lab.explain_rich(data)].count("contract") == 1
    alone = next(r for r in lab.explain_rows if r.label == "contract" and r.cond)
    planted = dataclasses.replace(lab, explain_rows=(*lab.explain_rows, dataclasses.replace(alone, cond=())))
    assert [k for k, _ in planted.explain_rich(data)].count("contract") == 2
