"""The state of a game on the kit: its round flow and the protocol (legal actions, apply, to_act,
clone).  What a seat may know is computed in :mod:`torite.engine.kit.views` from the game's
declarations; the rules a game writes are the hooks below and its ``legal_``/``apply_`` pairs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, NoReturn, Self, TypeVar

from mypy_extensions import mypyc_attr

from torite.cards import SUIT_MASKS, SUITS
from torite.engine.base import ALL_SEATS, Action, Event, IllegalAction, Refusal, Result, State
from torite.engine.kit import deals, views
from torite.engine.kit.classinfo import class_info
from torite.engine.kit.declarations import OVER, PLAY, Pile, Place

# imported at run time, not only for the types: compiled, a game's class (on ``TrickGame``, a
# Python class) is made by the compiled rules module, which needs this module known to mypyc
from torite.engine.kit.game import TrickGame
from torite.engine.kit.tables import (
    BELOW_SUIT,
    CARD_OF_PLAY,
    ONE_SEAT,
    PLAYED,
    SEATS_OF,
    Notation,
    make_event,
)
from torite.engine.trick import _BY_SUIT, _JOKERS, play_actions

#: the game a state belongs to: ``HeartsState(TrickState[Hearts])`` reads ``self.game`` as a
#: ``Hearts``.  A type parameter, not a narrowed attribute (``game: Hearts``), because the
#: compiled build gives an attribute one type along a class hierarchy.
G = TypeVar("G", bound="TrickGame")


# compiled, the kit's state is a native class; the example game and the tests' small games are
# interpreted subclasses of it
@mypyc_attr(allow_interpreted_subclasses=True)
class TrickState(State, Generic[G]):
    """A trick game in progress, owned by the kit; a game subclasses it with its rules.

    Hooks a game writes (defaults in brackets): ``setup_options`` (constants the options fix),
    ``start_game`` (game-long state, before the first deal), ``next_dealer`` [the seat after
    the dealer], ``void_deal(hands)`` (True throws a deal in [False]), ``start_round_hook``
    (the round's own setup after the deal), ``playable(seat)`` (the
    follow rule: a card mask [follow suit]), ``after_play(seat, card)`` (True when the game
    takes over, e.g. a declaration phase [False]), ``trick_full`` (a complete trick
    [finish it]), ``trick_winner`` (index of the winning card), ``trick_points(win)`` [0],
    ``trick_taken(win, winner, record)`` (effects of a won trick; may add keys to its record),
    ``round_over`` [a hand is empty], ``score_round`` (bonuses into ``round_points``; returns
    extra data for the round's event), ``game_over`` [``max_rounds`` reached], ``teams``
    [none], ``pins(seat)`` and ``forbids(seat)`` (what the seat knows of hidden places).
    """

    # the kit's attributes live in slots (a game's own in its own ``__slots__`` or the instance
    # dict): CPython 3.11 shares an instance dict's keys only up to 30 of them, past that every
    # attribute read on the hot path is a slower, unshared lookup, and a slot is read fastest
    __slots__ = (
        "_after_hook",
        "_clear_hook",
        "_events",
        "_full_hook",
        "_info",
        "_later",
        "_offer_mask",
        "_offer_seat",
        "_phases",
        "_played_hook",
        "_round_hook",
        "_simultaneous",
        "_slotted",
        "_taken_hook",
        "_text_of",
        "_texts",
        "attempts",
        "counters",
        "dealer",
        "deals",
        "game",
        "hands",
        "history",
        "leader",
        "led",
        "max_rounds",
        "n",
        "notation",
        "pending",
        "phase",
        "rng",
        "round_no",
        "round_points",
        "round_scores",
        "scores",
        "seed",
        "trick",
        "trick_seats",
        "tricks_won",
        "turn",
        "void_exempt",
        "voids",
    )
    game: G
    #: list attributes of the subclass that ``clone`` copies (lists of ints or bools)
    LIST_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: the cards whose play calls ``after_play`` (a mask; every card unless a game narrows it,
    #: e.g. to the jokers, and saves a call a card)
    AFTER_PLAY_CARDS: ClassVar[int] = (1 << 54) - 1

    n: int
    seed: int | None
    max_rounds: int | None
    deals: list[dict[str, Any]]
    dealer: int
    round_no: int
    scores: list[int]
    round_scores: list[tuple[int, ...]]
    counters: dict[str, int]
    hands: list[int]
    trick: list[int]
    trick_seats: list[int]
    voids: list[int]
    history: list[dict[str, Any]]
    round_points: list[int]
    tricks_won: list[int]
    leader: int
    led: int
    phase: str
    turn: int
    pending: int
    #: deals dealt in this state so far (a thrown-in deal counts): explicit deals are used in turn
    attempts: int
    #: cards a seat may play without following suit and so without showing a void (Mighty's
    #: Mighty); the jokers belong to no suit and never show one
    void_exempt: int
    #: how the game writes its cards, and its card texts (``_texts[card]``) on the hot path
    notation: Notation
    _texts: tuple[str, ...]

    def __init__(self, game: G, seed: int | None = None, dealer: int | None = None, max_rounds: int | None = None,
                 deals: Sequence[Mapping[str, Any]] = (), first_round: int = 0, *, shell: bool = False) -> None:
        if shell:  # an empty state that ``clone`` or the determinizer fills in
            self.game = game
            return
        self._bind(game)
        self.n = n = game.num_players
        self.seed = seed
        self.rng = random.Random(seed)
        if max_rounds is not None and max_rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        if type(first_round) is not int or first_round < 0:
            raise ValueError("first_round must be a round number from 0")
        self.max_rounds = max_rounds
        self.setup_options()
        self.deals = [dict(d) for d in deals]
        for i, d in enumerate(self.deals):
            self.check_deal(i, d)
        if dealer is None:
            dealer = self.rng.randrange(n)
        elif not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}")
        self.dealer = dealer
        self.round_no = first_round - 1
        self.scores = [0] * n
        self.round_scores = []
        self.events = []
        self.counters = dict.fromkeys(game.STAT_KEYS, 0)
        self.pending = 0
        self.attempts = 0
        self.void_exempt = 0
        self.start_game()
        self.start_round()

    def _bind(self, game: G) -> None:
        """The game, and the class's hook flags, phases and the game's simultaneous phases as
        instance slots: the hot path reads them on every decision, and CPython 3.11 reads a
        slot fast but a class attribute through an instance slowly (it does not specialise
        that read)."""
        self.game = game
        nt = self.notation = game.notation
        self._texts, self._text_of = nt.texts, nt.text_of
        info = self._info = class_info(type(self), game, TrickState, _KIT_ATTRIBUTES)
        self._played_hook, self._full_hook = info.played, info.full
        self._after_hook = info.after  # the cards whose play calls ``after_play``
        self._taken_hook, self._clear_hook, self._round_hook = info.taken, info.clear, info.round
        self._slotted = bool(game.TRICK_SLOTS)
        self._phases, self._simultaneous = info.phases, game.SIMULTANEOUS

    # ------------------------------------------------------------------ hooks
    def setup_options(self) -> None:
        """Constants the options fix (shared by a new state and a determinized one)."""

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        """Check the game's own keys of an explicit deal (``DEAL_EXTRAS``); raise ValueError."""

    def start_game(self) -> None:
        """Game-long state, set once before the first deal (Umbridge's rubber score sheet)."""

    def next_dealer(self) -> int:
        """The dealer of the next round (the seat after this round's, unless the rules say)."""
        return (self.dealer + 1) % self.n

    def before_deal(self) -> None:
        """The round's own reset before its first deal (what ``void_deal`` counts, say)."""

    def void_deal(self, hands: list[int]) -> bool:
        """True throws a deal in before anyone sees it (the dealt piles are set, ``hands`` not
        yet): the kit deals again, the next explicit deal or a new shuffle.  The game may emit
        events and change the dealer first (Mighty's deal miss: the hand shown, its holder
        deals); no deal event of the thrown-in deal is ever emitted (Good Cop's two turned
        jokers: the pack is shuffled again)."""
        return False

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        """The round's own setup after the deal; ``deal`` is the explicit deal, if any."""
        self.phase = PLAY

    def playable(self, seat: int) -> int:
        """The follow rule: the cards of ``seat``'s hand it may play now (a mask)."""
        hand = self.hands[seat]
        if self.trick and self.led >= 0:
            follow = hand & SUIT_MASKS[self.led]
            if follow:
                return follow
        return hand

    def card_played(self, seat: int, card: int) -> dict[str, Any]:
        """A card has just joined the trick (slots extended): the game's own bookkeeping;
        returns the data of the ``play`` event."""
        return {"card": self._texts[card]}

    def after_play(self, seat: int, card: int) -> bool:
        """Effects of a card just added to the trick; True when the game takes over the flow."""
        return False

    def trick_full(self) -> None:
        """Every seat has played to the trick (a game may insert a phase before it is won)."""
        self.finish_trick()

    def trick_winner(self) -> int:
        """Index in the trick of the winning card."""
        raise NotImplementedError

    def trick_points(self, win: int) -> int:
        """Points of the current trick for its winner."""
        return 0

    def trick_taken(self, win: int, winner: int, record: dict[str, Any]) -> None:
        """Effects of a won trick, before the trick is cleared; may add keys to its record."""

    def clear_trick_hook(self) -> None:
        """Reset the game's own per-trick state (the kit empties the trick slots)."""

    def round_over(self) -> bool:
        return 0 in self.hands  # a hand is empty

    def score_round(self) -> dict[str, Any]:
        """Round-end scoring into ``round_points``; returns extra data for the round's event."""
        return {}

    def game_over(self) -> bool:
        return self.max_rounds is not None and len(self.round_scores) >= self.max_rounds

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides of a game played in teams (empty: every seat for itself)."""
        return ()

    def pins(self, seat: int | None) -> list[tuple[Place, int]]:
        """Cards ``seat`` knows to lie in a place hidden from it: (place, mask) pairs; places
        are ``hands[s]``, a pile's name, ``trick[i]`` or ``<pile>[i]`` for a face-down card.
        Must use only what the seat's observation shows (it runs on sampled states too)."""
        return []

    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """Cards ``seat`` knows are *not* in a hidden place: (place, mask) pairs."""
        return []

    def observe_extra(self, seat: int | None, obs: dict[str, Any]) -> None:
        """Derived observation keys the declarations do not cover."""

    def restore_extra(self, obs: Mapping[str, Any]) -> None:
        """Restore what ``observe_extra`` showed, in a determinized state."""

    def arrange(self, rng: random.Random) -> None:
        """Put what the seat knows of a sampled pile's order in place (after sampling)."""

    # ------------------------------------------------------------------ deals
    def check_deal(self, index: int, d: Mapping[str, Any]) -> None:
        """Refuse a malformed explicit deal with a ValueError naming what is wrong."""
        hands, dealt = deals.check(self.game, index, d)
        self.check_deal_extras(f"bad deal {index}", d, hands, dealt)

    # ------------------------------------------------------------------ round flow
    def start_round(self) -> None:
        n = self.n
        self.round_no += 1
        if self.round_scores:  # rounds played by this state (it may start at a later round)
            self.dealer = self.next_dealer()
        self.voids = [0] * n
        self.history = []
        self.round_points = [0] * n
        self.tricks_won = [0] * n
        self.pending = 0
        self._later.append(("round", -1, {"round": self.round_no, "dealer": self.dealer}, ALL_SEATS))
        self.before_deal()
        deal = self._deal()
        self.leader = self.turn = (self.dealer + 1) % n
        self.trick = []
        self.trick_seats = []
        self.led = -1
        self._offer_seat = -1
        self._clear_trick()
        self.start_round_hook(deal)

    def deal_again(self) -> Mapping[str, Any] | None:
        """Throw the cards in and deal again within the round (Mighty, when all pass): the next
        explicit deal or a new shuffle, each seat shown its new hand; returns the explicit deal
        used, if any.  The game sets the dealer first and the phase after."""
        self._offer_seat = -1
        return self._deal()

    def _deal(self) -> Mapping[str, Any] | None:
        """Deal the hands and the dealt piles (again while ``void_deal`` throws a deal in), then
        show each seat its hand."""
        deal = deals.deal(self)
        later, nt = self._later, self.notation
        for s, hand in enumerate(self.hands):
            later.append(("deal", s, {"cards": nt.cards(hand)}, 1 << s))
        return deal

    def _clear_trick(self) -> None:
        if self._slotted:
            n = self.n
            for attr, value in self._info.slot_reset:
                setattr(self, attr, [value] * n)
        if self._clear_hook:
            self.clear_trick_hook()

    def play_card(self, seat: int, card: int) -> None:
        """Move a card from ``seat``'s hand to the trick, then let the game react.  A joker
        (card 52 or 53) belongs to no suit: it leads no suit and shows no void; nor does a card
        of ``void_exempt``, which may be played instead of following."""
        hands = self.hands
        hands[seat] = hands[seat] & ~(1 << card)
        self._offer_seat = -1  # the offer is stale once a card moves
        trick = self.trick
        led = self.led
        if not trick:
            self.led = card // 13 if card < 52 else -1
        elif card < 52 and card // 13 != led and led >= 0 and not self.void_exempt >> card & 1:
            voids = self.voids
            voids[seat] = voids[seat] | 1 << led
        trick.append(card)
        self.trick_seats.append(seat)
        if self._played_hook:
            self._later.append(("play", seat, self.card_played(seat, card), ALL_SEATS))
        else:
            self._later.append(PLAYED[seat][card])  # its data made when the events are read
        if self._after_hook >> card & 1 and self.after_play(seat, card):
            return
        if len(trick) < self.n:
            self.turn = (self.turn + 1) % self.n
        elif self._full_hook:
            self.trick_full()
        else:
            self.finish_trick()

    def advance(self) -> None:
        """The next seat plays, or the trick is complete."""
        if len(self.trick) < self.n:
            self.turn = (self.turn + 1) % self.n
            return
        self.trick_full()

    def finish_trick(self) -> None:
        """Give the trick to its winner, record it, and go on (or end the round)."""
        win = self.trick_winner()
        seats = self.trick_seats
        winner = seats[win]
        pts = self.trick_points(win)
        points, won = self.round_points, self.tricks_won
        points[winner] = points[winner] + pts
        won[winner] = won[winner] + 1
        trick = self.trick
        counters = self.counters
        if "tricks" in counters:
            counters["tricks"] += 1
        texts = self._texts
        led = self.led
        record: dict[str, Any] = {"leader": seats[0], "seats": seats, "cards": [texts[c] for c in trick],
                                  "led": SUITS[led] if led >= 0 else None, "winner": winner, "points": pts}
        if self._slotted:
            info, k = self._info, len(trick)
            for attr, key in info.slot_plain:  # the trick's own lists: renewed, never changed, after it
                record[key] = getattr(self, attr) if k == self.n else getattr(self, attr)[:k]
            nt = self.notation
            for attr, key, enc in info.slot_encode:
                record[key] = [enc(x, nt) for x in getattr(self, attr)[:k]]
            for attr, key in info.slot_card:
                record[key] = [texts[v if v >= 0 else c] for v, c in zip(getattr(self, attr), trick)]
        if self._taken_hook:
            self.trick_taken(win, winner, record)
        self.history.append(record)
        self._later.append(("trick", winner, record, ALL_SEATS))
        self.trick = []
        self.trick_seats = []
        self.led = -1
        if self._slotted or self._clear_hook:
            self._clear_trick()
        self.phase = PLAY
        self.leader = self.turn = winner
        if self.round_over() if self._round_hook else 0 in self.hands:
            self.end_round()

    def end_round(self) -> None:
        extra = self.score_round()
        scores, points = self.scores, self.round_points
        for s in range(self.n):
            scores[s] = scores[s] + points[s]
        self.round_scores.append(tuple(points))
        self._later.append(("round_end", -1, {**extra, "points": list(self.round_points),
                                               "scores": list(self.scores)}, ALL_SEATS))
        if self.game_over():
            self.phase = OVER
            self.pending = 0
            self._later.append(("game_end", -1, {"scores": list(self.scores),
                                                  "winners": list(self.result().winners)}, ALL_SEATS))
        else:
            self.start_round()

    # ------------------------------------------------------------------ protocol
    @property
    def events(self) -> list[Event]:
        r"""Everything that happened, in order.  Events (the kit's and the game's, all made by
        :meth:`emit`) wait as plain tuples in ``_later`` and become :class:`Event`\ s here, on
        the first read after them: wrapping each costs more than making it, and a rollout or a
        self-play loop never reads them."""
        later = self._later
        if later:
            events, texts = self._events, self._texts
            for entry in later:
                if type(entry[2]) is int:  # a play shown by its card alone (``PLAYED``)
                    entry = (entry[0], entry[1], {"card": texts[entry[2]]}, entry[3])
                events.append(make_event(entry))
            later.clear()
        return self._events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self._events = value
        self._later: list[tuple[str, int, Any, int]] = []

    def emit(self, kind: str, seat: int, data: dict[str, Any], visible: int = ALL_SEATS) -> None:
        """Record an event (``visible``: a mask of seats, or ``ALL_SEATS``): the one way a game
        or the kit records what happened."""
        self._later.append((kind, seat, data, visible))

    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:  # the hot path (the kit plays cards in turn: see legal_actions)
            return ONE_SEAT[self.turn]
        if phase in self._simultaneous:
            p = self.pending & ((1 << self.n) - 1)
            return SEATS_OF[p] if p < len(SEATS_OF) else tuple(s for s in range(self.n) if p >> s & 1)
        return () if phase == OVER else (self.turn,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_play(self, seat: int) -> list[Action]:
        return play_actions(self.playable(seat))

    def apply_play(self, seat: int, action: Action) -> None:
        self.play_card(seat, action.cards.bit_length() - 1)

    def _may_decide(self, seat: int) -> bool:
        phase = self.phase
        if phase in self._simultaneous:
            return type(seat) is int and 0 <= seat < self.n and bool(self.pending >> seat & 1)
        return seat == self.turn and type(seat) is int and phase != OVER

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PLAY:  # the hot path: most decisions are cards to play
            if seat != self.turn:
                return []
            m = self.playable(seat)  # play_actions(m), written out: one call less a decision
            self._offer_seat, self._offer_mask = seat, m  # what apply checks a play against
            s = (m.bit_length() - 1) // 13
            if 0 <= s < 4 and not m & BELOW_SUIT[s]:  # one suit (following suit, mostly): one lookup
                return list(_BY_SUIT[s][m >> 13 * s])
            t = _BY_SUIT
            return [*t[0][m & 8191], *t[1][m >> 13 & 8191], *t[2][m >> 26 & 8191], *t[3][m >> 39 & 8191],
                    *_JOKERS[m >> 52 & 3]]
        if not self._may_decide(seat):
            return []
        return self._phases[phase][0](self, seat)

    def apply(self, seat: int, action: Action) -> None:
        """The one legality check, then the phase's ``apply_<phase>``; a refused action raises
        :class:`IllegalAction` before anything changes."""
        phase = self.phase
        if phase == PLAY and seat == self.turn and type(seat) is int:
            card = CARD_OF_PLAY.get(action)  # None unless a one-card ``play`` of the deck
            # the cards legal_actions offered this seat, unless the state has moved on since
            m = self._offer_mask if self._offer_seat == seat else self.playable(seat)
            if card is None or not (m & self.hands[seat]) >> card & 1:
                self._refuse_play(seat, action)
            self.play_card(seat, card)
            return
        entry = self._phases.get(phase)
        if entry is not None and entry[2] is not None and type(seat) is int:
            if phase in self._simultaneous:  # the checks below, for a seat that decides now
                ok = 0 <= seat < self.n and bool(self.pending >> seat & 1) and not action.cards >> 54
            else:
                ok = seat == self.turn
            if ok and entry[2](self, seat, action):
                entry[1](self, seat, action)  # a decision that passed its fast test
                return
        if phase == OVER:
            raise IllegalAction("the game is over", Refusal("game_over"))
        if not self._may_decide(seat):
            if type(seat) is not int or not 0 <= seat < self.n:
                raise IllegalAction(f"there is no seat {seat!r} (seats 0 to {self.n - 1})")
            if phase in self._simultaneous:
                raise IllegalAction(f"seat {seat} has no {phase} decision to make now", Refusal("not_your_turn"))
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s", Refusal("not_your_turn"))
        if action.cards >> 54:
            raise IllegalAction(f"{action.kind} names a card that is not in the deck")
        legal_fn, apply_fn, quick = self._phases[phase]
        if quick is not None and quick(self, seat, action):
            apply_fn(self, seat, action)
            return
        legal = legal_fn(self, seat)
        if action not in legal:
            kinds = sorted({a.kind for a in legal})
            if action.kind not in kinds:
                raise IllegalAction(f"seat {seat} must choose {' or '.join(kinds)} now ({phase}), "
                                    f"not {action.kind!r}")
            sample = ", ".join(self.game.action_text(a) for a in legal[:6]) + (", …" if len(legal) > 6 else "")
            raise IllegalAction(f"{action} is not a legal choice for seat {seat} now (legal: {sample})",
                                self.choice_refusal(seat, action))
        apply_fn(self, seat, action)

    def _refuse_play(self, seat: int, action: Action) -> NoReturn:
        """Raise the reason a ``play`` action is refused."""
        if action.kind != "play":
            raise IllegalAction(f"seat {seat} must play a card, not {action.kind!r}")
        cards = action.cards
        if cards <= 0 or cards & (cards - 1) or action.arg:
            raise IllegalAction("play names exactly one card")
        if cards >> 54:
            raise IllegalAction("play names a card that is not in the deck")
        if not cards & self.hands[seat]:
            raise IllegalAction(f"{self._texts[cards.bit_length() - 1]} is not in seat {seat}'s hand")
        card = cards.bit_length() - 1
        if not cards & self.playable(seat):
            why = self.play_refusal(seat, card)
            if why.rule == "follow":
                raise IllegalAction(f"seat {seat} must follow {why.data['suit']}", why)
            raise IllegalAction(f"seat {seat} may not play {self._texts[card]} now ({why.rule}"
                                + "".join(f", {k} {v}" for k, v in why.data.items()) + ")", why)
        raise IllegalAction(f"{action} is not a legal play for seat {seat} now")

    def refusal(self, seat: int, action: Action) -> Refusal | None:
        """Why ``seat`` may not make ``action`` now (None: it may): a card of the hand that may
        not be played says the rule (:meth:`play_refusal`), another choice the game's
        (:meth:`choice_refusal`).  Asked for every disabled card and choice a face shows."""
        if self.phase == OVER:
            return Refusal("game_over")
        if not self._may_decide(seat):
            return Refusal("not_your_turn")
        cards = action.cards
        if self.phase == PLAY and action.kind == "play" and cards > 0 and not cards & (cards - 1) and not action.arg:
            card = cards.bit_length() - 1
            if card >= 54 or not self.hands[seat] >> card & 1:
                return Refusal("not_in_hand")
            return None if self.playable(seat) >> card & 1 else self.play_refusal(seat, card)
        if action in self._phases[self.phase][0](self, seat):
            return None
        return self.choice_refusal(seat, action)

    def play_refusal(self, seat: int, card: int) -> Refusal:
        """Why a card of ``seat``'s hand that ``playable`` leaves out may not be played now.  The
        kit knows following suit; a game whose ``playable`` says more says why here."""
        if self.trick and self.led >= 0 and self.hands[seat] & SUIT_MASKS[self.led]:
            return Refusal("follow", {"suit": SUITS[self.led]})
        return Refusal("not_now")

    def choice_refusal(self, seat: int, action: Action) -> Refusal:
        """Why an action of another phase (a bid, a call) that is not legal now is refused."""
        return Refusal("not_now")

    @property
    def rounds_played(self) -> int:
        return len(self.round_scores)

    def result(self) -> Result:
        """Highest total wins; equal totals share the win."""
        top = max(self.scores)
        winners = tuple(s for s in range(self.n) if self.scores[s] == top)
        return Result(tuple(self.scores), winners, tuple(self.round_scores), self.teams())

    def stats(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.counters.items()}

    def clone(self, rng: random.Random | None = None) -> Self:
        """An independent copy: every list the rules change in place is copied (one level deep),
        everything else shared.  Written out for the kit's attributes; a game's own are found
        once per class (:func:`~torite.engine.kit.classinfo.class_info`).  ``rng``: the copy's
        generator of future chance, instead of a copy of this state's (copying a generator is
        most of a clone's time, and a search reseeds its copies anyway)."""
        new = type(self)(self.game, shell=True)
        new.notation, new._texts, new._text_of = self.notation, self._texts, self._text_of
        new._played_hook, new._full_hook, new._after_hook = self._played_hook, self._full_hook, self._after_hook
        new._taken_hook, new._clear_hook, new._round_hook = self._taken_hook, self._clear_hook, self._round_hook
        new._slotted, new._phases, new._simultaneous = self._slotted, self._phases, self._simultaneous
        new._info = self._info
        new.n, new.seed, new.max_rounds, new.deals = self.n, self.seed, self.max_rounds, self.deals
        new.dealer, new.round_no, new.attempts = self.dealer, self.round_no, self.attempts
        new.leader, new.led, new.phase, new.turn = self.leader, self.led, self.phase, self.turn
        new.pending, new.void_exempt = self.pending, self.void_exempt
        if rng is None:
            # an unseeded generator given this one's state (``random.Random()`` would first seed
            # itself from the OS: a third of a clone's time, for nothing)
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
        new.rng = rng
        new.counters = dict(self.counters)
        new._offer_seat, new._offer_mask = -1, 0  # a clone may change before it is asked for its legal actions
        new._events, new._later = self.events[:], []
        new.scores, new.round_scores = self.scores[:], self.round_scores[:]
        new.hands, new.voids, new.history = self.hands[:], self.voids[:], self.history[:]
        new.trick, new.trick_seats = self.trick[:], self.trick_seats[:]
        new.round_points, new.tricks_won = self.round_points[:], self.tricks_won[:]
        info = self._info
        lists = info.lists
        for name in info.own:
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                setattr(new, name, value[:] if name in lists else value)
        extra: dict[str, Any] | None = getattr(self, "__dict__", None)
        if extra:
            mine: dict[str, Any] = vars(new)
            for name, value in extra.items():
                # compiled, ``rng`` (declared by ``State``, not a native attribute) is in the
                # instance dict: the copy keeps its own, given above
                if name != "rng":
                    mine[name] = value[:] if name in lists else value
        return new

    # ------------------------------------------------------------------ information
    def pile_seen_by(self, pile: Pile) -> int:
        """The seats (a mask, or ``ALL_SEATS``) that see ``pile`` now."""
        return pile.seen.mask(self)

    def trick_down(self, i: int) -> bool:
        attr = self.game.TRICK_FACE_DOWN
        return bool(attr and getattr(self, attr)[i])

    def winning_now(self) -> int | None:
        """The index in the unfinished trick of the card that wins it as it lies now, or None
        when a face-down card could decide.  A game whose trick rule needs the whole trick
        overrides it; it must not change the state."""
        if not self.trick or any(self.trick_down(i) for i in range(len(self.trick))):
            return None
        return self.trick_winner()

    def observation(self, seat: int | None) -> dict[str, Any]:
        return views.observation(self, seat)

    @property
    def taken(self) -> list[int]:
        """Per seat, the cards of the tricks it won this round (from the trick history)."""
        return views.taken(self)

    def known_cards(self, seat: int | None) -> int:
        """Every card whose identity ``seat`` (``None``: a spectator) may know now."""
        return views.known_cards(self, seat)

    def card_places(self) -> dict[str, int]:
        """Where every card is now (a conservation check: each deck card in exactly one place)."""
        return views.card_places(self)


#: a missing attribute, for ``clone``
_UNSET: Final[Any] = object()

#: the attributes of :class:`TrickState` itself (``clone`` copies them one by one): its slots, or
#: compiled, its native attributes
_KIT_ATTRIBUTES: Final = (frozenset(getattr(TrickState, "__slots__", ()))
                   | frozenset(getattr(TrickState, "__mypyc_attrs__", ()))
                   | {"events", "_events", "_later", "__dict__", "__weakref__"})
