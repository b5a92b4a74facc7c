"""What a player reads, checked for notation: every status row, log line, prompt, button, trick
fact and round-summary text of random games, in every language, through the labels' rich text
(each string part and token) and its plain and spoken forms.

Notation is what records and actions are written in, never what a player should read: a card
text (``10D``, ``AS``, ``JK1``), a suit letter standing for a suit, a contract ``14 H`` /
``15 NT``, a raw phase, action or event id, a Python list or dict.  A placeholder's output is a
part of its own in the rich text, so a lone letter there is a suit put in raw, while the same
letter in the template's own words (Mighty's formula ``S = B × F``) is the author's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torite.engine import Action, Event, Game, State
from torite.present.labels import TOKEN_KINDS, Labels, languages
from torite.present.labels import load as labels_of
from torite.testing.labels import word_problems

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[CDHS](?![A-Za-z0-9])")
JOKER = re.compile(r"(?<![A-Za-z0-9])JK\d?(?![A-Za-z0-9])")
CONTRACT = re.compile(r"(?<![A-Za-z0-9])\d+ (?:NT|[CDHS])(?![A-Za-z0-9])")
#: a suit letter alone (not a formula's variable: "S = …")
LONE_SUIT = re.compile(r"(?<![A-Za-z0-9.'’_-])[CDHS](?![A-Za-z0-9.'’_-])(?!\s*[=×])")
RAW = re.compile(r"\[\s*(?:-?\d|None|True|False|')|\{'|\bNone\b")
SNAKE = re.compile(r"(?<![A-Za-z0-9])[a-z]+_[a-z0-9_]+(?![A-Za-z0-9])")
#: Korean "나" (the reader) with a particle in both forms: the template lacks its "you" form
KO_ME = re.compile(r"(?<![가-힣])나(?:이\(가\)|을\(를\)|은\(는\)|과\(와\)|\(으\)로)")
SUITS = frozenset("CDHS")


def token_problems(tok: Mapping[str, Any], lab: Labels) -> list[str]:
    kind = tok.get("t")
    if kind not in TOKEN_KINDS:
        return [f"unknown token {tok!r}"]
    try:
        lab.token_text(tok)
    except Exception as e:  # any failure to draw a token is the finding
        return [f"token {tok!r} cannot be drawn ({e})"]
    return []


def part_problems(part: str, ids: frozenset[str], lang: str) -> list[str]:
    out = []
    for rx, what in ((CARD, "a card in notation"), (JOKER, "a joker in notation"),
                     (CONTRACT, "a contract in notation"), (RAW, "a raw list or null"),
                     (SNAKE, "a raw id"), (LONE_SUIT, "a suit letter")):
        m = rx.search(part)
        if m:
            out.append(f"{what} {m.group(0)!r}")
    stripped = part.strip(" :：、,.()（）")
    if stripped in ids and (lang != "en" or "-" in stripped or stripped.isupper()):
        out.append(f"a raw id {stripped!r}")
    return out


def rich_problems(rich: Sequence[Any] | None, lab: Labels, ids: frozenset[str]) -> list[str]:
    """Notation in one rich text: its string parts, its tokens, its plain and spoken forms."""
    if rich is None:
        return []
    out: list[str] = []
    for part in rich:
        if isinstance(part, str):
            out.extend(part_problems(part, ids, lab.lang))
        elif isinstance(part, Mapping):
            out.extend(token_problems(part, lab))
        else:
            out.append(f"a part that is neither text nor token: {part!r}")
    if not out:
        for spoken in (False, True):
            text = lab.text(rich, spoken=spoken)
            for rx, what in ((CARD, "a card in notation"), (CONTRACT, "a contract in notation")):
                m = rx.search(text)
                if m:
                    out.append(f"{what} {m.group(0)!r} in the {'spoken' if spoken else 'plain'} text")
    return out


def korean_me(text: str) -> list[str]:
    """The reader's 나 with a particle in both forms ("나이(가)"): its template needs a "you" form."""
    m = KO_ME.search(text)
    return [f"{m.group(0)!r} (give the text a 'you' form: 내가, 나를, 나는)"] if m else []


@dataclass
class Sample:
    """What random games of one game showed, to be read in every language."""

    game: Game
    observations: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    actions: dict[str, Action] = field(default_factory=dict)
    tricks: list[dict[str, Any]] = field(default_factory=list)
    phases: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)


def sample(game: Game, seeds: Iterable[int], max_rounds: int) -> Sample:
    """Random games to ``max_rounds`` rounds: every seat's and the spectator's observation at
    every step, every event, every legal action offered, every finished trick."""
    s = Sample(game)
    s.ids |= set(game.options) | {str(v) for v in game.options.values() if isinstance(v, str)}
    for seed in seeds:
        rng = random.Random(seed)
        state: State = game.new_state(seed, max_rounds=max_rounds)
        for _ in range(20_000):
            for viewer in (*range(game.num_players), None):
                s.observations.append(state.observation(viewer))
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            legal = state.legal_actions(seat)
            for a in legal:
                s.actions.setdefault(str(a), a)
            state.apply(seat, rng.choice(legal))
        s.events.extend(state.events)
    for obs in s.observations:
        s.phases.add(str(obs.get("phase")))
        for t in obs.get("tricks") or ():
            if isinstance(t, Mapping) and len(s.tricks) < 400:
                s.tricks.append(dict(t))
    s.ids |= s.phases | {a.kind for a in s.actions.values()} | {e.kind for e in s.events}
    s.ids |= {a.arg for a in s.actions.values() if a.arg and re.fullmatch(r"[A-Za-z_-]+", a.arg)}
    s.ids -= {"", "None"}
    return s


def texts(s: Sample, lab: Labels) -> Iterator[tuple[str, Sequence[Any]]]:
    """Every text a player of ``s.game`` reads in ``lab``'s language, as (where, rich text)."""
    n = s.game.num_players
    you = lab.word("you")
    seen: set[str] = set()

    def once(where: str, rich: Sequence[Any] | None) -> Iterator[tuple[str, Sequence[Any]]]:
        if rich is None:
            return
        key = repr(rich)
        if key not in seen:
            seen.add(key)
            yield where, rich

    for obs in s.observations:
        viewer = obs.get("seat")
        names = None if viewer is None else [you if k == viewer else None for k in range(n)]
        for label, value in lab.status_rich(obs, names):
            yield from once(f"status {label!r}", [label])
            yield from once(f"status {label!r}", value)
    for e in s.events:
        yield from once(f"event {e.kind}", lab.event_rich(e))
        if e.seat >= 0:  # as the terminal tells it to that seat's player
            names = [you if k == e.seat else None for k in range(n)]
            yield from once(f"event {e.kind} (to its seat)", lab.event_rich(e, names, e.seat))
    for a in s.actions.values():
        yield from once(f"button {a.kind}", lab.action_rich(a))
        yield from once(f"action {a.kind}", [lab.action_label(a.kind)])
    for t in s.tricks:
        for label, value in lab.trick_facts_rich(t):
            yield from once(f"trick fact {label!r}", [label])
            yield from once(f"trick fact {label!r}", value)
    for phase in s.phases:
        yield from once(f"phase {phase}", [lab.phase_name(phase)])
        yield from once(f"prompt {phase}", [lab.phase_prompt(phase) or ""])
    maps = lab.data["maps"]
    for key, label in (maps.get("piles") or {}).items():
        yield from once(f"maps.piles.{key}", [label])
    for key, label in lab.data["scoring"].items():
        yield from once(f"scoring.{key}", [label])
    for tag, word in lab.data["tags"].items():
        yield from once(f"tag {tag}", [word])
    yield from once("goal", lab.goal_rich(s.game.options) or [])
    for e in s.events:
        if e.kind == "round_end":
            for label, value in lab.explain_rich(e.data):
                yield from once(f"explain {label!r}", [label])
                yield from once(f"explain {label!r}", value)


def problems(s: Sample) -> list[str]:
    out: dict[str, None] = {}
    ids = frozenset(s.ids)
    for lang in languages(s.game):
        lab = labels_of(s.game, lang)
        for where, rich in texts(s, lab):
            for p in rich_problems(rich, lab, ids):
                out[f"{s.game.id} [{lang}] {where}: {p} in {lab.text(rich)!r}"] = None
            for p in word_problems(lab, list(rich)):
                out[f"{s.game.id} [{lang}] {where}: {p}"] = None
            if lang == "ko":
                for p in korean_me(lab.text(rich)):
                    out[f"{s.game.id} [ko] {where}: {p} in {lab.text(rich)!r}"] = None
    return list(out)
