"""Play a game in the terminal against bots.

Only the protocol is used: the observation of the human's seat, its legal actions, the events
it may see, and the game's own ``status`` and ``event_text`` for labels.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from torite.bots import make_bot
from torite.cards import card_str, parse_card
from torite.engine.base import Action, Game, IllegalAction, State
from torite.record import Record, start_record
from torite.sim import derive_seed

HELP = """Type an action: a card (10D, QS, JK1) to play it, two cards to bury (KC QC),
a suit letter to declare (S), or the full notation (play 10D, trump S). A number picks that
entry of the list of legal actions. Other commands: hand, last (the last trick), help, quit."""


def read_action(text: str, legal: Sequence[Action], game: Game) -> Action:
    """Turn what a person typed into an action (a number picks from ``legal``)."""
    t = text.strip()
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise IllegalAction(f"pick a number from 1 to {len(legal)}")
    kinds = {a.kind for a in legal}
    first = t.split()[0].lower() if t.split() else ""
    if first not in kinds and len(kinds) == 1:
        t = f"{next(iter(kinds))} {t}"
    return game.parse_action(t)  # the rules check it when it is applied, with their reason


def show_hand(game: Game, hand: Sequence[str], legal: Sequence[Action]) -> str:
    legal_cards = 0
    for a in legal:
        if a.kind == "play":
            legal_cards |= a.cards
    cards = sorted((parse_card(c) for c in hand), key=game.sort_key)
    out = []
    for c in cards:
        mark = "*" if legal_cards >> c & 1 else " "
        out.append(f"{mark}{card_str(c)}")
    return " ".join(out)


def play_terminal(game: Game, human: int, bots: Sequence[str], seed: int, *, records: Path,
                  inp: TextIO = sys.stdin, out: TextIO = sys.stdout,
                  ask: Callable[[str], str] | None = None) -> Record:
    state: State = game.new_state(seed)
    n = game.num_players
    names = []
    players = {}
    bi = 0
    for s in range(n):
        if s == human:
            names.append("you")
        else:
            names.append(f"bot:{bots[bi]}")
            players[s] = make_bot(bots[bi], game, s, derive_seed(seed, "bot", s))
            bi += 1
    rec = start_record(game, seed, names)
    shown = 0

    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    def label(seat: int) -> str:
        return "you" if seat == human else f"seat {seat} ({names[seat][4:]})"

    def flush_events() -> None:
        nonlocal shown
        for e in state.events[shown:]:
            if e.visible_to(human) and e.kind != "deal":
                text = game.event_text(e)
                if text:
                    say("  " + _second_person(text, human))
        shown = len(state.events)

    def prompt(msg: str) -> str | None:
        if ask is not None:
            return ask(msg)
        print(msg, end="", file=out, flush=True)
        line = inp.readline()
        return None if line == "" else line

    say(f"{game.title}: you are seat {human}; " + ", ".join(
        f"seat {s} is {names[s]}" for s in range(n) if s != human))
    say("Type 'help' for how to enter moves.")
    quit_early = False
    while not state.is_over() and not quit_early:
        flush_events()
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            if seat != human:
                action = players[seat].act(state.observation(seat), legal)
                state.apply(seat, action)
                rec.actions.append((seat, str(action)))
                continue
            obs = state.observation(seat)
            say("")
            say(f"Round {obs['round'] + 1} · dealer {label(obs['dealer'])} · scores " +
                " / ".join(f"{label(s)} {obs['scores'][s]}" for s in range(n)))
            for k, v in game.status(obs):
                say(f"  {k}: {v}")
            if obs.get("trick"):
                say("  trick: " + ", ".join(f"{label(t['seat'])} {t['card'] or '??'}" for t in obs["trick"]))
            say("  your hand: " + show_hand(game, obs["hand"], legal))
            if legal[0].kind != "play":
                shown_list = legal if len(legal) <= 12 else []
                if shown_list:
                    say("  choose: " + "  ".join(f"{i + 1}) {a}" for i, a in enumerate(shown_list)))
                else:
                    say(f"  {legal[0].kind}: {len(legal)} choices, e.g. '{legal[0]}'")
            while True:
                line = prompt(f"{legal[0].kind}> ")
                if line is None or line.strip().lower() in ("quit", "exit", "q"):
                    quit_early = True
                    break
                cmd = line.strip().lower()
                if cmd in ("help", "?", ""):
                    say(HELP)
                    continue
                if cmd == "hand":
                    say("  your hand: " + show_hand(game, obs["hand"], legal))
                    continue
                if cmd == "last":
                    tricks = obs.get("tricks") or []
                    say("  last trick: " + (" ".join(tricks[-1]["cards"]) + f" won by "
                                            f"{label(tricks[-1]['winner'])}" if tricks else "none yet"))
                    continue
                try:
                    action = read_action(line, legal, game)
                    state.apply(seat, action)
                except (IllegalAction, ValueError) as e:
                    say(f"  ! {e}")
                    continue
                rec.actions.append((seat, str(action)))
                break
            if quit_early:
                break
    flush_events()
    if state.is_over():
        res = state.result()
        rec.result = res.to_json()
        say("")
        say("Final scores: " + " / ".join(f"{label(s)} {res.scores[s]}" for s in range(n)))
        say("Winner: " + ", ".join(label(s) for s in res.winners))
    else:
        say("Game left unfinished.")
    path = records / f"{game.id}-{seed}.json"
    rec.save(path)
    say(f"Record saved to {path} (replay it with: torite replay {path})")
    return rec




_VERBS = {"plays": "play", "buries": "bury", "wins": "win", "declares": "declare", "calls": "call",
          "deals": "deal", "replaces": "replace", "passes": "pass", "draws": "draw", "is": "are"}


def _second_person(text: str, seat: int) -> str:
    """'seat 0 plays 10D' -> 'you play 10D' for the person at seat 0."""
    text = text.replace(f"seat {seat}'s", "your")
    for verb, base in _VERBS.items():
        text = text.replace(f"seat {seat} {verb} ", f"you {base} ")
    return text.replace(f"seat {seat}", "you")
