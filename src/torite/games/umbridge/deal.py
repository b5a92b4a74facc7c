"""Umbridge's actions and the rules of a deal that need no state: the bids and their ranks, a
contract's trump, who plays a trick in which order, who plays the dummy's card, following suit,
and the spares dealt again after umbrage.

Apart from ``rules.py`` because the state's module is long enough with the round's flow, and these
are read by the bot and the tests as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from torite.cards import SUIT_MASKS
from torite.engine.base import Action
from torite.engine.phases import Contract
from torite.games.umbridge.scoring import DENOMS

#: every bid, lowest first: a bid's index here is its rank
BIDS: Final = tuple(Action("bid", 0, f"{level} {denom}") for level in range(1, 8) for denom in DENOMS)
PASS: Final = Action("pass")
DOUBLE: Final = Action("double")
REDOUBLE: Final = Action("redouble")
UMBRAGE: Final = Action("umbrage")
KEEP: Final = Action("keep")
DISCARDS: Final = tuple(Action("discard", 1 << c) for c in range(52))
DONE: Final = Action("done")
#: the rank of each bid's text ("2 H" -> 6)
BID_RANK: Final = {a.arg: i for i, a in enumerate(BIDS)}
#: (suit, 13-bit mask of its cards) -> their ``discard`` actions, filled as met: a draw round's
#: legal list is then four lookups
_DISCARDS_BY_SUIT: dict[tuple[int, int], tuple[Action, ...]] = {}


def discard_actions(hand: int) -> list[Action]:
    """The ``discard`` actions of the cards of ``hand``, lowest first."""
    out: list[Action] = []
    for s in range(4):
        bits = hand >> (13 * s) & 8191
        if not bits:
            continue
        got = _DISCARDS_BY_SUIT.get((s, bits))
        if got is None:
            got = _DISCARDS_BY_SUIT[s, bits] = tuple(DISCARDS[13 * s + b] for b in range(13) if bits >> b & 1)
        out.extend(got)
    return out

#: phases: the simultaneous umbrage, the auction, a player's exchange in a draw round, the
#: kit's ``play`` (a card of one's own hand) and ``dummy`` (the dummy's card of a trick)
UMBRAGE_PHASE: Final = "umbrage"
AUCTION: Final = "auction"
EXCHANGE: Final = "exchange"
DUMMY: Final = "dummy"
NON_LEADER: Final = "non_leader"
LEADER: Final = "leader"
DECLARER: Final = "declarer"
RUBBER: Final = "rubber"
CHICAGO: Final = "chicago"
#: a trick's order from its leader: the dummy (West) sits right after the dealer (South)
DUMMY_STEP: Final = -1


def bid_rank(bid: Contract) -> int:
    """A contract's index in ``BIDS``: a higher level beats any lower one, and at a level the
    denominations go C D H S NT."""
    return BID_RANK[str(bid)]


def trump_of(bid: Contract) -> int:
    """The trump suit of a contract (-1 at no trump)."""
    return DENOMS.index(bid.denomination) if bid.denomination != "NT" else -1


def trick_order(leader: int, dealer: int) -> tuple[int, int, int]:
    """Who plays a trick, in order (§6.3: clockwise S, W = dummy, N; E is empty): the dummy
    plays right after the dealer."""
    other = 1 - leader
    if leader == dealer:
        return leader, DUMMY_STEP, other
    return leader, dealer, DUMMY_STEP


def dummy_controller(mode: str, leader: int, declarer: int) -> int:
    """The seat that plays the dummy's card in a trick led by ``leader`` (§6.4, U1)."""
    if mode == LEADER:
        return leader
    if mode == DECLARER:
        return declarer
    return 1 - leader


def follow(cards: int, led: int) -> int:
    """The cards of ``cards`` that may follow a lead of ``led`` (-1: leading)."""
    if led >= 0:
        same = cards & SUIT_MASKS[led]
        if same:
            return same
    return cards


def respread_cards(gathered: Sequence[int], dummy: Sequence[int], bridge: Sequence[int]) -> tuple[list[int], list[int]]:
    """The spares dealt again from an explicit deal's ``respread`` (ruling U14): the cards it names
    where it names them; a named card that is not among the gathered spares (the exchange went
    otherwise than the deal foresaw) gives its place to a gathered card the respread does not
    name, the lowest ones first in both.  Lists are top first."""
    have = set(gathered)
    named = set(dummy) | set(bridge)
    swap = dict(zip(sorted(named - have), sorted(have - named)))
    return [swap.get(c, c) for c in dummy], [swap.get(c, c) for c in bridge]
