"""``torite compare``: variants on common deals, paired differences, the report and its JSON."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from torite.cli.compare_cmd import format_summary
from torite.cli.main import main
from torite.compare import compare, make_variants, parse_variant
from torite.compare.analysis import _luck_from, _luck_parts, _skill, analyze, verdict
from torite.compare.experiment import (
    ENDS,
    PLAY,
    SAME,
    SCORES,
    Experiment,
    UnitData,
    VariantError,
    run_experiment,
    versus,
)
from torite.compare.report import command_line, render
from torite.engine.registry import game_ids, make_game
from torite.present import labels as L
from torite.seeds import derive_seed
from torite.stats import holm, mean_ci

TOD = "trick-of-the-dead"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def twins() -> dict[str, Any]:
    """Two variants with the same rules (and a third that differs), small and fast."""
    return compare(TOD, ["a", "b:survival=false", "survival:survival=true"], "random", deals=12,
                   skill=("normal", "random"), seed=3)


# ---------------------------------------------------------------------------- variants
def test_a_variant_is_a_name_and_its_options() -> None:
    assert parse_variant("survival:survival=true,target=50") == ("survival", {"survival": "true", "target": "50"})
    assert parse_variant("base") == ("base", {})
    assert parse_variant("base:") == ("base", {})
    assert parse_variant(" open : open_graveyard = true ") == ("open", {"open_graveyard": "true"})


@pytest.mark.parametrize(("text", "says"), [
    (":survival=true", "start with a name"),
    ("", "start with a name"),
    ("survival:survival", "is not KEY=VALUE"),
    ("survival:survival=", "is not KEY=VALUE"),
    ("survival:=true", "is not KEY=VALUE"),
    ("survival:survival=true,,target=5", "is not KEY=VALUE"),
    ("s:target=5,target=6", "given twice"),
    ("<b>:target=5", "a name is"),
])
def test_bad_variant_syntax_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(VariantError, match=says):
        parse_variant(text)


@pytest.mark.parametrize(("specs", "says"), [
    (["base", "x:nosuch=1"], "variant 'x'.*unknown option nosuch"),
    (["base", "x:survival=maybe"], "variant 'x'.*expected true or false"),
    (["base", "x:target=0"], "variant 'x'.*below the minimum"),
    (["base", "base:survival=true"], "used twice"),
    (["base", "two:players=2"], "same number of players"),
    ([], "at least one"),
])
def test_bad_variants_are_refused_by_name(specs: list[str], says: str) -> None:
    with pytest.raises(VariantError, match=says):
        make_variants(TOD, specs)


def test_a_variant_keeps_what_it_changes_and_the_full_options() -> None:
    base, surv = make_variants(TOD, ["base", "survival:survival=yes"], {"target": "50"})
    assert base.given == {} and base.options["target"] == 50
    assert surv.given == {"survival": True}
    assert surv.options == {**make_game(TOD).options, "survival": True, "target": 50}


@pytest.mark.parametrize("args", [
    ["--variant", "base", "--variant", "x:survival"],
    ["--variant", "base", "--variant", "x:nosuch=1"],
    ["--variant", "base", "--skill", "normal"],
    ["--variant", "base", "--skill", "normal,normal"],
    ["--variant", "base", "--bots", "nobody"],
    ["--variant", "base", "--deals", "0"],
    ["--variant", "base", "--deals", "1"],
    ["--variant", "base", "--report", "out.png"],
    ["--variant", "base", "--address", "127.0.0.1:6379"],
])
def test_the_command_refuses_bad_input_with_one_line_and_status_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str]) -> None:
    code, out, err = run(capsys, "compare", TOD, *args)
    assert code == 2 and out == ""
    assert err.startswith("torite compare: ") and err.count("\n") == 1
    assert not (tmp_path / "out.png").exists()


# ---------------------------------------------------------------------------- the numbers
def test_two_identical_variants_differ_by_intervals_holding_zero(twins: dict[str, Any]) -> None:
    for key, m in twins["metrics"].items():
        d = m["diffs"]["b"]
        lo, hi = d["ci95"]
        assert lo <= 0 <= hi, key
        assert d["diff"] == 0 and d["verdict"] == "same" and d["sentence"] is None, key
    assert twins["identical"] == ["b"]
    b = twins["per_variant"]["b"]
    assert b["findings"] == [] and b["play"] in twins["findings"]
    assert b["play"].startswith("In b every game was the same as in a, card for card, with the table's bots (random) "
                                "and with normal against random") and "never came into play" in b["play"]
    assert b["verdict"] == ("b: plays exactly as a with these bots: the rule never came into play. "
                            "Only 12 deals: a first look.")
    assert [s["use"] for s in twins["in_play"]["b"]] == ["never", "never"]
    assert twins["in_play"]["b"][1]["games"] == 12 * 6


def test_survivals_club_penalty_lowers_the_points_with_the_right_sign() -> None:
    out = compare(TOD, ["base", "survival:survival=true"], "random", deals=20, skill=None, seed=1)
    d = out["metrics"]["points_per_round"]["diffs"]["survival"]
    assert d["ci95"][1] < 0 and d["verdict"] == "lower"  # a club is -3 instead of -2: fewer points
    s = out["metrics"]["stats.survival_points_per_round"]["diffs"]["survival"]
    assert s["ci95"][0] > 0 and s["verdict"] == "higher"  # a surviving heart is +3 instead of +2
    assert any(f.startswith("In survival a seat scores") and "fewer points a round" in f for f in out["findings"])
    assert out["identical"] == []
    # random bots never look at the scores: the same cards, other scores
    table = out["in_play"]["survival"][0]
    assert table["use"] == "scores" and table["same"] == table["play"] == 0 and table["ends"] > 0
    assert table["scores"] + table["ends"] == table["games"] == 20 and table["first_different_decision"] == {}
    assert (f"every game was played as in base, card for card while both lasted, but 20 of 20 scored otherwise, "
            f"{table['ends']} of them ending at another round: the rule changed scores, never a decision"
            ) in out["per_variant"]["survival"]["play"]


def test_every_variant_plays_the_same_deals() -> None:
    variants = make_variants(TOD, ["base", "survival:survival=true"])
    exp = run_experiment(TOD, variants, ["random"] * 3, deals=4, skill=None, seed=5)
    for a, b in zip(*exp.units, strict=True):
        assert a.dealers[0] == b.dealers[0]  # the same seed draws the same first dealer
        assert a.leaders[0] == b.leaders[0]
    # the same seed deals the first round the same hands whatever the variant
    g0, g1 = (make_game(TOD, v.options) for v in variants)
    for i in range(4):
        seed = derive_seed(5, "compare-game", i)
        assert g0.new_state(seed).hands == g1.new_state(seed).hands


def test_the_json_has_every_documented_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", TOD, "--variant", "base", "--variant", "survival:survival=true",
                       "--bots", "random", "--skill", "normal,random", "--deals", "4", "--json")
    assert code == 0

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} in the JSON")

    d = json.loads(out, parse_constant=no_constants)  # strict JSON: no NaN or Infinity
    for key in ("game", "title", "seed", "deals", "seats", "bots", "skill", "jobs", "seconds", "rounds_played",
                "cpu_seconds", "confidence", "bootstrap_resamples", "negligible", "variants", "per_variant", "metrics",
                "findings",
                "in_play", "identical", "never_happened", "inconclusive", "distributions", "first_leader_role"):
        assert key in d, key
    assert d["first_leader_role"] is None  # Trick of the Dead: the seat after the dealer leads, no role
    assert d["per_variant"]["survival"]["swing"]
    assert [v["name"] for v in d["variants"]] == ["base", "survival"]
    assert d["variants"][1]["changed"] == {"survival": True}
    assert set(d["per_variant"]) == {"survival"} and d["per_variant"]["survival"]["verdict"].startswith("survival: ")
    expected = {"points_per_round", "round_score_sd", "round_range", "game_length", "dealer_advantage",
                "first_leader_advantage", "edge_by_position.dealer_2", "wins_by_position.0", "wins_by_position.1",
                "wins_by_position.2", "lead_changes", "decided_before_last_round", "skill", "luck"}
    quiet = {x["key"] for x in d["never_happened"]}
    expected |= {f"stats.{k}_per_round" for k in make_game(TOD).STAT_KEYS if k not in quiet}
    assert set(d["metrics"]) == expected
    for key, m in d["metrics"].items():
        assert set(m["values"]) == {"base", "survival"}, key
        assert set(m["diffs"]) == {"survival"}, key
        v = m["values"]["base"]
        assert v["ci95"][0] <= v["mean"] <= v["ci95"][1], key
        assert m["family"] == ("seats by position" if m["group"] == "seats by position" else None), key
        diff = m["diffs"]["survival"]
        for k in ("diff", "ci95", "verdict", "significant", "deals_needed", "sentence", "negligible", "marker"):
            assert k in diff, (key, k)
        assert diff["marker"] in "▲▼△▽≈?"
        assert diff["verdict"] in ("higher", "lower", "same", "inconclusive")
    for x in d["inconclusive"]:
        assert x["deals_needed"] is None or x["deals_needed"] > 4
        assert "too wide to conclude" in x["text"]
    assert set(d["distributions"]) == {"round_points", "game_length"}
    assert sum(d["distributions"]["game_length"]["base"].values()) == 4


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs() -> None:
    a = compare(TOD, ["base", "s:survival=true"], "random", deals=6, skill=("normal", "random"), seed=2, jobs=1)
    b = compare(TOD, ["base", "s:survival=true"], "random", deals=6, skill=("normal", "random"), seed=2, jobs=2)
    for out in (a, b):
        for key in ("seconds", "cpu_seconds", "jobs"):
            out.pop(key)
    assert a == b
    c = compare(TOD, ["base", "s:survival=true"], "random", deals=6, skill=("normal", "random"), seed=7)
    assert c["metrics"]["points_per_round"] != a["metrics"]["points_per_round"]


def test_skill_and_luck_separate_the_players_from_the_cards() -> None:
    plan = [(0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)]

    def unit(points: list[tuple[int, ...]]) -> UnitData:
        return UnitData(0, 0, [], [], [], [], (), {}, points)

    # the cards decide everything: a seat scores the same whoever plays it
    cards_only = [unit([(10 * d, 3, -d) for _ in plan]) for d in range(8)]
    parts, n, m = _luck_parts(cards_only)
    assert _luck_from(parts.sum(axis=0), 8.0, n, m) == pytest.approx(1.0)
    assert all(_skill(u, plan) == 0 for u in cards_only)
    # the players decide everything: the strong bot (0) scores 10, the weak one 0, whatever the cards
    players_only = [unit([tuple(10 if b == 0 else 0 for b in s) for s in plan]) for _ in range(8)]
    parts, n, m = _luck_parts(players_only)
    assert _luck_from(parts.sum(axis=0), 8.0, n, m) == pytest.approx(0.0)
    assert all(_skill(u, plan) == 10 for u in players_only)
    # weights: a deal counted twice is as if it were played twice
    w = np.array([2.0] + [1.0] * 7)
    assert float(_luck_from(w @ _luck_parts(cards_only)[0], 9.0, n, m)) == pytest.approx(1.0)


def test_lead_changes_and_an_early_decision_follow_the_games_own_leaders() -> None:
    from torite.compare.analysis import _decided_early, _lead_changes

    def unit(leading: list[tuple[int, ...]], winners: tuple[int, ...]) -> UnitData:
        return UnitData(0, 0, [(0, 0, 0)] * len(leading), [0] * len(leading), [1] * len(leading), leading,
                        winners, {})

    u = unit([(0,), (0, 1), (1,), (1,)], (1,))
    assert _lead_changes(u) == 2 and _decided_early(u) == 1.0
    u = unit([(0,), (0,), (2,)], (2,))
    assert _lead_changes(u) == 1 and _decided_early(u) == 0.0
    assert _decided_early(unit([(0,)], (0,))) == 0.0  # one round: nothing is decided before it


@pytest.mark.parametrize(("args", "expected"), [
    ((1.0, 0.5, 1.5, 0.2, 100), ("higher", None)),
    ((-1.0, -1.5, -0.5, 0.2, 100), ("lower", None)),
    ((0.0, -0.1, 0.1, 0.2, 100), ("same", None)),
    ((0.0, -0.4, 0.4, 0.2, 100), ("inconclusive", 400)),  # half-width 0.4 → 0.2 needs 4× the deals
    ((0.0, 0.0, 0.0, 0.0, 100), ("same", None)),
])
def test_verdicts(args: tuple[float, float, float, float, int], expected: tuple[str, int | None]) -> None:
    assert verdict(*args) == expected


def test_a_wide_interval_says_to_raise_the_deals() -> None:
    out = compare(TOD, ["base", "s:survival=true"], "random", deals=3, skill=None, seed=4)
    assert out["inconclusive"], "three deals cannot settle every measure"
    x = out["inconclusive"][0]
    assert x["deals_needed"] > 3 and f"about {x['deals_needed']} deals" in x["text"] and "(now 3)" in x["text"]


# ---------------------------------------------------------------------------- the report
def test_the_report_is_self_contained_and_says_what_changed(twins: dict[str, Any], tmp_path: Path) -> None:
    page = render(twins)
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<(script|link|img|iframe|object)\b", page, re.I)
    refs = re.findall(r"\b(?:src|href)\s*=\s*\"([^\"]*)\"", page, re.I)
    assert refs and all(r.startswith("#") for r in refs)  # only the plots' own definitions
    assert len(refs) == len(re.findall(r"\b(?:src|href)\s*=", page, re.I))
    assert "url(" not in page.replace("url(#", "")
    assert page.count("<svg") == 2 and page.count('role="img" aria-label="') == 2 and "<table" in page
    for sentence in twins["findings"]:
        assert sentence.replace("'", "&#x27;") in page
    assert "every game was the same as in a, card for card" in page  # the identical twin is named
    assert "Verdict: plays exactly as a with these bots: the rule never came into play." in page
    assert command_line(twins) in page.replace("&#x27;", "'")
    assert render(twins) == page  # the same analysis, the same page


def test_the_report_and_the_json_carry_the_same_numbers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, out, _ = run(capsys, "compare", TOD, "--variant", "base", "--variant", "survival:survival=true",
                       "--bots", "random", "--skill", "off", "--deals", "5", "--report", str(report), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["skill"] is None and "skill" not in d["metrics"] and "luck" not in d["metrics"]
    page = report.read_text(encoding="utf-8")
    m = d["metrics"]["points_per_round"]
    assert m["format"].format(m["values"]["survival"]["mean"]) in page
    assert "--skill off" in command_line(d)


def test_the_text_summary_lists_findings_and_marks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", TOD, "--variant", "base", "--variant", "survival:survival=true",
                       "--bots", "random", "--skill", "off", "--deals", "10", "--seed", "1")
    assert code == 0
    assert "What changes against base:" in out and "In survival a seat scores" in out
    assert "points per round (a seat)" in out and "▼" in out
    verdict = out.index("Verdict:\n  survival: ")
    assert verdict < out.index("What changes against base:")


def test_the_experiment_refuses_what_it_cannot_measure() -> None:
    variants = make_variants(TOD, ["base"])
    with pytest.raises(ValueError, match="bots for 3 seats"):
        run_experiment(TOD, variants, ["random"] * 2, deals=2)
    with pytest.raises(ValueError, match="deals must be at least 2"):
        run_experiment(TOD, variants, ["random"] * 3, deals=1)
    with pytest.raises(ValueError, match="two different bots"):
        run_experiment(TOD, variants, ["random"] * 3, deals=2, skill=("random", "random"))
    one = analyze(run_experiment(TOD, variants, ["random"] * 3, deals=2, skill=None))
    assert all(m["diffs"] == {} for m in one["metrics"].values())
    assert "Only one variant" in render(one)


def test_an_experiment_keeps_its_raw_data() -> None:
    exp = run_experiment(TOD, make_variants(TOD, ["base"]), ["random"] * 3, deals=2, skill=("normal", "random"))
    assert isinstance(exp, Experiment) and len(exp.units[0]) == 2
    u = exp.units[0][0]
    rounds = len(u.round_points)
    assert len(u.dealers) == len(u.leaders) == len(u.leading) == rounds >= 1
    assert all(leader == (dealer + 1) % 3 for dealer, leader in zip(u.dealers, u.leaders))  # the rules page
    assert set(u.leading[-1]) == set(u.winners)
    assert len(u.duplicate) == 6 and all(len(p) == 3 for p in u.duplicate)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_can_be_compared(game_id: str) -> None:
    """The experiment needs nothing but the protocol: any registered game, its defaults twice."""
    exp = run_experiment(game_id, make_variants(game_id, ["a", "b"]), ["random"] * make_game(game_id).num_players,
                         deals=2, skill=None, seed=1)
    for u in exp.units[0]:
        assert len(u.dealers) == len(u.leaders) == len(u.leading) == len(u.round_points) >= 1
        assert all(0 <= s < exp.seats for s in u.dealers + u.leaders)
    out = analyze(exp)
    assert out["identical"] == ["b"] and "<svg" in render(out)


# ---------------------------------------------------------------------------- rules in play
def test_the_issues_kaedama_reverse_case_says_the_rule_never_came_into_play(capsys: pytest.CaptureFixture[str],
                                                                            tmp_path: Path) -> None:
    """Issue 28: the normal bot never replaces while winning, so every game at the table is the
    base game card for card; only the random bot of the skill measure uses the rule."""
    report = tmp_path / "r.html"
    code, out, _ = run(capsys, "compare", "kaedama", "--variant", "base", "--variant", "reverse:reverse=true",
                       "--deals", "8", "--report", str(report), "--json")
    assert code == 0
    d = json.loads(out)
    table, skill = d["in_play"]["reverse"]
    assert table == {"set": "table", "bots": "normal", "games": 8, "same": 8, "scores": 0, "ends": 0, "play": 0,
                     "first_different_decision": {}, "use": "never"}
    assert skill["set"] == "skill" and skill["use"] == "play" and skill["games"] == 8 * 6
    assert skill["play"] > 0 and "random" in skill["first_different_decision"]
    own = d["per_variant"]["reverse"]
    assert own["verdict"].startswith("reverse: the rule never came into play with the table's bots (normal), "
                                     "only with normal against random (")
    assert own["play"].startswith("In reverse, with the table's bots (normal) every game was the same as in base, "
                                  "card for card: the rule never came into play with these bots; with normal "
                                  "against random (the skill measure's games) the rule came into play: ")
    assert d["findings"][0] == own["play"]
    assert {"key": "replacements_while_winning", "label": "replacements while winning"} in d["never_happened"]
    assert "stats.replacements_while_winning_per_round" not in d["metrics"]
    page = report.read_text(encoding="utf-8")
    assert html.escape(own["play"]) in page and "--bots hard" in page
    assert html.escape("Verdict: " + own["verdict"].removeprefix("reverse: ")) in page
    assert page.count("replacements while winning") == 1  # said once: it never happened
    text = format_summary(d)  # what the command prints without --json
    assert own["play"] in text and f"  {own['verdict']}" in text
    assert text.count("replacements while winning") == 1


def test_without_the_skill_measure_the_reverse_variant_plays_exactly_as_base() -> None:
    out = compare("kaedama", ["base", "reverse:reverse=true"], "normal", deals=3, skill=None)
    assert out["identical"] == ["reverse"]
    assert out["per_variant"]["reverse"]["verdict"] == (
        "reverse: plays exactly as base with these bots: the rule never came into play. Only 3 deals: a first look.")


def test_a_game_is_compared_with_the_references_action_by_action() -> None:
    bots = ["hard", "normal", "random"]
    ref = [(0, "play 5S"), (1, "play 6S"), (2, "play 7S")]
    assert versus(ref, ref, True, bots) == (SAME, None)
    assert versus(ref, ref, False, bots) == (SCORES, None)
    # a decision the reference never offered, declined: the same game card for card
    assert versus(ref, [(0, "play 5S"), (2, "pass"), (1, "play 6S"), (2, "play 7S")], True, bots) == (SAME, None)
    assert versus(ref, ref[:2], False, bots) == (ENDS, None)  # the variant's game ended earlier
    assert versus(ref[:2], ref, False, bots) == (ENDS, None)
    assert versus(ref, [(0, "play 5S"), (1, "play KS"), (2, "play 7S")], False, bots) == (PLAY, "normal")
    assert versus(ref, [(0, "play 5S"), (2, "play 7S")], False, bots) == (PLAY, "random")  # who acts differs
    # a pass with a card (Hearts' exchange) is a decision, not a declined one
    assert versus([(0, "pass 2C")], [(0, "pass 3C")], False, bots) == (PLAY, "hard")


# ---------------------------------------------------------------------------- seats by position
def _synthetic(shifts: list[list[float]]) -> Experiment:
    """A three-seat experiment of one-round games: in variant ``v`` the dealer (seat 0, the
    first leader seat 1) scores ``shifts[v][i]`` in deal ``i``, the others 0; everyone wins."""
    variants = make_variants(TOD, ["base"] + [f"v{k}" for k in range(1, len(shifts))])
    units = []
    for v, xs in enumerate(shifts):
        units.append([UnitData(i, v, [(round(x * 100), 0, 0)], [0], [1], [(0, 1, 2)], (0, 1, 2), {}, [],
                               [(SAME if v == 0 else SCORES, None)]) for i, x in enumerate(xs)])
    return Experiment(TOD, variants, ["random"] * 3, None, 0, len(shifts[0]), 1, 3, (), units, 0.0)


def test_seat_noise_is_corrected_for_multiplicity_and_comes_after_the_game() -> None:
    deals = 40
    base = [0.0] * deals
    # v1: a dealer's edge just significant alone (p about 0.03), not among the six seat measures;
    # v2: a large one, significant after the correction
    weak = [1 + (2.87 if i % 2 else -2.87) for i in range(deals)]
    strong = [5 + (1 if i % 2 else -1) for i in range(deals)]
    out = analyze(_synthetic([base, weak, strong]))
    family = [k for k, m in out["metrics"].items() if m["family"] == "seats by position"]
    assert family == ["dealer_advantage", "first_leader_advantage", "edge_by_position.dealer_2",
                      "wins_by_position.0", "wins_by_position.1", "wins_by_position.2"]
    d = out["metrics"]["dealer_advantage"]["diffs"]["v1"]
    assert d["ci95"][0] > 0 and d["p"] < 0.05 <= d["p_holm"]  # alone it would be "significant"
    assert d["verdict"] == "inconclusive" and d["sentence"] is None
    assert any(x["metric"] == "dealer_advantage" and x["variant"] == "v1" and
               "excludes zero, but not once corrected for the 6 seat-by-position comparisons (Holm" in x["text"]
               for x in out["inconclusive"])
    game = out["metrics"]["points_per_round"]["diffs"]["v1"]  # a game-level measure is not corrected
    assert game["verdict"] == "higher" and "p_holm" not in game
    s = out["metrics"]["dealer_advantage"]["diffs"]["v2"]
    assert s["verdict"] == "higher" and s["p_holm"] < 0.05
    assert s["sentence"].endswith("; Holm-corrected over the 6 seat-by-position measures).")
    v2 = out["per_variant"]["v2"]["findings"]
    assert v2.index(out["metrics"]["points_per_round"]["diffs"]["v2"]["sentence"]) < v2.index(s["sentence"])
    assert out["findings"].index(v2[0]) < out["findings"].index(s["sentence"])
    line = out["per_variant"]["v2"]["verdict"]
    assert "only the scores changed; changes the game: points per round (a seat) +" in line


def test_holm_adjusts_in_the_input_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([]) == []
    ci = mean_ci([1.0, 2.0, 3.0, 2.5])
    assert (ci.low > 0) == (ci.p_value < 0.05)
    assert mean_ci([0.0, 0.0]).p_value == 1.0 and mean_ci([1.0, 1.0]).p_value == 0.0


def test_positions_follow_the_first_leader_when_it_is_not_the_seat_after_the_dealer() -> None:
    """Hearts' first leader holds 2♣, wherever the dealer sits: its seats are measured too."""
    out = compare("hearts", ["a", "b"], "random", deals=6, skill=None, seed=1)
    keys = [k for k, m in out["metrics"].items() if m["family"]]
    assert keys[:8] == ["dealer_advantage", "edge_by_position.dealer_1", "edge_by_position.dealer_2",
                        "edge_by_position.dealer_3", "first_leader_advantage", "edge_by_position.leader_1",
                        "edge_by_position.leader_2", "edge_by_position.leader_3"]
    label = out["metrics"]["edge_by_position.leader_2"]["label"]
    assert label == "edge of the 2nd after the first leader (points/round)"


def test_games_won_by_position_share_every_game(twins: dict[str, Any]) -> None:
    for name in ("a", "b", "survival"):
        won = [twins["metrics"][f"wins_by_position.{p}"]["values"][name]["mean"] for p in range(3)]
        assert sum(won) == pytest.approx(1.0)


# ---------------------------------------------------------------------------- counters in words
def test_counters_are_reported_in_words_and_never_by_their_keys(twins: dict[str, Any]) -> None:
    page = render(twins)
    text = format_summary(twins)
    labels = L.load(make_game(TOD), "en")
    for key in make_game(TOD).STAT_KEYS:
        if key in {x["key"] for x in twins["never_happened"]}:
            continue
        m = twins["metrics"][f"stats.{key}_per_round"]
        assert m["label"] == f"{labels.stat_label(key)} per round" and m["group"] == "rules in play"
        if "_" in key:  # a raw name such as survival_points, never a word a designer reads
            assert key not in m["label"] + m["description"] and key not in page and key not in text
    assert "zombies risen per round" in page and "points for surviving hearts per round" in text


# ---------------------------------------------------------------------------- markers, roles, swings
def test_a_significant_but_negligible_difference_has_a_marker_of_its_own() -> None:
    """One point a round more for the dealer, every deal alike: the interval excludes zero, but a
    point is within 5% of a round score's deviation (hundreds of points here): △, not ▲."""
    deals = 30
    base = [float(i % 7) for i in range(deals)]  # the dealer scores 0 to 600 a round
    out = analyze(_synthetic([base, [x + 0.01 for x in base], [x + 2.0 for x in base]]))
    small = out["metrics"]["points_per_round"]["diffs"]["v1"]
    assert small["verdict"] == "higher" and small["negligible"] and small["marker"] == "△"
    big = out["metrics"]["points_per_round"]["diffs"]["v2"]
    assert big["verdict"] == "higher" and not big["negligible"] and big["marker"] == "▲"
    page, text = render(out), format_summary(out)
    assert '<span class="neg">△▽ significant but negligible</span>' in page
    assert re.search(r'<td class="neg">△ \+0\.33', page) and re.search(r'<td class="sig">▲ \+66\.67', page)
    row = next(line for line in text.splitlines() if line.strip().startswith("points per round"))
    assert row.split()[-2].endswith("△") and row.split()[-1].endswith("▲")
    assert "△▽ significant but negligible" in text


def test_is_it_swingier_reads_the_spread_the_gap_and_the_lead_changes_together() -> None:
    deals = 30
    base = [float(i % 5) for i in range(deals)]
    out = analyze(_synthetic([base, [2 * x for x in base], [x / 2 for x in base], list(base)]))
    swings = {name: out["per_variant"][name]["swing"] for name in ("v1", "v2", "v3")}
    assert swings["v1"].startswith("Yes, v1 is swingier: a round's points spread 100.0% more and the gap between "
                                   "a round's best and worst seat is 200.00 points wider than in base")
    assert swings["v2"].startswith("No, v2 is steadier: a round's points spread 50.0% less")
    assert swings["v3"].startswith("No: v3 swings as base does")
    assert all(s.endswith("(one-round games: no lead to change).") for s in swings.values())
    assert "Is it swingier? Yes, v1 is swingier" in render(out)
    assert "Is it swingier?\n  Yes, v1 is swingier" in format_summary(out)


def test_a_first_leader_the_rules_choose_is_named_by_its_role() -> None:
    """When the rules, not the seating, choose who leads (Mighty's president leads the first
    trick), the first leader's edge is the role's, and says so."""
    variants = make_variants(TOD, ["base", "v1"])
    units = [[UnitData(i, v, [(10, 0, 0)], [0], [2], [(0,)], (0,), {}, [], [(SAME, None)],
                       leader_roles=[("president",) if i % 4 else ()]) for i in range(8)] for v in range(2)]
    out = analyze(Experiment(TOD, variants, ["random"] * 3, None, 0, 8, 1, 3, (), units, 0.0))
    assert out["first_leader_role"] == {"label": "president", "share": 0.75}
    m = out["metrics"]["first_leader_advantage"]
    assert m["label"] == "first leader's edge: the president's (points/round)"
    assert "it was the president in 75% of the rounds, so this edge is the president's" in m["description"]
    assert out["metrics"]["edge_by_position.leader_1"]["label"] == (
        "edge of the 1st after the first leader (the president in 75% of the rounds) (points/round)")
    mighty = compare("mighty", ["a", "b"], "random", deals=2, skill=None, seed=1)
    assert mighty["first_leader_role"] == {"label": "president", "share": 1.0}
    assert mighty["metrics"]["first_leader_advantage"]["label"] == "first leader's edge: the president's (points/round)"
    assert compare(TOD, ["a", "b"], "random", deals=2, skill=None)["first_leader_role"] is None
