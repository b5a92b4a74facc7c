"""Parametrizes every test that takes ``case`` over every registered game under every option
combination that changes its rules (see ``harness.cases``).

The registry is read at collection time: a game registered by a conftest closer to the root
(or by ``torite.engine.registry`` itself) gets the whole suite.
"""

from __future__ import annotations

import pytest

from .harness import Case, cases

#: Known failures, (test name, game id or case id) -> what fails: a game being fixed can be
#: listed here for a while, whole (``"kaedama"``) or under one option set (its case id, as
#: pytest shows it: ``"kaedama[blind,double]"``).  Strict: once the game is fixed its test
#: passes, the xfail turns into a failure, and the entry must go.
KNOWN_FAILURES: dict[tuple[str, str], str] = {
    # the round summary's rows state the default values of house rules (issue 38.2: the
    # explanations that state a number a house rule changes), found by the house-rule cases
    ("test_every_round_summary_recomputes_from_its_rows", "good-cop[joker=wild,penalty_points=3]"):
        "the summary's nets count a penalty card at 1, not at the house rules' penalty_points",
    ("test_every_round_summary_recomputes_from_its_rows",
     "mighty[deal_miss=half_point,all_pass=min12,discards_count=False,joker_first_trick=forbidden,lone_share=2,"
     "mighty_when_spades=CA,doubling=3]"):
        "the summary's doublings multiply by 2, not by the house rules' doubling",
}

#: Checks that cannot apply to a case, (test name, game id or case id) -> why: skipped with the
#: reason, never silently (a game of one-card hands never refuses a card of its hand, so the
#: refusal check has nothing to look at).  A correct game needs an entry only where the rule the
#: check stands on is not in the game.
NOT_APPLICABLE: dict[tuple[str, str], str] = {}


def _listed(table: dict[tuple[str, str], str], test: str, case: Case) -> str | None:
    return table.get((test, case.id)) or table.get((test, case.game_id))


def _param(test: str, case: Case) -> object:
    marks = []
    failing = _listed(KNOWN_FAILURES, test, case)
    if failing:
        marks.append(pytest.mark.xfail(reason=failing, strict=True))
    skipped = _listed(NOT_APPLICABLE, test, case)
    if skipped:
        marks.append(pytest.mark.skip(reason=skipped))
    return pytest.param(case, marks=marks, id=case.id)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    chosen = any("case" in str(m.args[0]).split(",") for m in metafunc.definition.iter_markers("parametrize"))
    if "case" in metafunc.fixturenames and not chosen:  # a test may choose its own cases
        metafunc.parametrize("case", [_param(metafunc.function.__name__, c) for c in cases()])
