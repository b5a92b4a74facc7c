"""The ``torite`` command: games, rules, play, simulate, replay."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from torite import __version__
from torite.bots import BotError, parse_bots
from torite.build import build_name
from torite.cli.common import CliError, Progress, add_game_module_argument, load_game_modules, parse_options
from torite.engine.base import OptionError, table_options
from torite.engine.registry import game_class, game_ids, make_game
from torite.parallel import add_backend_arguments
from torite.present import labels
from torite.present.pages import rules_page
from torite.record import Record, RecordError, replay
from torite.stats import interval_text


def cmd_games(args: argparse.Namespace) -> int:
    info = [game_class(g).describe() for g in game_ids()]
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=1))
        return 0
    for g in info:
        print(f"{g['id']}  —  {g['title']}")
        for o in g["options"]:
            extra = f" (one of {', '.join(map(str, o['choices']))})" if "choices" in o else ""
            print(f"    {o['name']} = {o['default']!s}{extra}: {o['help']}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(rules_page(game_class(args.game), args.lang))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    if args.resume is not None:
        return _resume(args)
    if args.game is None:
        raise CliError("name the game to play (torite games lists them), or --resume RECORD")
    # a table's options (claims in Umbridge) unless -o says otherwise
    game = make_game(args.game, {**table_options(game_class(args.game).OPTIONS), **parse_options(args.option)})
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be from 0 to {n - 1}")
    if args.rounds is not None and args.rounds < 1:
        raise CliError("--rounds needs a positive number")
    if args.bot_delay < 0:
        raise CliError("--bot-delay cannot be negative")
    bots = parse_bots(args.bots, n - 1)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    records = Path(args.record_dir)
    # the table needs a terminal both ways; piped input or output (scripts) gets the line mode
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from torite.cli.terminal import play_terminal

        play_terminal(game, args.seat, bots, seed, records=records, lang=args.lang, max_rounds=args.rounds)
        return 0
    from torite.cli.tui import play_tui

    play_tui(game, args.seat, bots, seed, records=records, lang=args.lang, max_rounds=args.rounds,
             bot_delay=args.bot_delay)
    return 0


def _resume(args: argparse.Namespace) -> int:
    """``play --resume RECORD``: the record replayed to where it stopped (checked whole first:
    a bad record is one clear error and nothing is played), then played on and saved back."""
    from torite.cli.resume import resume

    if args.option or args.seed is not None or args.rounds is not None:
        raise CliError("--resume goes on with the record's game: its options, seed, seats and rounds are the record's")
    try:
        res = resume(args.resume)
    except RecordError as e:
        raise CliError(f"cannot resume {args.resume}: {e}") from None
    if args.game is not None and args.game != res.game.id:
        raise CliError(f"{res.path} is a game of {res.game.id}, not {args.game}")
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from torite.cli.terminal import play_terminal

        play_terminal(res.game, res.human, [], 0, records=res.path.parent, lang=args.lang, resumed=res)
        return 0
    from torite.cli.tui import Session, play_tui

    play_tui(res.game, res.human, [], 0, records=res.path.parent, lang=args.lang, bot_delay=args.bot_delay,
             session=Session.resumed(res, lang=args.lang))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from torite.sim import simulate

    game = make_game(args.game, parse_options(args.option))
    bots = parse_bots(args.bots, game.num_players)
    if (args.rounds is not None and args.rounds < 1) or (args.games is not None and args.games < 1):
        raise CliError("--rounds and --games need a positive number")
    if args.jobs < 1:
        raise CliError("--jobs needs a positive number")
    unit = "rounds" if args.rounds is not None else "games"
    out = simulate(args.game, game.options, bots, rounds=args.rounds, games=args.games, seed=args.seed,
                   jobs=args.jobs, records=args.records, progress=Progress(f"{args.game} {unit}"),
                   backend=args.backend, address=args.address)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(format_simulation(out))
    if args.records:
        print(f"records in {args.records}/: watch one with `torite replay FILE --view` "
              "(or at /replay of `torite serve`)")
    return 0


def format_simulation(out: dict[str, Any]) -> str:
    """``simulate``'s result for reading: points per seat with their 95% intervals, and the game's
    counters by their words (a counter that never happened is said once, not listed)."""
    words = labels.load(game_class(out["game"]), "en")
    lines = [f"{out['game']}  {out['options']}",
             f"{out['rounds']} round{'s' if out['rounds'] != 1 else ''}, {out['rounds_per_second']:.0f} rounds/s, "
             f"{out['actions_per_second']:.0f} actions/s"]
    if "ray" in out:
        ray = out["ray"]
        lines.append(f"  on Ray: {ray['cpus']} CPUs on {ray['nodes']} node{'s' if ray['nodes'] != 1 else ''}; its "
                     f"start-up took {ray['startup_seconds']:.1f} s, not counted in the rates")
    lines.append("  points per round, with 95% intervals:")
    for s, b in enumerate(out["bots"]):
        ci = out["points_per_round_ci95"][s]
        line = (f"  seat {s} {b:>8}: {out['points_per_round'][s]:8.2f} "
                f"{interval_text(ci) if ci else '(' + interval_text(ci) + ')'}")
        if "wins" in out:
            line += f", {out['wins'][s]} wins"
        lines.append(line)
    quiet = []
    for key, v in out["stats"].items():
        label = words.stat_label(key.removesuffix("_per_round"))
        if v:
            lines.append(f"  {label} per round: {v:.3f}")
        else:
            quiet.append(label)
    if quiet:
        lines.append(f"  never happened: {', '.join(quiet)}")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        rec = Record.load(args.file)
        if args.view:
            from torite.cli.tui.replay import view_replay
            from torite.replay import Replay

            view_replay(Replay(rec), lang=args.lang)
            return 0
        state = replay(rec)
    except RecordError as e:
        if args.json:
            print(json.dumps({"ok": False, "error": str(e)}))
        else:
            print(f"torite replay: {args.file}: {e}", file=sys.stderr)
        return 1
    over = state.is_over()
    res = state.result().to_json()
    if args.json:
        print(json.dumps({"ok": True, "game": rec.game, "actions": len(rec.actions), "finished": over,
                          "result": res}, ensure_ascii=False))
    else:
        print(f"{args.file}: {rec.game}, {len(rec.actions)} actions checked, "
              f"{'finished' if over else 'unfinished'}")
        print(f"  scores {res['scores']}, winners {res['winners']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="torite", description="Trick-taking card games: play, study, design.")
    p.add_argument("--version", action="version", version=f"torite {__version__} ({build_name()} build)")
    sub = p.add_subparsers(dest="command", required=True)

    g = sub.add_parser("games", help="list the games and their options")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    r = sub.add_parser("rules", help="print a game's rules page")
    r.add_argument("game")
    r.add_argument("--lang", default="en", help="en, ja or ko")
    r.set_defaults(func=cmd_rules)

    pl = sub.add_parser("play", help="play in the terminal against bots (a full-screen table; --plain: line mode)")
    pl.add_argument("game", nargs="?", help="the game (not needed with --resume)")
    pl.add_argument("--resume", default=None, metavar="RECORD",
                    help="go on with an unfinished game: its record, or a folder of records (the newest unfinished)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    pl.add_argument("--bots", default="normal",
                    help="bot names for the other seats, e.g. normal,random (default normal)")
    pl.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--record-dir", default="torite-records", help="where the game's record is saved")
    pl.add_argument("--lang", default="en", help="language of the game's texts: en, ja, ko (as the game offers)")
    pl.add_argument("--plain", action="store_true",
                    help="line mode (screen readers, scripts); also used when input or output is not a terminal")
    pl.add_argument("--rounds", type=int, default=None, metavar="N", help="stop after N rounds")
    pl.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                    help="pause before each bot's move in the table, to follow the cards")
    pl.set_defaults(func=cmd_play)

    s = sub.add_parser("simulate", help="bots play many rounds or games; statistics")
    s.add_argument("game")
    unit = s.add_mutually_exclusive_group(required=True)
    unit.add_argument("--rounds", type=int, help="play N single rounds, the dealer rotating")
    unit.add_argument("--games", type=int, help="play N whole games")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--bots", default="random",
                   help="one name for every seat, or one per seat, e.g. normal,random,random (default random)")
    s.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    s.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    add_backend_arguments(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--records", default=None, metavar="DIR", help="write every game's record here")
    s.set_defaults(func=cmd_simulate)

    rp = sub.add_parser("replay", help="check a game record and recompute its result (--view: step through it)")
    rp.add_argument("file")
    rp.add_argument("--json", action="store_true")
    rp.add_argument("--view", action="store_true",
                    help="step through the game in the terminal table (←/→, t/r next trick/round, v whose eyes)")
    rp.add_argument("--lang", default="en", help="language of the table with --view: en, ja, ko")
    rp.set_defaults(func=cmd_replay)
    for extra in _EXTRA_COMMANDS:
        extra(sub)
    for command in sub.choices.values():  # every subcommand: a game of one's own is named like a shipped one
        add_game_module_argument(command)
    return p


# Commands that live in optional modules (server, arena) add themselves here.
_EXTRA_COMMANDS: list[Any] = []


def _register_extra_commands() -> None:
    """Faces that live in their own modules; each import is light (heavy deps load on use).
    They import what they share with this module from ``torite.cli.common``, never this module,
    so the dependency runs one way."""
    from torite.cli.arena_cmd import add_arena_command
    from torite.cli.compare_cmd import add_compare_command
    from torite.server.cli import add_serve_command

    _EXTRA_COMMANDS.extend([add_arena_command, add_compare_command, add_serve_command])


_register_extra_commands()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        load_game_modules(args)
        code: int = args.func(args)
        return code
    except (CliError, OptionError, BotError, ValueError) as e:
        print(f"torite {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `torite rules X | head` closed our stdout: that is the reader's choice, not an error to
        # trace.  Point stdout at /dev/null so the interpreter's flush at exit cannot raise again
        # (the recipe of Python's signal documentation), and end as a piped program does.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    raise SystemExit(main())
