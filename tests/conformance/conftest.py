"""Parametrizes every test that takes ``case`` over every registered game under every option
combination that changes its rules (see ``harness.cases``).

The registry is read at collection time: a game registered by a conftest closer to the root
(or by ``torite.engine.registry`` itself) gets the whole suite.
"""

from __future__ import annotations

import pytest

from .harness import Case, cases

#: Known failures, (test name, game id) -> what fails: a game being fixed can be listed here
#: for a while.  Strict: once the game is fixed its test passes, the xfail turns into a failure,
#: and the entry must go.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def _param(test: str, case: Case) -> object:
    reason = KNOWN_FAILURES.get((test, case.game_id))
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(case, marks=marks, id=case.id)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    chosen = any("case" in str(m.args[0]).split(",") for m in metafunc.definition.iter_markers("parametrize"))
    if "case" in metafunc.fixturenames and not chosen:  # a test may choose its own cases
        metafunc.parametrize("case", [_param(metafunc.function.__name__, c) for c in cases()])
