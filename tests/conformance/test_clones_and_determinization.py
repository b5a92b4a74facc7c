"""``clone()`` is an independent copy that plays on like its original; ``determinize(seat, rng)``
is a full state the seat cannot tell from the real one, and it plays to the end."""

from __future__ import annotations

import copy as copying
import pickle
import random
import re

from torite.engine import State

from .harness import (
    Case,
    RandomPlay,
    Snapshot,
    assert_same,
    card_places,
    cards_text,
    differences,
    event_log,
    play_out,
    random_move,
    snapshot,
)

#: Check points of a game: every this many actions, plus the special moments (see ``checkpoints``).
EVERY = 8


def checkpoints(play: RandomPlay, every: int = EVERY) -> list[State]:
    """Walk ``play`` and return clones of the states at its check points: the first, every
    ``every``-th, each during a simultaneous phase (several seats to act), and the first state
    offering a set of action kinds not offered before (a burial, a declaration, a kaedama
    decision...).  The finished state is left out."""
    out: list[State] = []
    seen: set[frozenset[str]] = set()
    for i, state in enumerate(play):
        if state.is_over():
            break
        to_act = state.to_act()
        kinds = frozenset(a.kind for s in to_act for a in state.legal_actions(s))
        if i % every == 0 or len(to_act) > 1 or kinds not in seen:
            out.append(state.clone())
        seen.add(kinds)
    return out


def test_a_clone_looks_like_its_original_and_plays_on_exactly_like_it(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=2)
        copy = state.clone()
        rng = random.Random(seed)
        while not state.is_over():
            seat, action = random_move(state, rng)
            state.apply(seat, action)
            copy.apply(seat, action)
        assert copy.is_over()
        assert_same(snapshot(state), snapshot(copy), "a clone given the same actions ends differently")
        assert event_log(copy) == event_log(state)
        assert copy.result() == state.result()


def test_copy_deepcopy_and_pickle_make_states_that_play_on_exactly_like_the_original(case: Case) -> None:
    """``copy.copy``, ``copy.deepcopy`` and pickle copy a state on both builds (pyspiel's
    ``random_sim_test`` deep-copies a Python state; a server pickles): each copy, made mid-game,
    looks like its original, plays on like it, and playing it changes nothing of the original."""
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=2)
        rng = random.Random(seed)
        for _ in range(2 * EVERY + 3):
            if state.is_over():
                break
            state.apply(*random_move(state, rng))
        before, events = snapshot(state), event_log(state)
        copies = {"copy": copying.copy(state), "deepcopy": copying.deepcopy(state),
                  "pickle": pickle.loads(pickle.dumps(state))}
        for how, made in copies.items():
            assert type(made) is type(state), how
            assert made.game is state.game or how == "pickle", f"{how} copied the game"
            assert_same(before, snapshot(made), f"a state made by {how} looks different")
            assert event_log(made) == events, f"a state made by {how} has other events"
        for how, made in copies.items():
            play_out(made, random.Random(seed + 1), check=False)
            assert_same(before, snapshot(state), f"playing a state made by {how} changed the original")
        reference = state.clone()
        play_out(reference, random.Random(seed + 1), check=False)
        for how, made in copies.items():
            assert_same(snapshot(reference), snapshot(made), f"a state made by {how} plays on differently")
            assert event_log(made) == event_log(reference), f"a state made by {how} plays other events"


def test_playing_on_a_clone_leaves_its_original_unchanged_and_the_other_way_round(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=2)
        rng = random.Random(seed)
        held: list[tuple[State, Snapshot, list[tuple[str, int, str, int]]]] = []
        steps = 0
        while not state.is_over():
            if steps % (2 * EVERY) == 0:
                before = snapshot(state)
                events = event_log(state)
                copy = state.clone()
                assert_same(before, snapshot(copy), "a fresh clone looks different")
                play_out(copy, random.Random(steps), check=False)
                assert_same(before, snapshot(state),
                            f"playing a clone made after {steps} actions to its end changed the original")
                assert event_log(state) == events, "playing a clone changed the original's events"
                # a clone kept while the original plays on must not move with it
                kept = state.clone()
                held.append((kept, snapshot(kept), event_log(kept)))
            seat, action = random_move(state, rng)
            state.apply(seat, action)
            steps += 1
        for kept, snap, events in held:
            assert_same(snap, snapshot(kept), "playing the original on changed a clone")
            assert event_log(kept) == events, "playing the original on changed a clone's events"


def test_an_observation_is_a_copy_that_changes_nothing_when_changed(case: Case) -> None:
    """A bot may keep or edit what it is handed; the state must not share it."""
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=1)
        for st in checkpoints(RandomPlay(state, random.Random(seed)), every=20):
            before = snapshot(st)
            for v in [*range(game.num_players), None]:
                vandalize(st.observation(v))
            assert_same(before, snapshot(st), "editing an observation changed the state")


def vandalize(value: object) -> None:
    """Change every list and dict inside ``value`` in place."""
    if isinstance(value, dict):
        for v in list(value.values()):
            vandalize(v)
        value["vandal"] = True
    elif isinstance(value, list):
        for v in value:
            vandalize(v)
        value.append("vandal")


def test_a_determinized_state_shows_its_seat_the_same_observation_and_choices(case: Case) -> None:
    game = case.game()
    problems: dict[str, str] = {}
    for seed in case.seeds(2):
        state = game.new_state(seed, max_rounds=2)
        rng = random.Random(seed)
        for i, st in enumerate(checkpoints(RandomPlay(state, random.Random(seed)))):
            for seat in range(game.num_players):
                obs = st.observation(seat)
                world = st.determinize(seat, random.Random(rng.getrandbits(32)))
                where = f"seed {seed}, check point {i}, phase {obs.get('phase')!r}, seat {seat}"
                got = world.observation(seat)
                for line in differences(obs, got):
                    key = re.sub(r"\[\d+\]", "[]", line.split(":")[0])
                    problems.setdefault(key, f"{where}: {line} (real != determinized)")
                if world.to_act() != st.to_act():
                    problems.setdefault("to_act", f"{where}: to_act {st.to_act()} != {world.to_act()}")
                if world.legal_actions(seat) != st.legal_actions(seat):
                    problems.setdefault("legal", f"{where}: legal actions {st.legal_actions(seat)[:8]} != "
                                                 f"{world.legal_actions(seat)[:8]}")
                if world.game.options != game.options:
                    problems.setdefault("options", f"{where}: options {world.game.options} != {game.options}")
                places = card_places(world)
                union = 0
                for mask in places.values():
                    if union & mask:
                        problems.setdefault("places", f"{where}: {cards_text(union & mask)} in two places")
                    union |= mask
                real = 0
                for mask in card_places(st).values():
                    real |= mask
                if union != real:
                    problems.setdefault("deck", f"{where}: the world holds {cards_text(union & ~real)} more and "
                                                f"{cards_text(real & ~union)} less than the real deck")
    assert not problems, "a determinized state differs from the real one:\n" + "\n".join(problems.values())


def test_a_determinized_state_plays_to_the_end(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=2)
        rng = random.Random(seed)
        for st in checkpoints(RandomPlay(state, random.Random(seed)), every=16):
            for seat in range(game.num_players):
                world = st.determinize(seat, random.Random(rng.getrandbits(32)))
                play_out(world, random.Random(rng.getrandbits(32)))
                assert world.is_over()
                assert len(world.result().scores) == game.num_players


def test_determinizing_with_the_same_seed_gives_the_same_world(case: Case) -> None:
    """So a search bot's decision is reproducible from its seed."""
    game = case.game()
    for seed in case.seeds(1):
        state = game.new_state(seed, max_rounds=1)
        for st in checkpoints(RandomPlay(state, random.Random(seed)), every=20):
            for seat in range(game.num_players):
                one = st.determinize(seat, random.Random(seed))
                two = st.determinize(seat, random.Random(seed))
                assert_same(snapshot(one), snapshot(two), "two worlds drawn with the same seed differ")
                rng_one, rng_two = random.Random(1), random.Random(1)
                play_out(one, rng_one)
                play_out(two, rng_two)
                assert pickle.dumps(one.result()) == pickle.dumps(two.result())
