"""Machinery of the conformance suite: the (game, options) cases, random play, snapshots, card
mentions and the leak judge.

Everything here speaks the protocol only (``torite.engine``, ``torite.record``), never a rules
module, so a game gets the whole suite by being registered.  Two state methods are newer than
the protocol: ``card_places()`` (where every card is) and ``known_cards(seat)`` (what a seat or
a spectator may know); checks that need them skip, saying why, on a state without them.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple, Protocol, cast

import pytest

from torite.cards import card_str, iter_bits, mask_of, parse_card
from torite.engine import Action, Game, OptionError, OptionSpec, State, game_class, game_ids, make_game

Viewer = int | None
ALL_CARDS = (1 << 54) - 1

#: Every combination of the rule-changing options while there are at most this many.
MAX_COMBINATIONS = 32
#: Beyond that: the defaults, each value varied alone, and this many random combinations.
RANDOM_COMBINATIONS = 4
#: A random game that has not ended after this many actions is a bug in the game.
MAX_ACTIONS = 20_000


# --------------------------------------------------------------------------- cases
def option_values(spec: OptionSpec) -> list[Any]:
    """The values of an option that change the rules, its default first; empty for options that
    only size the game (an int such as ``target`` or ``rounds`` keeps its default)."""
    if spec.choices is not None:
        return [spec.default, *(c for c in spec.choices if c != spec.default)]
    if spec.kind is bool:
        return [spec.default, not spec.default]
    return []


def option_combinations(specs: Sequence[OptionSpec], *, seed: str, limit: int = MAX_COMBINATIONS,
                        extra: int = RANDOM_COMBINATIONS) -> list[dict[str, Any]]:
    """Option sets to test a game under (rule-changing options only; the rest keep defaults).

    Every combination while there are at most ``limit``; past that, the defaults, every value of
    every option varied alone from the defaults, and ``extra`` random combinations drawn with a
    generator seeded by ``seed``: the same cases every run, and ten yes/no options make 15.
    """
    varied = [(s.name, option_values(s)) for s in specs if len(option_values(s)) > 1]
    names = [name for name, _ in varied]
    if math.prod(len(values) for _, values in varied) <= limit:
        return [dict(zip(names, combo)) for combo in itertools.product(*(v for _, v in varied))]
    defaults = {name: values[0] for name, values in varied}
    out = [defaults]
    for name, values in varied:
        out.extend(defaults | {name: v} for v in values[1:])
    rng = random.Random(seed)
    wanted = len(out) + extra
    for _ in range(100 * extra):
        if len(out) >= wanted:
            break
        combo = {name: rng.choice(values) for name, values in varied}
        if combo not in out:
            out.append(combo)
    return out


@dataclass(frozen=True)
class Case:
    """One game under one set of rule-changing options."""

    game_id: str
    options: tuple[tuple[str, Any], ...]

    @property
    def changed(self) -> dict[str, Any]:
        """The options away from their defaults."""
        defaults = {s.name: s.default for s in game_class(self.game_id).OPTIONS}
        return {name: value for name, value in self.options if value != defaults[name]}

    @property
    def id(self) -> str:
        parts = [name if value is True else f"{name}={value}" for name, value in self.changed.items()]
        return f"{self.game_id}[{','.join(parts) or 'defaults'}]"

    def game(self) -> Game:
        return make_game(self.game_id, dict(self.options))

    def seeds(self, count: int) -> list[int]:
        """Fixed seeds, different for every case so the cases see different deals."""
        base = zlib.crc32(self.id.encode())
        return [base + i for i in range(count)]


def house_values(specs: Sequence[OptionSpec]) -> dict[str, int]:
    """Every house rule (``OptionSpec.house``) away from its default, within its bounds: halfway
    to its maximum (to its minimum when the default is the maximum)."""
    out = {}
    for s in specs:
        if s.house and s.minimum is not None and s.maximum is not None:
            out[s.name] = (s.default + s.maximum + 1) // 2 if s.maximum > s.default else (s.default + s.minimum) // 2
    return out


@cache
def cases() -> tuple[Case, ...]:
    """Every registered game under every option combination that changes its rules (a
    combination refused by a constraint between options is left out), and, for a game with
    house rules, one case more: every house rule changed (``house_values``) on top of the
    combination with the most options changed, so that house rules that count only under an
    option (a Seconds edition, Chicago scoring) count there."""
    out = []
    for game_id in game_ids():
        mine: list[dict[str, Any]] = []
        specs = game_class(game_id).OPTIONS
        for options in option_combinations(specs, seed=game_id):
            try:
                make_game(game_id, options)
            except OptionError:
                continue
            mine.append(options)
            out.append(Case(game_id, tuple(options.items())))
        house = house_values(specs)
        if house and mine:
            richest = max(mine, key=lambda o: sum(o[s.name] != s.default for s in specs if s.name in o))
            options = richest | house
            make_game(game_id, options)  # within the bounds: a refusal here is a bug in the game
            out.append(Case(game_id, tuple(options.items())))
    return tuple(out)


# --------------------------------------------------------------------------- play
def viewers(state: State) -> list[Viewer]:
    """Every seat, then the spectator (``None``)."""
    return [*range(state.game.num_players), None]


def random_move(state: State, rng: random.Random) -> tuple[int, Action]:
    """A uniformly random seat among those to act (simultaneous seats in random order) and a
    uniformly random legal action of it."""
    seats = state.to_act()
    assert seats, "the game is not over but no seat is to act"
    seat = rng.choice(seats)
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} is to act but has no legal action"
    return seat, rng.choice(legal)


class RandomPlay:
    """Iterating yields the state before each action, then applies a random move; the finished
    state is yielded last.  ``actions`` lists the moves made so far."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.actions: list[tuple[int, Action]] = []

    def __iter__(self) -> Iterator[State]:
        state = self.state
        for _ in range(MAX_ACTIONS):
            yield state
            if state.is_over():
                return
            seat, action = random_move(state, self.rng)
            state.apply(seat, action)
            self.actions.append((seat, action))
        raise AssertionError(f"the game did not end within {MAX_ACTIONS} random actions")


def play_out(state: State, rng: random.Random, *, check: bool = True) -> list[tuple[int, Action]]:
    """Random moves to the end, checking the turn structure at every step unless told not to."""
    play = RandomPlay(state, rng)
    for st in play:
        if check:
            check_turn_structure(st)
    return play.actions


def check_turn_structure(state: State) -> None:
    """Exactly the seats in ``to_act()`` have legal actions (no duplicates), and the game is over
    exactly when nobody is to act."""
    n = state.game.num_players
    to_act = state.to_act()
    assert len(set(to_act)) == len(to_act) and set(to_act) <= set(range(n)), f"to_act() = {to_act}"
    assert state.is_over() == (not to_act), f"is_over() is {state.is_over()} with to_act() = {to_act}"
    for seat in range(n):
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), f"seat {seat} has a legal action twice: {legal}"
        if seat in to_act:
            assert legal, f"seat {seat} is to act but has no legal action"
        else:
            assert not legal, f"seat {seat} is not to act but has legal actions {legal[:5]}"


# --------------------------------------------------------------------------- snapshots
def event_log(state: State) -> list[tuple[str, int, str, int]]:
    """The events as comparable values (data as canonical JSON, so later mutation shows)."""
    return [(e.kind, e.seat, json.dumps(e.data, sort_keys=True), e.visible) for e in state.events]


class Snapshot(NamedTuple):
    """What every seat and a spectator can see, who acts, what each seat may do, how many
    events there are and the state of the generator (a refused action must not draw from it)."""

    observations: tuple[Any, ...]  # canonical JSON texts, or the dicts themselves (``cheap``)
    to_act: tuple[int, ...]
    legal: tuple[tuple[Action, ...], ...]
    events: int
    rng: Any


def snapshot(state: State, *, legal: bool = True, cheap: bool = False) -> Snapshot:
    """``cheap`` keeps the observations as the dicts the state returned (no serialization, for
    checks repeated thousands of times) and leaves out the legal actions unless asked."""
    rng = getattr(state, "rng", None)
    if cheap:
        observations: tuple[Any, ...] = tuple(state.observation(v) for v in viewers(state))
    else:
        observations = tuple(json.dumps(state.observation(v), sort_keys=True) for v in viewers(state))
    return Snapshot(observations, state.to_act(),
                    tuple(tuple(state.legal_actions(s)) for s in range(state.game.num_players)) if legal else (),
                    len(state.events), rng.getstate() if isinstance(rng, random.Random) else None)


def differences(a: Any, b: Any, path: str = "", limit: int = 12) -> list[str]:
    """Where two JSON-like values differ, as ``path: a != b`` lines (at most ``limit``)."""
    out: list[str] = []

    def walk(x: Any, y: Any, p: str) -> None:
        if len(out) >= limit:
            return
        if isinstance(x, Mapping) and isinstance(y, Mapping):
            for k in sorted(set(x) | set(y), key=str):
                if k not in x or k not in y:
                    out.append(f"{p}.{k}: only in {'the first' if k in x else 'the second'}")
                else:
                    walk(x[k], y[k], f"{p}.{k}")
        elif isinstance(x, list | tuple) and isinstance(y, list | tuple) and len(x) == len(y):
            for i, (u, v) in enumerate(zip(x, y)):
                walk(u, v, f"{p}[{i}]")
        elif x != y or type(x) is not type(y):
            out.append(f"{p or 'value'}: {x!r} != {y!r}")

    walk(a, b, path)
    return out


def snapshot_differences(a: Snapshot, b: Snapshot) -> str:
    """A readable account of what differs between two snapshots."""
    lines = []
    for i, (x, y) in enumerate(zip(a.observations, b.observations)):
        if x != y:
            viewer = None if i == len(a.observations) - 1 else i
            x, y = (json.loads(o) if isinstance(o, str) else o for o in (x, y))
            lines.append(f"observation of {who(viewer)}: " + "; ".join(differences(x, y)))
    for name in ("to_act", "legal", "events", "rng"):
        if getattr(a, name) != getattr(b, name):
            lines.append(f"{name} changed" if name == "rng" else
                         f"{name}: {getattr(a, name)!r:.200} -> {getattr(b, name)!r:.200}")
    return "\n".join(lines)


def assert_same(before: Snapshot, after: Snapshot, what: str) -> None:
    """Raise with a readable account of the differences (not pytest's dump of two tuples)."""
    if after != before:
        raise AssertionError(f"{what}:\n{snapshot_differences(before, after)}")


def assert_json_round_trip(value: Any, what: str) -> None:
    """JSON-ready means: serializable without NaN, and read back equal (no tuples, no int keys)."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise AssertionError(f"{what} is not JSON-serializable: {e}") from None
    back = json.loads(text)
    assert back == value, f"{what} changes through JSON: " + "; ".join(differences(value, back))


# --------------------------------------------------------------------------- cards
#: Bytes that separate words: everything but ASCII letters and digits (non-ASCII characters are
#: made ``?`` first).  A card is a word that ``card_str`` writes (``10D``, ``QS``, ``JK1``).
_SEPARATORS = bytes(b if chr(b).isascii() and chr(b).isalnum() else 32 for b in range(256))
_CARD_WORDS = {card_str(c).encode(): parse_card(card_str(c)) for c in range(54)}
_JSON_ESCAPES = re.compile(r"\\[nrtbf]")


def card_mentions(value: Any) -> int:
    """A mask of every card named anywhere in JSON-like data: dict keys and values, list items,
    strings (a card text alone or inside a longer text such as "seat 1 plays 10D" or
    "10Dを出す").  Read from the JSON text in one pass, escapes such as ``\\n`` made spaces
    first: walking the data in Python is several times slower, and this runs at every step."""
    if isinstance(value, str):
        text = value
    else:
        text = _JSON_ESCAPES.sub(" ", json.dumps(value, ensure_ascii=False, default=repr))
    found = 0
    for word in set(text.encode("ascii", "replace").translate(_SEPARATORS).split()):
        card = _CARD_WORDS.get(word)
        if card is not None:
            found |= 1 << card
    return found


def cards_text(mask: int) -> str:
    return " ".join(card_str(c) if c < 54 else f"#{c}" for c in iter_bits(mask)) if mask >= 0 else f"mask {mask}"


def who(viewer: Viewer) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


def game_deck(game: Game) -> int | None:
    """The game's deck as a mask if the game declares one (``deck`` or ``DECK``)."""
    deck = getattr(game, "deck", None)
    if deck is None:
        deck = getattr(game, "DECK", None)
    if deck is None:
        return None
    if isinstance(deck, int):
        return int(deck)
    return mask_of(cast(Iterable[int], deck))


class _Places(Protocol):
    def card_places(self) -> dict[str, int]: ...


class _Knows(Protocol):
    def known_cards(self, seat: int | None) -> int: ...


def require(state: State, method: str) -> None:
    """Fail, saying why, when a game's state lacks a method the conformance checks stand on
    (``State`` declares them; the game kit implements them from a game's declarations)."""
    try:
        getattr(state, method)(None) if method == "known_cards" else getattr(state, method)()
    except NotImplementedError:
        pytest.fail(f"{type(state).__name__}.{method}() is not implemented: every game must say it "
                    "(games on the kit get it from their declarations)")


def card_places(state: State) -> dict[str, int]:
    return cast(_Places, state).card_places()


def known_cards(state: State, viewer: Viewer) -> int:
    return cast(_Knows, state).known_cards(viewer)


# --------------------------------------------------------------------------- refusals
@cache
def action_catalog(case: Case) -> tuple[Action, ...]:
    """Actions seen legal somewhere in a random game of the case: every action that names no
    card and a few of each kind that does.  Tried at other moments, they are actions of another
    phase, another kind, or another seat's cards."""
    game = case.game()
    rng = random.Random(case.seeds(1)[0] ^ 0x5EED)
    plain: set[Action] = set()
    carded: dict[str, list[Action]] = {}
    for state in RandomPlay(game.new_state(rng.getrandbits(32), max_rounds=1), rng):
        for seat in state.to_act():
            for a in state.legal_actions(seat):
                if not a.cards:
                    plain.add(a)
                elif len(carded.setdefault(a.kind, [])) < 6 and a not in carded[a.kind]:
                    carded[a.kind].append(a)
    return tuple(sorted(plain)) + tuple(a for kind in sorted(carded) for a in carded[kind])


def refusal_candidates(state: State, seat: int, catalog: Sequence[Action], rng: random.Random,
                       deck: int) -> list[tuple[str, Action]]:
    """Actions for ``seat`` that are not legal now, one of each sort where the sort applies:
    another seat's legal action, an action of another moment, malformed versions of this seat's
    legal actions (a card too many or too few, no card, a card it does not hold, a card outside
    the deck, a negative mask, an argument it does not take) and an unknown kind."""
    n = state.game.num_players
    legal = state.legal_actions(seat)
    legal_set = set(legal)
    named = 0
    for a in legal:
        named |= a.cards
    out: list[tuple[str, Action]] = []

    def add(why: str, options: Sequence[Action]) -> None:
        options = [a for a in options if a not in legal_set]
        if options:
            out.append((why, rng.choice(options)))

    add("another seat's legal action", [a for o in range(n) if o != seat for a in state.legal_actions(o)])
    add("an action legal at another moment", catalog)
    base = rng.choice(legal) if legal else rng.choice(catalog)
    if base.cards:
        low = base.cards & -base.cards
        rest = base.cards ^ low
        spare = [c for c in iter_bits(deck & ~base.cards)]
        if spare:
            add("one card too many", [Action(base.kind, base.cards | 1 << rng.choice(spare), base.arg)])
        add("one card too few", [Action(base.kind, rest, base.arg)] if rest else [])
        add("no card", [Action(base.kind, 0, base.arg)])
        unnamed = [c for c in iter_bits(deck & ~named)]
        add("a card no legal action names", [Action(base.kind, rest | 1 << c, base.arg) for c in unnamed])
        outside = [c for c in iter_bits(ALL_CARDS & ~deck)] + [54, 60]
        add("a card outside the deck", [Action(base.kind, rest | 1 << c, base.arg) for c in outside])
        add("a negative card mask", [Action(base.kind, -base.cards, base.arg), Action(base.kind, -1, base.arg)])
    else:
        add("a card with an action that names none", [Action(base.kind, 1 << c, base.arg) for c in iter_bits(deck)])
    add("an argument it does not take", [Action(base.kind, base.cards, base.arg + "X"),
                                         Action(base.kind, base.cards, "NOT AN ARGUMENT")])
    add("an unknown kind", [Action("dance", base.cards, base.arg), Action(""), Action(base.kind.upper() + "!")])
    return out


# --------------------------------------------------------------------------- leaks
@dataclass
class LeakJudge:
    """Plays a game action by action and keeps, for every seat and the spectator, what that
    viewer may know (``state.known_cards``) after each action, and for each event it can see,
    what it may know at the moment the event was made.

    An action that ends a round and deals the next makes events of both rounds: those before
    the new round's first ``round`` event are judged against the knowledge at the end of the
    round (the same game stopped there with ``max_rounds``), the rest against the knowledge
    after the action.
    """

    game: Game
    seed: int
    max_rounds: int | None = None
    state: State = field(init=False)
    actions: list[tuple[int, Action]] = field(default_factory=list)
    known_after: list[dict[Viewer, int]] = field(default_factory=list)
    event_known: dict[Viewer, list[int]] = field(default_factory=dict)
    initial_leaks: list[str] = field(default_factory=list)  # of the events made by the deal
    _events_seen: int = 0

    def __post_init__(self) -> None:
        self.state = self.game.new_state(self.seed, max_rounds=self.max_rounds)
        require(self.state, "known_cards")
        self.event_known = {v: [] for v in viewers(self.state)}
        self.known_after.append(self._known(self.state))
        self.initial_leaks = self._judge_new_events(self.known_after[-1], self.known_after[-1], 0)

    def _known(self, state: State) -> dict[Viewer, int]:
        return {v: known_cards(state, v) for v in viewers(state)}

    def apply(self, seat: int, action: Action) -> list[str]:
        """Apply one action; return the leaks of the events it made."""
        state = self.state
        rounds = state.rounds_played
        state.apply(seat, action)
        self.actions.append((seat, action))
        known = self._known(state)
        self.known_after.append(known)
        new = state.events[self._events_seen:]
        split = len(new)
        before = known
        if state.rounds_played > rounds and not state.is_over():
            before = self._known_at_round_end(state.rounds_played)
            split = next((i for i, e in enumerate(new) if e.kind == "round"), len(new))
            if split == len(new):  # no new round event: either knowledge may apply
                before = {v: before[v] | known[v] for v in known}
        return self._judge_new_events(before, known, split)

    def _known_at_round_end(self, rounds: int) -> dict[Viewer, int]:
        stopped = self.game.new_state(self.seed, max_rounds=rounds)
        for seat, action in self.actions:
            stopped.apply(seat, action)
        assert stopped.is_over(), f"max_rounds={rounds} did not stop the game after round {rounds}"
        return self._known(stopped)

    def _judge_new_events(self, before: dict[Viewer, int], after: dict[Viewer, int], split: int) -> list[str]:
        leaks = []
        events = self.state.events
        for i in range(self._events_seen, len(events)):
            e = events[i]
            known = before if i - self._events_seen < split else after
            for v in self.event_known:
                if e.visible_to(v):
                    self.event_known[v].append(known[v])
                    extra = card_mentions(dict(e.data)) & ~known[v]
                    if extra:
                        leaks.append(f"after {len(self.actions)} actions, {who(v)} is shown event "
                                     f"{e.kind!r} of seat {e.seat} naming {cards_text(extra)}: {dict(e.data)}")
        self._events_seen = len(events)
        return leaks

    def observation_leaks(self) -> list[str]:
        """Cards each viewer's observation names that it may not know now."""
        leaks = []
        for v, known in self.known_after[-1].items():
            obs = self.state.observation(v)
            extra = card_mentions(obs) & ~known
            if extra:
                leaks.append(f"after {len(self.actions)} actions, {who(v)}'s observation names "
                             f"{cards_text(extra)}")
        return leaks
