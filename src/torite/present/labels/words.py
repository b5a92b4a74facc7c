"""The words of one game in one language (:class:`Labels`) and how a template renders: rich
text of plain strings and tokens (cards, suits, contracts) that each face draws its own way."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import babel

from torite.cards import RANK_CHARS, card_str, iter_bits
from torite.present.labels import korean
from torite.present.labels.templates import (
    _CONTRACT,
    SUIT_SYMBOLS,
    LabelError,
    _Clause,
    _Template,
    _Text,
)

if TYPE_CHECKING:
    from torite.engine.base import Action, Event

# ---------------------------------------------------------------- labels of one language
@dataclass(frozen=True)
class StatusRow:
    label: str
    value: _Template
    cond: tuple[_Clause, ...]
    #: a status row the table keeps in view at all times (the contract, the trump)
    pin: bool = False


@dataclass(frozen=True)
class RoleRow:
    """A role shown on a seat's tile: ``label`` on the seat the observation's ``seat`` key holds."""

    label: str
    seat: str
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
    reasons: Mapping[str, _Template] = field(repr=False, default_factory=dict)
    hints: Mapping[str, _Template] = field(repr=False, default_factory=dict)
    explain_rows: tuple[StatusRow, ...] = field(repr=False, default=())
    role_rows: tuple[RoleRow, ...] = field(repr=False, default=())
    goal: _Template | None = field(repr=False, default=None)
    prompts: Mapping[str, _Template] = field(repr=False, default_factory=dict)
    #: the glossary's terms, each as its variants (condition over the options, text)
    terms: Mapping[str, tuple[tuple[tuple[_Clause, ...], str], ...]] = field(repr=False, default_factory=dict)
    #: each action's button words, made once: a state message names every legal action in every
    #: language, and an action's words depend on the action alone
    _buttons_made: dict[Action, Rich] = field(repr=False, default_factory=dict, compare=False)

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

    def phase_prompt(self, phase: str, obs: Mapping[str, Any] | None = None) -> str | None:
        """What to do now and why, as plain text (see :meth:`prompt_rich`)."""
        rich = self.prompt_rich({"phase": phase, **(obs or {})})
        return None if rich is None else self.text(rich)

    def prompt_rich(self, obs: Mapping[str, Any]) -> Rich | None:
        """The prompt of the observation's phase, over the observation (a prompt may say more
        when it matters: a trump declared in the last trick changes nothing)."""
        tpl = self.prompts.get(str(obs.get("phase")))
        if tpl is None:
            return None
        return _render(tpl, _Context(obs, {"you": obs.get("seat")}), self, None, you_active=False)

    def action_label(self, kind: str) -> str:
        a = self.data["actions"].get(kind)
        return str(a["label"]) if a else kind

    def round_name(self, k: int) -> str:
        """Round ``k`` (from 1) by the game's own word: "Deal 3", "세 번째 판" (``words.round_no``)."""
        return self.word("round_no").replace("{n}", str(k)).replace("{nth}", self.ordinal(k))

    def stat_label(self, key: str) -> str:
        """A counter's words (``stats``): what ``simulate`` and ``compare`` print instead of the
        key; the key itself if the file lacks it (the audit says so)."""
        s: str = self.data["stats"].get(key, key)
        return s

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

    def join(self, items: Sequence[str]) -> str:
        """Items as the language lists them ("seat 1 and seat 3", "seat 0, seat 1, and seat 3";
        "席1、席3"; "1번 자리와 3번 자리"): ``words.list_pair`` for two, ``words.list_sep``
        between the first ones and ``words.list_last`` before the last of three or more (the
        patterns of CLDR's list formats, written by each language's file)."""
        items = [str(x) for x in items]
        if len(items) < 2:
            return "".join(items)
        if len(items) == 2:
            text = self.word("list_pair").replace("{0}", items[0]).replace("{1}", items[1])
        else:
            head = self.word("list_sep").join(items[:-1])
            text = self.word("list_last").replace("{0}", head).replace("{1}", items[-1])
        return korean.finish(text) if self.lang == "ko" else text

    def glossary(self, options: Mapping[str, Any]) -> dict[str, str]:
        """The game's terms explained under these options (``maps.glossary``: a text, or variants
        whose ``if`` reads the options: a term whose meaning an option changes says what it
        means in the game being played; ``{option}`` in a text is the option's value, so a
        number a house rule sets is the one in force, never its default)."""
        out: dict[str, str] = {}
        ctx = _Context(options, {})
        for term, variants in self.terms.items():
            text = next((t for cond, t in variants if _holds(cond, ctx)), None)
            if text is not None and all(name in options for name in GLOSS_SLOT.findall(text)):
                out[term] = GLOSS_SLOT.sub(lambda m: str(options[m[1]]), text)
        return out

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
        """``14♥`` (``14 hearts`` spoken, ``1 heart`` for one); a denomination's word after a
        space (``14 no-trump``), unless it is an abbreviation in capitals, which attaches like a
        symbol (``3NT``).  Said in words (spoken, or a denomination without a symbol), a contract
        takes the form ``plurals.contract_<denomination>`` gives it where the file has one: the
        number's plural form ("1 diamond") and the players' order ("스페이드 13", "노기루다 20")."""
        if denom in SUIT_SYMBOLS and not spoken:
            return f"{level}{SUIT_SYMBOLS[denom]}"
        forms = self.data["plurals"].get(f"contract_{denom}")
        if forms is not None:
            try:
                n = int(level)
            except ValueError:
                n = 0
            form = forms.get(plural_category(self.lang, n), forms["other"])
            return str(form).replace("{n}", str(level))
        name = self.denomination(denom, spoken=spoken)
        if denom in SUIT_SYMBOLS:
            return f"{level} {name}"
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
        return [(k, v) for k, v, _ in self.status_pinned(obs, names)]

    def status_pinned(self, obs: Mapping[str, Any], names: Sequence[str | None] | None = None,
                      ) -> list[tuple[str, Rich, bool]]:
        """The status rows with whether each is pinned (kept in view: the contract, the trump)."""
        ctx = _Context(obs, {"you": obs.get("seat")})
        out = []
        for row in self.status_rows:
            if _holds(row.cond, ctx):
                rich = _render(row.value, ctx, self, names, you_active=False)
                if rich is not None:
                    out.append((row.label, rich, row.pin))
        return out

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
        """The words on an action's button (a copy: the made words stay as made)."""
        made = self._buttons_made.get(action)
        if made is None:
            made = self._buttons_made[action] = self._make_button(action)
        return list(made)

    def _make_button(self, action: Action) -> Rich:
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

    # ----------------------------------------------------------- teaching
    def reason_rich(self, rule: str, data: Mapping[str, Any], names: Sequence[str | None] | None = None,
                    ) -> Rich:
        """Why a choice is refused (``reasons.<rule>`` on the refusal's data): "you must follow ♥".
        A rule without words says the generic "not now" rather than its key."""
        tpl = self.reasons.get(rule) or self.reasons.get("not_now")
        if tpl is None:
            return [rule]
        return _render(tpl, _Context(data, {"you": None}), self, names, you_active=False) or []

    def hint_rich(self, key: str, data: Mapping[str, Any], names: Sequence[str | None] | None = None,
                  ) -> Rich | None:
        """A bot's one-line reason for its choice (``hints.<key>`` on the reason's data); None when
        the labels have no words for it."""
        tpl = self.hints.get(key)
        if tpl is None:
            return None
        return _render(tpl, _Context(data, {"you": None}), self, names, you_active=False)

    def goal_rich(self, options: Mapping[str, Any]) -> Rich | None:
        """How the game is won, in one line, under these options ("The lowest total wins")."""
        if self.goal is None:
            return None
        return _render(self.goal, _Context(options, {"you": None}), self, None, you_active=False)

    @property
    def tricks_score(self) -> bool:
        """Whether a trick carries points worth saying (its facts name them): Umbridge's and
        Seconds' tricks do not, so a table shows no "points 0" there."""
        return any("points" in set(row.value.keys()) for row in self.fact_rows)

    def scoring_word(self, key: str) -> str:
        """The words of a round summary's row or step (``scoring.<key>``: "hearts taken")."""
        w: str = self.data["scoring"].get(key, key)
        return w

    def explain_rich(self, data: Mapping[str, Any], names: Sequence[str | None] | None = None,
                     you: int | None = None) -> list[tuple[str, Rich]]:
        """The lines that write a round's scoring out (``explain``, over the round end's data):
        the contract and the calculation, the teams, the deal's rule."""
        return self._rows(self.explain_rows, _Context(data, {"you": you}), names)

    def roles(self, obs: Mapping[str, Any]) -> list[list[str]]:
        """Each seat's roles now (president, declarer, your partner…), from the observation."""
        n = obs.get("num_players")
        out: list[list[str]] = [[] for _ in range(n if isinstance(n, int) else 0)]
        ctx = _Context(obs, {"you": obs.get("seat")})
        for row in self.role_rows:
            seat = obs.get(row.seat)
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(out) \
                    and _holds(row.cond, ctx) and row.label not in out[seat]:
                out[seat].append(row.label)
        return out


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
#: in a glossary text, the value of an option in force (a house rule's number: ``{reversal_points}``)
GLOSS_SLOT: Final = re.compile(r"\{(\w+)\}")


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


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


_ORDER: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "<": lambda a, b: bool(a < b), ">": lambda a, b: bool(a > b),
    "<=": lambda a, b: bool(a <= b), ">=": lambda a, b: bool(a >= b)}


def _holds(cond: Sequence[_Clause], ctx: _Context) -> bool:
    for c in cond:
        v = ctx.get(c.key)
        if not c.op:
            ok = _truthy(v)
            if c.negate:
                ok = not ok
        else:
            other = ctx.get(c.other[1]) if c.other[0] == "key" else c.other[1]
            if c.op == "==":
                ok = v == other
            elif c.op == "!=":
                ok = v != other
            else:  # an order holds between numbers only (a missing value is no number)
                ok = _number(v) and _number(other) and _ORDER[c.op](v, other)
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
    if labels.lang == "ko":  # 카드를, 조커 1이: each particle in the form the value before it takes
        return korean.finish_parts(out, lambda tok: labels.token_text(tok, spoken=True))
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


def _f_level(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    m = _CONTRACT.match(v) if isinstance(v, str) else None
    if m is None:
        raise LabelError(f"not a contract: {v!r}")
    return int(m.group(1))


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


def _f_players(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return lab.join([lab.name_of(int(x), names) for x in v or ()])


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
            parts.append(lab.data["words"].get("seat_sep", lab.word("item_sep")))
        parts.extend((lab.name_of(seat, names) + lab.data["words"].get("label_sep", ": "), shown))
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
    if isinstance(v, list | tuple):  # each item through the map, in a list
        return lab.word("item_sep").join(str(_f_map(x, arg, lab, names)) for x in v)
    key = "null" if v is None else _plain(v, lab) if not isinstance(v, bool) else str(v).lower()
    if key not in table:
        raise LabelError(f"map {arg!r} has no entry for {key!r} (entries: {', '.join(table)})")
    return table[key]


def _f_or(v: Any, arg: str, lab: Labels, names: Sequence[str | None] | None) -> Any:
    return v if _truthy(v) else _Word(lab.word(arg))


_FORMAT: Final[dict[str, Formatter]] = {
    "cards": _f_cards, "card": _f_card, "suit": _f_suit, "symbol": _f_symbol, "contract": _f_contract,
    "level": _f_level, "plural": _f_plural, "ordinal": _f_ordinal, "seats": _f_seats, "player": _f_player,
    "players": _f_players, "by_seat": _f_by_seat,
    "signed": _f_signed, "plus1": _f_plus1, "count": _f_count, "phase": _f_phase, "map": _f_map, "or": _f_or,
}
