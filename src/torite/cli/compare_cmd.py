"""``torite compare``: what a rule change does to a game, on common deals, as a table, JSON or an
HTML report.

Wired into ``torite.cli.main`` by listing :func:`add_compare_command` in ``_EXTRA_COMMANDS``.  Like
the arena's command it takes what it shares from ``torite.cli.common`` and never imports ``main``;
the experiment, numpy and matplotlib load only when the command runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from torite.cli.common import CliError, Progress, parse_options
from torite.parallel import add_backend_arguments


def add_compare_command(sub: Any) -> None:
    """Add the ``compare`` subcommand to ``sub`` (the subparsers object of the ``torite`` parser)."""
    c = sub.add_parser(
        "compare", help="what a rule change does: variants on the same deals, paired statistics",
        description="Every variant plays the same deals with the same bots (common random numbers); "
                    "prints a one-line verdict per variant, whether its rule ever came into play with each set "
                    "of bots, and, with 95% intervals, points, spread, game length, lead changes, how often "
                    "each rule came into play, skill, luck and the seats by position (Holm-corrected), each "
                    "paired against the first variant.",
        epilog="example: torite compare trick-of-the-dead --variant base --variant survival:survival=true "
               "--variant open:open_graveyard=true --deals 300 --jobs 2 --report tod.html")
    c.add_argument("game")
    c.add_argument("--variant", action="append", default=[], metavar="NAME[:KEY=VALUE,…]", required=True,
                   help="a variant: a name and the options it sets; the first is the reference (repeat)")
    c.add_argument("--bots", default="normal", help="the table's bots: one name for every seat, or one per seat "
                                                    "(default normal)")
    c.add_argument("--skill", default="normal,random", metavar="STRONG,WEAK",
                   help="the two bots of the skill and luck measures (duplicate play), or 'off' "
                        "(default normal,random)")
    c.add_argument("--deals", type=int, default=200, help="deals per variant, at least 2 (default 200)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--jobs", type=int, default=1, help="worker processes, each playing one deal at a time (default 1)")
    add_backend_arguments(c)
    c.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option every variant shares (a variant's own value wins)")
    c.add_argument("--report", default=None, metavar="FILE.html", help="write the HTML report")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=cmd_compare)


def parse_skill(text: str) -> tuple[str, str] | None:
    """``STRONG,WEAK`` or ``off``."""
    if text.strip().lower() in ("off", "none", "no"):
        return None
    names = [x.strip() for x in text.split(",")]
    if len(names) != 2 or not all(names):
        raise CliError(f"--skill {text!r}: name two bots, STRONG,WEAK (e.g. normal,random), or off")
    if names[0] == names[1]:
        raise CliError("--skill: name two different bots")
    return names[0], names[1]


def cmd_compare(args: argparse.Namespace) -> int:
    from torite.bots import parse_bots
    from torite.compare import make_variants, run_experiment
    from torite.compare.analysis import analyze
    from torite.engine.registry import make_game

    skill = parse_skill(args.skill)
    if args.deals < 2:
        raise CliError("--deals needs at least 2 (an interval needs two deals to measure their spread)")
    if args.jobs < 1:
        raise CliError("--jobs needs a positive number")
    if args.report is not None and not args.report.lower().endswith((".html", ".htm")):
        raise CliError("--report writes an HTML page: give a name ending in .html")
    variants = make_variants(args.game, args.variant, parse_options(args.option))
    game = make_game(args.game, variants[0].options)
    bots = parse_bots(args.bots, game.num_players)
    if skill is not None:
        parse_bots(list(skill), 2)  # unknown names → BotError
    exp = run_experiment(args.game, variants, bots, deals=args.deals, skill=skill, seed=args.seed, jobs=args.jobs,
                         progress=Progress(f"{args.game} compare"), backend=args.backend, address=args.address)
    out = analyze(exp)
    if args.report is not None:
        from torite.compare.report import write

        write(out, args.report)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(format_summary(out))
    if args.report is not None:
        print(f"report written to {args.report}")
    return 0


def format_summary(out: dict[str, Any]) -> str:
    """The comparison as readable text: the findings, what is too wide, and a compact table."""
    names = [v["name"] for v in out["variants"]]
    lines = [f"{out['title']}: {' vs '.join(names)}",
             f"{out['deals']} deals per variant, bots {','.join(out['bots'])}, seed {out['seed']}, "
             f"{out['rounds_played']} rounds in {out['seconds']:.0f} s ({out['cpu_seconds']:.0f} s of processor time, "
             f"{out['jobs']} job{'s' if out['jobs'] != 1 else ''})"]
    if len(names) > 1:
        lines.append("Verdict:")
        lines.extend(f"  {out['per_variant'][name]['verdict']}" for name in names[1:])
        lines.append("Is it swingier?")
        lines.extend(f"  {out['per_variant'][name]['swing']}" for name in names[1:])
        lines.append(f"What changes against {names[0]}:")
        lines.extend(f"  - {s}" for s in out["findings"])
        if not out["findings"]:
            lines.append("  nothing significant at this size")
        if out["inconclusive"]:
            lines.append("Too wide to conclude (raise --deals):")
            lines.extend(f"  - {x['text']}" for x in out["inconclusive"])
    if out.get("never_happened"):
        lines.append("Never happened, in any variant: " + ", ".join(x["label"] for x in out["never_happened"]) + ".")
    if out["deals"] < 30:
        lines.append(f"(only {out['deals']} deals: intervals are optimistic below about 30; raise --deals)")
    width = max(len(m["label"]) for m in out["metrics"].values())
    lines.append("  (▲▼ significant, △▽ significant but negligible, ≈ no meaningful difference, "
                 "? too wide to conclude)")
    lines.append("  " + " " * width + "".join(f" {n[:14]:>15}" for n in names))
    group = None
    for m in out["metrics"].values():
        if m["group"] != group:
            group = m["group"]
            lines.append(f"  [{group}{' (Holm-corrected)' if m.get('family') else ''}]")
        row = f"  {m['label']:<{width}}"
        for k, name in enumerate(names):
            cell = m["format"].format(m["values"][name]["mean"])
            if k:
                cell += m["diffs"][name]["marker"]  # ▲▼ significant, △▽ but negligible, ≈ same, ? too wide
            row += f" {cell:>15}"
        lines.append(row)
    return "\n".join(lines)
