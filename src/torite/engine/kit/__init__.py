"""The game kit: what every trick game repeats, owned once, so a game declares its rules only.

A game is two classes:

* a :class:`TrickGame` (options, deck, hand size, its decision phases and the form of their
  actions, the piles it deals, the fields of its state that observations show, and the class of
  its state), and
* a :class:`TrickState` subclass holding the rules: one ``legal_<phase>`` / ``apply_<phase>``
  pair for each declared phase and a few hooks for the trick play (which cards may be played,
  who wins a trick, what a trick is worth, what happens after it, how a round is scored).

The kit owns the rest: dealing (shuffled or explicit, again when a deal is thrown in) into the
hands and named piles, the single legality check before ``apply_<phase>`` (simultaneous phases
included), the play of a card to a trick, void tracking, the trick history, who is winning the
trick, events with their visibility, round and game end, scores by round and stats counters.

Hidden information is declared, not coded.  Each :class:`Pile` says who sees it (:class:`Seen`);
each :class:`Field` says what an observation shows of a state attribute (its :class:`Kind`,
public or private to each seat); each :class:`Role` is a seat fixed by who holds a card, hidden
until revealed.  From these the kit derives (:mod:`~torite.engine.kit.views`,
:mod:`~torite.engine.kit.determinizer`):

* ``observation(seat)``: the common keys, every pile (``<name>_size`` and ``<name>``: the
  cards, ``None`` where face down or the whole pile hidden), every field, the trick with its
  declared slot fields, the roles the seat knows, the game's declared views;
* ``known_cards(seat)``: the card mask the seat may know now (what a leak test checks against);
* ``card_places()``: where every card is (what a conservation test checks);
* the determinizer: a sampled full state built from one observation alone, every hidden card
  dealt again among the hidden places under the voids shown and the cards the game *pins* to
  a place (:meth:`TrickState.pins`), roles read from the sampled cards;
* ``game.schema()`` (:mod:`~torite.engine.kit.schema`): all of it as one JSON description.

A game whose knowledge does not fit the declarations has two escape hatches, used sparingly:
``observe_extra`` / ``restore_extra`` for the observation keys it declares as :class:`View`,
and ``arrange`` to order a sampled pile.

Modules, each standing on those before it: ``tables`` (the speed tables of the hot path),
``declarations`` (the kinds of what a game declares), ``gamedata`` (a game's declarations and
what they fix), ``statedata`` (a state's attributes and the hooks a game writes, with the kit's
defaults), ``classinfo`` (what the kit reads once from a state class), ``deals``, ``views``,
``schema``, ``state`` (:class:`TrickState`: the round flow and the protocol), ``determinizer``,
``game`` (:class:`TrickGame`: the factory of a game's states, its determinizer and schema).
"""

from torite.engine.draws import shuffle
from torite.engine.kit.declarations import (
    BOOL,
    BOOLS,
    CARD,
    CARD_TEXTS,
    CARDS,
    CONTRACT,
    INT,
    INTS,
    LIST,
    MAYBE_INT,
    NOBODY,
    OVER,
    PLAY,
    REST,
    SEAT,
    SEAT_CARDS,
    SEEN_BY_ALL,
    SEEN_BY_NOBODY,
    STR,
    SUIT,
    THE_CARD,
    DealChance,
    Field,
    Kind,
    Pile,
    Place,
    Role,
    Seen,
    TrickSlot,
    View,
    card_list,
    seen_by_seat,
    seen_when,
    word,
)
from torite.engine.kit.determinizer import KitDeterminizer
from torite.engine.kit.game import TrickGame
from torite.engine.kit.state import TrickState

__all__ = [
    "BOOL",
    "BOOLS",
    "CARD",
    "CARDS",
    "CARD_TEXTS",
    "CONTRACT",
    "INT",
    "INTS",
    "LIST",
    "MAYBE_INT",
    "NOBODY",
    "OVER",
    "PLAY",
    "REST",
    "SEAT",
    "SEAT_CARDS",
    "SEEN_BY_ALL",
    "SEEN_BY_NOBODY",
    "STR",
    "SUIT",
    "THE_CARD",
    "DealChance",
    "Field",
    "Kind",
    "KitDeterminizer",
    "Pile",
    "Place",
    "Role",
    "Seen",
    "TrickGame",
    "TrickSlot",
    "TrickState",
    "View",
    "card_list",
    "seen_by_seat",
    "seen_when",
    "shuffle",
    "word",
]
