"""Good Cop (David Parlett), exactly as ``rules.en.md``
says, with its rulings C1–C6.

A game on the kit (``torite.engine.kit``).  The two cards the dealer turns up are the pile
``turned`` (public; its top is the first card turned); the players dealt the jokers are the
good cops, each joker a :class:`Role` (``cop1`` holds ``JK1``, ``cop2`` ``JK2``), hidden from
the others until the joker is played.  The only decision is ``play``.

Explicit deals are the kit's: ``hands`` (four lists of 13 cards) and ``turned`` (the two turned
cards, the first one first); two turned jokers are refused (the pack would be shuffled again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import JOKER1, JOKER2, JOKERS_MASK, SUIT_MASKS, SUITS, card_str
from torite.engine.base import Bounds, OptionSpec, Refusal, house_rule
from torite.engine.kit import (
    INT,
    INTS,
    PLAY,
    REST,
    SEEN_BY_ALL,
    SUIT,
    Field,
    Pile,
    Place,
    Role,
    TrickState,
    View,
)

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.summary import row, step, summary
from torite.engine.trick import plain_winner

NUM_PLAYERS: Final = 4
HAND: Final = 13
TRUMP_MODE: Final = "trump"
WILD_MODE: Final = "wild"


def suits_from_turned(first: int, second: int) -> tuple[int, int]:
    """(trump, penalty suit) from the two turned cards (§3): the first's suit is trump, the
    second's the penalty suit; a joker lends the other card's suit to both.  Two jokers have no
    suits (the pack is shuffled again before that can happen)."""
    if first >= 52 and second >= 52:
        raise ValueError("two turned jokers fix no suit: shuffle again")
    if first >= 52:
        return second // 13, second // 13
    if second >= 52:
        return first // 13, first // 13
    return first // 13, second // 13


def winning_index(cards: Sequence[int], led: int, trump: int) -> int:
    """Index of the winning card (§6): the first joker played, else the highest trump, else the
    highest card of the suit led."""
    for i, c in enumerate(cards):
        if c >= 52:
            return i
    return plain_winner(cards, led, trump)


def follow_mask(hand: int, led: int, trump: int, wild: bool) -> int:
    """The cards of ``hand`` that may be played to a trick led in ``led`` (-1: leading), §5.

    ``joker = trump``: a joker belongs to the trump suit, so it follows a lead of trumps and may
    not be played to a plain suit the hand holds.  ``joker = wild``: a joker may always be
    played; otherwise the hand follows suit if it can."""
    if led < 0:
        return hand
    suit = SUIT_MASKS[led]
    if not wild and led == trump:
        suit |= JOKERS_MASK
    follow = hand & suit
    if not follow:
        return hand
    return follow | (hand & JOKERS_MASK) if wild else follow


def penalty_count(cards: Sequence[int], penalty: int) -> int:
    """Penalty-suit cards among ``cards`` (jokers never are)."""
    return sum(1 for c in cards if c < 52 and c // 13 == penalty)


def deal_scores(nets: Sequence[int], good: Sequence[int], lone_factor: int) -> list[int]:
    """Each seat's score for a deal (§7, ruling C2): the team's net for everyone, except a lone
    good cop, who records their net × ``lone_factor``."""
    n = len(nets)
    bad = [s for s in range(n) if s not in good]
    good_net = sum(nets[s] for s in good)
    bad_net = sum(nets[s] for s in bad)
    if len(good) == 1:
        good_net *= lone_factor
    return [good_net if s in good else bad_net for s in range(n)]


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class GoodCop(TrickGame):
    id = "good-cop"
    title = "Good Cop"
    OPTIONS = (
        OptionSpec("joker", TRUMP_MODE,
                   "jokers are the two top trumps (trump) or may be played to any trick (wild)",
                   choices=(TRUMP_MODE, WILD_MODE)),
        OptionSpec("lone_factor", 3, "a lone good cop's net for the deal is multiplied by this",
                   minimum=1, maximum=10),
        OptionSpec("deals", 4, "number of deals in a game", minimum=1, maximum=100),
        house_rule("penalty_points", 1, "points each penalty card in a trick taken costs", 1, 5),
    )
    BOT_READS = frozenset({"penalty_points"})
    PLAYERS = NUM_PLAYERS
    DECK = tuple(range(54))
    STAT_KEYS = ("lone_good_cop", "penalty_cards", "good_team_wins", "reshuffles", "wild_jokers")
    BOT = "torite.games.good_cop.bot:GoodCopBot"
    PILES = (Pile("turned", seen=SEEN_BY_ALL, deal=REST),)  # top = the first card turned
    FIELDS = (Field("trump", SUIT), Field("penalty", SUIT), Field("penalties", INTS))
    TRICK_FACTS = (View("penalty_cards", INT),)  # cards of the penalty suit in the trick
    ROLES = (Role("cop1", card_attr="joker1", revealed_attr="cop1_shown"),
             Role("cop2", card_attr="joker2", revealed_attr="cop2_shown"))

    @property
    def hand_size(self) -> int:
        return HAND

    def deal_chance(self) -> None:
        """Dealt card by card, two turned jokers could not be a deal (the pack is shuffled again
        until they are not, §3): a deal of Good Cop is the seed's."""
        return None

    def most_rounds(self) -> int | None:
        """The ``deals`` option."""
        return int(self.options["deals"])

    def bounds(self) -> Bounds:
        """From the scoring (C2): a side's net is its tricks minus the penalty cards in them.
        At least 11 penalty cards are in play (two turned) and a trick holds 4, so a side that
        takes t tricks nets at most 10 (t = 10, the other 3 tricks holding 12 of them) and at
        least t - min(13, 4t), -9 (t = 3 or 4); a lone good cop records its net times
        ``lone_factor``.  With the house rule ``penalty_points`` p a penalty card costs p: still
        10 at most (clean tricks), at least 4 - 13p (t = 4).  Decisions: the 52 cards."""
        factor, p = self.options["lone_factor"], self.options["penalty_points"]
        return Bounds(((4 - 13 * p) * factor, 10 * factor), 52)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class GoodCopState(TrickState[GoodCop]):
    joker1: Final = JOKER1  # the cards of the two roles
    joker2: Final = JOKER2
    turned: list[int]
    trump: int
    penalty: int
    penalties: list[int]  # per seat, penalty cards in the tricks it has won this deal
    cop1: int  # the seat dealt JK1 (-1: turned), hidden until played
    cop2: int
    cop1_shown: bool
    cop2_shown: bool
    reshuffles: int = 0  # times the pack was shuffled again before this deal (two turned jokers)

    def setup_options(self) -> None:
        opts = self.game.options
        self.wild: bool = opts["joker"] == WILD_MODE
        self.lone_factor: int = opts["lone_factor"]
        self.penalty_points: int = opts["penalty_points"]  # a house rule (1)
        deals: int = opts["deals"]
        self.limit = deals if self.max_rounds is None else min(deals, self.max_rounds)

    # --------------------------------------------------------------- the deal
    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        if all(c >= 52 for c in piles["turned"]):
            raise ValueError(f"{where}: the two turned cards may not both be jokers "
                             "(the pack would be shuffled again)")

    def void_deal(self, hands: list[int]) -> bool:
        """Two turned jokers fix no suit: the whole pack is shuffled again (§3)."""
        if all(c >= 52 for c in self.turned):
            self.reshuffles += 1
            self.counters["reshuffles"] += 1
            return True
        return False

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        first, second = self.turned[-1], self.turned[-2]  # the top was turned first
        self.trump, self.penalty = suits_from_turned(first, second)
        holders = []
        for joker in (JOKER1, JOKER2):
            holders.append(next((s for s, h in enumerate(self.hands) if h >> joker & 1), -1))
        self.cop1, self.cop2 = holders
        # a turned joker is held by nobody, which everyone sees
        self.cop1_shown, self.cop2_shown = self.cop1 < 0, self.cop2 < 0
        self.penalties = [0] * NUM_PLAYERS
        self.phase = PLAY
        self.emit("turn", -1, {
            "cards": [card_str(first), card_str(second)], "trump": SUITS[self.trump],
            "penalty": SUITS[self.penalty], "joker_turned": first >= 52 or second >= 52,
            "reshuffles": self.reshuffles})
        self.reshuffles = 0

    # --------------------------------------------------------------- play
    def playable(self, seat: int) -> int:
        return follow_mask(self.hands[seat], self.led if self.trick else -1, self.trump, self.wild)

    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        if card < 52:
            return {"card": card_str(card)}
        if len(self.trick) == 1:
            self.led = self.trump  # a led joker is a lead of trumps (§5)
        elif not self.wild and self.led != self.trump:
            self.voids[seat] |= 1 << self.led  # only a player out of the suit led may play it
        elif self.wild and self.led != self.trump and self.hands[seat] & SUIT_MASKS[self.led]:
            self.counters["wild_jokers"] += 1  # played instead of following suit: only wild allows it
        if card == JOKER1:
            self.cop1_shown = True
        else:
            self.cop2_shown = True
        data: dict[str, Any] = {"card": card_str(card), "good_cop": True}
        if self.cop1_shown and self.cop2_shown:
            good = self.good_cops()
            data["good"] = good[0]
            data["partner"] = good[1] if len(good) > 1 else None
        return data

    def play_refusal(self, seat: int, card: int) -> Refusal:
        """With ``joker=trump`` a joker belongs to the trump suit (§5): it follows a lead of
        trumps and may not be played to a plain suit the hand holds."""
        led = self.led
        if card >= 52 and not self.wild and led >= 0 and led != self.trump:
            return Refusal("joker_is_trump", {"suit": SUITS[led], "trump": SUITS[self.trump]})
        if led >= 0 and led == self.trump and not self.wild:
            return Refusal("follow_trump", {"suit": SUITS[led]})
        return super().play_refusal(seat, card)

    def trick_winner(self) -> int:
        return winning_index(self.trick, self.led, self.trump)

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        pen = penalty_count(self.trick, self.penalty)
        self.penalties[winner] += pen
        self.counters["penalty_cards"] += pen
        record["penalty_cards"] = pen

    # --------------------------------------------------------------- scoring
    def good_cops(self) -> list[int]:
        """The seats dealt a joker (in the state: known to the rules, not to every seat)."""
        return sorted({self.cop1, self.cop2} - {-1})

    def score_round(self) -> dict[str, Any]:
        nets = [self.tricks_won[s] - self.penalty_points * self.penalties[s] for s in range(NUM_PLAYERS)]
        good = self.good_cops()
        bad = [s for s in range(NUM_PLAYERS) if s not in good]
        scores = deal_scores(nets, good, self.lone_factor)
        for s in range(NUM_PLAYERS):
            self.round_points[s] += scores[s]
        lone = len(good) == 1
        self.counters["lone_good_cop"] += lone
        self.counters["good_team_wins"] += scores[good[0]] > scores[bad[0]]
        steps = []
        for s in range(NUM_PLAYERS):
            team = good if s in good else bad
            seat_steps = [step("team_net", sum(nets[t] for t in team), "=")]
            if lone and s in good:
                seat_steps.append(step("lone_factor", self.lone_factor))
            steps.append(seat_steps)
        return {"tricks": list(self.tricks_won), "penalty_cards": list(self.penalties), "nets": nets,
                "good": good, "bad": bad, "lone": lone, "factor": self.lone_factor,
                "summary": summary([row("tricks", self.tricks_won, adds=False),
                                    row("penalty_cards", self.penalties, adds=False),
                                    row("nets", nets, adds=False)], steps)}

    def game_over(self) -> bool:
        return len(self.round_scores) >= self.limit

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The good cops and the bad cops of the current deal, once everyone knows them (at the
        latest when its last joker is played); a game's result names its last deal's teams."""
        if not (self.cop1_shown and self.cop2_shown):
            return ()
        good = self.good_cops()
        return tuple(good), tuple(s for s in range(NUM_PLAYERS) if s not in good)

    # --------------------------------------------------------------- information
    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """With ``joker = trump`` a joker follows trumps: a player who did not follow a lead of
        trumps holds no joker."""
        if self.wild:
            return []
        return [(Place.hand(s), JOKERS_MASK) for s in range(NUM_PLAYERS)
                if self.voids[s] >> self.trump & 1]


GoodCop.STATE = GoodCopState

__all__ = ["SUITS", "TRUMP_MODE", "WILD_MODE", "GoodCop", "GoodCopState", "deal_scores", "follow_mask",
           "penalty_count", "suits_from_turned", "winning_index"]
