"""The rule-of-thumb player for Umbridge (the ``normal`` level).

It values a hand by high-card points (A 4, K 3, Q 2, J 1) and its shape.  Two players share 40
points with the dummy and the bridge, and the dummy's cards go to each player in turn, so the
tricks a hand expects are half the deal plus a share of its points above the opponent's
expected ones (a third of the rest), with trumps counted by length.  It takes umbrage at a hand
well below the average, bids its best denomination as far as that estimate goes (within a
margin that the house rules' bonuses move, ``bid_margin``), doubles a contract its own tricks
should beat, repeats its contract when it must, and in a draw round
swaps its small cards outside the suit it relies on (a card from the bridge is worth more on
average).  In play it looks at the rest of the trick: the cards it plays itself (its hand, the
dummy when it controls it) it chooses, the dummy's cards the opponent controls are known, and
the opponent's hand is assumed to hold the best unseen card it could play.  It wins a trick as
cheaply as that allows and otherwise plays its smallest card; leading, it cashes sure winners
and else leads low from its longest side suit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, card_str, iter_bits, mask_of_texts
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason

from .claim import ACCEPT, CLAIM_PHASE, REFUSE, claim_holds
from .deal import CHICAGO, DUMMY_STEP, follow, trick_order
from .rules import winning_index
from .scoring import DENOMS

POINTS: Final = {12: 4, 11: 3, 10: 2, 9: 1}  # rank index (2 = 0 … A = 12) -> high-card points
DECK: Final = (1 << 52) - 1
WIN: Final = 1000


def hcp(hand: int) -> int:
    return sum(POINTS.get(c % 13, 0) for c in iter_bits(hand))


def lengths(hand: int) -> list[int]:
    return [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]


def expected_tricks(hand: int, denom: str) -> float:
    """Tricks of 13 the hand should take as declarer in ``denom`` (see the module's note)."""
    h = hcp(hand)
    tricks = 6.5 + 0.3 * (h - (40 - h) / 3)
    lens = lengths(hand)
    if denom == "NT":
        tricks -= 0.5 * sum(1 for n in lens if n <= 1)
        tricks += 0.3 * sum(max(n - 4, 0) for n in lens)
        return tricks
    t = DENOMS.index(denom)
    trumps = lens[t]
    tricks += 0.6 * (trumps - 4) if trumps >= 4 else -1.0 * (4 - trumps)
    if trumps >= 5:
        tricks += sum(0.6 if n == 0 else 0.3 if n == 1 else 0.0 for s, n in enumerate(lens) if s != t)
    return tricks


#: the margin (expected tricks over those a bid needs) the bot bids on under the default scoring
MARGIN: Final = -0.2


def bid_margin(options: Mapping[str, Any]) -> float:
    """The least margin the bot bids on under the table's house rules: the more a made contract
    brings (Chicago: the part-score bonus; rubber: the rubber bonuses a game leads to), the
    thinner the margin it risks, by a step per 250 points of part-score bonus or per 2000 of
    the two rubber bonuses together away from their defaults (50; 700 + 500), at most a trick
    either way.  The defaults give ``MARGIN``: the bot bids as it always did."""
    if options["scoring"] == CHICAGO:
        shift: float = (options["part_score_bonus"] - 50) / 250
    else:
        shift = (options["rubber_two_nil"] + options["rubber_two_one"] - 1200) / 2000
    return MARGIN - max(-1.0, min(1.0, shift))


def best_denomination(hand: int) -> tuple[str, float]:
    """The denomination with the most expected tricks (higher ones first on a tie)."""
    best = max(reversed(DENOMS), key=lambda d: expected_tricks(hand, d))
    return best, expected_tricks(hand, best)


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class UmbridgeBot(Bot):
    name = "normal"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        hand = mask_of_texts(obs["hand"])
        phase = obs["phase"]
        if phase == "umbrage":
            return self._umbrage(hand, legal)
        if phase == "auction":
            return self._call(obs, legal, hand)
        if phase == "exchange":
            return self._exchange(obs, legal, hand)
        if phase == CLAIM_PHASE:  # accepted only when it holds in every deal it may be (U19)
            holds = claim_holds(obs, self.seat)
            self.reason = Reason("claim_holds" if holds else "claim_fails")
            return ACCEPT if holds else REFUSE
        return self._play(obs, [a for a in legal if a.kind == "play"], hand)  # it never claims

    # ------------------------------------------------------------ before the play
    def _umbrage(self, hand: int, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        _, tricks = best_denomination(hand)
        weak = hcp(hand) < 7 and tricks < 6.5
        self.reason = Reason("umbrage_weak" if weak else "umbrage_keep", {"points": hcp(hand), "tricks": round(tricks)})
        return kinds["umbrage"] if weak else kinds["keep"]

    def _call(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int) -> Action:
        kinds = {a.kind: a for a in legal}
        contract: str | None = obs["contract"]
        bids = [a for a in legal if a.kind == "bid"]
        if obs["must_bid"]:
            self.reason = Reason("repeat_contract", {"contract": bids[0].arg})
            return bids[0]  # repeat the contract
        _denom, _tricks = best_denomination(hand)
        if contract is not None and obs["declarer"] == self.seat:
            if "redouble" in kinds and expected_tricks(hand, contract.split()[1]) >= 6 + int(contract[0]) + 1.5:
                self.reason = Reason("redouble_sure", {"contract": contract})
                return kinds["redouble"]
            self.reason = Reason("pass_own", {"contract": contract})
            return kinds["pass"]
        # the cheapest bid in each denomination the hand supports
        best: Action | None = None
        best_margin = 0.0
        least = bid_margin(obs["options"])
        for a in bids:
            margin = expected_tricks(hand, a.arg.split()[1]) - (6 + int(a.arg[0]))
            if margin >= least and (best is None or margin > best_margin):
                best, best_margin = a, margin
        if best is not None:
            tricks_then = round(expected_tricks(hand, best.arg.split()[1]))
            self.reason = Reason("bid_tricks", {"contract": best.arg, "tricks": tricks_then,
                                                "need": 6 + int(best.arg.split()[0])})
            return best
        # as defender we take about what the same cards would take as declarer
        if (contract is not None and "double" in kinds
                and (mine := expected_tricks(hand, contract.split()[1])) >= 7
                and 13 - mine < 6 + int(contract[0]) - 2):
                self.reason = Reason("double_weak", {"contract": contract})
                return kinds["double"]
        self.reason = Reason("pass_short")
        return kinds["pass"]

    def _exchange(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int) -> Action:
        """Swap small cards outside the suit we rely on, smallest first."""
        contract: str | None = obs["contract"]
        keep = -1
        if contract is not None and obs["declarer"] == self.seat and not contract.endswith("NT"):
            keep = DENOMS.index(contract.split()[1])
        elif contract is not None and obs["declarer"] != self.seat:
            lens = lengths(hand)
            keep = max(range(4), key=lambda s: lens[s])
        lens = lengths(hand)
        junk = []
        for c in iter_bits(hand):
            suit, rank = c // 13, c % 13
            if suit == keep:
                continue
            if rank <= 5 or (rank <= 7 and lens[suit] <= 2):
                junk.append((rank, lens[suit], c))
        junk.sort()
        for _, _, c in junk:
            a = Action("discard", 1 << c)
            if a in legal:
                self.reason = Reason("discard_small", {"card": card_str(c)})
                return a
        self.reason = Reason("exchange_done")
        return Action("done") if Action("done") in legal else legal[-1]

    # ------------------------------------------------------------ the play
    def _play(self, obs: Mapping[str, Any], legal: Sequence[Action], hand: int) -> Action:
        me = self.seat
        opp = 1 - me
        dummy = mask_of_texts(obs["dummy"] or [])
        played = 0
        for t in obs["tricks"]:
            played |= mask_of_texts(t["cards"])
        trick = [(e["seat"], mask_of_texts([e["card"]]).bit_length() - 1) for e in obs["trick"]]
        for _, c in trick:
            played |= 1 << c
        unseen = DECK & ~hand & ~dummy & ~played & ~mask_of_texts(obs["discarded"])
        void = 0
        for s in obs["voids"][opp]:
            void |= SUIT_MASKS[SUITS.index(s)]
        opp_cards = unseen & ~void
        trump = SUITS.index(obs["trump"]) if obs["trump"] else -1
        steps = trick_order(obs["leader"], obs["dealer"])
        k = len(trick)
        controller: int = obs["dummy_by"]
        lens = lengths(hand)

        def value(cards: list[int], seats: list[int], pos: int, led: int, spent: float) -> float:
            if pos == 3:
                real = [(c, s) for c, s in zip(cards, seats) if c >= 0]
                win = real[winning_index([c for c, _ in real], led, trump)][1]
                return (WIN if win == me else 0) - spent
            step = steps[pos]
            if step == DUMMY_STEP:
                options = follow(dummy & ~_mask(cards), led)
                who = controller
            elif step == me:
                options = follow(hand & ~_mask(cards), led)
                who = me
            else:  # the opponent's own hand: the best unseen card it could play
                choice = _threat(opp_cards, led, trump)
                if choice < 0:
                    return value([*cards, -1], [*seats, opp], pos + 1, led, spent)
                return value([*cards, choice], [*seats, opp], pos + 1, led, spent)
            results = [value([*cards, c], [*seats, who], pos + 1, led if pos else c // 13,
                             spent + (_cost(c, trump, lens, pos == 0) if who == me else 0))
                       for c in iter_bits(options)]
            if not results:
                return value([*cards, -1], [*seats, who], pos + 1, led, spent)
            return max(results) if who == me else min(results)

        cards0 = [c for _, c in trick]
        seats0 = [s for s, _ in trick]
        led = cards0[0] // 13 if cards0 else -1
        best, best_value = legal[0], float("-inf")
        for a in legal:
            c = a.card
            v = value([*cards0, c], [*seats0, me], k + 1, led if k else c // 13,
                      _cost(c, trump, lens, k == 0))
            if v > best_value:
                best, best_value = a, v
        lowest = all(a.card % 13 >= best.card % 13 for a in legal)  # "lowest" only of the lowest card
        self.reason = Reason("win_trick" if best_value > 0 else "lowest" if lowest else "shed_least",
                             {"card": card_str(best.card)})
        return best


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        if c >= 0:
            m |= 1 << c
    return m


def _threat(cards: int, led: int, trump: int) -> int:
    """The strongest card the opponent may hold for this trick (-1: none can matter)."""
    same = cards & SUIT_MASKS[led]
    if same:
        return same.bit_length() - 1
    if trump >= 0:
        trumps = cards & SUIT_MASKS[trump]
        if trumps:
            return trumps.bit_length() - 1
    return -1


def _cost(card: int, trump: int, lens: list[int], lead: bool) -> float:
    """What spending a card costs: its rank, more for a trump; a lead prefers a long side suit."""
    suit, rank = card // 13, card % 13
    cost = float(rank + (13 if suit == trump else 0))
    if lead:
        cost -= 0.3 * lens[suit]
    return cost


__all__ = ["UmbridgeBot", "best_denomination", "expected_tricks", "hcp"]
