"""The game kit: what every trick game repeats, owned once, so a game declares its rules only.

A game is two classes:

* a :class:`TrickGame` (options, deck, hand size, the piles it deals, the fields of its state
  that observations show, and the class of its state), and
* a :class:`TrickState` subclass holding the rules: one ``legal_<phase>`` / ``apply_<phase>``
  pair for each decision phase and a few hooks for the trick play (which cards may be played,
  who wins a trick, what a trick is worth, what happens after it, how a round is scored).

The kit owns the rest: dealing (shuffled or explicit) into the hands and named piles, the
single legality check before ``apply_<phase>`` (simultaneous phases included), the play of a
card to a trick, void tracking, the trick history, events with their visibility, round and game
end, scores by round and stats counters.

Hidden information is declared, not coded.  Each :class:`Pile` says who sees it; each
:class:`Field` says what an observation shows of a state attribute (public, or private to
each seat); each :class:`Role` is a seat fixed by who holds a card, hidden until revealed.
From these the kit derives:

* ``observation(seat)``: the common keys, every pile (``<name>_size`` and ``<name>``: the
  cards, ``None`` where face down or the whole pile hidden), every field, the trick with its
  declared slot fields, the roles the seat knows;
* ``known_cards(seat)``: the card mask the seat may know now (what a leak test checks against);
* ``card_places()``: where every card is (what a conservation test checks);
* the determinizer: a sampled full state built from one observation alone, every hidden card
  dealt again among the hidden places under the voids shown and the cards the game *pins* to
  a place (:meth:`TrickState.pins`), roles read from the sampled cards.

A game whose knowledge does not fit the declarations has two escape hatches, used sparingly:
``observe_extra`` / ``restore_extra`` for derived observation keys, and ``arrange`` to order a
sampled pile.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn, Self

from torite.cards import SUIT_MASKS, card_str, iter_bits, mask_of_texts, parse_card
from torite.engine.base import ALL_SEATS, Action, Event, Game, IllegalAction, Result, State
from torite.engine.sampling import deal_constrained
from torite.engine.trick import _BY_SUIT, _JOKERS, PLAY_ACTIONS, SUITS, play_actions, subset_table, suits_of

OVER = "over"
PLAY = "play"
NOBODY = 0
#: ``Pile.deal``: the pile takes every card left after the hands and the other piles.
REST = -1


# --------------------------------------------------------------------------- declarations
@dataclass(frozen=True)
class Pile:
    """A named pile of cards that is no hand: a state attribute holding a list (last = top).

    ``seen``: ``"all"``, ``"nobody"``, or the name of a state method returning a seat mask
    (``ALL_SEATS`` for everyone), for visibility that changes in play.  ``face_down``: the
    name of a list attribute of bools, one per card, marking cards no one sees even in a seen
    pile.  ``deal``: how many cards the deal puts there (``REST``: the rest of the deck;
    ``0``: none, the pile fills in play).  ``top_first``: observations list the top first.
    """

    name: str
    seen: str = "nobody"
    face_down: str | None = None
    deal: int = 0
    top_first: bool = True


Encode = Callable[[Any], Any]


def _suit_enc(v: int) -> str | None:
    return SUITS[v] if v >= 0 else None


def _suit_dec(v: str | None) -> int:
    return SUITS.index(v) if v else -1


def _card_enc(v: int) -> str | None:
    return card_str(v) if v >= 0 else None


def _card_dec(v: str | None) -> int:
    return parse_card(v) if v else -1


#: the text of each card (``card_str`` without the call, on the hot path)
_TEXT: tuple[str, ...] = tuple(card_str(c) for c in range(54))


#: for each suit, the texts of every subset of its 13 cards, and of the two jokers: a hand
#: encodes in five lookups (deal events, observations), not a loop over its cards
_SUIT_TEXTS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(subset_table(_TEXT[13 * s:13 * s + 13]) for s in range(4))
_JOKER_TEXTS: tuple[tuple[str, ...], ...] = subset_table(_TEXT[52:54])


def _cards_enc(m: int) -> list[str]:
    """The texts of the cards of ``m``, lowest card first."""
    t = _SUIT_TEXTS
    return [*t[0][m & 8191], *t[1][m >> 13 & 8191], *t[2][m >> 26 & 8191], *t[3][m >> 39 & 8191],
            *_JOKER_TEXTS[m >> 52 & 3]]


def _seat_cards_enc(ms: Sequence[int]) -> list[list[str]]:
    return [_cards_enc(m) for m in ms]


def _seat_cards_dec(v: Sequence[Sequence[str]]) -> list[int]:
    return [mask_of_texts(x) for x in v]


def _same(v: Any) -> Any:
    return v


def _copy_list(v: Any) -> Any:
    """A copy sharing no list or dict with ``v`` (an auction of ``[seat, call]`` pairs, say): an
    observation is handed to bots, which may edit it."""
    return [_copy_json(x) for x in v]


def _copy_json(v: Any) -> Any:
    if isinstance(v, list):
        return [_copy_json(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy_json(x) for k, x in v.items()}
    return v


#: per suit, the cards of the suits below it (a mask within one suit has none of them)
_BELOW_SUIT: tuple[int, ...] = tuple((1 << 13 * s) - 1 for s in range(4))

#: the seats of each seat mask of up to 8 seats (who decides in a simultaneous phase)
_SEATS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(s for s in range(8) if p >> s & 1) for p in range(256))

#: an ``Event`` from its four fields as a plain tuple, without the Python-level ``__new__``
_event = functools.partial(tuple.__new__, Event)

#: the card of each one-card ``play`` action: one lookup checks an action's kind, cards and
#: argument at once (an equal action made elsewhere finds its card too)
_CARD_OF_PLAY: dict[Action, int] = {a: a.card for a in PLAY_ACTIONS}
#: a card list's texts in one C-level call (``list(map(_text_of, cards))``)
_text_of = _TEXT.__getitem__
#: each card's bit: ``sum(map(_BIT.__getitem__, cards))`` is their mask in one C-level call
_BIT: tuple[int, ...] = tuple(1 << c for c in range(54))


def _shuffle_by_bits(rng: random.Random, deck: list[int]) -> None:
    """``rng.shuffle(deck)`` with the very same draws (CPython's ``shuffle`` and its
    ``_randbelow`` written out), without two Python calls per card: a deal is on the hot path."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _check_shuffle() -> bool:
    """Whether ``_shuffle_by_bits`` draws exactly as this Python's ``random.shuffle`` does."""
    for seed in range(4):
        a, b = list(range(54)), list(range(54))
        random.Random(seed).shuffle(a)
        _shuffle_by_bits(random.Random(seed), b)
        if a != b:
            return False
    return True


_SAME_SHUFFLE = _check_shuffle()


def shuffle(rng: random.Random, deck: list[int]) -> None:
    """Shuffle ``deck`` as ``rng.shuffle`` does (the same permutation from the same state),
    faster: for a game that shuffles a pile on the hot path."""
    if _SAME_SHUFFLE and type(rng) is random.Random:
        _shuffle_by_bits(rng, deck)
    else:
        rng.shuffle(deck)

#: kind -> (encode, decode) between a state attribute and its observation value
KINDS: dict[str, tuple[Encode, Encode]] = {
    "int": (_same, _same),
    "bool": (_same, _same),
    "str": (_same, _same),
    "suit": (_suit_enc, _suit_dec),
    "card": (_card_enc, _card_dec),
    "cards": (_cards_enc, mask_of_texts),
    "seat_cards": (_seat_cards_enc, _seat_cards_dec),
    "list": (_copy_list, _copy_list),
}


@dataclass(frozen=True)
class Field:
    """A state attribute an observation shows, under ``key`` (default: the attribute name).

    ``kind`` names its encoding (see ``KINDS``).  A ``private`` field is a per-seat list of
    which a seat sees its own item only (spectators: the kind's empty value).  A ``derived``
    field is shown but not restored by the determinizer (the game recomputes it).
    """

    attr: str
    kind: str = "int"
    key: str | None = None
    private: bool = False
    derived: bool = False

    @property
    def obs_key(self) -> str:
        return self.key or self.attr


@dataclass(frozen=True)
class Role:
    """A seat fixed by who holds a card (a secret partner, a team): the state attribute
    ``attr`` holds that seat (-1 for nobody).  ``card_attr`` names the attribute holding the
    card.  Hidden in observations (``None``) until ``revealed_attr`` (a bool attribute) is true,
    except from the role's own seat; the determinizer reads it from the sampled cards.  Whether
    it is revealed is public: observations show ``revealed_attr`` too, so the determinizer
    restores it."""

    attr: str
    card_attr: str
    revealed_attr: str


#: ``TrickSlot.default``: the card played itself
THE_CARD = "the card"


@dataclass(frozen=True)
class TrickSlot:
    """A per-card attribute of the current trick: a list indexed by trick position (one item
    per seat, ``default`` until set; ``THE_CARD``: the card played there until the game sets
    another, e.g. the card first played when it is replaced), renewed with every trick, which
    observations show in each trick entry under ``key``."""

    attr: str
    key: str
    kind: str = "bool"
    default: Any = False


# --------------------------------------------------------------------------- the game
class TrickGame(Game):
    """A game on the kit: declarations only; states come from ``STATE``."""

    STATE: ClassVar[type[TrickState]]
    PILES: ClassVar[tuple[Pile, ...]] = ()
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    ROLES: ClassVar[tuple[Role, ...]] = ()
    TRICK_SLOTS: ClassVar[tuple[TrickSlot, ...]] = ()
    #: the trick slot (its attribute) marking face-down cards of the current trick, if any
    TRICK_FACE_DOWN: ClassVar[str | None] = None
    #: the number of players, or the name of the option that sets it
    PLAYERS: ClassVar[int | str] = 4
    #: the cards of the deck in the order a shuffle starts from (override ``deck`` when the
    #: options change it)
    DECK: ClassVar[tuple[int, ...]] = tuple(range(52))
    #: phases in which several seats decide at once (``pending`` holds them)
    SIMULTANEOUS: ClassVar[frozenset[str]] = frozenset()
    #: explicit-deal keys besides ``hands`` and the dealt piles (checked by ``check_deal``)
    DEAL_EXTRAS: ClassVar[tuple[str, ...]] = ()

    _SLOT_CARD: ClassVar[tuple[tuple[str, str], ...]] = ()
    _SLOT_RESET: ClassVar[tuple[tuple[str, Any], ...]] = ()
    _SLOT_PLAIN: ClassVar[tuple[tuple[str, str], ...]] = ()
    _SLOT_ENCODE: ClassVar[tuple[tuple[str, str, Encode], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._SLOT_CARD = tuple((t.attr, t.key) for t in cls.TRICK_SLOTS if t.default is THE_CARD)
        cls._SLOT_RESET = tuple((t.attr, -1 if t.default is THE_CARD else t.default) for t in cls.TRICK_SLOTS)
        # a finished trick's slots are all set: cards encode without the -1 check
        cls._SLOT_PLAIN = tuple((t.attr, t.key) for t in cls.TRICK_SLOTS if KINDS[t.kind][0] is _same)
        cls._SLOT_ENCODE = tuple((t.attr, t.key, card_str if t.kind == "card" else KINDS[t.kind][0])
                                 for t in cls.TRICK_SLOTS if KINDS[t.kind][0] is not _same
                                 and t.default is not THE_CARD)

    @property
    def num_players(self) -> int:
        n = self.PLAYERS if isinstance(self.PLAYERS, int) else self.options[self.PLAYERS]
        assert isinstance(n, int)
        return n

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards of the deck, in the order a shuffle starts from."""
        return self.DECK

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand."""
        raise NotImplementedError

    def new_state(self, seed: int | None = None, *, dealer: int | None = None,
                  max_rounds: int | None = None, deals: Sequence[Mapping[str, Any]] = (),
                  first_round: int = 0) -> TrickState:
        return self.STATE(self, seed, dealer, max_rounds, deals, first_round)

    def determinizer(self, obs: Mapping[str, Any]) -> KitDeterminizer:
        return KitDeterminizer(self, obs)

    def dealt_piles(self) -> list[tuple[Pile, int]]:
        """The piles the deal fills, with their sizes (``REST`` resolved)."""
        out = []
        left = len(self.deck) - self.num_players * self.hand_size
        for p in self.PILES:
            if p.deal > 0:
                out.append((p, p.deal))
                left -= p.deal
        for p in self.PILES:
            if p.deal == REST:
                out.append((p, left))
        return out


def card_list(value: Any) -> list[int]:
    """Cards of an explicit deal: a list of card texts or one space/comma separated text."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    return [parse_card(c) for c in value]


# --------------------------------------------------------------------------- the state
class TrickState(State):
    """A trick game in progress, owned by the kit; a game subclasses it with its rules.

    Hooks a game writes (defaults in brackets): ``setup_options`` (constants the options fix),
    ``start_round_hook`` (the round's own setup after the deal), ``playable(seat)`` (the
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
    __slots__ = ("_after_hook", "_clear_hook", "_events", "_full_hook", "_later", "_offer_mask",
                 "_offer_seat", "_phases", "_played_hook", "_round_hook", "_simultaneous", "_slotted",
                 "_taken_hook", "counters", "dealer", "deals", "game", "hands", "history", "leader", "led",
                 "max_rounds", "n", "pending", "phase", "rng", "round_no", "round_points", "round_scores",
                 "scores", "seed", "trick", "trick_seats", "tricks_won", "turn", "voids")
    game: TrickGame
    #: list attributes of the subclass that ``clone`` copies (lists of ints or bools)
    LIST_FIELDS: ClassVar[tuple[str, ...]] = ()
    _COMMON_LISTS: ClassVar[tuple[str, ...]] = (
        "scores", "round_scores", "events", "hands", "trick", "trick_seats", "voids", "history",
        "round_points", "tricks_won")
    #: phase -> (legal, apply, quick) functions, from ``legal_<phase>``, ``apply_<phase>`` and the
    #: optional ``is_legal_<phase>(seat, action)``: a fast legality test (True must mean
    #: ``action in legal_<phase>(seat)``; on False the kit checks the list and explains)
    _PHASES: ClassVar[dict[str, tuple[Callable[..., list[Action]], Callable[..., None],
                                      Callable[..., bool] | None]]] = {}
    _PLAYED_HOOK: ClassVar[bool] = False
    _AFTER_HOOK: ClassVar[bool] = False
    _ROUND_HOOK: ClassVar[bool] = False
    _TAKEN_HOOK: ClassVar[bool] = False
    _CLEAR_HOOK: ClassVar[bool] = False
    _FULL_HOOK: ClassVar[bool] = False
    #: the cards whose play calls ``after_play`` (a mask; every card unless a game narrows it,
    #: e.g. to the jokers, and saves a call a card)
    AFTER_PLAY_CARDS: ClassVar[int] = (1 << 54) - 1

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        phases = {}
        for name in dir(cls):
            if name.startswith("apply_") and name != "apply_text" and callable(getattr(cls, name)):
                phase = name[len("apply_"):]
                legal = getattr(cls, "legal_" + phase, None)
                if legal is None:
                    raise TypeError(f"{cls.__name__}.{name} has no legal_{phase}")
                phases[phase] = (legal, getattr(cls, name), getattr(cls, "is_legal_" + phase, None))
        cls._PHASES = phases
        # hooks left at their defaults are not called on the hot path
        cls._PLAYED_HOOK = cls.card_played is not TrickState.card_played
        cls._AFTER_HOOK = cls.after_play is not TrickState.after_play
        cls._ROUND_HOOK = cls.round_over is not TrickState.round_over
        cls._TAKEN_HOOK = cls.trick_taken is not TrickState.trick_taken
        cls._CLEAR_HOOK = cls.clear_trick_hook is not TrickState.clear_trick_hook
        cls._FULL_HOOK = cls.trick_full is not TrickState.trick_full

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

    def __init__(self, game: TrickGame, seed: int | None, dealer: int | None, max_rounds: int | None,
                 deals: Sequence[Mapping[str, Any]], first_round: int = 0) -> None:
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
        self.start_round()

    def _bind(self, game: TrickGame) -> None:
        """The game, and the class's hook flags, phases and the game's simultaneous phases as
        instance slots: the hot path reads them on every decision, and CPython 3.11 reads a
        slot fast but a class attribute through an instance slowly (it does not specialise
        that read)."""
        self.game = game
        cls = type(self)
        self._played_hook, self._full_hook = cls._PLAYED_HOOK, cls._FULL_HOOK
        self._after_hook = cls.AFTER_PLAY_CARDS if cls._AFTER_HOOK else 0  # the cards that call it
        self._taken_hook, self._clear_hook, self._round_hook = cls._TAKEN_HOOK, cls._CLEAR_HOOK, cls._ROUND_HOOK
        self._slotted = bool(game.TRICK_SLOTS)
        self._phases, self._simultaneous = cls._PHASES, game.SIMULTANEOUS

    # ------------------------------------------------------------------ hooks
    def setup_options(self) -> None:
        """Constants the options fix (shared by a new state and a determinized one)."""

    def check_deal_extras(self, where: str, deal: Mapping[str, Any], hands: list[list[int]],
                          piles: dict[str, list[int]]) -> None:
        """Check the game's own keys of an explicit deal (``DEAL_EXTRAS``); raise ValueError."""

    def redeal(self, hands: list[int]) -> bool:
        """True throws a shuffled deal in (the dealt piles are set, ``hands`` not yet): the whole
        deck is shuffled and dealt again, before any event, for a deal the rules void (Good Cop's
        two turned jokers).  Explicit deals are never redealt: refuse such a deal in
        ``check_deal_extras``."""
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
        return {"card": card_str(card)}

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
        return not all(self.hands)

    def score_round(self) -> dict[str, Any]:
        """Round-end scoring into ``round_points``; returns extra data for the round's event."""
        return {}

    def game_over(self) -> bool:
        return self.max_rounds is not None and len(self.round_scores) >= self.max_rounds

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides of a game played in teams (empty: every seat for itself)."""
        return ()

    def pins(self, seat: int | None) -> list[tuple[str, int]]:
        """Cards ``seat`` knows to lie in a place hidden from it: (place, mask) pairs; places
        are ``hands[s]``, a pile's name, ``trick[i]`` or ``<pile>[i]`` for a face-down card.
        Must use only what the seat's observation shows (it runs on sampled states too)."""
        return []

    def forbids(self, seat: int) -> list[tuple[str, int]]:
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
        game = self.game
        n, size = self.n, game.hand_size
        piles = game.dealt_piles()
        where = f"bad deal {index}"
        allowed = ["hands", *(p.name for p, _ in piles), *game.DEAL_EXTRAS]
        extra = sorted(set(d) - set(allowed))
        if extra:
            raise ValueError(f"{where}: unknown key(s) {', '.join(extra)} (keys: {', '.join(allowed)})")
        names = " and ".join(["'hands'", *(repr(p.name) for p, _ in piles)])
        shape = "; ".join([f"{names} as card lists: {n} hands of {size} cards",
                           *(f"{p.name}: {k} cards, top first" for p, k in piles)])
        whole = " and the ".join(["hands", *(p.name for p, _ in piles)])
        once = f"the {whole} must hold each of the {len(game.deck)} cards once"
        try:
            hands = [card_list(h) for h in d["hands"]]
            dealt = {p.name: card_list(d[p.name]) for p, _ in piles}
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{where}: needs {shape} ({e})") from None
        if len(hands) != n or any(len(h) != size for h in hands):
            raise ValueError(f"{where}: needs {n} hands of {size} cards")
        for p, k in piles:
            if len(dealt[p.name]) != k:
                raise ValueError(f"{where}: the {p.name} needs {k} cards, got {len(dealt[p.name])} ({once})")
        everything = [c for h in hands for c in h] + [c for p, _ in piles for c in dealt[p.name]]
        if sorted(everything) != sorted(game.deck):
            raise ValueError(f"{where}: {once}")
        self.check_deal_extras(where, d, hands, dealt)

    # ------------------------------------------------------------------ round flow
    def start_round(self) -> None:
        game, n = self.game, self.n
        self.round_no += 1
        played = len(self.round_scores)  # rounds played by this state (it may start at a later round)
        if played:
            self.dealer = (self.dealer + 1) % n
        size = game.hand_size
        deal = self.deals[played] if played < len(self.deals) else None
        piles = game.dealt_piles()
        for p in game.PILES:
            setattr(self, p.name, [])
            if p.face_down:
                setattr(self, p.face_down, [])
        if deal is not None:
            hands = [sum(1 << c for c in card_list(h)) for h in deal["hands"]]
            for p, _ in piles:
                setattr(self, p.name, card_list(deal[p.name])[::-1])  # listed top first
        else:
            while True:
                deck = list(game.deck)
                shuffle(self.rng, deck)
                hands = [sum(map(_BIT.__getitem__, deck[i * size:(i + 1) * size])) for i in range(n)]
                at = n * size
                for p, k in piles:
                    setattr(self, p.name, deck[at:at + k])
                    at += k
                if not self.redeal(hands):
                    break
        for p, _ in piles:
            if p.face_down:
                setattr(self, p.face_down, [False] * len(getattr(self, p.name)))
        self.hands = hands
        self.leader = self.turn = (self.dealer + 1) % n
        self.trick = []
        self.trick_seats = []
        self.led = -1
        self.voids = [0] * n
        self.history = []
        self.round_points = [0] * n
        self.tricks_won = [0] * n
        self.pending = 0
        self._offer_seat = -1
        self._clear_trick()
        later = self._later
        later.append(("round", -1, {"round": self.round_no, "dealer": self.dealer}, ALL_SEATS))
        for s in range(n):
            later.append(("deal", s, {"cards": _cards_enc(hands[s])}, 1 << s))
        self.start_round_hook(deal)

    def _clear_trick(self) -> None:
        n = self.n
        for attr, value in self.game._SLOT_RESET:
            setattr(self, attr, [value] * n)
        if self._clear_hook:
            self.clear_trick_hook()

    def play_card(self, seat: int, card: int) -> None:
        """Move a card from ``seat``'s hand to the trick, then let the game react.  A joker
        (card 52 or 53) belongs to no suit: it leads no suit and shows no void."""
        self.hands[seat] &= ~(1 << card)
        self._offer_seat = -1  # the offer is stale once a card moves
        trick = self.trick
        if not trick:
            self.led = card // 13 if card < 52 else -1
        elif card < 52 and card // 13 != self.led and self.led >= 0:
            self.voids[seat] |= 1 << self.led
        trick.append(card)
        self.trick_seats.append(seat)
        data = self.card_played(seat, card) if self._played_hook else {"card": _TEXT[card]}
        self._later.append(("play", seat, data, ALL_SEATS))
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
        winner = self.trick_seats[win]
        pts = self.trick_points(win)
        self.round_points[winner] += pts
        self.tricks_won[winner] += 1
        trick = self.trick
        counters = self.counters
        if "tricks" in counters:
            counters["tricks"] += 1
        record: dict[str, Any] = {"leader": self.trick_seats[0], "seats": self.trick_seats,
                                  "cards": list(map(_text_of, trick)),
                                  "led": SUITS[self.led] if self.led >= 0 else None,
                                  "winner": winner, "points": pts}
        if self._slotted:
            game, k = self.game, len(trick)
            for attr, key in game._SLOT_PLAIN:  # the trick's own lists: renewed, never changed, after it
                record[key] = getattr(self, attr) if k == self.n else getattr(self, attr)[:k]
            for attr, key, enc in game._SLOT_ENCODE:
                record[key] = [enc(x) for x in getattr(self, attr)[:k]]
            for attr, key in game._SLOT_CARD:
                record[key] = [_TEXT[v if v >= 0 else c] for v, c in zip(getattr(self, attr), trick)]
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
        if self.round_over() if self._round_hook else not all(self.hands):
            self.end_round()

    def end_round(self) -> None:
        extra = self.score_round()
        for s in range(self.n):
            self.scores[s] += self.round_points[s]
        self.round_scores.append(tuple(self.round_points))
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
        """Everything that happened, in order.  The kit's own events (deals, plays, tricks,
        round and game ends) wait as plain tuples in ``_later`` and become events
        here, on the first read after them: wrapping each costs more than making it, and a
        rollout or a self-play loop never reads them.  Every read goes through here, so a
        game's ``self.events.append(...)`` lands after them, in order."""
        later = self._later
        if later:
            self._events.extend(map(_event, later))
            later.clear()
        return self._events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self._events = value
        self._later: list[tuple[str, int, Any, int]] = []

    def emit(self, kind: str, seat: int, data: dict[str, Any], visible: int = ALL_SEATS) -> None:
        """Record an event: ``self.events.append(Event(kind, seat, data, visible))`` at a
        fraction of the cost, for events a game makes on every decision."""
        self._later.append((kind, seat, data, visible))

    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:  # the hot path (the kit plays cards in turn: see legal_actions)
            return (self.turn,)
        if phase in self._simultaneous:
            p = self.pending & ((1 << self.n) - 1)
            return _SEATS_OF[p] if p < len(_SEATS_OF) else tuple(s for s in range(self.n) if p >> s & 1)
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
            if 0 <= s < 4 and not m & _BELOW_SUIT[s]:  # one suit (following suit, mostly): one lookup
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
            card = _CARD_OF_PLAY.get(action)  # None unless a one-card ``play`` of the deck
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
            raise IllegalAction("the game is over")
        if not self._may_decide(seat):
            if type(seat) is not int or not 0 <= seat < self.n:
                raise IllegalAction(f"there is no seat {seat!r} (seats 0 to {self.n - 1})")
            if phase in self._simultaneous:
                raise IllegalAction(f"seat {seat} has no {phase} decision to make now")
            raise IllegalAction(f"it is seat {self.turn}'s turn, not seat {seat}'s")
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
            sample = ", ".join(str(a) for a in legal[:6]) + (", …" if len(legal) > 6 else "")
            raise IllegalAction(f"{action} is not a legal choice for seat {seat} now (legal: {sample})")
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
            raise IllegalAction(f"{card_str(cards.bit_length() - 1)} is not in seat {seat}'s hand")
        if not cards & self.playable(seat):
            led = SUITS[self.led] if self.led >= 0 else "the lead"
            raise IllegalAction(f"seat {seat} must follow {led}")
        raise IllegalAction(f"{action} is not a legal play for seat {seat} now")

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

    def clone(self) -> Self:
        new = copy.copy(self)
        # an unseeded generator given this one's state (``random.Random()`` would first seed
        # itself from the OS: a third of a clone's time, for nothing)
        new.rng = random.Random.__new__(random.Random)
        new.rng.setstate(self.rng.getstate())
        new.counters = dict(self.counters)
        new._offer_seat = -1  # a clone may be changed before it is asked for its legal actions
        names = _LISTS.get(type(self))
        if names is None:
            names = _LISTS[type(self)] = self._list_attributes()
        for name in names:
            setattr(new, name, getattr(self, name)[:])
        return new

    def _list_attributes(self) -> tuple[str, ...]:
        """Every list attribute a clone must copy: the kit's, the declared ones, LIST_FIELDS."""
        game = self.game
        extra: list[str] = []
        for p in game.PILES:
            extra.append(p.name)
            if p.face_down:
                extra.append(p.face_down)
        extra += [f.attr for f in game.FIELDS if f.kind in ("seat_cards", "list") or f.private]
        extra += [t.attr for t in game.TRICK_SLOTS]
        return tuple(dict.fromkeys(self._COMMON_LISTS + self.LIST_FIELDS + tuple(extra)))

    # ------------------------------------------------------------------ information
    def pile_seen_by(self, pile: Pile) -> int:
        """The seats (a mask, or ``ALL_SEATS``) that see ``pile`` now."""
        if pile.seen == "all":
            return ALL_SEATS
        if pile.seen == "nobody":
            return NOBODY
        mask: int = getattr(self, pile.seen)()
        return mask

    def _sees(self, pile: Pile, seat: int | None) -> bool:
        m = self.pile_seen_by(pile)
        return m == ALL_SEATS or (seat is not None and bool(m >> seat & 1))

    def trick_down(self, i: int) -> bool:
        attr = self.game.TRICK_FACE_DOWN
        return bool(attr and getattr(self, attr)[i])

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.n
        me = seat if seat is not None and 0 <= seat < n else -1
        game = self.game
        simultaneous = self.phase in game.SIMULTANEOUS
        obs: dict[str, Any] = {
            "game": game.id,
            "options": dict(game.options),
            "seat": seat,
            "num_players": n,
            "phase": self.phase,
            "to_act": list(self.to_act()),
            "turn": self.turn if self.phase != OVER and not simultaneous else None,
            "round": self.round_no,
            "max_rounds": self.max_rounds,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "round_scores": [list(r) for r in self.round_scores],
            "round_points": list(self.round_points),
            "tricks_won": list(self.tricks_won),
            "hand": _cards_enc(self.hands[me]) if me >= 0 else [],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "led": SUITS[self.led] if self.led >= 0 else None,
            "voids": [[SUITS[s] for s in range(4) if v >> s & 1] for v in self.voids],
            "tricks": _copy_json(self.history),
            "stats": dict(self.counters),
        }
        trick = []
        slots = game.TRICK_SLOTS
        for i, (s, c) in enumerate(zip(self.trick_seats, self.trick)):
            entry: dict[str, Any] = {"seat": s, "card": None if self.trick_down(i) else card_str(c)}
            for slot in slots:
                value = getattr(self, slot.attr)[i]
                if slot.default is THE_CARD and value < 0:
                    value = c
                entry[slot.key] = KINDS[slot.kind][0](value)
            trick.append(entry)
        obs["trick"] = trick
        for p in game.PILES:
            cards: list[int] = getattr(self, p.name)
            obs[p.name + "_size"] = len(cards)
            if self._sees(p, seat):
                down = getattr(self, p.face_down) if p.face_down else None
                shown = [None if down and down[i] else card_str(c) for i, c in enumerate(cards)]
                obs[p.name] = shown[::-1] if p.top_first else shown
            else:
                obs[p.name] = None
        for f in game.FIELDS:
            enc = KINDS[f.kind][0]
            value = getattr(self, f.attr)
            if f.private:
                obs[f.obs_key] = enc(value[me]) if me >= 0 else enc(_empty(f.kind))
            else:
                obs[f.obs_key] = enc(value)
        for r in game.ROLES:
            holder = getattr(self, r.attr)
            revealed = bool(getattr(self, r.revealed_attr))
            obs[r.revealed_attr] = revealed
            obs[r.attr] = holder if revealed or (me >= 0 and holder == me) else None
        self.observe_extra(seat, obs)
        return obs

    @property
    def taken(self) -> list[int]:
        """Per seat, the cards of the tricks it won this round (from the trick history)."""
        won = [0] * self.n
        for t in self.history:
            won[t["winner"]] |= mask_of_texts(t["cards"])
        return won

    def known_cards(self, seat: int | None) -> int:
        """Every card whose identity ``seat`` (``None``: a spectator) may know now."""
        n = self.n
        me = seat if seat is not None and 0 <= seat < n else -1
        known = self.hands[me] if me >= 0 else 0
        for t in self.history:
            known |= mask_of_texts(t["cards"])
            for slot in self.game.TRICK_SLOTS:
                if slot.kind == "card":
                    known |= mask_of_texts(x for x in t[slot.key] if x)
        for i, c in enumerate(self.trick):
            if not self.trick_down(i):
                known |= 1 << c
            for slot in self.game.TRICK_SLOTS:
                if slot.kind == "card" and getattr(self, slot.attr)[i] >= 0:
                    known |= 1 << getattr(self, slot.attr)[i]
        for p in self.game.PILES:
            if self._sees(p, seat):
                down = getattr(self, p.face_down) if p.face_down else None
                for i, c in enumerate(getattr(self, p.name)):
                    if not (down and down[i]):
                        known |= 1 << c
        for f in self.game.FIELDS:
            value = getattr(self, f.attr)
            if f.private:
                value = value[me] if me >= 0 else _empty(f.kind)
            known |= _cards_in(f.kind, value)
        for _, mask in self.pins(seat):
            known |= mask
        return known

    def card_places(self) -> dict[str, int]:
        """Where every card is now (a conservation check: each deck card in exactly one place)."""
        places = {f"hands[{s}]": h for s, h in enumerate(self.hands)}
        for p in self.game.PILES:
            places[p.name] = sum(1 << c for c in getattr(self, p.name))
        places["trick"] = sum(1 << c for c in self.trick)
        places["won"] = sum(self.taken)  # the tricks' cards: out of play
        return places


def _empty(kind: str) -> Any:
    return {"cards": 0, "card": -1, "suit": -1, "list": [], "seat_cards": []}.get(kind, 0)


def _cards_in(kind: str, value: Any) -> int:
    """The cards a field's value names (what showing it reveals)."""
    if kind == "cards":
        return int(value)
    if kind == "card":
        return 1 << value if value >= 0 else 0
    if kind == "seat_cards":
        m = 0
        for x in value:
            m |= x
        return m
    return 0


#: per state class, the list attributes ``clone`` copies (computed once)
_LISTS: dict[type[TrickState], tuple[str, ...]] = {}


# --------------------------------------------------------------------------- determinizer
class KitDeterminizer:
    """Everything one seat knows, read once from its observation, and a sampler of full states
    consistent with it.  Built from the observation alone (a template state restored from it,
    then hidden cards dealt again), so a search bot using it cannot see more than its seat may.
    """

    def __init__(self, game: TrickGame, obs: Mapping[str, Any]) -> None:
        seat = obs["seat"]
        if seat is None:
            raise ValueError("a spectator's observation cannot be determinized")
        self.game = game
        self.seat: int = seat
        st = game.STATE.__new__(game.STATE)
        self.template = st
        _restore(st, game, obs)
        n = st.n
        # where the hidden cards go: (place, size) with what each may not hold
        known = st.hands[seat]
        for t in st.history:
            known |= mask_of_texts(t["cards"])
            for slot in game.TRICK_SLOTS:
                if slot.kind == "card":
                    known |= mask_of_texts(x for x in t[slot.key] if x)
        hidden_slots: list[tuple[str, int]] = []  # (list attribute, index) of face-down cards
        for i, c in enumerate(st.trick):
            if c >= 0:
                known |= 1 << c
            else:
                hidden_slots.append(("trick", i))
        for slot in game.TRICK_SLOTS:
            if slot.kind == "card":
                known |= mask_of_texts(x for x in (e[slot.key] for e in obs["trick"]) if x)
        hidden_piles: list[Pile] = []
        for p in game.PILES:
            cards = getattr(st, p.name)
            if obs[p.name] is None:
                hidden_piles.append(p)
                continue
            for i, c in enumerate(cards):
                if c >= 0:
                    known |= 1 << c
                else:
                    hidden_slots.append((p.name, i))
        pinned: dict[str, int] = {}
        for place, mask in st.pins(seat):
            pinned[place] = pinned.get(place, 0) | mask
        pinned_all = 0
        for m in pinned.values():
            pinned_all |= m
        forbid: dict[str, int] = {}
        for place, mask in st.forbids(seat):
            forbid[place] = forbid.get(place, 0) | mask
        deck = 0
        for c in game.deck:
            deck |= 1 << c
        self.pool = deck & ~known & ~pinned_all
        places: list[str] = []
        sizes: list[int] = []
        forbidden: list[int] = []
        masks = SUIT_MASKS
        for s in range(n):
            if s == seat:
                continue
            name = f"hands[{s}]"
            places.append(name)
            sizes.append(obs["hand_sizes"][s] - pinned.get(name, 0).bit_count())
            void = 0
            for x in iter_bits(st.voids[s]):
                void |= masks[x]
            forbidden.append(void | forbid.get(name, 0))
        for p in hidden_piles:
            places.append(p.name)
            sizes.append(obs[p.name + "_size"] - pinned.get(p.name, 0).bit_count())
            forbidden.append(forbid.get(p.name, 0))
        for attr, i in hidden_slots:
            name = f"{attr}[{i}]"
            places.append(name)
            sizes.append(1 - pinned.get(name, 0).bit_count())
            forbidden.append(forbid.get(name, 0))
        self.places, self.sizes, self.forbidden = places, sizes, forbidden
        self.pinned = pinned
        self.hidden_piles = hidden_piles
        self.hidden_slots = hidden_slots

    def sample(self, rng: random.Random) -> TrickState:
        game, seat = self.game, self.seat
        parts = deal_constrained(self.pool, self.sizes, self.forbidden, rng)
        st = self.template.clone()
        st.rng = random.Random(rng.getrandbits(64))
        got = dict(zip(self.places, parts))
        pinned = self.pinned
        for s in range(st.n):
            if s != seat:
                name = f"hands[{s}]"
                st.hands[s] = got[name] | pinned.get(name, 0)
        for p in self.hidden_piles:
            cards = list(iter_bits(got[p.name] | pinned.get(p.name, 0)))
            rng.shuffle(cards)
            setattr(st, p.name, cards)
        for attr, i in self.hidden_slots:
            name = f"{attr}[{i}]"
            getattr(st, attr)[i] = (got[name] | pinned.get(name, 0)).bit_length() - 1
        for r in game.ROLES:
            if getattr(st, r.attr) is None:
                card = getattr(st, r.card_attr)
                holder = -1
                for s, h in enumerate(st.hands):
                    if card >= 0 and h >> card & 1:
                        holder = s
                setattr(st, r.attr, holder)
        st.arrange(rng)
        return st


def _restore(st: TrickState, game: TrickGame, obs: Mapping[str, Any]) -> None:
    """A state with every field an observation shows; hidden cards left as -1 / absent."""
    n = obs["num_players"]
    seat = obs["seat"]
    st._bind(game)
    st.n = n
    st.seed = None
    st.rng = random.Random(0)
    st.max_rounds = obs["max_rounds"]
    st.deals = []
    st.dealer = obs["dealer"]
    st.round_no = obs["round"]
    st.scores = list(obs["scores"])
    st.round_scores = [tuple(r) for r in obs["round_scores"]]
    st.events = []
    st._offer_seat = -1
    st.counters = dict(obs["stats"])
    st.phase = obs["phase"]
    st.leader = obs["leader"]
    st.led = SUITS.index(obs["led"]) if obs["led"] else -1
    st.voids = [suits_of(v) for v in obs["voids"]]
    st.history = [dict(t) for t in obs["tricks"]]
    st.round_points = list(obs["round_points"])
    st.tricks_won = list(obs["tricks_won"])
    st.turn = obs["turn"] if obs["turn"] is not None else obs["leader"]
    st.pending = sum(1 << s for s in obs["to_act"]) if obs["phase"] in game.SIMULTANEOUS else 0
    st.setup_options()
    hands = [0] * n
    hands[seat] = mask_of_texts(obs["hand"])
    st.hands = hands
    st._clear_trick()
    st.trick = [parse_card(t["card"]) if t["card"] is not None else -1 for t in obs["trick"]]
    st.trick_seats = [t["seat"] for t in obs["trick"]]
    for slot in game.TRICK_SLOTS:
        dec = KINDS[slot.kind][1]
        getattr(st, slot.attr)[:len(obs["trick"])] = [dec(t[slot.key]) for t in obs["trick"]]
    if game.TRICK_FACE_DOWN:
        getattr(st, game.TRICK_FACE_DOWN)[:len(obs["trick"])] = [t["card"] is None for t in obs["trick"]]
    for p in game.PILES:
        shown = obs[p.name]
        if shown is None:
            setattr(st, p.name, [])
            if p.face_down:
                setattr(st, p.face_down, [True] * obs[p.name + "_size"])
            continue
        listed = shown[::-1] if p.top_first else list(shown)
        setattr(st, p.name, [parse_card(c) if c is not None else -1 for c in listed])
        if p.face_down:
            setattr(st, p.face_down, [c is None for c in listed])
    for f in game.FIELDS:
        if f.derived:
            continue
        dec = KINDS[f.kind][1]
        if f.private:
            values = [_empty(f.kind)] * n
            values[seat] = dec(obs[f.obs_key])
            setattr(st, f.attr, values)
        else:
            setattr(st, f.attr, dec(obs[f.obs_key]))
    for r in game.ROLES:
        setattr(st, r.attr, obs[r.attr])
        setattr(st, r.revealed_attr, obs[r.revealed_attr])
    st.restore_extra(obs)


__all__ = [
    "NOBODY",
    "OVER",
    "PLAY",
    "REST",
    "Field",
    "KitDeterminizer",
    "Pile",
    "Role",
    "TrickGame",
    "TrickSlot",
    "TrickState",
    "card_list",
]
