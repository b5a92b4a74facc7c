"""Galapagos (Glapgos, David Parlett), exactly as ``rules.en.md`` says: two players, one deal in
three scored phases.

1. **Auction** (13 turns): both bid a card at once (``bid C``, hidden until both are in); the
   higher rank wins, equal ranks by suit, colour, then parity with the faced card; the winner
   chooses ``take FACED`` (the loser gets the unseen card under it) or ``take UNSEEN``.  Bids go
   to their bidder's bid pile; then each hand scores its best melds (``melds.py``) and is shown.
2. **Tricks**: the revised hands, no trumps, follow suit; only the player with an odd number of
   tricks scores, 10 + its tricks.
3. **Play-off**: the bid piles become the hands; climbing with singles and same-rank sets
   (``play C C …`` or ``pass``); the first out scores 10 + the cards the other still holds.

After each phase the 100 bonus (100 / 50 / 30) goes to a player whose score for the deal has
reached 100 while the other's has not, once a deal.  The game ends after the deal in which a
total reaches ``target`` and the totals differ.

The stock is a pile seen by all whose cards lie face down except its top (the faced card), so
the kit derives the observation and the sampled worlds.  ``shown`` holds, per seat, the cards of
its hand everyone knows (faced cards it took; after the auction its whole hand), which ``pins``
keeps in place in sampled worlds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import card_str, iter_bits
from torite.engine.base import Action, Bounds, OptionSpec, Refusal, house_rule
from torite.engine.kit import (
    CARD,
    CARD_TEXTS,
    INTS,
    LIST,
    OVER,
    PLAY,
    REST,
    SEAT_CARDS,
    SEEN_BY_ALL,
    Field,
    Pile,
    Place,
    TrickState,
    word,
)

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Card, Cards, Choice, Phase, Word
from torite.engine.summary import row, summary
from torite.games.glapgos.melds import RANK_MASKS, best_melds

NUM_PLAYERS: Final = 2
HAND: Final = 13
BID: Final = "bid"
TAKE: Final = "take"
PLAYOFF: Final = "playoff"
BIDS: Final = tuple(Action("bid", 1 << c) for c in range(52))
TAKE_FACED: Final = Action("take", 0, "FACED")
TAKE_UNSEEN: Final = Action("take", 0, "UNSEEN")
PASS: Final = Action("pass")
#: the 100 bonus by phase (1 melds, 2 tricks, 3 play-off)
BONUS: Final = {1: 100, 2: 50, 3: 30}
BONUS_AT: Final = 100


def colour(suit: int) -> int:
    """0 black (clubs, spades), 1 red (diamonds, hearts)."""
    return suit in (1, 2)


def parity(suit: int) -> int:
    """1 major (spades, hearts), 0 minor (clubs, diamonds)."""
    return suit >= 2


def auction_winner(bids: tuple[int, int] | list[int], faced: int) -> tuple[int, str]:
    """The seat whose bid wins against the faced card, and what decided it: ``rank``, or for
    equal ranks ``suit``, ``colour`` or ``parity`` with the faced card (two different suits
    always differ in one of these: one of them matches the faced card's)."""
    a, b = bids
    if a % 13 != b % 13:
        return (0 if a % 13 > b % 13 else 1), "rank"
    f = faced // 13
    sa, sb = a // 13, b // 13
    for name, key in (("suit", lambda s: s), ("colour", colour), ("parity", parity)):
        ma, mb = key(sa) == key(f), key(sb) == key(f)
        if ma != mb:
            return (0 if ma else 1), name
    raise AssertionError("two bids of one rank and different suits always differ")


def odd_trick_points(tricks: list[int] | tuple[int, ...]) -> list[int]:
    """Phase 2 (ruling G2): the player with an odd number of tricks scores 10 + its tricks."""
    return [10 + t if t % 2 else 0 for t in tricks]


def bonus_due(points: list[int] | tuple[int, ...], phase: int, given: bool,
              bonus: Mapping[int, int] = BONUS, at: int = BONUS_AT) -> list[int]:
    """The 100 bonus at the end of ``phase`` (ruling G7): to the one player whose score for the
    deal (``points``, the phases so far) has reached 100 while the other's has not, unless a
    bonus was given this deal already.  ``bonus`` and ``at``: the house rules' (by default the
    rules' 100, 50 and 30 at 100)."""
    out = [0, 0]
    if given:
        return out
    reached = [p >= at for p in points]
    if reached[0] != reached[1]:
        out[0 if reached[0] else 1] = bonus[phase]
    return out


def _sets_of(same: int) -> tuple[tuple[int, Action], ...]:
    """Every non-empty subset of ``same`` (cards of one rank) as (size, play action)."""
    out = []
    sub = same
    while sub:
        out.append((sub.bit_count(), Action("play", sub)))
        sub = (sub - 1) & same
    out.sort(key=lambda x: (x[0], x[1].cards))
    return tuple(out)


#: by the mask of a hand's cards of a rank: every play-off set they make, (size, action)
SETS_OF: Final[dict[int, tuple[tuple[int, Action], ...]]] = {}
for _rank_cards in RANK_MASKS:
    _sub = _rank_cards
    while _sub:
        SETS_OF[_sub] = _sets_of(_sub)
        _sub = (_sub - 1) & _rank_cards


def climb_legal(hand: int, size: int, rank: int) -> list[Action]:
    """The play-off choices: a lead (``size`` 0) is any set of a rank (each distinct set of cards
    its own action: three 7s give three pairs of 7s); a reply is a set of the same size and a
    higher rank, or ``pass``."""
    out: list[Action] = []
    sets_of = SETS_OF
    if size == 0:
        for m in RANK_MASKS:
            same = hand & m
            if same:
                out.extend(a for _, a in sets_of[same])
        return out
    for m in RANK_MASKS[rank + 1:]:
        same = hand & m
        if same.bit_count() >= size:
            out.extend(a for k, a in sets_of[same] if k == size)
    out.append(PASS)
    return out


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Glapgos(TrickGame):
    id = "glapgos"
    title = "Galapagos"
    OPTIONS = (
        OptionSpec("meld_values", "pips", "what a meld card scores: its pip value (ace 11, or 1 "
                   "at the low end of a run), or 1 point a card", choices=("pips", "cards")),
        OptionSpec("target", 500, "the game ends after the deal in which a total reaches this",
                   minimum=1, maximum=100000),
        house_rule("bonus_at", 100, "the deal's score that earns the bonus", 1, 300),
        house_rule("melds_bonus", 100, "the bonus when it is earned after the melds", 0, 300),
        house_rule("tricks_bonus", 50, "the bonus when it is earned after the tricks", 0, 300),
        house_rule("playoff_bonus", 30, "the bonus when it is earned after the play-off", 0, 300),
    )
    PLAYERS = NUM_PLAYERS
    STAT_KEYS = ("meld_points", "trick_points", "playoff_points", "bonus", "bid_ties", "melds", "playoff_passes")
    BOT = "torite.games.glapgos.bot:GlapgosBot"
    PHASES = (
        Phase(BID, (Card("bid"),), simultaneous=True),  # both bid a card of the hand at once
        Phase(TAKE, (Choice("take", ("FACED", "UNSEEN"), "word"),)),
        Phase(PLAY, (Card("play"),)),
        Phase(PLAYOFF, (Cards("play", (1, 2, 3, 4), same_rank=True), Word("pass"))),
    )
    PILES = (
        Pile("stock", seen=SEEN_BY_ALL, face_down="stock_down", deal=REST),  # top (last) card face up
        Pile("bid_pile_0", seen=SEEN_BY_ALL, top_first=False),
        Pile("bid_pile_1", seen=SEEN_BY_ALL, top_first=False),
        Pile("climb", seen=SEEN_BY_ALL, top_first=False),  # the play-off cards on the table now
        Pile("cleared", seen=SEEN_BY_ALL, top_first=False),  # play-off cards cleared after a pass
    )
    FIELDS = (
        Field("faced", CARD, key="faced_card"),
        Field("bid", CARD, key="your_bid", private=True),  # until both bids are in
        Field("last_bids", CARD_TEXTS),  # the turn's two bids, by seat, once both are in
        Field("auction", LIST),  # every revealed bid of the deal: [[seat, "bid QC"], ...], two a turn
        Field("bid_winner"),  # the seat whose bid won this turn (-1 none yet)
        Field("tie_break", word("rank", "suit", "colour", "parity")),  # what decided it ("" none yet)
        Field("auction_turn"),  # 1..13
        Field("shown", SEAT_CARDS, key="known_hands"),  # cards of each hand everyone knows
        Field("melds", LIST),  # per seat, its scoring melds (lists of card texts)
        Field("meld_cards", SEAT_CARDS),  # per seat, the cards of its melds
        Field("meld_points", INTS),
        Field("climb_last", CARD_TEXTS),  # the play-off play to beat (card texts), [] to lead
        Field("climb_by"),  # its player (-1: a new lead)
        Field("bonus_seat"),  # who got this deal's 100 bonus (-1: nobody yet)
        Field("bonus_points"),  # and how much
    )
    # the search levels leave the auction to the rule bot: a search serialises the two secret bids
    # (the second bidder's node sees the first) and judges a bid by a hundred random actions
    # (hard − normal: −26 [−59, +6] a deal searching everything).  From the first trick on the
    # deal is open (ruling R1) and the rule bot's ``exact`` solves it (solver.py): the search
    # levels play that answer and search only when its node budget runs out (hard − normal
    # +8.38 [+5.74, +11.02] a deal, 100 paired deals of bench_one_seat, seed 5000; searching the
    # open phases instead it was −4.9 ± 10.2 over 30)
    RULE_BOT_PHASES = frozenset({BID, TAKE})

    @property
    def hand_size(self) -> int:
        return HAND

    def bounds(self) -> Bounds:
        """From the three phases and the bonus: melds of 13 cards score at most the 13 highest
        pip values, 4 × 11 + 9 × 10 = 134 (13 with ``meld_values = cards``); the tricks at most
        10 + 13; the play-off at most 10 + 13 cards left; one 100 bonus; nothing below 0.
        Decisions: 13 auction turns of two bids and a take, 26 cards in tricks, and in the
        play-off at most 26 plays (one card or more each), each answered by at most one pass."""
        melds = 13 if self.options["meld_values"] == "cards" else 4 * 11 + 9 * 10
        return Bounds((0, melds + 23 + 23 + max(self.bonus.values())), 13 * 3 + 26 + 2 * 26)

    @property
    def bonus(self) -> dict[int, int]:
        """The bonus by phase under the house rules (1 melds 100, 2 tricks 50, 3 play-off 30)."""
        o = self.options
        return {1: o["melds_bonus"], 2: o["tricks_bonus"], 3: o["playoff_bonus"]}


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class GlapgosState(TrickState[Glapgos]):
    stock: list[int]
    stock_down: list[bool]
    bid_pile_0: list[int]
    bid_pile_1: list[int]
    climb: list[int]
    cleared: list[int]
    bid: list[int]
    last_bids: list[str]
    auction: list[list[Any]]
    shown: list[int]
    melds: list[list[list[str]]]
    meld_cards: list[int]
    meld_points: list[int]
    climb_last: list[str]

    def setup_options(self) -> None:
        opts = self.game.options
        self.by_cards: bool = opts["meld_values"] == "cards"
        self.target: int = opts["target"]

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.bid = [-1, -1]
        self.last_bids = []
        self.auction = []
        self.bid_winner = -1
        self.tie_break = ""
        self.auction_turn = 0
        self.shown = [0, 0]
        self.melds = [[], []]
        self.meld_cards = [0, 0]
        self.meld_points = [0, 0]
        self.climb_last = []
        self.climb_by = -1
        self.bonus_seat = -1
        self.bonus_points = 0
        self.stock_down = [True] * len(self.stock)
        self._next_auction_turn()

    # --------------------------------------------------------------- phase 1: the auction
    def _next_auction_turn(self) -> None:
        self.faced = self.stock[-1]
        self.stock_down[-1] = False
        self.auction_turn += 1
        self.phase = BID
        self.pending = 3
        self.emit("faced", -1, {"card": card_str(self.faced), "turn": self.auction_turn,
                                               "stock_size": len(self.stock)})

    def legal_bid(self, seat: int) -> list[Action]:
        return [BIDS[c] for c in iter_bits(self.hands[seat])]

    def is_legal_bid(self, seat: int, action: Action) -> bool:
        cards = action.cards
        return (action.kind == "bid" and not action.arg and cards.bit_count() == 1
                and bool(cards & self.hands[seat]))

    def apply_bid(self, seat: int, action: Action) -> None:
        card = action.card
        self.bid[seat] = card
        self.pending &= ~(1 << seat)
        self.emit("bid", seat, {"card": card_str(card)}, 1 << seat)
        if self.pending:
            return
        bids = (self.bid[0], self.bid[1])
        winner, why = auction_winner(bids, self.faced)
        if why != "rank":
            self.counters["bid_ties"] += 1
        for s, c in enumerate(bids):
            self.hands[s] &= ~(1 << c)
            self.shown[s] &= ~(1 << c)
            (self.bid_pile_0 if s == 0 else self.bid_pile_1).append(c)
        self.bid = [-1, -1]
        self.last_bids = [card_str(c) for c in bids]
        self.auction = [*self.auction, *([s, f"bid {t}"] for s, t in enumerate(self.last_bids))]
        self.bid_winner = winner
        self.tie_break = why
        self.emit("bids", winner, {"cards": list(self.last_bids), "decided_by": why,
                                                  "faced": card_str(self.faced)})
        self.phase = TAKE
        self.turn = winner

    def legal_take(self, seat: int) -> list[Action]:
        return [TAKE_FACED, TAKE_UNSEEN]

    def apply_take(self, seat: int, action: Action) -> None:
        faced = self.stock.pop()
        unseen = self.stock.pop()
        self.stock_down.pop()
        self.stock_down.pop()
        other = 1 - seat
        taker_unseen = other if action.arg == "FACED" else seat
        gets_faced = 1 - taker_unseen
        self.hands[gets_faced] |= 1 << faced
        self.hands[taker_unseen] |= 1 << unseen
        self.shown[gets_faced] |= 1 << faced
        self.faced = -1
        self.emit("take", seat, {"choice": action.arg.lower(), "faced": card_str(faced),
                                                "faced_to": gets_faced})
        self.emit("unseen", taker_unseen, {"card": card_str(unseen)}, 1 << taker_unseen)
        if self.stock:
            self._next_auction_turn()
        else:
            self._score_melds()

    def _score_melds(self) -> None:
        """The end of the auction: each revised hand scores its best melds and is shown."""
        for s in range(NUM_PLAYERS):
            points, melds = best_melds(self.hands[s], self.by_cards)
            self.meld_points[s] = points
            self.melds[s] = [m.texts() for m in melds]
            self.meld_cards[s] = sum(m.cards for m in melds)
            self.round_points[s] += points
            self.counters["meld_points"] += points
            self.counters["melds"] += len(melds)
        self.shown = list(self.hands)
        self.emit("melds", -1, {"melds": [[list(m) for m in x] for x in self.melds],
                                               "meld_cards": [[card_str(c) for c in iter_bits(m)]
                                                              for m in self.meld_cards],
                                               "points": list(self.meld_points),
                                               "hands": [[card_str(c) for c in iter_bits(h)] for h in self.hands]})
        self._bonus(1)
        self.bid_winner = -1
        self.tie_break = ""
        self.last_bids = []
        self.phase = PLAY
        self.leader = self.turn = (self.dealer + 1) % NUM_PLAYERS  # ruling G5

    def _bonus(self, phase: int) -> None:
        game = self.game
        got = bonus_due(self.round_points, phase, self.bonus_seat >= 0, game.bonus, game.options["bonus_at"])
        for s in range(NUM_PLAYERS):
            if got[s]:
                self.bonus_seat = s
                self.bonus_points = got[s]
                self.round_points[s] += got[s]
                self.counters["bonus"] += got[s]
                self.emit("bonus", s, {"points": got[s], "phase": phase})

    # --------------------------------------------------------------- phase 2: the tricks
    def trick_winner(self) -> int:
        a, b = self.trick
        return 1 if b // 13 == a // 13 and b > a else 0

    def winning_now(self) -> int | None:
        return 0 if len(self.trick) == 1 else self.trick_winner()

    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        self.shown[seat] &= ~(1 << card)
        return {"card": card_str(card)}

    def round_over(self) -> bool:
        """After the 13th trick: score it and start the play-off (the round goes on)."""
        if self.hands[0] or self.hands[1]:
            return False
        points = odd_trick_points(self.tricks_won)
        for s in range(NUM_PLAYERS):
            self.round_points[s] += points[s]
            self.counters["trick_points"] += points[s]
        self.emit("tricks_scored", -1, {"tricks": list(self.tricks_won), "points": points})
        self._bonus(2)
        self._start_playoff()
        return False

    # --------------------------------------------------------------- phase 3: the play-off
    def _start_playoff(self) -> None:
        self.hands = [sum(1 << c for c in self.bid_pile_0), sum(1 << c for c in self.bid_pile_1)]
        self.bid_pile_0 = []
        self.bid_pile_1 = []
        self.shown = list(self.hands)
        self.voids = [0, 0]
        self.phase = PLAYOFF
        self.leader = self.turn = (self.dealer + 1) % NUM_PLAYERS  # ruling G5
        self.climb_last = []
        self.climb_by = -1
        self.emit("playoff", self.turn, {
            "hands": [[card_str(c) for c in iter_bits(h)] for h in self.hands]})

    def _climb_to_beat(self) -> tuple[int, int]:
        return (len(self.climb_last), self.climb[-1] % 13) if self.climb_last else (0, -1)

    def legal_playoff(self, seat: int) -> list[Action]:
        size, rank = self._climb_to_beat()
        return climb_legal(self.hands[seat], size, rank)

    def choice_refusal(self, seat: int, action: Action) -> Refusal:
        """The play-off (§7): a lead is any set of one rank; a reply is as many cards of a higher
        rank, or a pass; a lead cannot be passed."""
        if self.phase != PLAYOFF:
            return super().choice_refusal(seat, action)
        size = self._climb_to_beat()[0]
        if action.kind == "pass":
            return Refusal("lead_no_pass")
        cards = action.cards
        if cards and not cards & ~self.hands[seat] and cards & ~RANK_MASKS[(cards.bit_length() - 1) % 13]:
            return Refusal("one_rank")
        # a rank too low says so whatever the count: no set of it can beat the play
        if size and cards and (cards.bit_length() - 1) % 13 <= self._climb_to_beat()[1]:
            return Refusal("climb_higher", {"cards": list(self.climb_last)})
        if size and cards.bit_count() != size:
            return Refusal("climb_count", {"count": size})
        if size:
            return Refusal("climb_higher", {"cards": list(self.climb_last)})
        return super().choice_refusal(seat, action)

    def is_legal_playoff(self, seat: int, action: Action) -> bool:
        cards = action.cards
        size, rank = self._climb_to_beat()
        if action.kind == "pass":
            return size > 0 and not cards and not action.arg
        if action.kind != "play" or action.arg or not cards or cards & ~self.hands[seat]:
            return False
        r = (cards.bit_length() - 1) % 13
        if cards & ~RANK_MASKS[r]:
            return False
        return size == 0 or (cards.bit_count() == size and r > rank)

    def apply_playoff(self, seat: int, action: Action) -> None:
        other = 1 - seat
        if action.kind == "pass":
            self.counters["playoff_passes"] += 1
            self.cleared.extend(self.climb)
            self.climb = []
            self.climb_last = []
            self.climb_by = -1
            self.leader = self.turn = other
            self.emit("pass", seat, {"leads": other})
            return
        cards = list(iter_bits(action.cards))
        self.hands[seat] &= ~action.cards
        self.shown[seat] &= ~action.cards
        self.climb.extend(cards)
        self.climb_last = [card_str(c) for c in cards]
        self.climb_by = seat
        self.emit("climb", seat, {"cards": list(self.climb_last), "left": self.hands[seat].bit_count()})
        if self.hands[seat]:
            self.turn = other
            return
        left = self.hands[other].bit_count()
        points = 10 + left
        self.round_points[seat] += points
        self.counters["playoff_points"] += points
        self.emit("out", seat, {"points": points, "left": left})
        self._bonus(3)
        self.end_round()

    # --------------------------------------------------------------- the deal and the game
    def score_round(self) -> dict[str, Any]:
        """The round-end event carries each seat's points by phase (the table's round summary),
        which add up to its points."""
        bonus = [0, 0]
        if self.bonus_seat >= 0:
            bonus[self.bonus_seat] = self.bonus_points
        tricks = odd_trick_points(self.tricks_won)
        playoff = [self.round_points[s] - self.meld_points[s] - tricks[s] - bonus[s] for s in range(NUM_PLAYERS)]
        return {"melds": list(self.meld_points), "tricks": tricks, "playoff": playoff, "bonus": bonus,
                "summary": summary([row("melds", self.meld_points), row("tricks", tricks), row("playoff", playoff),
                                    row("bonus", bonus)])}

    def game_over(self) -> bool:
        return super().game_over() or (max(self.scores) >= self.target and self.scores[0] != self.scores[1])

    # --------------------------------------------------------------- information
    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """Each hand's cards everyone knows (faced cards taken; after the auction, all)."""
        return [(Place.hand(s), m) for s, m in enumerate(self.shown) if m and s != seat]

    def arrange(self, rng: Any) -> None:
        """A sampled world in the auction: an opponent that has bid already bid some card of
        its sampled hand (which one is hidden, so any is as likely)."""
        if self.phase == BID:
            for s in range(NUM_PLAYERS):
                if not self.pending >> s & 1 and self.bid[s] < 0:
                    self.bid[s] = rng.choice(list(iter_bits(self.hands[s])))


Glapgos.STATE = GlapgosState

__all__ = ["BID", "OVER", "PASS", "PLAYOFF", "TAKE", "TAKE_FACED", "TAKE_UNSEEN", "Glapgos", "GlapgosState",
           "auction_winner", "bonus_due", "climb_legal", "odd_trick_points"]
