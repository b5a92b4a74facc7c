"""Mighty's cards, actions and the rules that need no state: the bids and their ranks, the
Mighty and the joker call's card for a trump, the point cards, a deal miss, when the joker has
power, who wins a trick, and the phases a deal goes through.

Apart from ``rules.py`` (the round's flow on the kit) because these are the facts the bot, the
scoring and the tests read as well, and each is tested on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from torite.cards import JOKER1, SUITS
from torite.engine.base import Action
from torite.engine.kit import PLAY
from torite.engine.phases import DECK as ANY_CARD
from torite.engine.phases import Bid, Card, Choice, Ladder, Phase, Word, suit_choice
from torite.engine.trick import plain_winner

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
NUM_PLAYERS: Final = 5
HAND: Final = 10
JOKER: Final = JOKER1
JOKER_BIT: Final = 1 << JOKER
#: the point cards: every A, K, Q, J and 10 (ranks 10..14 are indexes 8..12 of a suit)
POINT_MASK: Final = sum(1 << (s * 13 + r) for s in range(4) for r in range(8, 13))
TEN_MASK: Final = sum(1 << (s * 13 + 8) for s in range(4))
ACE_SPADES: Final = SPADES * 13 + 12
ACE_DIAMONDS: Final = DIAMONDS * 13 + 12
ACE_CLUBS: Final = CLUBS * 13 + 12
THREE_CLUBS: Final = CLUBS * 13 + 1
THREE_SPADES: Final = SPADES * 13 + 1
MAX_BID: Final = 20
DENOMS: Final = ("C", "D", "H", "S", "NT")
NT: Final = "NT"

BID: Final = "bid"
DISCARD: Final = "discard"
CONTRACT: Final = "contract"
FRIEND: Final = "friend"
SUIT: Final = "suit"
CALL: Final = "call"
PASS: Final = Action("pass")
DEALMISS: Final = Action("dealmiss")
CALL_JOKER: Final = Action("call")
NO_CALL: Final = Action("nocall")
SUIT_ACTIONS: Final = tuple(Action("suit", 0, s) for s in SUITS)
FIRST_TRICK: Final = "first-trick"
NO_FRIEND: Final = "none"
CARD_FRIEND: Final = "card"
FRIEND_ACTIONS: Final = (*(Action("friend", 1 << c) for c in range(53)),
                         Action("friend", 0, FIRST_TRICK), Action("friend", 0, NO_FRIEND))
DISCARD_ACTIONS: Final = tuple(Action("discard", 1 << c) for c in range(53))


# --------------------------------------------------------------------------- pure rules
def _bid_table() -> tuple[tuple[int, ...], tuple[Action, ...]]:
    """Every bid from 12 to 20, lowest first (suits of a number together, then its no-trump)."""
    bids = sorted((n * 2 + (d == "NT"), DENOMS.index(d), n, d) for n in range(12, 21) for d in DENOMS)
    return tuple(b[0] for b in bids), tuple(Action("bid", 0, f"{b[2]} {b[3]}") for b in bids)


BID_RANKS, BID_ACTIONS = _bid_table()
FIRST_13: Final = 5  # index of the first bid of 13 (before it: 12 in each suit, then 12 NT)


def bid_rank(number: int, denom: str) -> int:
    """A higher number beats any lower one; at the same number no-trump beats a suit (§6)."""
    return number * 2 + (denom == NT)


def change_cost(old: str, new: str) -> int:
    """What changing the trump after the kitty adds to the bid (§7, A4): nothing to keep it, 1
    from a suit to no-trump, 2 to another suit (from no-trump too)."""
    if old == new:
        return 0
    return 1 if new == NT else 2


def trump_of(denom: str) -> int:
    return -1 if denom == NT else SUITS.index(denom)


def mighty_of(trump: int, when_spades: str = "DA") -> int:
    """The Mighty (§2): ♠A, or when spades are trump ♦A (option ``mighty_when_spades=CA``: ♣A)."""
    if trump == SPADES:
        return ACE_CLUBS if when_spades == "CA" else ACE_DIAMONDS
    return ACE_SPADES


def call_card_of(trump: int) -> int:
    """The joker-call card (§2): ♣3, or ♠3 when clubs are trump."""
    return THREE_SPADES if trump == CLUBS else THREE_CLUBS


def points_of(mask: int) -> int:
    """Point cards (A K Q J 10) in a card mask; the joker is worth nothing."""
    return (mask & POINT_MASK).bit_count()


def is_deal_miss(hand: int, rule: str) -> bool:
    """An automatic deal miss (§5, A1): ``no_points`` no point card at all; ``one_card`` at most
    one point card, the Mighty (♠A before the election) not counted.  ``half_point`` is never
    automatic (see :func:`may_declare_deal_miss`)."""
    if rule == "no_points":
        return not hand & POINT_MASK
    if rule == "one_card":
        return (hand & POINT_MASK & ~(1 << ACE_SPADES)).bit_count() <= 1
    return False


def half_points(hand: int) -> int:
    """Twice the ``half_point`` value of a hand (§5): ♠A 0, every other A K Q J 1, a 10 ½, the
    joker −1."""
    honours = hand & POINT_MASK & ~TEN_MASK & ~(1 << ACE_SPADES)
    return 2 * honours.bit_count() + (hand & TEN_MASK).bit_count() - 2 * (hand >> JOKER & 1)


def may_declare_deal_miss(hand: int) -> bool:
    """``deal_miss=half_point``: a hand worth at most ½ point may be thrown in (pagat's ≤)."""
    return half_points(hand) <= 1


def joker_has_power(trick_no: int, called: bool, last_rule: str = "no_power") -> bool:
    """The joker wins a trick unless it is trick 1, trick 10 (``joker_last_trick=power`` keeps
    it) or caught by a joker call (§8, A7)."""
    if called or trick_no == 0:
        return False
    return not (trick_no == 9 and last_rule != "power")


def winning_index(cards: Sequence[int], led: int, trump: int, mighty: int, joker_power: bool) -> int:
    """Index of the winning card (§8): the Mighty; else a joker with power; else the highest
    trump; else the highest card of the led suit (the suit named for a led joker).  A joker
    without power ranks below everything, so a powerless joker led with no card of the named
    suit and no trump behind it wins (A13)."""
    if mighty in cards:  # the Mighty beats every card, a joker played before it included
        return cards.index(mighty)
    if joker_power and JOKER in cards:
        return cards.index(JOKER)
    return plain_winner(cards, led, trump)


def mighty_phases(low: int, deal_miss: bool) -> tuple[Phase, ...]:
    """Mighty's decisions, with bids from ``low`` and, if ``deal_miss``, a declared deal miss."""
    ladder = Ladder(tuple(range(low, MAX_BID + 1)), DENOMS)
    calls = (Word("pass"), Word("dealmiss")) if deal_miss else (Word("pass"),)
    return (
        Phase(BID, (Bid("bid", ladder), *calls)),
        Phase(DISCARD, (Card("discard"),)),  # the president's three, one at a time
        Phase(CONTRACT, (Bid("contract", ladder),)),  # the final contract (the bid kept, or raised)
        Phase(FRIEND, (Card("friend", from_=ANY_CARD), Choice("friend", (FIRST_TRICK, NO_FRIEND), "word"))),
        Phase(PLAY, (Card("play"),)),
        Phase(SUIT, (suit_choice("suit"),)),  # the suit a led joker asks for
        Phase(CALL, (Word("call"), Word("nocall"))),  # a joker call, or not, with the call card led
    )
