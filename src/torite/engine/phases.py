"""Decisions declared: a game's phases and the form of every action each can offer.

Why declared: a research framework wants every action a game can ever offer known up front
(OpenSpiel's ``num_distinct_actions``), a face wants to know which widget a decision needs (a
card of the hand, several cards, a suit, a bidding box, buttons), and a translator wants every
phase and action listed.  A game's legal-action lists say only what is legal *now*; its
:class:`Phase` declarations say what can ever be, from the options alone, without playing.

An :class:`ActionTemplate` is one form of action:

* :class:`Card` – one card (``play 10D``), taken from the hand, a pile, or any card of the deck;
* :class:`Cards` – several cards at once (``bury QC KC``), optionally all of one rank;
* :class:`Choice` – a fixed word with an argument from a list (``trump S``, ``friend none``);
  :func:`suit_choice` is the four suits;
* :class:`Word` – a fixed word alone (``pass``, ``replace``, ``call``);
* :class:`Bid` – a level and a denomination from a :class:`Ladder` (``bid 15 H``), with the
  :class:`Contract` type that reads and orders them.

Each template enumerates its actions for a deck (:meth:`ActionTemplate.actions`), describes
itself as JSON for ``game.schema()``, and tells whether a legal action is of its form.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple

from torite.cards import SUITS
from torite.engine.action import Action

#: where a card of a :class:`Card` template is taken from, besides a pile's name
HAND = "hand"
DECK = "deck"


class Contract(NamedTuple):
    """A level and a denomination (``15 H``, ``3 NT``); its text is the action argument."""

    level: int
    denomination: str

    def __str__(self) -> str:
        return f"{self.level} {self.denomination}"

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``"15 H"`` → ``Contract(15, "H")``; a malformed text raises ValueError."""
        level, denom = text.split()
        return cls(int(level), denom)


@dataclass(frozen=True)
class Ladder:
    """The bids a game can ever make: every level with every denomination, both listed lowest
    first (the order a bidding box shows).  Which bid beats which is the game's rule (bridge
    and Mighty differ), not the ladder's."""

    levels: tuple[int, ...]
    denominations: tuple[str, ...] = ("C", "D", "H", "S", "NT")

    def contracts(self) -> list[Contract]:
        return [Contract(lv, d) for lv in self.levels for d in self.denominations]

    def describe(self) -> dict[str, Any]:
        return {"levels": list(self.levels), "denominations": list(self.denominations)}


class ActionTemplate:
    """One form of action a phase can offer (see the module docstring)."""

    kind: str
    #: the widget a face shows for it: card, cards, choice, word or bid
    widget: str = ""

    def actions(self, deck: Sequence[int]) -> list[Action]:
        """Every action of this form a game with ``deck`` can ever offer, in a fixed order."""
        raise NotImplementedError

    def matches(self, action: Action) -> bool:
        """Whether ``action`` has this form (its kind and shape; not whether it is legal)."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class Card(ActionTemplate):
    """One card: ``from_`` is ``"hand"``, ``"deck"`` (any card, e.g. a card to name) or a
    pile's name (Umbridge plays the dummy's cards)."""

    kind: str = "play"
    from_: str = HAND
    widget: str = "card"

    def actions(self, deck: Sequence[int]) -> list[Action]:
        return [Action(self.kind, 1 << c) for c in sorted(deck)]

    def matches(self, action: Action) -> bool:
        c = action.cards
        return action.kind == self.kind and not action.arg and c > 0 and not c & (c - 1)

    def describe(self) -> dict[str, Any]:
        return {"type": "card", "kind": self.kind, "from": self.from_}


@dataclass(frozen=True)
class Cards(ActionTemplate):
    """Several cards of the hand at once: ``counts`` how many (one or more sizes);
    ``same_rank`` when they must all be of one rank (Galapagos' pairs and sets)."""

    kind: str
    counts: tuple[int, ...] = (2,)
    same_rank: bool = False
    widget: str = "cards"

    def card_sets(self, deck: Sequence[int]) -> Iterator[int]:
        """Every card mask this template can name, by size, then in combinatorial order."""
        cards = sorted(deck)
        for n in self.counts:
            if self.same_rank:
                by_rank: dict[int, list[int]] = {}
                for c in cards:
                    if c < 52:
                        by_rank.setdefault(c % 13, []).append(c)
                for rank in sorted(by_rank):
                    for combo in combinations(by_rank[rank], n):
                        yield sum(1 << c for c in combo)
            else:
                for combo in combinations(cards, n):
                    yield sum(1 << c for c in combo)

    def actions(self, deck: Sequence[int]) -> list[Action]:
        return [Action(self.kind, m) for m in self.card_sets(deck)]

    def matches(self, action: Action) -> bool:
        n = action.cards.bit_count()
        if action.kind != self.kind or action.arg or n not in self.counts:
            return False
        if self.same_rank:
            ranks = {c % 13 if c < 52 else -1 for c in _bits(action.cards)}
            return len(ranks) == 1 and -1 not in ranks
        return True

    def describe(self) -> dict[str, Any]:
        return {"type": "cards", "kind": self.kind, "counts": list(self.counts), "same_rank": self.same_rank}


@dataclass(frozen=True)
class Choice(ActionTemplate):
    """A word with an argument from a fixed list: ``what`` names the list's nature for a face
    (``suit``: the suit letters, drawn as symbols; ``word``: words of the game's labels)."""

    kind: str
    args: tuple[str, ...] = tuple(SUITS)
    what: str = "suit"
    widget: str = "choice"

    def actions(self, deck: Sequence[int]) -> list[Action]:
        return [Action(self.kind, 0, a) for a in self.args]

    def matches(self, action: Action) -> bool:
        return action.kind == self.kind and not action.cards and action.arg in self.args

    def describe(self) -> dict[str, Any]:
        return {"type": "choice", "kind": self.kind, "args": list(self.args), "what": self.what}


def suit_choice(kind: str) -> Choice:
    """A choice of one of the four suits (``trump S``)."""
    return Choice(kind, tuple(SUITS), "suit")


@dataclass(frozen=True)
class Word(ActionTemplate):
    """A fixed word alone (``pass``, ``replace``, ``double``)."""

    kind: str
    widget: str = "word"

    def actions(self, deck: Sequence[int]) -> list[Action]:
        return [Action(self.kind)]

    def matches(self, action: Action) -> bool:
        return action.kind == self.kind and not action.cards and not action.arg

    def describe(self) -> dict[str, Any]:
        return {"type": "word", "kind": self.kind}


@dataclass(frozen=True)
class Bid(ActionTemplate):
    """A contract from a ladder (``bid 15 H``); the calls beside it (pass, double) are
    :class:`Word` templates of the same phase."""

    kind: str
    ladder: Ladder = field(default_factory=lambda: Ladder(tuple(range(1, 8))))
    widget: str = "bid"

    def actions(self, deck: Sequence[int]) -> list[Action]:
        return [Action(self.kind, 0, str(c)) for c in self.ladder.contracts()]

    def matches(self, action: Action) -> bool:
        if action.kind != self.kind or action.cards:
            return False
        try:
            c = Contract.parse(action.arg)
        except ValueError:
            return False
        return c.level in self.ladder.levels and c.denomination in self.ladder.denominations

    def describe(self) -> dict[str, Any]:
        return {"type": "bid", "kind": self.kind, "ladder": self.ladder.describe()}


@dataclass(frozen=True)
class Phase:
    """A decision phase: its name (``observation()["phase"]``), the forms of action it offers,
    and whether several seats decide at once (``pending`` holds them).  The rules state writes
    ``legal_<name>(seat)`` and ``apply_<name>(seat, action)`` (and optionally a quick
    ``is_legal_<name>``)."""

    name: str
    actions: tuple[ActionTemplate, ...]
    simultaneous: bool = False

    def template_of(self, action: Action) -> ActionTemplate | None:
        """The first template ``action`` has the form of, if any."""
        for t in self.actions:
            if t.matches(action):
                return t
        return None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "simultaneous": self.simultaneous,
                "actions": [t.describe() for t in self.actions]}


def all_actions(phases: Sequence[Phase], deck: Sequence[int]) -> list[Action]:
    """Every action the phases can ever offer, each once, in the order first declared."""
    out: dict[Action, None] = {}
    for p in phases:
        for t in p.actions:
            for a in t.actions(deck):
                out.setdefault(a, None)
    return list(out)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


__all__ = ["DECK", "HAND", "ActionTemplate", "Bid", "Card", "Cards", "Choice", "Contract", "Ladder", "Phase",
           "Word", "all_actions", "suit_choice"]
