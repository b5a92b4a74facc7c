"""Each game's words, as data beside its rules: ``labels.<lang>.json``.

Why data and not code: the web table, the terminal and any later face must say the same thing
in every language, and a translator (or the author of a new game) should write sentences, not
Python.  Faces hold only generic words ("Your turn", "Score sheet"); everything a game says
comes from here.

Files.  ``src/torite/engine/labels.<lang>.json`` holds the words every trick game shares (the
common events, "none", seat names, suit names).  A game's ``labels.<lang>.json`` sits next to
its rules module (like ``rules.<lang>.md``) and is merged over the common file: section by
section, key by key; its ``status`` and ``trick_facts`` lists replace the common ones.  The
languages a game ships are those of its files.

Schema (every section optional in a game's file unless said otherwise)::

    {
      "title": "Trick of the Dead",              # required in a game's file
      "summary": "one line for the lobby",
      "stats": {"reversals": "reversals", ...},  # every key of Game.STAT_KEYS, as a noun
      "words": {"none": "none", "seat": "seat {n}", "you": "you", ...},
      "suits": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
      "denominations": {"NT": "NT"},             # bidding-box names of non-suit denominations
      "maps": {"turned_at": {"shuffled": "somewhere in the stock", ...}},
      "options": {"survival": {"label": "Survival mode", "help": "…",
                               "choices": {"true": "…"}}},          # choices: by value as text
      "phases": {"bury": {"name": "burial", "prompt": "Choose two cards to bury."}},
      "actions": {"trump": {"label": "trump", "button": "Trump: {arg|symbol} {arg|suit}"}},
      "status": [{"label": "trump", "value": TEMPLATE, "if": CONDITION}, ...],
      "events": {"play": TEMPLATE, "kaedama_turn": null, ...},       # null: not logged
      "tags": {"zombie": "zombie"},              # a true flag of a trick entry, shown by its card
      "trick_facts": [ROW, ...]                  # rows about a finished trick (over its record)
    }

``stats`` names the game's counters (``Game.STAT_KEYS``): what ``torite simulate`` and the
``torite compare`` report print instead of the key, so a designer reads "replacements while
winning", never ``replacements_while_winning``.  Every key needs its words in every language
(:func:`audit`).

Three ``maps`` the tables read besides templates (each optional, per game):

- ``maps.piles``: the piles of cards the table shows, by observation key, with their names.  A
  key is a pile by one rule (``server.tables.piles_of``): a list of card texts the seat sees (a
  card it may not see is null, drawn as a back), or null beside an integer ``<key>_size`` (a
  face-down pile, drawn as that many backs).  A card shown in a pile is clickable when a legal
  action plays it (Umbridge's dummy, for its controller).
- ``maps.round_summary``: the rows of the end-of-round dialog, in order: a key of the round-end
  event's data holding one number per seat, and its label (Trick of the Dead: diamonds, clubs,
  joker bonus, …).  Points and running totals follow them.
- ``maps.glossary``: ``"term": "Term: what it means"``; the table underlines the term wherever
  it shows and explains it on hover or tap.

A TEMPLATE is a text, ``null`` (say nothing), or a variant ``{"text": …, "you": …, "if": …}``, or
a list of variants of which the first whose ``if`` holds is used.  ``you`` is the second-person
form, used when the event's seat is the reader's own (the terminal passes the person's seat;
the web table passes none): English needs it ("you play"), Japanese does not.

Texts hold placeholders ``{key|formatter|formatter:arg}``; ``{{`` and ``}}`` are braces.  Keys
are read from the context: the observation (status), the event's data (events; ``player`` is
the name of the event's seat, ``seat`` its number), the action (``card``, ``cards``, ``arg``,
``kind``), a finished trick's record (trick facts); ``you`` is the reader's seat (or null)
everywhere.  ``a+b`` joins two lists.  A key the context lacks is an error naming file and
entry.  Formatters:

    cards      a list of cards, spaced; a hidden card (null) is words.hidden ("??")
    card       one card; null is words.hidden
    suit       a suit letter as suits[letter]          symbol   a suit letter as ♣ ♦ ♥ ♠
    seats      a per-seat list as "a / b / c"          player   a seat number as its name
    by_seat    a per-seat list as "name: value; …", empty values left out (words.item_sep)
    signed     +3, -2, +0                              plus1    a count from 0, shown from 1
    count      the length of a list                    phase    a phase id as its name
    map:NAME   the value through maps[NAME]            or:WORD  words[WORD] if the value is empty

Without a formatter a value shows as text, a list of numbers as ``[1, 2, 3]``.

A CONDITION is ``clause & clause …``; a clause is ``key`` (holds when the value is not null,
false, empty text or an empty list; 0 holds), ``!key``, or ``key == x`` / ``key != x`` where x is
a key, ``null``, ``true``, ``false``, a number or ``'text'``.  A missing key reads as null.

Names.  ``names`` gives each seat's name (the web table: the seat names chosen in the lobby);
a seat without one is ``words.seat`` with ``{n}`` its number ("seat 0", "席0").
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from torite.cards import card_str, iter_bits

if TYPE_CHECKING:
    from torite.engine.base import Action, Event, Game

log = logging.getLogger("torite.labels")

ENGINE_DIR: Final = Path(__file__).resolve().parent
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

SECTIONS: Final = ("title", "summary", "stats", "words", "suits", "denominations", "maps", "options", "phases",
                   "actions", "status", "events", "tags", "trick_facts")
_DICT_OF_TEXT = ("stats", "words", "suits", "denominations", "tags")
FORMATTERS: Final = ("cards", "card", "suit", "symbol", "seats", "player", "by_seat", "signed", "plus1",
                     "count", "phase", "map", "or")
_WITH_ARG = ("map", "or")

_KEY = r"[A-Za-z_][A-Za-z0-9_]*"
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_PATH = re.compile(rf"^{_KEY}(?:\+{_KEY})*$")
_CLAUSE = re.compile(rf"^(!?)\s*({_KEY})\s*(?:(==|!=)\s*(.+?))?$")
_LITERAL_TEXT = re.compile(r"^'([^']*)'$")
_NUMBER = re.compile(r"^-?\d+$")


class LabelError(ValueError):
    """A labels file that is missing, malformed, or a template that cannot be rendered; the
    message names the file and the entry."""


# ---------------------------------------------------------------- compiled templates
@dataclass(frozen=True)
class _Slot:
    keys: tuple[str, ...]
    formats: tuple[tuple[str, str], ...]
    raw: str


_Text = tuple[str | _Slot, ...]


@dataclass(frozen=True)
class _Clause:
    negate: bool
    key: str
    op: str  # "", "==" or "!="
    other: tuple[str, Any]  # ("key", name) or ("value", literal)


@dataclass(frozen=True)
class _Variant:
    cond: tuple[_Clause, ...]
    text: _Text | None
    you: _Text | None
    has_you: bool


@dataclass(frozen=True)
class _Template:
    where: str  # "file: entry", for error messages
    variants: tuple[_Variant, ...]

    def keys(self) -> set[str]:
        """Every context key the template may read (placeholders and conditions)."""
        out: set[str] = set()
        for v in self.variants:
            for c in v.cond:
                out.add(c.key)
                if c.other[0] == "key":
                    out.add(c.other[1])
            for text in (v.text, v.you):
                for part in text or ():
                    if isinstance(part, _Slot):
                        out.update(part.keys)
        return out


def _compile_text(text: str, where: str, known_maps: Iterable[str], known_words: Iterable[str]) -> _Text:
    parts: list[str | _Slot] = []
    pos = 0
    maps, words = set(known_maps), set(known_words)
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        pos = m.end()
        tok = m.group(0)
        if tok in ("{{", "}}"):
            parts.append(tok[0])
            continue
        if m.group(1) is None:
            raise LabelError(f"{where}: unmatched {tok!r} in {text!r} (write {tok * 2} for a brace)")
        inner = m.group(1).strip()
        path, *fmts = [p.strip() for p in inner.split("|")]
        if not _PATH.match(path):
            raise LabelError(f"{where}: bad placeholder {{{inner}}} in {text!r}")
        formats: list[tuple[str, str]] = []
        for f in fmts:
            name, _, arg = f.partition(":")
            if name not in FORMATTERS:
                raise LabelError(f"{where}: unknown formatter {name!r} in {{{inner}}} "
                                 f"(formatters: {', '.join(FORMATTERS)})")
            if (name in _WITH_ARG) != bool(arg):
                raise LabelError(f"{where}: formatter {name!r} {'needs' if name in _WITH_ARG else 'takes no'} "
                                 f"an argument in {{{inner}}}")
            if name == "map" and arg not in maps:
                raise LabelError(f"{where}: {{{inner}}} uses map {arg!r}, which 'maps' does not define")
            if name == "or" and arg not in words:
                raise LabelError(f"{where}: {{{inner}}} uses word {arg!r}, which 'words' does not define")
            formats.append((name, arg))
        parts.append(_Slot(tuple(path.split("+")), tuple(formats), inner))
    if pos < len(text):
        parts.append(text[pos:])
    return tuple(parts)


def _compile_cond(cond: Any, where: str) -> tuple[_Clause, ...]:
    if cond is None:
        return ()
    if not isinstance(cond, str) or not cond.strip():
        raise LabelError(f"{where}: 'if' must be a condition text such as \"buried\" or \"phase == 'kaedama'\"")
    out = []
    for clause in cond.split("&"):
        m = _CLAUSE.match(clause.strip())
        if not m:
            raise LabelError(f"{where}: bad condition {clause.strip()!r} in {cond!r}")
        negate, key, op, other = m.group(1) == "!", m.group(2), m.group(3) or "", m.group(4)
        if negate and op:
            raise LabelError(f"{where}: write 'a != b' rather than '!a == b' in {cond!r}")
        operand: tuple[str, Any] = ("value", None)
        if op:
            other = other.strip()
            lit = _LITERAL_TEXT.match(other)
            if lit:
                operand = ("value", lit.group(1))
            elif other in ("null", "true", "false"):
                operand = ("value", {"null": None, "true": True, "false": False}[other])
            elif _NUMBER.match(other):
                operand = ("value", int(other))
            elif re.fullmatch(_KEY, other):
                operand = ("key", other)
            else:
                raise LabelError(f"{where}: bad operand {other!r} in {cond!r}")
        out.append(_Clause(negate, key, op, operand))
    return tuple(out)


def _compile_template(value: Any, where: str, maps: Iterable[str], words: Iterable[str],
                      allow_you: bool = True) -> _Template:
    maps, words = list(maps), list(words)
    items = value if isinstance(value, list) else [value]
    if isinstance(value, list) and not value:
        raise LabelError(f"{where}: an empty list of variants (use null to say nothing)")
    variants = []
    for i, item in enumerate(items):
        w = f"{where}[{i}]" if isinstance(value, list) else where
        if item is None or isinstance(item, str):
            item = {"text": item}
        if not isinstance(item, dict):
            raise LabelError(f"{w}: expected a text, null, or {{\"text\", \"you\", \"if\"}}")
        extra = sorted(set(item) - {"text", "you", "if"})
        if extra:
            raise LabelError(f"{w}: unknown key(s) {', '.join(extra)} (a variant has text, you, if)")
        if "text" not in item:
            raise LabelError(f"{w}: a variant needs \"text\" (null to say nothing)")
        if "you" in item and not allow_you:
            raise LabelError(f"{w}: \"you\" is for event texts only")
        texts = []
        for k in ("text", "you"):
            t = item.get(k)
            if t is not None and not isinstance(t, str):
                raise LabelError(f"{w}.{k}: expected a text or null")
            texts.append(None if t is None else _compile_text(t, f"{w}.{k}", maps, words))
        variants.append(_Variant(_compile_cond(item.get("if"), w), texts[0], texts[1], "you" in item))
    return _Template(where, tuple(variants))


# ---------------------------------------------------------------- labels of one language
@dataclass(frozen=True)
class StatusRow:
    label: str
    value: _Template
    cond: tuple[_Clause, ...]


@dataclass(frozen=True, eq=False)
class Labels:
    """One game's words in one language, validated and compiled (see the module docstring)."""

    game_id: str
    lang: str
    data: Mapping[str, Any]  # the merged JSON, as served to the web front end
    files: tuple[str, ...]
    events: Mapping[str, _Template] = field(repr=False)
    buttons: Mapping[str, _Template] = field(repr=False)
    status_rows: tuple[StatusRow, ...] = field(repr=False)
    fact_rows: tuple[StatusRow, ...] = field(repr=False)
    seat_name: _Text = field(repr=False)

    # ----------------------------------------------------------- plain words
    @property
    def title(self) -> str:
        t: str = self.data["title"]
        return t

    def word(self, name: str) -> str:
        w: str = self.data["words"].get(name, name)
        return w

    def phase_name(self, phase: str) -> str:
        p = self.data["phases"].get(phase)
        return str(p["name"]) if p else phase

    def phase_prompt(self, phase: str) -> str | None:
        p = self.data["phases"].get(phase)
        return p.get("prompt") if p else None

    def action_label(self, kind: str) -> str:
        a = self.data["actions"].get(kind)
        return str(a["label"]) if a else kind

    def stat_label(self, key: str) -> str:
        """A counter's words (``stats``); the key itself if the file lacks it (the audit says so)."""
        s: str = self.data["stats"].get(key, key)
        return s

    def option_label(self, name: str) -> str:
        o = self.data["options"].get(name)
        return str(o["label"]) if o else name

    def suit_name(self, letter: str) -> str:
        s: str = self.data["suits"].get(letter, letter)
        return s

    def name_of(self, seat: int, names: Sequence[str | None] | None) -> str:
        if names is not None and 0 <= seat < len(names) and names[seat]:
            return str(names[seat])
        return _render_text(self.seat_name, {"n": seat}, self, None, "words.seat")

    # ----------------------------------------------------------- rendering
    def status(self, obs: Mapping[str, Any], names: Sequence[str | None] | None = None) -> list[tuple[str, str]]:
        ctx = _Context(obs, {"you": obs.get("seat")})
        return self._rows(self.status_rows, ctx, names)

    def trick_facts(self, trick: Mapping[str, Any], names: Sequence[str | None] | None = None,
                    you: int | None = None) -> list[tuple[str, str]]:
        return self._rows(self.fact_rows, _Context(trick, {"you": you}), names)

    def _rows(self, rows: Sequence[StatusRow], ctx: _Context, names: Sequence[str | None] | None,
              ) -> list[tuple[str, str]]:
        out = []
        for row in rows:
            if not _holds(row.cond, ctx):
                continue
            text = _render(row.value, ctx, self, names, you_active=False)
            if text is not None:
                out.append((row.label, text))
        return out

    def event_text(self, event: Event, names: Sequence[str | None] | None = None,
                   you: int | None = None) -> str | None:
        tpl = self.events.get(event.kind)
        extra: dict[str, Any] = {"seat": event.seat, "you": you, "kind": event.kind}
        if event.seat >= 0:
            extra["player"] = self.name_of(event.seat, names)
        ctx = _Context(event.data, extra)
        if tpl is None:
            if event.kind in self.events:  # declared null: not logged
                return None
            who = f" {extra['player']}" if "player" in extra else ""
            return f"{event.kind}{who} {dict(event.data)}"
        return _render(tpl, ctx, self, names, you_active=you is not None and event.seat == you)

    def action_text(self, action: Action) -> str:
        tpl = self.buttons.get(action.kind)
        if tpl is None:
            return str(action)
        cards = [card_str(c) for c in iter_bits(action.cards)]
        ctx = _Context({"kind": action.kind, "cards": cards, "card": cards[0] if cards else None,
                        "arg": action.arg or None}, {})
        text = _render(tpl, ctx, self, None, you_active=False)
        return str(action) if text is None else text


class _Context:
    """The keys a template reads: the data, with the renderer's own keys over it."""

    __slots__ = ("base", "extra")

    def __init__(self, base: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        self.base = base
        self.extra = extra

    def has(self, key: str) -> bool:
        return key in self.extra or key in self.base

    def get(self, key: str) -> Any:
        if key in self.extra:
            return self.extra[key]
        return self.base.get(key)


def _truthy(v: Any) -> bool:
    if v is None or v is False:
        return False
    if isinstance(v, str | list | tuple | dict):
        return len(v) > 0
    return True


def _holds(cond: Sequence[_Clause], ctx: _Context) -> bool:
    for c in cond:
        v = ctx.get(c.key)
        if not c.op:
            ok = _truthy(v)
            if c.negate:
                ok = not ok
        else:
            other = ctx.get(c.other[1]) if c.other[0] == "key" else c.other[1]
            ok = (v == other) if c.op == "==" else (v != other)
        if not ok:
            return False
    return True


def _render(tpl: _Template, ctx: _Context, labels: Labels, names: Sequence[str | None] | None,
            *, you_active: bool) -> str | None:
    for v in tpl.variants:
        if not _holds(v.cond, ctx):
            continue
        text = v.you if you_active and v.has_you else v.text
        if text is None:
            return None
        return _render_text(text, ctx, labels, names, tpl.where)
    return None


def _render_text(text: _Text, ctx: _Context | Mapping[str, Any], labels: Labels,
                 names: Sequence[str | None] | None, where: str) -> str:
    if not isinstance(ctx, _Context):
        ctx = _Context(ctx, {})
    out = []
    for part in text:
        if isinstance(part, str):
            out.append(part)
            continue
        values = []
        for key in part.keys:
            if not ctx.has(key):
                raise LabelError(f"{where}: {{{part.raw}}} reads {key!r}, which is not there "
                                 f"(keys: {', '.join(sorted(set(ctx.base) | set(ctx.extra)))})")
            values.append(ctx.get(key))
        value: Any = values[0]
        if len(values) > 1:
            value = [x for v in values for x in (v or [])]
        for name, arg in part.formats:
            try:
                value = _FORMAT[name](value, arg, labels, names)
            except LabelError as e:
                raise LabelError(f"{where}: {{{part.raw}}}: {e}") from None
            except (TypeError, ValueError, KeyError, IndexError) as e:
                raise LabelError(f"{where}: {{{part.raw}}}: cannot format {value!r} ({e})") from None
        out.append(_plain(value, labels))
    return "".join(out)


def _plain(v: Any, labels: Labels) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return labels.word("yes" if v else "no")
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_plain(x, labels) for x in v) + "]"
    return str(v)


Formatter = Callable[[Any, str, Labels, "Sequence[str | None] | None"], Any]


def _f_cards(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    if v is None or isinstance(v, str):
        return _f_card(v, arg, lab, names) if v is not None else ""
    return " ".join(lab.word("hidden") if c is None else str(c) for c in v)


def _f_card(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return lab.word("hidden") if v is None else str(v)


def _f_suit(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else lab.suit_name(str(v))


def _f_symbol(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else SUIT_SYMBOLS.get(str(v), str(v))


def _f_seats(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return " / ".join(_plain(x, lab) for x in v)


def _f_player(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else lab.name_of(int(v), names)


def _f_by_seat(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    items = []
    for seat, x in enumerate(v):
        if not _truthy(x):
            continue
        shown = _f_cards(x, "", lab, names) if isinstance(x, list) else _plain(x, lab)
        items.append(f"{lab.name_of(seat, names)}: {shown}")
    return lab.word("item_sep").join(items)


def _f_signed(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return f"{int(v):+d}"


def _f_plus1(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return int(v) + 1


def _f_count(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return 0 if v is None else len(v)


def _f_phase(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else lab.phase_name(str(v))


def _f_map(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    table = lab.data["maps"][arg]
    key = "null" if v is None else _plain(v, lab) if not isinstance(v, bool) else str(v).lower()
    if key not in table:
        raise LabelError(f"map {arg!r} has no entry for {key!r} (entries: {', '.join(table)})")
    return table[key]


def _f_or(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return v if _truthy(v) else lab.word(arg)


_FORMAT: Final[dict[str, Formatter]] = {
    "cards": _f_cards, "card": _f_card, "suit": _f_suit, "symbol": _f_symbol, "seats": _f_seats,
    "player": _f_player, "by_seat": _f_by_seat, "signed": _f_signed, "plus1": _f_plus1,
    "count": _f_count, "phase": _f_phase, "map": _f_map, "or": _f_or,
}


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
    for sec in (*_DICT_OF_TEXT, "phases", "actions", "options", "maps", "events"):
        if sec in data:
            _expect(isinstance(data[sec], dict), f"{path}: {sec}", "an object")
    for sec in _DICT_OF_TEXT:
        for k, v in data.get(sec, {}).items():
            _expect(isinstance(v, str), f"{path}: {sec}.{k}", "a text")
    for name, table in data.get("maps", {}).items():
        _expect(isinstance(table, dict) and all(isinstance(v, str) for v in table.values()),
                f"{path}: maps.{name}", "an object of texts")
    for phase, p in data.get("phases", {}).items():
        w = f"{path}: phases.{phase}"
        _expect(isinstance(p, dict) and isinstance(p.get("name"), str), w, '{"name": text, "prompt": text}')
        _expect(set(p) <= {"name", "prompt"}, w, "only name and prompt")
        _expect(isinstance(p.get("prompt", ""), str), f"{w}.prompt", "a text")
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
    for sec in ("status", "trick_facts"):
        if sec in data:
            _expect(isinstance(data[sec], list), f"{path}: {sec}", "a list of rows")
            for i, row in enumerate(data[sec]):
                w = f"{path}: {sec}[{i}]"
                _expect(isinstance(row, dict) and isinstance(row.get("label"), str) and "value" in row, w,
                        '{"label": text, "value": template, "if": condition}')
                _expect(set(row) <= {"label", "value", "if"}, w, "only label, value and if")


def _merge(common: Mapping[str, Any], game: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for sec in SECTIONS:
        c, g = common.get(sec), game.get(sec)
        if isinstance(c, dict) or isinstance(g, dict):
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
            out[sec] = [] if sec in ("status", "trick_facts") else None
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
    return _langs_in(game_folder(cls)) or _langs_in(ENGINE_DIR)


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
    if lang not in _langs_in(ENGINE_DIR):
        raise LabelError(f"no {lang!r} labels (languages: {', '.join(_langs_in(ENGINE_DIR))})")
    game_file = folder / f"labels.{lang}.json" if own else None
    labels = _load(cls.id, cls.title, lang, str(ENGINE_DIR / f"labels.{lang}.json"),
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
    for sec in ("stats", "words", "suits", "denominations", "tags", "maps", "options", "phases", "actions",
                "events"):
        if data[sec] is None:
            data[sec] = {}
    for w in ("none", "seat", "hidden", "item_sep", "yes", "no", "you"):
        if w not in data["words"]:
            raise LabelError(f"{src}: words.{w}: missing (the common labels define it)")

    def origin(sec: str, key: str) -> Path:
        return src if key in game.get(sec, {}) or (sec in ("status", "trick_facts") and sec in game) \
            else common_path

    maps, words = list(data["maps"]), list(data["words"])
    events = {}
    for kind, tpl in data["events"].items():
        events[kind] = _compile_template(tpl, f"{origin('events', kind)}: events.{kind}", maps, words)
    buttons = {}
    for kind, a in data["actions"].items():
        buttons[kind] = _compile_template(a["button"], f"{origin('actions', kind)}: actions.{kind}.button",
                                          maps, words, allow_you=False)
    rows: dict[str, tuple[StatusRow, ...]] = {}
    for sec in ("status", "trick_facts"):
        built = []
        for i, row in enumerate(data[sec]):
            where = f"{origin(sec, '')}: {sec}[{i}]"
            built.append(StatusRow(row["label"], _compile_template(row["value"], f"{where}.value", maps, words,
                                                                  allow_you=False),
                                   _compile_cond(row.get("if"), where)))
        rows[sec] = tuple(built)
    for phase, p in data["phases"].items():
        for k in ("name", "prompt"):
            if "{" in p.get(k, ""):
                raise LabelError(f"{origin('phases', phase)}: phases.{phase}.{k}: plain text, no placeholders")
    seat_name = _compile_text(data["words"]["seat"], f"{origin('words', 'seat')}: words.seat", maps, words)
    return Labels(game_id, lang, data, tuple(files), events, buttons, rows["status"], rows["trick_facts"],
                  seat_name)


def catalog(cls: type[Game]) -> dict[str, dict[str, Any]]:
    """Every language's merged labels, JSON-ready (what ``/api/games`` serves)."""
    return {lang: dict(load(cls, lang).data) for lang in languages(cls)}


# ---------------------------------------------------------------- renderers by game
def status(game: Game | type[Game], obs: Mapping[str, Any], lang: str = "en",
           names: Sequence[str | None] | None = None) -> list[tuple[str, str]]:
    """The public state worth showing beside the table, as (label, value) rows."""
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


def event_texts(game: Game, event: Event, names: Sequence[str | None] | None = None,
                ) -> dict[str, str] | None:
    """The log line of ``event`` in every language the game ships; None when not logged."""
    out = {}
    for lang in languages(game):
        try:
            text = event_text(game, event, lang, names)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} event {event.kind}", e)
            text = event.kind
        if text is not None:
            out[lang] = text
    return out or None


def view_texts(game: Game, obs: Mapping[str, Any], legal: Sequence[Action],
               names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """What a seat's view shows in words, in every language: ``status`` rows, ``last_trick``
    facts, and ``actions``, each legal action's button text by language (in the order of
    ``legal``).  Built from the seat's observation and its legal actions only."""
    tricks = obs.get("tricks") or []
    last = tricks[-1] if tricks and isinstance(tricks[-1], Mapping) else None
    out: dict[str, Any] = {"status": {}, "last_trick": {}, "actions": [{} for _ in legal]}
    for lang in languages(game):
        try:
            lab = load(game, lang)
        except LabelError as e:
            _logged(f"{game.id} {lang}", e)
            continue
        try:
            out["status"][lang] = [list(r) for r in lab.status(obs, names)]
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} status", e)
            out["status"][lang] = []
        if last is not None:
            try:
                out["last_trick"][lang] = [list(r) for r in lab.trick_facts(last, names, obs.get("seat"))]
            except _RENDER_ERRORS as e:
                _logged(f"{game.id} trick facts", e)
                out["last_trick"][lang] = []
        for a, texts in zip(legal, out["actions"]):
            try:
                texts[lang] = lab.action_text(a)
            except _RENDER_ERRORS as e:
                _logged(f"{game.id} action {a}", e)
                texts[lang] = str(a)
    return out


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
    and choice, each counter (``STAT_KEYS``), and each phase, action kind, event kind and trick flag that random games
    (through the protocol only) meet has its words; every template renders on what the games
    produce (every seat, the spectator, every reader as ``you``) and reads only keys that
    occur.  An empty list means complete."""
    import random

    from torite.engine.base import OptionError
    from torite.engine.registry import game_class, make_game

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


def _shape(data: Any, path: str = "") -> set[str]:
    """The key paths of a labels file that every language must share (templates' inner forms
    may differ: Japanese needs no second person)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            p = f"{path}.{k}" if path else k
            out.add(p)
            if k in ("status", "trick_facts") and isinstance(v, list):
                out |= {f"{p}[{i}]" + (f" if {r.get('if')}" if r.get("if") else "") for i, r in enumerate(v)}
            elif path.split(".")[0] not in ("events",) and not (path.startswith("actions.") and k == "button"):
                out |= _shape(v, p)
    return out


def compare_languages(cls: type[Game]) -> list[str]:
    """Keys one language's file has and another's lacks, for a game's files and the common ones."""
    problems = []
    for folder in (game_folder(cls), ENGINE_DIR):
        langs = _langs_in(folder)
        shapes = {lang: _shape(_read(folder / f"labels.{lang}.json")) for lang in langs}
        for a in langs:
            for b in langs:
                if a != b:
                    for key in sorted(shapes[a] - shapes[b]):
                        problems.append(f"{folder / f'labels.{b}.json'}: lacks {key} (labels.{a}.json has it)")
    return problems


__all__ = ["LabelError", "Labels", "action_text", "audit", "catalog", "choice_key", "compare_languages", "event_text",
           "event_texts", "languages", "load", "option_variants", "status", "view_texts"]
