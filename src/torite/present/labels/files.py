"""Loading a game's words: the common files and the game's own, merged, checked and cached;
and rendering for every language at once (what the web server sends)."""

from __future__ import annotations

import functools
import json
import logging
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from torite.present.labels.templates import (
    _DICT_OF_TEXT,
    REQUIRED_WORDS,
    ROW_SECTIONS,
    SECTIONS,
    SUIT_SYMBOLS,
    LabelError,
    _compile_cond,
    _compile_template,
    _compile_text,
)
from torite.present.labels.words import (
    GLOSS_SLOT,
    Labels,
    Rich,
    RoleRow,
    StatusRow,
    plural_categories,
)

if TYPE_CHECKING:
    from torite.engine.base import Action, Event, Game, Refusal
    from torite.engine.bot import Reason

log = logging.getLogger("torite.labels")

#: the folder of the common files (``labels.<lang>.json``: the words every trick game shares)
COMMON_DIR: Final = Path(__file__).resolve().parent

# ---------------------------------------------------------------- files
def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise LabelError(f"{path}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise LabelError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise LabelError(f"{path}: a labels file is a JSON object")
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise LabelError(f"{path}: unknown section(s) {', '.join(unknown)} (sections: {', '.join(SECTIONS)})")
    return data


def _expect(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise LabelError(f"{where}: expected {what}")


def _check_shapes(data: Mapping[str, Any], path: Path) -> None:
    """Types of every section, so a typo fails at load with the file and key, not at a table."""
    for key in ("title", "summary"):
        if key in data:
            _expect(isinstance(data[key], str) and data[key].strip() != "", f"{path}: {key}", "a non-empty text")
    for sec in (*_DICT_OF_TEXT, "phases", "actions", "options", "maps", "events", "plurals", "ordinals",
                "reasons", "hints"):
        if sec in data:
            _expect(isinstance(data[sec], dict), f"{path}: {sec}", "an object")
    for word, forms in data.get("plurals", {}).items():
        _expect(isinstance(forms, dict) and all(isinstance(v, str) for v in forms.values()),
                f"{path}: plurals.{word}", 'an object of texts by plural category ({"one": …, "other": …})')
    for cat, form in data.get("ordinals", {}).items():
        _expect(isinstance(form, str), f"{path}: ordinals.{cat}", "a text")
    for sec in _DICT_OF_TEXT:
        for k, v in data.get(sec, {}).items():
            _expect(isinstance(v, str), f"{path}: {sec}.{k}", "a text")
    for name, table in data.get("maps", {}).items():
        if name == "glossary":  # a term's meaning may follow the options: variants
            _expect(isinstance(table, dict) and all(_is_gloss(v) for v in table.values()), f"{path}: maps.glossary",
                    'an object of texts, or of lists of {"if": condition over the options, "text": text}')
            continue
        _expect(isinstance(table, dict) and all(isinstance(v, str) for v in table.values()),
                f"{path}: maps.{name}", "an object of texts")
    for phase, p in data.get("phases", {}).items():
        w = f"{path}: phases.{phase}"
        _expect(isinstance(p, dict) and isinstance(p.get("name"), str), w, '{"name": text, "prompt": template}')
        _expect(set(p) <= {"name", "prompt"}, w, "only name and prompt")
    for kind, a in data.get("actions", {}).items():
        w = f"{path}: actions.{kind}"
        _expect(isinstance(a, dict) and isinstance(a.get("label"), str) and "button" in a, w,
                '{"label": text, "button": template}')
        _expect(set(a) <= {"label", "button"}, w, "only label and button")
    for name, o in data.get("options", {}).items():
        w = f"{path}: options.{name}"
        _expect(isinstance(o, dict) and isinstance(o.get("label"), str) and isinstance(o.get("help"), str), w,
                '{"label": text, "help": text, "choices": {...}}')
        _expect(set(o) <= {"label", "help", "choices"}, w, "only label, help and choices")
        ch = o.get("choices", {})
        _expect(isinstance(ch, dict) and all(isinstance(v, str) for v in ch.values()), f"{w}.choices",
                "an object of texts keyed by the choice's value")
    for sec in ROW_SECTIONS:
        if sec in data:
            _expect(isinstance(data[sec], list), f"{path}: {sec}", "a list of rows")
            value = "seat" if sec == "roles" else "value"
            for i, row in enumerate(data[sec]):
                w = f"{path}: {sec}[{i}]"
                _expect(isinstance(row, dict) and isinstance(row.get("label"), str) and value in row, w,
                        f'{{"label": text, "{value}": {"key" if value == "seat" else "template"}, "if": condition}}')
                allowed = {"label", value, "if"} | ({"pin"} if sec == "status" else set())
                _expect(set(row) <= allowed, w, f"only {', '.join(sorted(allowed))}")
                _expect(isinstance(row.get("pin", False), bool), f"{w}.pin", "true or false")
                if value == "seat":
                    _expect(isinstance(row["seat"], str), f"{w}.seat", "the observation key holding a seat")


def _is_gloss(v: Any) -> bool:
    if isinstance(v, str):
        return True
    return isinstance(v, list) and bool(v) and all(
        isinstance(x, dict) and set(x) <= {"if", "text"} and isinstance(x.get("text"), str) for x in v)


def _merge(common: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sec in SECTIONS:
        c, g = common.get(sec), game.get(sec)
        if sec == "roles":  # the common roles (dealer, leader) and the game's own
            out[sec] = [*(c or []), *(g or [])]
        elif sec == "goal":  # a template, not a section of keys: the game's own
            out[sec] = g
        elif isinstance(c, dict) or isinstance(g, dict):
            merged = dict(c or {})
            if sec == "maps":
                for name, table in (g or {}).items():
                    merged[name] = {**merged.get(name, {}), **table}
            else:
                merged.update(g or {})
            out[sec] = merged
        elif g is not None:
            out[sec] = g
        elif c is not None:
            out[sec] = c
        else:
            out[sec] = [] if sec in ROW_SECTIONS else None
    return out


@functools.lru_cache(maxsize=256)
def game_folder(cls: type[Game]) -> Path:
    """The folder of the game's module, where its labels files sit."""
    return Path(sys.modules[cls.__module__].__file__ or ".").resolve().parent


def _langs_in(folder: Path) -> list[str]:
    return list(_langs_cached(folder))


@functools.lru_cache(maxsize=256)
def _langs_cached(folder: Path) -> tuple[str, ...]:
    """Read once per folder: a face renders every event in every language, so no globbing there."""
    return tuple(sorted(p.name.split(".")[1] for p in folder.glob("labels.*.json") if p.name.count(".") == 2))


def languages(cls: type[Game] | Game) -> list[str]:
    """The languages a game ships labels in (the common languages for a game with no file)."""
    cls = cls if isinstance(cls, type) else type(cls)
    return _langs_in(game_folder(cls)) or _langs_in(COMMON_DIR)


def load(cls: type[Game] | Game, lang: str = "en") -> Labels:
    """The game's labels in ``lang``, merged over the common ones; cached per file."""
    cls = cls if isinstance(cls, type) else type(cls)
    folder = game_folder(cls)
    hit = _LOADED.get((cls, lang, folder))
    if hit is not None:
        return hit
    own = _langs_in(folder)
    if own and lang not in own:
        raise LabelError(f"no {lang!r} labels for {cls.id} (languages: {', '.join(own)})")
    if lang not in _langs_in(COMMON_DIR):
        raise LabelError(f"no {lang!r} labels (languages: {', '.join(_langs_in(COMMON_DIR))})")
    game_file = folder / f"labels.{lang}.json" if own else None
    labels = _load(cls.id, cls.title, lang, str(COMMON_DIR / f"labels.{lang}.json"),
                   str(game_file) if game_file else None)
    _LOADED[(cls, lang, folder)] = labels
    return labels


#: the hot path of a face (every event, every language): no path arithmetic once loaded
_LOADED: dict[tuple[type[Game], str, Path], Labels] = {}


@functools.lru_cache(maxsize=256)
def _load(game_id: str, fallback_title: str, lang: str, common_file: str, game_file: str | None) -> Labels:
    common_path = Path(common_file)
    common = _read(common_path)
    _check_shapes(common, common_path)
    game: dict[str, Any] = {}
    files = [common_file]
    src = common_path
    if game_file is not None:
        src = Path(game_file)
        game = _read(src)
        _check_shapes(game, src)
        if "title" not in game:
            raise LabelError(f"{src}: title: a game's labels need a title")
        files.append(game_file)
    data = _merge(common, game)
    if data["title"] is None:
        data["title"] = fallback_title
    for sec in ("stats", "words", "suits", "ranks", "jokers", "denominations", "plurals", "ordinals", "tags", "maps",
                "options", "phases", "actions", "events", "reasons", "hints", "scoring"):
        if data[sec] is None:
            data[sec] = {}
    for w in REQUIRED_WORDS:
        if w not in data["words"]:
            raise LabelError(f"{src}: words.{w}: missing (the common labels define it)")
    for letter in SUIT_SYMBOLS:
        if letter not in data["suits"]:
            raise LabelError(f"{src}: suits.{letter}: missing (the common labels define it)")

    def origin(sec: str, key: str) -> Path:
        return src if key in game.get(sec, {}) or (sec in ROW_SECTIONS and sec in game) \
            else common_path

    categories = plural_categories(lang)
    for word, forms in data["plurals"].items():
        if set(forms) != categories:
            raise LabelError(f"{origin('plurals', word)}: plurals.{word}: the forms of {lang!r} are "
                             f"{', '.join(sorted(categories))} (CLDR), not {', '.join(sorted(forms)) or 'none'}")
    ordinal = plural_categories(lang, ordinal=True)
    if set(data["ordinals"]) != ordinal:
        raise LabelError(f"{origin('ordinals', '')}: ordinals: the ordinal forms of {lang!r} are "
                         f"{', '.join(sorted(ordinal))} (CLDR), not {', '.join(sorted(data['ordinals'])) or 'none'}")
    known = {"map": list(data["maps"]), "or": list(data["words"]), "plural": list(data["plurals"])}
    events = {}
    for kind, tpl in data["events"].items():
        events[kind] = _compile_template(tpl, f"{origin('events', kind)}: events.{kind}", known)
    said = {}
    for sec in ("reasons", "hints"):
        said[sec] = {key: _compile_template(tpl, f"{origin(sec, key)}: {sec}.{key}", known, allow_you=False)
                     for key, tpl in data[sec].items()}
    goal = None
    if data.get("goal") is not None:
        goal = _compile_template(data["goal"], f"{origin('goal', '')}: goal", known, allow_you=False)
    buttons = {}
    for kind, a in data["actions"].items():
        buttons[kind] = _compile_template(a["button"], f"{origin('actions', kind)}: actions.{kind}.button",
                                          known, allow_you=False)
    rows: dict[str, tuple[StatusRow, ...]] = {}
    for sec in ("status", "trick_facts", "explain"):
        built = []
        for i, row in enumerate(data[sec]):
            where = f"{origin(sec, '')}: {sec}[{i}]"
            built.append(StatusRow(row["label"], _compile_template(row["value"], f"{where}.value", known,
                                                                  allow_you=False),
                                   _compile_cond(row.get("if"), where), bool(row.get("pin"))))
        rows[sec] = tuple(built)
    prompts = {}
    for phase, p in data["phases"].items():
        if "{" in p["name"]:
            raise LabelError(f"{origin('phases', phase)}: phases.{phase}.name: plain text, no placeholders")
        if "prompt" in p:
            prompts[phase] = _compile_template(p["prompt"], f"{origin('phases', phase)}: phases.{phase}.prompt",
                                               known, allow_you=False)
    roles = tuple(RoleRow(r["label"], r["seat"], _compile_cond(r.get("if"), f"{origin('roles', '')}: roles[{i}]"))
                  for i, r in enumerate(data["roles"]))
    seat_name = _compile_text(data["words"]["seat"], f"{origin('words', 'seat')}: words.seat", known)
    terms = {}
    for term, entry in (data["maps"].get("glossary") or {}).items():
        where = f"{origin('maps', 'glossary')}: maps.glossary.{term}"
        variants = [{"text": entry}] if isinstance(entry, str) else entry
        for text in (v["text"] for v in variants):
            if not _GLOSS.match(text) or "{" in GLOSS_SLOT.sub("", text):
                raise LabelError(f"{where}: write \"term: what it means\", plain text: {text!r}")
            for name in GLOSS_SLOT.findall(text):
                if name not in data["options"]:
                    raise LabelError(f"{where}: {{{name}}}: only an option of the game's may fill a glossary "
                                     f"text (options: {', '.join(data['options']) or 'none'})")
        terms[term] = tuple((_compile_cond(v.get("if"), f"{where}[{i}]"), v["text"]) for i, v in enumerate(variants))
    return Labels(game_id, lang, data, tuple(files), events, buttons, rows["status"], rows["trick_facts"],
                  seat_name, said["reasons"], said["hints"], rows["explain"], roles, goal, prompts, terms=terms)


#: a glossary text: the term, a colon, what it means (the web table splits it there)
_GLOSS: Final = re.compile(r"^.+?\s*[:：]\s*.+$", re.S)


def catalog(cls: type[Game]) -> dict[str, dict[str, Any]]:
    """Every language's merged labels, JSON-ready (what ``/api/games`` serves)."""
    return {lang: dict(load(cls, lang).data) for lang in languages(cls)}


# ---------------------------------------------------------------- renderers by game
def status(game: Game | type[Game], obs: Mapping[str, Any], lang: str = "en",
           names: Sequence[str | None] | None = None) -> list[tuple[str, str]]:
    """The public state worth showing beside the table, as (label, value) rows of plain text."""
    return load(game, lang).status(obs, names)


def event_text(game: Game | type[Game], event: Event, lang: str = "en", names: Sequence[str | None] | None = None,
               you: int | None = None) -> str | None:
    """One log line for ``event`` (None: not logged); ``you`` picks the second-person forms."""
    return load(game, lang).event_text(event, names, you)


def action_text(game: Game | type[Game], action: Action, lang: str = "en") -> str:
    """The words on an action's button."""
    return load(game, lang).action_text(action)


# ---------------------------------------------------------------- every language at once (web)
def _logged(what: str, exc: Exception) -> None:
    """A face must not go down over a label bug: it is logged and a fallback shown (the labels
    tests are what catch it)."""
    log.error("labels: %s: %s", what, exc)


_RENDER_ERRORS: Final = (LabelError, KeyError, TypeError, ValueError)

#: which languages a "by language" text is made in: every one the game ships (None), or those
#: named (a web table's connection reads one: rendering the others is wasted work per message)
Langs = Sequence[str] | None


def _of(game: Game, langs: Langs) -> list[str]:
    shipped = languages(game)
    return shipped if langs is None else [lang for lang in shipped if lang in langs]


def event_texts(game: Game, event: Event, names: Sequence[str | None] | None = None,
                langs: Langs = None) -> dict[str, Rich] | None:
    """The log line of ``event`` as rich text in every language the game ships; None when not
    logged."""
    out: dict[str, Rich] = {}
    for lang in _of(game, langs):
        try:
            rich = load(game, lang).event_rich(event, names)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} event {event.kind}", e)
            rich = [event.kind]
        if rich is not None:
            out[lang] = rich
    return out or None


def view_texts(game: Game, obs: Mapping[str, Any], legal: Sequence[Action],
               names: Sequence[str | None] | None = None, langs: Langs = None) -> dict[str, Any]:
    """What a seat's view shows in words, in every language, as rich text (the faces draw its
    tokens): ``status`` rows and ``last_trick`` facts (``[label, rich]``), and ``actions``, each
    legal action's button by language (in the order of ``legal``).  Built from the seat's
    observation and its legal actions only."""
    tricks = obs.get("tricks") or []
    last = tricks[-1] if tricks and isinstance(tricks[-1], Mapping) else None
    out: dict[str, Any] = {"status": {}, "last_trick": {}, "actions": [{} for _ in legal], "roles": {}}
    for lang in _of(game, langs):
        try:
            lab = load(game, lang)
        except LabelError as e:
            _logged(f"{game.id} {lang}", e)
            continue
        try:
            out["status"][lang] = [list(r) for r in lab.status_pinned(obs, names)]
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} status", e)
            out["status"][lang] = []
        try:
            out["roles"][lang] = lab.roles(obs)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} roles", e)
        try:
            prompt = lab.prompt_rich(obs)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} prompt", e)
            prompt = None
        if prompt:
            out.setdefault("prompt", {})[lang] = prompt
        if last is not None:
            try:
                out["last_trick"][lang] = [list(r) for r in lab.trick_facts_rich(last, names, obs.get("seat"))]
            except _RENDER_ERRORS as e:
                _logged(f"{game.id} trick facts", e)
                out["last_trick"][lang] = []
        for a, texts in zip(legal, out["actions"]):
            try:
                texts[lang] = lab.action_rich(a)
            except _RENDER_ERRORS as e:
                _logged(f"{game.id} action {a}", e)
                texts[lang] = [lab.action_label(a.kind)]
    return out


def reason_texts(game: Game, refusals: Mapping[str, Refusal], names: Sequence[str | None] | None = None,
                 langs: Langs = None) -> dict[str, dict[str, Rich]]:
    """Why each refused choice is refused (``reasons``), keyed as given, in every language."""
    out: dict[str, dict[str, Rich]] = {key: {} for key in refusals}
    for lang in _of(game, langs):
        lab = load(game, lang)
        for key, why in refusals.items():
            try:
                out[key][lang] = lab.reason_rich(why.rule, why.data, names)
            except _RENDER_ERRORS as e:
                _logged(f"{game.id} reason {why.rule}", e)
                out[key][lang] = lab.reason_rich("not_now", {})
    return out


def hint_texts(game: Game, reason: Reason | None, names: Sequence[str | None] | None = None,
               langs: Langs = None) -> dict[str, Rich] | None:
    """A bot's reason for its choice (``hints``) in every language; None without one."""
    if reason is None:
        return None
    out: dict[str, Rich] = {}
    for lang in _of(game, langs):
        try:
            rich = load(game, lang).hint_rich(reason.key, reason.data, names)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} hint {reason.key}", e)
            continue
        if rich:
            out[lang] = rich
    return out or None


def goal_texts(game: Game, langs: Langs = None) -> dict[str, Rich]:
    """How the game is won under its options, in every language."""
    out: dict[str, Rich] = {}
    for lang in _of(game, langs):
        try:
            rich = load(game, lang).goal_rich(game.options)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} goal", e)
            continue
        if rich:
            out[lang] = rich
    return out


def explain_texts(game: Game, data: Mapping[str, Any], names: Sequence[str | None] | None = None,
                  langs: Langs = None) -> dict[str, list[list[Any]]]:
    """A round end's scoring written out (``explain``), as ``[label, rich]`` rows by language."""
    out: dict[str, list[list[Any]]] = {}
    for lang in _of(game, langs):
        try:
            out[lang] = [[k, v] for k, v in load(game, lang).explain_rich(data, names)]
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} explain", e)
            out[lang] = []
    return out
