"""The duplicate arena: every deal under every seating, paired statistics, reproducible."""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import torite.arena as arena_mod
import torite.cli.main as cli_main
from torite.arena import DealResult, arena, seatings, summarize
from torite.bots.registry import register_bot
from torite.bots.search import ISMCTSBot, _gains
from torite.cli.arena_cmd import add_arena_command
from torite.engine.base import Game
from torite.engine.bot import Bot
from torite.engine.registry import game_class, game_ids, make_game
from torite.parallel import ordered_map
from torite.stats import mean_ci

GAME = game_ids()[0]


def _tiny_search(game: Game, seat: int, rng: random.Random) -> Bot:
    return ISMCTSBot(game, seat, rng, iterations=3)


register_bot("test-tiny-search", _tiny_search)  # forked workers inherit it


def test_as_many_bots_as_seats_means_every_permutation() -> None:
    plan = seatings(3, 3)
    assert len(plan) == 6
    assert sorted(plan) == sorted({(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)})


@pytest.mark.parametrize(("bots", "seats", "count"), [(2, 3, 6), (2, 4, 14), (3, 4, 36), (1, 3, 1)])
def test_fewer_bots_than_seats_sit_every_bot_in_every_seat_equally(bots: int, seats: int, count: int) -> None:
    plan = seatings(bots, seats)
    assert len(plan) == count
    assert all(set(s) == set(range(bots)) for s in plan)  # every bot plays every seating
    per_seat = Counter((seat, b) for s in plan for seat, b in enumerate(s))
    assert len(set(per_seat.values())) == 1 and len(per_seat) == bots * seats


def test_more_bots_than_seats_is_refused() -> None:
    with pytest.raises(ValueError):
        seatings(4, 3)


def test_each_deal_is_played_once_under_each_seating(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, tuple[str, ...]]] = []
    real = arena_mod.play_round

    def spy(game: Game, names: Any, deal_seed: int, *args: Any, **kw: Any) -> tuple[int, ...]:
        calls.append((deal_seed, tuple(names)))
        return real(game, names, deal_seed, *args, **kw)

    monkeypatch.setattr(arena_mod, "play_round", spy)
    out = arena(GAME, {}, ["random", "normal"], deals=3, seed=4)
    n = make_game(GAME).num_players
    plan = [tuple(["random", "normal"][b] for b in s) for s in seatings(2, n)]
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for deal_seed, names in calls:
        by_deal.setdefault(deal_seed, []).append(names)
    assert len(by_deal) == 3
    assert all(sorted(v) == sorted(plan) for v in by_deal.values())
    assert out["rounds"] == 3 * len(plan)
    assert all(r["rounds"] == 3 * len(plan) * n // 2 for r in out["bots"])


def test_paired_difference_and_win_shares_on_a_known_toy_input() -> None:
    # two bots, two seats: seating 0 is (A, B), seating 1 is (B, A)
    deals = [DealResult(0, [(10, 4), (6, 8)], [[0.1, 0.3], [0.2]]),  # A: 10, 8 → 9   B: 4, 6 → 5
             DealResult(1, [(3, 3), (0, 2)], [[0.5], []])]           # A: 3, 2 → 2.5 B: 3, 0 → 1.5
    out = summarize(["A", "B"], 2, deals)
    a, b = out["bots"]
    assert a["points_per_round"] == pytest.approx(5.75)
    assert b["points_per_round"] == pytest.approx(3.25)
    half_a = 1.96 * math.sqrt(((9 - 5.75) ** 2 + (2.5 - 5.75) ** 2) / 1) / math.sqrt(2)
    assert a["ci95"] == pytest.approx([5.75 - half_a, 5.75 + half_a])
    # wins: A takes 10-4, 8-6 and 2-0 outright and shares the 3-3 tie
    assert a["win_rate"] == pytest.approx(3.5 / 4)
    assert b["win_rate"] == pytest.approx(0.5 / 4)
    assert a["decisions"] == 3 and a["seconds_per_decision"] == pytest.approx(0.3)
    assert a["seconds_per_decision_p50"] == pytest.approx(0.3)
    [pair] = out["pairs"]
    assert (pair["a"], pair["b"]) == ("A", "B")
    assert pair["diff"] == pytest.approx(2.5)  # per-deal differences 4 and 1
    half = 1.96 * math.sqrt(((4 - 2.5) ** 2 + (1 - 2.5) ** 2) / 1) / math.sqrt(2)
    assert pair["ci95"] == pytest.approx([2.5 - half, 2.5 + half])


def _without_timing(out: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(out))
    for key in ("seconds", "jobs"):
        out.pop(key)
    for row in out["bots"]:
        for key in ("seconds_per_decision", "seconds_per_decision_p50", "seconds_per_decision_p99"):
            row.pop(key)
    return out


def test_same_seed_same_numbers_whatever_the_number_of_jobs() -> None:
    bots = ["test-tiny-search", "normal", "random"]
    one = arena(GAME, {}, bots, deals=4, seed=7, jobs=1)
    two = arena(GAME, {}, bots, deals=4, seed=7, jobs=2)
    assert _without_timing(one) == _without_timing(two)
    other = arena(GAME, {}, bots, deals=4, seed=8, jobs=1)
    assert _without_timing(other) != _without_timing(one)


def test_the_result_has_the_documented_keys() -> None:
    out = arena(GAME, {}, ["normal", "random"], deals=2, seed=1)
    assert {"game", "deals", "bots", "pairs", "options", "seed"} <= set(out)
    assert out["game"] == GAME and out["deals"] == 2 and out["seed"] == 1
    assert out["options"] == make_game(GAME).options
    for row in out["bots"]:
        assert {"name", "points_per_round", "ci95", "win_rate", "seconds_per_decision",
                "seconds_per_decision_p50", "seconds_per_decision_p99"} <= set(row)
        lo, hi = row["ci95"]
        assert lo <= row["points_per_round"] <= hi
    [pair] = out["pairs"]
    assert set(pair) == {"a", "b", "diff", "ci95"}
    json.dumps(out)


@pytest.mark.parametrize("bad", [["normal", "normal"], ["nobody", "random"]])
def test_bad_bot_lists_are_refused(bad: list[str]) -> None:
    with pytest.raises(ValueError):
        arena(GAME, {}, bad, deals=1)


# ------------------------------------------------------------------ the command
def _run(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> int:
    monkeypatch.setattr(cli_main, "_EXTRA_COMMANDS", [add_arena_command])
    return cli_main.main(argv)


def test_the_command_prints_a_table_and_json(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, ["arena", GAME, "--bots", "normal,random", "--deals", "2"]) == 0
    text = capsys.readouterr().out
    assert "points/round" in text and "normal − random" in text
    assert _run(monkeypatch, ["arena", GAME, "--bots", "normal,random", "--deals", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in out["bots"]] == ["normal", "random"]


def test_the_command_saves_a_plot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "arena.png"
    assert _run(monkeypatch, ["arena", GAME, "--bots", "normal,random", "--deals", "2", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv", [["--bots", "normal,nobody"], ["--bots", "normal,normal"],
                                  ["--bots", "normal,random", "--deals", "0"],
                                  ["--bots", "normal,random", "-o", "nosuch=1"],
                                  ["--bots", "random,normal,easy,hard"]])
def test_the_command_reports_user_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         argv: list[str]) -> None:
    assert _run(monkeypatch, ["arena", GAME, *argv]) == 2
    assert "torite arena:" in capsys.readouterr().err


# ------------------------------------------------------------------ helpers shared with the simulator

def _square_after_a_pause(x: int) -> int:
    time.sleep(0.002 * (x % 3 == 0))  # the early items finish late: order must not follow finishing
    return x * x


@pytest.mark.parametrize(("jobs", "chunksize"), [(1, None), (2, 1), (2, None), (3, 4)])
def test_ordered_map_yields_in_input_order_whatever_the_workers(jobs: int, chunksize: int | None) -> None:
    items = list(range(40))
    assert list(ordered_map(_square_after_a_pause, items, jobs, chunksize=chunksize)) == [x * x for x in items]


def test_ordered_map_refuses_no_workers() -> None:
    with pytest.raises(ValueError):
        list(ordered_map(_square_after_a_pause, [1], 0))


def test_mean_ci_on_known_samples() -> None:
    assert mean_ci([]) == (0.0, 0.0, 0) and mean_ci([]).interval is None
    one = mean_ci([4.0])
    assert one == (4.0, 0.0, 1) and one.interval is None  # one value: no spread, no interval
    ci = mean_ci([1.0, 2.0, 3.0, 4.0])  # sample variance 5/3
    assert ci.mean == 2.5
    assert ci.half == pytest.approx(1.96 * math.sqrt(5 / 3 / 4))
    assert ci.interval == [ci.low, ci.high] and ci.n == 4
    assert (ci.low, ci.high) == (ci.mean - ci.half, ci.mean + ci.half)


def test_one_deal_has_no_interval_never_a_zero_width_one(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(monkeypatch, ["arena", GAME, "--bots", "normal,random", "--deals", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["ci95"] for r in out["bots"]] == [None, None] and out["pairs"][0]["ci95"] is None
    assert _run(monkeypatch, ["arena", GAME, "--bots", "normal,random", "--deals", "1"]) == 0
    text = capsys.readouterr().out
    assert text.count("one deal: no interval") == 3 and "1 deal × " in text
    assert not re.search(r"\[(-?[\d.]+), \1\]", text)  # no [x, x]


def test_the_arena_command_module_does_not_import_the_main_cli() -> None:
    code = ("import sys, torite.cli.arena_cmd, torite.server.cli; "
            "print('torite.cli.main' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_in_a_game_of_penalty_points_the_lowest_score_wins_the_round() -> None:
    """Hearts counts penalty points (``SCORE_SIGN`` -1): the round goes to the lower score."""
    deals = [DealResult(0, [(10, 4), (6, 8)], [[], []])]  # A: 10, 8   B: 4, 6
    a, b = summarize(["A", "B"], 2, deals, sign=-1)["bots"]
    assert a["win_rate"] == 0.0 and b["win_rate"] == 1.0


def test_search_bots_and_the_arena_read_the_games_score_sign() -> None:
    assert game_class("hearts").SCORE_SIGN == -1 and game_class("trick-of-the-dead").SCORE_SIGN == 1
    state = make_game("hearts").new_state(3)
    base = [s + 5 for s in state.result().scores]  # as if every seat had lost 5 penalty points
    assert _gains(state, base, -1) == [5.0] * 4 and _gains(state, base) == [-5.0] * 4
