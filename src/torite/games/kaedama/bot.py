"""A rule-of-thumb Kaedama Trick player: it counts the stock and plays plain trick-taking sense.

It sees only its observation.  From it, it works out which cards it has not seen (own hand,
cards played, cards out of the game and the turned card if its place is known are seen) and how
likely each of them is to be the next card drawn: the turned card is certainly in the stock while
it is shuffled there, a card of a suit that both opponents have shown void in must be in the
stock, any other unseen card is in the stock in proportion to the stock's size.

- Kaedama phase: never replace a winning card; otherwise replace when the chance that the draw
  wins the trick beats a threshold that falls when the stock is plentiful for the tricks left.
  With ``blind`` a face-down card is never replaced again (it is as likely to win as a new one).
  The threshold follows what a reversal is worth (the house rule ``reversal_points``: 2).
- Lead: a card nobody can beat (a side-suit top card nobody can ruff, or the top trump), which
  saves the stock for later; else a low card of its shortest side suit.
- Follow: the cheapest card that wins when last or when it is a top card; else its lowest card.
- Void: trump in as cheaply as it wins; else throw its lowest side card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, card_str, mask_of_texts, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.games.kaedama.rules import DECK_36, DECK_40, PASS, REPLACE

_SUIT_OF: Final = {s: i for i, s in enumerate(SUITS)}


def _val(card: int, trump: int, led: int) -> int:
    s = card // 13
    if s == trump:
        return 16 + card % 13
    if s == led:
        return card % 13
    return -1


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class KaedamaBot(Bot):
    name = "normal"

    #: replace when the chance of drawing a winner is at least this (plenty of stock / scarce stock)
    low_threshold = 0.001
    high_threshold = 0.1

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        if legal[0].kind in ("replace", "pass"):
            return REPLACE if self._should_replace(obs) else PASS
        return self._play(obs, legal)

    # ------------------------------------------------------------ knowledge
    def _unseen(self, obs: Mapping[str, Any]) -> int:
        deck = 0
        for c in DECK_40 if obs["options"]["double"] else DECK_36:
            deck |= 1 << c
        seen = mask_of_texts(obs["hand"]) | mask_of_texts(obs["out"])
        for t in obs["tricks"]:
            seen |= mask_of_texts(t["cards"])
        for t in obs["trick"]:
            seen |= mask_of_texts([t["played"], t["card"]])
        if obs["turned_card_at"] != "shuffled":
            seen |= 1 << parse_card(obs["turned_card"])
        return deck & ~seen

    def _draw_odds(self, obs: Mapping[str, Any]) -> dict[int, float]:
        """Probability of each card being the next one drawn."""
        turned = parse_card(obs["turned_card"])
        if obs["turned_card_at"] == "top":
            return {turned: 1.0}
        unseen = self._unseen(obs)
        stock = obs["stock_size"]
        if not stock or not unseen:
            return {}
        seat = obs["seat"]
        others = [s for s in range(obs["num_players"]) if s != seat]
        voids = [{_SUIT_OF[x] for x in obs["voids"][s]} for s in others]
        sizes = [obs["hand_sizes"][s] for s in others]
        weights: dict[int, float] = {}
        m = unseen
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if c == turned:
                weights[c] = 1.0
                continue
            cap = sum(size for size, v in zip(sizes, voids) if c // 13 not in v)
            weights[c] = stock / (stock + cap)
        total = sum(weights.values())
        return {c: w / total for c, w in weights.items()}

    # ------------------------------------------------------------ kaedama
    def _should_replace(self, obs: Mapping[str, Any]) -> bool:
        trick = obs["trick"]
        pos = obs["kaedama_position"]
        me = trick[pos]
        if me["face_down"]:
            self.reason = Reason("face_down_keep")
            return False
        trump = _SUIT_OF[obs["trump"]]
        led = _SUIT_OF[obs["led"]]
        best = -1
        for i, t in enumerate(trick):
            if i == pos or t["card"] is None:
                continue
            best = max(best, _val(parse_card(t["card"]), trump, led))
        if _val(parse_card(me["card"]), trump, led) > best:
            self.reason = Reason("keep_winning", {"card": me["card"]})
            return False  # winning (only asked with the reverse variant): keep it
        odds = self._draw_odds(obs)
        if best < 0 and pos == 0:
            self.reason = Reason("leader_wins")
            return False  # ruling L2: the leader wins a trick of neither suit
        p = sum(w for c, w in odds.items() if _val(c, trump, led) > best)
        tricks_left = len(obs["hand"]) + 1
        plenty = obs["stock_size"] >= tricks_left
        # a reversal is worth the house rules' ``reversal_points`` (2): the dearer, the readier
        reversal: int = obs["options"]["reversal_points"]
        scale = 2 / reversal
        replace = p >= (self.low_threshold if plenty else self.high_threshold) * scale
        self.reason = Reason("replace_odds" if replace else "keep_odds", {"odds": round(100 * p)})
        return replace

    # ------------------------------------------------------------ play
    def _play(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        trump = _SUIT_OF[obs["trump"]]
        unseen = self._unseen(obs)
        cards = [a.card for a in legal]
        trick = obs["trick"]
        seat = obs["seat"]
        others = [s for s in range(obs["num_players"]) if s != seat]
        if not trick:
            return self._lead(obs, legal, cards, trump, unseen, others)
        led = _SUIT_OF[obs["led"]]
        best = max(_val(parse_card(t["card"]), trump, led) for t in trick)
        last = len(trick) == obs["num_players"] - 1
        winners = sorted((c for c in cards if _val(c, trump, led) > best), key=lambda c: c % 13)
        following = cards[0] // 13 == led
        if following:
            if winners:
                if last:
                    self.reason = Reason("win_cheap", {"card": card_str(winners[0])})
                    return self._action(legal, winners[0])
                for c in winners:
                    if not unseen & SUIT_MASKS[led] & ~((1 << (c + 1)) - 1):
                        self.reason = Reason("top_card", {"card": card_str(c)})
                        return self._action(legal, c)  # a top card of the suit
            low = min(cards, key=lambda c: c % 13)
            self.reason = Reason("lowest", {"card": card_str(low)})
            return self._action(legal, low)
        trumps = [c for c in winners if c // 13 == trump]
        if trumps:
            self.reason = Reason("ruff", {"card": card_str(trumps[0])})
            return self._action(legal, trumps[0])
        side = [c for c in cards if c // 13 != trump] or cards
        low = self._lowest_short(side)
        self.reason = Reason("discard_low", {"card": card_str(low)})
        return self._action(legal, low)

    def _lead(self, obs: Mapping[str, Any], legal: Sequence[Action], cards: list[int], trump: int,
              unseen: int, others: list[int]) -> Action:
        trumps_out = unseen & SUIT_MASKS[trump]
        for c in sorted(cards, key=lambda c: -(c % 13)):
            s = c // 13
            if unseen & SUIT_MASKS[s] & ~((1 << (c + 1)) - 1):
                continue  # someone may hold a higher card
            if s == trump:
                self.reason = Reason("lead_top", {"card": card_str(c)})
                return self._action(legal, c)
            ruff = any(SUITS[s] in obs["voids"][o] and SUITS[trump] not in obs["voids"][o]
                       for o in others)
            if not ruff or not trumps_out:
                self.reason = Reason("lead_top", {"card": card_str(c)})
                return self._action(legal, c)
        side = [c for c in cards if c // 13 != trump] or cards
        low = self._lowest_short(side)
        # low is the lowest rank outside trumps (or of the trumps, if that is all): "low" only below a jack
        key = "lead_low" if low % 13 < 9 else "lead_lowest_trump" if low // 13 == trump else "lead_lowest_side"
        self.reason = Reason(key, {"card": card_str(low)})
        return self._action(legal, low)

    @staticmethod
    def _lowest_short(cards: list[int]) -> int:
        count = [0, 0, 0, 0]
        for c in cards:
            count[c // 13] += 1
        return min(cards, key=lambda c: (c % 13, count[c // 13]))

    @staticmethod
    def _action(legal: Sequence[Action], card: int) -> Action:
        for a in legal:
            if a.card == card:
                return a
        raise AssertionError("card not among the legal actions")
