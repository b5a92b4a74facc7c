"""The rule-of-thumb player for Bid and Call (the ``normal`` level).

Three cards each and 43 out of play: the partner's card is out of play six times in seven, so
the declarer counts on its own cards.  It bids the tricks it can see (aces, and high trumps in
the suit it would name), doubles a contract its own sure tricks can beat, calls the highest
card of trump it lacks, and in play wins as cheaply as it can, unless it plays last and its side wins already.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot
from torite.engine.phases import Contract

from .rules import DENOMS, bid_rank, winning_index

ACE, QUEEN = 12, 10


def sure_tricks(hand: Sequence[int], trump: int) -> float:
    """Tricks a hand should take alone with ``trump`` (-1: no trump): an ace of a plain suit,
    a trump from the queen up, half a trick for any other trump."""
    tricks = 0.0
    for c in hand:
        suit, rank = c // 13, c % 13
        if suit == trump:
            tricks += 1.0 if rank >= QUEEN else 0.5
        elif rank == ACE:
            tricks += 1.0
    return tricks


class BidAndCallBot(Bot):
    name = "normal"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        hand = [parse_card(c) for c in obs["hand"]]
        if obs["phase"] == "bid":
            return self._bid(obs, legal, hand)
        if legal[0].kind == "call":
            return self._call(obs, legal)
        return self._play(obs, legal, hand)

    def _bid(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: list[int]) -> Action:
        kinds = {a.kind: a for a in legal}
        contract = obs["contract"]
        if "redouble" in kinds:
            level, denom = contract.split()
            if sure_tricks(hand, _suit(denom)) >= int(level):
                return kinds["redouble"]
        if "double" in kinds:
            level, denom = contract.split()
            # the declarer needs `level` of the 3 tricks: 4 - level of ours beat it
            if sure_tricks(hand, _suit(denom)) >= 4 - int(level) and int(level) >= 2:
                return kinds["double"]
        if obs["declarer"] == self.seat:
            return kinds["pass"]  # never outbid ourselves
        # the highest level our own tricks make, in the denomination that makes the most
        bids = [(_level(a), sure_tricks(hand, _suit(a.arg.split()[1])), -bid_rank(Contract.parse(a.arg)), a)
                for a in legal if a.kind == "bid"]
        makeable = [b for b in bids if b[0] <= b[1]]
        return max(makeable, key=lambda b: b[:3])[3] if makeable else kinds["pass"]

    def _call(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The highest trump not in hand (at NT the highest ace): most likely to take a trick."""
        trump = _suit(obs["trump"] or "NT")
        return max(legal, key=lambda a: (a.card // 13 == trump, a.card % 13, a.card // 13))

    def _play(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: list[int]) -> Action:
        trump = _suit(obs["trump"] or "NT")
        trick = obs["trick"]
        me = self.seat

        def cost(a: Action) -> tuple[int, int]:  # cheapest first: plain cards, then low ranks
            return (a.card // 13 == trump, a.card % 13)

        if not trick:  # lead: the declarer's side draws trumps, everyone cashes aces
            if me in (obs["declarer"], obs["partner"]):
                trumps = [a for a in legal if a.card // 13 == trump]
                if trumps:
                    return max(trumps, key=cost)
            return max(legal, key=lambda a: a.card % 13)
        cards = [parse_card(t["card"]) for t in trick]
        led = cards[0] // 13
        win = winning_index(cards, led, trump)
        if len(trick) == obs["num_players"] - 1 and self._friend(obs, trick[win]["seat"]):
            return min(legal, key=cost)  # last to play, and our side wins already
        winners = [a for a in legal if winning_index([*cards, a.card], led, trump) == len(cards)]
        return min(winners or legal, key=cost)

    def _friend(self, obs: Mapping[str, Any], seat: int) -> bool:
        """Is ``seat`` on our side, as far as we know?"""
        me, declarer, partner = self.seat, obs["declarer"], obs["partner"]
        if seat == me:
            return True
        sides = {declarer, partner} - {None, -1}
        if me in sides:
            return seat in sides
        return partner is not None and seat not in sides  # both defenders known


def _suit(denom: str) -> int:
    return DENOMS.index(denom) if denom != "NT" else -1


def _level(bid: Action) -> int:
    return int(bid.arg.split()[0])
