"""The template language of the labels files: placeholders, formatters and conditions,
compiled once when a file is loaded (see the package docstring for the syntax)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

SECTIONS: Final = ("title", "summary", "goal", "stats", "words", "suits", "ranks", "jokers", "denominations", "plurals",
                   "ordinals", "maps", "options", "phases", "actions", "status", "events", "tags", "trick_facts",
                   "reasons", "hints", "scoring", "explain", "roles")
_DICT_OF_TEXT = ("stats", "words", "suits", "ranks", "jokers", "denominations", "tags", "scoring")
#: sections that are lists of rows ({"label", "value", "if"}; roles: {"label", "seat", "if"})
ROW_SECTIONS: Final = ("status", "trick_facts", "explain", "roles")
FORMATTERS: Final = ("cards", "card", "suit", "symbol", "contract", "level", "plural", "ordinal", "seats", "player",
                     "players", "by_seat", "signed", "plus1", "count", "phase", "map", "or")
_WITH_ARG = ("map", "or", "plural")
#: by_seat may name the formatter of each value (``by_seat:card``)
_OPTIONAL_ARG = ("by_seat",)
_PER_VALUE = ("card", "cards", "suit", "symbol", "contract", "player")
#: the words every language's common file defines
REQUIRED_WORDS: Final = ("none", "seat", "hidden", "face_down", "item_sep", "list_pair", "list_last", "list_sep",
                         "yes", "no", "you", "card_name", "card_sep", "suit_named")
_CONTRACT = re.compile(r"^(\d+)\s+(\S+)$")

_KEY = r"[A-Za-z_][A-Za-z0-9_]*"
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_PATH = re.compile(rf"^{_KEY}(?:\+{_KEY})*$")
_CLAUSE = re.compile(rf"^(!?)\s*({_KEY})\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?$")
#: the comparisons of a condition: equality over any value, order over numbers only
ORDER_OPS: Final = ("<", ">", "<=", ">=")
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
    op: str  # "", "==", "!=", or one of ORDER_OPS
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


def _compile_text(text: str, where: str, known: Mapping[str, Iterable[str]]) -> _Text:
    """``known``: the names a formatter's argument may take (``map``: maps, ``or``: words,
    ``plural``: plurals)."""
    parts: list[str | _Slot] = []
    pos = 0
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
            if name not in _OPTIONAL_ARG and (name in _WITH_ARG) != bool(arg):
                raise LabelError(f"{where}: formatter {name!r} {'needs' if name in _WITH_ARG else 'takes no'} "
                                 f"an argument in {{{inner}}}")
            if name in _OPTIONAL_ARG and arg and arg not in _PER_VALUE:
                raise LabelError(f"{where}: {{{inner}}}: {name}:{arg}: the argument is one of {', '.join(_PER_VALUE)}")
            section = {"map": "maps", "or": "words", "plural": "plurals"}.get(name)
            if section is not None and arg not in set(known.get(name, ())):
                raise LabelError(f"{where}: {{{inner}}} uses {section[:-1]} {arg!r}, which {section!r} does not define")
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
            if op in ORDER_OPS and operand[0] == "value" and not isinstance(operand[1], int):
                raise LabelError(f"{where}: {op!r} compares numbers: {other!r} in {cond!r} is not one")
        out.append(_Clause(negate, key, op, operand))
    return tuple(out)


def _compile_template(value: Any, where: str, known: Mapping[str, Iterable[str]],
                      allow_you: bool = True) -> _Template:
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
            texts.append(None if t is None else _compile_text(t, f"{w}.{k}", known))
        variants.append(_Variant(_compile_cond(item.get("if"), w), texts[0], texts[1], "you" in item))
    return _Template(where, tuple(variants))
