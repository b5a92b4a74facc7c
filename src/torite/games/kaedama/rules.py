"""Kaedama Trick, exactly as ``rules.en.md`` (and ``shared/rules/kaedama-trick.md``) says.

Hands and won cards are card bitmasks; the stock is a list whose last item is its top card; the
out-of-game pile is a list in the order the cards left play.  A decision is one action: ``play``
(a card) in the play of a trick, ``replace`` or ``pass`` in the kaedama phase.  Seats that may
not replace are skipped, so every decision asked is a real choice.

Explicit deals (``new_state(deals=[...])``), one mapping per round, in order::

    {"hands": [[10 cards], [10 cards], [10 cards]],   # by seat; lists or space-separated text
     "stock": [6 cards],                                # top first; its first card is turned
     "stock_after_trump": [6 cards]}                    # optional, top first (see below)

The first card of ``stock`` is the one turned up to fix trump.  With ``trump_card=shuffle`` the
stock is then shuffled with the game's generator, unless ``stock_after_trump`` gives the order
after that shuffle (the same six cards).  With ``trump_card=top`` nothing is shuffled, so the
turned card is the first one drawn.  With ``double`` the hands have 9 cards, ``stock`` has 13:
its first card is turned and stays out of play (the first card of the out-of-game pile), the
other 12 are the stock in the order given (``stock_after_trump`` is refused).

``max_rounds`` stops the game after that many rounds when it is fewer than the ``rounds`` option.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from torite.cards import SUIT_MASKS, card_str, iter_bits, parse_card
from torite.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
)
from torite.engine.sampling import deal_constrained
from torite.engine.trick import PLAY_ACTIONS, TrickGameState, follow_suit, play_actions

SUITS: Final = "CDHS"
NUM_PLAYERS: Final = 3
PLAY: Final = PLAY_ACTIONS
REPLACE: Final = Action("replace")
PASS: Final = Action("pass")


def _deck(low_rank: int) -> tuple[int, ...]:
    return tuple(s * 13 + r - 2 for s in range(4) for r in range(low_rank, 14))


DECK_36: Final = _deck(5)  # 5..K, no aces
DECK_40: Final = _deck(4)  # 4..K, the double variant (ruling D1)

PLAYING, KAEDAMA, OVER = "play", "kaedama", "over"

# What every seat knows about where the turned trump card is (``turned_card_at``).
T_SHUFFLED = "shuffled"  # shuffled back into the stock (with blind it may since lie face down)
T_TOP = "top"  # on top of the stock: the next card drawn
T_OUT = "out"  # double: face up out of play (first card of the out-of-game pile)
T_FACE_DOWN = "face_down"  # blind + top: drawn face down by ``turned_card_seat``, not yet revealed
T_SHOWN = "shown"  # drawn and seen: it is wherever the public record shows it


def round_bonus(tricks: Sequence[int], reversals: Sequence[int]) -> list[int]:
    """Round bonuses: most tricks +3, most reversals +2 (needs one); ties share in full (B1)."""
    out = [0] * len(tricks)
    top = max(tricks)
    for s, t in enumerate(tricks):
        if t == top:
            out[s] += 3
    top_rev = max(reversals)
    if top_rev > 0:
        for s, r in enumerate(reversals):
            if r == top_rev:
                out[s] += 2
    return out


def _card_list(value: Any) -> list[int]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    return [parse_card(c) for c in value]


class Kaedama(Game):
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
    )
    STAT_KEYS = ("replacements", "reversals", "tricks")

    @property
    def num_players(self) -> int:
        return NUM_PLAYERS

    @property
    def hand_size(self) -> int:
        return 9 if self.options["double"] else 10

    @property
    def deck(self) -> tuple[int, ...]:
        return DECK_40 if self.options["double"] else DECK_36

    @property
    def stock_dealt(self) -> int:
        """Cards left after the deal (the turned card included)."""
        return len(self.deck) - NUM_PLAYERS * self.hand_size

    def new_state(self, seed: int | None = None, *, dealer: int | None = None,
                  max_rounds: int | None = None,
                  deals: Sequence[Mapping[str, Any]] = ()) -> KaedamaState:
        return KaedamaState(self, seed, dealer, max_rounds, deals)

    def determinizer(self, obs: Mapping[str, Any]) -> Determinizer:
        return Determinizer(self, obs)

    def status(self, obs: Mapping[str, Any]) -> list[tuple[str, str]]:
        where = {"shuffled": "somewhere in the stock", "top": "on top of the stock", "out": "out of play",
                 "face_down": "drawn face down", "shown": "drawn"}[obs["turned_card_at"]]
        rows = [("trump", f"{obs['trump']} (turned card {obs['turned_card']}, {where})"),
                ("stock", f"{obs['stock_size']} cards"),
                ("out of the game", " ".join(c or "??" for c in obs["out"]) or "none"),
                ("tricks won", " / ".join(map(str, obs["tricks_won"]))),
                ("reversals", " / ".join(map(str, obs["reversals"]))),
                ("points this round", " / ".join(map(str, obs["round_points"])))]
        if obs["phase"] == "kaedama":
            rows.append(("kaedama", "replace your card with the top of the stock, or pass"))
        return rows

    def event_text(self, event: Event) -> str | None:
        d = event.data
        who = f"seat {event.seat}"
        if event.kind == "trump":
            return f"{d['card']} is turned: {d['suit']} is trump"
        if event.kind == "kaedama_turn":
            return None
        if event.kind == "pass":
            return f"{who} passes"
        if event.kind == "replace":
            out = d["out"] or "a face-down card"
            drawn = d["drawn"] or "a face-down card"
            return f"{who} replaces {out} with {drawn} from the stock ({d['stock_size']} left)"
        if event.kind == "reveal":
            return f"the face-down cards are turned up: {' '.join(d['revealed'] + d['out'])}"
        if event.kind == "trick":
            rev = " — a kaedama reversal" if d["reversal"] else ""
            return f"{who} wins the trick ({' '.join(d['cards'])}) for {d['points']}{rev}"
        if event.kind == "round_end":
            return (f"round over: tricks {d['tricks']}, reversals {d['reversals']}, bonuses {d['bonus']}, "
                    f"points {d['points']} (totals {d['scores']})")
        return super().event_text(event)

    def rule_bot(self, seat: int, rng: random.Random) -> Any:
        from torite.games.kaedama.bot import KaedamaBot

        return KaedamaBot(self, seat, rng)


class KaedamaState(TrickGameState):
    game: Kaedama
    LIST_FIELDS = ("stock", "out", "out_down", "played", "drawn", "down", "behind", "draws", "taken",
                   "reversals")

    def __init__(self, game: Kaedama, seed: int | None, dealer: int | None,
                 max_rounds: int | None, deals: Sequence[Mapping[str, Any]]) -> None:
        self.init_common(game, seed, dealer, max_rounds, deals)
        rounds: int = game.options["rounds"]
        self.limit = rounds if max_rounds is None else min(rounds, max_rounds)
        self._start_round()

    def _setup_options(self) -> None:
        opts = self.game.options
        self.blind: bool = opts["blind"]
        self.double: bool = opts["double"]
        self.reverse: bool = opts["reverse"]
        self.top_mode: bool = opts["trump_card"] == "top"

    # ----------------------------------------------------------------- setup
    def _check_deal(self, i: int, d: Mapping[str, Any]) -> None:
        game = self.game
        size, stock_n = game.hand_size, game.stock_dealt
        where = f"bad deal {i}"
        extra = sorted(set(d) - {"hands", "stock", "stock_after_trump"})
        if extra:
            raise ValueError(f"{where}: unknown key(s) {', '.join(extra)} "
                             "(keys: hands, stock, stock_after_trump)")
        try:
            hands = [_card_list(h) for h in d["hands"]]
            stock = _card_list(d["stock"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{where}: needs 'hands' ({NUM_PLAYERS} lists of {size} cards) and "
                             f"'stock' ({stock_n} cards, top first) ({e})") from None
        if len(hands) != NUM_PLAYERS or any(len(h) != size for h in hands):
            raise ValueError(f"{where}: needs {NUM_PLAYERS} hands of {size} cards")
        if len(stock) != stock_n:
            raise ValueError(f"{where}: the stock needs {stock_n} cards, got {len(stock)}")
        low = "4" if self.double else "5"
        if sorted([c for h in hands for c in h] + stock) != sorted(game.deck):
            raise ValueError(f"{where}: the hands and the stock must hold each of the {len(game.deck)} "
                             f"cards {low} to K once")
        after = d.get("stock_after_trump")
        if after is None:
            return
        if self.double:
            raise ValueError(f"{where}: stock_after_trump has no use with double "
                             "(the turned card stays out of play)")
        try:
            order = _card_list(after)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{where}: stock_after_trump ({e})") from None
        if sorted(order) != sorted(stock):
            raise ValueError(f"{where}: stock_after_trump must be the stock's {stock_n} cards in a new order")
        if self.top_mode and order != stock:
            raise ValueError(f"{where}: with trump_card=top the stock is not shuffled, "
                             "so stock_after_trump must equal stock")

    def _start_round(self) -> None:
        game = self.game
        self.round_no += 1
        if self.round_no > 0:
            self.dealer = (self.dealer + 1) % NUM_PLAYERS
        size = game.hand_size
        deal = self.deals[self.round_no] if self.round_no < len(self.deals) else None
        after: list[int] | None = None
        if deal is not None:
            hands = [sum(1 << c for c in _card_list(h)) for h in deal["hands"]]
            stock = _card_list(deal["stock"])[::-1]  # listed top first; the top is the last item
            if deal.get("stock_after_trump") is not None:
                after = _card_list(deal["stock_after_trump"])[::-1]
        else:
            deck = list(game.deck)
            self.rng.shuffle(deck)
            hands = []
            for i in range(NUM_PLAYERS):
                m = 0
                for c in deck[i * size:(i + 1) * size]:
                    m |= 1 << c
                hands.append(m)
            stock = deck[NUM_PLAYERS * size:]
        self.hands = hands
        turned = stock[-1]
        self.turned = turned
        self.trump = turned // 13
        self.out: list[int] = []
        self.out_down: list[bool] = []
        if self.double:
            stock.pop()
            self.out.append(turned)
            self.out_down.append(False)
            self.turned_at = T_OUT
        elif self.top_mode:
            self.turned_at = T_TOP
        else:
            self.turned_at = T_SHUFFLED
            if after is not None:
                stock = after
            else:
                self.rng.shuffle(stock)  # ruling S1
        self.stock: list[int] = stock
        self.turned_slot = -1  # trick position of the turned card lying face down (T_FACE_DOWN)
        self.phase = PLAYING
        self.leader = (self.dealer + 1) % NUM_PLAYERS
        self.turn = self.leader
        self._clear_trick()
        self.voids = [0] * NUM_PLAYERS  # bit per suit a seat has shown it lacks
        self.taken = [0] * NUM_PLAYERS  # cards in the tricks each seat won this round
        self.history: list[dict[str, Any]] = []
        self.round_points = [0] * NUM_PLAYERS
        self.tricks_won = [0] * NUM_PLAYERS
        self.reversals = [0] * NUM_PLAYERS
        self.events.append(Event("round", -1, {"round": self.round_no, "dealer": self.dealer}))
        for s in range(NUM_PLAYERS):
            self.events.append(Event("deal", s, {"cards": [card_str(c) for c in iter_bits(hands[s])]},
                                     1 << s))
        self.events.append(Event("trump", -1, {"card": card_str(turned), "suit": SUITS[self.trump],
                                               "turned_card_at": self.turned_at,
                                               "stock_size": len(self.stock)}))

    def _clear_trick(self) -> None:
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.played: list[int] = []  # the cards first played, by trick position
        self.drawn = [False] * NUM_PLAYERS  # the card at this position was drawn this trick
        self.down = [False] * NUM_PLAYERS  # it lies face down (blind)
        self.behind = [False] * NUM_PLAYERS  # its drawer was not winning just before the draw
        self.draws = [0] * NUM_PLAYERS
        self.led = -1
        self.k_pos = 0  # trick position deciding in the kaedama phase
        self.k_step = 0  # 1 for a second decision (double)

    # --------------------------------------------------------------- protocol
    @property
    def rounds_played(self) -> int:
        return len(self.round_scores)

    def to_act(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        return (self.turn,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def _legal_play_mask(self, seat: int) -> int:
        return follow_suit(self.hands[seat], self.led if self.trick else -1)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        phase = self.phase
        if phase == PLAYING:
            return play_actions(self._legal_play_mask(seat))
        if phase == KAEDAMA:
            return [REPLACE, PASS]
        return []

    def apply(self, seat: int, action: Action) -> None:
        phase = self.phase
        if phase == OVER:
            raise IllegalAction("the game is over")
        if seat != self.turn:
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        kind = action.kind
        if phase == PLAYING:
            if kind != "play":
                raise IllegalAction(f"seat {seat} must play a card, not {kind!r}")
            cards = action.cards
            if cards.bit_count() != 1 or action.arg:
                raise IllegalAction("play names exactly one card")
            if not cards & self.hands[seat]:
                raise IllegalAction(f"{card_str(cards.bit_length() - 1)} is not in seat {seat}'s hand")
            if not cards & self._legal_play_mask(seat):
                raise IllegalAction(f"seat {seat} must follow {SUITS[self.led]}")
            self._play(seat, cards.bit_length() - 1)
            return
        if action.cards or action.arg or kind not in ("replace", "pass"):
            raise IllegalAction(f"seat {seat} must decide whether to replace: replace or pass")
        if kind == "replace":
            self._replace(self.k_pos)
            if self.double and self.k_step == 0 and self._may_replace(self.k_pos):
                self.k_step = 1
                self.events.append(Event("kaedama_turn", seat, {"step": 2}))
                return
        else:
            self.events.append(Event("pass", seat, {"step": self.k_step + 1}))
        self._next_decider(self.k_pos + 1)

    # ------------------------------------------------------------- mechanics
    def _play(self, seat: int, card: int) -> None:
        self.hands[seat] ^= 1 << card
        trick = self.trick
        if not trick:
            self.led = card // 13
        elif card // 13 != self.led:
            self.voids[seat] |= 1 << self.led
        trick.append(card)
        self.trick_seats.append(seat)
        self.played.append(card)
        self.events.append(Event("play", seat, {"card": card_str(card)}))
        if len(trick) < NUM_PLAYERS:
            self.turn = (seat + 1) % NUM_PLAYERS
            return
        if self.stock:
            self.phase = KAEDAMA
            self._next_decider(0)
        else:
            self._resolve()

    def win_position(self, face_up_only: bool = False) -> int:
        """Trick position of the card winning now: highest trump, else highest of the led suit
        (ruling L1: the led suit is the original lead's), else the leader (ruling L2).  With
        ``face_up_only`` the face-down cards count as absent (blind)."""
        trick = self.trick
        trump, led, down = self.trump, self.led, self.down
        best, best_val = 0, -1
        for i in range(len(trick)):
            if face_up_only and down[i]:
                continue
            c = trick[i]
            s = c // 13
            if s == trump:
                v = 16 + c % 13
            elif s == led:
                v = c % 13
            else:
                continue
            if v > best_val:
                best, best_val = i, v
        return best

    def _may_replace(self, pos: int) -> bool:
        return bool(self.stock) and (self.reverse or self.win_position(self.blind) != pos)

    def _next_decider(self, pos: int) -> None:
        while pos < NUM_PLAYERS:
            if self._may_replace(pos):
                self.k_pos = pos
                self.k_step = 0
                self.turn = self.trick_seats[pos]
                self.events.append(Event("kaedama_turn", self.turn, {"step": 1}))
                return
            pos += 1
        self._finish_kaedama()

    def _replace(self, pos: int) -> None:
        seat = self.trick_seats[pos]
        behind = self.win_position(self.blind) != pos
        old = self.trick[pos]
        old_down = self.down[pos]
        new = self.stock.pop()
        self.out.append(old)
        self.out_down.append(old_down)  # a face-down card replaced again goes out face down (K4)
        self.trick[pos] = new
        self.drawn[pos] = True
        self.down[pos] = self.blind
        self.behind[pos] = behind
        self.draws[pos] += 1
        self.counters["replacements"] += 1
        if new == self.turned:
            if not self.blind:
                self.turned_at = T_SHOWN
            elif self.turned_at == T_TOP:
                self.turned_at = T_FACE_DOWN
                self.turned_slot = pos
        elif self.turned_at == T_TOP:  # cannot happen: the top card is the turned one
            raise AssertionError("turned card lost from the top of the stock")
        self.events.append(Event("replace", seat, {
            "out": None if old_down else card_str(old),
            "drawn": None if self.blind else card_str(new),
            "step": self.k_step + 1,
            "stock_size": len(self.stock),
        }))

    def _finish_kaedama(self) -> None:
        if self.blind and (any(self.down) or any(self.out_down)):
            revealed = [card_str(c) for c, d in zip(self.trick, self.down) if d]
            revealed_out = [card_str(c) for c, d in zip(self.out, self.out_down) if d]
            shown = [c for c, d in zip(self.trick, self.down) if d]
            shown += [c for c, d in zip(self.out, self.out_down) if d]
            if self.turned in shown:
                self.turned_at = T_SHOWN
                self.turned_slot = -1
            self.down = [False] * NUM_PLAYERS
            self.out_down = [False] * len(self.out)
            self.events.append(Event("reveal", -1, {"trick": [card_str(c) for c in self.trick],
                                                    "revealed": revealed, "out": revealed_out}))
        self._resolve()

    def _resolve(self) -> None:
        win = self.win_position()
        winner = self.trick_seats[win]
        reversal = self.drawn[win] and self.behind[win]
        pts = 2 if reversal else 1
        self.round_points[winner] += pts
        self.tricks_won[winner] += 1
        counters = self.counters
        counters["tricks"] += 1
        if reversal:
            self.reversals[winner] += 1
            counters["reversals"] += 1
        m = 0
        for c in self.trick:
            m |= 1 << c
        self.taken[winner] |= m
        record = {"leader": self.trick_seats[0], "seats": list(self.trick_seats),
                  "played": [card_str(c) for c in self.played],
                  "cards": [card_str(c) for c in self.trick],
                  "drawn": self.drawn[:], "draws": self.draws[:],
                  "led": SUITS[self.led], "winner": winner, "points": pts, "reversal": reversal}
        self.history.append(record)
        self.events.append(Event("trick", winner, record))
        self._clear_trick()
        self.phase = PLAYING
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_round()

    def _end_round(self) -> None:
        bonus = round_bonus(self.tricks_won, self.reversals)
        for s in range(NUM_PLAYERS):
            self.round_points[s] += bonus[s]
            self.scores[s] += self.round_points[s]
        self.round_scores.append(tuple(self.round_points))
        self.events.append(Event("round_end", -1, {"tricks": list(self.tricks_won),
                                                   "reversals": list(self.reversals),
                                                   "bonus": bonus, "points": list(self.round_points),
                                                   "scores": list(self.scores)}))
        if len(self.round_scores) >= self.limit:
            self.phase = OVER
            self.turn = -1
            self.events.append(Event("game_end", -1, {"scores": list(self.scores),
                                                      "winners": list(self.result().winners)}))
        else:
            self._start_round()

    def observation(self, seat: int | None) -> dict[str, Any]:
        cs = card_str
        trick = []
        for i, (s, c) in enumerate(zip(self.trick_seats, self.trick)):
            trick.append({"seat": s, "card": None if self.down[i] else cs(c), "played": cs(self.played[i]),
                          "drawn": self.drawn[i], "face_down": self.down[i],
                          "drawn_while_losing": self.behind[i], "draws": self.draws[i]})
        kaedama = self.phase == KAEDAMA
        obs = self.common_observation(seat)
        obs.update({
            "turn": self.turn if self.phase != OVER else None,
            "rounds": self.limit,
            "reversals": list(self.reversals),
            "stock_size": len(self.stock),
            "trump": SUITS[self.trump],
            "turned_card": cs(self.turned),
            "turned_card_at": self.turned_at,
            "turned_card_seat": self.trick_seats[self.turned_slot] if self.turned_slot >= 0 else None,
            "out": [None if d else cs(c) for c, d in zip(self.out, self.out_down)],
            "trick": trick,
            "kaedama_step": self.k_step + 1 if kaedama else None,
            "kaedama_position": self.k_pos if kaedama else None,
        })
        return obs


class Determinizer:
    """Everything one seat knows, read once from its observation, and a sampler of full states
    consistent with it: the other hands, the stock order and any face-down cards are dealt again
    from the cards the seat has not seen, respecting the voids shown and what is known of the
    turned card.  Built from the observation alone, so a bot using it cannot see more than its
    seat may."""

    def __init__(self, game: Kaedama, obs: Mapping[str, Any]) -> None:
        self.game = game
        self.obs = obs
        seat = obs["seat"]
        if seat is None:
            raise ValueError("a spectator's observation cannot be determinized")
        self.seat: int = seat
        self.hand = sum(1 << parse_card(c) for c in obs["hand"])
        self.turned = parse_card(obs["turned_card"])
        self.turned_at: str = obs["turned_card_at"]
        known = self.hand
        self.taken = [0] * NUM_PLAYERS
        for t in obs["tricks"]:
            m = sum(1 << parse_card(c) for c in t["cards"])
            self.taken[t["winner"]] |= m
            known |= m
        for t in obs["trick"]:
            known |= 1 << parse_card(t["played"])
            if t["card"] is not None:
                known |= 1 << parse_card(t["card"])
        for c in obs["out"]:
            if c is not None:
                known |= 1 << parse_card(c)
        if self.turned_at != T_SHUFFLED:
            known |= 1 << self.turned  # placed: on top, face down at a known seat, out, or shown
        deck = 0
        for c in game.deck:
            deck |= 1 << c
        self.pool = deck & ~known
        # hidden places: the two other hands, the unknown part of the stock, the face-down cards
        self.hidden_slots = [i for i, t in enumerate(obs["trick"])
                             if t["face_down"] and t["seat"] != obs["turned_card_seat"]]
        self.hidden_out = [i for i, c in enumerate(obs["out"]) if c is None]
        stock_hidden = obs["stock_size"] - (1 if self.turned_at == T_TOP else 0)
        not_in_hand = 1 << self.turned if self.turned_at == T_SHUFFLED else 0
        self.others = [s for s in range(NUM_PLAYERS) if s != seat]
        self.sizes = [obs["hand_sizes"][s] for s in self.others]
        self.forbidden = [sum(SUIT_MASKS[SUITS.index(x)] for x in obs["voids"][s]) | not_in_hand
                          for s in self.others]
        self.sizes += [stock_hidden, len(self.hidden_slots) + len(self.hidden_out)]
        self.forbidden += [0, 0]

    def sample(self, rng: random.Random) -> KaedamaState:
        obs, game, seat = self.obs, self.game, self.seat
        parts = deal_constrained(self.pool, self.sizes, self.forbidden, rng)
        st = KaedamaState.__new__(KaedamaState)
        st.restore_common(game, obs, rng)
        st._setup_options()
        st.limit = obs["rounds"]
        hands = [0] * NUM_PLAYERS
        hands[seat] = self.hand
        for s, m in zip(self.others, parts):
            hands[s] = m
        st.hands = hands
        stock = list(iter_bits(parts[2]))
        rng.shuffle(stock)
        if self.turned_at == T_TOP:
            stock.append(self.turned)
        st.stock = stock
        hidden = list(iter_bits(parts[3]))
        rng.shuffle(hidden)
        st.turned = self.turned
        st.trump = SUITS.index(obs["trump"])
        st.turned_at = self.turned_at
        st.turn = obs["turn"] if obs["turn"] is not None else -1
        st._clear_trick()
        trick_obs = obs["trick"]
        st.turned_slot = -1
        for i, t in enumerate(trick_obs):
            st.trick_seats.append(t["seat"])
            st.played.append(parse_card(t["played"]))
            if t["card"] is not None:
                card = parse_card(t["card"])
            elif t["seat"] == obs["turned_card_seat"]:
                card = self.turned
                st.turned_slot = i
            else:
                card = hidden.pop()
            st.trick.append(card)
            st.drawn[i] = t["drawn"]
            st.down[i] = t["face_down"]
            st.behind[i] = t["drawn_while_losing"]
            st.draws[i] = t["draws"]
        st.led = SUITS.index(obs["led"]) if obs["led"] else -1  # _clear_trick reset it
        if obs["phase"] == KAEDAMA:
            st.k_pos = obs["kaedama_position"]
            st.k_step = obs["kaedama_step"] - 1
        st.out = [hidden.pop() if c is None else parse_card(c) for c in obs["out"]]
        st.out_down = [c is None for c in obs["out"]]
        st.taken = list(self.taken)
        st.reversals = list(obs["reversals"])
        return st


__all__ = ["PASS", "PLAY", "REPLACE", "Determinizer", "Kaedama", "KaedamaState", "round_bonus"]
