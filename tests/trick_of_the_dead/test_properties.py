"""Properties over random legal play (hypothesis draws the seeds and options)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from torite.cards import SUIT_MASKS, card_str, iter_bits
from torite.engine.base import Action
from torite.games.trick_of_the_dead.rules import TrickOfTheDeadState
from torite.record import replay, start_record

from .conftest import assert_refused, make_game, snapshot

SEEDS = st.integers(min_value=0, max_value=2**32)
OPTIONS = st.fixed_dictionaries({
    "players": st.sampled_from([3, 3, 2]),
    "open_graveyard": st.booleans(),
    "survival": st.booleans(),
    "zombie_doubles": st.sampled_from(["diamonds", "trick"]),
})
FAST = settings(max_examples=40, deadline=None)


def walk(seed: int, options: dict[str, Any], check: Callable[[TrickOfTheDeadState, random.Random], None],
         *, max_rounds: int = 1) -> TrickOfTheDeadState:
    """Play random legal actions to the end, calling ``check`` before every action and at the end."""
    state = make_game(**options).new_state(seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    while not state.is_over():
        check(state, rng)
        seats = list(state.to_act())
        rng.shuffle(seats)  # simultaneous burials in any order
        seat = seats[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    check(state, rng)
    return state


@given(SEEDS, OPTIONS)
@FAST
def test_cards_are_never_created_or_lost(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        held = [c for h in state.hands for c in iter_bits(h)]
        done = [c for t in state.history for c in t["cards"]]
        everything = [card_str(c) for c in held + state.graveyard + state.trick] + done
        assert len(everything) == 54
        assert len(set(everything)) == 54
        for s in range(state.n):
            assert state.zombies[s] & ~state.hands[s] == 0  # a zombie is a card in a hand

    walk(seed, options, check, max_rounds=2)


@given(SEEDS, OPTIONS)
@FAST
def test_every_legal_action_is_accepted(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        for seat in range(state.n):
            legal = state.legal_actions(seat)
            assert bool(legal) == (seat in state.to_act())
            for a in rng.sample(legal, min(len(legal), 6)):
                state.clone().apply(seat, a)

    walk(seed, options, check)


def _random_action(rng: random.Random) -> Action:
    kind = rng.choice(["play", "play", "bury", "trump", "call", "pass"])
    cards = 0
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
        cards |= 1 << rng.choice([*range(54), 54, 60])
    arg = rng.choice(["", "", "C", "D", "H", "S", "X", "CD"])
    return Action(kind, cards, arg)


@given(SEEDS, OPTIONS)
@FAST
def test_random_non_legal_actions_are_refused_and_change_nothing(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        for _ in range(4):
            seat = rng.randrange(state.n)
            a = _random_action(rng)
            if a not in state.legal_actions(seat):
                assert_refused(state, seat, a)

    walk(seed, options, check)


@given(SEEDS, OPTIONS)
@settings(max_examples=15, deadline=None)
def test_replaying_a_record_reproduces_the_result(seed: int, options: dict[str, Any]) -> None:
    game = make_game(**options)
    state = game.new_state(seed, max_rounds=2)
    rec = start_record(game, seed, ["a", "b", "c"][:game.num_players], max_rounds=2)
    rng = random.Random(seed)
    while not state.is_over():
        for seat in state.to_act():
            a = rng.choice(state.legal_actions(seat))
            state.apply(seat, a)
            rec.actions.append((seat, str(a)))
    rec.result = state.result().to_json()
    again = replay(rec)
    assert again.result() == state.result()
    for s in [*range(game.num_players), None]:
        assert again.observation(s) == state.observation(s)


@given(SEEDS, OPTIONS)
@settings(max_examples=15, deadline=None)
def test_same_seed_and_same_actions_give_identical_observations(seed: int, options: dict[str, Any]) -> None:
    game = make_game(**options)
    a, b = game.new_state(seed, max_rounds=2), game.new_state(seed, max_rounds=2)
    rng = random.Random(seed)
    while not a.is_over():
        assert snapshot(a) == snapshot(b)
        for seat in a.to_act():
            act = rng.choice(a.legal_actions(seat))
            a.apply(seat, act)
            b.apply(seat, act)
    assert snapshot(a) == snapshot(b)
    assert [e for e in a.events] == [e for e in b.events]


@given(SEEDS, OPTIONS)
@settings(max_examples=25, deadline=None)
def test_determinized_states_look_the_same_to_their_seat(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        if rng.random() > 0.2:
            return
        seat = rng.randrange(state.n)
        det = state.determinize(seat, random.Random(rng.getrandbits(32)))
        assert isinstance(det, TrickOfTheDeadState)
        assert det.observation(seat) == state.observation(seat)
        assert det.to_act() == state.to_act()
        assert sorted(det.legal_actions(seat)) == sorted(state.legal_actions(seat))
        # hidden hands keep to the voids shown, hold the right number of cards, zombies are exact
        for s in range(state.n):
            assert det.zombies[s] == state.zombies[s]
            assert det.hands[s].bit_count() == state.hands[s].bit_count()
            hidden = det.hands[s] & ~det.zombies[s]
            for suit in range(4):
                if state.voids[s] >> suit & 1:
                    assert not hidden & SUIT_MASKS[suit]
        assert det.hands[seat] == state.hands[seat]
        # the sampled state plays on under the rules
        if det.to_act():
            nxt = det.to_act()[0]
            det.apply(nxt, rng.choice(det.legal_actions(nxt)))

    walk(seed, options, check)


@given(SEEDS, OPTIONS)
@FAST
def test_zombies_are_visible_to_every_seat_and_to_a_spectator(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        expected = [sorted(card_str(c) for c in iter_bits(z)) for z in state.zombies]
        for viewer in [*range(state.n), None]:
            obs = state.observation(viewer)
            assert [sorted(z) for z in obs["zombies"]] == expected
            for s in range(state.n):
                assert obs["hand_sizes"][s] == state.hands[s].bit_count()

    walk(seed, options, check)


def _hidden_from(state: TrickOfTheDeadState, viewer: int | None) -> set[str]:
    hidden = 0
    for s in range(state.n):
        if s != viewer:
            hidden |= state.hands[s] & ~state.zombies[s]
    if not state.grave_public:
        grave = sum(1 << c for c in state.graveyard)
        if viewer is not None:
            grave &= ~state.buried[viewer]  # a seat knows its own burial
        hidden |= grave
    return {card_str(c) for c in iter_bits(hidden)}


@given(SEEDS, OPTIONS)
@settings(max_examples=12, deadline=None)
def test_no_observation_shows_another_seats_hidden_card(seed: int, options: dict[str, Any]) -> None:
    def check(state: TrickOfTheDeadState, rng: random.Random) -> None:
        for viewer in [*range(state.n), None]:
            text = repr(state.observation(viewer))
            for c in _hidden_from(state, viewer):
                assert f"'{c}'" not in text, f"{viewer} sees {c}"
            for e in state.events_for(viewer):
                if e.kind in ("deal", "bury"):
                    assert e.seat == viewer

    walk(seed, options, check, max_rounds=2)


@given(SEEDS, OPTIONS)
@FAST
def test_a_round_ends_exactly_when_a_hand_is_empty_at_the_start_of_a_trick_ruling_e1(
        seed: int, options: dict[str, Any]) -> None:
    game = make_game(**options)
    state = game.new_state(seed, max_rounds=3)
    rng = random.Random(seed)
    ends = 0
    while not state.is_over():
        obs = state.observation(None)
        if obs["phase"] == "play" and not obs["trick"]:
            assert all(obs["hand_sizes"]), "a trick started although a hand was empty"
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        before = state.clone()
        state.apply(seat, action)
        if state.rounds_played > before.rounds_played:
            ends += 1
            hands = list(before.hands)
            if action.kind == "play":
                hands[seat] &= ~action.cards
            (trick,) = [e for e in state.events[len(before.events):] if e.kind == "trick"]
            if trick.data["risen"]:
                hands[trick.data["winner"]] |= 1
            assert 0 in hands, "the round ended while every hand still held a card"
    assert ends == state.rounds_played >= 1
