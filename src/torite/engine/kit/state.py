"""The state of a game on the kit: its round flow and the protocol (legal actions, apply, to_act,
clone).  What the state holds, and the hooks a game writes with the kit's defaults, are
:class:`~torite.engine.kit.statedata.StateData`; what a seat may know is computed in
:mod:`torite.engine.kit.views` from the game's declarations.  The rules a game writes are those
hooks and its ``legal_``/``apply_`` pairs.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn, Self, TypeVar

from mypy_extensions import mypyc_attr

from torite.cards import SUITS
from torite.engine.base import ALL_SEATS, Action, Event, IllegalAction, Refusal, Result
from torite.engine.kit import deals, views
from torite.engine.kit.classinfo import class_info
from torite.engine.kit.declarations import OVER, PLAY
from torite.engine.kit.statedata import G, StateData
from torite.engine.kit.tables import (
    BELOW_SUIT,
    ONE_SEAT,
    PLAYED,
    SEATS_OF,
    make_event,
)
from torite.engine.trick import _BY_SUIT, _JOKERS, PLAY_ACTIONS, play_actions


# compiled, the kit's state is a native class; the example game and the tests' small games are
# interpreted subclasses of it
@mypyc_attr(allow_interpreted_subclasses=True)
class TrickState(StateData[G]):
    """A trick game in progress, owned by the kit; a game subclasses it with its rules (the
    hooks of :class:`~torite.engine.kit.statedata.StateData` and a ``legal_``/``apply_`` pair
    for each declared phase)."""

    # the machinery's own attributes, beside the game's state (``StateData.__slots__``): the
    # class's hook flags and phase table, the offer a play is checked against, the events not
    # yet made
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
    )

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
        self._texts = nt.texts
        info = self._info = class_info(type(self), game, _KIT_ATTRIBUTES)
        self._played_hook, self._full_hook = info.played, info.full
        self._after_hook = info.after  # the cards whose play calls ``after_play``
        self._taken_hook, self._clear_hook, self._round_hook = info.taken, info.clear, info.round
        self._slotted = bool(game.TRICK_SLOTS)
        self._phases, self._simultaneous = info.phases, game.SIMULTANEOUS

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

    def legal_play(self, seat: int) -> Sequence[Action]:
        return play_actions(self.playable(seat))

    def apply_play(self, seat: int, action: Action) -> None:
        self.play_card(seat, action.cards.bit_length() - 1)

    def _may_decide(self, seat: int) -> bool:
        phase = self.phase
        if phase in self._simultaneous:
            return type(seat) is int and 0 <= seat < self.n and bool(self.pending >> seat & 1)
        return seat == self.turn and type(seat) is int and phase != OVER

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """The seat's choices now, lowest card first in a card phase.  An immutable sequence: a
        play's is one of the kit's tables itself when the cards are of one suit (following suit,
        mostly), never a copy, so no caller may change it (issue 37: the copy was a sixth of a
        random round)."""
        phase = self.phase
        if phase == PLAY:  # the hot path: most decisions are cards to play
            if seat != self.turn:
                return []
            m = self.playable(seat)  # play_actions(m), written out: one call less a decision
            self._offer_seat, self._offer_mask = seat, m  # what apply checks a play against
            s = (m.bit_length() - 1) // 13
            if 0 <= s < 4 and not m & BELOW_SUIT[s]:  # one suit (following suit, mostly): one lookup
                return _BY_SUIT[s][m >> 13 * s]
            t = _BY_SUIT
            return (*t[0][m & 8191], *t[1][m >> 13 & 8191], *t[2][m >> 26 & 8191], *t[3][m >> 39 & 8191],
                    *_JOKERS[m >> 52 & 3])
        if not self._may_decide(seat):
            return []
        return self._phases[phase][0](self, seat)

    def apply(self, seat: int, action: Action) -> None:
        """The one legality check, then the phase's ``apply_<phase>``; a refused action raises
        :class:`IllegalAction` before anything changes."""
        phase = self.phase
        if phase == PLAY and seat == self.turn and type(seat) is int:
            # the card, by its index: a one-card ``play`` of the deck is the kit's own action for
            # its card (or one equal to it, made elsewhere), with no dict to hash the action in
            card = action.cards.bit_length() - 1
            # the cards legal_actions offered this seat, unless the state has moved on since
            m = self._offer_mask if self._offer_seat == seat else self.playable(seat)
            if not 0 <= card < 54 or not (m & self.hands[seat]) >> card & 1 or (
                    PLAY_ACTIONS[card] is not action and PLAY_ACTIONS[card] != action):
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
        new.notation, new._texts = self.notation, self._texts
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

    def _data(self) -> dict[str, Any]:
        """Every attribute of the game in progress (the kit's, the game's, an outside subclass's
        instance dict), without what the game fixes and :meth:`_bind` makes again (the notation,
        the class's hook flags and phases) or what a copy starts without (the offer, the events
        not yet made: they are made into ``events`` first)."""
        out: dict[str, Any] = {"events": self.events}
        names = dict.fromkeys([*_COPIED, *self._info.own])
        for name in names:
            value = getattr(self, name, _UNSET)
            if value is not _UNSET:
                out[name] = value
        extra: dict[str, Any] | None = getattr(self, "__dict__", None)
        if extra:
            out.update(extra)
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, its game and its attributes (:meth:`_data`), rebuilt by
        :func:`rebuild`: compiled, a native class's default pickle would call ``__init__``
        without the game; ``copy.copy`` and ``copy.deepcopy`` (pyspiel copies a Python state
        so) go through :meth:`__copy__` and :meth:`__deepcopy__`."""
        return rebuild, (type(self), self.game, self._data())

    def __copy__(self) -> Self:
        """A copy that plays on independently of this state: :meth:`clone`."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy sharing nothing with this state but its game (fixed once made, and what every
        state of the game shares: it is not copied)."""
        memo[id(self.game)] = self.game
        new = rebuild(type(self), self.game, copy.deepcopy(self._data(), memo))
        memo[id(self)] = new
        return new

    # ------------------------------------------------------------------ information
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


#: a state class, for :func:`rebuild`
S = TypeVar("S", bound="TrickState[Any]")


def rebuild(cls: type[S], game: Any, data: Mapping[str, Any]) -> S:
    """A state of ``cls`` from its game and its attributes (:meth:`TrickState._data`): what
    pickle and ``copy.deepcopy`` make of a state."""
    new = cls(game, shell=True)
    new._bind(game)
    new._offer_seat, new._offer_mask = -1, 0
    for name, value in data.items():
        setattr(new, name, value)
    return new

#: the attributes of :class:`TrickState` itself (``clone`` copies them one by one): its slots and
#: its data's, or compiled, its native attributes
_KIT_ATTRIBUTES: Final = (frozenset(getattr(StateData, "__slots__", ()))
                   | frozenset(getattr(TrickState, "__slots__", ()))
                   | frozenset(getattr(TrickState, "__mypyc_attrs__", ()))
                   | {"events", "_events", "_later", "__dict__", "__weakref__"})

#: the kit's attributes of a game in progress that pickle and ``copy.deepcopy`` carry (the rest
#: of its slots are fixed by the game: :meth:`TrickState._bind` makes them again)
_COPIED: Final = tuple(sorted((frozenset(getattr(StateData, "__slots__", ()))
                               | frozenset(getattr(StateData, "__mypyc_attrs__", ())))
                              - {"game", "notation", "_texts", "events", "_events", "_later", "__dict__",
                                 "__weakref__"}))
