"""Each game's words, as data beside its rules: ``labels.<lang>.json``.

Why data and not code: the web table, the terminal and any later face must say the same thing
in every language, and a translator (or the author of a new game) should write sentences, not
Python.  Faces hold only generic words ("Your turn", "Score sheet"); everything a game says
comes from here.

Files.  ``src/torite/engine/labels.<lang>.json`` holds the words every trick game shares (the
common events, "none", seat names, suit and rank names).  A game's ``labels.<lang>.json`` sits
next to its rules module (like ``rules.<lang>.md``) and is merged over the common file: section
by section, key by key; its ``status`` and ``trick_facts`` lists replace the common ones.  The
languages a game ships are those of its files.

Schema (every section optional in a game's file unless said otherwise)::

    {
      "title": "Trick of the Dead",              # required in a game's file
      "summary": "one line for the lobby",
      "words": {"none": "none", "seat": "seat {n}", "you": "you", ...},
      "suits": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
      "ranks": {"A": "ace", "K": "king", ...},   # a rank's spoken name (others: as written)
      "jokers": {"JK": "Joker", "JK1": "Joker 1", "JK2": "Joker 2"},
      "denominations": {"NT": "no-trump"},       # the words of non-suit contract denominations
      "plurals": {"card": {"one": "{n} card", "other": "{n} cards"}},   # CLDR categories
      "ordinals": {"one": "{n}st", "two": "{n}nd", "few": "{n}rd", "other": "{n}th"},
      "maps": {"turned_at": {"shuffled": "somewhere in the stock", ...}},
      "options": {"survival": {"label": "Survival mode", "help": "…",
                               "choices": {"true": "…"}}},          # choices: by value as text
      "phases": {"bury": {"name": "burial", "prompt": "Choose two cards to bury."}},
      "actions": {"trump": {"label": "trump", "button": "Trump: {arg|suit}"}},
      "status": [{"label": "trump", "value": TEMPLATE, "if": CONDITION}, ...],
      "events": {"play": TEMPLATE, "kaedama_turn": null, ...},       # null: not logged
      "tags": {"zombie": "zombie"},              # a true flag of a trick entry, shown by its card
      "trick_facts": [ROW, ...]                  # rows about a finished trick (over its record)
    }

Common words every language defines: ``none``, ``seat``, ``hidden`` (a card not seen, in
text), ``face_down`` (its spoken name), ``item_sep``, ``yes``, ``no``, ``you``, ``card_name``
(a card's spoken name from ``{rank}`` and ``{suit}``: "{rank} of {suit}", "{suit}の{rank}",
"{suit} {rank}"), ``card_sep`` (between spoken card names) and ``suit_named`` (a suit with its
word, from ``{symbol}`` and ``{name}``: "♥ hearts", "♥ハート").

``plurals`` gives each counted word its forms by the CLDR plural category of the count in the
file's language (Babel's rules): English has ``one`` and ``other``, Japanese and Korean only
``other``; a file must give exactly its language's categories, and ``{n}`` is the count.
``ordinals`` gives the ordinal's forms the same way (English ``one`` ``two`` ``few`` ``other``:
1st 2nd 3rd 4th), and ``maps.ordinal`` may spell numbers out ahead of them (Korean "첫 번째",
"두 번째"); that map is a language's own, so the languages' files need not share its keys.

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
the web table passes none): English needs it ("you play"), Japanese does not, Korean does where
a particle follows the player ("내가", not "나이(가)").

Texts hold placeholders ``{key|formatter|formatter:arg}``; ``{{`` and ``}}`` are braces.  Keys
are read from the context: the observation (status), the event's data (events; ``player`` is
the name of the event's seat, ``seat`` its number), the action (``card``, ``cards``, ``arg``,
``kind``), a finished trick's record (trick facts); ``you`` is the reader's seat (or null)
everywhere.  ``a+b`` joins two lists.  A key the context lacks is an error naming file and
entry.  Formatters:

    card       one card (a card text; null is a card not seen)
    cards      a list of cards (empty: nothing, so ``|or:WORD`` can name it)
    suit       a suit letter, shown with its word (♥ hearts)
    symbol     a suit letter, shown as its symbol alone (♥)
    contract   a contract or bid "LEVEL DENOMINATION" (14♥, 14 노기루다, 3NT)
    plural:W   a count with the word plurals[W] in the form its number takes (1 card, 2 cards)
    ordinal    a number as an ordinal: maps.ordinal spells it out (두 번째), else ordinals (2nd)
    seats      a per-seat list as "a / b / c"          player   a seat number as its name
    by_seat    a per-seat list as "name: value; …", empty values left out (words.item_sep);
               a list value as cards, or each value through a formatter: ``by_seat:card``
    signed     +3, -2, +0                              plus1    a count from 0, shown from 1
    count      the length of a list                    phase    a phase id as its name
    map:NAME   the value through maps[NAME]            or:WORD  words[WORD] if the value is empty
                                                                (and nothing after it applies)

Without a formatter a value shows as text, a list of numbers as ``[1, 2, 3]``: a card, a suit
or a contract always goes through its formatter, so no face shows the action notation.

Rendering is structured.  A template renders to *rich text*: a list of parts, each a plain
string or a token, a JSON object naming what it stands for rather than how it looks:

    {"t": "card", "card": "AS"}            {"t": "cards", "cards": ["AS", null]}
    {"t": "suit", "suit": "H", "word": false}   (word: shown with its name, "♥ hearts")
    {"t": "contract", "level": 14, "denom": "NT"}

Each face draws tokens with its one formatter (the web: DOM nodes, the terminal: Rich text);
``Labels.text`` is the plain one: the compact form every face shows (a card ``♠A``, ``♥10``, a
joker by its word, a suit ``♥``, a contract ``14♥`` or ``14 노기루다``: a denomination's word
follows the level after a space, unless it is an abbreviation in capitals, "3NT"), and with
``spoken=True`` the spelled-out names (``ace of spades``, ``スペードのA``, ``스페이드 A``) that
screen readers and the terminal's line mode read.  ``status``, ``event_text``, ``action_text``
and ``trick_facts`` return plain text; the ``*_rich`` methods the structure.

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

import babel

from torite.cards import RANK_CHARS, card_str, iter_bits

if TYPE_CHECKING:
    from torite.engine.base import Action, Event, Game

log = logging.getLogger("torite.labels")

ENGINE_DIR: Final = Path(__file__).resolve().parent
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

SECTIONS: Final = ("title", "summary", "words", "suits", "ranks", "jokers", "denominations", "plurals", "ordinals",
                   "maps", "options", "phases", "actions", "status", "events", "tags", "trick_facts")
_DICT_OF_TEXT = ("words", "suits", "ranks", "jokers", "denominations", "tags")
FORMATTERS: Final = ("cards", "card", "suit", "symbol", "contract", "plural", "ordinal", "seats", "player",
                     "by_seat", "signed", "plus1", "count", "phase", "map", "or")
_WITH_ARG = ("map", "or", "plural")
#: by_seat may name the formatter of each value (``by_seat:card``)
_OPTIONAL_ARG = ("by_seat",)
_PER_VALUE = ("card", "cards", "suit", "symbol", "contract")
#: the words every language's common file defines
REQUIRED_WORDS: Final = ("none", "seat", "hidden", "face_down", "item_sep", "yes", "no", "you", "card_name",
                         "card_sep", "suit_named")
_CONTRACT = re.compile(r"^(\d+)\s+(\S+)$")

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


# ---------------------------------------------------------------- labels of one language
@dataclass(frozen=True)
class StatusRow:
    label: str
    value: _Template
    cond: tuple[_Clause, ...]


#: a token of rich text: a JSON object naming a card, cards, a suit or a contract (``t``)
Token = dict[str, Any]
#: rich text: plain strings and tokens, in order
Rich = list["str | Token"]
TOKEN_KINDS: Final = ("card", "cards", "suit", "contract")


class _Frag(tuple[Any, ...]):
    """Parts a formatter returns that the text takes in as they are (``by_seat``)."""


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

    def option_label(self, name: str) -> str:
        o = self.data["options"].get(name)
        return str(o["label"]) if o else name

    def suit_name(self, letter: str) -> str:
        s: str = self.data["suits"].get(letter, letter)
        return s

    def name_of(self, seat: int, names: Sequence[str | None] | None) -> str:
        if names is not None and 0 <= seat < len(names) and names[seat]:
            return str(names[seat])
        return self.text(_render_text(self.seat_name, {"n": seat}, self, None, "words.seat"))

    def ordinal(self, n: int) -> str:
        """``n`` as an ordinal: ``maps.ordinal`` when it spells the number out (Korean "두 번째"),
        else ``ordinals`` by the CLDR ordinal category of ``n`` ("2nd", "2番目")."""
        spelled = self.data["maps"].get("ordinal", {}).get(str(n))
        if spelled is not None:
            return str(spelled)
        forms = self.data["ordinals"]
        return str(forms.get(plural_category(self.lang, n, ordinal=True), forms["other"])).replace("{n}", str(n))

    def plural(self, word: str, n: int) -> str:
        """``n`` with ``plurals[word]`` in the form the language's plural rules give it."""
        forms = self.data["plurals"].get(word)
        if forms is None:
            raise LabelError(f"no plural forms for {word!r} (plurals: {', '.join(self.data['plurals'])})")
        form = forms.get(plural_category(self.lang, n), forms["other"])
        return str(form).replace("{n}", str(n))

    # ----------------------------------------------------------- cards, suits, contracts
    def card_text(self, card: str | None, *, spoken: bool = False) -> str:
        """A card as a player reads it: ``♠A`` (``ace of spades`` spoken); a joker by its word;
        None (a card not seen) as words.hidden (words.face_down spoken)."""
        if card is None:
            return self.word("face_down" if spoken else "hidden")
        jokers = self.data["jokers"]
        if card in jokers:
            return str(jokers[card])
        rank, suit = _split_card(card)
        if spoken:
            return (self.word("card_name").replace("{rank}", str(self.data["ranks"].get(rank, rank)))
                    .replace("{suit}", self.suit_name(suit)))
        return SUIT_SYMBOLS[suit] + rank

    def suit_text(self, letter: str, *, word: bool = False, spoken: bool = False) -> str:
        if spoken:
            return self.suit_name(letter)
        if word:
            return self.word("suit_named").replace("{symbol}", SUIT_SYMBOLS[letter]).replace(
                "{name}", self.suit_name(letter))
        return SUIT_SYMBOLS[letter]

    def denomination(self, denom: str, *, spoken: bool = False) -> str:
        """A contract's denomination: a suit's symbol (its word spoken), else the game's word."""
        if denom in SUIT_SYMBOLS:
            return self.suit_name(denom) if spoken else SUIT_SYMBOLS[denom]
        return str(self.data["denominations"].get(denom, denom))

    def contract_text(self, level: int | str, denom: str, *, spoken: bool = False) -> str:
        """``14♥`` (``14 hearts`` spoken); a denomination's word after a space (``14 노기루다``),
        unless it is an abbreviation in capitals, which attaches like a symbol (``3NT``)."""
        name = self.denomination(denom, spoken=spoken)
        if denom in SUIT_SYMBOLS:
            return f"{level} {name}" if spoken else f"{level}{name}"
        return f"{level}{name}" if name.isascii() and name.isupper() else f"{level} {name}"

    def token_text(self, tok: Mapping[str, Any], *, spoken: bool = False) -> str:
        t = tok.get("t")
        if t == "card":
            return self.card_text(tok["card"], spoken=spoken)
        if t == "cards":
            sep = self.word("card_sep") if spoken else " "
            return sep.join(self.card_text(c, spoken=spoken) for c in tok["cards"])
        if t == "suit":
            return self.suit_text(tok["suit"], word=bool(tok.get("word")), spoken=spoken)
        if t == "contract":
            return self.contract_text(tok["level"], tok["denom"], spoken=spoken)
        raise LabelError(f"not a token: {tok!r}")

    def text(self, rich: Sequence[str | Token] | None, *, spoken: bool = False) -> str:
        """Rich text as plain text: the compact form every face shows, or spelled out."""
        if rich is None:
            return ""
        return "".join(p if isinstance(p, str) else self.token_text(p, spoken=spoken) for p in rich)

    # ----------------------------------------------------------- rendering
    def status_rich(self, obs: Mapping[str, Any], names: Sequence[str | None] | None = None,
                    ) -> list[tuple[str, Rich]]:
        """The public state worth showing beside the table, as (label, rich value) rows."""
        ctx = _Context(obs, {"you": obs.get("seat")})
        return self._rows(self.status_rows, ctx, names)

    def status(self, obs: Mapping[str, Any], names: Sequence[str | None] | None = None) -> list[tuple[str, str]]:
        return [(k, self.text(v)) for k, v in self.status_rich(obs, names)]

    def trick_facts_rich(self, trick: Mapping[str, Any], names: Sequence[str | None] | None = None,
                         you: int | None = None) -> list[tuple[str, Rich]]:
        return self._rows(self.fact_rows, _Context(trick, {"you": you}), names)

    def trick_facts(self, trick: Mapping[str, Any], names: Sequence[str | None] | None = None,
                    you: int | None = None) -> list[tuple[str, str]]:
        return [(k, self.text(v)) for k, v in self.trick_facts_rich(trick, names, you)]

    def _rows(self, rows: Sequence[StatusRow], ctx: _Context, names: Sequence[str | None] | None,
              ) -> list[tuple[str, Rich]]:
        out = []
        for row in rows:
            if not _holds(row.cond, ctx):
                continue
            rich = _render(row.value, ctx, self, names, you_active=False)
            if rich is not None:
                out.append((row.label, rich))
        return out

    def event_rich(self, event: Event, names: Sequence[str | None] | None = None,
                   you: int | None = None) -> Rich | None:
        """One log line for ``event`` (None: not logged); ``you`` picks the second-person forms."""
        tpl = self.events.get(event.kind)
        extra: dict[str, Any] = {"seat": event.seat, "you": you, "kind": event.kind}
        if event.seat >= 0:
            extra["player"] = self.name_of(event.seat, names)
        ctx = _Context(event.data, extra)
        if tpl is None:
            if event.kind in self.events:  # declared null: not logged
                return None
            who = f" {extra['player']}" if "player" in extra else ""
            return [f"{event.kind}{who} {dict(event.data)}"]
        return _render(tpl, ctx, self, names, you_active=you is not None and event.seat == you)

    def event_text(self, event: Event, names: Sequence[str | None] | None = None,
                   you: int | None = None) -> str | None:
        rich = self.event_rich(event, names, you)
        return None if rich is None else self.text(rich)

    def action_rich(self, action: Action) -> Rich:
        """The words on an action's button."""
        tpl = self.buttons.get(action.kind)
        if tpl is None:
            return [str(action)]
        cards = [card_str(c) for c in iter_bits(action.cards)]
        ctx = _Context({"kind": action.kind, "cards": cards, "card": cards[0] if cards else None,
                        "arg": action.arg or None}, {})
        rich = _render(tpl, ctx, self, None, you_active=False)
        return [str(action)] if rich is None else rich

    def action_text(self, action: Action, *, spoken: bool = False) -> str:
        return self.text(self.action_rich(action), spoken=spoken)


def plural_category(lang: str, n: int, *, ordinal: bool = False) -> str:
    """The CLDR plural category of ``n`` in ``lang`` ("one", "other", …; of the ordinal with
    ``ordinal``: English "one" is 1st, 21st), by Babel's rules."""
    return _plural_rule(lang, ordinal)(n)


@functools.lru_cache(maxsize=16)
def _plural_rule(lang: str, ordinal: bool) -> Callable[[int], str]:
    loc = babel.Locale.parse(lang)
    rule: Callable[[int], str] = loc.ordinal_form if ordinal else loc.plural_form
    return rule


def plural_categories(lang: str, *, ordinal: bool = False) -> frozenset[str]:
    """Every plural category a language's counts (or ordinals) take ("other" always)."""
    loc = babel.Locale.parse(lang)
    return frozenset((loc.ordinal_form if ordinal else loc.plural_form).tags) | {"other"}


def _split_card(card: str) -> tuple[str, str]:
    """A card text's rank and suit letter (a joker is not split)."""
    if not isinstance(card, str) or card[-1:] not in SUIT_SYMBOLS or card[:-1] not in _RANKS:
        raise LabelError(f"not a card: {card!r}")
    return card[:-1], card[-1]


_RANKS: Final = frozenset(RANK_CHARS.values())


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
            *, you_active: bool) -> Rich | None:
    for v in tpl.variants:
        if not _holds(v.cond, ctx):
            continue
        text = v.you if you_active and v.has_you else v.text
        if text is None:
            return None
        return _render_text(text, ctx, labels, names, tpl.where)
    return None


def _render_text(text: _Text, ctx: _Context | Mapping[str, Any], labels: Labels,
                 names: Sequence[str | None] | None, where: str) -> Rich:
    """The parts of a text: its literal strings and each placeholder's output as a part of its
    own (a token, or a string), never merged, so a check can tell a value from the words."""
    if not isinstance(ctx, _Context):
        ctx = _Context(ctx, {})
    out: Rich = []
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
            if name == "or" and isinstance(value, _Word):
                break  # the word stands for the missing value: nothing after it applies
        _append(out, value, labels)
    return out


def _append(out: Rich, value: Any, labels: Labels) -> None:
    if isinstance(value, _Frag):
        for v in value:
            _append(out, v, labels)
    elif isinstance(value, dict):
        out.append(value)
    else:
        text = _plain(value, labels)
        if text:
            out.append(text)


class _Word(str):
    """A word put in for an empty value (``or:WORD``)."""


def _plain(v: Any, labels: Labels) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return labels.word("yes" if v else "no")
    if isinstance(v, dict):
        return labels.token_text(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_plain(x, labels) for x in v) + "]"
    return str(v)


Formatter = Callable[[Any, str, Labels, "Sequence[str | None] | None"], Any]


def _card_value(v: Any, lab: Labels) -> str | None:
    """A card text a token may carry, checked (null: a card not seen)."""
    if v is None:
        return None
    if not isinstance(v, str):
        raise LabelError(f"not a card: {v!r}")
    if v not in lab.data["jokers"]:
        _split_card(v)
    return v


def _f_cards(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    if v is None:
        return ""
    cards = [v] if isinstance(v, str) else list(v)
    if not cards:
        return ""
    return {"t": "cards", "cards": [_card_value(c, lab) for c in cards]}


def _f_card(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return {"t": "card", "card": _card_value(v, lab)}


def _suit_letter(v: Any) -> str:
    if v not in SUIT_SYMBOLS:
        raise LabelError(f"not a suit letter: {v!r}")
    return str(v)


def _f_suit(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else {"t": "suit", "suit": _suit_letter(v), "word": True}


def _f_symbol(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else {"t": "suit", "suit": _suit_letter(v), "word": False}


def _f_contract(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    if v is None:
        return ""
    m = _CONTRACT.match(v) if isinstance(v, str) else None
    if m is None:
        raise LabelError(f"not a contract: {v!r} (a contract is \"LEVEL DENOMINATION\", e.g. \"14 H\")")
    denom = m.group(2)
    if denom not in SUIT_SYMBOLS and denom not in lab.data["denominations"]:
        raise LabelError(f"{v!r}: no word for the denomination {denom!r} in 'denominations'")
    return {"t": "contract", "level": int(m.group(1)), "denom": denom}


def _f_plural(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return lab.plural(arg, int(v))


def _f_ordinal(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return lab.ordinal(int(v))


def _f_seats(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return " / ".join(_plain(x, lab) for x in v)


def _f_player(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return "" if v is None else lab.name_of(int(v), names)


def _f_by_seat(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    parts: list[Any] = []
    for seat, x in enumerate(v):
        if not _truthy(x):
            continue
        if arg:
            shown = _FORMAT[arg](x, "", lab, names)
        elif isinstance(x, list):
            shown = _f_cards(x, "", lab, names)
        else:
            shown = _plain(x, lab)
        if parts:
            parts.append(lab.word("item_sep"))
        parts.extend((f"{lab.name_of(seat, names)}: ", shown))
    return _Frag(parts)


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
    return v if _truthy(v) else _Word(lab.word(arg))


_FORMAT: Final[dict[str, Formatter]] = {
    "cards": _f_cards, "card": _f_card, "suit": _f_suit, "symbol": _f_symbol, "contract": _f_contract,
    "plural": _f_plural, "ordinal": _f_ordinal, "seats": _f_seats, "player": _f_player, "by_seat": _f_by_seat,
    "signed": _f_signed, "plus1": _f_plus1, "count": _f_count, "phase": _f_phase, "map": _f_map, "or": _f_or,
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
    for sec in (*_DICT_OF_TEXT, "phases", "actions", "options", "maps", "events", "plurals", "ordinals"):
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
    for sec in ("words", "suits", "ranks", "jokers", "denominations", "plurals", "ordinals", "tags", "maps",
                "options", "phases", "actions", "events"):
        if data[sec] is None:
            data[sec] = {}
    for w in REQUIRED_WORDS:
        if w not in data["words"]:
            raise LabelError(f"{src}: words.{w}: missing (the common labels define it)")
    for letter in SUIT_SYMBOLS:
        if letter not in data["suits"]:
            raise LabelError(f"{src}: suits.{letter}: missing (the common labels define it)")

    def origin(sec: str, key: str) -> Path:
        return src if key in game.get(sec, {}) or (sec in ("status", "trick_facts") and sec in game) \
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
    buttons = {}
    for kind, a in data["actions"].items():
        buttons[kind] = _compile_template(a["button"], f"{origin('actions', kind)}: actions.{kind}.button",
                                          known, allow_you=False)
    rows: dict[str, tuple[StatusRow, ...]] = {}
    for sec in ("status", "trick_facts"):
        built = []
        for i, row in enumerate(data[sec]):
            where = f"{origin(sec, '')}: {sec}[{i}]"
            built.append(StatusRow(row["label"], _compile_template(row["value"], f"{where}.value", known,
                                                                  allow_you=False),
                                   _compile_cond(row.get("if"), where)))
        rows[sec] = tuple(built)
    for phase, p in data["phases"].items():
        for k in ("name", "prompt"):
            if "{" in p.get(k, ""):
                raise LabelError(f"{origin('phases', phase)}: phases.{phase}.{k}: plain text, no placeholders")
    seat_name = _compile_text(data["words"]["seat"], f"{origin('words', 'seat')}: words.seat", known)
    return Labels(game_id, lang, data, tuple(files), events, buttons, rows["status"], rows["trick_facts"],
                  seat_name)


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


def event_texts(game: Game, event: Event, names: Sequence[str | None] | None = None,
                ) -> dict[str, Rich] | None:
    """The log line of ``event`` as rich text in every language the game ships; None when not
    logged."""
    out: dict[str, Rich] = {}
    for lang in languages(game):
        try:
            rich = load(game, lang).event_rich(event, names)
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} event {event.kind}", e)
            rich = [event.kind]
        if rich is not None:
            out[lang] = rich
    return out or None


def view_texts(game: Game, obs: Mapping[str, Any], legal: Sequence[Action],
               names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """What a seat's view shows in words, in every language, as rich text (the faces draw its
    tokens): ``status`` rows and ``last_trick`` facts (``[label, rich]``), and ``actions``, each
    legal action's button by language (in the order of ``legal``).  Built from the seat's
    observation and its legal actions only."""
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
            out["status"][lang] = [list(r) for r in lab.status_rich(obs, names)]
        except _RENDER_ERRORS as e:
            _logged(f"{game.id} status", e)
            out["status"][lang] = []
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
    for folder in (game_folder(cls), ENGINE_DIR):
        langs = _langs_in(folder)
        shapes = {lang: _shape(_read(folder / f"labels.{lang}.json")) for lang in langs}
        for a in langs:
            for b in langs:
                if a != b:
                    for key in sorted(shapes[a] - shapes[b]):
                        problems.append(f"{folder / f'labels.{b}.json'}: lacks {key} (labels.{a}.json has it)")
    return problems


__all__ = ["TOKEN_KINDS", "LabelError", "Labels", "Rich", "Token", "action_text", "audit", "catalog", "choice_key",
           "compare_languages", "event_text", "event_texts", "languages", "load", "option_variants",
           "plural_categories", "plural_category", "status", "view_texts"]
