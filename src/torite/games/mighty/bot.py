"""The rule-of-thumb player for Mighty (the ``normal`` level).

It sees only its observation.  In the election it values its hand for each trump (trump length
and honours, the Mighty and the joker, side aces) as the point cards a president with a friend
could expect (no-trump more when the house rules' ``doubling`` is dearer), and bids the lowest
legal contract in its best trump while that stays within the value; it passes otherwise.  As
president it discards what will not take tricks (short side suits first; side point cards it
cannot protect are banked in the discards when they count), keeps its contract unless the kitty
made another trump clearly better, and names as friend the strongest card it lacks: the Mighty,
then the joker, then the top trumps.

In play it scores each legal card by the trick it leads to: the points in the trick (with the
card's own) go to whoever would win it, counted for its side when that seat is a known ally,
against when a known foe, a little against when unknown (a hidden friend may be anyone), and
weighed by how sure the win is (the last to play is sure; a card that no unseen card can beat
is sure); less what the card is worth kept for later (the Mighty, a powerful joker, top trumps
and aces are kept for tricks worth them).  It calls the joker whenever the joker is in another
hand that is not a known ally's, and names the trump when it leads the joker for the ruling
party (drawing the opposition's trumps), else its shortest suit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, card_str, mask_of_texts, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.engine.phases import Contract
from torite.games.mighty.basics import (
    DENOMS,
    JOKER,
    JOKER_BIT,
    NT,
    POINT_MASK,
    bid_rank,
    call_card_of,
    joker_has_power,
    mighty_of,
    trump_of,
    winning_index,
)

ACE: Final = 12
FULL: Final = (1 << 53) - 1


#: how much a no-trump contract's value moves per step of the house rules' ``doubling`` away
#: from its default 2: a dearer doubling makes a no-trump hand readier to play no-trump (it pays
#: more when made), a doubling of 1 takes the bonus of no-trump away
NT_PER_DOUBLING: Final = 0.5
DOUBLING_DEFAULT: Final = 2


def hand_value(hand: int, denom: str, when_spades: str = "DA", doubling: int = DOUBLING_DEFAULT) -> float:
    """The point cards a president with this hand (and a friend) may expect with ``denom``
    (``doubling``: the house rules', which moves what no-trump is worth, see ``NT_PER_DOUBLING``)."""
    trump = trump_of(denom)
    mighty = mighty_of(trump, when_spades)
    value = 7.0
    if hand >> mighty & 1:
        value += 2.0
    if hand & JOKER_BIT:
        value += 1.8
    for s in range(4):
        cards = hand & SUIT_MASKS[s] & ~(1 << mighty)
        length = cards.bit_count()
        top = [cards >> (s * 13 + r) & 1 for r in (12, 11, 10)]
        if s == trump:
            value += 1.0 * length + 0.9 * top[0] + 0.6 * top[1] + 0.3 * top[2]
        else:
            value += 0.9 * top[0] + 0.3 * (top[0] and top[1])
            if trump < 0:
                value += 0.5 * top[0] + 0.3 * top[1] + (0.3 * (length - 4) if length > 4 else 0.0)
    if trump < 0:
        value += 1.0 + NT_PER_DOUBLING * (doubling - DOUBLING_DEFAULT)
    return value


def best_denom(hand: int, when_spades: str = "DA", doubling: int = DOUBLING_DEFAULT) -> tuple[str, float]:
    return max(((d, hand_value(hand, d, when_spades, doubling)) for d in DENOMS),
               key=lambda x: (x[1], x[0] != NT))


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class MightyBot(Bot):
    name = "normal"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        phase = obs["phase"]
        hand = mask_of_texts(obs["hand"])
        spades = obs["options"]["mighty_when_spades"]
        if phase == "bid":
            return self.bid(obs, legal, hand, spades)
        if phase == "discard":
            return self.discard(obs, legal, hand)
        if phase == "contract":
            return self.contract(obs, legal, hand, spades)
        if phase == "friend":
            return self.friend(obs, legal, hand)
        view = _View(obs, self.seat)
        if phase in ("suit", "call"):
            chosen = view.suit(legal) if phase == "suit" else view.call(legal)
            self.reason = view.reason
            return chosen
        best = max(legal, key=lambda a: (view.score(a.card), -a.card))
        self.reason = view.why(best.card, [a.card for a in legal])
        return best

    # ------------------------------------------------------------------ before the play
    def bid(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int, spades: str) -> Action:
        bids = [a for a in legal if a.kind == "bid"]
        doubling = obs["options"]["doubling"]
        if any(a.kind == "dealmiss" for a in legal) and best_denom(hand, spades, doubling)[1] < 10:
            self.reason = Reason("deal_miss")
            return next(a for a in legal if a.kind == "dealmiss")
        ranked = sorted(((hand_value(hand, d, spades, doubling), d) for d in DENOMS), reverse=True)
        for value, denom in ranked[:2]:
            options = [a for a in bids if a.arg.split()[1] == denom and int(a.arg.split()[0]) <= value]
            if options:
                chosen = min(options, key=lambda a: bid_rank(*Contract.parse(a.arg)))
                self.reason = Reason("bid_worth", {"contract": chosen.arg, "worth": int(value)})
                return chosen
        self.reason = Reason("pass_weak", {"worth": int(ranked[0][0])})
        return next(a for a in legal if a.kind == "pass")

    def discard(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int) -> Action:
        trump = trump_of(Contract.parse(obs["contract"])[1])
        mighty = mighty_of(trump, obs["options"]["mighty_when_spades"])
        count = obs["options"]["discards_count"]

        def keep(a: Action) -> float:
            c = a.card
            if c in (mighty, JOKER):
                return 100.0
            suit, rank = divmod(c, 13)
            if suit == trump:
                return 50.0 + rank
            length = (hand & SUIT_MASKS[suit] & ~(1 << mighty)).bit_count()
            has_ace = bool(hand >> (suit * 13 + ACE) & 1)
            if rank == ACE:
                return 30.0
            value = float(rank)
            if rank == ACE - 1 and has_ace:
                value = 20.0
            elif count and POINT_MASK >> c & 1:
                value = 3.0  # banked in the discards
            if length <= 2:
                value -= 4.0
            return value

        chosen = min(legal, key=lambda a: (keep(a), a.card))
        self.reason = Reason("discard_least", {"card": card_str(chosen.card)})
        return chosen

    def contract(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int, spades: str) -> Action:
        denom = Contract.parse(obs["contract"])[1]
        keep = next(a for a in legal if a.arg == obs["contract"])
        doubling = obs["options"]["doubling"]
        current = hand_value(hand, denom, spades, doubling) - 1.5  # the kitty is in: the hand is 10 cards now
        best, value = best_denom(hand, spades, doubling)
        if best != denom and value - 1.5 >= current + 2.5:
            for a in legal:
                k, d = Contract.parse(a.arg)
                if d == best and k <= value - 1.5:
                    self.reason = Reason("change_trump", {"contract": a.arg})
                    return a
        self.reason = Reason("keep_contract", {"contract": obs["contract"]})
        return keep

    def friend(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int) -> Action:
        trump = trump_of(Contract.parse(obs["contract"])[1])
        mighty = mighty_of(trump, obs["options"]["mighty_when_spades"])
        gone = hand | mask_of_texts(obs["discards"] or [])
        wanted = [mighty, JOKER]
        if trump >= 0:
            wanted += [trump * 13 + r for r in range(ACE, -1, -1)]
        wanted += [s * 13 + r for r in (ACE, ACE - 1) for s in range(4) if s != trump]
        for c in wanted:
            if not gone >> c & 1:
                self.reason = Reason("friend_strong", {"card": card_str(c)})
                return Action("friend", 1 << c)
        self.reason = Reason("friend_first_trick")
        return next(a for a in legal if a.arg == "first-trick")


class _View:
    """What one seat knows during the tricks, read once from its observation."""

    def __init__(self, obs: Mapping[str, Any], me: int) -> None:
        self.me = me
        self.reason: Reason | None = None
        self.n: int = obs["num_players"]
        self.hand = mask_of_texts(obs["hand"])
        self.trump: int = trump_of(Contract.parse(obs["contract"])[1])
        self.mighty = parse_card(obs["mighty"])
        self.call_card = call_card_of(self.trump)
        self.last_rule: str = obs["options"]["joker_last_trick"]
        self.trick_no = len(obs["tricks"])
        seen = self.hand | mask_of_texts(obs["discards"] or [])
        for t in obs["tricks"]:
            seen |= mask_of_texts(t["cards"])
        self.trick = [(t["seat"], parse_card(t["card"])) for t in obs["trick"]]
        for _, c in self.trick:
            seen |= 1 << c
        self.unseen = FULL & ~seen
        self.led = SUITS.index(obs["led"]) if obs["led"] else -1
        self.called: bool = obs["called"]
        self.president: int = obs["president"]
        friend = obs["friend"]
        shown = obs["friend_shown"]
        call = obs["friend_call"]
        self.friend_card = parse_card(obs["friend_card"]) if obs["friend_card"] else -1
        # +1 ally, -1 foe, 0 not known
        side = [0] * self.n
        side[me] = 1
        if me == self.president:
            if shown or call == "none":
                for s in range(self.n):
                    if s != me:
                        side[s] = 1 if s == friend else -1
        elif friend == me:
            for s in range(self.n):
                side[s] = 1 if s in (me, self.president) else -1
        else:
            side[self.president] = -1
            if shown or call == "none" or (call == "card" and self.hand >> parse_card(obs["friend_card"]) & 1):
                for s in range(self.n):
                    if s not in (me, self.president):
                        side[s] = -1 if s == friend else 1
        self.side = side
        self.ruling = side[self.president] == 1
        self.joker_power = joker_has_power(self.trick_no, self.called, self.last_rule)

    def weight(self, seat: int) -> float:
        s = self.side[seat]
        return 1.0 if s > 0 else -1.0 if s < 0 else -0.25

    def keep_cost(self, c: int) -> float:
        """What the card is worth kept for a later trick."""
        if c == self.mighty:
            return 3.5 if self.trick_no < 9 else 0.0
        if c == JOKER:
            later = joker_has_power(self.trick_no + 1, False, self.last_rule) if self.trick_no < 9 else False
            return 3.0 if later else 0.0
        suit, rank = divmod(c, 13)
        if suit == self.trump:
            return 1.0 + 1.5 * rank / 12
        if rank == ACE:
            return 1.3
        return 0.5 * rank / 12

    def beaters(self, c: int, led: int) -> int:
        """Unseen cards that would beat ``c`` in a trick led in ``led``."""
        out = self.unseen & (1 << self.mighty)
        if c == self.mighty:
            return 0
        if c == JOKER:
            return out if self.joker_power else self.unseen
        if self.unseen & JOKER_BIT and self.joker_power:
            out |= JOKER_BIT
        suit = c // 13
        if suit == self.trump:
            higher = SUIT_MASKS[suit] & ~((1 << (c + 1)) - 1)
            return out | (self.unseen & higher)
        if suit != led:
            return self.unseen & ~JOKER_BIT
        higher = SUIT_MASKS[suit] & ~((1 << (c + 1)) - 1)
        trumps = SUIT_MASKS[self.trump] if self.trump >= 0 else 0
        return out | (self.unseen & (higher | trumps))

    def why(self, c: int, legal: Sequence[int] = ()) -> Reason:
        """The rule of thumb behind playing ``c``, in one line, true of ``c`` (chosen among
        ``legal``): "lowest" only for a card no other legal card ranks below."""
        cards = [x for _, x in self.trick] + [c]
        seats = [s for s, _ in self.trick] + [self.me]
        led = self.led if self.trick else (c // 13 if c != JOKER else (self.trump if self.trump >= 0 else 0))
        winner = seats[winning_index(cards, led, self.trump, self.mighty, self.joker_power)]
        text = card_str(c) if c != JOKER else "JK"
        if not self.trick:  # a lead: unbeatable, low (no point card), or strong with its beaters counted
            beaters = self.beaters(c, led).bit_count()
            if not beaters:
                return Reason("lead_top", {"card": text})
            if c != JOKER and c != self.mighty and not POINT_MASK >> c & 1:
                return Reason("lead_low", {"card": text})
            return Reason("lead_high", {"card": text, "beaters": beaters})
        if winner == self.me:
            points = sum(POINT_MASK >> x & 1 for x in cards)
            return Reason("take_points" if points else "win_trick", {"card": text, "points": points})
        if self.weight(winner) > 0:
            return Reason("ally_wins", {"card": text})
        if c != JOKER and all(x == JOKER or x % 13 >= c % 13 for x in legal):
            return Reason("lowest", {"card": text})
        return Reason("shed_least", {"card": text})

    def score(self, c: int) -> float:
        cards = [x for _, x in self.trick] + [c]
        seats = [s for s, _ in self.trick] + [self.me]
        led = self.led if self.trick else (c // 13 if c != JOKER else (self.trump if self.trump >= 0 else 0))
        win = winning_index(cards, led, self.trump, self.mighty, self.joker_power)
        points = sum(POINT_MASK >> x & 1 for x in cards)
        left = self.n - len(cards)
        winner = seats[win]
        sure = 1.0
        if left:
            threat = self.beaters(cards[win], led).bit_count()
            sure = 1.0 if not threat else max(0.25, 0.75 - 0.05 * threat)
        expected = points + (0.8 * left if not self.trick else 0.3 * left)  # more points may follow
        w = self.weight(winner)
        value = expected * (w * sure - (1 - sure) * 0.5 * (1 if w > 0 else 0))
        if winner == self.me:
            value -= self.keep_cost(c)
        else:
            value -= 0.3 * self.keep_cost(c) + (POINT_MASK >> c & 1) * (0.6 if w <= 0 else 0.0)
        return value

    def suit(self, legal: Sequence[Action]) -> Action:
        if self.ruling and self.trump >= 0:
            want = self.trump
        else:
            want = min(range(4), key=lambda s: ((self.hand & SUIT_MASKS[s]).bit_count(), s))
        self.reason = Reason("joker_suit_trump" if self.ruling and self.trump >= 0 else "joker_suit_short",
                             {"suit": SUITS[want]})
        return next(a for a in legal if a.arg == SUITS[want])

    def call(self, legal: Sequence[Action]) -> Action:
        ally_joker = self.ruling and self.friend_card == JOKER
        kind = "call" if self.unseen & JOKER_BIT and not ally_joker else "nocall"
        self.reason = Reason("joker_call" if kind == "call" else "no_joker_call")
        return next(a for a in legal if a.kind == kind)


__all__ = ["MightyBot", "best_denom", "hand_value"]
