"""Seconds (David Parlett), exactly as ``rules.en.md`` says.

A game on the kit (``torite.engine.kit``).  Four players, 13 cards each, no trumps; the only
decision is ``play`` a card.  What changes from deal to deal is the *arrangement* (who is whose
partner or half-partner) and the scoring, both fixed by the deal's place in the schedule:
deal kind ``round mod D + 1`` (``D`` = 7, or 8 with ``edition=2021``), the round counted from
the first deal of the game.  The seats' compass names are fixed once, by the first dealer
(North, ruling S3): North is the seat that dealt (or would have dealt) round 0, so a state
started at a later round (``new_state(first_round=r, dealer=d)``, as the simulator's single
rounds are) knows its deal kind and its North from the round number and dealer alone.

The arrangement is public and derived, so the only hidden information is the hands.

Explicit deals are the kit's: ``{"hands": [4 lists of 13 cards]}``.

Stats (per round in ``torite simulate``): ``no_follow_tricks`` (tricks in which only the leader
played the led suit), ``tie_tricks`` (tricks decided by the tie-break of the nobody-followed
rule: the winning rank held by more than one card), ``points_deal_<k>`` (a seat's mean points
in deal kind ``k``, scaled by the schedule length so that, per round over whole schedules —
whole games, or single rounds in a multiple of 7 (8) — it is a seat's mean in a deal of that
kind; 0 for kind 8 in the classic edition).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.engine.base import Bounds, OptionSpec, Result, house_rule
from torite.engine.kit import BOOL, INTS, OVER, PLAY, SEAT, Field, TrickState, View, word

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.summary import row, step, summary

NUM_PLAYERS: Final = 4
HAND: Final = 13
COMPASS: Final = "NESW"  # compass position p = (seat - north) % 4, clockwise from the first dealer

#: the deal kinds of each edition, in schedule order
DEALS: Final = {"classic": 7, "2021": 8}
#: deal kind -> what the labels call its arrangement
ARRANGEMENTS: Final = ("", "partners", "partners", "partners", "left", "right", "win", "lose", "exact3")


def mate_position(kind: int, pos: int) -> int:
    """The compass position whose tricks multiply ``pos``'s in a deal of ``kind`` (-1: none).

    Deals 1–3 are partnerships (N+S, N+E, N+W); in deal 4 each player's half-partner is its
    left neighbour (the next clockwise), in deal 5 its right neighbour (the previous, ruling S5).
    """
    if kind == 1:
        return (pos + 2) % 4
    if kind == 2:
        return pos ^ 1  # N+E, S+W
    if kind == 3:
        return 3 - pos  # N+W, E+S
    if kind == 4:
        return (pos + 1) % 4
    if kind == 5:
        return (pos - 1) % 4
    return -1


def deal_scores(kind: int, tricks: Sequence[int], mates: Sequence[int], exact3_points: int) -> list[int]:
    """Each seat's points for a deal of ``kind`` from the tricks won (``mates[s]``: the seat
    whose tricks multiply ``s``'s, -1 for none)."""
    if kind <= 5:
        return [t * tricks[m] for t, m in zip(tricks, mates)]
    if kind == 6:
        return [t * t for t in tricks]
    if kind == 7:
        return [HAND - t for t in tricks]
    return [exact3_points if t == 3 else 0 for t in tricks]


def second_index(cards: Sequence[int], led: int, tie_mode: str = "position") -> tuple[int, bool]:
    """Position in the trick of the winning card, and whether the tie-break decided it.

    If anybody followed the led suit, the second-highest card of the led suit wins.  If nobody
    did, all four cards count regardless of suit: the rank R in second place of the ranks
    sorted high to low (``position``, ruling S1 (a): repeated ranks count, so K K 5 3 gives a
    K) or the second-highest distinct rank (``distinct``, reading (b): K K 5 3 gives the 5; a
    trick of one rank only has R = that rank); among the cards of rank R the one played second
    wins, or the only one.
    """
    followers = [i for i, c in enumerate(cards) if c // 13 == led]
    if len(followers) >= 2:
        followers.sort(key=lambda i: cards[i] % 13, reverse=True)
        return followers[1], False
    ranks = sorted((c % 13 for c in cards), reverse=True)
    if tie_mode == "distinct":
        distinct = sorted(set(ranks), reverse=True)
        r = distinct[1] if len(distinct) > 1 else distinct[0]
    else:
        r = ranks[1]
    holders = [i for i, c in enumerate(cards) if c % 13 == r]
    if len(holders) == 1:
        return holders[0], False
    return holders[1], True


def second_winners(scores: Sequence[int], winner: str = "second") -> tuple[int, ...]:
    """The winning seats: with ``second`` every seat whose total equals the second distinct
    total from the top (ruling S4; all of them when all totals are equal); with ``highest``
    every seat with the top total."""
    distinct = sorted(set(scores), reverse=True)
    target = distinct[1] if winner == "second" and len(distinct) > 1 else distinct[0]
    return tuple(s for s, v in enumerate(scores) if v == target)


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Seconds(TrickGame):
    id = "seconds"
    title = "Seconds"
    OPTIONS = (
        OptionSpec("edition", "classic",
                   "classic: the 7-deal game; 2021: 8 deals, the eighth aiming at exactly 3 tricks",
                   choices=("classic", "2021")),
        OptionSpec("winner", "second",
                   "who wins the game: the second-highest total, or the highest",
                   choices=("second", "highest")),
        OptionSpec("tie_mode", "position",
                   "when nobody follows suit: the second card of the four ranks sorted (position, "
                   "ruling S1) or the second-highest distinct rank (distinct)",
                   choices=("position", "distinct")),
        house_rule("exact3_points", 10, "points for exactly 3 tricks in deal 8 (edition 2021)", 0, 1000),
    )
    PLAYERS = NUM_PLAYERS
    BOT_READS = frozenset({"exact3_points"})
    STAT_KEYS = ("no_follow_tricks", "tie_tricks", "tricks", "exact3_made", *(f"points_deal_{k}" for k in range(1, 9)))
    BOT = "torite.games.seconds.bot:SecondsBot"
    FIELDS = (
        Field("deal_kind"),          # 1..8: the deal's place in the schedule
        Field("deals_in_game"),      # 7, or 8 with edition 2021
        Field("north"), Field("east"), Field("south"), Field("west"),  # seats by compass name
        # partners, left, right (half-partners), win, lose, exact3
        Field("arrangement", word(*dict.fromkeys(ARRANGEMENTS[1:]))),
        Field("mates", INTS),        # per seat: whose tricks multiply its own (-1: nobody)
        Field("exact3", key="exact3_points"),
        Field("winner_rule", word("second", "highest")),  # who wins the game
    )
    VIEWS = (View("your_mate", SEAT), View("your_backer", SEAT))
    TRICK_FACTS = (View("nobody_followed", BOOL), View("tie_break", BOOL))

    @property
    def hand_size(self) -> int:
        return HAND

    def bounds(self) -> Bounds:
        """From the schedule: the most a deal scores is 13² = 169 (deal 6, every trick), or
        ``exact3_points`` in deal 8 of the 2021 edition; nothing scores below 0.  Decisions:
        the 52 cards."""
        best = 13 * 13
        if self.options["edition"] == "2021":
            best = max(best, self.options["exact3_points"])
        return Bounds((0, best), 52)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class SecondsState(TrickState[Seconds]):
    deal_kind: int
    deals_in_game: int
    north: int
    east: int
    south: int
    west: int
    mates: list[int]
    arrangement: str
    exact3: int
    winner_rule: str
    tie_broken: bool  # set by trick_winner for trick_taken

    def setup_options(self) -> None:
        opts = self.game.options
        self.deals_in_game = DEALS[opts["edition"]]
        self.tie_mode: str = opts["tie_mode"]
        self.winner_rule = opts["winner"]
        self.exact3 = opts["exact3_points"]

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.phase = PLAY
        self.deal_kind = kind = self.round_no % self.deals_in_game + 1
        self.arrangement = ARRANGEMENTS[kind]
        self.north = north = (self.dealer - self.round_no) % NUM_PLAYERS
        self.east, self.south, self.west = ((north + p) % NUM_PLAYERS for p in (1, 2, 3))
        mates = [-1] * NUM_PLAYERS
        for pos in range(NUM_PLAYERS):
            m = mate_position(kind, pos)
            if m >= 0:
                mates[(north + pos) % NUM_PLAYERS] = (north + m) % NUM_PLAYERS
        self.mates = mates
        self.emit("arrangement", -1, {
            "deal": kind, "deals": self.deals_in_game, "arrangement": self.arrangement, "dealer": self.dealer,
            "mates": list(mates), "exact3_points": self.exact3,
            "north": north, "east": self.east, "south": self.south, "west": self.west})

    # --------------------------------------------------------------- tricks and scoring
    def trick_winner(self) -> int:
        win, self.tie_broken = second_index(self.trick, self.led, self.tie_mode)
        return win

    def winning_now(self) -> int | None:
        """Who wins the unfinished trick as it lies: the second-highest card of the led suit
        once two have followed; before that the cards of every suit may come to count, so
        nobody yet."""
        if sum(1 for c in self.trick if c // 13 == self.led) < 2:
            return None
        return second_index(self.trick, self.led, self.tie_mode)[0]

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        led = self.led
        nobody = sum(1 for c in self.trick if c // 13 == led) == 1
        record["nobody_followed"] = nobody
        record["tie_break"] = self.tie_broken
        if nobody:
            self.counters["no_follow_tricks"] += 1
        if self.tie_broken:
            self.counters["tie_tricks"] += 1

    def score_round(self) -> dict[str, Any]:
        kind = self.deal_kind
        points = deal_scores(kind, self.tricks_won, self.mates, self.exact3)
        for s in range(NUM_PLAYERS):
            self.round_points[s] += points[s]
        self.counters[f"points_deal_{kind}"] += sum(points)
        if self.arrangement == "exact3":
            self.counters["exact3_made"] += sum(1 for t in self.tricks_won if t == 3)
        return {"deal": kind, "tricks": list(self.tricks_won), "mates": list(self.mates),
                "summary": summary([row("tricks", self.tricks_won, adds=False)],
                                   [self._steps(kind, s) for s in range(NUM_PLAYERS)])}

    def _steps(self, kind: int, seat: int) -> list[dict[str, Any]]:
        """A seat's calculation for a deal of ``kind`` (§4): its tricks times its partner's or
        half-partner's, its tricks squared, 13 less its tricks, or the exact-3 points."""
        t = self.tricks_won[seat]
        if kind <= 5:
            return [step("tricks", t, "="), step("mate_tricks", self.tricks_won[self.mates[seat]])]
        if kind == 6:
            return [step("tricks", t, "="), step("tricks", t)]
        if kind == 7:
            return [step("hand", HAND, "="), step("tricks", t, "-")]
        return [step("exact3", self.exact3 if t == 3 else 0, "=")]

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        """The reader's own partner or half-partner (``your_mate``: whose tricks multiply its
        own) and, the relation being one-way, whose score its tricks multiply (``your_backer``);
        None for a spectator or a deal without partners.  Derived from public fields."""
        mate = backer = None
        if seat is not None and 0 <= seat < NUM_PLAYERS and self.mates[seat] >= 0:
            mate = self.mates[seat]
            backer = self.mates.index(seat)
        obs["your_mate"] = mate
        obs["your_backer"] = backer

    def game_over(self) -> bool:
        if self.max_rounds is not None and len(self.round_scores) >= self.max_rounds:
            return True
        return self.deal_kind == self.deals_in_game  # the schedule's last deal

    def result(self) -> Result:
        """The second-highest total wins (ruling S4: every seat on the second distinct total),
        or the highest with ``winner=highest``."""
        return Result(tuple(self.scores), second_winners(self.scores, self.winner_rule),
                      tuple(self.round_scores), ())

    def stats(self) -> dict[str, float]:
        """``points_deal_<k>`` per round over whole schedules is a seat's mean in deal kind k:
        the counter holds the four seats' points, so it is scaled by D / 4."""
        scale = self.deals_in_game / NUM_PLAYERS
        return {k: v * scale if k.startswith("points_deal_") else float(v) for k, v in self.counters.items()}


Seconds.STATE = SecondsState

__all__ = ["ARRANGEMENTS", "COMPASS", "DEALS", "OVER", "Seconds", "SecondsState", "deal_scores", "mate_position",
           "second_index", "second_winners"]
