"""The fixed-size encodings every adapter stands on, checked on every registered game."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from torite.adapters.encoding import all_card_sets, describe, spec
from torite.cards import iter_bits
from torite.engine.base import Action
from torite.engine.registry import game_ids

GAMES = game_ids()


def _random_states(game_id: str, rounds: int, seed: int):  # type: ignore[no-untyped-def]
    """Every state of ``rounds`` random single rounds (seeds unlike exploration's)."""
    game = spec(game_id).game
    for i in range(rounds):
        state = game.new_state(seed * 1000 + i, max_rounds=1, first_round=i, dealer=i % game.num_players)
        rng = random.Random(i)
        while not state.is_over():
            yield state
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
        yield state


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_has_an_id_that_names_it_back(game_id: str) -> None:
    sp = spec(game_id)
    for state in _random_states(game_id, 6, 7):
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            ids = [sp.actions.index(a, legal) for a in legal]
            assert len(set(ids)) == len(ids)
            assert [sp.actions.action(i, legal) for i in ids] == list(legal)
            mask = sp.actions.mask(legal)
            assert mask.sum() == len(legal) and all(mask[i] == 1 for i in ids)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_observation_vector_has_one_size_and_marks_only_cards_the_seat_may_know(game_id: str) -> None:
    sp = spec(game_id)
    d = len(sp.deck)
    for state in _random_states(game_id, 3, 3):
        for seat in range(sp.game.num_players):
            vec = sp.obs.encode(state.observation(seat))
            assert vec.shape == (sp.obs.size,) and vec.dtype == np.float32
            assert np.isfinite(vec).all()
            known = state.known_cards(seat)
            for offset, blocks in sp.obs.card_segments:
                for b in range(blocks):
                    block = vec[offset + b * d: offset + (b + 1) * d]
                    for i in np.flatnonzero(block):
                        assert known >> sp.deck[i] & 1, (game_id, seat, offset, sp.deck[i])
            hand = vec[sp.obs.offset["hand"]: sp.obs.offset["hand"] + d]
            assert {sp.deck[i] for i in np.flatnonzero(hand)} == set(iter_bits(state.card_places()[f"hands[{seat}]"]))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_vector_is_a_function_of_the_observation_alone(game_id: str) -> None:
    """A determinized state shows the seat the same observation, hence the same vector."""
    sp = spec(game_id)
    for k, state in enumerate(_random_states(game_id, 2, 5)):
        if state.is_over() or k % 7:
            continue
        seat = state.to_act()[0]
        other = state.determinize(seat, random.Random(k))
        assert np.array_equal(sp.obs.encode(state.observation(seat)), sp.obs.encode(other.observation(seat)))


def test_the_encodings_are_the_same_every_time_and_follow_the_options() -> None:
    a = describe("trick-of-the-dead")
    assert describe("trick-of-the-dead") == a
    two = describe("trick-of-the-dead", {"players": 2})
    assert two["players"] == 2 and two["observation_size"] != a["observation_size"]
    assert describe("kaedama")["deck"] == 36  # the stripped deck, from card_places


def test_trick_of_the_dead_has_one_id_per_card_and_one_per_pair_to_bury() -> None:
    d = describe("trick-of-the-dead")
    blocks = {(b["kind"], b["cards"], b["arg"]): b["size"] for b in d["action_blocks"]}
    assert blocks[("play", 1, "")] == 54 and blocks[("bury", 2, "")] == math.comb(54, 2)
    assert {a for (k, _, a) in blocks if k == "trump"} == set("CDHS")
    assert d["action_space"] == sum(blocks.values()) == 54 + math.comb(54, 2) + 8


def test_card_sets_rank_densely_in_order() -> None:
    sp = spec("trick-of-the-dead")
    space = sp.actions
    masks = all_card_sets(sp.deck, 2)
    ids = [space.index(Action("bury", m)) for m in masks]
    assert sorted(ids) == list(range(ids[0], ids[0] + len(masks)))
    assert all(space.action(i) == Action("bury", m) for i, m in zip(ids, masks))
    with pytest.raises(KeyError):
        space.index(Action("bury", 0b111))  # three cards: no such form
    with pytest.raises(KeyError):
        space.action(space.size)


def test_every_action_the_declarations_allow_has_an_id_before_any_game_is_played() -> None:
    """Ids come from the declared phases (``game.schema()``), not from play: Galapagos' play-off
    sets of one rank, of every size, and Mighty's contracts all have theirs, and an id is the
    same whatever the legal list."""
    g = spec("glapgos")
    quad = Action("play", sum(1 << (s * 13 + 12) for s in range(4)))  # four aces
    pair = Action("play", (1 << 12) | (1 << 25))
    assert g.actions.action(g.actions.index(quad)) == quad and g.actions.action(g.actions.index(pair)) == pair
    blocks = {(b["kind"], b["cards"]): b["size"] for b in describe("glapgos")["action_blocks"]}
    assert blocks[("play", 2)] == 13 * 6 and blocks[("play", 3)] == 13 * 4 and blocks[("play", 4)] == 13
    with pytest.raises(KeyError):
        g.actions.index(Action("play", (1 << 12) | (1 << 11)))  # two ranks at once: never offered
    m = spec("mighty")
    assert m.actions.action(m.actions.index(Action("contract", 0, "14 C"))) == Action("contract", 0, "14 C")
    with pytest.raises(KeyError):
        m.actions.index(Action("bid", 0, "12 S"))  # bids start at 13 with the default options
    low = spec("mighty", {"all_pass": "min12"})
    low.actions.index(Action("bid", 0, "12 S"))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_tracked_vector_equals_the_whole_encoding_at_every_step(game_id: str) -> None:
    """A tracker writes only what changed since it was last asked; whenever it is asked (at every
    step, or now and then as a seat is asked only on its turns), its vector is the whole
    observation encoded again, for every seat and a spectator, over two rounds of three games."""
    sp = spec(game_id)
    game = sp.game
    viewers = [*range(game.num_players), None]
    for k in range(3):
        state = game.new_state(300 + k, max_rounds=2)
        every = {seat: sp.tracker(seat) for seat in viewers}  # asked at every step
        some = {seat: sp.tracker(seat) for seat in viewers}   # asked now and then
        rng = random.Random(k)
        while True:
            for seat in viewers:
                whole = sp.obs.encode(state.observation(seat))
                assert np.array_equal(every[seat].update(state), whole), (game_id, seat, state.phase)
                if state.is_over() or rng.random() < 0.3:
                    assert np.array_equal(some[seat].update(state), whole), (game_id, seat, state.phase)
            if state.is_over():
                break
            seat = rng.choice(state.to_act())
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


def test_a_copied_tracker_follows_its_own_state() -> None:
    """A clone's tracker (``Tracker.copy``) goes on from the same vector, independently."""
    sp = spec("kaedama")
    state = sp.game.new_state(5, max_rounds=1)
    rng = random.Random(5)
    tracker = sp.tracker(0)
    for _ in range(12):
        tracker.update(state)
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    other, copied = state.clone(), tracker.copy()
    for st, tr in ((state, tracker), (other, copied)):
        for _ in range(9):
            seat = st.to_act()[0]
            st.apply(seat, rng.choice(st.legal_actions(seat)))
        assert np.array_equal(tr.update(st), sp.obs.encode(st.observation(0)))
    assert not np.array_equal(tracker.v, copied.v)
