"""The determinizer: full states consistent with one seat's observation, for the search bots.

Built from the observation alone (a template state restored from it, then hidden cards dealt
again among the hidden places under the voids shown and the cards the game pins to a place), so
a bot that uses it cannot know more than its seat may.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from torite.cards import SUIT_MASKS, SUITS, iter_bits, mask_of_texts, parse_card
from torite.engine.draws import shuffle
from torite.engine.kit.declarations import CARD, Pile, Place
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.state import TrickState
from torite.engine.sampling import deal_constrained
from torite.engine.trick import suits_of


class KitDeterminizer:
    """Everything one seat knows, read once from its observation, and a sampler of full states
    consistent with it.  Built from the observation alone (a template state restored from it,
    then hidden cards dealt again), so a search bot using it cannot see more than its seat may.
    """

    def __init__(self, template: TrickState[Any], obs: Mapping[str, Any]) -> None:
        """``template``: an empty state of the game (``STATE(game, shell=True)``), which the
        observation fills in; every sample is a copy of it."""
        seat = obs["seat"]
        if seat is None:
            raise ValueError("a spectator's observation cannot be determinized")
        game: GameData = template.game  # typed: the state's own parameter is Any here
        self.game = game
        self.seat: int = seat
        st = self.template = template
        _restore(st, game, obs)
        n = st.n
        # where the hidden cards go: (place, size) with what each may not hold
        known = st.hands[seat]
        for t in st.history:
            known |= mask_of_texts(t["cards"])
            for slot in game.TRICK_SLOTS:
                if slot.kind is CARD:
                    known |= mask_of_texts(x for x in t[slot.key] if x)
        hidden_slots: list[Place] = []  # face-down cards: (list attribute, index)
        for i, c in enumerate(st.trick):
            if c >= 0:
                known |= 1 << c
            else:
                hidden_slots.append(Place("trick", i))
        for slot in game.TRICK_SLOTS:
            if slot.kind is CARD:
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
                    hidden_slots.append(Place(p.name, i))
        pinned: dict[Place, int] = {}
        for place, mask in st.pins(seat):
            pinned[place] = pinned.get(place, 0) | mask
        pinned_all = 0
        for m in pinned.values():
            pinned_all |= m
        forbid: dict[Place, int] = {}
        for place, mask in st.forbids(seat):
            forbid[place] = forbid.get(place, 0) | mask
        deck = 0
        for c in game.deck:
            deck |= 1 << c
        self.pool = deck & ~known & ~pinned_all
        places: list[Place] = []
        sizes: list[int] = []
        forbidden: list[int] = []
        masks = SUIT_MASKS
        for s in range(n):
            if s == seat:
                continue
            name = Place.hand(s)
            places.append(name)
            sizes.append(obs["hand_sizes"][s] - pinned.get(name, 0).bit_count())
            void = 0
            for x in iter_bits(st.voids[s]):
                void |= masks[x]
            forbidden.append(void | forbid.get(name, 0))
        for p in hidden_piles:
            name = Place(p.name)
            places.append(name)
            sizes.append(obs[p.name + "_size"] - pinned.get(name, 0).bit_count())
            forbidden.append(forbid.get(name, 0))
        for name in hidden_slots:
            places.append(name)
            sizes.append(1 - pinned.get(name, 0).bit_count())
            forbidden.append(forbid.get(name, 0))
        self.places, self.sizes, self.forbidden = places, sizes, forbidden
        self.pinned = pinned
        #: the roles this seat does not know: read from the sampled cards
        self.unknown_roles = [r for r in game.ROLES if obs[r.attr] is None]
        self.hidden_piles = hidden_piles
        self.hidden_slots = hidden_slots
        # where each part of a sampled deal goes (``places`` order), with the cards pinned there
        at = {place: i for i, place in enumerate(places)}
        self._hands = [(s, at[Place.hand(s)], pinned.get(Place.hand(s), 0)) for s in range(n) if s != seat]
        self._piles = [(p.name, at[Place(p.name)], pinned.get(Place(p.name), 0)) for p in hidden_piles]
        self._slots = [(name.where, name.at, at[name], pinned.get(name, 0)) for name in hidden_slots]

    def sample(self, rng: random.Random) -> TrickState[Any]:
        parts = deal_constrained(self.pool, self.sizes, self.forbidden, rng)
        st = self.template.clone(rng)  # the world's chance draws from the caller's generator
        hands = st.hands
        for s, i, mask in self._hands:
            hands[s] = parts[i] | mask
        for pile, i, mask in self._piles:
            cards = list(iter_bits(parts[i] | mask))
            shuffle(rng, cards)  # the draws of ``rng.shuffle``
            setattr(st, pile, cards)
        for where, index, i, mask in self._slots:
            getattr(st, where)[index] = (parts[i] | mask).bit_length() - 1
        for r in self.unknown_roles:
            card = getattr(st, r.card_attr)
            holder = -1
            for s, h in enumerate(st.hands):
                if card >= 0 and h >> card & 1:
                    holder = s
            setattr(st, r.attr, holder)
        st.arrange(rng)
        return st


def _restore(st: TrickState[Any], game: GameData, obs: Mapping[str, Any]) -> None:
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
    st.attempts = 0
    st.void_exempt = 0
    st.setup_options()
    hands = [0] * n
    hands[seat] = mask_of_texts(obs["hand"])
    st.hands = hands
    st._clear_trick()
    st.trick = [parse_card(t["card"]) if t["card"] is not None else -1 for t in obs["trick"]]
    st.trick_seats = [t["seat"] for t in obs["trick"]]
    for slot in game.TRICK_SLOTS:
        dec = slot.kind.decode
        getattr(st, slot.attr)[:len(obs["trick"])] = [dec(t[slot.key]) for t in obs["trick"]]
    if game.TRICK_FACE_DOWN:
        getattr(st, game.TRICK_FACE_DOWN)[:len(obs["trick"])] = [t["card"] is None for t in obs["trick"]]
    for p in game.PILES:
        shown = obs[p.name]
        p.seen.restore(st, shown is not None)
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
        dec = f.kind.decode
        if f.private:
            values = [f.kind.empty] * n
            values[seat] = dec(obs[f.obs_key])
            setattr(st, f.attr, values)
        else:
            setattr(st, f.attr, dec(obs[f.obs_key]))
    for r in game.ROLES:
        holder = obs[r.attr]
        setattr(st, r.attr, -1 if holder is None else holder)  # unknown: the determinizer reads it
        setattr(st, r.revealed_attr, obs[r.revealed_attr])
    st.restore_extra(obs)
