"""Helpers for the Trick of the Dead rules tests: explicit deals, positions, snapshots.

``build_deal`` writes a deal in the format the rules page documents (``hands``, ``graveyard``
top first, optional ``graveyard_after_burial`` top first), filling every card a test does not
care about; ``setup`` deals it, makes the burial and returns the state ready for the first
lead.  With the default dealer (the last seat) seat 0 leads the first trick.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from torite.cards import card_str, parse_card
from torite.engine.base import Action, IllegalAction
from torite.games.trick_of_the_dead.rules import TrickOfTheDead, TrickOfTheDeadState

SUITS = "CDHS"


def cards(text: str) -> list[str]:
    """``"AS KS 10D"`` -> ``["AS", "KS", "10D"]`` (normalized)."""
    return [card_str(parse_card(t)) for t in text.split()]


def make_game(**options: Any) -> TrickOfTheDead:
    return TrickOfTheDead(options)


def build_deal(hands: Sequence[str] = (), *, graveyard: str = "", bury: Sequence[str] | None = None,
               after_top: str | None = "", voids: Mapping[int, str] | None = None,
               players: int = 3) -> tuple[dict[str, Any], list[list[str]]]:
    """A full explicit deal and the burial each seat will make.

    ``hands[s]`` lists cards seat ``s`` must hold after the burial (texts, space separated);
    ``graveyard`` the top cards of the dealt graveyard; ``bury[s]`` the two cards seat ``s``
    buries (default: two filler cards); ``after_top`` the top cards of the graveyard after the
    burial (``None``: leave the order to ruling G1's shuffle); ``voids[s]`` suits (letters) that
    seat ``s`` must not be given as filler.  Unnamed cards fill hands, jokers last, so unnamed
    jokers end in the graveyard's bottom.
    """
    size = 16 if players == 3 else 20
    grave_size = 54 - players * size
    hand_lists = [cards(hands[s]) if s < len(hands) else [] for s in range(players)]
    bury_lists = [cards(bury[s]) if bury is not None and s < len(bury) and bury[s] else []
                  for s in range(players)]
    grave_top = cards(graveyard)
    used = [c for h in hand_lists for c in h] + [c for b in bury_lists for c in b] + grave_top
    # a card named on top of the graveyard after the burial and nowhere else is dealt there
    grave_top += [c for c in cards(after_top or "") if c not in used]
    used = [c for h in hand_lists for c in h] + [c for b in bury_lists for c in b] + grave_top
    assert len(used) == len(set(used)), f"a card is named twice: {used}"
    pool = [card_str(c) for c in range(54) if card_str(c) not in used]
    voids = dict(voids or {})
    # seats with the most voids pick first, from cards outside their void suits
    order = sorted(range(players), key=lambda s: (-len(voids.get(s, "")), s))
    full_hands: list[list[str]] = [[] for _ in range(players)]
    for s in order:
        want = size - len(hand_lists[s]) - len(bury_lists[s])
        no = voids.get(s, "")
        fill = [c for c in pool if c[-1] not in no and not c.startswith("JK")][:want]
        assert len(fill) == want, f"cannot fill seat {s}'s hand"
        for c in fill:
            pool.remove(c)
        if not bury_lists[s]:
            assert len(fill) >= 2, f"seat {s} has no filler to bury; name its burial"
            bury_lists[s] = fill[-2:]
            fill = fill[:-2]
        full_hands[s] = hand_lists[s] + fill + bury_lists[s]
    grave = grave_top + pool
    assert len(grave) == grave_size
    deal: dict[str, Any] = {"hands": full_hands, "graveyard": grave}
    if after_top is not None:
        top = cards(after_top)
        after = grave + [c for b in bury_lists for c in b]
        assert set(top) <= set(after), "the graveyard's top after the burial must be dealt there or buried"
        rest = [c for c in after if c not in top]
        deal["graveyard_after_burial"] = top + rest
    return deal, bury_lists


def setup(hands: Sequence[str] = (), *, graveyard: str = "", bury: Sequence[str] | None = None,
          after_top: str | None = "", voids: Mapping[int, str] | None = None, dealer: int | None = None,
          seed: int = 0, max_rounds: int | None = None, **options: Any) -> TrickOfTheDeadState:
    """A state after the burial, ready for the first lead (seat 0 leads by default)."""
    players = options.get("players", 3)
    deal, burials = build_deal(hands, graveyard=graveyard, bury=bury, after_top=after_top, voids=voids,
                               players=players)
    game = make_game(**options)
    state = game.new_state(seed, dealer=players - 1 if dealer is None else dealer, deals=[deal],
                           max_rounds=max_rounds)
    for s in range(players):
        state.apply_text(s, "bury " + " ".join(burials[s]))
    assert state.phase == "play"
    return state


def play(state: TrickOfTheDeadState, *moves: str) -> None:
    """Apply moves in turn order: ``"AS"`` plays a card, ``"trump S"``/``"call H"`` declares."""
    for m in moves:
        (seat,) = state.to_act()
        text = m if m.split()[0] in ("trump", "call") else f"play {m}"
        state.apply_text(seat, text)


def snapshot(state: TrickOfTheDeadState) -> tuple[Any, ...]:
    """Everything any seat or a spectator can see, plus who acts and what each may do."""
    n = state.n
    return (tuple(repr(state.observation(s)) for s in [*range(n), None]), state.to_act(),
            tuple(tuple(state.legal_actions(s)) for s in range(n)))


def assert_refused(state: TrickOfTheDeadState, seat: int, action: Action | str) -> None:
    """The action raises IllegalAction and nothing anyone sees changes."""
    before = snapshot(state)
    events = len(state.events)
    try:
        if isinstance(action, str):
            state.apply_text(seat, action)
        else:
            state.apply(seat, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{action!r} by seat {seat} was accepted")
    assert snapshot(state) == before
    assert len(state.events) == events


def random_playout(state: TrickOfTheDeadState, rng: random.Random) -> list[tuple[int, Action]]:
    """Play uniformly random legal actions to the end; return them."""
    done = []
    while not state.is_over():
        for seat in state.to_act():
            a = rng.choice(state.legal_actions(seat))
            state.apply(seat, a)
            done.append((seat, a))
    return done


def hand(state: TrickOfTheDeadState, seat: int) -> list[str]:
    return list(state.observation(seat)["hand"])


def names(texts: Iterable[str]) -> set[str]:
    return {card_str(parse_card(t)) for t in texts}


#: random seeds and rule-changing options, for the games' property tests
SEEDS = st.integers(min_value=0, max_value=2**32)
OPTIONS = st.fixed_dictionaries({
    "players": st.sampled_from([3, 3, 2]),
    "open_graveyard": st.booleans(),
    "survival": st.booleans(),
    "zombie_doubles": st.sampled_from(["diamonds", "trick"]),
})
