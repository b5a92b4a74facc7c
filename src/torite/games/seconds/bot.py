"""A rule-of-thumb Seconds player: it knows what this deal pays and looks one trick ahead.

It sees only its observation.  Each decision it asks two questions:

- *What is it worth to me that a given seat takes this trick?*  The marginal value of one more
  trick under this deal's scoring: with a partner or half-partner, my trick is worth my mate's
  count + 1 and my mate's trick my count + 1 (a product grows most when the tricks are split
  evenly; the +1 keeps 0 × 0 from looking worthless); in deal 6 my trick is worth 2t + 1 (the
  square grows); in deal 7 my trick costs 1; in deal 8 a trick is worth 1 up to 3 and costs 3
  past it, scaled by the house rules' ``exact3_points`` over its default 10 (nothing when it is
  0: then no trick is worth taking).  Other seats' tricks are worth nothing to me.
- *Who takes the trick if I play this card?*  Played last, it knows.  Otherwise it samples the
  hidden hands from its observation (``game.determinizer``, as the search bots do) and lets the
  players after it play a random legal card, the winner found by the rules' own
  ``second_index``.

It plays the card of highest expected value; on a tie it sheds the card least useful later:
when it wants tricks an ace first (an ace is never second-highest of its suit), then the low
cards; when it avoids tricks the middle cards (aces and twos rarely end up second).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, card_str, iter_bits, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.engine.kit import TrickState
from torite.games.seconds.rules import second_index

#: the ``exact3_points`` the deal-8 trick values are written for (the house rule's default)
EXACT3_DEFAULT: Final = 10


def trick_values(obs: Mapping[str, Any]) -> list[float]:
    """Per seat, what it is worth to the reader that this seat takes the current trick."""
    me = obs["seat"]
    t = obs["tricks_won"]
    kind = obs["deal_kind"]
    values = [0.0] * obs["num_players"]
    mate = obs["your_mate"]
    if mate is not None:
        values[me] = t[mate] + 1.0
        values[mate] = t[me] + 1.0
    elif kind == 6:
        values[me] = 2.0 * t[me] + 1.0
    elif kind == 7:
        values[me] = -1.0
    elif kind == 8:
        # in the scale of the house rules' ``exact3_points`` (10 by default, when these values
        # are the ones above): a dearer exact three is worth more tricks' risk, a free one none
        scale = obs["options"]["exact3_points"] / EXACT3_DEFAULT
        values[me] = (1.0 if t[me] < 3 else -3.0 if t[me] == 3 else 0.0) * scale
    return values


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class SecondsBot(Bot):
    name = "normal"
    #: sampled worlds per decision when the trick's end is not known
    samples = 24

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        values = trick_values(obs)
        cards = [a.card for a in legal]
        want = values[obs["seat"]] > 0
        ev = self._expected(obs, cards, values) if any(values) else [0.0] * len(cards)
        best = max(ev)
        close = [c for c, v in zip(cards, ev) if v >= best - 1e-9]
        choice = min(close, key=lambda c: self._keep(c, want))
        self.reason = Reason("seconds_shed" if not any(values) or len(close) == len(cards) else
                             "seconds_take" if want else "seconds_avoid", {"card": card_str(choice)})
        return legal[cards.index(choice)]

    @staticmethod
    def _keep(card: int, want: bool) -> tuple[int, int]:
        """How much the card is worth keeping (lower: shed first)."""
        rank = card % 13 + 2
        if want:
            return (0 if rank == 14 else rank, card)
        return (-abs(rank - 8), card)

    def _expected(self, obs: Mapping[str, Any], cards: list[int], values: list[float]) -> list[float]:
        n = obs["num_players"]
        me = obs["seat"]
        played = [parse_card(t["card"]) for t in obs["trick"]]
        seats = [t["seat"] for t in obs["trick"]]
        after = [(me + k) % n for k in range(1, n - len(played))]
        if not after:  # the last to play: the winner is known
            out = []
            for c in cards:
                trick = [*played, c]
                led = trick[0] // 13
                win, _ = second_index(trick, led, obs["options"]["tie_mode"])
                out.append(values[[*seats, me][win]])
            return out
        det = self.game.determinizer(obs)
        tie_mode = obs["options"]["tie_mode"]
        totals = [0.0] * len(cards)
        rng = self.rng
        order = [*seats, me, *after]
        for _ in range(self.samples):
            world = det.sample(rng)
            assert isinstance(world, TrickState)
            hands = world.hands
            for i, c in enumerate(cards):
                trick = [*played, c]
                led = trick[0] // 13
                for s in after:
                    trick.append(_random_card(hands[s], led, rng))
                win, _ = second_index(trick, led, tie_mode)
                totals[i] += values[order[win]]
        return [x / self.samples for x in totals]


def _random_card(hand: int, led: int, rng: random.Random) -> int:
    follow = hand & SUIT_MASKS[led]
    pool = list(iter_bits(follow or hand))
    return pool[rng.randrange(len(pool))]


__all__ = ["SecondsBot", "trick_values"]
