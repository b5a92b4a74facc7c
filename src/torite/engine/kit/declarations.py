"""What a game declares about its state: piles, fields, roles, trick slots and derived views,
and who sees each.

These are data, read by the kit (observations, ``known_cards``, the determinizer), by
``game.schema()`` and through it by every face: a game says once what a seat may know.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from torite.cards import SUITS, mask_of_texts, parse_card
from torite.engine.base import ALL_SEATS
from torite.engine.kit.tables import Notation, copy_json
from torite.engine.phases import Contract

OVER: Final = "over"
PLAY: Final = "play"
NOBODY: Final = 0
#: ``Pile.deal``: the pile takes every card left after the hands and the other piles.
REST: Final = -1
#: ``TrickSlot.default``: the card played itself.  Compared with ``==``, never ``is``: compiled, a
#: module that names it holds its own copy of the string, another object
THE_CARD: Final = "the card"


# --------------------------------------------------------------------------- who sees a pile
@dataclass(frozen=True)
class Seen:
    """Who sees a pile: everyone, nobody, everyone once a flag of the state is true
    (:func:`seen_when`), or the one seat a state attribute holds (:func:`seen_by_seat`)."""

    rule: str  # "all", "nobody", "when" or "seat"
    attr: str = ""

    def mask(self, state: Any) -> int:
        """The seats (a mask, or ``ALL_SEATS``) that see the pile in ``state`` now."""
        rule = self.rule
        if rule == "all":
            return ALL_SEATS
        if rule == "nobody":
            return NOBODY
        value = getattr(state, self.attr)
        if rule == "when":
            return ALL_SEATS if value else NOBODY
        return 1 << value if isinstance(value, int) and value >= 0 else NOBODY

    def restore(self, state: Any, shown: bool) -> None:
        """In a state rebuilt from an observation: a ``when`` flag is whether the pile showed."""
        if self.rule == "when":
            setattr(state, self.attr, shown)

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rule": self.rule}
        if self.rule == "when":
            d["flag"] = self.attr
        elif self.rule == "seat":
            d["seat"] = self.attr
        return d


SEEN_BY_ALL = Seen("all")
SEEN_BY_NOBODY = Seen("nobody")


def seen_when(flag: str) -> Seen:
    """Everyone sees the pile while the state's bool attribute ``flag`` is true."""
    return Seen("when", flag)


def seen_by_seat(attr: str) -> Seen:
    """Only the seat the state's attribute ``attr`` holds sees the pile (none while it is
    ``None`` or -1)."""
    return Seen("seat", attr)


@dataclass(frozen=True)
class Pile:
    """A named pile of cards that is no hand: a state attribute holding a list (last = top).

    ``seen``: who sees it (:class:`Seen`).  ``face_down``: the name of a list attribute of
    bools, one per card, marking cards no one sees even in a seen pile.  ``deal``: how many
    cards the deal puts there (``REST``: the rest of the deck; ``0``: none, the pile fills in
    play).  ``top_first``: observations list the top first."""

    name: str
    seen: Seen = SEEN_BY_NOBODY
    face_down: str | None = None
    deal: int = 0
    top_first: bool = True

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "seen": self.seen.describe(), "face_down": self.face_down is not None,
                "deal": "rest" if self.deal == REST else self.deal, "top_first": self.top_first}


# --------------------------------------------------------------------------- kinds of values
#: a state value to its observation value, in the game's card notation
Encode = Callable[[Any, Notation], Any]
#: an observation value back to a state value
Decode = Callable[[Any], Any]


def _same(v: Any, nt: Notation | None = None) -> Any:
    return v


def _copy_list(v: Any, nt: Notation | None = None) -> Any:
    """A copy sharing no list or dict with ``v`` (an auction of ``[seat, call]`` pairs, say): an
    observation is handed to bots, which may edit it."""
    return [copy_json(x) for x in v]


def _suit_enc(v: int, nt: Notation) -> str | None:
    return SUITS[v] if v >= 0 else None


def _suit_dec(v: str | None) -> int:
    return SUITS.index(v) if v else -1


def _card_enc(v: int, nt: Notation) -> str | None:
    return nt.texts[v] if v >= 0 else None


def _card_dec(v: str | None) -> int:
    return parse_card(v) if v else -1


def _cards_enc(m: int, nt: Notation) -> list[str]:
    return nt.cards(m)


def _seat_cards_enc(ms: Sequence[int], nt: Notation) -> list[list[str]]:
    return [nt.cards(m) for m in ms]


def _seat_cards_dec(v: Sequence[Sequence[str]]) -> list[int]:
    return [mask_of_texts(x) for x in v]


def _no_cards(v: Any) -> int:
    return 0


def _card_bit(v: int) -> int:
    return 1 << v if v >= 0 else 0


def _mask(v: int) -> int:
    return int(v)


def _masks(v: Sequence[int]) -> int:
    m = 0
    for x in v:
        m |= x
    return m


@dataclass(frozen=True)
class Kind:
    """How a state value shows in an observation: ``encode`` (state → JSON), ``decode`` (back,
    for the determinizer), ``empty`` (a private field's value for a seat that may not see it),
    ``cards`` (the card mask a value names: what showing it reveals).  ``values`` lists the
    texts a ``word`` may take (its encoding's categories); ``per_seat`` marks a list with one
    item per seat.  The name is what ``game.schema()`` and the research encodings read."""

    name: str
    encode: Encode = _same
    decode: Decode = _same
    empty: Any = 0
    cards: Callable[[Any], int] = _no_cards
    values: tuple[str, ...] = ()
    per_seat: bool = False

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.name}
        if self.values:
            d["values"] = list(self.values)
        if self.per_seat:
            d["per_seat"] = True
        return d


INT = Kind("int")
BOOL = Kind("bool", empty=False)
#: a seat number, or None (-1 is "nobody" where a game uses it)
SEAT = Kind("seat", empty=None)
#: a number, or None while it means nothing (Kaedama's step of a replacement)
MAYBE_INT = Kind("int?", empty=None)
SUIT = Kind("suit", _suit_enc, _suit_dec, -1)
CARD = Kind("card", _card_enc, _card_dec, -1, _card_bit)
CARDS = Kind("cards", _cards_enc, mask_of_texts, 0, _mask)
SEAT_CARDS = Kind("seat_cards", _seat_cards_enc, _seat_cards_dec, [], _masks, per_seat=True)
#: one number per seat
INTS = Kind("ints", _copy_list, _copy_list, [], per_seat=True)
#: one true or false per seat
BOOLS = Kind("bools", _copy_list, _copy_list, [], per_seat=True)
#: a list of card texts (a play to beat, the bids of a turn): shown as they are
CARD_TEXTS = Kind("card_texts", _copy_list, _copy_list, [])
#: a JSON list of another shape (an auction of ``[seat, call]`` pairs): shown, not encoded
LIST = Kind("list", _copy_list, _copy_list, [])
def _contract_enc(v: Contract | None, nt: Notation) -> str | None:
    return None if v is None else str(v)


def _contract_dec(v: str | None) -> Contract | None:
    return None if v is None else Contract.parse(v)


#: a :class:`~torite.engine.phases.Contract` (or None), shown as its text ``"15 H"``
CONTRACT = Kind("contract", _contract_enc, _contract_dec, None)
#: free text (a rare value a game shows as it is)
STR = Kind("str", empty=None)


def word(*values: str) -> Kind:
    """Text from a fixed list (``"card"``, ``"first-trick"``, ``"none"``), or None."""
    return Kind("word", empty=None, values=values)


@dataclass(frozen=True)
class Field:
    """A state attribute an observation shows, under ``key`` (default: the attribute name).

    ``kind`` is its :class:`Kind`.  A ``private`` field is a per-seat list of which a seat
    sees its own item only (spectators: the kind's empty value).  A ``derived`` field is shown
    but not restored by the determinizer (the game recomputes it)."""

    attr: str
    kind: Kind = INT
    key: str | None = None
    private: bool = False
    derived: bool = False

    @property
    def obs_key(self) -> str:
        return self.key or self.attr

    def describe(self) -> dict[str, Any]:
        return {"key": self.obs_key, **self.kind.describe(), "private": self.private}


@dataclass(frozen=True)
class View:
    """An observation key the game computes (``observe_extra``) rather than a stored field:
    declared so the schema, the encodings and the faces know it without looking."""

    key: str
    kind: Kind = INT

    def describe(self) -> dict[str, Any]:
        return {"key": self.key, **self.kind.describe(), "derived": True}


@dataclass(frozen=True)
class Role:
    """A seat fixed by who holds a card (a secret partner, a team): the state attribute
    ``attr`` holds that seat (-1 for nobody).  ``card_attr`` names the attribute holding the
    card.  Hidden in observations (``None``) until ``revealed_attr`` (a bool attribute) is true,
    except from the role's own seat; the determinizer reads it from the sampled cards.  Whether
    it is revealed is public: observations show ``revealed_attr`` too, so the determinizer
    restores it."""

    attr: str
    card_attr: str
    revealed_attr: str

    def describe(self) -> dict[str, Any]:
        return {"key": self.attr, "revealed": self.revealed_attr}


@dataclass(frozen=True)
class TrickSlot:
    """A per-card attribute of the current trick: a list indexed by trick position (one item
    per seat, ``default`` until set; ``THE_CARD``: the card played there until the game sets
    another, e.g. the card first played when it is replaced), renewed with every trick, which
    observations show in each trick entry under ``key``."""

    attr: str
    key: str
    kind: Kind = BOOL
    default: Any = False

    def describe(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind.name}


@dataclass(frozen=True)
class DealChance:
    """What chance draws in a round besides the cards of its deal, for a framework that deals
    card by card as chance outcomes (OpenSpiel's card games; the adapter's ``chance="deal"``).

    ``words``: explicit-deal keys that chance draws uniformly before the cards, with their values
    (Hearts' pass direction).  ``dealer``: the first dealer is drawn (uniformly).  ``later``: the
    round draws again after the deal (a shuffle of a pile, a deal thrown in and dealt again),
    so the adapter draws a seed for it after the cards.  The defaults assume all of it; a game
    that knows better says so, and one whose explicit deals refuse some arrangements of the
    cards (Good Cop: two turned jokers) has none (``TrickGame.deal_chance`` returns None)."""

    words: tuple[tuple[str, tuple[str, ...]], ...] = ()
    dealer: bool = True
    later: bool = True


class Place(NamedTuple):
    """Where a hidden card may lie, for ``pins`` and ``forbids``: a seat's hand
    (``Place.hand(2)``), a pile (``Place("graveyard")``), or one position of the trick or of a
    pile (``Place("trick", 1)``: a face-down card).  Its text is ``hands[2]``, ``graveyard``,
    ``trick[1]`` (the keys of ``card_places``)."""

    where: str
    at: int = -1

    def __str__(self) -> str:
        return f"{self.where}[{self.at}]" if self.at >= 0 else self.where

    @classmethod
    def hand(cls, seat: int) -> Place:
        return cls("hands", seat)


def card_list(value: Any) -> list[int]:
    """Cards of an explicit deal: a list of card texts or one space/comma separated text."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    return [parse_card(c) for c in value]


__all__ = ["BOOL", "BOOLS", "CARD", "CARDS", "CARD_TEXTS", "CONTRACT", "INT", "INTS", "LIST", "MAYBE_INT", "NOBODY",
           "OVER", "PLAY", "REST", "SEAT", "SEAT_CARDS", "SEEN_BY_ALL", "SEEN_BY_NOBODY", "STR", "SUIT", "THE_CARD",
           "DealChance", "Field", "Kind", "Pile", "Place", "Role", "Seen", "TrickSlot", "View", "card_list",
           "seen_by_seat", "seen_when", "word"]
