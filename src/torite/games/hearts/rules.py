"""Hearts exactly as OpenSpiel's ``hearts`` plays it with its default parameters.

OpenSpiel's ``hearts.cc`` is the specification (``rules.en.md`` says it in words).  Four
players (OpenSpiel's players 0–3 are torite's seats 0–3), 52 cards, 13 each.  A round:

* the pass direction (``none``, ``left`` = seat + 1, ``across`` = seat + 2, ``right`` = seat + 3)
  is uniform chance with ``target=0`` (OpenSpiel's first chance node) and the usual rotation
  left, right, across, none with a target (ruling H1);
* unless it is ``none``, every seat passes three cards, one ``pass 2C`` action at a time, all
  seats at once (ruling H2); the cards change hands when the twelfth card is chosen;
* the holder of 2♣ leads it; follow suit if you can; on the first trick a seat that cannot
  follow may not discard a heart or Q♠ unless it has nothing else; hearts may not be led until
  a heart or Q♠ has been played, unless the hand holds only hearts;
* a round's score is the penalty points taken (a heart 1, Q♠ 13; a seat taking all 26 scores
  0 and every other seat 26), so OpenSpiel's return is ``26 - points``.

House rules (``-o heart_points=2 -o queen_points=10``) change what a heart and Q♠ cost; the
moon is then every point card, whatever the total, and the return the total minus the points.

``target=0`` is OpenSpiel's single deal; ``target=100`` plays rounds until a total reaches 100
and the lowest total wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import CARD_TEXTS, SUIT_MASKS, card_str, iter_bits, mask_of_texts
from torite.engine.base import Action, Bounds, OptionSpec, Refusal, Result, house_rule
from torite.engine.kit import BOOL, CARDS, INTS, OVER, PLAY, DealChance, Field, Place, TrickState, word

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Card, Phase
from torite.engine.summary import row, summary

NUM_PLAYERS: Final = 4
HAND: Final = 13
PASS_CARDS: Final = 3
TWO_CLUBS: Final = 0
QUEEN_SPADES: Final = 3 * 13 + 10  # QS
HEARTS_MASK: Final = SUIT_MASKS[2]
POINTS_MASK: Final = HEARTS_MASK | 1 << QUEEN_SPADES
TOTAL_POINTS: Final = 26
#: penalty points of each card: a heart 1, Q♠ 13
CARD_POINTS: Final = tuple(1 if 26 <= c < 39 else 13 if c == QUEEN_SPADES else 0 for c in range(52))
#: OpenSpiel's pass directions in its chance-outcome order (the index is the seat offset)
DIRECTIONS: Final = ("none", "left", "across", "right")
#: the direction of round r of a game with a target: DIRECTIONS[ROTATION[r % 4]] (ruling H1)
ROTATION: Final = (1, 3, 2, 0)
PASS: Final = "pass"
PASS_ACTIONS: Final = tuple(Action(PASS, 1 << c) for c in range(52))
CARD_TEXT: Final = CARD_TEXTS[:52]


def trick_winner_index(cards: list[int], led: int) -> int:
    """The highest card of the led suit wins (no trumps; within a suit a higher card is a
    higher int)."""
    win, best = 0, -1
    for i, c in enumerate(cards):
        if c // 13 == led and c > best:
            win, best = i, c
    return win


#: the ``pass`` actions of the cards of one suit, indexed by ``suit << 13 | bits`` (made as met:
#: a full table is 32,768 tuples, a game meets a few hundred): a legal-pass list is four lookups
_PASSES: Final[list[tuple[Action, ...] | None]] = [None] * (4 << 13)


def _passes(suit: int, bits: int) -> tuple[Action, ...]:
    found = tuple(PASS_ACTIONS[13 * suit + b] for b in range(13) if bits >> b & 1)
    _PASSES[suit << 13 | bits] = found
    return found


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Hearts(TrickGame):
    id = "hearts"
    title = "Hearts"
    OPTIONS = (
        OptionSpec("target", 0,
                   "0: OpenSpiel's single deal (pass direction by chance); 100: rounds until a "
                   "total reaches 100, pass direction in rotation, lowest total wins",
                   choices=(0, 100)),
        house_rule("heart_points", 1, "penalty points of each heart taken", 1, 5),
        house_rule("queen_points", 13, "penalty points of the queen of spades taken", 1, 26),
    )
    BOT_READS = frozenset({"heart_points", "queen_points"})
    PLAYERS = NUM_PLAYERS
    STAT_KEYS = ("moons", "tricks", "hold_rounds", "point_cards_passed")
    SCORE_SIGN = -1  # a score is penalty points: bots and the arena want fewer
    BOT = "torite.games.hearts.bot:HeartsBot"
    FIELDS = (
        Field("pass_direction", word(*DIRECTIONS)),  # none, left, across, right
        Field("hearts_broken", BOOL, derived=True),
        Field("pass_count", INTS),                 # cards each seat has chosen to pass (public)
        Field("passed", CARDS, private=True),    # the cards a seat passes (its own only)
        Field("received", CARDS, private=True),  # the cards it received, after the exchange
        Field("target"),
    )
    # the three cards to pass, one at a time, every seat at once
    PHASES = (Phase(PASS, (Card("pass"),), simultaneous=True), Phase(PLAY, (Card("play"),)))
    DEAL_EXTRAS = ("pass_direction",)

    @property
    def hand_size(self) -> int:
        return HAND

    @cached_property
    def card_points(self) -> tuple[int, ...]:
        """Penalty points of each card under the house rules (a heart 1, Q♠ 13 by default)."""
        heart, queen = self.options["heart_points"], self.options["queen_points"]
        return tuple(heart if 26 <= c < 39 else queen if c == QUEEN_SPADES else 0 for c in range(52))

    @cached_property
    def total_points(self) -> int:
        """Every point card's points together: 26, and what shooting the moon gives the others."""
        return sum(self.card_points)

    def bounds(self) -> Bounds:
        """OpenSpiel's ``hearts``: a deal scores 0 to 26 penalty points; 12 passes and 52 cards
        (its ``MaxGameLength``, 64).  The returns are its ``26 - points``, bounded as it bounds
        them, [0, 36] (``kMinScore``, ``kMaxScore``: its bound allows for the J♦ bonus option,
        -10, which its default game and this one do not play; the rules reach only 0 to 26), so
        that an algorithm scaled by the bounds behaves alike on both.  Under house rules: 0 to
        the total, the returns its allowance above it."""
        total = self.total_points
        return Bounds((0, total), NUM_PLAYERS * PASS_CARDS + 52, round_return=(0.0, total + 10.0))

    def deal_chance(self) -> DealChance:
        """OpenSpiel's chance: the pass direction (``target=0``; a game to 100 rotates it), then
        the cards; the dealer plays no part, and nothing is drawn after the deal."""
        words = () if self.options["target"] else (("pass_direction", DIRECTIONS),)
        return DealChance(words, dealer=False, later=False)

    def round_returns(self, points: Sequence[int]) -> tuple[float, ...]:
        """OpenSpiel's return of a deal: 26 (the total under house rules) minus the penalty points."""
        total = self.total_points
        return tuple(float(total - p) for p in points)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class HeartsState(TrickState[Hearts]):
    # Hearts' own attributes in slots too: read on every card, a slot is the fast read
    __slots__ = ("broken", "card_points", "pass_count", "pass_direction", "pass_offset", "passed", "queen_points",
                 "received", "target", "total_points")
    pass_direction: str
    pass_offset: int
    pass_count: list[int]
    passed: list[int]
    received: list[int]
    target: int
    broken: bool  # a heart or Q♠ was played in an earlier trick of this round
    card_points: tuple[int, ...]  # the house rules' points of each card
    queen_points: int
    total_points: int

    def setup_options(self) -> None:
        game = self.game
        self.target = game.options["target"]
        self.card_points, self.total_points = game.card_points, game.total_points
        self.queen_points = game.options["queen_points"]

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        d = deal.get("pass_direction")
        if d is not None and d not in DIRECTIONS:
            raise ValueError(f"{where}: pass_direction must be one of {', '.join(DIRECTIONS)}, not {d!r}")

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        chosen = deal.get("pass_direction") if deal else None
        # with a target the usual rotation; else OpenSpiel's first chance node, uniform
        offset = ROTATION[self.round_no % 4] if self.target else self.rng.randrange(4)
        if chosen is not None:
            offset = DIRECTIONS.index(chosen)
        self.pass_offset = offset
        self.pass_direction = DIRECTIONS[offset]
        self.pass_count = [0] * NUM_PLAYERS
        self.passed = [0] * NUM_PLAYERS
        self.received = [0] * NUM_PLAYERS
        self.broken = False
        self.emit("pass_direction", -1, {"direction": self.pass_direction})
        if offset:
            self.phase = PASS
            self.pending = (1 << NUM_PLAYERS) - 1
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.pending = 0
        for s in range(NUM_PLAYERS):
            if self.hands[s] & 1:  # 2C
                self.leader = self.turn = s

    # --------------------------------------------------------------- passing
    def legal_pass(self, seat: int) -> Sequence[Action]:
        m = self.hands[seat] & ~self.passed[seat]
        t = _PASSES
        c, d, h, sp = m & 8191, m >> 13 & 8191, m >> 26 & 8191, m >> 39 & 8191
        tc, td, th, ts = t[c], t[8192 | d], t[16384 | h], t[24576 | sp]
        return (*(_passes(0, c) if tc is None else tc), *(_passes(1, d) if td is None else td),
                *(_passes(2, h) if th is None else th), *(_passes(3, sp) if ts is None else ts))

    def is_legal_pass(self, seat: int, action: Action) -> bool:
        # a one-card ``pass`` of the deck: the game's own action for its card, or one equal to it
        card = action.cards.bit_length() - 1
        return (0 <= card < 52 and (PASS_ACTIONS[card] is action or PASS_ACTIONS[card] == action)
                and bool((self.hands[seat] & ~self.passed[seat]) >> card & 1))

    def apply_pass(self, seat: int, action: Action) -> None:
        self.passed[seat] |= action.cards
        self.pass_count[seat] += 1
        self.emit("pass", seat, {"card": CARD_TEXT[action.card]}, 1 << seat)
        if self.pass_count[seat] == PASS_CARDS:
            self.pending &= ~(1 << seat)
        if not self.pending:
            self._exchange()

    def _exchange(self) -> None:
        offset = self.pass_offset
        hands, passed = self.hands, self.passed
        for s in range(NUM_PLAYERS):
            hands[s] &= ~passed[s]
        for s in range(NUM_PLAYERS):
            to = (s + offset) % NUM_PLAYERS
            hands[to] |= passed[s]
            self.received[to] = passed[s]
        self.emit("exchange", -1, {"direction": self.pass_direction})
        for s in range(NUM_PLAYERS):
            giver = (s - offset) % NUM_PLAYERS
            self.emit("receive", s, {"cards": [card_str(c) for c in iter_bits(self.received[s])],
                                                    "giver": giver}, 1 << s)
        self._start_play()

    # --------------------------------------------------------------- play
    @property
    def hearts_broken(self) -> bool:
        """A heart or Q♠ has been played this round (OpenSpiel's ``qs_breaks_hearts``), in an
        earlier trick (``broken``, what the lead rule reads) or in this one."""
        if self.broken:
            return True
        played = 0
        for c in self.trick:
            played |= 1 << c
        return bool(POINTS_MASK & played)

    def playable(self, seat: int) -> int:
        """OpenSpiel's ``PlayLegalActions``: follow suit; failing that, no heart or Q♠ on the
        first trick while the hand has anything else; lead 2♣ to the first trick; lead no
        heart before one (or Q♠) is played unless the hand holds only hearts."""
        hand = self.hands[seat]
        if self.trick:
            follow = hand & SUIT_MASKS[self.led]
            if follow:
                return follow
            if not self.history:  # the first trick
                safe = hand & ~POINTS_MASK
                if safe:
                    return safe
            return hand
        if not self.history:  # the opening lead: 2C
            return hand & 1
        if not self.broken and hand & ~HEARTS_MASK:
            return hand & ~HEARTS_MASK
        return hand

    def play_refusal(self, seat: int, card: int) -> Refusal:
        """The opening lead is the 2♣; no heart or Q♠ on the first trick while the hand has
        anything else; no heart led before hearts are broken unless the hand holds only hearts."""
        hand = self.hands[seat]
        if self.trick:
            if hand & SUIT_MASKS[self.led]:
                return super().play_refusal(seat, card)
            return Refusal("no_points_first_trick")
        if not self.history:
            return Refusal("lead_two_clubs")
        return Refusal("hearts_not_broken")

    def trick_winner(self) -> int:
        return trick_winner_index(self.trick, self.led)

    def trick_points(self, win: int) -> int:
        pts = 0
        card_points = self.card_points
        for c in self.trick:
            pts += card_points[c]
        if pts:
            self.broken = True  # a heart or Q♠ in a trick breaks hearts for every later lead
        return pts

    def score_round(self) -> dict[str, Any]:
        pts = self.round_points
        before = list(pts)
        total, queen = self.total_points, self.queen_points
        moon = pts.index(total) if total in pts else None  # every point is worth 1 or more
        if moon is not None:
            for s in range(NUM_PLAYERS):
                pts[s] = 0 if s == moon else total
            self.counters["moons"] += 1
        # counted at the end: what a seat passed is private until then
        self.counters["hold_rounds"] += self.pass_offset == 0
        self.counters["point_cards_passed"] += sum((p & POINTS_MASK).bit_count() for p in self.passed)
        queens = [1 if before[s] >= queen and self._took_queen(s) else 0 for s in range(NUM_PLAYERS)]
        hearts = [before[s] - queen * queens[s] for s in range(NUM_PLAYERS)]
        per = self.card_points[26]
        rows = [row("hearts", hearts, count=[h // per for h in hearts], per=per),
                row("queen", [queen * q for q in queens], count=queens, per=queen)]
        if moon is not None:
            rows.append(row("moon", [pts[s] - before[s] for s in range(NUM_PLAYERS)]))
        return {"moon": moon, "returns": [total - p for p in pts], "summary": summary(rows)}

    def _took_queen(self, seat: int) -> bool:
        return any(t["winner"] == seat and CARD_TEXT[QUEEN_SPADES] in t["cards"] for t in self.history)

    def game_over(self) -> bool:
        if super().game_over() or not self.target:
            return True
        return max(self.scores) >= self.target

    def result(self) -> Result:
        """The lowest total wins; equal totals share the win."""
        low = min(self.scores)
        winners = tuple(s for s in range(NUM_PLAYERS) if self.scores[s] == low)
        return Result(tuple(self.scores), winners, tuple(self.round_scores), ())

    def returns(self) -> list[int]:
        """OpenSpiel's returns of the round in play or just scored: 26 (the total) minus the points."""
        pts = self.round_scores[-1] if self.phase == OVER and self.round_scores else self.round_points
        total = self.total_points
        return [total - p for p in pts]

    # --------------------------------------------------------------- information
    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """Everyone knows the seat to lead the first trick holds 2♣; after the exchange a seat
        knows the cards it passed are in the receiver's hand, until they are played."""
        if self.phase == PLAY and not self.history and not self.trick and seat != self.turn:
            return [(Place.hand(self.turn), 1 << TWO_CLUBS), *self._passed_pins(seat)]
        return self._passed_pins(seat)

    def _passed_pins(self, seat: int | None) -> list[tuple[Place, int]]:
        if seat is None or not 0 <= seat < NUM_PLAYERS or self.phase == PASS or not self.passed[seat]:
            return []
        played = 0
        for t in self.history:
            played |= mask_of_texts(t["cards"])
        for c in self.trick:
            played |= 1 << c
        left = self.passed[seat] & ~played
        if not left:
            return []
        return [(Place.hand((seat + self.pass_offset) % NUM_PLAYERS), left)]

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        self.pass_offset = DIRECTIONS.index(obs["pass_direction"])
        self.broken = any(t["points"] for t in obs["tricks"])

    def arrange(self, rng: random.Random) -> None:
        """A sampled world during the passing: a seat that has chosen cards whose choice the
        sampling seat cannot see passes that many cards of its sampled hand."""
        if self.phase != PASS:
            return
        for s in range(NUM_PLAYERS):
            missing = self.pass_count[s] - self.passed[s].bit_count()
            if missing > 0:
                free = list(iter_bits(self.hands[s] & ~self.passed[s]))
                for c in rng.sample(free, missing):
                    self.passed[s] |= 1 << c


Hearts.STATE = HeartsState

__all__ = ["CARD_POINTS", "DIRECTIONS", "OVER", "PASS", "QUEEN_SPADES", "ROTATION", "TOTAL_POINTS", "Hearts",
           "HeartsState", "trick_winner_index"]
