"""``torite compare``: what a rule change does to a game, measured on common deals.

:mod:`~torite.compare.experiment` plays the variants on the same seeds,
:mod:`~torite.compare.analysis` turns the plays into intervals, paired differences and plain
sentences (the ``--json`` output), :mod:`~torite.compare.report` renders them as one
self-contained HTML page.
"""

from __future__ import annotations

from typing import Any

from torite.compare.experiment import Experiment, Variant, VariantError, make_variants, parse_variant, run_experiment

__all__ = ["Experiment", "Variant", "VariantError", "compare", "make_variants", "parse_variant", "run_experiment"]


def compare(game_id: str, variants: list[str], bots: list[str] | str = "normal", *, deals: int = 200,
            skill: tuple[str, str] | None = ("normal", "random"), seed: int = 0, jobs: int = 1,
            common: dict[str, Any] | None = None, progress: Any = None, backend: str = "local",
            address: str | None = None) -> dict[str, Any]:
    """Parse ``variants`` (``NAME:KEY=VALUE,…``), play them and return the analysis (JSON-ready)."""
    from torite.bots import parse_bots
    from torite.compare.analysis import analyze
    from torite.engine.registry import make_game

    checked = make_variants(game_id, variants, common)
    n = make_game(game_id, checked[0].options).num_players
    names = parse_bots(bots, n)
    exp = run_experiment(game_id, checked, names, deals=deals, skill=skill, seed=seed, jobs=jobs, progress=progress,
                         backend=backend, address=address)
    return analyze(exp)
