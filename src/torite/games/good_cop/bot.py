"""The rule-of-thumb player for Good Cop (the ``normal`` level).

A trick is worth 1 minus its penalty cards to whoever takes it, and in 2 against 2 the two teams'
nets add up to the same total whatever happens, so a trick is good for us when a friend takes it
and bad when a foe does.  The bot sees only its observation; from it it works out, for every
other seat, how likely that seat is a friend (the jokers it has seen and where the unseen ones
may be: a seat that did not follow a lead of trumps holds none with ``joker = trump``) and, for
every card it may play, how likely the trick ends with it or with someone else.  It plays the
card with the best expected trick value less what the card would be worth kept for later:

- take clean tricks cheaply, with a card nobody left can beat where it can;
- let a foe take a trick full of penalty cards, and feed a foe's trick its penalty cards;
- never feed penalty cards to a friend's trick, and keep jokers and top trumps for tricks that
  are worth them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import JOKER1, JOKER2, SUIT_MASKS, card_str, mask_of_texts, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.games.good_cop.rules import SUITS, winning_index

JOKERS: Final = (JOKER1, JOKER2)
ACE: Final = 12


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class GoodCopBot(Bot):
    name = "normal"

    #: how much a card's worth for later tricks weighs against the trick at hand
    keep_weight = 0.5

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        view = _View(obs, self.seat)
        best = max(legal, key=lambda a: (view.score(a.card, self.keep_weight), -a.card))
        self.reason = view.why(best.card, [a.card for a in legal])
        return best


class _View:
    """What one seat knows and believes, read once from its observation."""

    def __init__(self, obs: Mapping[str, Any], me: int) -> None:
        self.me = me
        self.n: int = obs["num_players"]
        self.trump = SUITS.index(obs["trump"])
        self.penalty = SUITS.index(obs["penalty"])
        self.wild = obs["options"]["joker"] == "wild"
        #: what a penalty card costs (the house rule ``penalty_points``: 1)
        self.penalty_points: int = obs["options"]["penalty_points"]
        hand = mask_of_texts(obs["hand"])
        seen = hand | mask_of_texts(obs["turned"])
        for t in obs["tricks"]:
            seen |= mask_of_texts(t["cards"])
        self.trick: list[tuple[int, int]] = [(t["seat"], parse_card(t["card"])) for t in obs["trick"]]
        for _, c in self.trick:
            seen |= 1 << c
        self.unseen = ((1 << 54) - 1) & ~seen
        self.sizes = list(obs["hand_sizes"])
        self.voids = [{SUITS.index(x) for x in v} for v in obs["voids"]]
        self.played_in_trick = {s for s, _ in self.trick}
        # each seat's share of the unseen cards: the chance it holds a given unseen card
        hidden = sum(self.sizes[s] for s in range(self.n) if s != me) or 1
        self.share = [0.0 if s == me else self.sizes[s] / hidden for s in range(self.n)]
        self.friend = self._friendship(obs, hand)

    # ------------------------------------------------------------ teams
    def _friendship(self, obs: Mapping[str, Any], hand: int) -> list[float]:
        """For each seat, +1 a certain friend, -1 a certain foe, in between as likely."""
        holders = [obs["cop1"], obs["cop2"]]
        good = {h for h in holders if h is not None and h >= 0}
        hidden = [j for j, h in zip(JOKERS, holders) if h is None]  # jokers somewhere unseen
        i_am_good = self.me in good
        out = []
        for s in range(self.n):
            if s == self.me:
                out.append(1.0)
                continue
            if s in good:
                p_good = 1.0
            else:
                w = self.share[s] if self._may_hold_joker(s) else 0.0
                p_none = 1.0
                for _ in hidden:
                    p_none *= 1.0 - w
                p_good = 1.0 - p_none
            p_friend = p_good if i_am_good else 1.0 - p_good
            out.append(2.0 * p_friend - 1.0)
        return out

    def _may_hold_joker(self, seat: int) -> bool:
        return self.wild or self.trump not in self.voids[seat]

    # ------------------------------------------------------------ cards
    def pen(self, card: int) -> int:
        return 1 if card < 52 and card // 13 == self.penalty else 0

    def keep_value(self, card: int) -> float:
        """What ``card`` is worth kept for a later trick (positive: a likely winner)."""
        if card >= 52:
            return 1.0
        rank = card % 13
        if card // 13 == self.trump:
            value = 0.2 + 0.05 * rank
        else:
            higher = self.unseen & SUIT_MASKS[card // 13] & ~((2 << card) - 1)
            value = {0: 0.6, 1: 0.25, 2: 0.1}.get(higher.bit_count(), 0.0)
        if self.pen(card):
            value -= 0.3  # a penalty card in hand is a liability
        return value

    def p_beaten(self, best: int, led: int, later: Sequence[int]) -> float:
        """Chance that one of ``later`` seats beats ``best`` (they are assumed to try)."""
        if best >= 52:
            return 0.0
        hold = 1.0
        led_mask = SUIT_MASKS[led]
        trump_mask = SUIT_MASKS[self.trump]
        jokers = sum(1 for j in JOKERS if self.unseen >> j & 1)
        for s in later:
            f = self.share[s]
            if f == 0.0:
                continue
            above = self.unseen & led_mask & ~((2 << best) - 1) if best // 13 == led else 0
            if led in self.voids[s]:
                p_void = 1.0
                above = 0
            else:
                p_void = (1.0 - f) ** (self.unseen & led_mask).bit_count()
            p_higher = 1.0 - (1.0 - f) ** above.bit_count()
            if best // 13 == self.trump and led != self.trump:
                trumps_above = self.unseen & trump_mask & ~((2 << best) - 1)
            elif best // 13 == self.trump:
                trumps_above = 0  # counted in ``above``
            else:
                trumps_above = self.unseen & trump_mask
            p_ruff = 0.0
            if self.trump not in self.voids[s] and led != self.trump:
                p_ruff = p_void * (1.0 - (1.0 - f) ** trumps_above.bit_count())
            p_joker = 0.0
            if jokers and (self.wild or p_void > 0 or led == self.trump) and self._may_hold_joker(s):
                reach = 1.0 if self.wild or led == self.trump else p_void
                p_joker = reach * (1.0 - (1.0 - f) ** jokers)
            p = 1.0 - (1.0 - p_higher) * (1.0 - p_ruff) * (1.0 - p_joker)
            hold *= 1.0 - min(1.0, p)
        return 1.0 - hold

    def later_penalties(self, led: int, later: Sequence[int]) -> float:
        """Penalty cards the seats still to play are likely to add."""
        out = 0.0
        for s in later:
            f = self.share[s]
            if led == self.penalty:
                out += 0.0 if led in self.voids[s] else 1.0 - (1.0 - f) ** (self.unseen & SUIT_MASKS[led]).bit_count()
            else:
                out += 0.25 * (1.0 - (1.0 - f) ** (self.unseen & SUIT_MASKS[self.penalty]).bit_count())
        return out

    # ------------------------------------------------------------ choice
    def why(self, card: int, legal: Sequence[int] = ()) -> Reason:
        """The rule of thumb behind playing ``card``, in one line, true of it: "lowest" only for
        a card no other legal card ranks below (a joker has no rank)."""
        trick = [*self.trick, (self.me, card)]
        cards = [c for _, c in trick]
        led = self.trump if cards[0] >= 52 else cards[0] // 13
        winner, _ = trick[winning_index(cards, led, self.trump)]
        text = card_str(card)
        if winner == self.me:
            pens = sum(self.pen(c) for c in cards)
            return Reason("take_clean" if pens == 0 else "take_cheap", {"card": text, "penalties": pens})
        if self.friend[winner] > 0.3:
            return Reason("friend_wins", {"card": text})
        if self.friend[winner] < -0.3 and self.pen(card):
            return Reason("feed_foe", {"card": text})
        if card < 52 and all(x >= 52 or x % 13 >= card % 13 for x in legal):
            return Reason("lowest", {"card": text})
        return Reason("shed_least", {"card": text})

    def score(self, card: int, keep_weight: float) -> float:
        trick = [*self.trick, (self.me, card)]
        cards = [c for _, c in trick]
        led = self.trump if cards[0] >= 52 else cards[0] // 13
        win = winning_index(cards, led, self.trump)
        winner, best = trick[win]
        later = [(self.me + k) % self.n for k in range(1, self.n - len(self.trick))]
        pen = sum(self.pen(c) for c in cards) + self.later_penalties(led, later)
        value = 1.0 - pen * self.penalty_points
        p_beat = self.p_beaten(best, led, later)
        later_friend = sum(self.friend[s] for s in later) / len(later) if later else 0.0
        expected = ((1.0 - p_beat) * self.friend[winner] + p_beat * later_friend) * value
        return expected - keep_weight * self.keep_value(card)


__all__ = ["GoodCopBot"]
