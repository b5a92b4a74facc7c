"""Bid and Call: a tiny game on the bare protocol (``torite.engine.base``), for the tests of the
web table's bidding box and card picker; it is registered by the tests only.

Three players get three cards each from a 52-card deck (the other 43 are not used).  From the
dealer's left, each in turn bids ``bid LEVEL DENOM`` (levels 1 to 3; denominations C < D < H <
S < NT, a higher level beats any lower one), higher than the last bid, or ``pass``; ``double``
an opponent's contract, and the doubled bidder may ``redouble``.  The auction ends when the
other two pass after the last bid (or all three pass: no contract, the game ends at 0).  The
highest bidder (the declarer) then names any card not in their hand, ``call QS``: whoever holds
it is the declarer's hidden partner (nobody, if it is among the unused cards).  Three tricks
follow, the declarer leading: follow suit if you can; the denomination is trump (none at NT).
The declarer's side makes the contract with at least LEVEL tricks: each of its players scores
+LEVEL (x2 doubled, x4 redoubled), else -LEVEL the same way.  One round, then the game ends.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from torite.cards import card_str, iter_bits, parse_card
from torite.engine.base import Action, Event, Game, IllegalAction, Result, State
from torite.engine.bot import Bot, RandomBot

DENOMS = ("C", "D", "H", "S", "NT")
LEVELS = (1, 2, 3)
HAND = 3
N = 3
BIDS = tuple(Action("bid", 0, f"{lvl} {d}") for lvl in LEVELS for d in DENOMS)
PASS, DOUBLE, REDOUBLE = Action("pass"), Action("double"), Action("redouble")


def _rank(bid: Action) -> int:
    level, denom = bid.arg.split()
    return (int(level) - 1) * len(DENOMS) + DENOMS.index(denom)


class BiddingGame(Game):
    id = "bidding-test"
    title = "Bid and Call"
    OPTIONS = ()

    @property
    def num_players(self) -> int:
        return N

    def new_state(self, seed: int | None = None, *, dealer: int | None = None, max_rounds: int | None = None,
                  deals: Sequence[Mapping[str, Any]] = ()) -> BiddingState:
        if deals:
            raise ValueError("bidding-test takes no explicit deals")
        return BiddingState(self, seed, dealer)

    def determinizer(self, obs: Mapping[str, Any]) -> Determinizer:
        return Determinizer(self, obs)

    def rule_bot(self, seat: int, rng: random.Random) -> Bot:
        return RandomBot(self, seat, rng)


class BiddingState(State):
    game: BiddingGame

    def __init__(self, game: BiddingGame, seed: int | None, dealer: int | None) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.dealer = self.rng.randrange(N) if dealer is None else dealer
        deck = list(range(52))
        self.rng.shuffle(deck)
        self.hands = [sum(1 << c for c in deck[i * HAND:(i + 1) * HAND]) for i in range(N)]
        self.phase = "bid"
        self.turn = (self.dealer + 1) % N
        self.auction: list[list[Any]] = []  # [seat, call text]
        self.contract: Action | None = None
        self.declarer = -1
        self.doubled = 0  # 0, 1 doubled, 2 redoubled
        self.passes = 0
        self.called = -1
        self.trick: list[tuple[int, int]] = []  # (seat, card)
        self.tricks: list[dict[str, Any]] = []
        self.tricks_won = [0] * N
        self.voids = [0] * N  # bit per suit
        self.scores = [0] * N
        self.round_scores: list[tuple[int, ...]] = []
        self.events = [Event("round", -1, {"round": 0, "dealer": self.dealer})]
        for s in range(N):
            self.events.append(Event("deal", s, {"cards": [card_str(c) for c in iter_bits(self.hands[s])]}, 1 << s))

    # ------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == "over" else (self.turn,)

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn or self.phase == "over":
            return []
        if self.phase == "bid":
            low = -1 if self.contract is None else _rank(self.contract)
            out = [b for b in BIDS if _rank(b) > low] + [PASS]
            if self.contract is not None and self.doubled == 0 and self.declarer != seat:
                out.append(DOUBLE)
            if self.doubled == 1 and self.declarer == seat:
                out.append(REDOUBLE)
            return out
        if self.phase == "call":
            return [Action("call", 1 << c) for c in range(52) if not self.hands[seat] >> c & 1]
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1] // 13
            follow = [c for c in iter_bits(hand) if c // 13 == led]
            if follow:
                return [Action("play", 1 << c) for c in follow]
        return [Action("play", 1 << c) for c in iter_bits(hand)]

    def apply(self, seat: int, action: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        if action not in self.legal_actions(seat):
            raise IllegalAction(f"{action} is not a legal {self.phase} action for seat {seat}")
        if self.phase == "bid":
            self._bid(seat, action)
        elif self.phase == "call":
            self.called = action.card
            self.events.append(Event("call", seat, {"card": card_str(self.called)}))
            self.phase = "play"
            self.turn = self.declarer
        else:
            self._play(seat, action.card)

    def _bid(self, seat: int, action: Action) -> None:
        self.auction.append([seat, str(action)])
        self.events.append(Event(action.kind, seat, {"bid": action.arg or None}))
        if action.kind == "pass":
            self.passes += 1
        else:
            self.passes = 0
            if action.kind == "bid":
                self.contract, self.declarer, self.doubled = action, seat, 0
            else:
                self.doubled += 1
        if self.contract is None and self.passes == N:
            self._end(no_contract=True)
        elif self.contract is not None and self.passes == N - 1:
            self.phase = "call"
            self.turn = self.declarer
            self.events.append(Event("contract", self.declarer, {"bid": self.contract.arg, "doubled": self.doubled}))
        else:
            self.turn = (seat + 1) % N

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        if self.trick and card // 13 != self.trick[0][1] // 13:
            self.voids[seat] |= 1 << self.trick[0][1] // 13
        self.trick.append((seat, card))
        self.events.append(Event("play", seat, {"card": card_str(card)}))
        if len(self.trick) < N:
            self.turn = (seat + 1) % N
            return
        assert self.contract is not None
        denom = self.contract.arg.split()[1]
        trump = DENOMS.index(denom) if denom != "NT" else -1
        led = self.trick[0][1] // 13

        def strength(c: int) -> int:
            return 100 + c % 13 if c // 13 == trump else (c % 13 if c // 13 == led else -1)

        winner = max(self.trick, key=lambda sc: strength(sc[1]))[0]
        self.tricks_won[winner] += 1
        record = {"leader": self.trick[0][0], "cards": [card_str(c) for _, c in self.trick], "winner": winner}
        self.tricks.append(record)
        self.events.append(Event("trick", winner, record))
        self.trick = []
        self.turn = winner
        if not any(self.hands):
            self._end(no_contract=False)

    def partner(self) -> int:
        """The holder of the called card (-1: nobody); known to all once the card is played."""
        for t in self.tricks:
            for i, c in enumerate(t["cards"]):
                if parse_card(c) == self.called:
                    return (t["leader"] + i) % N
        for s in range(N):
            if self.hands[s] >> self.called & 1:
                return s
        return -1

    def _end(self, *, no_contract: bool) -> None:
        points = [0] * N
        if not no_contract:
            assert self.contract is not None
            level = int(self.contract.arg.split()[0])
            side = {self.declarer, self.partner()} - {-1}
            made = sum(self.tricks_won[s] for s in side) >= level
            for s in side:
                points[s] = (level if made else -level) * 2 ** self.doubled
        self.scores = points
        self.round_scores = [tuple(points)]
        self.events.append(Event("round_end", -1, {"points": points, "scores": points,
                                                   "made": None if no_contract else points[self.declarer] > 0}))
        self.events.append(Event("game_end", -1, {"scores": points}))
        self.phase = "over"

    def observation(self, seat: int | None) -> dict[str, Any]:
        me = seat if seat is not None and 0 <= seat < N else -1
        return {
            "game": self.game.id, "options": {}, "seat": seat, "num_players": N, "phase": self.phase,
            "to_act": list(self.to_act()), "round": 0, "max_rounds": 1, "dealer": self.dealer,
            "scores": list(self.scores), "round_scores": [list(r) for r in self.round_scores],
            "round_points": list(self.scores), "tricks_won": list(self.tricks_won),
            "hand": [card_str(c) for c in iter_bits(self.hands[me])] if me >= 0 else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "auction": [list(a) for a in self.auction],
            "contract": self.contract.arg if self.contract else None,
            "declarer": self.declarer if self.contract else None, "doubled": self.doubled,
            "called": card_str(self.called) if self.called >= 0 else None,
            "turn": self.turn if self.phase != "over" else None,
            "trick": [{"seat": s, "card": card_str(c)} for s, c in self.trick],
            "tricks": [dict(t) for t in self.tricks],
            "voids": [[("CDHS")[x] for x in range(4) if v >> x & 1] for v in self.voids],
        }

    def result(self) -> Result:
        top = max(self.scores)
        return Result(tuple(self.scores), tuple(s for s in range(N) if self.scores[s] == top),
                      tuple(self.round_scores))

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        for name in ("hands", "auction", "trick", "tricks", "tricks_won", "voids", "scores", "round_scores",
                     "events"):
            setattr(new, name, list(getattr(self, name)))
        return new

    def stats(self) -> dict[str, float]:
        return {}

    @property
    def rounds_played(self) -> int:
        return len(self.round_scores)


class Determinizer:
    """The other hands dealt again from the cards this seat has not seen, respecting the
    suits a seat showed it lacks; everything else is public and copied."""

    def __init__(self, game: BiddingGame, obs: Mapping[str, Any]) -> None:
        if obs["seat"] is None:
            raise ValueError("a spectator's observation cannot be determinized")
        self.game, self.obs, self.seat = game, obs, int(obs["seat"])
        seen = {parse_card(c) for c in obs["hand"]}
        seen |= {parse_card(c) for t in obs["tricks"] for c in t["cards"]}
        seen |= {parse_card(t["card"]) for t in obs["trick"]}
        self.unseen = [c for c in range(52) if c not in seen]

    def sample(self, rng: random.Random) -> BiddingState:
        obs, seat = self.obs, self.seat
        st = BiddingState(self.game, rng.getrandbits(32), obs["dealer"])
        for _ in range(10000):
            pool = list(self.unseen)
            rng.shuffle(pool)
            hands = [0] * N
            hands[seat] = sum(1 << parse_card(c) for c in obs["hand"])
            ok = True
            for s in range(N):
                if s == seat:
                    continue
                allowed = [c for c in pool if "CDHS"[c // 13] not in obs["voids"][s]]
                take = allowed[:obs["hand_sizes"][s]]
                if len(take) < obs["hand_sizes"][s]:
                    ok = False
                    break
                for c in take:
                    pool.remove(c)
                    hands[s] |= 1 << c
            if ok:
                break
        else:
            raise RuntimeError("no deal fits the observation")
        st.hands = hands
        st.events = []
        st.phase, st.turn = obs["phase"], obs["turn"] if obs["turn"] is not None else 0
        st.auction = [list(a) for a in obs["auction"]]
        st.contract = Action("bid", 0, obs["contract"]) if obs["contract"] else None
        st.declarer = obs["declarer"] if obs["declarer"] is not None else -1
        st.doubled = obs["doubled"]
        st.passes = 0
        for _, call in reversed(obs["auction"]):
            if call != "pass":
                break
            st.passes += 1
        st.called = parse_card(obs["called"]) if obs["called"] else -1
        st.trick = [(t["seat"], parse_card(t["card"])) for t in obs["trick"]]
        st.tricks = [dict(t) for t in obs["tricks"]]
        st.tricks_won = list(obs["tricks_won"])
        st.voids = [sum(1 << "CDHS".index(x) for x in v) for v in obs["voids"]]
        st.scores = list(obs["scores"])
        st.round_scores = [tuple(r) for r in obs["round_scores"]]
        return st
