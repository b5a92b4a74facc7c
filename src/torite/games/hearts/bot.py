"""A rule-of-thumb Hearts player: shed danger, duck points, take only clean tricks.

It sees only its observation.

- *Passing:* it passes its most dangerous cards: Q♠, then A♠ and K♠ unless it holds enough low
  spades to guard them, then high hearts, then high cards of its shortest side suit (to make a
  void it can discard into).
- *Following suit:* when it can play under the card winning so far it plays its highest such
  card (ducking while shedding height), dropping Q♠ under A♠ or K♠; when it cannot duck it
  plays its highest card if it is last (the trick is its own anyway) and otherwise its lowest,
  never Q♠ while it may still lose it.  Last to a trick with no points it takes it with its
  highest card (Q♠ aside).
- *Discarding:* its most dangerous card: Q♠, A♠/K♠ while Q♠ is out, the highest heart, then
  the highest card of its shortest suit.
- *Leading:* its lowest card, from a suit that cannot draw Q♠ onto it: no high spade while Q♠ is
  unplayed, and no spade at all while it holds Q♠ itself.

How dangerous a heart and Q♠ (and the spades that guard it) are follows what they cost under
the table's house rules (``heart_points``, ``queen_points`` in the observation's options): with
a cheap queen and dear hearts it passes hearts before the queen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, card_str, mask_of_texts, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.games.hearts.rules import QUEEN_SPADES

SPADES: Final = 3
HEARTS: Final = 2
ACE_SPADES: Final = QUEEN_SPADES + 2


def danger(card: int, hand: int, queen_out: bool, heart: int = 1, queen: int = 13) -> float:
    """How much a card of ``hand`` costs to keep (higher: pass or discard it first), for a heart
    worth ``heart`` points and Q♠ ``queen`` (the dangers of the standard 1 and 13 scaled by
    them)."""
    suit, rank = divmod(card, 13)
    length = (hand & SUIT_MASKS[suit]).bit_count()
    if card == QUEEN_SPADES:
        return 200.0 * (queen / 13)
    if suit == SPADES and card > QUEEN_SPADES and queen_out:
        low_spades = (hand & SUIT_MASKS[SPADES] & ((1 << QUEEN_SPADES) - 1)).bit_count()
        return (90.0 + rank) * (queen / 13) if low_spades < 4 else 10.0 + rank
    if suit == HEARTS:
        return (40.0 + rank * 3) * heart
    return rank * 3 + (13 - length) * 1.5


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class HeartsBot(Bot):
    name = "normal"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        hand = mask_of_texts(obs["hand"])
        played = 0
        for t in obs["tricks"]:
            played |= mask_of_texts(t["cards"])
        trick = [(e["seat"], parse_card(e["card"])) for e in obs["trick"]]
        for _, c in trick:
            played |= 1 << c
        queen_out = not played >> QUEEN_SPADES & 1
        cards = [a.card for a in legal]
        options = obs["options"]
        heart, queen = options["heart_points"], options["queen_points"]
        if legal[0].kind == "pass":
            keep = hand & ~mask_of_texts(obs["passed"] or [])
            card = max(cards, key=lambda c: danger(c, keep, queen_out, heart, queen))
            self.reason = Reason("pass_danger", {"card": card_str(card)})
            return legal[cards.index(card)]
        return legal[cards.index(self._play(obs, hand, trick, cards, queen_out, heart, queen))]

    def _play(self, obs: Mapping[str, Any], hand: int, trick: list[tuple[int, int]], cards: list[int],
              queen_out: bool, heart: int, queen: int) -> int:
        if not trick:
            card = self._lead(hand, cards, queen_out)
            self.reason = Reason("lead_low" if card % 13 < 9 else "lead_least", {"card": card_str(card)})
            return card
        led = trick[0][1] // 13
        top = max(c for _, c in trick if c // 13 == led)
        points = sum(1 for _, c in trick if c // 13 == HEARTS or c == QUEEN_SPADES)  # point cards
        last = len(trick) == obs["num_players"] - 1
        if cards[0] // 13 != led:  # cannot follow: discard the most dangerous card
            card = max(cards, key=lambda c: danger(c, hand, queen_out, heart, queen))
            self.reason = Reason("discard_danger", {"card": card_str(card)})
            return card
        if led == SPADES and QUEEN_SPADES in cards and top > QUEEN_SPADES:
            self.reason = Reason("queen_under", {"card": card_str(QUEEN_SPADES), "top": card_str(top)})
            return QUEEN_SPADES  # someone else's ace or king takes the queen
        under = [c for c in cards if c < top]
        safe = [c for c in cards if c != QUEEN_SPADES] or cards
        if last and points == 0:  # a clean trick: take it with the highest card (or duck, if that is all)
            self.reason = (Reason("clean_trick", {"card": card_str(max(safe))}) if max(safe) > top
                           else Reason("duck", {"card": card_str(max(safe)), "top": card_str(top)}))
            return max(safe)
        if under:
            self.reason = Reason("duck", {"card": card_str(max(under)), "top": card_str(top)})
            return max(under)
        if last:
            self.reason = Reason("win_anyway", {"card": card_str(max(safe))})
            return max(safe)
        low = min(safe)
        self.reason = Reason("lowest_but_queen" if QUEEN_SPADES in cards and low > QUEEN_SPADES else "lowest",
                             {"card": card_str(low)})
        return low

    @staticmethod
    def _lead(hand: int, cards: list[int], queen_out: bool) -> int:
        def cost(c: int) -> tuple[int, int, int]:
            suit, rank = divmod(c, 13)
            risky = suit == SPADES and ((queen_out and c >= QUEEN_SPADES)
                                        or bool(hand >> QUEEN_SPADES & 1))
            return (int(risky), int(suit == HEARTS), rank)
        return min(cards, key=cost)


__all__ = ["HeartsBot", "danger"]
