"""A rule-of-thumb Galapagos player, one rule a phase, from its observation alone.

- **Auction.** A card is worth what it does to the hand's melds.  For each card it could bid,
  the bot weighs the melds of the hand without it plus the faced card, or plus an unseen card
  (the average over a sample of the cards it has not seen), by the chance that the bid wins
  (the share of the opponent's possible cards it outranks), and adds a little for a high card,
  since the bid pile is the play-off hand.  The winner takes the faced card when the melds it
  makes are worth at least the average unseen card.
- **Tricks.** Both hands are known after the melds (ruling R1), so once few tricks are left the
  bot solves the rest exactly (minimax on the odd-count score); before that it takes tricks
  cheaply and throws its lowest card otherwise.
- **Play-off.** Also open: suits do not matter, so a hand is 13 rank counts, and the bot solves
  the climbing game exactly once the hands are small enough; before that it leads its lowest
  rank whole and beats a play with the lowest set that does not break a bigger group.

For the search levels (``hard``, ``expert``) the bot also answers ``exact``: from the first trick
on, nothing is hidden and nothing is left to chance, so ``solver.OpenSolver`` solves the rest of
the deal (tricks, play-off and the 100 bonus) within a node budget.  The search levels play that
answer instead of sampling, which could only do worse; ``normal`` keeps its rules of thumb.  In
the auction the search levels play this bot too (``RULE_BOT_PHASES``), and since its samples of
unseen cards are seeded by the observation, they bid exactly as ``normal``: on the same deals the
two differ only from the first trick on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, card_str, iter_bits, mask_of_texts, parse_card
from torite.engine.base import Action, Game
from torite.engine.bot import Bot, Reason
from torite.engine.kit import PLAY
from torite.games.glapgos.melds import RANK_MASKS, meld_value
from torite.games.glapgos.rules import PASS, PLAYOFF, TAKE_FACED, TAKE_UNSEEN
from torite.games.glapgos.solver import OpenSolver

#: solve the tricks exactly from this many cards a hand down
TRICK_SOLVE: int = 7
#: solve the play-off exactly while both hands together hold at most this many cards
CLIMB_SOLVE: int = 12
#: unseen cards sampled to value "a card from the stock"
SAMPLES: int = 10
#: meld points a rank step of a bid card is worth for the play-off hand
HIGH_BID: float = 0.4
#: solver nodes an ``exact`` decision may visit (about 20 µs each here: under a second), solving
#: ahead included; a decision that needs more answers ``None`` and the caller searches
EXACT_BUDGET: int = 40_000


def _counts(hand: int) -> tuple[int, ...]:
    return tuple((hand & m).bit_count() for m in RANK_MASKS)


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class GlapgosBot(Bot):
    name = "glapgos-rule-of-thumb"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        self._open: OpenSolver | None = None

    def exact(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """The solver's choice in the open phases (tricks, play-off), or ``None`` when the
        position is not open yet or the budget ran out (see ``torite.bots.search``).

        Exact, but for one case: with the 100 bonus within reach, a play-off that is not solved
        yet for a way the points may stand is valued as the play-off without the bonus ends
        (``OpenSolver.last_whole`` is then false) — still far closer than a sampled search."""
        if obs["phase"] not in (PLAY, PLAYOFF) or len(legal) == 1:
            return None
        if self._open is None:
            self._open = OpenSolver(self.seat, EXACT_BUDGET)
        return self._open.choose(obs, legal)

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        phase = obs["phase"]
        if phase == "bid":
            return self._bid(obs, legal)
        if phase == "take":
            return self._take(obs)
        if phase == "play":
            return self._trick(obs, legal)
        return self._climb(obs, legal)

    # ------------------------------------------------------------------ the auction
    def _unseen(self, obs: Mapping[str, Any], hand: int) -> list[int]:
        """Cards whose place this seat does not know (in the stock or the opponent's hand)."""
        seen = hand | mask_of_texts(obs["bid_pile_0"] or []) | mask_of_texts(obs["bid_pile_1"] or [])
        for cards in obs["known_hands"]:
            seen |= mask_of_texts(cards)
        if obs["faced_card"]:
            seen |= 1 << parse_card(obs["faced_card"])
        return [c for c in range(52) if not seen >> c & 1]

    def _sampler(self, obs: Mapping[str, Any], hand: int) -> random.Random:
        """The generator that picks the unseen cards sampled for one auction decision, seeded
        by what the seat sees (its hand, the faced card, the turn): the bot is a function of its
        observation, so a search level, which plays this auction, bids exactly as ``normal``
        does, and a paired comparison of the two sees only what the search changes."""
        faced = parse_card(obs["faced_card"]) if obs["faced_card"] else 52
        return random.Random(hand | faced << 52 | obs["auction_turn"] << 58 | self.seat << 62
                             | (obs["phase"] == "take") << 63)

    def _stock_value(self, keep: int, pool: list[int], by_cards: bool, rng: random.Random) -> float:
        if not pool:
            return float(meld_value(keep, by_cards))
        sample = pool if len(pool) <= SAMPLES else rng.sample(pool, SAMPLES)
        return sum(meld_value(keep | 1 << u, by_cards) for u in sample) / len(sample)

    def _bid(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        by_cards = obs["options"]["meld_values"] == "cards"
        hand = mask_of_texts(obs["hand"])
        faced = parse_card(obs["faced_card"])
        pool = self._unseen(obs, hand)
        rng = self._sampler(obs, hand)
        opp = 1 - self.seat
        opp_cards = pool + list(iter_bits(mask_of_texts(obs["known_hands"][opp])))
        ranks = sorted(c % 13 for c in opp_cards)
        best, best_v = legal[0], float("-inf")
        for a in legal:
            c = a.card
            keep = hand & ~(1 << c)
            vf = meld_value(keep | 1 << faced, by_cards)
            vu = self._stock_value(keep, pool, by_cards, rng)
            r = c % 13
            below = sum(1 for x in ranks if x < r) + 0.5 * sum(1 for x in ranks if x == r)
            p = below / len(ranks) if ranks else 0.5
            v = p * max(vf, vu) + (1 - p) * min(vf, vu) + HIGH_BID * r
            if v > best_v:
                best, best_v = a, v
        self.reason = Reason("bid_card", {"card": card_str(best.card), "faced": obs["faced_card"]})
        return best

    def _take(self, obs: Mapping[str, Any]) -> Action:
        by_cards = obs["options"]["meld_values"] == "cards"
        hand = mask_of_texts(obs["hand"])
        faced = parse_card(obs["faced_card"])
        vf = meld_value(hand | 1 << faced, by_cards)
        vu = self._stock_value(hand, self._unseen(obs, hand), by_cards, self._sampler(obs, hand))
        self.reason = Reason("take_faced" if vf >= vu else "take_unseen",
                             {"card": obs["faced_card"], "melds": vf, "average": round(vu)})
        return TAKE_FACED if vf >= vu else TAKE_UNSEEN

    # ------------------------------------------------------------------ the tricks
    def _trick(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        me = self.seat
        hand = mask_of_texts(obs["hand"])
        other = mask_of_texts(obs["known_hands"][1 - me])
        lead = parse_card(obs["trick"][0]["card"]) if obs["trick"] else -1
        if hand.bit_count() <= TRICK_SOLVE:
            solver = _TrickSolver(obs["tricks_won"][me])
            best, best_v = legal[0], -10**9
            for a in legal:
                c = a.card
                if lead < 0:
                    v = solver.value(other, hand & ~(1 << c), False, c)
                else:
                    win = c // 13 == lead // 13 and c > lead
                    v = solver.after_trick(hand & ~(1 << c), other, win)
                if v > best_v:
                    best, best_v = a, v
            self.reason = Reason("odd_tricks_solved", {"card": card_str(best.card)})
            return best
        cards = [a.card for a in legal]
        if lead < 0:
            # a sure winner (nothing higher of its suit opposite) if any, else low from length
            for c in sorted(cards, reverse=True):
                higher = other & SUIT_MASKS[c // 13] & ~((2 << c) - 1)
                if not higher and other & SUIT_MASKS[c // 13]:
                    self.reason = Reason("lead_top", {"card": card_str(c)})
                    return Action("play", 1 << c)
            longest = max(range(4), key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), -s))
            low = [c for c in cards if c // 13 == longest] or cards
            card = min(low, key=lambda c: c % 13)
            key = "lead_low" if card % 13 < 9 else "lead_long" if card // 13 == longest else "lead_lowest"
            self.reason = Reason(key, {"card": card_str(card)})
            return Action("play", 1 << card)
        winners = [c for c in cards if c // 13 == lead // 13 and c > lead]
        if winners:
            self.reason = Reason("win_cheap", {"card": card_str(min(winners))})
            return Action("play", 1 << min(winners))
        card = min(cards, key=lambda c: (c % 13, c))
        self.reason = Reason("lowest", {"card": card_str(card)})
        return Action("play", 1 << card)

    # ------------------------------------------------------------------ the play-off
    def _climb(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        me = self.seat
        hand = mask_of_texts(obs["hand"])
        other = mask_of_texts(obs["known_hands"][1 - me])
        last = obs["climb_last"]
        size = len(last)
        mine, theirs = _counts(hand), _counts(other)
        plays = {(a.cards.bit_count(), (a.cards.bit_length() - 1) % 13): a for a in legal if a.kind == "play"}
        if hand.bit_count() + other.bit_count() <= CLIMB_SOLVE:
            solver = _ClimbSolver()
            best: Action = legal[0]
            best_v = -10**9
            for (k, r), a in plays.items():
                v = solver.after_play(mine, theirs, k, r)
                if v > best_v:
                    best, best_v = a, v
            if PASS in legal and -solver.value(theirs, mine, 0, -1) > best_v:
                self.reason = Reason("playoff_solved_pass")
                return PASS
            self.reason = Reason("playoff_solved", {"cards": [card_str(c) for c in iter_bits(best.cards)]})
            return best
        if size == 0:
            r = min(r for r in range(13) if mine[r])
            a = plays[(mine[r], r)]
            self.reason = Reason("playoff_lead_low", {"cards": [card_str(c) for c in iter_bits(a.cards)]})
            return a
        fits = sorted(r for (k, r) in plays if mine[r] == k)  # beat without breaking a group
        if fits:
            a = plays[(size, fits[0])]
            self.reason = Reason("playoff_beat", {"cards": [card_str(c) for c in iter_bits(a.cards)]})
            return a
        self.reason = Reason("playoff_pass")
        return PASS


class _TrickSolver:
    """Exact value of the rest of Phase 2 for the bot (its points minus the other's), both
    hands known: only the player with an odd number of the 13 tricks scores 10 + its tricks."""

    def __init__(self, my_tricks: int) -> None:
        self.base = my_tricks
        self.memo: dict[tuple[int, int, bool, int, int], int] = {}

    def final(self, mine: int) -> int:
        return 10 + mine if mine % 2 else -(10 + 13 - mine)

    def after_trick(self, me: int, op: int, i_won: bool) -> int:
        """A trick is complete: its winner leads the next (``me``, ``op``: hands after it)."""
        return self._lead(me, op, i_won, self.base + i_won)

    def value(self, me: int, op: int, my_turn: bool, lead: int) -> int:
        """``lead`` is on the table, played by the player not to move; ``me``/``op``: hands of
        the player to move and of the other; the value is for the bot (``my_turn``: whose move)."""
        return self._follow(me, op, my_turn, lead, self.base)

    def _lead(self, me: int, op: int, my_lead: bool, mine: int) -> int:
        if not me and not op:
            return self.final(mine)
        key = (me, op, my_lead, -1, mine)
        got = self.memo.get(key)
        if got is not None:
            return got
        leader = me if my_lead else op
        best = -10**9 if my_lead else 10**9
        for c in iter_bits(leader):
            if my_lead:
                v = self._follow(op, me & ~(1 << c), False, c, mine)
                best = max(best, v)
            else:
                v = self._follow(me, op & ~(1 << c), True, c, mine)
                best = min(best, v)
        self.memo[key] = best
        return best

    def _follow(self, mover: int, waiter: int, my_turn: bool, lead: int, mine: int) -> int:
        """``mover`` follows ``lead``; ``waiter`` is the leader's hand after leading."""
        key = (mover, waiter, my_turn, lead, mine)
        got = self.memo.get(key)
        if got is not None:
            return got
        suit = mover & SUIT_MASKS[lead // 13]
        options = suit or mover
        best = -10**9 if my_turn else 10**9
        for c in iter_bits(options):
            follower_wins = c // 13 == lead // 13 and c > lead
            rest = mover & ~(1 << c)
            i_win = follower_wins == my_turn
            me, op = (rest, waiter) if my_turn else (waiter, rest)
            v = self._lead(me, op, i_win, mine + i_win)
            best = max(best, v) if my_turn else min(best, v)
        self.memo[key] = best
        return best


class _ClimbSolver:
    """Exact play-off values on rank counts: negamax for the player to move, whose play must
    beat (``size``, ``rank``) or who leads when ``size`` is 0."""

    def __init__(self) -> None:
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], int] = {}

    def after_play(self, mover: tuple[int, ...], other: tuple[int, ...], k: int, r: int) -> int:
        rest = list(mover)
        rest[r] -= k
        left = tuple(rest)
        if not any(left):
            return 10 + sum(other)
        return -self.value(other, left, k, r)

    def value(self, mover: tuple[int, ...], other: tuple[int, ...], size: int, rank: int) -> int:
        key = (mover, other, size, rank)
        got = self.memo.get(key)
        if got is not None:
            return got
        best = -10**9
        if size == 0:
            for r in range(13):
                for k in range(1, mover[r] + 1):
                    best = max(best, self.after_play(mover, other, k, r))
        else:
            for r in range(rank + 1, 13):
                if mover[r] >= size:
                    best = max(best, self.after_play(mover, other, size, r))
            best = max(best, -self.value(other, mover, 0, -1))  # pass: the other leads
        self.memo[key] = best
        return best


__all__ = ["GlapgosBot"]
