"""The rule-of-thumb player for Trick of the Dead (the ``normal`` level).

Rules of thumb from the source's strategy section: bury high clubs, take diamond tricks
cheaply, dodge club tricks, dump clubs when void, keep hearts to survive, spend a joker on a
rich trick, declare the longest strong suit as trump, and call diamonds on a led joker so the
others must feed it.

With the ``open_graveyard`` option the observation shows the graveyard's order, so the bot
also knows which card a pair in the trick would raise and that it goes to the trick's winner:
it reaches for a trick that raises a joker, a high diamond or a heart, lets one that raises a
club go, and pairs a rank (or declines to) accordingly.  With a closed graveyard nothing of
this applies and it plays exactly as the rules of thumb above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS, card_str, iter_bits, parse_card
from torite.engine.base import Action
from torite.engine.bot import Bot, Reason
from torite.games.trick_of_the_dead.rules import winning_index

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class TrickOfTheDeadBot(Bot):
    name = "normal"

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        kind = legal[0].kind
        if kind == "bury":
            return self._bury(obs, legal)
        if kind == "trump":
            return self._trump(obs, legal)
        if kind == "call":
            self.reason = Reason("call_diamonds")
            return next(a for a in legal if a.arg == "D")
        if len(legal) == 1:
            self.reason = Reason("only_choice")
            return legal[0]
        return self._play(obs, legal)

    # ------------------------------------------------------------------
    def _points(self, obs: Mapping[str, Any]) -> list[int]:
        options = obs["options"]  # the house rules' club (one worse with survival)
        club = options["club_points"] - (1 if options["survival"] else 0)
        return [club if c < 13 else c % 13 + 2 if c < 26 else 1 if c < 39 else 0 for c in range(54)]

    def _keep_value(self, card: int, obs: Mapping[str, Any]) -> float:
        """How much a card is worth keeping in hand (higher = play it later)."""
        if card >= 52:
            return 12.0
        suit, rank = card // 13, card % 13 + 2
        options = obs["options"]
        survival: int = options["survivor_points"] + (1 if options["survival"] else 0)
        if suit == CLUBS:
            return -rank / 2  # get rid of clubs, high ones first
        if suit == HEARTS:
            return survival + rank / 6
        if suit == DIAMONDS:
            return rank / 3
        return rank / 5

    def _bury(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        hand = [parse_card(c) for c in obs["hand"]]

        def burial_score(c: int) -> float:
            if c >= 52:
                return -100.0
            suit, rank = c // 13, c % 13 + 2
            if suit == CLUBS:
                return 20.0 + rank  # high clubs first
            if suit == SPADES:
                return 10.0 - rank / 2  # low spades harm nobody if they rise
            if suit == HEARTS:
                return -10.0 + (14 - rank) / 10
            return -20.0 + (14 - rank) / 10

        best = sorted(hand, key=burial_score, reverse=True)[:2]
        want = (1 << best[0]) | (1 << best[1])
        # the reason says what these two cards are (two clubs, a club and a spade, two spades or
        # neither), so its words can claim only what is true of them
        self.reason = Reason("bury", {"cards": [card_str(c) for c in sorted(best)],
                                      "clubs": sum(c < 52 and c // 13 == CLUBS for c in best),
                                      "spades": sum(c < 52 and c // 13 == SPADES for c in best)})
        return next(a for a in legal if a.cards == want)

    def _trump(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        hand = sum(1 << parse_card(c) for c in obs["hand"])

        def strength(s: int) -> float:
            cards = [c for c in iter_bits(hand & SUIT_MASKS[s])]
            penalty = 3 if s == CLUBS else 0
            return len(cards) * 2 + sum(max(0, c % 13 - 7) for c in cards) - penalty

        suit = max(range(4), key=strength)
        self.reason = Reason("trump_long", {"suit": SUITS[suit]})
        return next(a for a in legal if a.arg == SUITS[suit])

    def _play(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        pts = self._points(obs)
        trick = [parse_card(t["card"]) for t in obs["trick"]]
        trump_now = SUITS.index(obs["trump_in_force"]) if obs["trump_in_force"] else -1
        led = SUITS.index(obs["led"]) if obs["led"] else -1
        n = obs["num_players"]
        last = len(trick) == n - 1
        seen = sum(1 << parse_card(c) for t in obs["tricks"] for c in t["cards"])
        seen |= sum(1 << c for c in trick)
        # an open graveyard's cards cannot be played in this trick (a zombie rises after it)
        seen |= sum(1 << parse_card(c) for c in obs.get("graveyard") or ())
        mine = sum(1 << parse_card(c) for c in obs["hand"])
        my_zombies = sum(1 << parse_card(c) for c in obs["zombies"][self.seat])
        rising = self._rising(obs)
        best_action, best_value = legal[0], float("-inf")
        best_reason = Reason("lowest", {"card": card_str(legal[0].card)})
        winners: list[int] = []  # the legal cards that take the trick as it stands (for the reason only)
        for a in legal:
            c = a.card
            keep = self._keep_value(c, obs)
            text = card_str(c)
            if not trick:
                value = self._lead_value(c, obs, seen, mine, trump_now) - keep
                why = Reason("lead_joker" if c >= 52 else "lead_top" if self._is_top(c, c // 13, trump_now, seen | mine)
                             else "lead_low" if c % 13 < 9 else "lead_high", {"card": text})
            else:
                cards = [*trick, c]
                lead_suit = led if led >= 0 else c // 13
                wins = winning_index(cards, lead_suit, trump_now) == len(trick)
                base = sum(pts[x] for x in cards)
                # a pair already on the table raises the open graveyard's top card for the winner
                raised = self._zombie_value(rising, obs) if rising >= 0 and self._has_pair(cards) else 0.0
                if wins:
                    winners.append(c)
                    zombie = bool(my_zombies >> c & 1)
                    gain = float(base + (5 if c >= 52 else 0))
                    if zombie:
                        gain += sum(pts[x] for x in cards if 13 <= x < 26)
                    if raised:
                        gain += raised
                    if not last:
                        sure = self._is_top(c, lead_suit, trump_now, seen | mine)
                        gain = gain * (0.85 if sure else 0.45) - (0 if sure else 2)
                    value = gain - keep
                    why = Reason("take_points" if base > 0 else "win_cheap", {"card": text, "points": base})
                else:
                    value = -keep * 0.9
                    # an unwinnable trick is a place to dump clubs
                    if c < 13:
                        value += 1.5
                    if raised:
                        # an opponent gets the zombie: worse for us, but only by half (two rivals)
                        value -= raised * 0.5
                    why = Reason("dump_club" if c < 13 else "lowest", {"card": text})
            if value > best_value:
                best_action, best_value, best_reason = a, value, why
        self.reason = _true_of(best_reason, best_action.card, [a.card for a in legal], winners)
        return best_action

    def _rising(self, obs: Mapping[str, Any]) -> int:
        """The card a pair would raise next: the open graveyard's top, or -1 (closed or empty)."""
        grave = obs.get("graveyard")
        return parse_card(grave[0]) if grave else -1

    @staticmethod
    def _has_pair(cards: Sequence[int]) -> bool:
        ranks = [c % 13 for c in cards if c < 52]
        return len(set(ranks)) < len(ranks)

    def _zombie_value(self, card: int, obs: Mapping[str, Any]) -> float:
        """What a card rising into our hand is worth, in points of the round.

        A risen card is one card more than the others hold, so it can be kept to the end of the
        round if it is bad, or spent where it pays: a joker wins a trick with its +5 and the
        zombie doubling, a high diamond wins a doubled diamond trick, a heart is a survival
        bonus, and a club is a penalty card that a must-follow may force into our own trick.
        """
        if card >= 52:
            return 9.0
        suit, rank = card // 13, card % 13 + 2
        if suit == DIAMONDS:
            return 1.0 + max(0, rank - 8) * 1.2
        if suit == HEARTS:
            options = obs["options"]
            survivor: int = options["survivor_points"] + (1 if options["survival"] else 0)
            return 0.5 + survivor * 0.8
        if suit == CLUBS:
            return -1.0 - rank / 13 - (1 if obs["options"]["survival"] else 0) * 0.5
        return 0.5 + max(0, rank - 10) * 0.5

    def _is_top(self, c: int, led: int, trump_now: int, known: int) -> bool:
        """Whether no unseen card can beat ``c`` (jokers aside, which we cannot see)."""
        if c >= 52:
            return True
        suit = c // 13
        if trump_now >= 0 and suit != trump_now:
            return False
        higher = SUIT_MASKS[suit] & ~((1 << (c + 1)) - 1)
        return not higher & ~known

    def _lead_value(self, c: int, obs: Mapping[str, Any], seen: int, mine: int, trump_now: int) -> float:
        if c >= 52:
            return 3.0  # a led joker wins and calls diamonds
        suit = c // 13
        top = self._is_top(c, suit, trump_now, seen | mine)
        if suit == DIAMONDS:
            return 6.0 + (c % 13 + 2) if top else -(c % 13 + 2)
        if suit == CLUBS:
            return -1.0 if top else 1.0
        if suit == HEARTS:
            return 0.5 if top else -0.5
        return 2.0 if top else 1.0 - (c % 13) / 13


def _true_of(reason: Reason, card: int, legal: Sequence[int], winners: Sequence[int]) -> Reason:
    """The reason said of ``card`` as it is true of it: "cheapest" only for the lowest of the
    cards that take the trick, "lowest" only for the lowest card (a joker has no rank)."""
    rank = card % 13 if card < 52 else 99
    if reason.key == "win_cheap" and any(x % 13 < rank for x in winners if x < 52):
        return Reason("win_trick", reason.data)
    if reason.key == "lowest" and (card >= 52 or any(x % 13 < rank for x in legal if x < 52)):
        return Reason("shed_least", reason.data)
    return reason
