"""Mighty (마이티), exactly as ``rules.en.md`` says, with its rulings A1–A16 and the game's own
rulings M1–M8.

A game on the kit (``torite.engine.kit``) for five players and 53 cards (the joker is card 52,
written ``JK``; records of older versions wrote ``JK1``, which still reads as it).  Each
decision is one action: ``bid 15 H`` / ``bid 16 NT`` / ``pass`` (and ``dealmiss`` with
``deal_miss=half_point``) in the election, ``discard 7C`` three times, ``contract 16 S`` (the
final contract; naming the current one keeps it), ``friend AS`` / ``friend first-trick`` /
``friend none``, ``play 10H``, ``suit H`` after leading the joker and ``call`` / ``nocall`` after
leading the joker-call card.

Hidden information: the kitty is a pile nobody sees; the president takes it into hand and
discards into the pile ``discards``, which only the president sees.  The friend is a
:class:`Role` held by whoever holds the named card, hidden until that card is played (a
first-trick friend: until trick 1 is won); a card friend the president holds or discarded is a
fake friend (the president plays alone).

Explicit deals are the kit's, one per deal *attempt* (a deal miss or an all-pass redeal uses
the next one): ``hands`` (five lists of ten cards) and ``kitty`` (three cards).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, parse_card
from torite.engine.base import Action, Bounds, OptionConflict, OptionSpec, Refusal, house_rule
from torite.engine.kit import (
    BOOL,
    CARD,
    INTS,
    LIST,
    PLAY,
    SEAT,
    SEAT_CARDS,
    Field,
    Pile,
    Place,
    Role,
    TrickState,
    View,
    seen_by_seat,
    word,
)
from torite.engine.kit import CONTRACT as CONTRACT_KIND
from torite.engine.kit import SUIT as SUIT_KIND

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Contract, Phase
from torite.engine.summary import row, step, summary
from torite.games.mighty.basics import (
    BID,
    BID_ACTIONS,
    BID_RANKS,
    CALL,
    CALL_JOKER,
    CARD_FRIEND,
    CONTRACT,
    DEALMISS,
    DENOMS,
    DISCARD,
    DISCARD_ACTIONS,
    FIRST_13,
    FIRST_TRICK,
    FRIEND,
    FRIEND_ACTIONS,
    HAND,
    JOKER,
    JOKER_BIT,
    MAX_BID,
    NO_CALL,
    NO_FRIEND,
    NT,
    NUM_PLAYERS,
    PASS,
    POINT_MASK,
    SUIT,
    SUIT_ACTIONS,
    bid_rank,
    call_card_of,
    change_cost,
    is_deal_miss,
    joker_has_power,
    may_declare_deal_miss,
    mighty_of,
    mighty_phases,
    points_of,
    trump_of,
    winning_index,
)
from torite.games.mighty.scoring import MIN_BID, base_amount, multipliers, payments


# --------------------------------------------------------------------------- the game
@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Mighty(TrickGame):
    id = "mighty"
    title = "Mighty"
    # the search levels bid, discard and name the friend by the rule bot: with random rollouts a
    # search picks nonsense among 41 bids (hard − normal −16 points a deal), while searching only
    # the card play gains +2.1 ± 1.5 a deal (80 paired deals)
    RULE_BOT_PHASES = frozenset({BID, DISCARD, CONTRACT, FRIEND})
    OPTIONS = (
        OptionSpec("deals", 10, "number of deals in a game", minimum=1, maximum=100),
        OptionSpec("deal_miss", "no_points",
                   "which hands are thrown in: no point card (automatic), a hand worth at most half a "
                   "point (the holder may declare it) or at most one point card besides the Mighty "
                   "(automatic)", choices=("no_points", "half_point", "one_card")),
        OptionSpec("opener", "dealer", "who bids first: the dealer, or from the second deal the previous "
                   "president", choices=("dealer", "previous_president")),
        OptionSpec("all_pass", "redeal", "when all five pass: the same dealer deals again, or the bidding "
                   "restarts once with minimum 12", choices=("redeal", "min12")),
        OptionSpec("nt_min12", False, "the opening bid may be 12 no-trump"),
        OptionSpec("discards_count", True, "point cards among the president's discards count for the "
                   "ruling party"),
        OptionSpec("joker_first_trick", "no_power", "the joker in trick 1: may be played without power "
                   "but not led, or may not be played at all", choices=("no_power", "forbidden")),
        OptionSpec("joker_last_trick", "no_power", "the joker in trick 10: played without power, may not "
                   "be kept for it (forbidden), or with full power", choices=("no_power", "forbidden", "power")),
        OptionSpec("joker_call_first_trick", False, "a joker call is possible in trick 1"),
        OptionSpec("lone_share", 4, "a lone president wins or loses this many times S (4: zero-sum)",
                   choices=(4, 2)),
        OptionSpec("score_formula", "pagat", "S of a made contract: 2(B-M)+(P-B) (pagat), P-10, P-M or "
                   "P-M+1", choices=("pagat", "P-10", "P-M", "P-M+1")),
        OptionSpec("mighty_when_spades", "DA", "the Mighty when spades are trump: the ace of diamonds or "
                   "of clubs", choices=("DA", "CA")),
        house_rule("doubling", 2, "what each doubling (no-trump, no friend, run, back run) multiplies S by", 1, 4),
    )
    PLAYERS = NUM_PLAYERS
    BOT_READS = frozenset({"doubling"})
    DECK = tuple(range(53))
    STAT_KEYS = ("deal_miss", "contract_made", "contract", "no_trump", "no_friend", "run", "back_run",
                 "joker_calls", "party_points", "president_points", "first_trick_friend", "fake_friend")
    BOT = "torite.games.mighty.bot:MightyBot"
    PHASES = mighty_phases(12, True)  # every phase and action any options allow (see phases())
    # the kitty nobody sees; the president's three discards only the president sees
    PILES = (Pile("kitty", deal=3), Pile("discards", seen=seen_by_seat("president")))
    FIELDS = (
        Field("attempts"),                 # deal attempts this game has used (explicit deals)
        Field("misses"),                   # deal misses of this deal so far
        Field("miss_shown", SEAT_CARDS),   # the hands shown by deal misses, until the first bid
        Field("auction", LIST),            # [[seat, "bid 15 H"], [seat, "pass"], ...]
        Field("passed"),                   # seats that passed (a mask)
        Field("high_bid", CONTRACT_KIND),       # the highest bid so far, "15 H"
        Field("bidder", SEAT),             # its seat
        Field("minimum"),                  # the lowest bid now (12 after an all_pass=min12 restart)
        Field("restarted", BOOL),
        Field("prev_president"),           # the previous deal's president (-1: none yet)
        Field("president", SEAT),
        Field("contract", CONTRACT_KIND),       # the election's bid, then the final contract
        Field("trump", SUIT_KIND),
        Field("mighty", CARD),             # fixed with the final contract
        Field("call_card", CARD),
        Field("friend_call", word(CARD_FRIEND, FIRST_TRICK, NO_FRIEND)),
        Field("friend_card", CARD),
        Field("called", BOOL),             # the current trick's joker call
        Field("points_taken", INTS),       # point cards in each seat's tricks this deal
    )
    ROLES = (Role("friend", card_attr="friend_card", revealed_attr="friend_shown"),)
    TRICK_FACTS = (View("called", BOOL),)  # a joker call caught the joker

    @property
    def hand_size(self) -> int:
        return HAND

    def phases(self) -> tuple[Phase, ...]:
        """The bids go from 13, or from 12 when an option allows it (an opening 12 no-trump, or
        the election restarted from 12); a declared deal miss only with ``deal_miss=half_point``."""
        opts = self.options
        low = 12 if opts["nt_min12"] or opts["all_pass"] == "min12" else MIN_BID
        return mighty_phases(low, opts["deal_miss"] == "half_point")

    def most_rounds(self) -> int | None:
        """The ``deals`` option."""
        return int(self.options["deals"])

    def bounds(self) -> Bounds:
        """From the scoring (§9): S of a made contract is at most the formula's best (20 points
        made, over the contract that gives most), of a failed one 20 (a contract of 20, no
        point); the doublings at most ×8 (no-trump, no friend, and a run or a back run); the
        president is paid ``lone_share`` times S alone, the others S.  Decisions of the deal that
        is played: an election of at most 18 rising bids (12 to 20, a suit then no-trump at each)
        and 4 passes (after 5 passes first with ``all_pass = min12``), 3 discards, the contract,
        the friend, 50 cards, a suit for the led joker and a joker call.  A deal thrown in takes
        at most 5 decisions (5 passes, or 4 calls and a declared deal miss; 10 with
        ``all_pass = min12``), and the rules deal again as often as it happens (§5)."""
        opts = self.options
        low = 12 if opts["nt_min12"] or opts["all_pass"] == "min12" else MIN_BID
        made = max(base_amount(b, p, opts["score_formula"]) for b in range(low, MAX_BID + 1)
                   for p in range(b, 21))
        failed = MAX_BID  # a contract of 20 without a point
        share, factor = opts["lone_share"], opts["doubling"] ** 3
        best = factor * max(share * made, failed)
        worst = -factor * max(share * failed, made)
        restart = 5 if opts["all_pass"] == "min12" else 0
        played = restart + 18 + 4 + 3 + 1 + 1 + 10 * NUM_PLAYERS + 1 + 1
        return Bounds((worst, best), played, thrown_in_actions=5 + restart)

    def _check_options(self) -> None:
        if self.options["joker_call_first_trick"] and self.options["joker_first_trick"] == "forbidden":
            raise OptionConflict("mighty: joker_call_first_trick needs the joker playable in trick 1 "
                                 "(joker_first_trick=no_power)",
                                 {"joker_call_first_trick": True, "joker_first_trick": "forbidden"})

    def parse_action(self, text: str) -> Action:
        """``first-trick`` and ``none`` are read in any case (``JK`` and the older ``JK1`` are the
        joker, as everywhere)."""
        action = super().parse_action(text)
        if action.kind == "friend" and action.arg.lower() in (FIRST_TRICK, NO_FRIEND):
            return Action("friend", action.cards, action.arg.lower())
        return action


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class MightyState(TrickState[Mighty]):
    kitty: list[int]
    discards: list[int]
    prev_president: int = -1
    deals_next: int = -1  # who deals the next deal (the friend, else the president), once scored
    misses: int
    miss_shown: list[int]
    auction: list[list[Any]]
    passed: int
    high_bid: Contract | None
    bidder: int | None
    minimum: int
    restarted: bool
    president: int | None
    contract: Contract | None
    trump: int
    mighty: int
    call_card: int
    friend_call: str | None
    friend_card: int
    friend: int
    friend_shown: bool
    called: bool
    points_taken: list[int]

    def setup_options(self) -> None:
        opts = self.game.options
        deals: int = opts["deals"]
        self.limit = deals if self.max_rounds is None else min(deals, self.max_rounds)
        self.miss_rule: str = opts["deal_miss"]
        self.first_rule: str = opts["joker_first_trick"]
        self.last_rule: str = opts["joker_last_trick"]

    # --------------------------------------------------------------- dealing
    def next_dealer(self) -> int:
        """The previous deal's friend deals next, else its president (§4)."""
        return self.deals_next if self.deals_next >= 0 else super().next_dealer()

    def before_deal(self) -> None:
        self.misses = 0
        self.miss_shown = [0] * self.n

    def void_deal(self, hands: list[int]) -> bool:
        """An automatic deal miss (A1, A16): the first such hand clockwise from the dealer is
        shown and thrown in before anyone looks (only the hand shown is ever named, M1); its
        holder deals again."""
        if self.miss_rule == "half_point":
            return False
        for i in range(self.n):
            s = (self.dealer + i) % self.n
            if is_deal_miss(hands[s], self.miss_rule):
                self._throw_in(s, hands[s])
                return True
        return False

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.president = None
        self.contract = None
        self.trump = -1
        self.mighty = -1
        self.void_exempt = 0
        self.call_card = -1
        self.friend_call = None
        self.friend_card = -1
        self.friend = -1
        self.friend_shown = False
        self.called = False
        self.points_taken = [0] * self.n
        self.deals_next = -1
        self._open_election()

    def _throw_in(self, seat: int, hand: int) -> None:
        """``seat`` shows its hand: the deal is void and ``seat`` deals again (A1)."""
        self.misses += 1
        self.counters["deal_miss"] += 1
        self.miss_shown = list(self.miss_shown)
        self.miss_shown[seat] |= hand
        self.emit("deal_miss", seat, {"cards": self.notation.cards(hand)})
        self._announce_redeal(seat, "deal_miss")

    def _announce_redeal(self, dealer: int, reason: str) -> None:
        self.dealer = dealer
        self.emit("redeal", dealer, {"reason": reason, "dealer": dealer})

    def _redeal(self, dealer: int, reason: str) -> None:
        """All five passed: the cards are thrown in and dealt again, then the election opens."""
        self._announce_redeal(dealer, reason)
        self.deal_again()
        self._open_election()

    def _open_election(self) -> None:
        """Let the opener bid (§6, A2)."""
        self.auction = []
        self.passed = 0
        self.high_bid = None
        self.bidder = None
        self.minimum = MIN_BID
        self.restarted = False
        self.phase = BID
        self.leader = self.turn = self._opener()

    def _opener(self) -> int:
        if self.game.options["opener"] == "previous_president" and self.prev_president >= 0:
            return self.prev_president
        return self.dealer

    # --------------------------------------------------------------- the election
    def legal_bid(self, seat: int) -> list[Action]:
        out = []
        if (self.miss_rule == "half_point" and not self.restarted and not any(s == seat for s, _ in self.auction)
                and may_declare_deal_miss(self.hands[seat])):
            out.append(DEALMISS)
        low = -1 if self.high_bid is None else bid_rank(*self.high_bid)
        start = bisect_right(BID_RANKS, low)
        if self.minimum > 12:
            if self.high_bid is None and self.game.options["nt_min12"]:
                out.append(BID_ACTIONS[FIRST_13 - 1])  # an opening 12 no-trump
            start = max(start, FIRST_13)
        out.extend(BID_ACTIONS[start:])
        out.append(PASS)
        return out

    def apply_bid(self, seat: int, action: Action) -> None:
        if action.kind == "dealmiss":  # a declared deal miss (half_point, M1)
            self._throw_in(seat, self.hands[seat])
            self.deal_again()
            self._open_election()
            return
        if any(self.miss_shown):
            self.miss_shown = [0] * self.n
        self.auction = [*self.auction, [seat, str(action)]]
        if action.kind == "pass":
            self.passed |= 1 << seat
            self.emit("pass", seat, {})
        else:
            self.high_bid, self.bidder = Contract.parse(action.arg), seat
            self.emit("bid", seat, {"bid": action.arg})
            if self.high_bid == (MAX_BID, NT):
                self._elect(seat)  # 20 no-trump cannot be beaten (A3)
                return
        passes = self.passed.bit_count()
        if passes == self.n:
            if self.game.options["all_pass"] == "min12" and not self.restarted:
                self.restarted = True
                self.minimum = 12
                self.passed = 0
                self.auction = []
                self.emit("restart", self.dealer, {"minimum": 12})
                self.turn = self._opener()
            else:
                self._redeal(self.dealer, "all_pass")
            return
        if self.bidder is not None and passes == self.n - 1:
            self._elect(self.bidder)
            return
        nxt = (seat + 1) % self.n
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % self.n
        self.turn = nxt

    def _elect(self, seat: int) -> None:
        """The election is over: the president takes the kitty (§7.1)."""
        assert self.high_bid is not None
        self.president = seat
        self.contract = self.high_bid
        self.trump = trump_of(self.high_bid.denomination)
        self.emit("president", seat, {"bid": str(self.high_bid)})
        kitty = sorted(self.kitty)
        for c in kitty:
            self.hands[seat] |= 1 << c
        self.kitty = []
        self.emit("kitty", seat, {"cards": [self._texts[c] for c in kitty]}, 1 << seat)
        self.phase = DISCARD
        self.turn = seat

    # --------------------------------------------------------------- kitty and contract
    def legal_discard(self, seat: int) -> list[Action]:
        return [DISCARD_ACTIONS[c] for c in _bits(self.hands[seat])]

    def apply_discard(self, seat: int, action: Action) -> None:
        card = action.card
        self.hands[seat] &= ~(1 << card)
        self.discards.append(card)
        self.emit("discard", seat, {"card": self._texts[card]}, 1 << seat)
        if len(self.discards) == 3:
            self.emit("discarded", seat, {"count": 3})
            self.phase = CONTRACT

    def legal_contract(self, seat: int) -> list[Action]:
        assert self.contract is not None
        number, denom = self.contract
        out = []
        for d in DENOMS:
            for k in range(number + change_cost(denom, d), MAX_BID + 1):
                out.append(Action("contract", 0, str(Contract(k, d))))
        return out

    def apply_contract(self, seat: int, action: Action) -> None:
        contract = Contract.parse(action.arg)
        changed = contract != self.contract
        self.contract = contract
        self.trump = trump_of(contract.denomination)
        self.mighty = mighty_of(self.trump, self.game.options["mighty_when_spades"])
        self.void_exempt = 1 << self.mighty  # it may be played instead of following
        self.call_card = call_card_of(self.trump)
        self.emit("contract", seat, {"contract": action.arg, "changed": changed,
                                                    "mighty": self._texts[self.mighty],
                                                    "call_card": self._texts[self.call_card]})
        self.phase = FRIEND

    # --------------------------------------------------------------- the friend
    def legal_friend(self, seat: int) -> list[Action]:
        return list(FRIEND_ACTIONS)

    def apply_friend(self, seat: int, action: Action) -> None:
        if action.cards:
            card = action.card
            self.friend_call, self.friend_card = CARD_FRIEND, card
            holder = next((s for s, h in enumerate(self.hands) if h >> card & 1), -1)
            self.friend = -1 if holder == seat else holder  # held or discarded: a fake friend (A5)
            self.emit("friend", seat, {"call": CARD_FRIEND, "card": self._texts[card]})
        else:
            self.friend_call = action.arg
            if action.arg == NO_FRIEND:
                self.friend_shown = True
            self.emit("friend", seat, {"call": action.arg})
        self.phase = PLAY
        self.leader = self.turn = seat  # the president leads trick 1 (§8)

    def _reveal(self) -> None:
        self.friend_shown = True
        friend = self.friend if self.friend >= 0 else None
        self.emit("friend_shown", self.friend, {
            "friend": friend, "president": self.president,
            "card": self._texts[self.friend_card] if self.friend_card >= 0 else None})

    # --------------------------------------------------------------- the tricks
    def playable(self, seat: int) -> int:
        hand = self.hands[seat]
        trick_no = len(self.history)
        if trick_no == 8 and self.last_rule == "forbidden" and hand & JOKER_BIT:
            return JOKER_BIT  # the joker may not be kept for the last trick (M5)
        if not self.trick:
            if trick_no:
                return hand
            lead = hand & ~JOKER_BIT  # never the joker (A7), no trump unless nothing else (A14)
            if self.trump >= 0:
                plain = lead & ~SUIT_MASKS[self.trump]
                if plain:
                    return plain
            return lead
        if self.called and hand & JOKER_BIT:
            return JOKER_BIT
        free = hand & ((1 << self.mighty) | JOKER_BIT)
        if trick_no == 0 and self.first_rule == "forbidden":
            hand &= ~JOKER_BIT
            free &= ~JOKER_BIT
        follow = hand & SUIT_MASKS[self.led] if self.led >= 0 else 0
        return follow | free if follow else hand

    def play_refusal(self, seat: int, card: int) -> Refusal:
        """The restrictions ``playable`` applies, each by its rule (A7, A14, M5, the joker call)."""
        hand = self.hands[seat]
        trick_no = len(self.history)
        if trick_no == 8 and self.last_rule == "forbidden" and hand & JOKER_BIT:
            return Refusal("joker_before_last_trick")  # M5: it may not be kept for trick 10
        if not self.trick and trick_no == 0:
            if card == JOKER:
                return Refusal("joker_leads_first_trick")  # A7
            return Refusal("trump_leads_first_trick", {"suit": SUITS[self.trump]})  # A14
        if self.called and hand & JOKER_BIT:
            return Refusal("joker_called", {"card": self._texts[self.call_card]})
        if card == JOKER and trick_no == 0 and self.first_rule == "forbidden":
            return Refusal("joker_first_trick_forbidden")
        return super().play_refusal(seat, card)

    def choice_refusal(self, seat: int, action: Action) -> Refusal:
        """A bid must beat the highest (no-trump beats the same number in a suit) and start from
        the minimum; the final contract may not go below the bid plus the cost of a change."""
        try:
            bid = Contract.parse(action.arg)
        except ValueError:
            return super().choice_refusal(seat, action)
        if self.phase == BID and action.kind == "bid":
            if self.high_bid is not None and bid_rank(*bid) <= bid_rank(*self.high_bid):
                return Refusal("bid_higher", {"contract": str(self.high_bid)})
            return Refusal("bid_minimum", {"minimum": self.minimum})
        if self.phase == CONTRACT and action.kind == "contract" and self.contract is not None:
            cost = change_cost(self.contract.denomination, bid.denomination)
            return Refusal("contract_at_least", {"contract": str(self.contract),
                                                 "level": self.contract.level + cost, "cost": cost})
        return super().choice_refusal(seat, action)

    def after_play(self, seat: int, card: int) -> bool:
        if self.friend_call == CARD_FRIEND and card == self.friend_card:
            self._reveal()
        if len(self.trick) == 1:
            if card == JOKER:
                self.phase = SUIT
                return True
            if (card == self.call_card and (self.history or self.game.options["joker_call_first_trick"])
                    and not self._joker_played()):
                self.phase = CALL
                return True
        return False

    def _joker_played(self) -> bool:
        """Whether the joker has been played in an earlier trick (public)."""
        text = self._texts[JOKER]
        return any(text in t["cards"] for t in self.history)

    def legal_suit(self, seat: int) -> list[Action]:
        return list(SUIT_ACTIONS)

    def apply_suit(self, seat: int, action: Action) -> None:
        self.led = SUITS.index(action.arg)
        self.emit("suit", seat, {"suit": action.arg})
        self.phase = PLAY
        self.advance()

    def legal_call(self, seat: int) -> list[Action]:
        return [CALL_JOKER, NO_CALL]

    def apply_call(self, seat: int, action: Action) -> None:
        self.called = action.kind == "call"
        if self.called:
            self.counters["joker_calls"] += 1
        self.emit("joker_call", seat, {"call": self.called, "card": self._texts[self.call_card]})
        self.phase = PLAY
        self.advance()

    def joker_power(self) -> bool:
        return joker_has_power(len(self.history), self.called, self.last_rule)

    def trick_winner(self) -> int:
        return winning_index(self.trick, self.led, self.trump, self.mighty, self.joker_power())

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        pts = 0
        for c in self.trick:
            pts += POINT_MASK >> c & 1
        self.points_taken = list(self.points_taken)
        self.points_taken[winner] += pts
        record["points"] = pts
        record["called"] = self.called
        if not self.history and self.friend_call == FIRST_TRICK:
            self.friend = -1 if winner == self.president else winner
            self._reveal()

    def clear_trick_hook(self) -> None:
        self.called = False

    # --------------------------------------------------------------- scoring
    def side(self) -> tuple[int, ...]:
        assert self.president is not None
        if self.friend >= 0 and self.friend != self.president:
            return self.president, self.friend
        return (self.president,)

    def score_round(self) -> dict[str, Any]:
        assert self.president is not None and self.contract is not None
        if not self.friend_shown:  # the friend card was never played: it was discarded (A11)
            self._reveal()
        opts = self.game.options
        side = self.side()
        discard_points = points_of(sum(1 << c for c in self.discards))
        party = sum(self.points_taken[s] for s in side) + (discard_points if opts["discards_count"] else 0)
        number, denom = self.contract
        made = party >= number
        base = base_amount(number, party, opts["score_formula"])
        mults = multipliers(number, party, denom == NT, self.friend_call == NO_FRIEND)
        factor = opts["doubling"] ** len(mults)  # the house rule ``doubling``: 2
        amount = base * factor
        pay = payments(self.n, self.president, self.friend, amount, made, opts["lone_share"])
        for s in range(self.n):
            self.round_points[s] += pay[s]
        c = self.counters
        c["contract_made"] += made
        c["contract"] += number
        c["no_trump"] += denom == NT
        c["no_friend"] += self.friend_call == NO_FRIEND
        c["run"] += "run" in mults
        c["back_run"] += "back_run" in mults
        c["party_points"] += party
        c["president_points"] += pay[self.president]
        c["first_trick_friend"] += self.friend_call == FIRST_TRICK
        fake = self.friend_call != NO_FRIEND and len(side) == 1
        c["fake_friend"] += fake
        self.prev_president = self.president
        self.deals_next = side[-1]
        sign = 1 if made else -1
        steps = []
        for s in range(self.n):
            share = (opts["lone_share"] if len(side) == 1 else 2) if s == self.president \
                else 1 if s in side else -1
            steps.append([step("base", base, "="), *(step(m, 2) for m in mults),
                          step("share", share * sign)])
        rows = [row("points_taken", self.points_taken, adds=False)]
        if opts["discards_count"]:  # the president's discards count for the ruling party: a row of their own
            rows.append(row("discards", [discard_points if s == self.president else 0 for s in range(self.n)],
                            adds=False))
        return {"president": self.president, "friend": side[1] if len(side) > 1 else None,
                "contract": str(self.contract), "party_points": party, "made": made, "base": base,
                "multipliers": mults, "factor": factor, "amount": amount, "discard_points": discard_points,
                "discards_count": opts["discards_count"],
                "party_taken": sum(self.points_taken[s] for s in side),
                "alone": len(side) == 1, "fake": fake,
                "formula": opts["score_formula"], "minimum": min(MIN_BID, number),
                "summary": summary(rows, steps)}

    def game_over(self) -> bool:
        return len(self.round_scores) >= self.limit

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The ruling party and the opposition of the current deal, once the friend is known."""
        if self.president is None or not self.friend_shown:
            return ()
        side = self.side()
        return side, tuple(s for s in range(self.n) if s not in side)

    # --------------------------------------------------------------- information
    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """What play shows: a seat that did not play the joker to a joker call holds none, and a
        president who led a trump to trick 1 held nothing but trumps and the joker (A14)."""
        out: list[tuple[Place, int]] = []
        tricks: list[tuple[list[int], list[int], bool]] = [
            (t["seats"], [parse_card(x) for x in t["cards"]], t["called"]) for t in self.history]
        if self.trick:
            tricks.append((self.trick_seats, self.trick, self.called))
        for seats, cards, called in tricks:
            if called:
                out.extend((Place.hand(s), JOKER_BIT) for s, c in zip(seats[1:], cards[1:]) if c != JOKER)
        if tricks and self.trump >= 0 and self.president is not None:
            lead = tricks[0][1][0]
            if lead < 52 and lead // 13 == self.trump:
                others = sum(SUIT_MASKS[s] for s in range(4) if s != self.trump)
                out.append((Place.hand(self.president), others))
        return out

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        self.void_exempt = 1 << self.mighty if self.mighty >= 0 else 0

    def arrange(self, rng: random.Random) -> None:
        """A sampled world in which the president holds the friend card has no friend (A5)."""
        if self.friend == self.president:
            self.friend = -1


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


Mighty.STATE = MightyState

__all__ = ["CALL_JOKER", "DEALMISS", "DENOMS", "FRIEND_ACTIONS", "JOKER", "NO_CALL", "PASS", "POINT_MASK",
           "Mighty", "MightyState", "base_amount", "bid_rank", "call_card_of", "change_cost", "is_deal_miss",
           "joker_has_power", "may_declare_deal_miss", "mighty_of", "multipliers",
           "payments", "points_of", "trump_of", "winning_index"]
