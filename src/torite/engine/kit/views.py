"""What a seat may know, derived from the game's declarations: its observation, the cards it
may know (the ground truth of the leak tests) and where every card is (of the conservation
tests).  Nothing here is written per game: piles, fields, roles and trick slots say it all,
and ``observe_extra`` adds the game's declared views."""

from __future__ import annotations

from typing import Any

from torite.cards import SUITS, mask_of_texts
from torite.engine.base import ALL_SEATS
from torite.engine.kit.declarations import CARD, OVER, THE_CARD, Field, Pile, Place, Role
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.statedata import StateData
from torite.engine.kit.tables import copy_json


def sees(mask: int, seat: int | None) -> bool:
    """Whether a seat mask (or ``ALL_SEATS``) includes ``seat`` (``None``: a spectator)."""
    return mask == ALL_SEATS or (seat is not None and bool(mask >> seat & 1))


def observation(state: StateData[Any], seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) may know, as JSON-ready data."""
    n = state.n
    me = seat if seat is not None and 0 <= seat < n else -1
    game: GameData = state.game  # typed: the state's own parameter is Any here
    nt = state.notation
    phase = state.phase
    simultaneous = phase in game.SIMULTANEOUS
    obs: dict[str, Any] = {
        "game": game.id,
        "options": dict(game.options),
        "seat": seat,
        "num_players": n,
        "phase": phase,
        "to_act": list(state.to_act()),
        "turn": state.turn if phase != OVER and not simultaneous else None,
        "round": state.round_no,
        "max_rounds": state.max_rounds,
        "dealer": state.dealer,
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "round_points": list(state.round_points),
        "tricks_won": list(state.tricks_won),
        "hand": nt.cards(state.hands[me]) if me >= 0 else [],
        "hand_sizes": [h.bit_count() for h in state.hands],
        "leader": state.leader,
        "led": SUITS[state.led] if state.led >= 0 else None,
        "voids": [[SUITS[s] for s in range(4) if v >> s & 1] for v in state.voids],
        "tricks": copy_json(state.history),
        "stats": dict(state.counters),
    }
    trick = obs["trick"] = trick_entries(state)
    win = state.winning_now() if trick and phase != OVER else None
    obs["winning"] = state.trick_seats[win] if win is not None else None
    declared(state, seat, obs)
    return obs


def trick_entries(state: StateData[Any]) -> list[dict[str, Any]]:
    """The current trick as an observation shows it: each card (None face down) with its
    seat and its declared slots."""
    nt = state.notation
    texts = nt.texts
    trick = []
    slots = state.game.TRICK_SLOTS
    for i, (s, c) in enumerate(zip(state.trick_seats, state.trick)):
        entry: dict[str, Any] = {"seat": s, "card": None if state.trick_down(i) else texts[c]}
        for slot in slots:
            value = getattr(state, slot.attr)[i]
            if slot.default == THE_CARD and value < 0:
                value = c
            entry[slot.key] = slot.kind.encode(value, nt)
        trick.append(entry)
    return trick


def declared(state: StateData[Any], seat: int | None, obs: dict[str, Any]) -> None:
    """Write into ``obs`` what the game declares: its piles (to the seats that see them), its
    fields (a private one: the seat's own item), its roles (hidden until revealed, but from
    their own seat) and its views (``observe_extra``)."""
    me = seat if seat is not None and 0 <= seat < state.n else -1
    game = state.game
    for p in game.PILES:
        obs[p.name + "_size"], obs[p.name] = pile_view(state, p, seat)
    for f in game.FIELDS:
        obs[f.obs_key] = field_view(state, f, me)
    for r in game.ROLES:
        obs[r.revealed_attr], obs[r.attr] = role_view(state, r, me)
    state.observe_extra(seat, obs)


def pile_view(state: StateData[Any], p: Pile, seat: int | None) -> tuple[int, list[str | None] | None]:
    """A pile's size, and its cards (face-down ones None, top first if so declared) to a seat
    that sees it, None to the others."""
    cards: list[int] = getattr(state, p.name)
    if not sees(p.seen.mask(state), seat):
        return len(cards), None
    texts = state.notation.texts
    down = getattr(state, p.face_down) if p.face_down else None
    shown = [None if down and down[i] else texts[c] for i, c in enumerate(cards)]
    return len(cards), shown[::-1] if p.top_first else shown


def field_view(state: StateData[Any], f: Field, me: int) -> Any:
    """A field as seat ``me`` (-1: a spectator) sees it: a private field's own item only."""
    value = getattr(state, f.attr)
    if f.private:
        value = value[me] if me >= 0 else f.kind.empty
    return f.kind.encode(value, state.notation)


def role_view(state: StateData[Any], r: Role, me: int) -> tuple[bool, int | None]:
    """Whether a role is revealed, and its seat: hidden (None) until then, but from itself."""
    holder = getattr(state, r.attr)
    revealed = bool(getattr(state, r.revealed_attr))
    return revealed, holder if revealed or (me >= 0 and holder == me) else None


def taken(state: StateData[Any]) -> list[int]:
    """Per seat, the cards of the tricks it won this round (from the trick history)."""
    won = [0] * state.n
    for t in state.history:
        won[t["winner"]] |= mask_of_texts(t["cards"])
    return won


def known_cards(state: StateData[Any], seat: int | None) -> int:
    """Every card whose identity ``seat`` (``None``: a spectator) may know now."""
    n = state.n
    game: GameData = state.game
    me = seat if seat is not None and 0 <= seat < n else -1
    known = state.hands[me] if me >= 0 else 0
    card_slots = [slot for slot in game.TRICK_SLOTS if slot.kind is CARD]
    for t in state.history:
        known |= mask_of_texts(t["cards"])
        for slot in card_slots:
            known |= mask_of_texts(x for x in t[slot.key] if x)
    for i, c in enumerate(state.trick):
        if not state.trick_down(i):
            known |= 1 << c
        for slot in card_slots:
            if getattr(state, slot.attr)[i] >= 0:
                known |= 1 << getattr(state, slot.attr)[i]
    for p in game.PILES:
        if sees(p.seen.mask(state), seat):
            down = getattr(state, p.face_down) if p.face_down else None
            for i, c in enumerate(getattr(state, p.name)):
                if not (down and down[i]):
                    known |= 1 << c
    for f in game.FIELDS:
        value = getattr(state, f.attr)
        if f.private:
            value = value[me] if me >= 0 else f.kind.empty
        known |= f.kind.cards(value)
    for _, mask in state.pins(seat):
        known |= mask
    return known


def card_places(state: StateData[Any]) -> dict[str, int]:
    """Where every card is now (a conservation check: each deck card in exactly one place)."""
    places = {str(Place.hand(s)): h for s, h in enumerate(state.hands)}
    game: GameData = state.game
    for p in game.PILES:
        places[p.name] = sum(1 << c for c in getattr(state, p.name))
    places["trick"] = sum(1 << c for c in state.trick)
    places["won"] = sum(taken(state))  # the tricks' cards: out of play
    return places
