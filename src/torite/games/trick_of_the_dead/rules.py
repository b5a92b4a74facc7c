"""Trick of the Dead, exactly as ``rules.en.md`` says.

On the kit (``torite.engine.kit``), which deals and shows the hands and the graveyard (a list,
its last item on top) as declared below.  A decision is one action: ``bury`` (two cards, all
seats at once), ``play``, ``trump`` (the first joker's), ``call`` (the suit a led joker asks for).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import CARD_TEXTS, JOKERS_MASK, SUIT_MASKS, SUITS, card_str, iter_bits, mask_of_texts, parse_card
from torite.engine.base import Action, Bounds, OptionSpec, house_rule
from torite.engine.draws import COMPILED
from torite.engine.kit import (
    BOOL,
    BOOLS,
    CARD,
    CARDS,
    OVER,
    PLAY,
    REST,
    SEAT_CARDS,
    SUIT,
    Field,
    Pile,
    Place,
    TrickSlot,
    TrickState,
    View,
    seen_when,
    shuffle,
)

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Card, Cards, Phase, suit_choice
from torite.engine.summary import row, summary

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
HEART_MASK: Final = SUIT_MASKS[HEARTS]
CLUB_MASK: Final = SUIT_MASKS[CLUBS]
DIAMOND_MASK: Final = SUIT_MASKS[DIAMONDS]
TRUMP: Final = tuple(Action("trump", 0, s) for s in SUITS)
CALL: Final = tuple(Action("call", 0, s) for s in SUITS)
CARD_TEXT: Final = CARD_TEXTS
BURY_PAIR: Final = tuple(tuple(Action("bury", (1 << a) | (1 << b)) for b in range(54)) for a in range(54))

BURY: Final = "bury"
PLAYING: Final = PLAY
DECLARE_TRUMP: Final = "trump"
DECLARE_CALL: Final = "call"


def winning_index(trick: Sequence[int], led: int, trump_now: int) -> int:
    """Index of the winning card: rules 1–4 of "Who wins a trick" and ruling W1.

    ``trump_now`` is the trump in force at the start of the trick (-1 for none); a joker then
    counts as the ace of trumps, and equal cards go to the one played first.
    """
    if trump_now < 0:
        for i, c in enumerate(trick):
            if c >= 52:
                return i
    else:
        best, best_val = -1, -1
        for i, c in enumerate(trick):
            if c >= 52:
                val = 12  # the ace of trumps
            elif c // 13 == trump_now:
                val = c % 13
            else:
                continue
            if val > best_val:
                best, best_val = i, val
        if best >= 0:
            return best
    best, best_rank = 0, -1
    for i, c in enumerate(trick):
        if c < 52 and c // 13 == led and c % 13 > best_rank:
            best, best_rank = i, c % 13
    return best


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class TrickOfTheDead(TrickGame):
    id = "trick-of-the-dead"
    title = "Trick of the Dead"
    OPTIONS = (
        OptionSpec("players", 3, "number of players (2 uses the two-player deal)", choices=(2, 3)),
        OptionSpec("survival", False, "clubs -3 and +3 per surviving heart instead of -2 and +2"),
        OptionSpec("open_graveyard", False, "after the shuffle the graveyard lies face up"),
        OptionSpec("zombie_doubles", "diamonds",
                   "what a trick won by a zombie doubles", choices=("diamonds", "trick")),
        OptionSpec("target", 100, "total that ends the game", minimum=1, maximum=100000),
        house_rule("club_points", -2, "points of each club taken (survival: one less)", -10, 0),
        house_rule("survivor_points", 2, "points of each heart kept to the end (survival: one more)", 0, 10),
        house_rule("joker_points", 5, "points a joker winning a trick adds", 1, 20),
    )
    BOT_READS = frozenset({"club_points", "survivor_points"})
    PLAYERS = "players"
    DECK = tuple(range(54))
    STAT_KEYS = ("zombies", "joker_wins", "zombie_wins", "surviving_hearts", "survival_points", "tricks")
    BOT = "torite.games.trick_of_the_dead.bot:TrickOfTheDeadBot"
    PHASES = (
        Phase(BURY, (Cards("bury", (2,)),), simultaneous=True),  # every seat at once
        Phase(PLAY, (Card("play"),)),
        Phase(DECLARE_TRUMP, (suit_choice("trump"),)),  # the first joker's trump
        Phase(DECLARE_CALL, (suit_choice("call"),)),    # the suit a led joker asks for
    )
    PILES = (Pile("graveyard", seen=seen_when("grave_public"), deal=REST),)
    FIELDS = (
        Field("zombies", SEAT_CARDS),          # public: a risen card is shown (ruling Z1)
        Field("buried", CARDS, private=True),  # a seat sees only its own burial
        Field("trump", SUIT),
        Field("trump_now", SUIT, key="trump_in_force"),
        Field("jokers_played"),
        Field("need_call", BOOL),
    )
    VIEWS = (View("buried_done", BOOLS),)  # per seat: its burial is in
    TRICK_SLOTS = (TrickSlot("trick_zombie", "zombie"),)
    TRICK_FACTS = (View("risen", CARD),)  # the graveyard card its winner takes, if any
    DEAL_EXTRAS = ("graveyard_after_burial",)

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player before the burial."""
        return 16 if self.num_players == 3 else 20

    @cached_property
    def points(self) -> tuple[int, ...]:
        """Points of each card for the trick's winner (options are fixed: computed once)."""
        club = self.options["club_points"] - (1 if self.options["survival"] else 0)
        return tuple(club if c < 13 else c % 13 + 2 if c < 26 else 1 if c < 39 else 0 for c in range(54))

    @property
    def survivor_points(self) -> int:
        """Points of each heart kept to the end: 2, 3 with ``survival`` (under the house rules)."""
        base: int = self.options["survivor_points"]
        return base + (1 if self.options["survival"] else 0)

    def bounds(self) -> Bounds:
        """From the scoring rules.  Best: every diamond (2 + … + 14 = 104) in tricks won by
        zombies (doubled: 208), every heart worth the most it can be (kept to the end, the
        survival bonus; or taken in a doubled trick, 2), both jokers winning a trick (+5 each).
        Worst: every club taken, doubled with ``zombie_doubles = trick``.  Decisions: each seat
        buries once, at most every card of the deck is played (the graveyard's cards rise as
        zombies), one trump declaration and a suit named for each led joker."""
        club = -self.points[0]
        survival = self.survivor_points
        doubling = 2 if self.options["zombie_doubles"] == "trick" else 1
        best = 2 * 104 + 13 * max(survival, doubling) + 2 * self.options["joker_points"]
        return Bounds((-13 * club * doubling, best), self.num_players + len(self.deck) + 1 + 2)



@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class TrickOfTheDeadState(TrickState[TrickOfTheDead]):
    # the game's own attributes in slots too: read on every card, a slot is the fast read
    __slots__ = ("buried", "double_trick", "fixed_grave", "grave_public", "graveyard", "joker_bonus",
                 "joker_points", "jokers_played", "need_call", "points", "survival_bonus", "target",
                 "trick_zombie", "trump", "trump_now", "won_cards", "zombies")
    #: per seat, the cards of the tricks it won and its joker bonus so far (the round summary's
    #: rows, kept as the tricks fall rather than read back from the history at the end)
    LIST_FIELDS = ("won_cards", "joker_bonus")
    graveyard: list[int]
    trick_zombie: list[bool]
    fixed_grave: list[int] | None

    def setup_options(self) -> None:
        game = self.game
        self.points = game.points
        self.survival_bonus = game.survivor_points
        self.joker_points: int = game.options["joker_points"]
        self.double_trick = game.options["zombie_doubles"] == "trick"
        self.target: int = game.options["target"]

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        after = deal.get("graveyard_after_burial")
        if after is None:
            return
        grave = piles["graveyard"]
        try:
            order = [parse_card(c) for c in after]
        except (TypeError, ValueError) as e:
            raise ValueError(f"{where}: graveyard_after_burial ({e})") from None
        if len(order) != len(grave) + 2 * self.n or len(set(order)) != len(order):
            raise ValueError(f"{where}: graveyard_after_burial needs {len(grave) + 2 * self.n} distinct cards")
        if not set(grave) <= set(order):
            raise ValueError(f"{where}: graveyard_after_burial must hold every card of the graveyard")

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        n = self.n
        after = deal.get("graveyard_after_burial") if deal else None
        self.fixed_grave = [parse_card(c) for c in reversed(after)] if after else None
        self.zombies = [0] * n
        self.grave_public = False
        self.buried = [0] * n
        self.phase = BURY
        self.pending = (1 << n) - 1
        self.trump = -1
        self.trump_now = -1  # the trump in force for the current trick
        self.jokers_played = 0
        self.need_call = False
        self.won_cards = [0] * n
        self.joker_bonus = [0] * n

    # --------------------------------------------------------------- burial
    def _buriable(self) -> int:
        """Cards a burial may name: any, unless the deal fixed the graveyard after the burial."""
        if self.fixed_grave is None:
            return (1 << 54) - 1
        return sum(1 << c for c in self.fixed_grave)

    def legal_bury(self, seat: int) -> list[Action]:
        cards = list(iter_bits(self.hands[seat] & self._buriable()))
        out: list[Action] = []
        for i, a in enumerate(cards):  # the pairs in ``combinations`` order, a row at a time
            row = BURY_PAIR[a]
            if COMPILED:
                for b in cards[i + 1:]:
                    out.append(row[b])
            else:
                out += map(row.__getitem__, cards[i + 1:])
        return out

    def is_legal_bury(self, seat: int, action: Action) -> bool:
        cards = action.cards
        return (action.kind == "bury" and not action.arg and cards.bit_count() == 2
                and not cards & ~(self.hands[seat] & self._buriable()))

    def apply_bury(self, seat: int, action: Action) -> None:
        cards = action.cards
        self.hands[seat] &= ~cards
        self.buried[seat] = cards
        pair = list(iter_bits(cards))
        self.graveyard += pair
        self.pending &= ~(1 << seat)
        self.emit("bury", seat, {"cards": [CARD_TEXT[c] for c in pair]}, 1 << seat)
        if self.pending:
            return
        if self.fixed_grave is not None:
            self.graveyard = list(self.fixed_grave)
        else:
            shuffle(self.rng, self.graveyard)  # ruling G1 (the draws of ``rng.shuffle``)
        self.grave_public = self.game.options["open_graveyard"]
        data: dict[str, Any] = {"size": len(self.graveyard)}
        if self.grave_public:
            data["order"] = [card_str(c) for c in reversed(self.graveyard)]
        self.emit("graveyard", -1, data)
        self.phase = PLAYING

    # --------------------------------------------------------------- play
    def playable(self, seat: int) -> int:
        """The kit's follow rule, but a joker may be played at any time."""
        return super().playable(seat) | (self.hands[seat] & JOKERS_MASK)

    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        zombies = self.zombies
        zombie = self.trick_zombie[len(self.trick) - 1] = bool(zombies[seat] >> card & 1)
        if zombie:
            zombies[seat] &= ~(1 << card)
        return {"card": CARD_TEXT[card], "zombie": zombie}

    AFTER_PLAY_CARDS = JOKERS_MASK  # only a joker's play asks for a declaration

    def after_play(self, seat: int, card: int) -> bool:
        self.jokers_played += 1
        if len(self.trick) == 1:
            self.need_call = True  # a led joker names the suit to follow
        if self.jokers_played == 1 or self.need_call:  # the first joker declares trump
            self.phase = DECLARE_TRUMP if self.jokers_played == 1 else DECLARE_CALL
            return True
        return False

    def legal_trump(self, seat: int) -> list[Action]:
        return list(TRUMP)

    def apply_trump(self, seat: int, action: Action) -> None:
        self.trump = SUITS.index(action.arg)
        self.emit("trump", seat, {"suit": action.arg})
        if self.need_call:
            self.phase = DECLARE_CALL
            return
        self.phase = PLAYING
        self.advance()

    def legal_call(self, seat: int) -> list[Action]:
        return list(CALL)

    def apply_call(self, seat: int, action: Action) -> None:
        self.led = SUITS.index(action.arg)
        self.need_call = False
        self.emit("call", seat, {"suit": action.arg})
        self.phase = PLAYING
        self.advance()

    # --------------------------------------------------------------- tricks and scoring
    def trick_winner(self) -> int:
        return winning_index(self.trick, self.led, self.trump_now)

    def trick_points(self, win: int) -> int:
        trick = self.trick
        pts = self.points
        total = 0
        for c in trick:
            total += pts[c]
        if self.trick_zombie[win]:  # doubled: the whole trick, or its diamonds
            total += total if self.double_trick else sum(pts[c] for c in trick if 13 <= c < 26)
        if trick[win] >= 52:
            total += self.joker_points
        return total

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        counters = self.counters
        if self.trick[win] >= 52:
            counters["joker_wins"] += 1
            bonus = self.joker_bonus
            bonus[winner] = bonus[winner] + self.joker_points
        if self.trick_zombie[win]:
            counters["zombie_wins"] += 1
        ranks = repeated = cards = 0
        for c in self.trick:
            cards |= 1 << c
            if c < 52:
                bit = 1 << c % 13
                repeated |= ranks & bit
                ranks |= bit
        won = self.won_cards
        won[winner] = won[winner] | cards
        risen = -1
        if repeated and self.graveyard:
            risen = self.graveyard.pop()
            hands, zombies = self.hands, self.zombies
            hands[winner] = hands[winner] | 1 << risen
            zombies[winner] = zombies[winner] | 1 << risen
            counters["zombies"] += 1
        record["risen"] = card_str(risen) if risen >= 0 else None
        self.trump_now = self.trump

    def score_round(self) -> dict[str, Any]:
        """Surviving hearts score now; the round-end event carries each seat's breakdown (the
        rows of the table's round summary), which adds up to its points."""
        n, taken, joker = self.n, self.won_cards, list(self.joker_bonus)
        pts = self.points
        rows: dict[str, list[int]] = {
            "tricks": list(self.tricks_won),
            "diamonds": [sum([pts[c] for c in iter_bits(m & DIAMOND_MASK)]) for m in taken],
            "clubs": [pts[0] * (m & CLUB_MASK).bit_count() for m in taken],
            "hearts_taken": [(m & HEART_MASK).bit_count() for m in taken],
            "joker_bonus": joker,
        }
        # what the tricks scored beyond their cards and jokers is the zombies' doubling
        rows["zombie_bonus"] = [self.round_points[s] - rows["diamonds"][s] - rows["clubs"][s]
                                - rows["hearts_taken"][s] - joker[s] for s in range(n)]
        surviving = [(self.hands[s] & HEART_MASK).bit_count() for s in range(n)]
        rows["hearts"] = [k * self.survival_bonus for k in surviving]
        for s in range(n):
            self.round_points[s] += rows["hearts"][s]
            self.counters["survival_points"] += rows["hearts"][s]
        self.counters["surviving_hearts"] += sum(surviving)
        held = [(self.hands[s] & HEART_MASK).bit_count() for s in range(n)]
        return {**rows, "summary": summary([
            row("tricks", rows["tricks"], adds=False),
            row("diamonds", rows["diamonds"]),
            row("clubs", rows["clubs"], count=[(m & CLUB_MASK).bit_count() for m in taken], per=pts[0]),
            row("hearts_taken", rows["hearts_taken"], count=rows["hearts_taken"], per=1),
            row("joker_bonus", joker, count=[j // self.joker_points for j in joker], per=self.joker_points),
            row("zombie_bonus", rows["zombie_bonus"]),
            row("hearts", rows["hearts"], count=held, per=self.survival_bonus),
        ])}

    def game_over(self) -> bool:
        top = max(self.scores)
        return super().game_over() or (top >= self.target and self.scores.count(top) == 1)  # ruling F1

    # --------------------------------------------------------------- information
    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """Zombies are public (ruling Z1); a seat's own buried cards that have not risen lie in
        the graveyard, wherever the shuffle put them."""
        out = [(Place.hand(s), z) for s, z in enumerate(self.zombies) if z]
        if seat is not None and 0 <= seat < self.n and not self.grave_public:
            elsewhere = self.hands[seat] | sum(self.zombies) | sum(1 << c for c in self.trick)
            for t in self.history:
                for c in t["cards"]:
                    elsewhere |= 1 << parse_card(c)
            mine = self.buried[seat] & ~elsewhere
            if mine:
                out.append((Place("graveyard"), mine))
        return out

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        bury = self.phase == BURY
        obs["buried_done"] = [not (bury and self.pending >> s & 1) for s in range(self.n)]

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        self.fixed_grave = None
        self.won_cards, self.joker_bonus = [0] * self.n, [0] * self.n
        for t in obs["tricks"]:
            w = t["winner"]
            self.won_cards[w] |= mask_of_texts(t["cards"])
            if parse_card(t["cards"][t["seats"].index(w)]) >= 52:
                self.joker_bonus[w] += self.joker_points


TrickOfTheDead.STATE = TrickOfTheDeadState

__all__ = ["OVER", "TrickOfTheDead", "TrickOfTheDeadState", "winning_index"]
