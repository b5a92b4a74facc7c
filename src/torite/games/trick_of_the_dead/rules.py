"""Trick of the Dead, exactly as ``rules.en.md`` (and ``shared/rules/trick-of-the-dead.md``) says.

Hands, zombies and trick contents are card bitmasks; the graveyard is a list whose last item is
its top card.  A decision is one action: ``bury`` (two cards, all seats at once), ``play``,
``trump`` (the first joker's declaration), ``call`` (the suit a led joker asks for).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final

from torite.cards import (
    JOKER1,
    JOKER2,
    JOKERS_MASK,
    SUIT_MASKS,
    card_str,
    iter_bits,
    parse_card,
)
from torite.engine.base import (
    ALL_SEATS,
    Action,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
)
from torite.engine.sampling import deal_constrained
from torite.engine.trick import PLAY_ACTIONS, TrickGameState, follow_suit, mask_of_texts, play_actions, suits_of

SUITS: Final = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
HEART_MASK: Final = SUIT_MASKS[HEARTS]
PLAY: Final = PLAY_ACTIONS
TRUMP: Final = tuple(Action("trump", 0, s) for s in SUITS)
CALL: Final = tuple(Action("call", 0, s) for s in SUITS)
DECK: Final = tuple(range(54))
BURY_PAIR: Final = tuple(tuple(Action("bury", (1 << a) | (1 << b)) for b in range(54)) for a in range(54))

BURY, PLAYING, DECLARE_TRUMP, DECLARE_CALL, OVER = "bury", "play", "trump", "call", "over"


def _suit(c: int) -> int:
    return c // 13 if c < 52 else -1


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


class TrickOfTheDead(Game):
    id = "trick-of-the-dead"
    title = "Trick of the Dead"
    OPTIONS = (
        OptionSpec("players", 3, "number of players (2 uses the two-player deal)", choices=(2, 3)),
        OptionSpec("survival", False, "clubs -3 and +3 per surviving heart instead of -2 and +2"),
        OptionSpec("open_graveyard", False, "after the shuffle the graveyard lies face up"),
        OptionSpec("zombie_doubles", "diamonds",
                   "what a trick won by a zombie doubles", choices=("diamonds", "trick")),
        OptionSpec("target", 100, "total that ends the game", minimum=1, maximum=100000),
    )
    STAT_KEYS = ("zombies", "joker_wins", "zombie_wins", "survival_points", "tricks")

    @property
    def num_players(self) -> int:
        n: int = self.options["players"]
        return n

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player before the burial."""
        return 16 if self.num_players == 3 else 20

    def card_points(self) -> tuple[int, ...]:
        """Points of each card for the trick's winner (options are fixed, so computed once)."""
        cached: tuple[int, ...] | None = getattr(self, "_card_points", None)
        if cached is not None:
            return cached
        club = -3 if self.options["survival"] else -2
        pts = []
        for c in range(54):
            s = _suit(c)
            pts.append(club if s == CLUBS else c % 13 + 2 if s == DIAMONDS else 1 if s == HEARTS else 0)
        self._card_points = tuple(pts)
        return self._card_points

    def new_state(self, seed: int | None = None, *, dealer: int | None = None,
                  max_rounds: int | None = None,
                  deals: Sequence[Mapping[str, Any]] = ()) -> TrickOfTheDeadState:
        return TrickOfTheDeadState(self, seed, dealer, max_rounds, deals)

    def determinizer(self, obs: Mapping[str, Any]) -> Determinizer:
        return Determinizer(self, obs)

    def status(self, obs: Mapping[str, Any]) -> list[tuple[str, str]]:
        zombies = "; ".join(f"seat {s}: {' '.join(z)}" for s, z in enumerate(obs["zombies"]) if z)
        trump = obs["trump_in_force"] or "none"
        if obs["trump"] and obs["trump"] != obs["trump_in_force"]:
            trump += f" ({obs['trump']} from the next trick)"
        rows = [("trump", trump), ("zombies", zombies or "none"),
                ("graveyard", f"{obs['graveyard_size']} cards")]
        if obs["graveyard"] is not None:
            rows.append(("graveyard (top first)", " ".join(obs["graveyard"])))
        if obs["buried"]:
            rows.append(("you buried", " ".join(obs["buried"])))
        rows.append(("tricks won", " / ".join(map(str, obs["tricks_won"]))))
        rows.append(("points this round", " / ".join(map(str, obs["round_points"]))))
        return rows

    def event_text(self, event: Event) -> str | None:
        d = event.data
        who = f"seat {event.seat}"
        if event.kind == "play" and d["zombie"]:
            return f"{who} plays {d['card']} (zombie)"
        if event.kind == "bury":
            return f"{who} buries {' '.join(d['cards'])}"
        if event.kind == "graveyard":
            order = f", face up (top first): {' '.join(d['order'])}" if "order" in d else ""
            return f"the graveyard is shuffled: {d['size']} cards{order}"
        if event.kind == "trump":
            return f"{who} declares {d['suit']} trump (from the next trick)"
        if event.kind == "call":
            return f"{who} calls {d['suit']}: follow {d['suit']}"
        if event.kind == "trick" and d["risen"]:
            base = super().event_text(event)
            return f"{base}; a zombie rises: {d['risen']} joins seat {d['winner']}'s hand"
        return super().event_text(event)

    def rule_bot(self, seat: int, rng: random.Random) -> Any:
        from torite.games.trick_of_the_dead.bot import TrickOfTheDeadBot

        return TrickOfTheDeadBot(self, seat, rng)


class TrickOfTheDeadState(TrickGameState):
    game: TrickOfTheDead
    LIST_FIELDS = ("zombies", "graveyard", "buried", "trick_zombie")

    def __init__(self, game: TrickOfTheDead, seed: int | None, dealer: int | None,
                 max_rounds: int | None, deals: Sequence[Mapping[str, Any]]) -> None:
        self.init_common(game, seed, dealer, max_rounds, deals)
        self._start_round()

    # ----------------------------------------------------------------- setup
    def _setup_options(self) -> None:
        """Constants of the rules that the options fix (shared with the determinizer)."""
        game = self.game
        self.points = game.card_points()
        self.survival_bonus = 3 if game.options["survival"] else 2
        self.double_trick = game.options["zombie_doubles"] == "trick"
        self.target: int = game.options["target"]

    def _check_deal(self, index: int, d: Mapping[str, Any]) -> None:
        n, size = self.n, self.game.hand_size
        try:
            hands = [[parse_card(c) for c in h] for h in d["hands"]]
            grave = [parse_card(c) for c in d["graveyard"]]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"bad deal: needs 'hands' and 'graveyard' as card lists ({e})") from None
        if len(hands) != n or any(len(h) != size for h in hands):
            raise ValueError(f"bad deal: needs {n} hands of {size} cards")
        allc = [c for h in hands for c in h] + grave
        if sorted(allc) != list(DECK):
            raise ValueError("bad deal: the hands and the graveyard must hold each of the 54 cards once")
        after = d.get("graveyard_after_burial")
        if after is not None:
            try:
                order = [parse_card(c) for c in after]
            except (TypeError, ValueError) as e:
                raise ValueError(f"bad deal: graveyard_after_burial ({e})") from None
            if len(order) != len(grave) + 2 * n or len(set(order)) != len(order):
                raise ValueError(f"bad deal: graveyard_after_burial needs {len(grave) + 2 * n} distinct cards")
            if not set(grave) <= set(order):
                raise ValueError("bad deal: graveyard_after_burial must hold every card of the graveyard")

    def _start_round(self) -> None:
        n = self.n
        self.round_no += 1
        if self.round_no > 0:
            self.dealer = (self.dealer + 1) % n
        size = self.game.hand_size
        deal = self.deals[self.round_no] if self.round_no < len(self.deals) else None
        if deal is not None:
            hands = [sum(1 << parse_card(c) for c in h) for h in deal["hands"]]
            grave = [parse_card(c) for c in reversed(deal["graveyard"])]  # listed top first
            after = deal.get("graveyard_after_burial")
            self.fixed_grave = [parse_card(c) for c in reversed(after)] if after else None
        else:
            deck = list(DECK)
            self.rng.shuffle(deck)
            hands = []
            for i in range(n):
                m = 0
                for c in deck[i * size:(i + 1) * size]:
                    m |= 1 << c
                hands.append(m)
            grave = deck[n * size:]
            self.fixed_grave = None
        self.hands = hands
        self.zombies = [0] * n
        self.graveyard: list[int] = grave
        self.grave_public = False
        self.buried = [0] * n
        self.phase = BURY
        self.pending = (1 << n) - 1  # seats still to bury
        self.leader = (self.dealer + 1) % n
        self.turn = self.leader
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.trick_zombie: list[bool] = []
        self.led = -1
        self.trump = -1
        self.trump_now = -1  # the trump in force for the current trick
        self.jokers_played = 0
        self.need_call = False
        self.played = 0  # cards played this round
        self.voids = [0] * n  # suits (bit per suit) a seat's hidden cards lack
        self.history: list[dict[str, Any]] = []
        self.round_points = [0] * n
        self.tricks_won = [0] * n
        self.events.append(Event("round", -1, {"round": self.round_no, "dealer": self.dealer}))
        for s in range(n):
            self.events.append(Event("deal", s, {"cards": [card_str(c) for c in iter_bits(hands[s])]}, 1 << s))

    # --------------------------------------------------------------- protocol
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == BURY:
            return tuple(s for s in range(self.n) if self.pending >> s & 1)
        if phase == OVER:
            return ()
        return (self.turn,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_play_mask(self, seat: int) -> int:
        """Must follow, but a joker may be played at any time."""
        return follow_suit(self.hands[seat], self.led if self.trick else -1, wild=JOKERS_MASK)

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PLAYING:
            if seat != self.turn:
                return []
            return play_actions(self._legal_play_mask(seat))
        if phase == BURY:
            if not self.pending >> seat & 1:
                return []
            cards = list(iter_bits(self.hands[seat] & self._buriable()))
            return [BURY_PAIR[a][b] for a, b in combinations(cards, 2)]
        if phase in (DECLARE_TRUMP, DECLARE_CALL):
            if seat != self.turn:
                return []
            return list(TRUMP if phase == DECLARE_TRUMP else CALL)
        return []

    def apply(self, seat: int, action: Action) -> None:
        phase = self.phase
        kind = action.kind
        if phase == PLAYING:
            if seat != self.turn:
                raise IllegalAction(f"it is seat {self.turn}'s turn to play, not seat {seat}'s")
            if kind != "play":
                raise IllegalAction(f"seat {seat} must play a card, not {kind!r}")
            cards = action.cards
            if cards.bit_count() != 1 or action.arg:
                raise IllegalAction("play names exactly one card")
            if cards >> 54:
                raise IllegalAction("play names a card that is not in the deck")
            if not cards & self.hands[seat]:
                raise IllegalAction(f"{card_str(cards.bit_length() - 1)} is not in seat {seat}'s hand")
            if not cards & self._legal_play_mask(seat):
                raise IllegalAction(f"seat {seat} must follow {SUITS[self.led]}")
            self._play(seat, cards.bit_length() - 1)
        elif phase == BURY:
            if not self.pending >> seat & 1:
                raise IllegalAction(f"seat {seat} has no burial to make now")
            if kind != "bury":
                raise IllegalAction(f"seat {seat} must bury two cards, not {kind!r}")
            if action.cards.bit_count() != 2 or action.arg:
                raise IllegalAction("bury names exactly two cards")
            if action.cards & ~self.hands[seat]:
                raise IllegalAction(f"seat {seat} can only bury cards from its hand")
            if action.cards & ~self._buriable():
                raise IllegalAction("the deal's graveyard_after_burial does not hold these cards")
            self._bury(seat, action.cards)
        elif phase in (DECLARE_TRUMP, DECLARE_CALL):
            if seat != self.turn:
                raise IllegalAction(f"seat {self.turn} is declaring, not seat {seat}")
            if kind != phase or action.cards or len(action.arg) != 1 or action.arg not in SUITS:
                what = "a trump suit" if phase == DECLARE_TRUMP else "the suit to follow"
                raise IllegalAction(f"seat {seat} must declare {what}: {phase} C, D, H or S")
            suit = SUITS.index(action.arg)
            if phase == DECLARE_TRUMP:
                self.trump = suit
                self.events.append(Event("trump", seat, {"suit": action.arg}))
                if self.need_call:
                    self.phase = DECLARE_CALL
                    return
            else:
                self.led = suit
                self.need_call = False
                self.events.append(Event("call", seat, {"suit": action.arg}))
            self.phase = PLAYING
            self._advance()
        else:
            raise IllegalAction("the game is over")

    # ------------------------------------------------------------- mechanics
    def _buriable(self) -> int:
        """Cards a burial may name: any, unless the deal fixed the graveyard after the burial."""
        if self.fixed_grave is None:
            return (1 << 54) - 1
        return sum(1 << c for c in self.fixed_grave)

    def _bury(self, seat: int, cards: int) -> None:
        self.hands[seat] &= ~cards
        self.buried[seat] = cards
        self.graveyard.extend(iter_bits(cards))
        self.pending &= ~(1 << seat)
        self.events.append(Event("bury", seat, {"cards": [card_str(c) for c in iter_bits(cards)]}, 1 << seat))
        if self.pending:
            return
        if self.fixed_grave is not None:
            if sorted(self.fixed_grave) != sorted(self.graveyard):
                raise IllegalAction("the record's graveyard_after_burial does not match the burial")
            self.graveyard = list(self.fixed_grave)
        else:
            self.rng.shuffle(self.graveyard)  # ruling G1
        self.grave_public = self.game.options["open_graveyard"]
        data: dict[str, Any] = {"size": len(self.graveyard)}
        if self.grave_public:
            data["order"] = [card_str(c) for c in reversed(self.graveyard)]
        self.events.append(Event("graveyard", -1, data))
        self.phase = PLAYING

    def _play(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.hands[seat] &= ~bit
        zombie = bool(self.zombies[seat] & bit)
        self.zombies[seat] &= ~bit
        self.played |= bit
        lead = not self.trick
        if lead:
            self.led = _suit(card)
        elif card < 52 and _suit(card) != self.led:
            self.voids[seat] |= 1 << self.led
        self.trick.append(card)
        self.trick_seats.append(seat)
        self.trick_zombie.append(zombie)
        self.events.append(Event("play", seat, {"card": card_str(card), "zombie": zombie}))
        if card >= 52:
            first = self.jokers_played == 0
            self.jokers_played += 1
            if lead:
                self.need_call = True
            if first:
                self.phase = DECLARE_TRUMP
                return
            if lead:
                self.phase = DECLARE_CALL
                return
        self._advance()

    def _advance(self) -> None:
        if len(self.trick) < self.n:
            self.turn = (self.turn + 1) % self.n
            return
        self._resolve()

    def winning_index(self) -> int:
        """Index in the current trick of the card that wins it."""
        return winning_index(self.trick, self.led, self.trump_now)

    def trick_points(self, win: int) -> int:
        """Points of the current trick for its winner, given the winning card's index."""
        pts = self.points
        card = self.trick[win]
        if self.trick_zombie[win]:
            if self.double_trick:
                total = 2 * sum(pts[c] for c in self.trick)
            else:
                total = sum(pts[c] * (2 if 13 <= c < 26 else 1) for c in self.trick)
        else:
            total = sum(pts[c] for c in self.trick)
        if card >= 52:
            total += 5
        return total

    def _resolve(self) -> None:
        win = self.winning_index()
        winner = self.trick_seats[win]
        pts = self.trick_points(win)
        self.round_points[winner] += pts
        self.tricks_won[winner] += 1
        counters = self.counters
        counters["tricks"] += 1
        if self.trick[win] >= 52:
            counters["joker_wins"] += 1
        if self.trick_zombie[win]:
            counters["zombie_wins"] += 1
        ranks = [c % 13 for c in self.trick if c < 52]
        risen = -1
        if len(set(ranks)) < len(ranks) and self.graveyard:
            risen = self.graveyard.pop()
            self.hands[winner] |= 1 << risen
            self.zombies[winner] |= 1 << risen
            counters["zombies"] += 1
        record = {"leader": self.trick_seats[0], "cards": [card_str(c) for c in self.trick],
                  "zombie": list(self.trick_zombie), "winner": winner, "points": pts,
                  "led": SUITS[self.led] if self.led >= 0 else None,
                  "risen": card_str(risen) if risen >= 0 else None}
        self.history.append(record)
        self.events.append(Event("trick", winner, record))
        self.trick = []
        self.trick_seats = []
        self.trick_zombie = []
        self.led = -1
        self.trump_now = self.trump
        self.leader = self.turn = winner
        if not all(self.hands):
            self._end_round()

    def _end_round(self) -> None:
        n = self.n
        for s in range(n):
            bonus = (self.hands[s] & HEART_MASK).bit_count() * self.survival_bonus
            self.round_points[s] += bonus
            self.counters["survival_points"] += bonus
        for s in range(n):
            self.scores[s] += self.round_points[s]
        self.round_scores.append(tuple(self.round_points))
        self.events.append(Event("round_end", -1, {"points": list(self.round_points),
                                                   "scores": list(self.scores)}))
        if self.max_rounds is not None and len(self.round_scores) >= self.max_rounds:
            self.phase = OVER
        elif max(self.scores) >= self.target and self.scores.count(max(self.scores)) == 1:
            self.phase = OVER  # ruling F1
        else:
            self._start_round()
            return
        self.events.append(Event("game_end", -1, {"scores": list(self.scores)}))

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.n
        me = seat if seat is not None and 0 <= seat < n else -1
        cs = card_str
        obs = self.common_observation(seat)
        obs.update({
            "zombies": [[cs(c) for c in iter_bits(z)] for z in self.zombies],
            "buried": [cs(c) for c in iter_bits(self.buried[me])] if me >= 0 else [],
            "buried_done": [not self.pending >> s & 1 for s in range(n)] if self.phase == BURY
            else [True] * n,
            "graveyard_size": len(self.graveyard),
            "graveyard": [cs(c) for c in reversed(self.graveyard)] if self.grave_public else None,
            "turn": self.turn if self.phase in (PLAYING, DECLARE_TRUMP, DECLARE_CALL) else None,
            "trick": [{"seat": s, "card": cs(c), "zombie": z}
                      for s, c, z in zip(self.trick_seats, self.trick, self.trick_zombie)],
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trump_in_force": SUITS[self.trump_now] if self.trump_now >= 0 else None,
            "jokers_played": self.jokers_played,
            "need_call": self.need_call,
        })
        return obs


class Determinizer:
    """Everything one seat knows, read once from its observation, and a sampler of full states
    consistent with it.  Built from the observation alone, so a search bot using it cannot see
    more than its seat may."""

    def __init__(self, game: TrickOfTheDead, obs: Mapping[str, Any]) -> None:
        self.game = game
        self.obs = obs
        n = game.num_players
        seat = obs["seat"]
        if seat is None:
            raise ValueError("a spectator's observation cannot be determinized")
        self.seat: int = seat
        self.hand = mask_of_texts(obs["hand"])
        self.zombies = [mask_of_texts(z) for z in obs["zombies"]]
        self.buried = mask_of_texts(obs["buried"])
        played = 0
        for t in obs["tricks"]:
            played |= mask_of_texts(t["cards"])
        played |= mask_of_texts(t["card"] for t in obs["trick"])
        self.trick = [parse_card(t["card"]) for t in obs["trick"]]
        grave_known = obs["graveyard"]
        self.grave_known = [parse_card(c) for c in reversed(grave_known)] if grave_known is not None else None
        known = self.hand | played | sum(self.zombies)
        if self.grave_known is not None:
            known |= mask_of_texts(grave_known)
        risen = mask_of_texts(t["risen"] for t in obs["tricks"] if t["risen"])
        # own buried cards that have not risen are certainly in the graveyard
        self.own_in_grave = self.buried & ~risen & ~known
        if self.grave_known is not None:
            self.own_in_grave = 0
        self.pool = ((1 << 54) - 1) & ~known & ~self.own_in_grave
        sizes, forbidden, places = [], [], []
        for s in range(n):
            if s == seat:
                continue
            hidden = obs["hand_sizes"][s] - self.zombies[s].bit_count()
            sizes.append(hidden)
            forbidden.append(sum(SUIT_MASKS[x] for x in iter_bits(suits_of(obs["voids"][s]))))
            places.append(s)
        if self.grave_known is None:
            sizes.append(obs["graveyard_size"] - self.own_in_grave.bit_count())
            forbidden.append(0)
            places.append(-1)
        self.sizes, self.forbidden, self.places = sizes, forbidden, places

    def sample(self, rng: random.Random) -> TrickOfTheDeadState:
        obs, n, seat = self.obs, self.game.num_players, self.seat
        parts = deal_constrained(self.pool, self.sizes, self.forbidden, rng)
        st = TrickOfTheDeadState.__new__(TrickOfTheDeadState)
        st.restore_common(self.game, obs, rng)
        st._setup_options()
        hands = [0] * n
        hands[seat] = self.hand
        grave_hidden = 0
        for place, m in zip(self.places, parts):
            if place < 0:
                grave_hidden = m
            else:
                hands[place] = m | self.zombies[place]
        st.hands = hands
        st.zombies = list(self.zombies)
        if self.grave_known is not None:
            st.graveyard = list(self.grave_known)
        else:
            grave = list(iter_bits(grave_hidden | self.own_in_grave))
            rng.shuffle(grave)
            st.graveyard = grave
        st.grave_public = self.grave_known is not None
        buried = [0] * n
        buried[seat] = self.buried
        phase = obs["phase"]
        done = obs["buried_done"]
        if phase == BURY:
            # another seat's burial so far: two of the hidden graveyard cards, not ours
            spare = [c for c in iter_bits(grave_hidden)]
            rng.shuffle(spare)
            for s in range(n):
                if s != seat and done[s]:
                    buried[s] = (1 << spare.pop()) | (1 << spare.pop())
        st.buried = buried
        st.fixed_grave = None
        st.pending = sum(1 << s for s in range(n) if not done[s]) if phase == BURY else 0
        st.turn = obs["turn"] if obs["turn"] is not None else obs["leader"]
        st.trick = list(self.trick)
        st.trick_seats = [t["seat"] for t in obs["trick"]]
        st.trick_zombie = [t["zombie"] for t in obs["trick"]]
        st.trump = SUITS.index(obs["trump"]) if obs["trump"] else -1
        st.trump_now = SUITS.index(obs["trump_in_force"]) if obs["trump_in_force"] else -1
        st.jokers_played = obs["jokers_played"]
        st.need_call = obs["need_call"]
        played = 0
        for t in obs["tricks"]:
            for c in t["cards"]:
                played |= 1 << parse_card(c)
        for c in self.trick:
            played |= 1 << c
        st.played = played
        return st


__all__ = ["ALL_SEATS", "JOKER1", "JOKER2", "Determinizer", "TrickOfTheDead", "TrickOfTheDeadState"]
