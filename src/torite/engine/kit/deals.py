"""Deals: an explicit deal checked against the game's declarations, and the deal of a round
(the next explicit deal, or a shuffle; again while the rules throw it in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from torite.engine.draws import COMPILED, shuffle
from torite.engine.kit.declarations import card_list
from torite.engine.kit.gamedata import GameData
from torite.engine.kit.statedata import StateData
from torite.engine.kit.tables import BIT


def check(game: GameData, index: int, d: Mapping[str, Any]) -> tuple[list[list[int]], dict[str, list[int]]]:
    """The hands and dealt piles of explicit deal number ``index``, or a ValueError naming what
    is wrong with it (the game checks its own keys after)."""
    n, size = game.num_players, game.hand_size
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
    return hands, dealt


def deal(state: StateData[Any]) -> Mapping[str, Any] | None:
    """Set the hands and the dealt piles of ``state``: its next explicit deal (one per deal
    attempt) or a shuffle, again while the game's ``void_deal`` throws the deal in; returns the
    explicit deal used, if any."""
    game: GameData = state.game  # typed: the state's own parameter is Any here
    n = state.n
    size, order, piles = game.deal_plan()
    every_pile = game.PILES
    while True:
        d = state.deals[state.attempts] if state.attempts < len(state.deals) else None
        state.attempts += 1
        for p in every_pile:
            setattr(state, p.name, [])
            if p.face_down:
                setattr(state, p.face_down, [])
        if d is not None:
            hands = [sum(1 << c for c in card_list(h)) for h in d["hands"]]
            for p, _ in piles:
                setattr(state, p.name, card_list(d[p.name])[::-1])  # listed top first
        else:
            deck = list(order)
            shuffle(state.rng, deck)
            if COMPILED:  # a loop compiled; interpreted, one C-level sum a hand is faster
                hands = [0] * n
                for i in range(n * size):
                    s = i // size
                    hands[s] = hands[s] | 1 << deck[i]
            else:
                hands = [sum(map(BIT.__getitem__, deck[i * size:(i + 1) * size])) for i in range(n)]
            at = n * size
            for p, k in piles:
                setattr(state, p.name, deck[at:at + k])
                at += k
        if not state.void_deal(hands):
            break
    for p, _ in piles:
        if p.face_down:
            setattr(state, p.face_down, [False] * len(getattr(state, p.name)))
    state.hands = hands
    return d
