"""Generate the ready-made designers' reports of the seed variants (``torite compare``).

    .venv/bin/python scripts/make_reports.py [--out var/reports] [--deals 200] [--jobs 2] [--only ID,…]

Writes into ``--out`` (default ``var/reports/`` at the repository's root, whatever the current
directory; generated, never committed):

- ``<id>.html``: the self-contained report (no internet at view time), ``<id>.json``: its numbers
  (the ``torite compare --json`` object);
- ``index.json``: a JSON array, one object per report, in the order below:
  ``{"id", "title", "game", "file", "json", "variants", "deals", "seed", "findings"}`` where
  ``file`` and ``json`` are file names inside the same directory, ``variants`` the variant names
  (the first is the reference), ``findings`` the number of significant differences.

A report whose game is not registered is skipped with a message; the index lists what was written.
The numbers are a function of ``--seed`` and ``--deals`` alone (``--jobs`` only changes the time).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "var" / "reports"


@dataclass(frozen=True)
class Plan:
    """One ready-made report: its id (file name), title, game, variants (``NAME:KEY=VALUE,…``) and
    the share of ``--deals`` it plays (a game whose bots think slowly plays fewer)."""

    id: str
    title: str
    game: str
    variants: tuple[str, ...]
    deals_factor: float = 1.0


PLANS: tuple[Plan, ...] = (
    Plan("trick-of-the-dead-variants", "Trick of the Dead: survival mode, open graveyard, zombie-doubled tricks",
         "trick-of-the-dead",
         ("base", "survival:survival=true", "open graveyard:open_graveyard=true",
          "zombie doubles trick:zombie_doubles=trick")),
    Plan("trick-of-the-dead-two-players", "Trick of the Dead for two: base and survival mode",
         "trick-of-the-dead", ("two players:players=2", "two survival:players=2,survival=true")),
    Plan("kaedama-variants", "Kaedama Trick: blind, double, reverse and the trump card on top",
         "kaedama",
         ("base", "blind:blind=true", "double:double=true", "reverse:reverse=true", "trump on top:trump_card=top")),
    Plan("good-cop-variants", "Good Cop: wild jokers and the lone good cop's factor",
         "good-cop", ("base", "wild jokers:joker=wild", "lone factor 2:lone_factor=2")),
    Plan("seconds-variants", "Seconds: the 2021 edition, distinct ranks and the highest total",
         "seconds", ("classic", "2021:edition=2021", "distinct:tie_mode=distinct", "highest wins:winner=highest"),
         deals_factor=0.1),
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Generate the ready-made torite compare reports and their index.")
    p.add_argument("--out", default=str(DEFAULT_OUT),
                   help="output directory (default var/reports/ in the repository, whatever the current directory)")
    p.add_argument("--deals", type=int, default=200,
                   help="deals per variant (default 200; Seconds, whose bot looks ahead, a tenth)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--backend", default="local", help="local (processes) or ray (a Ray cluster)")
    p.add_argument("--address", default=None, help="the Ray cluster to join (with --backend ray)")
    p.add_argument("--bots", default="normal", help="the table's bots (default normal)")
    p.add_argument("--skill", default="normal,random", help="STRONG,WEAK for skill and luck, or off")
    p.add_argument("--only", default=None, metavar="ID,…", help="only these reports (ids: "
                   + ", ".join(plan.id for plan in PLANS) + ")")
    args = p.parse_args(argv)

    from torite.cli.common import Progress
    from torite.cli.compare_cmd import parse_skill
    from torite.compare import compare
    from torite.compare.report import write
    from torite.engine.registry import game_ids

    if args.deals < 2 or args.jobs < 1:
        p.error("--deals needs at least 2 and --jobs a positive number")
    plans = list(PLANS)
    if args.only:
        wanted = {x.strip() for x in args.only.split(",") if x.strip()}
        unknown = wanted - {plan.id for plan in PLANS}
        if unknown:
            p.error(f"unknown report {', '.join(sorted(unknown))} (reports: {', '.join(x.id for x in PLANS)})")
        plans = [plan for plan in PLANS if plan.id in wanted]
    skill = parse_skill(args.skill)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index: list[dict[str, Any]] = []
    for plan in plans:
        if plan.game not in game_ids():
            print(f"skipping {plan.id}: no game {plan.game!r} here", file=sys.stderr)
            continue
        deals = max(2, round(args.deals * plan.deals_factor))
        start = time.perf_counter()
        result = compare(plan.game, list(plan.variants), args.bots, deals=deals, skill=skill, seed=args.seed,
                         jobs=args.jobs, progress=Progress(plan.id), backend=args.backend, address=args.address)
        html_name, json_name = f"{plan.id}.html", f"{plan.id}.json"
        result["report_title"] = plan.title
        write(result, str(out / html_name))
        (out / json_name).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        found = sum(len(v["findings"]) for v in result["per_variant"].values())
        index.append({"id": plan.id, "title": plan.title, "game": plan.game, "file": html_name, "json": json_name,
                      "variants": [v["name"] for v in result["variants"]], "deals": deals, "seed": args.seed,
                      "findings": found})
        print(f"{plan.id}: {deals} deals × {len(plan.variants)} variants in {time.perf_counter() - start:.0f} s, "
              f"{found} findings → {out / html_name}")
        for v in result["per_variant"].values():
            print(f"  {v['verdict']}")
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"index: {out / 'index.json'} ({len(index)} reports)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
