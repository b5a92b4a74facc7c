"""``torite arena``: duplicate deals between bots, a table (or JSON) and an optional plot.

Wired into ``torite.cli.main`` by listing :func:`add_arena_command` in ``_EXTRA_COMMANDS``.
It takes what it shares with the other commands from ``torite.cli.common`` and never imports
``main``, so ``main`` may import it at its top.  Building the parser stays light: the arena
itself and the bots load when the command runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from torite.cli.common import CliError, Progress, parse_options
from torite.parallel import add_backend_arguments
from torite.stats import interval_text


def add_arena_command(sub: Any) -> None:
    """Add the ``arena`` subcommand to ``sub`` (the subparsers object of the ``torite`` parser)."""
    a = sub.add_parser(
        "arena", help="duplicate deals between bots: paired statistics",
        description="Every deal (one seeded round) is played once for each seating of the bots, "
                    "so the luck of the cards cancels; prints points per round, win rates, decision "
                    "times and paired differences with 95% intervals.")
    a.add_argument("game")
    a.add_argument("--bots", required=True, help="two or more bot names, e.g. hard,normal,random")
    a.add_argument("--deals", type=int, default=100, help="number of deals (default 100)")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--jobs", type=int, default=1, help="worker processes")
    add_backend_arguments(a)
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.add_argument("--plot", default=None, metavar="FILE.png", help="save a bar chart with error bars")
    a.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    a.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    from torite.arena import arena, plot
    from torite.bots import parse_bots
    from torite.engine.registry import make_game

    game = make_game(args.game, parse_options(args.option))
    names = [x.strip() for x in args.bots.split(",") if x.strip()]
    if not names:
        raise CliError("--bots needs at least one bot name")
    if len(set(names)) != len(names):
        raise CliError("--bots: name each bot once (the arena seats them itself)")
    if len(names) > game.num_players:
        raise CliError(f"--bots: at most {game.num_players} bots for {args.game}")
    parse_bots(names, len(names))  # unknown names → BotError
    if args.deals < 1:
        raise CliError("--deals needs a positive number")
    if args.jobs < 1:
        raise CliError("--jobs needs a positive number")
    if args.plot is not None and not args.plot.lower().endswith(".png"):
        raise CliError("--plot writes a PNG file: give a name ending in .png")
    out = arena(args.game, game.options, names, args.deals, seed=args.seed, jobs=args.jobs,
                progress=Progress(f"{args.game} arena"), backend=args.backend, address=args.address)
    if args.plot is not None:
        plot(out, args.plot)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(format_table(out))
    if args.plot is not None:
        print(f"plot saved to {args.plot}")
    return 0


def format_table(out: dict[str, Any]) -> str:
    """The arena result as a readable table."""
    lines = [f"{out['game']}  {out['options']}",
             f"{out['deals']} deal{'s' if out['deals'] != 1 else ''} × {len(out['seatings'])} seatings = "
             f"{out['rounds']} rounds, "
             f"seed {out['seed']}, {out['seconds']:.0f} s"]
    w = max([10] + [len(r["name"]) for r in out["bots"]])  # names such as openspiel-ismcts
    head = (f"  {'bot':<{w}} {'points/round':>12} {'95% interval':>22} {'wins':>7}"
            f"   {'s/decision':>10} {'p50':>8} {'p99':>8}")
    lines.append(head)
    for r in out["bots"]:
        lines.append(f"  {r['name']:<{w}} {r['points_per_round']:12.2f} {interval_text(r['ci95']):>22} "
                     f"{100 * r['win_rate']:6.1f}%   {r['seconds_per_decision']:10.4f} "
                     f"{r['seconds_per_decision_p50']:8.4f} {r['seconds_per_decision_p99']:8.4f}")
    if out["pairs"]:
        lines.append("  paired differences (points/round, per deal):")
        for p in out["pairs"]:
            if p["ci95"] is None:
                lines.append(f"    {p['a']} − {p['b']}: {p['diff']:+.2f}  (one deal: no interval, not separated)")
                continue
            lo, hi = p["ci95"]
            sign = out.get("score_sign", 1)  # penalty points: fewer is better
            verdict = "better" if sign * lo > 0 and sign * hi > 0 else (
                "worse" if sign * lo < 0 and sign * hi < 0 else "not separated")
            lines.append(f"    {p['a']} − {p['b']}: {p['diff']:+.2f}  [{lo:+.2f}, {hi:+.2f}]  ({p['a']} {verdict})")
    return "\n".join(lines)
