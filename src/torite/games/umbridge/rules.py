"""Umbridge (David Parlett): two-player bridge with a shared dummy, exactly as ``rules.en.md``
says, with its rulings U1–U13.

A game on the kit (``torite.engine.kit``) with two seats; the spare hands are piles: ``dummy``
(hidden until the auction ends, then public), ``bridge`` (face down, drawn from its top) and
``discards`` (face down; each seat knows its own, a private field pinned there).  A trick has
three cards: the two players' and the dummy's, which the seat named by ``dummy_control`` plays
as its own (phase ``dummy``: a ``play`` of a dummy card).  Every decision is one action:
``umbrage`` / ``keep``; ``bid 2 H``, ``bid 3 NT``, ``pass``, ``double``, ``redouble``;
``discard 7C`` … ``done`` in a draw round; ``play QS``.

Explicit deals: ``hands`` (two lists of 13 cards, seat 0 first), ``dummy`` (13), ``bridge``
(13, top first) and optionally ``respread`` (``{"dummy": [13], "bridge": [13]}``: the spares
dealt again when someone takes umbrage; see the rules page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, card_str, iter_bits
from torite.engine.base import Action, Bounds, OptionConflict, OptionSpec, Refusal, house_rule
from torite.engine.kit import (
    BOOL,
    BOOLS,
    CARDS,
    CONTRACT,
    INT,
    INTS,
    LIST,
    PLAY,
    REST,
    SEAT,
    SUIT,
    Field,
    Pile,
    Place,
    TrickSlot,
    TrickState,
    View,
    card_list,
    seen_when,
    word,
)

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Bid, Card, Contract, Ladder, Phase, Word
from torite.engine.trick import plain_winner, play_actions
from torite.games.umbridge.claim import (
    ACCEPT,
    CLAIM,
    CLAIM_PHASE,
    CLAIM_TRICKS,
    REFUSE,
    answer_claim,
    claim_refusal,
    make_claim,
)
from torite.games.umbridge.deal import (
    AUCTION,
    BID_RANK,
    BIDS,
    CHICAGO,
    DECLARER,
    DISCARDS,
    DONE,
    DOUBLE,
    DUMMY,
    DUMMY_STEP,
    EXCHANGE,
    KEEP,
    LEADER,
    NON_LEADER,
    PASS,
    REDOUBLE,
    RUBBER,
    UMBRAGE,
    UMBRAGE_PHASE,
    bid_rank,
    discard_actions,
    dummy_controller,
    follow,
    respread_cards,
    trick_order,
    trump_of,
)
from torite.games.umbridge.score_deal import score_deal
from torite.games.umbridge.scoring import (
    DENOMS,
    best_payment,
    chicago_vulnerable,
    honours_points,
    unfinished_bonus,
)

HAND: Final = 13
#: the winning card: the highest trump, else the highest card of the led suit
winning_index = plain_winner


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Umbridge(TrickGame):
    id = "umbridge"
    title = "Umbridge"
    OPTIONS = (
        OptionSpec("dummy_control", NON_LEADER,
                   "who plays the dummy's card in a trick: the player who did not lead it, the leader, "
                   "or the declarer", choices=(NON_LEADER, LEADER, DECLARER)),
        OptionSpec("scoring", RUBBER, "rubber bridge (first to two games) or Chicago (four deals)",
                   choices=(RUBBER, CHICAGO)),
        OptionSpec("honours", False, "score honours held in a player's hand (rubber scoring only)"),
        OptionSpec("deals", 12, "a rubber still unfinished after this many deals stops and is scored "
                   "as unfinished (0: no limit; rubber scoring only)", minimum=0, maximum=100),
        OptionSpec("claims", False, "the player on lead may claim the remaining tricks, at most "
                   f"{CLAIM_TRICKS} from the end; the other accepts or refuses (U19)", table=True),
        house_rule("rubber_two_nil", 700, "the rubber bonus for winning 2 games to 0", 0, 2000),
        house_rule("rubber_two_one", 500, "the rubber bonus for winning 2 games to 1", 0, 2000),
        house_rule("part_score_bonus", 50, "Chicago: the bonus of a made part-score", 0, 500),
    )
    PLAYERS = 2
    BOT_READS = frozenset({"rubber_two_nil", "rubber_two_one", "part_score_bonus"})
    STAT_KEYS = ("passed_out", "contract_level", "no_trump", "doubled", "made", "umbrage", "bridge_draws",
                 "dummy_tricks", "honour_points")
    BOT = "torite.games.umbridge.bot:UmbridgeBot"
    # the search levels leave the umbrage, the auction and the draws to the rule bot: random
    # playouts go down in every contract, so a search values any bid at +1000 and overbids
    RULE_BOT_PHASES = frozenset({UMBRAGE_PHASE, AUCTION, EXCHANGE, CLAIM_PHASE})  # a claim: judged exactly
    BOT_SKIPS = frozenset({"claim"})  # bots do not claim (U19)
    DEAL_EXTRAS = ("respread",)
    PHASES = (
        Phase(UMBRAGE_PHASE, (Word("umbrage"), Word("keep")), simultaneous=True),  # both at once (U3)
        Phase(AUCTION, (Bid("bid", Ladder(tuple(range(1, 8)), DENOMS)), Word("pass"), Word("double"),
                        Word("redouble"))),
        Phase(EXCHANGE, (Card("discard"), Word("done"))),  # bridge draws: discard, then draw
        Phase(PLAY, (Card("play"),)),
        Phase(DUMMY, (Card("play", from_="dummy"),)),  # the dummy's card, by its controller
        Phase(CLAIM_PHASE, (Word("accept"), Word("refuse"))),  # the answer to a claim (U19)
    )
    PILES = (
        Pile("dummy", seen=seen_when("dummy_exposed"), deal=HAND),
        Pile("bridge", deal=REST),   # top = the end drawn from
        Pile("discards"),            # face down, out of play (U10)
    )
    FIELDS = (
        Field("my_umbrage", BOOL, private=True),  # this seat's secret choice, before both decided
        Field("umbrage", BOOLS),                  # per seat: took umbrage (once both decided)
        Field("given_up", CARDS, private=True),   # the hand this seat gave up by taking umbrage
        Field("auction", LIST),                   # [[seat, "bid 2 H"], [seat, "pass"], ...]
        Field("contract", CONTRACT),              # "2 H", or None before the first bid
        Field("declarer", SEAT),                  # the last bidder, or None
        Field("doubled"),                         # 0, 1 doubled, 2 redoubled
        Field("trump", SUIT),
        Field("must_bid", BOOL),                  # the last bidder must repeat or raise (§5.4)
        Field("exchange_limit"),                  # how many the seat exchanging may discard
        Field("exchange_count"),                  # how many it has discarded so far
        Field("first_draw"),                      # the last bidder's draw in this round (-1: not yet)
        Field("exchanges", LIST),                 # [[seat, cards drawn], ...] this deal
        Field("drawn", INTS),                     # per seat, cards drawn from the bridge this deal
        Field("discarded", CARDS, private=True),  # this seat's own discards
        Field("dummy_exposed", BOOL),             # the dummy is face up (U2)
        Field("dummy_by", SEAT),                  # who plays the dummy in the current trick
        # U19: [the claimer while the other answers, the trick in which a claim was refused], -1
        # for none; a list, which the adapters' observation vector leaves out (unchanged by claims)
        Field("claim", LIST),
        Field("above", INTS),                     # per seat, above the line this rubber
        Field("below", LIST),                     # per game [seat 0, seat 1] below the line
        Field("games", INTS),                     # games won this rubber
        Field("vulnerable", BOOLS),               # per seat, this deal
    )
    VIEWS = (View("vulnerability", word("none", "one", "both")), View("vulnerable_seat", SEAT),
             View("below_now", INTS), View("deal_no", INT), View("chicago", BOOL))
    TRICK_SLOTS = (TrickSlot("from_dummy", "dummy"),)

    @property
    def hand_size(self) -> int:
        return HAND

    def phases(self) -> tuple[Phase, ...]:
        """With ``claims``, the play offers ``claim`` and a claim is answered (U19); without, the
        declared phases but the answer (the schema of a game without claims is unchanged)."""
        if self.options["claims"]:
            return tuple(Phase(PLAY, (Card("play"), Word("claim"))) if p.name == PLAY else p for p in self.PHASES)
        return tuple(p for p in self.PHASES if p.name != CLAIM_PHASE)

    def most_rounds(self) -> int | None:
        """Chicago's four deals, or a rubber's ``deals`` (0: none, a rubber ends when it is won)."""
        return 4 if self.options["scoring"] == CHICAGO else (int(self.options["deals"]) or None)

    def bounds(self) -> Bounds:
        """From the scoring (§8), nothing below 0.  The most one deal can pay a player: as
        declarer, the best contract result of the table (below and above the line) with the
        largest end bonus (the rubber's 700, or 300 and 100 unfinished; Chicago's game bonus);
        as defender, 13 undertricks redoubled and vulnerable (7,600), with the unfinished bonus;
        honours 150 on top.  Decisions (with ``claims``, a claim and its answer in each of the last
        tricks on top): 2 umbrage choices; in the auction at most 35 rising bids,
        a repeat after each draw round in which a card was drawn (at most 13, the bridge), a
        double and a redouble after each of those, 2 passes before a contract and one after it
        for each draw round (at most 14) and the last; in the draw rounds 2 ``done`` each and at
        most 13 discards (each is drawn back from the bridge); 39 cards."""
        o = self.options
        rubber = max(o["rubber_two_nil"], o["rubber_two_one"])
        return Bounds((0, best_payment(o["scoring"] == CHICAGO, o["honours"], rubber, o["part_score_bonus"])),
                      2 + 35 + 13 + 2 * (35 + 13) + 2 + 14 + 2 * 14 + 13 + 39
                      + (2 * CLAIM_TRICKS if o["claims"] else 0))

    def _check_options(self) -> None:
        super()._check_options()
        if self.options["scoring"] == CHICAGO and self.options["honours"]:
            raise OptionConflict("honours are scored at rubber scoring only (scoring=rubber)",
                                 {"honours": True, "scoring": CHICAGO})


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class UmbridgeState(TrickState[Umbridge]):
    LIST_FIELDS = ("honours_held",)
    dummy: list[int]
    bridge: list[int]
    discards: list[int]
    from_dummy: list[bool]
    my_umbrage: list[bool]
    umbrage: list[bool]
    given_up: list[int]
    auction: list[list[Any]]
    contract: Contract | None
    declarer: int | None
    doubled: int
    trump: int
    must_bid: bool
    exchange_limit: int
    exchange_count: int
    first_draw: int
    exchanges: list[list[int]]
    drawn: list[int]
    discarded: list[int]
    dummy_exposed: bool
    dummy_by: int | None
    claim: list[int]
    above: list[int]
    below: list[list[int]]
    games: list[int]
    vulnerable: list[bool]
    honours_held: list[int]
    respread: Mapping[str, Any] | None

    def setup_options(self) -> None:
        opts = self.game.options
        self.control: str = opts["dummy_control"]
        self.chicago: bool = opts["scoring"] == CHICAGO
        self.honours: bool = bool(opts["honours"]) and not self.chicago
        self.deal_limit: int = opts["deals"]
        self.claims: bool = bool(opts["claims"])

    def start_game(self) -> None:
        self.above, self.below, self.games = [0, 0], [[0, 0]], [0, 0]  # the rubber's score sheet

    # --------------------------------------------------------------- the deal
    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        spread = deal.get("respread")
        if spread is None:
            return
        if not isinstance(spread, Mapping) or set(spread) != {"dummy", "bridge"}:
            raise ValueError(f"{where}: respread needs exactly 'dummy' and 'bridge' (13 cards each)")
        try:
            cards = [card_list(spread["dummy"]), card_list(spread["bridge"])]
        except (TypeError, ValueError) as e:
            raise ValueError(f"{where}: respread: {e}") from None
        if any(len(x) != HAND for x in cards):
            raise ValueError(f"{where}: respread needs 13 cards in the dummy and 13 in the bridge")
        together = cards[0] + cards[1]
        if len(set(together)) != len(together):
            raise ValueError(f"{where}: respread names a card twice")

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.respread = deal.get("respread") if deal is not None else None
        self.phase = UMBRAGE_PHASE
        self.pending = 0b11
        self.my_umbrage = [False, False]
        self.umbrage = []
        self.given_up = [0, 0]
        self.auction = []
        self.contract = None
        self.declarer = None
        self.doubled = 0
        self.trump = -1
        self.must_bid = False
        self.exchange_limit = self.exchange_count = 0
        self.first_draw = -1
        self.exchanges = []
        self.drawn = [0, 0]
        self.discarded = [0, 0]
        self.dummy_by = None
        self.claim = [-1, -1]
        self.honours_held = [0, 0]
        self.dummy_exposed = False
        self.vulnerable = self.vulnerability()

    def vulnerability(self) -> list[bool]:
        """Per seat, vulnerable on this deal (§8: a game won this rubber; Chicago: the deal's
        place among the four, counted from this game's first deal)."""
        if self.chicago:
            return chicago_vulnerable(len(self.round_scores), self.dealer)
        return [g >= 1 for g in self.games]

    # --------------------------------------------------------------- taking umbrage (§3, U3)
    def legal_umbrage(self, seat: int) -> list[Action]:
        return [UMBRAGE, KEEP]

    def apply_umbrage(self, seat: int, action: Action) -> None:
        took = action.kind == "umbrage"
        self.my_umbrage = [*self.my_umbrage]
        self.my_umbrage[seat] = took
        self.emit(action.kind, seat, {}, 1 << seat)
        self.pending &= ~(1 << seat)
        if self.pending:
            return
        self.resolve_umbrage()

    def resolve_umbrage(self) -> None:
        """Both have decided: the dealer swaps with the spare on its right (the bridge-to-be),
        the other with the dummy-to-be; if anyone swapped, the spares are gathered, shuffled
        and dealt again (§3)."""
        took = list(self.my_umbrage)
        self.umbrage = took
        dealer = self.dealer
        spares = {dealer: self.bridge, 1 - dealer: self.dummy}  # the spare on each player's right
        for seat in (dealer, 1 - dealer):
            if took[seat]:
                old = self.hands[seat]
                new = 0
                for c in spares[seat]:
                    new |= 1 << c
                self.hands[seat] = new
                spares[seat] = list(iter_bits(old))
                self.given_up[seat] = old
        for seat in (dealer, 1 - dealer):
            if took[seat]:
                self.emit("took_umbrage", seat, {})
        if not any(took):
            self.emit("no_umbrage", -1, {})
        else:
            self.emit("respread", -1, {})
            gathered = spares[1 - dealer] + spares[dealer]
            if self.respread is not None:
                dummy, bridge = respread_cards(gathered, card_list(self.respread["dummy"]),
                                               card_list(self.respread["bridge"]))
                self.dummy, self.bridge = dummy[::-1], bridge[::-1]
            else:
                self.rng.shuffle(gathered)
                self.dummy, self.bridge = gathered[:HAND], gathered[HAND:]
            for seat in range(2):
                if took[seat]:
                    self.emit("new_hand", seat, {"cards": [card_str(c) for c in iter_bits(
                        self.hands[seat])]}, 1 << seat)
        self.my_umbrage = [False, False]
        self.phase = AUCTION
        self.turn = dealer  # the dealer calls first (§5.1)

    # --------------------------------------------------------------- the auction (§5)
    def legal_auction(self, seat: int) -> list[Action]:
        if self.auction and self.auction[-1][1] == "redouble":
            return [PASS]  # a redouble must be followed by a pass (§5.2, U12)
        if self.contract is None:
            return [*BIDS, PASS]
        low = bid_rank(self.contract)
        if self.must_bid:
            return list(BIDS[low:])  # repeat or raise (§5.4)
        out = [*BIDS[low + 1:], PASS]
        if seat != self.declarer and self.doubled == 0:
            out.append(DOUBLE)
        if seat == self.declarer and self.doubled == 1:
            out.append(REDOUBLE)
        return out

    def is_legal_auction(self, seat: int, action: Action) -> bool:
        """``legal_auction`` without building the list (True only for an action in it)."""
        kind = action.kind
        if action.cards:
            return False
        redoubled_last = bool(self.auction) and self.auction[-1][1] == "redouble"
        if kind == "pass":
            return not action.arg and not self.must_bid
        if redoubled_last:
            return False
        if kind == "bid":
            rank = BID_RANK.get(action.arg)
            if rank is None:
                return False
            if self.contract is None:
                return True
            low = bid_rank(self.contract)
            return rank >= low if self.must_bid else rank > low
        if action.arg or self.contract is None or self.must_bid:
            return False
        if kind == "double":
            return seat != self.declarer and self.doubled == 0
        if kind == "redouble":
            return seat == self.declarer and self.doubled == 1
        return False

    def apply_auction(self, seat: int, action: Action) -> None:
        self.auction.append([seat, str(action)])
        kind = action.kind
        if kind == "bid":
            bid = Contract.parse(action.arg)
            repeat = self.must_bid and bid == self.contract
            if not repeat:  # a new contract clears any double (U7)
                self.contract, self.declarer, self.doubled = bid, seat, 0
                self.trump = trump_of(bid)
            self.must_bid = False
            self.emit("bid", seat, {"bid": action.arg, "repeat": repeat})
            self.turn = 1 - seat
            return
        if kind in ("double", "redouble"):
            self.doubled += 1
            self.emit(kind, seat, {"bid": str(self.contract)})
            self.turn = 1 - seat
            return
        self.emit("pass", seat, {})
        if self.contract is None:
            if len(self.auction) >= 2:  # both passed: thrown in (U8)
                self.emit("thrown_in", -1, {})
                self.end_round()
                return
            self.turn = 1 - seat
            return
        if len(self.bridge) < 2:
            self.declare()  # U6: a pass with fewer than two cards in the bridge ends the auction
            return
        assert self.declarer is not None
        self.start_exchange(self.declarer, len(self.bridge) // 2)

    # --------------------------------------------------------------- draw rounds (§5.3)
    def start_exchange(self, seat: int, limit: int) -> None:
        self.phase = EXCHANGE
        self.turn = seat
        self.exchange_limit = limit
        self.exchange_count = 0
        if seat == self.declarer:
            self.first_draw = -1

    def legal_exchange(self, seat: int) -> list[Action]:
        if self.exchange_count >= self.exchange_limit:
            return [DONE]  # U13
        out = discard_actions(self.hands[seat])
        out.append(DONE)
        return out

    def is_legal_exchange(self, seat: int, action: Action) -> bool:
        if action.arg:
            return False
        if action.kind == "done":
            return not action.cards
        cards = action.cards
        return (action.kind == "discard" and cards > 0 and not cards & (cards - 1)
                and bool(cards & self.hands[seat]) and self.exchange_count < self.exchange_limit)

    def apply_exchange(self, seat: int, action: Action) -> None:
        if action.kind == "discard":
            card = action.card
            self.hands[seat] &= ~(1 << card)
            self.discards.append(card)
            self.discarded = [*self.discarded]
            self.discarded[seat] |= 1 << card
            self.exchange_count += 1
            self.emit("discard", seat, {"card": card_str(card)}, 1 << seat)
            return
        count = self.exchange_count
        got = 0
        for _ in range(count):
            c = self.bridge.pop()
            got |= 1 << c
        self.hands[seat] |= got
        self.drawn = [*self.drawn]
        self.drawn[seat] += count
        self.exchanges.append([seat, count])
        if count:
            self.emit("draw", seat, {"cards": [card_str(c) for c in iter_bits(got)]}, 1 << seat)
        self.emit("exchange", seat, {"count": count, "bridge": len(self.bridge)})
        self.exchange_count = 0
        if seat == self.declarer:
            self.first_draw = count
            limit = min(count, len(self.bridge)) if count else len(self.bridge) // 2  # §5.3, U5
            self.start_exchange(1 - seat, limit)
            return
        if self.first_draw == 0 and count == 0:
            self.declare()  # U6: nobody drew
            return
        assert self.declarer is not None
        self.phase = AUCTION
        self.turn = self.declarer
        self.must_bid = True
        self.exchange_limit = 0
        self.first_draw = -1

    # --------------------------------------------------------------- the play (§6)
    def declare(self) -> None:
        """The auction is over: the dummy is turned face up (U2) and the defender leads (§6.2)."""
        assert self.contract is not None and self.declarer is not None
        declarer = self.declarer
        self.dummy_exposed = True
        self.dummy.sort(reverse=True)  # face up, shown lowest first (top first is the list's end)
        self.must_bid = False
        self.exchange_limit = 0
        self.first_draw = -1
        self.emit("contract", declarer, {"bid": str(self.contract), "doubled": self.doubled})
        self.emit("dummy_shown", -1, {"cards": [card_str(c) for c in sorted(self.dummy)]})
        if self.honours:
            self.honours_held = [honours_points(h, self.trump) for h in self.hands]
        self.phase = PLAY
        self.leader = self.turn = 1 - declarer
        self.dummy_by = dummy_controller(self.control, self.leader, declarer)

    def clear_trick_hook(self) -> None:
        self.from_dummy = [False, False, False]  # three cards a trick, two seats

    def dummy_mask(self) -> int:
        m = 0
        for c in self.dummy:
            m |= 1 << c
        return m

    def after_play(self, seat: int, card: int) -> bool:
        self.next_step()
        return True

    def next_step(self) -> None:
        """After a card: the next player, the dummy (played by its controller), or the trick is
        complete."""
        k = len(self.trick)
        if k == 3:
            self.finish_trick()
            return
        step = trick_order(self.leader, self.dealer)[k]
        if step == DUMMY_STEP:
            assert self.dummy_by is not None
            self.phase = DUMMY
            self.turn = self.dummy_by
        else:
            self.phase = PLAY
            self.turn = step

    def choice_refusal(self, seat: int, action: Action) -> Refusal:
        """The auction's rules (§5: a bid beats the last; after a draw the last bidder must
        repeat or raise; a double of the other's bid, a redouble of one's own doubled bid, and
        nothing but a pass after a redouble), the exchange's limit (U13), following suit from the
        dummy."""
        kind = action.kind
        if self.phase == AUCTION:
            if self.auction and self.auction[-1][1] == "redouble":
                return Refusal("pass_after_redouble")
            if self.must_bid and kind in ("pass", "double", "redouble"):
                return Refusal("must_bid", {"contract": str(self.contract)})
            if kind == "bid" and self.contract is not None:
                return Refusal("bid_higher", {"contract": str(self.contract)})
            if kind == "double":
                return Refusal("double_own" if seat == self.declarer else
                               "no_bid_to_double" if self.contract is None else "doubled_once")
            if kind == "redouble":
                return Refusal("redouble_own_doubled")
        if self.phase == EXCHANGE and kind == "discard":
            return Refusal("discard_limit", {"limit": self.exchange_limit})
        if self.phase == DUMMY and kind == "play" and self.led >= 0 and self.dummy_mask() & SUIT_MASKS[self.led]:
            # the dummy holds the suit led, not the player choosing its card
            return Refusal("dummy_follow", {"suit": SUITS[self.led]})
        return super().choice_refusal(seat, action)

    def legal_dummy(self, seat: int) -> list[Action]:
        return play_actions(follow(self.dummy_mask(), self.led))

    def is_legal_dummy(self, seat: int, action: Action) -> bool:
        cards = action.cards
        return (action.kind == "play" and not action.arg and cards > 0 and not cards & (cards - 1)
                and bool(cards & follow(self.dummy_mask(), self.led)))

    def apply_dummy(self, seat: int, action: Action) -> None:
        card = action.card
        self.dummy.remove(card)
        self.trick.append(card)
        self.trick_seats.append(seat)  # the dummy's card wins for its controller (§6.6)
        self.from_dummy[len(self.trick) - 1] = True
        self.emit("play", seat, {"card": card_str(card), "dummy": True})
        self.next_step()

    def trick_winner(self) -> int:
        return winning_index(self.trick, self.led, self.trump)

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        assert self.declarer is not None
        self.dummy_by = dummy_controller(self.control, winner, self.declarer)
        if self.from_dummy[win]:
            self.counters["dummy_tricks"] += 1  # won by the dummy's card, for its controller

    # --------------------------------------------------------------- claims (U19: claim.py)
    def legal_actions(self, seat: int) -> Sequence[Action]:
        out = super().legal_actions(seat)
        if self.claims and self.phase == PLAY and out and claim_refusal(self, seat, CLAIM) is None:
            return (*out, CLAIM)
        return out

    def apply(self, seat: int, action: Action) -> None:
        if action.kind == "claim" and self.phase in (PLAY, DUMMY):  # in trick play
            make_claim(self, seat, action)
        else:
            super().apply(seat, action)

    def refusal(self, seat: int, action: Action) -> Refusal | None:
        if action.kind == "claim" and self.phase in (PLAY, DUMMY):  # in trick play
            return claim_refusal(self, seat, action)
        return super().refusal(seat, action)

    def legal_claim(self, seat: int) -> list[Action]:
        return [ACCEPT, REFUSE]

    def apply_claim(self, seat: int, action: Action) -> None:
        answer_claim(self, seat, action)

    # --------------------------------------------------------------- scoring (§8)
    def score_round(self) -> dict[str, Any]:
        return score_deal(self)

    def unfinished(self) -> dict[str, Any]:
        """A rubber stopped by the ``deals`` option before anyone won two games (§8.7)."""
        played = len(self.round_scores) + 1
        if self.chicago or not self.deal_limit or max(self.games) >= 2 or played < self.deal_limit:
            return {}
        if self.max_rounds is not None and played >= self.max_rounds:
            return {}  # U18: stopped by max_rounds (a deal studied on its own), not by the rubber's rule
        extra = unfinished_bonus(self.games, self.below[-1])
        self.above = [a + b for a, b in zip(self.above, extra)]
        for s in range(2):
            self.round_points[s] += extra[s]
        return {"unfinished": extra}

    def game_over(self) -> bool:
        if super().game_over():
            return True
        played = len(self.round_scores)
        if self.chicago:
            return played >= 4
        return max(self.games) >= 2 or bool(self.deal_limit and played >= self.deal_limit)

    # --------------------------------------------------------------- information
    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """A seat knows its own discards lie face down among the discards."""
        if seat is None or not 0 <= seat < 2 or not self.discarded[seat]:
            return []
        return [(Place("discards"), self.discarded[seat])]

    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """A seat that took umbrage knows its old hand went among the spares, so the other
        player holds none of it, as long as that player has drawn nothing from the bridge."""
        if self.given_up[seat] and not self.drawn[1 - seat]:
            return [(Place.hand(1 - seat), self.given_up[seat])]
        return []

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        """Words for the score sheet: who is vulnerable, this game's part-scores, the deal."""
        vul = self.vulnerable
        obs["vulnerability"] = "both" if all(vul) else "one" if any(vul) else "none"
        obs["vulnerable_seat"] = vul.index(True) if any(vul) and not all(vul) else None
        obs["below_now"] = list(self.below[-1])
        obs["deal_no"] = len(self.round_scores) + 1
        obs["chicago"] = self.chicago

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        self.honours_held = [0, 0]  # unknown to the seat: a sampled world scores no honours
        self.respread = None


Umbridge.STATE = UmbridgeState

__all__ = ["BIDS", "DISCARDS", "DONE", "DOUBLE", "KEEP", "PASS", "REDOUBLE", "UMBRAGE", "Umbridge", "UmbridgeState",
           "bid_rank", "dummy_controller", "follow", "respread_cards", "trick_order", "trump_of",
           "winning_index"]
