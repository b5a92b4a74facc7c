"""Checking a game's words (test tooling): every option, phase, action, event and trick flag
that random games meet has its words in every language the game ships, every template renders
on what the games produce, and the languages have the same keys.  The labels tests and a new
game's author run these; nothing at run time does."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from torite.engine.base import Action, Event, Game, OptionError
from torite.engine.registry import game_class, make_game
from torite.present.labels.files import (
    _RENDER_ERRORS,
    COMMON_DIR,
    _langs_in,
    _read,
    game_folder,
    languages,
    load,
)
from torite.present.labels.templates import (
    LabelError,
)
from torite.present.labels.words import (
    Labels,
)

# ---------------------------------------------------------------- checking a game's labels
_ACTION_KEYS: Final = frozenset({"kind", "cards", "card", "arg", "you"})


def option_variants(cls: type[Game]) -> list[dict[str, Any]]:
    """Option sets worth playing to see every phase, action and event a game has: the
    defaults, each other choice of each option alone, and every true/false option flipped at once."""
    out: list[dict[str, Any]] = [{}]
    flipped = {}
    for spec in cls.OPTIONS:
        if isinstance(spec.default, bool):
            out.append({spec.name: not spec.default})
            flipped[spec.name] = not spec.default
        elif spec.choices is not None:
            out.extend({spec.name: c} for c in spec.choices if c != spec.default)
    if len(flipped) > 1:
        out.append(flipped)
    return out


def choice_key(value: Any) -> str:
    """How a choice is keyed in ``options.<name>.choices``: its value as JSON text, unquoted."""
    return json.dumps(value) if not isinstance(value, str) else value


def audit(game_id: str, *, option_sets: Sequence[Mapping[str, Any]] | None = None, seeds: int = 2,
          max_rounds: int = 1, rng_seed: int = 0) -> list[str]:
    """Everything missing or broken in a game's labels, in every language it ships: each option
    and choice, and each phase, action kind, event kind and trick flag that random games
    (through the protocol only) meet has its words; every template renders on what the games
    produce (every seat, the spectator, every reader as ``you``) and reads only keys that
    occur.  An empty list means complete."""
    cls = game_class(game_id)
    problems: list[str] = []
    phases: set[str] = set()
    kinds: set[str] = set()
    flags: set[str] = set()
    obs_keys: set[str] = set()
    fact_keys: set[str] = set()
    event_keys: dict[str, set[str]] = {}
    samples: list[tuple[Game, list[dict[str, Any]], list[Event], list[Action], list[dict[str, Any]]]] = []
    rng = random.Random(rng_seed)
    for opts in option_sets if option_sets is not None else option_variants(cls):
        try:
            game = make_game(game_id, opts)
        except OptionError:
            continue  # options that constrain each other: not every flip is a valid game
        for seed in range(seeds):
            state = game.new_state(seed, max_rounds=max_rounds)
            observations: list[dict[str, Any]] = []
            actions: list[Action] = []
            facts: list[dict[str, Any]] = []
            steps = 0
            while True:
                for seat in (None, *range(game.num_players)):
                    obs = state.observation(seat)
                    if seat is None or steps % 3 == 0 or seat in obs.get("to_act", ()):
                        observations.append(obs)
                if state.is_over() or steps > 5000:
                    break
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                actions.extend(legal)
                state.apply(seat, legal[rng.randrange(len(legal))])
                steps += 1
            for obs in observations:
                phases.add(str(obs.get("phase")))
                obs_keys |= set(obs)
                for entry in obs.get("trick") or ():
                    if isinstance(entry, Mapping):
                        flags |= {k for k, v in entry.items() if v is True}
                for t in obs.get("tricks") or ():
                    if isinstance(t, Mapping):
                        fact_keys |= set(t)
                        facts.append(dict(t))
            for e in state.events:
                event_keys.setdefault(e.kind, set()).update(e.data)
            kinds |= {a.kind for a in actions}
            samples.append((game, observations, list(state.events), actions, facts))

    for lang in languages(cls):
        try:
            lab = load(cls, lang)
        except LabelError as e:
            problems.append(str(e))
            continue
        where = f"{game_id} [{lang}]"
        data = lab.data
        for spec in cls.OPTIONS:
            o = data["options"].get(spec.name)
            if o is None:
                problems.append(f"{where}: options.{spec.name}: no label and help")
                continue
            for c in spec.choices or ():
                if choice_key(c) not in o.get("choices", {}):
                    problems.append(f"{where}: options.{spec.name}.choices: no words for {choice_key(c)!r}")
        for sec, needed in (("phases", phases), ("actions", kinds), ("events", set(event_keys)), ("tags", flags)):
            for key in sorted(needed - set(data[sec])):
                problems.append(f"{where}: {sec}.{key}: missing")
        allowed_event = {"player", "seat", "you", "kind"}
        for kind, tpl in lab.events.items():
            if kind in event_keys:
                for key in sorted(tpl.keys() - event_keys[kind] - allowed_event):
                    problems.append(f"{where}: events.{kind} reads {key!r}, which {kind} events never carry")
        for sec, rows, keys in (("status", lab.status_rows, obs_keys | {"you"}),
                                ("trick_facts", lab.fact_rows, fact_keys | {"you"})):
            for i, row in enumerate(rows):
                used = row.value.keys() | {c.key for c in row.cond} | {
                    c.other[1] for c in row.cond if c.other[0] == "key"}
                for key in sorted(used - keys):
                    problems.append(f"{where}: {sec}[{i}] reads {key!r}, which never occurs")
        for kind, tpl in lab.buttons.items():
            for key in sorted(tpl.keys() - _ACTION_KEYS):
                problems.append(f"{where}: actions.{kind}.button reads {key!r} (an action has {sorted(_ACTION_KEYS)})")
        problems.extend(_render_all(lab, where, samples))
    return problems


def _render_all(lab: Labels, where: str,
                samples: Sequence[tuple[Game, list[dict[str, Any]], list[Event], list[Action], list[dict[str, Any]]]],
                ) -> list[str]:
    """Render every sample in one language; each distinct error once."""
    errors: dict[str, None] = {}
    for game, observations, events, actions, facts in samples:
        for obs in observations:
            try:
                lab.status(obs)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: status: {exc}"] = None
        for ev in events:
            for you in (None, *range(game.num_players)):
                try:
                    lab.event_text(ev, None, you)
                except _RENDER_ERRORS as exc:
                    errors[f"{where}: {exc}"] = None
        for a in set(actions):
            try:
                lab.action_text(a)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: {exc}"] = None
        for t in facts[-20:]:
            try:
                lab.trick_facts(t)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: {exc}"] = None
    return list(errors)


#: sections one language may have and another not, or with other keys
_OWN_KEYS: Final = frozenset({"maps.ordinal"})
_OWN_INNER_KEYS: Final = frozenset({"ranks", "ordinals"})


def _shape(data: Any, path: str = "") -> set[str]:
    """The key paths of a labels file that every language must share (templates' inner forms
    may differ: Japanese needs no second person; and the keys of what follows a language's own
    grammar: spoken rank names, plural and ordinal forms by CLDR category, spelled ordinals)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            p = f"{path}.{k}" if path else k
            if p in _OWN_KEYS:
                continue
            out.add(p)
            if p in _OWN_INNER_KEYS or path == "plurals":
                continue
            if k in ("status", "trick_facts") and isinstance(v, list):
                out |= {f"{p}[{i}]" + (f" if {r.get('if')}" if r.get("if") else "") for i, r in enumerate(v)}
            elif path.split(".")[0] not in ("events",) and not (path.startswith("actions.") and k == "button"):
                out |= _shape(v, p)
    return out


def compare_languages(cls: type[Game]) -> list[str]:
    """Keys one language's file has and another's lacks, for a game's files and the common ones."""
    problems = []
    for folder in (game_folder(cls), COMMON_DIR):
        langs = _langs_in(folder)
        shapes = {lang: _shape(_read(folder / f"labels.{lang}.json")) for lang in langs}
        for a in langs:
            for b in langs:
                if a != b:
                    for key in sorted(shapes[a] - shapes[b]):
                        problems.append(f"{folder / f'labels.{b}.json'}: lacks {key} (labels.{a}.json has it)")
    return problems


__all__ = ["audit", "choice_key", "compare_languages", "option_variants"]
