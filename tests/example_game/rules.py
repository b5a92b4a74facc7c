"""Bid and Call, exactly as ``rules.en.md`` says: the example game of ``docs/new-game.md``.

A game on the kit (``torite.engine.kit``), registered by the tests only (``tests/conftest.py``).
Three players, three cards each; the 43 other cards are a pile nobody sees.  A decision is one
action: ``bid 2 H`` / ``pass`` / ``double`` / ``redouble`` in the auction, ``call QS`` (the
declarer names its hidden partner's card), ``play 10D``.

Explicit deals are the kit's: ``hands`` (three lists of three cards) and ``unused`` (the other
43 cards, top first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from torite.cards import card_str
from torite.engine.base import Action, Bounds
from torite.engine.kit import (
    CARD,
    CONTRACT,
    LIST,
    PLAY,
    REST,
    SEAT,
    SUIT,
    Field,
    Pile,
    Place,
    Role,
    TrickGame,
    TrickSlot,
    TrickState,
)
from torite.engine.phases import Bid, Card, Contract, Ladder, Phase, Word
from torite.engine.summary import row, step, summary
from torite.engine.trick import plain_winner

LADDER: Final = Ladder((1, 2, 3), ("C", "D", "H", "S", "NT"))  # low to high; C D H S are the suits 0..3
DENOMS: Final = LADDER.denominations
#: every bid, lowest first: a bid's index here is its rank
BIDS: Final = tuple(Action("bid", 0, str(c)) for c in LADDER.contracts())
PASS, DOUBLE, REDOUBLE = Action("pass"), Action("double"), Action("redouble")
CALLS: Final = tuple(Action("call", 1 << c) for c in range(52))

BID, CALL = "bid", "call"  # the phases before the trick play (the kit's PLAY)


def bid_rank(bid: Contract) -> int:
    """A bid's index in ``BIDS``: a higher level beats any lower one."""
    return (bid.level - 1) * len(DENOMS) + DENOMS.index(bid.denomination)


#: the winning card: the highest trump, else the highest card of the led suit (``trump`` -1: none)
winning_index = plain_winner


class BidAndCall(TrickGame):
    id = "bidding-test"
    title = "Bid and Call"
    OPTIONS = ()
    PLAYERS = 3
    STAT_KEYS = ("contracts", "doubled", "made", "alone", "tricks")
    BOT = "example_game.bot:BidAndCallBot"
    PHASES = (
        Phase(BID, (Bid("bid", LADDER), Word("pass"), Word("double"), Word("redouble"))),
        Phase(CALL, (Card("call", from_="deck"),)),  # the declarer names a card it does not hold
        Phase(PLAY, (Card("play"),)),
    )
    PILES = (Pile("unused", deal=REST),)  # nobody sees it
    FIELDS = (
        Field("auction", LIST),       # [[seat, "bid 2 H"], [seat, "pass"], ...]
        Field("contract", CONTRACT),  # "2 H", or None before the first bid
        Field("declarer", SEAT),      # the seat of the last bid, or None
        Field("doubled"),             # 0, 1 doubled, 2 redoubled
        Field("trump", SUIT),         # the contract's suit (None at NT or before the contract)
        Field("called", CARD),        # the partner's card, public once named
    )
    ROLES = (Role("partner", card_attr="called", revealed_attr="partner_shown"),)
    TRICK_SLOTS = (TrickSlot("trick_called", "partner_card"),)

    @property
    def hand_size(self) -> int:
        return 3

    def bounds(self) -> Bounds:
        """A side scores its level (at most 3), doubled or redoubled: ±12.  Decisions: the
        auction's bids rise (15 at most), each may be doubled and redoubled, and at most 2
        passes come between two other calls (a third ends the auction); the call; 9 cards."""
        calls = 3 * len(BIDS)
        return Bounds((-12, 12), calls + 2 * (calls + 1) + 1 + 9)


class BidAndCallState(TrickState):
    game: BidAndCall
    unused: list[int]
    trick_called: list[bool]
    auction: list[list[Any]]
    contract: Contract | None
    declarer: int | None
    doubled: int
    trump: int
    called: int
    partner: int
    partner_shown: bool

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.phase = BID  # the kit made the dealer's left the one to act
        self.auction = []
        self.contract = None
        self.declarer = None
        self.doubled = 0
        self.trump = -1
        self.called = -1
        self.partner = -1
        self.partner_shown = False

    # --------------------------------------------------------------- the auction
    def legal_bid(self, seat: int) -> list[Action]:
        low = -1 if self.contract is None else bid_rank(self.contract)
        out = [*BIDS[low + 1:], PASS]
        if self.contract is not None and self.doubled == 0 and seat != self.declarer:
            out.append(DOUBLE)
        if self.doubled == 1 and seat == self.declarer:
            out.append(REDOUBLE)
        return out

    def apply_bid(self, seat: int, action: Action) -> None:
        self.auction.append([seat, str(action)])
        self.emit(action.kind, seat, {"bid": action.arg or None})
        if action.kind == "bid":
            self.contract, self.declarer, self.doubled = Contract.parse(action.arg), seat, 0
        elif action.kind != "pass":
            self.doubled += 1
        passes = 0
        for _, call in reversed(self.auction):
            if call != "pass":
                break
            passes += 1
        if self.contract is None and passes == self.n:
            self.end_round()  # nobody bid: no contract, scored 0
        elif self.contract is not None and passes == self.n - 1:
            self.declare(self.contract)
        else:
            self.turn = (seat + 1) % self.n

    def declare(self, contract: Contract) -> None:
        """The auction is over: the declarer names its partner's card."""
        assert self.declarer is not None
        denom = contract.denomination
        self.trump = DENOMS.index(denom) if denom != "NT" else -1
        self.counters["contracts"] += 1
        self.counters["doubled"] += int(self.doubled > 0)
        self.emit("contract", self.declarer, {"bid": str(contract), "doubled": self.doubled})
        self.phase = CALL
        self.turn = self.declarer

    # --------------------------------------------------------------- the call
    def legal_call(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        return [a for c, a in enumerate(CALLS) if not hand >> c & 1]

    def apply_call(self, seat: int, action: Action) -> None:
        self.called = card = action.card
        self.partner = next((s for s, h in enumerate(self.hands) if h >> card & 1), -1)
        self.emit("call", seat, {"card": card_str(card)})
        self.phase = PLAY
        self.leader = self.turn = seat  # the declarer leads the first trick

    # --------------------------------------------------------------- tricks and scoring
    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        self.trick_called[len(self.trick) - 1] = card == self.called
        return {"card": card_str(card)}

    def after_play(self, seat: int, card: int) -> bool:
        if card == self.called:
            self.reveal_partner()
        return False

    def reveal_partner(self) -> None:
        self.partner_shown = True
        partner = self.partner if self.partner >= 0 else None
        self.emit("partner", self.partner, {"card": card_str(self.called), "partner": partner,
                                                             "declarer": self.declarer})

    def trick_winner(self) -> int:
        return winning_index(self.trick, self.led, self.trump)

    def side(self) -> tuple[int, ...]:
        """The declarer's side: the declarer and its partner, if anybody holds the called card."""
        assert self.declarer is not None
        return (self.declarer,) if self.partner < 0 else (self.declarer, self.partner)

    def score_round(self) -> dict[str, Any]:
        if self.contract is None:
            return {"made": None, "summary": summary()}
        if not self.partner_shown:  # the called card was never played: nobody held it
            self.reveal_partner()
        side = self.side()
        level = self.contract.level
        made = sum(self.tricks_won[s] for s in side) >= level
        points = (level if made else -level) * 2 ** self.doubled
        for s in side:
            self.round_points[s] += points
        self.counters["made"] += int(made)
        self.counters["alone"] += int(len(side) == 1)
        steps = [[step("level", level, "="), *(step("doubled", 2) for _ in range(self.doubled)),
                  step("made" if made else "down", 1 if made else -1)] if s in side else [] for s in range(self.n)]
        return {"made": made, "summary": summary([row("tricks", self.tricks_won, adds=False)], steps)}

    def game_over(self) -> bool:
        return True  # one round

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The declarer's side and the rest, once the partner is known (at the latest when the
        round ends): a result in the middle of the round must not tell who the partner is."""
        if self.contract is None or not self.partner_shown:
            return ()
        side = self.side()
        return side, tuple(s for s in range(self.n) if s not in side)

    # --------------------------------------------------------------- information
    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """Everyone knows the declarer called a card it did not hold."""
        if self.called >= 0 and self.declarer is not None:
            return [(Place.hand(self.declarer), 1 << self.called)]
        return []


BidAndCall.STATE = BidAndCallState

__all__ = ["BIDS", "DENOMS", "DOUBLE", "PASS", "REDOUBLE", "BidAndCall", "BidAndCallState", "bid_rank",
           "winning_index"]
