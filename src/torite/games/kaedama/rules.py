"""Kaedama Trick, exactly as ``rules.en.md`` says.

A game on the kit (``torite.engine.kit``).  A decision is one action: ``play`` a card, then
``replace`` or ``pass`` in the kaedama phase (seats that may not replace are skipped).

Explicit deals are the kit's (``hands``; ``stock`` top first, its first card the one turned)
plus ``stock_after_trump``: the stock's order after ruling S1's shuffle.  With ``double`` the
turned card stays out of play (the out pile's first card) and ``stock_after_trump`` is refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUITS, card_str
from torite.engine.base import Action, Bounds, OptionSpec, house_rule
from torite.engine.kit import (
    BOOL,
    CARD,
    INT,
    INTS,
    MAYBE_INT,
    OVER,
    PLAY,
    REST,
    SEAT,
    SEEN_BY_ALL,
    SUIT,
    THE_CARD,
    Field,
    Pile,
    Place,
    TrickSlot,
    TrickState,
    View,
    card_list,
    word,
)

# from its own module: compiled, mypyc makes the game's class on a base it reads from the
# module that defines it, which this module must have imported
from torite.engine.kit.game import TrickGame
from torite.engine.phases import Card, Phase, Word
from torite.engine.summary import row, summary

NUM_PLAYERS: Final = 3
REPLACE: Final = Action("replace")
PASS: Final = Action("pass")


DECK_36: Final = tuple(s * 13 + r - 2 for s in range(4) for r in range(5, 14))  # 5..K, no aces
DECK_40: Final = tuple(s * 13 + r - 2 for s in range(4) for r in range(4, 14))  # 4..K: double (ruling D1)

PLAYING: Final = PLAY
KAEDAMA: Final = "kaedama"
#: STRENGTH[trump][led][card]: a trump beats the led suit, which beats the rest (-1, never wins)
STRENGTH: Final = tuple(tuple(tuple(16 + c % 13 if c // 13 == t else c % 13 if c // 13 == led else -1
                                    for c in range(52)) for led in range(4)) for t in range(4))
NO_DOWN: Final = (False,) * 8

# What every seat knows about where the turned trump card is (``turned_card_at``).
T_SHUFFLED: Final = "shuffled"  # shuffled back into the stock (with blind it may since lie face down)
T_TOP: Final = "top"  # on top of the stock: the next card drawn
T_OUT: Final = "out"  # double: face up out of play (first card of the out-of-game pile)
T_FACE_DOWN: Final = "face_down"  # blind + top: drawn face down by ``turned_card_seat``, not yet revealed
T_SHOWN: Final = "shown"  # drawn and seen: it is wherever the public record shows it


def round_bonus(tricks: Sequence[int], reversals: Sequence[int], most_tricks: int = 3,
                most_reversals: int = 2) -> list[int]:
    """Round bonuses: most tricks +3, most reversals +2 (needs one); ties share in full (B1).
    The bonuses are the house rules' (``most_tricks_bonus``, ``most_reversals_bonus``)."""
    most, most_rev = max(tricks), max(reversals)
    return [most_tricks * (t == most) + most_reversals * (most_rev > 0 and r == most_rev)
            for t, r in zip(tricks, reversals)]


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # compiled: a Python class, open to house rules
class Kaedama(TrickGame):
    id = "kaedama"
    title = "Kaedama Trick"
    OPTIONS = (
        OptionSpec("blind", False, "drawn cards lie face down until every player has decided"),
        OptionSpec("double", False,
                   "up to two replacements a player per trick (40 cards 4..K, hands of 9, stock of 12)"),
        OptionSpec("reverse", False, "a player may replace even while winning the trick"),
        OptionSpec("rounds", 6, "number of rounds in a game", minimum=1, maximum=10000),
        OptionSpec("trump_card", "shuffle",
                   "the turned trump card goes back shuffled into the stock, or on top",
                   choices=("shuffle", "top")),
        house_rule("reversal_points", 2, "points of a trick won by a reversal", 1, 5),
        house_rule("most_tricks_bonus", 3, "bonus for the most tricks of a round", 0, 10),
        house_rule("most_reversals_bonus", 2, "bonus for the most reversals of a round (one at least)", 0, 10),
    )
    BOT_READS = frozenset({"reversal_points"})
    STAT_KEYS = ("replacements", "replacements_while_winning", "reversals", "turned_card_drawn", "tricks")
    BOT = "torite.games.kaedama.bot:KaedamaBot"
    PHASES = (Phase(PLAYING, (Card("play"),)), Phase(KAEDAMA, (Word("replace"), Word("pass"))))
    PILES = (Pile("stock", deal=REST),  # the turned card is its first card (top)
             Pile("out", seen=SEEN_BY_ALL, face_down="out_down", top_first=False))
    FIELDS = (Field("reversals", INTS), Field("trump", SUIT), Field("turned", CARD, key="turned_card"),
              Field("turned_at", word(T_SHOWN, T_SHUFFLED, T_TOP, T_OUT, T_FACE_DOWN), key="turned_card_at"))
    VIEWS = (View("rounds"), View("turned_card_seat", SEAT), View("kaedama_step", MAYBE_INT),
             View("kaedama_position", MAYBE_INT))
    PLAYERS = NUM_PLAYERS
    TRICK_SLOTS = (TrickSlot("played", "played", CARD, THE_CARD), TrickSlot("drawn", "drawn"),
                   TrickSlot("down", "face_down"), TrickSlot("behind", "drawn_while_losing"),
                   TrickSlot("draws", "draws", INT, 0))
    TRICK_FACE_DOWN = "down"
    TRICK_FACTS = (View("reversal", BOOL),)  # won by a card drawn while losing
    DEAL_EXTRAS = ("stock_after_trump",)

    @property
    def hand_size(self) -> int:
        return 9 if self.options["double"] else 10

    @property
    def deck(self) -> tuple[int, ...]:
        return DECK_40 if self.options["double"] else DECK_36

    def most_rounds(self) -> int | None:
        """The ``rounds`` option."""
        return int(self.options["rounds"])

    def bounds(self) -> Bounds:
        """From the scoring rules: a trick is 1 point, 2 for a reversal, and a reversal needs a
        stock card (6 a round, 12 with ``double``); then +3 for the most tricks and +2 for the
        most reversals.  Decisions: every card of the hands, and in each trick each player
        decides at most once whether to take a kaedama (twice with ``double``)."""
        tricks = self.hand_size
        stock = len(self.deck) - NUM_PLAYERS * tricks - (1 if self.options["double"] else 0)
        per_trick = 2 if self.options["double"] else 1
        o = self.options
        rev: int = o["reversal_points"]
        best = tricks + min(tricks, stock) * (rev - 1) + o["most_tricks_bonus"] + o["most_reversals_bonus"]
        return Bounds((0, best), tricks * NUM_PLAYERS * (1 + per_trick))


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a designer's subclass may change a rule
class KaedamaState(TrickState[Kaedama]):
    stock: list[int]
    out: list[int]
    out_down: list[bool]
    played: list[int]  # by trick position: the card first played,
    drawn: list[bool]  # ... drawn from the stock this trick,
    down: list[bool]  # ... lying face down (blind),
    behind: list[bool]  # ... drawn while its drawer was not winning,
    draws: list[int]  # ... and how many times

    def setup_options(self) -> None:
        opts = self.game.options
        self.blind: bool = opts["blind"]
        self.double: bool = opts["double"]
        self.reverse: bool = opts["reverse"]
        self.top_mode: bool = opts["trump_card"] == "top"
        self.reversal_points: int = opts["reversal_points"]  # a house rule (2)
        rounds: int = opts["rounds"]
        self.limit = rounds if self.max_rounds is None else min(rounds, self.max_rounds)

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        after = deal.get("stock_after_trump")
        if after is None:
            return
        stock = piles["stock"]
        if self.double:
            raise ValueError(f"{where}: stock_after_trump has no use with double "
                             "(the turned card stays out of play)")
        try:
            order = card_list(after)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{where}: stock_after_trump ({e})") from None
        if sorted(order) != sorted(stock):
            raise ValueError(f"{where}: stock_after_trump must be the stock's {len(stock)} cards in a new order")
        if self.top_mode and order != stock:
            raise ValueError(f"{where}: with trump_card=top the stock is not shuffled, "
                             "so stock_after_trump must equal stock")

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        stock = self.stock
        self.turned = turned = stock[-1]
        self.trump = turned // 13
        if self.double:
            stock.pop()
            self.out.append(turned)
            self.out_down.append(False)
            self.turned_at = T_OUT
        elif self.top_mode:
            self.turned_at = T_TOP
        else:
            self.turned_at = T_SHUFFLED
            after = deal.get("stock_after_trump") if deal else None
            if after is not None:
                self.stock = card_list(after)[::-1]
            else:
                self.rng.shuffle(stock)  # ruling S1
        self.turned_slot = -1  # trick position of the turned card lying face down (T_FACE_DOWN)
        self.phase = PLAYING
        self.reversals = [0] * NUM_PLAYERS
        self.emit("trump", -1, {"card": card_str(turned), "suit": SUITS[self.trump],
                                               "turned_card_at": self.turned_at,
                                               "stock_size": len(self.stock)})

    def clear_trick_hook(self) -> None:
        self.k_pos = 0  # trick position deciding in the kaedama phase
        self.k_step = 0  # 1 for a second decision (double)

    # --------------------------------------------------------------- play
    def trick_full(self) -> None:
        if self.stock:
            self.phase = KAEDAMA
            self._next_decider(0)
        else:
            self.finish_trick()

    def win_position(self, face_up_only: bool = False) -> int:
        """Trick position of the card winning now: highest trump, else highest of the led suit
        (ruling L1: the led suit is the original lead's), else the leader (ruling L2).  With
        ``face_up_only`` the face-down cards count as absent (blind)."""
        rank = STRENGTH[self.trump][self.led]
        down = self.down if face_up_only else NO_DOWN
        best, best_val = 0, -1
        for i, c in enumerate(self.trick):
            v = rank[c]
            if v > best_val and not down[i]:
                best, best_val = i, v
        return best

    # --------------------------------------------------------------- the kaedama phase
    def legal_kaedama(self, seat: int) -> list[Action]:
        return [REPLACE, PASS]

    def is_legal_kaedama(self, seat: int, action: Action) -> bool:
        return action is REPLACE or action is PASS or action in (REPLACE, PASS)

    def apply_kaedama(self, seat: int, action: Action) -> None:
        if action.kind == "replace":
            self._replace(self.k_pos)
            if self.double and self.k_step == 0 and self._may_replace(self.k_pos):
                self.k_step = 1
                self.emit("kaedama_turn", seat, {"step": 2})
                return
        else:
            self.emit("pass", seat, {"step": self.k_step + 1})
        self._next_decider(self.k_pos + 1)

    def _may_replace(self, pos: int) -> bool:
        return bool(self.stock) and (self.reverse or self.win_position(self.blind) != pos)

    def _next_decider(self, start: int) -> None:
        """The first trick position from ``start`` that may replace decides (the trick does not
        change while the positions are looked at, so its winner is found once)."""
        if self.stock:
            winning = -1 if self.reverse else self.win_position(self.blind)
            for pos in range(start, NUM_PLAYERS):
                if pos == winning:
                    continue
                self.k_pos = pos
                self.k_step = 0
                self.turn = self.trick_seats[pos]
                self.emit("kaedama_turn", self.turn, {"step": 1})
                return
        self._finish_kaedama()

    def _replace(self, pos: int) -> None:
        seat = self.trick_seats[pos]
        behind = self.win_position(self.blind) != pos
        old = self.trick[pos]
        old_down = self.down[pos]
        new = self.stock.pop()
        self.out.append(old)
        self.out_down.append(old_down)  # a face-down card replaced again goes out face down (K4)
        if self.played[pos] < 0:
            self.played[pos] = old  # the card first played there
        self.trick[pos] = new
        self.drawn[pos] = True
        self.down[pos] = self.blind
        self.behind[pos] = behind
        self.draws[pos] += 1
        counters = self.counters
        counters["replacements"] += 1
        counters["replacements_while_winning"] += not behind  # only reverse allows it
        if new == self.turned:
            counters["turned_card_drawn"] += 1
            if not self.blind:
                self.turned_at = T_SHOWN
            elif self.turned_at == T_TOP:
                self.turned_at = T_FACE_DOWN
                self.turned_slot = pos
        self.emit("replace", seat, {
            "out": None if old_down else card_str(old),
            "drawn": None if self.blind else card_str(new),
            "step": self.k_step + 1,
            "stock_size": len(self.stock),
        })

    def _finish_kaedama(self) -> None:
        if self.blind and (any(self.down) or any(self.out_down)):
            revealed = [c for c, d in zip(self.trick, self.down) if d]
            revealed_out = [c for c, d in zip(self.out, self.out_down) if d]
            if self.turned in revealed + revealed_out:
                self.turned_at, self.turned_slot = T_SHOWN, -1
            self.down = [False] * len(self.trick)
            self.out_down = [False] * len(self.out)
            self.emit("reveal", -1, {"trick": [card_str(c) for c in self.trick],
                                                    "revealed": [card_str(c) for c in revealed],
                                                    "out": [card_str(c) for c in revealed_out]})
        self.finish_trick()

    # --------------------------------------------------------------- tricks and scoring
    def trick_winner(self) -> int:
        return self.win_position()

    def trick_points(self, win: int) -> int:
        return self.reversal_points if self.drawn[win] and self.behind[win] else 1

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        reversal = self.drawn[win] and self.behind[win]
        if reversal:
            self.reversals[winner] += 1
            self.counters["reversals"] += 1
        record["reversal"] = reversal

    def score_round(self) -> dict[str, Any]:
        o = self.game.options
        bonus = round_bonus(self.tricks_won, self.reversals, o["most_tricks_bonus"], o["most_reversals_bonus"])
        for s in range(NUM_PLAYERS):
            self.round_points[s] += bonus[s]
        return {"tricks": list(self.tricks_won), "reversals": list(self.reversals), "bonus": bonus,
                "summary": summary([row("tricks", self.tricks_won, count=self.tricks_won, per=1),
                                    row("reversals", [r * (self.reversal_points - 1) for r in self.reversals],
                                        count=self.reversals, per=self.reversal_points - 1),
                                    row("bonus", bonus)])}

    def game_over(self) -> bool:
        return len(self.round_scores) >= self.limit

    # --------------------------------------------------------------- information
    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """What every seat knows of where the turned card is (``turned_card_at``)."""
        if self.turned_at == T_TOP:
            return [(Place("stock"), 1 << self.turned)]
        if self.turned_at == T_FACE_DOWN:
            return [(Place("trick", self.turned_slot), 1 << self.turned)]
        return []

    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        if self.turned_at == T_SHUFFLED:  # in the stock, or drawn face down: in no hand
            return [(Place.hand(s), 1 << self.turned) for s in range(NUM_PLAYERS)]
        return []

    def arrange(self, rng: Any) -> None:
        if self.turned_at == T_TOP:
            self.stock.remove(self.turned)
            self.stock.append(self.turned)

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        kaedama = self.phase == KAEDAMA
        obs["rounds"] = self.limit
        obs["turned_card_seat"] = self.trick_seats[self.turned_slot] if self.turned_slot >= 0 else None
        obs["kaedama_step"] = self.k_step + 1 if kaedama else None
        obs["kaedama_position"] = self.k_pos if kaedama else None

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        who = obs["turned_card_seat"]
        self.turned_slot = self.trick_seats.index(who) if who is not None else -1
        if obs["phase"] == KAEDAMA:
            self.k_pos = obs["kaedama_position"]
            self.k_step = obs["kaedama_step"] - 1


Kaedama.STATE = KaedamaState

__all__ = ["OVER", "PASS", "REPLACE", "Kaedama", "KaedamaState", "round_bonus"]
