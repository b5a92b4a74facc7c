"""Checking a game's words (test tooling): every option, phase, action, event and trick flag
that random games meet has its words in every language the game ships, every template renders
on what the games produce, and the languages have the same keys.  The labels tests and a new
game's author run these; nothing at run time does."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import random
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from torite.cards import card_str, parse_card
from torite.engine.base import Action, Event, Game, OptionError, Refusal, State
from torite.engine.bot import Reason
from torite.engine.registry import game_class, make_game
from torite.present.labels import korean
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
    Rich,
    plural_category,
)

# ---------------------------------------------------------------- checking a game's labels
_ACTION_KEYS: Final = frozenset({"kind", "cards", "card", "arg", "you"})


def _literal_calls(modules: Sequence[Any], name: str) -> dict[str, set[str] | None]:
    """Every ``name("key", {...})`` call with a literal key in the modules' source: the key and
    the data's keys (None when the data is not a literal dict)."""
    out: dict[str, set[str] | None] = {}
    for module in dict.fromkeys(modules):
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
                    and node.args):
                continue
            names = _constants(node.args[0])
            if not names:
                continue
            keys: set[str] | None = set()
            if len(node.args) > 1:
                data = node.args[1]
                keys = ({k.value for k in data.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                        if isinstance(data, ast.Dict) and all(k is not None for k in data.keys) else None)
            for key in names:
                old = out.get(key, set())
                out[key] = None if old is None or keys is None else old | keys
    return out


def _constants(node: ast.expr) -> list[str]:
    """The texts an expression can be: a literal, or either side of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    return []


def raised_rules(game: Game) -> dict[str, set[str] | None]:
    """Every rule a game's state can refuse a choice by (``Refusal("rule", {...})`` in the source
    of its state class and the kit's), with the keys its data carries: what its labels' ``reasons``
    must say."""
    state = game.new_state(0)
    modules = [sys.modules[c.__module__] for c in type(state).__mro__ if issubclass(c, State) and c is not State]
    return _literal_calls(modules, Refusal.__name__)


def summary_keys(game: Game) -> set[str]:
    """Every row and step key a game's round summaries can carry (``row("key", …)`` and
    ``step("key", …)`` in the source of its state classes): what its labels' ``scoring`` names."""
    state = game.new_state(0)
    modules = [sys.modules[c.__module__] for c in type(state).__mro__ if issubclass(c, State) and c is not State]
    return set(_literal_calls(modules, "row")) | set(_literal_calls(modules, "step"))


def bot_reasons(game: Game) -> dict[str, set[str] | None]:
    """Every reason a game's rule-of-thumb bot can give (``Reason("key", {...})`` in its module):
    what its labels' ``hints`` must say."""
    if not game.BOT:
        return {}
    return _literal_calls([importlib.import_module(game.BOT.partition(":")[0])], Reason.__name__)


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
    refusals: dict[tuple[str, str], Refusal] = {}
    reasons: dict[tuple[str, str], Reason] = {}
    rules: dict[str, set[str] | None] = {}
    hint_keys: dict[str, set[str] | None] = {}
    goals: list[Mapping[str, Any]] = []
    scored: set[str] = set()
    round_ends: list[Mapping[str, Any]] = []
    rng = random.Random(rng_seed)
    for opts in option_sets if option_sets is not None else option_variants(cls):
        try:
            game = make_game(game_id, opts)
        except OptionError:
            continue  # options that constrain each other: not every flip is a valid game
        goals.append(game.options)
        for rule, keys in raised_rules(game).items():
            old = rules.get(rule, set())
            rules[rule] = None if keys is None or old is None else old | keys
        hint_keys.update(bot_reasons(game))
        scored |= summary_keys(game)
        declared = {p.name: p for p in game.phases()}
        for seed in range(seeds):
            state = game.new_state(seed, max_rounds=max_rounds)
            observations: list[dict[str, Any]] = []
            actions: list[Action] = []
            facts: list[dict[str, Any]] = []
            bot = game.rule_bot(0, random.Random(seed)) if game.BOT else None
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
                _refusals(state, seat, legal, declared, refusals)
                if bot is not None and steps % 4 == 0:
                    bot.seat = seat
                    bot.reason = None
                    bot.act(state.observation(seat), legal)
                    if bot.reason is not None:
                        reasons.setdefault((bot.reason.key, json.dumps(bot.reason.data, sort_keys=True, default=str)),
                                           bot.reason)
                state.apply(seat, legal[rng.randrange(len(legal))])
                steps += 1
            round_ends.extend(e.data for e in state.events if e.kind == "round_end")
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
        option_names = {spec.name for spec in cls.OPTIONS}
        for term, variants in lab.terms.items():  # a term's meaning follows the options, nothing else
            for cond, _ in variants:
                for key in sorted({c.key for c in cond} - option_names):
                    problems.append(f"{where}: maps.glossary.{term} reads {key!r}, which is no option of {game_id}")
        for key in cls.STAT_KEYS:
            if not str(data["stats"].get(key, "")).strip():
                problems.append(f"{where}: stats.{key}: no words for the counter")
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
        problems.extend(_teaching(lab, where, rules, hint_keys, obs_keys, round_ends, scored))
        problems.extend(_render_all(lab, where, samples))
        problems.extend(_render_teaching(lab, where, refusals.values(), reasons.values(), goals, round_ends))
    return problems


def _refusals(state: State, seat: int, legal: Sequence[Action], phases: Mapping[str, Any],
              out: dict[tuple[str, str], Refusal]) -> None:
    """Why each choice a face shows disabled is refused now: every card of the hand that cannot
    be played, every cell of a bidding box and every call beside it (a few of each)."""
    obs = state.observation(seat)
    phase = phases.get(str(obs.get("phase")))
    if phase is None:
        return
    offered = set(legal)
    tried: list[Action] = []
    hand = obs.get("hand") or []
    for form in phase.actions:
        if form.widget == "card" and getattr(form, "from_", "") == "hand":
            tried += [a for a in (Action(form.kind, 1 << _card(c)) for c in hand) if a not in offered]
        elif form.widget in ("bid", "word"):
            tried += [a for a in form.actions(()) if a not in offered][:8]
    for a in tried:
        why = state.refusal(seat, a)
        if why is not None:
            out.setdefault((why.rule, json.dumps(why.data, sort_keys=True, default=str)), why)


def _card(text: str) -> int:
    return parse_card(text)


def _teaching(lab: Labels, where: str, rules: Mapping[str, set[str] | None], hint_keys: Mapping[str, set[str] | None],
              obs_keys: set[str], round_ends: Sequence[Mapping[str, Any]], scored: set[str]) -> list[str]:
    """The words that teach: a reason for every rule the game can refuse by, a hint for every
    reason its bot gives, how the game is won, a word for every row and step of its round
    summaries, lines that write the scoring out reading only what a round's end carries, roles
    on seats the observation names."""
    out: list[str] = []
    for sec, needed in (("reasons", rules), ("hints", hint_keys)):
        said = lab.reasons if sec == "reasons" else lab.hints
        for key, keys in sorted(needed.items()):
            if key not in said:
                out.append(f"{where}: {sec}.{key}: missing")
            elif keys is not None:
                for k in sorted(said[key].keys() - keys - {"you"}):
                    out.append(f"{where}: {sec}.{key} reads {k!r}, which {key} never carries")
    if lab.goal is None:
        out.append(f"{where}: goal: missing (how the game is won, in one line)")
    end_keys = {k for d in round_ends for k in d} | {"you"}
    keys = set(scored)
    for d in round_ends:
        s = d.get("summary") or {}
        keys |= {r["key"] for r in s.get("rows", ())} | {st["key"] for seat in s.get("steps", ()) for st in seat}
    for key in sorted(keys - set(lab.data["scoring"])):
        out.append(f"{where}: scoring.{key}: missing (a round summary's row or step)")
    for i, row in enumerate(lab.explain_rows):
        used = row.value.keys() | {c.key for c in row.cond} | {c.other[1] for c in row.cond if c.other[0] == "key"}
        for key in sorted(used - end_keys):
            out.append(f"{where}: explain[{i}] reads {key!r}, which no round's end carries")
    for phase, tpl in lab.prompts.items():
        for key in sorted(tpl.keys() - obs_keys - {"you"}):
            out.append(f"{where}: phases.{phase}.prompt reads {key!r}, which never occurs")
    for i, role in enumerate(lab.role_rows):
        used = {role.seat} | {c.key for c in role.cond} | {c.other[1] for c in role.cond if c.other[0] == "key"}
        for key in sorted(used - obs_keys - {"you"}):
            out.append(f"{where}: roles[{i}] reads {key!r}, which never occurs")
    return list(dict.fromkeys(out))


def _render_teaching(lab: Labels, where: str, refusals: Any, reasons: Any, goals: Sequence[Mapping[str, Any]],
                     round_ends: Sequence[Mapping[str, Any]]) -> list[str]:
    errors: dict[str, None] = {}
    for why in refusals:
        try:
            _finished(lab, f"{where}: reasons.{why.rule}", lab.reason_rich(why.rule, why.data), errors)
        except _RENDER_ERRORS as exc:
            errors[f"{where}: reasons.{why.rule}: {exc}"] = None
    for r in reasons:
        try:
            _finished(lab, f"{where}: hints.{r.key}", lab.hint_rich(r.key, r.data), errors)
        except _RENDER_ERRORS as exc:
            errors[f"{where}: hints.{r.key}: {exc}"] = None
    for opts in goals:
        try:
            _finished(lab, f"{where}: goal", lab.goal_rich(opts), errors)
        except _RENDER_ERRORS as exc:
            errors[f"{where}: goal: {exc}"] = None
    for d in round_ends:
        for you in (None, 0):
            try:
                for k, v in lab.explain_rich(d, None, you):
                    _finished(lab, f"{where}: explain", [f"{k}: ", *v], errors)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: explain: {exc}"] = None
    return list(errors)


def _finished(lab: Labels, where: str, text: str | Rich | None, errors: dict[str, None]) -> None:
    """What a rendered text must not hold: a Korean particle left in both forms ("이(가)": what
    it follows, seat names, cards, numbers, has a known reading, so the form must have been
    chosen); a count that disagrees with its noun ("1 points"); one card named twice in one
    sentence (as its words are read aloud: "the queen of spades, queen of spades")."""
    if text is None:
        return
    rich: Rich = [text] if isinstance(text, str) else list(text)
    plain = lab.text(rich)
    if lab.lang == "ko":
        m = korean.DUAL.search(plain)
        if m:
            errors[f"{where}: a particle left as {m.group()!r} in {plain!r}"] = None
    for problem in word_problems(lab, rich):
        errors[f"{where}: {problem}"] = None


# ---------------------------------------------------------------- counts and names, as read
#: English nouns a count is written with, singular and plural (a two-word noun counts by its last)
_EN_NOUNS: Final = ("card", "point", "trick", "heart", "club", "diamond", "spade", "replacement", "reversal", "game",
                    "deal", "round", "player", "zombie", "joker", "overtrick", "undertrick", "bid", "time", "seat",
                    "meld", "pass")
_EN_PLURAL: Final = {n: ("passes" if n == "pass" else n + "s") for n in _EN_NOUNS}
_EN_COUNT: Final = re.compile(
    r"(?<![\w.,/−+-])(?<!seat )(?<!trick )(?<!deal )(?<!round )(?<!turn )(?<!Seat )(?<!Trick )(?<!Deal )(?<!Round )"
    r"(\d+) (?:(?:point|penalty|face-down|high-card|meld|bid) )?([a-z]+)\b")
#: Japanese and Korean count a card, a point, a trick with a counter after the number (3枚,
#: 3점): the bare noun after a number is a count that lost its counter ("3 カード", "3 카드")
_CJK_BARE: Final = {"ja": re.compile(r"\d+\s?(?:カード|ポイント)"), "ko": re.compile(r"\d+\s?(?:카드|포인트)")}
_SENTENCE: Final = re.compile(r"[.。!?！？;；]\s*")


def count_problems(text: str, lang: str) -> list[str]:
    """Every count in ``text`` whose noun takes another form than the language's plural rules give
    the number: English "1 points", "1 penalty cards", "3 card"; a Japanese or Korean count
    without its counter ("3 카드")."""
    out = []
    if lang == "en":
        for m in _EN_COUNT.finditer(text):
            n, noun = int(m.group(1)), m.group(2)
            one = plural_category("en", n) == "one"
            if one and noun in _EN_PLURAL.values():
                out.append(f"{m.group(0)!r}: {n} takes the singular")
            elif not one and noun in _EN_PLURAL and _EN_PLURAL[noun] != noun:
                out.append(f"{m.group(0)!r}: {n} takes the plural")
    elif lang in _CJK_BARE:
        out += [f"{m.group(0)!r}: a count without its counter" for m in _CJK_BARE[lang].finditer(text)]
    return out


def _card_names(lab: Labels) -> list[str]:
    """Every card of the 52 as its words are read aloud (spoken names), longest first (not a
    joker: its name is also the word for it, which a rule may say twice)."""
    return sorted({lab.card_text(card_str(c), spoken=True) for c in range(52)}, key=len, reverse=True)


def repeated_name_problems(lab: Labels, spoken: str) -> list[str]:
    """One card named twice in one sentence of the spoken text ("drop the queen of spades, queen
    of spades, under it"), or a suit's word said twice in a row ("クラブクラブの9", "클로버 클로버
    9"): the words said it, then the card said it again."""
    out = []
    names = _card_names(lab)
    for sentence in _SENTENCE.split(spoken):
        rest = sentence
        for name in names:  # longest first: "10 of hearts" is not also "of hearts"
            if rest.count(name) > 1:
                out.append(f"{name!r} named twice in {sentence!r}")
            rest = rest.replace(name, "\0")
    for letter in "CDHS":
        word = re.escape(lab.suit_name(letter))
        m = re.search(rf"(?<!\w){word}(?:\s|の)?{word}", spoken)
        if m:
            out.append(f"the suit said twice: {m.group(0)!r} in {spoken!r}")
    if lab.lang == "ko":  # 스페이드 K 카드: the card's name already says it is a card
        for name in names:
            if f"{name} 카드" in spoken:
                out.append(f"{name + ' 카드'!r}: the card named, then 카드 again, in {spoken!r}")
                break
    return out


def word_problems(lab: Labels, rich: Rich) -> list[str]:
    """A rendered text's counts and names, in its shown and its spoken form (the line mode and
    screen readers read the latter)."""
    out: list[str] = []
    for spoken in (False, True):
        out += count_problems(lab.text(rich, spoken=spoken), lab.lang)
    out += repeated_name_problems(lab, lab.text(rich, spoken=True))
    return list(dict.fromkeys(out))


#: a placeholder shown as it is (no formatter, or only ``signed``, ``count``, ``plus1``) right
#: before a counted noun: the count cannot take its plural form
_RAW_COUNT: Final = re.compile(r"\{(?!player\b|seat\b)[a-z_+]+(?:\|(?:signed|count|plus1))*\}\s?"
                               r"(?:(?:point|penalty|high-card) )?([a-z]+)\b")


def raw_count_problems(data: Any, where: str = "", lang: str = "en", *, top: bool = True) -> list[str]:
    """Every template of a labels file (or any JSON of texts) that writes a count's noun itself
    after a bare placeholder ("{points} points", "{count} cards") instead of
    ``{points|plural:point}``: whatever the count, one of its forms is wrong.  English only,
    the one language of the three whose nouns change with the number."""
    if lang != "en":
        return []
    if isinstance(data, str):
        return [f"{where}: {m.group(0)!r}: write the count through |plural:" for m in _RAW_COUNT.finditer(data)
                if m.group(1) in _EN_NOUNS or m.group(1) in _EN_PLURAL.values()]
    if isinstance(data, dict):  # the plural forms themselves are where a count meets its noun
        return [p for k, v in data.items() if not (top and k == "plurals")
                for p in raw_count_problems(v, f"{where}.{k}" if where else str(k), lang, top=False)]
    if isinstance(data, list):
        return [p for i, v in enumerate(data) for p in raw_count_problems(v, f"{where}[{i}]", lang, top=False)]
    return []


def _render_all(lab: Labels, where: str,
                samples: Sequence[tuple[Game, list[dict[str, Any]], list[Event], list[Action], list[dict[str, Any]]]],
                ) -> list[str]:
    """Render every sample in one language; each distinct error once."""
    errors: dict[str, None] = {}
    for game, observations, events, actions, facts in samples:
        for obs in observations:
            try:
                for label, value in lab.status_rich(obs):
                    _finished(lab, f"{where}: status", [f"{label}: ", *value], errors)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: status: {exc}"] = None
            try:
                _finished(lab, f"{where}: prompt", lab.prompt_rich(obs), errors)
                lab.roles(obs)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: prompt or roles: {exc}"] = None
        for ev in events:
            for you in (None, *range(game.num_players)):
                try:
                    _finished(lab, f"{where}: events.{ev.kind}", lab.event_text(ev, None, you), errors)
                except _RENDER_ERRORS as exc:
                    errors[f"{where}: {exc}"] = None
        for a in set(actions):
            try:
                _finished(lab, f"{where}: actions.{a.kind}", lab.action_text(a), errors)
            except _RENDER_ERRORS as exc:
                errors[f"{where}: {exc}"] = None
        for t in facts[-20:]:
            try:
                for label, value in lab.trick_facts_rich(t):
                    _finished(lab, f"{where}: trick_facts", [f"{label}: ", *value], errors)
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


__all__ = ["audit", "choice_key", "compare_languages", "count_problems", "option_variants", "raw_count_problems",
           "repeated_name_problems", "word_problems"]
