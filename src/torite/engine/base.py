"""The common protocol: a :class:`Game` (rules id + validated options) makes :class:`State`s.

Every interface (CLI, simulator, bots, records, web) speaks only this protocol, so a new game
is a new rules module and nothing else changes.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, Protocol, Self

from torite.cards import card_str
from torite.engine.action import Action as Action  # re-exported: the protocol names it

if TYPE_CHECKING:
    from torite.engine.phases import Phase

ALL_SEATS: Final = -1  # visibility mask meaning "every seat and spectators"


class Refusal(NamedTuple):
    """Why an action may not be made now: the rule that forbids it (a key of the labels'
    ``reasons``, which say it in each language) and what the rule names (``{"suit": "H"}``).
    It comes from the rules module, so every face explains a refused card the same way."""

    rule: str
    data: Mapping[str, Any] = {}


class IllegalAction(ValueError):
    """An action refused by the rules; the state is left exactly as it was.  ``refusal`` says
    which rule refused it, for a face to say why in the player's language."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class OptionError(ValueError):
    """A bad game option: unknown name, wrong type or value out of range."""


class OptionConflict(OptionError):
    """Options that are each valid but may not be used together (a ruling refuses the pair).

    ``options`` names them with the values that clash, in the order a sentence names them
    ("A cannot be combined with B"), so a face can say it in the player's language with the
    options' own labels."""

    def __init__(self, message: str, options: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.options = dict(options)


class Event(NamedTuple):
    """Something that happened; ``visible`` is a bitmask of seats, or ``ALL_SEATS``."""

    kind: str
    seat: int
    data: Mapping[str, Any]
    visible: int = ALL_SEATS

    def visible_to(self, seat: int | None) -> bool:
        """``seat=None`` is a spectator: public events only."""
        if self.visible == ALL_SEATS:
            return True
        return seat is not None and bool(self.visible >> seat & 1)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game, with the type and range that validation enforces.

    ``house``: a house rule (:func:`house_rule`), one of the rule values (a card's points, a
    bonus, a penalty) a table may change without writing a game: set by ``-o`` as any option,
    listed apart on the rules page and in the lobby, carried by records."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    house: bool = False
    #: the value a table people play at (the web lobby, ``torite play``) starts from, when it
    #: differs from ``default``: the research default stays what the adapters and the recorded
    #: fingerprints rely on (Umbridge's ``claims``: off for research, on at a table)
    table: Any = None

    def __post_init__(self) -> None:
        if self.house and (type(self.default) is not int or self.minimum is None or self.maximum is None
                           or not self.minimum <= self.default <= self.maximum):
            raise TypeError(f"house rule {self.name}: an integer default within a minimum and a maximum")

    @property
    def kind(self) -> type:
        return type(self.default)

    def coerce(self, value: Any) -> Any:
        """Turn a value (possibly the text of ``-o KEY=VALUE``) into a checked option value."""
        kind = self.kind
        if isinstance(value, str):
            text = value.strip()
            if kind is bool:
                low = text.lower()
                if low in ("1", "true", "yes", "on"):
                    value = True
                elif low in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise OptionError(f"option {self.name}: expected true or false, got {text!r}")
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    raise OptionError(f"option {self.name}: expected an integer, got {text!r}") from None
            else:
                value = text
        if kind is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name}: expected true or false, got {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name}: expected an integer, got {value!r}")
        if kind is str and not isinstance(value, str):
            raise OptionError(f"option {self.name}: expected text, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {allowed}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}: {value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}: {value} is above the maximum {self.maximum}")
        return value

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "default": self.default, "help": self.help,
                             "type": self.kind.__name__}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.minimum is not None:
            d["minimum"] = self.minimum
        if self.maximum is not None:
            d["maximum"] = self.maximum
        if self.house:
            d["house"] = True
        if self.table is not None:
            d["table"] = self.table
        return d


def table_options(specs: Sequence[OptionSpec]) -> dict[str, Any]:
    """The options a table people play at sets unless told otherwise (:attr:`OptionSpec.table`)."""
    return {s.name: s.table for s in specs if s.table is not None}


def house_rule(name: str, default: int, help: str, minimum: int, maximum: int) -> OptionSpec:
    """A rule value a table may change (``-o queen_points=20``): an integer option, bounded (a
    value out of its bounds is refused with the bound named), that the rules page lists under
    "House rules" with its default and range, the lobby offers under "house rules", ``compare``
    varies like any option and a record carries.  The game reads it from ``options`` where it
    scores, and its rule-of-thumb bot from the observation's ``options`` (``Game.BOT_READS``)."""
    return OptionSpec(name, default, help, minimum=minimum, maximum=maximum, house=True)


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game (or of the rounds played so far)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...] = field(default=())
    #: the sides of a game played in teams, each a tuple of seats (empty: every seat for itself)
    teams: tuple[tuple[int, ...], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"scores": list(self.scores), "winners": list(self.winners),
                             "round_scores": [list(r) for r in self.round_scores]}
        if self.teams:  # absent otherwise, so records of team-less games keep their form
            d["teams"] = [list(t) for t in self.teams]
        return d


@dataclass(frozen=True)
class Bounds:
    """What one round can be, from the rules: the numbers a research framework needs before
    any game is played (OpenSpiel's utility bounds and game length, a reward scale), declared by
    the game rather than measured by playing it.

    ``round_score``: the least and the greatest score one seat can make in one round (the game's
    points, as ``Result.round_scores`` holds them).  ``round_actions``: the most decisions (actions
    applied, all seats together) one round can take.  ``round_return``: the least and the
    greatest return of one seat for a round (:meth:`Game.round_returns`); None: the score times
    ``SCORE_SIGN``.  ``thrown_in_actions``: the most decisions a deal that is thrown in and dealt
    again within the round can take (Mighty's all-pass election); such a round has no bound in
    the rules, and ``round_actions`` counts the deal that is played."""

    round_score: tuple[int, int]
    round_actions: int
    round_return: tuple[float, float] | None = None
    thrown_in_actions: int = 0

    def returns(self, sign: int) -> tuple[float, float]:
        """The least and the greatest return of one seat for a round."""
        if self.round_return is not None:
            return self.round_return
        lo, hi = self.round_score
        return (float(lo), float(hi)) if sign > 0 else (float(-hi), float(-lo))


class Determinizer(Protocol):
    """Samples full states consistent with what one seat knows."""

    def sample(self, rng: random.Random) -> State:
        """A full state drawn with ``rng``; the state may keep ``rng`` as its own generator of
        future chance (a search's worlds live no longer than its decision, and seeding a new
        generator for each cost more than the world itself: issue 37)."""
        ...


class Game(ABC):
    """A rules id plus validated options; a factory of states.

    Options are checked here, at construction, so a bad option never reaches a state.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]]
    STAT_KEYS: ClassVar[tuple[str, ...]] = ()
    #: +1 when a seat wants more points, -1 when points are penalties (Hearts): the search bots
    #: maximise ``SCORE_SIGN * score`` and the arena calls the lower scorer the better bot.
    SCORE_SIGN: ClassVar[int] = 1
    #: Phases (``observation()["phase"]``) in which the search levels play the rule-of-thumb bot's
    #: choice instead of searching: decisions among many options whose worth only shows after a
    #: long, noisy rollout (Mighty's election, kitty and friend), where a search with random
    #: rollouts does worse than the rules of thumb it would otherwise beat.
    RULE_BOT_PHASES: ClassVar[frozenset[str]] = frozenset()
    #: Kinds of action the bots but ``random`` never choose (Umbridge's ``claim``: a claim the
    #: bot has not proven would be a guess, and a search's random rollouts accept half of them).
    BOT_SKIPS: ClassVar[frozenset[str]] = frozenset()
    #: The house rules (:func:`house_rule`) the rule-of-thumb bot reads: changed, they change its
    #: play; ``compare`` says which changed value a bot it plays leaves unread.
    BOT_READS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, options: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        given = dict(options or {}) | kwargs
        specs = {s.name: s for s in self.OPTIONS}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionError(f"{self.id}: unknown option {', '.join(unknown)} (options: {known})")
        values = {name: spec.default for name, spec in specs.items()}
        for name, value in given.items():
            values[name] = specs[name].coerce(value)
        self.options: dict[str, Any] = values
        self._check_options()

    def _check_options(self) -> None:
        """Hook for constraints between options."""

    @classmethod
    def house_rules(cls) -> tuple[OptionSpec, ...]:
        """The game's house rules (the options declared with :func:`house_rule`)."""
        return tuple(s for s in cls.OPTIONS if s.house)

    def changed_house_rules(self) -> dict[str, int]:
        """The house rules this game plays away from their defaults."""
        return {s.name: self.options[s.name] for s in self.house_rules() if self.options[s.name] != s.default}

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {"id": cls.id, "title": cls.title, "options": [s.describe() for s in cls.OPTIONS]}

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def new_state(self, seed: int | None = None, *, dealer: int | None = None,
                  max_rounds: int | None = None, deals: Sequence[Mapping[str, Any]] = (),
                  first_round: int = 0) -> State:
        """A fresh game.

        ``seed`` drives every chance event; ``dealer`` fixes the first dealer (else drawn from
        the seed); ``max_rounds`` stops the game after that many rounds (the simulator's single
        rounds); ``deals`` gives explicit deals for the first rounds, in order.  ``first_round``
        is the number of the state's first round (0: the game's first): the simulator's and the
        arena's single rounds pass their index, so a game whose rounds differ by their number
        (Seconds' schedule of deals) plays them in turn; ``dealer`` is that round's dealer.
        """

    @abstractmethod
    def phases(self) -> tuple[Phase, ...]:
        """The decisions under these options, each with the forms of its actions."""

    @abstractmethod
    def schema(self) -> dict[str, Any]:
        """One JSON description of this game under its options: its deck, decisions and the
        forms of their actions, what each seat sees (``docs/schema.md``).  Every face reads it
        rather than guessing from observations."""

    @abstractmethod
    def bounds(self) -> Bounds:
        """What one round can be under these options (:class:`Bounds`), written from the rules;
        the conformance suite checks random play never goes beyond it."""

    def most_rounds(self) -> int | None:
        """The most rounds a game under these options can have when its options count them (a
        number of rounds or deals); None when it is played to a target, which the rules bound
        by no number of rounds.  A server bounds a game's length with it and ``bounds()``."""
        return None

    def round_returns(self, points: Sequence[int]) -> tuple[float, ...]:
        """What each seat maximises for one round in which it scored ``points``: the points times
        ``SCORE_SIGN``.  A yardstick game returns what its reference returns (Hearts: OpenSpiel's
        ``26 - points``), so that results compare across the two."""
        sign = self.SCORE_SIGN
        return tuple(float(sign * p) for p in points)

    def returns(self, result: Result, since: int = 0) -> tuple[float, ...]:
        """Each seat's return for the rounds of ``result`` from round ``since`` on (the
        adapters' returns and rewards): the sum of :meth:`round_returns`."""
        total = [0.0] * self.num_players
        for points in result.round_scores[since:]:
            for s, r in enumerate(self.round_returns(points)):
                total[s] += r
        return tuple(total)

    @abstractmethod
    def determinizer(self, obs: Mapping[str, Any]) -> Determinizer:
        """Read one seat's observation once; the result samples full states consistent with it.

        Built from the observation alone, so a search bot that uses it cannot learn more than
        its seat may.
        """

    #: ``"module:Class"`` of the game's rule-of-thumb bot, imported on first use: the bot
    #: imports the rules, never the other way round
    BOT: ClassVar[str | None] = None

    def rule_bot(self, seat: int, rng: random.Random) -> Any:
        """The game's rule-of-thumb bot (a ``torite.engine.bot.Bot``) for ``seat``."""
        if not self.BOT:
            raise NotImplementedError(f"{self.id} has no rule-of-thumb bot")
        module, _, name = self.BOT.partition(":")
        return getattr(importlib.import_module(module), name)(self, seat, rng)

    def sort_key(self, card: int) -> tuple[int, int]:
        """Display order of a hand: by suit (jokers first), then rank high to low."""
        return (-1, -card) if card >= 52 else (card // 13, -card)

    def parse_action(self, text: str) -> Action:
        try:
            return Action.parse(text)
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    def card_text(self, card: int) -> str:
        """A card in this game's notation (``JK`` for a deck's one joker)."""
        return card_str(card)

    def action_text(self, action: Action) -> str:
        """An action in this game's notation: what records, the line mode and the web's action
        texts write; :meth:`parse_action` reads it back."""
        return str(action)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State(ABC):
    """A game in progress.  Mutable; :meth:`clone` is cheap."""

    # no instance dict of its own: a state class that declares its attributes in slots (or,
    # compiled, as native attributes) then has none at all, which its hot path reads faster
    __slots__ = ()
    game: Game
    rng: random.Random
    events: list[Event]

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that decide now (several during a simultaneous phase); empty when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The seat's choices now (empty when it has none): a sequence the caller must not
        change, since a state may hand out the same one again (the kit's tables)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply or raise :class:`IllegalAction`, leaving the state untouched."""

    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data; ``None`` is a spectator."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result: ...

    @abstractmethod
    def clone(self, rng: random.Random | None = None) -> Self:
        """An independent copy; its future chance is drawn from ``rng`` if given, else from a
        copy of this state's generator."""

    def open_piles(self) -> dict[str, list[str]]:
        """Every pile the game declares with all its cards face up (name -> cards, as the
        observation lists a seen pile): a finished game's replay with every hand open lays the
        piles open too (the kitty, the discards).  Empty where the game declares no pile."""
        return {}

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with everything ``seat`` knows, hidden cards resampled
        (and future chance drawn from ``rng``, not from this state's generator)."""
        return self.game.determinizer(self.observation(seat)).sample(rng)

    @abstractmethod
    def stats(self) -> dict[str, float]:
        """Totals of the game's mechanics over the rounds played (keys: ``Game.STAT_KEYS``)."""

    @property
    @abstractmethod
    def rounds_played(self) -> int: ...

    def known_cards(self, seat: int | None) -> int:
        """Every card (a mask) whose identity ``seat`` (``None``: a spectator) may know now: the
        ground truth the conformance suite judges observations and events against."""
        raise NotImplementedError

    def card_places(self) -> dict[str, int]:
        """Where every card is now (place name -> card mask): each deck card in exactly one."""
        raise NotImplementedError

    def refusal(self, seat: int, action: Action) -> Refusal | None:
        """Why ``seat`` may not make ``action`` now, or None when it may."""
        raise NotImplementedError

    def apply_text(self, seat: int, text: str) -> Action:
        action = self.game.parse_action(text)
        self.apply(seat, action)
        return action

    def events_for(self, seat: int | None) -> list[Event]:
        return [e for e in self.events if e.visible_to(seat)]
