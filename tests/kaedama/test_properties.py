"""Properties over random legal play (hypothesis): conservation of cards, legality, hidden
information, determinization and reproducibility, under random options."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from torite.cards import card_str
from torite.engine.base import Action, IllegalAction
from torite.engine.trick import PLAY_ACTIONS as PLAY
from torite.games.kaedama.rules import KAEDAMA, PASS, REPLACE, Kaedama, KaedamaState

OPTIONS = hs.fixed_dictionaries({
    "blind": hs.booleans(), "double": hs.booleans(), "reverse": hs.booleans(),
    "trump_card": hs.sampled_from(("shuffle", "top")),
})
SEEDS = hs.integers(0, 2**32 - 1)
FAST = settings(max_examples=25, deadline=None)


def random_play(options: dict[str, Any], seed: int, rounds: int = 1) -> Iterator[KaedamaState]:
    """Yield the state before each action of a random game, then apply a random legal action."""
    st = Kaedama({"rounds": rounds, **options}).new_state(seed)
    rng = random.Random(seed)
    while not st.is_over():
        yield st
        seat = st.to_act()[0]
        acts = st.legal_actions(seat)
        st.apply(seat, acts[rng.randrange(len(acts))])
    yield st


def all_cards(st: KaedamaState) -> list[int]:
    out = [c for h in st.hands for c in range(52) if h >> c & 1]
    out += [c for m in st.taken for c in range(52) if m >> c & 1]
    return sorted(out + st.stock + st.trick + st.out)


def observations(st: KaedamaState) -> list[str]:
    return [json.dumps(st.observation(s), sort_keys=True) for s in (0, 1, 2, None)]


@FAST
@given(OPTIONS, SEEDS)
def test_cards_are_never_created_or_lost(options: dict[str, Any], seed: int) -> None:
    deck = sorted(Kaedama(options).deck)
    for st in random_play(options, seed, rounds=2):
        assert all_cards(st) == deck


@FAST
@given(OPTIONS, SEEDS)
def test_every_legal_action_is_accepted(options: dict[str, Any], seed: int) -> None:
    for st in random_play(options, seed):
        if st.is_over():
            break
        seat = st.to_act()[0]
        for action in st.legal_actions(seat):
            st.clone().apply(seat, action)


@FAST
@given(OPTIONS, SEEDS)
def test_illegal_actions_raise_and_leave_the_state_unchanged(options: dict[str, Any], seed: int) -> None:
    for st in random_play(options, seed):
        before = observations(st)
        seat = st.to_act()[0] if not st.is_over() else 0
        legal = set(st.legal_actions(seat))
        wrong = [(o, a) for o in range(3) if o != seat for a in legal]
        wrong += [(seat, a) for a in (REPLACE, PASS, Action("bury"), Action("play", 3),
                                      Action("replace", 1 << 5), Action("pass", 0, "X"))
                  if a not in legal]
        wrong += [(seat, PLAY[c]) for c in st.game.deck if PLAY[c] not in legal][:6]
        for who, action in wrong:
            with pytest.raises(IllegalAction):
                st.apply(who, action)
            assert observations(st) == before


@FAST
@given(OPTIONS, SEEDS)
def test_a_determinized_state_shows_the_same_observation(options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    for i, st in enumerate(random_play(options, seed)):
        if i % 3:
            continue
        for seat in range(3):
            obs = st.observation(seat)
            sample = st.determinize(seat, rng)
            assert sample.observation(seat) == obs
            assert all_cards(sample) == all_cards(st)
            # and the sample plays on to the end of the game
            while not sample.is_over():
                who = sample.to_act()[0]
                acts = sample.legal_actions(who)
                sample.apply(who, acts[rng.randrange(len(acts))])


@FAST
@given(OPTIONS, SEEDS)
def test_a_determinized_state_keeps_known_cards_and_respects_voids(options: dict[str, Any],
                                                                      seed: int) -> None:
    rng = random.Random(seed)
    for st in random_play(options, seed):
        for seat in range(3):
            sample = st.determinize(seat, rng)
            assert sample.hands[seat] == st.hands[seat]
            for other in range(3):
                for suit in range(4):
                    if st.voids[other] >> suit & 1:
                        assert not sample.hands[other] >> (13 * suit) & 0x1FFF
            if st.turned_at in ("top", "face_down"):
                assert sample.stock[-1:] == st.stock[-1:] or st.turned_at == "face_down"
            if st.turned_at == "shuffled":
                assert not any(h >> st.turned & 1 for h in sample.hands)


@FAST
@given(OPTIONS.map(lambda o: o | {"blind": True}), SEEDS)
def test_blind_cards_are_invisible_to_every_seat_before_the_reveal(options: dict[str, Any],
                                                                    seed: int) -> None:
    for st in random_play(options, seed):
        hidden = [c for c, d in zip(st.trick, st.down) if d] + [c for c, d in zip(st.out, st.out_down) if d]
        hidden = [c for c in hidden if c != st.turned]  # the turned card's name is public anyway
        if not hidden:
            continue
        for seat in (0, 1, 2, None):
            text = json.dumps([st.observation(seat), [e.data for e in st.events_for(seat)]])
            for c in hidden:
                assert f'"{card_str(c)}"' not in text
        # and no observation depends on which cards lie face down
        if st.stock:
            swapped = st.clone()
            pos = next(i for i, d in enumerate(swapped.down) if d) if any(swapped.down) else -1
            if pos >= 0 and swapped.trick[pos] != st.turned and swapped.stock[0] != st.turned:
                swapped.trick[pos], swapped.stock[0] = swapped.stock[0], swapped.trick[pos]
                assert observations(swapped) == observations(st)


@FAST
@given(OPTIONS, SEEDS)
def test_same_seed_and_same_actions_give_the_same_game(options: dict[str, Any], seed: int) -> None:
    game = Kaedama({"rounds": 2, **options})
    one = game.new_state(seed)
    rng = random.Random(seed)
    actions = []
    while not one.is_over():
        seat = one.to_act()[0]
        acts = one.legal_actions(seat)
        action = acts[rng.randrange(len(acts))]
        actions.append((seat, str(action)))
        one.apply(seat, action)
    two = game.new_state(seed)
    for seat, text in actions:
        two.apply_text(seat, text)
    assert two.is_over()
    assert two.result() == one.result()
    assert two.events == one.events
    assert observations(two) == observations(one)


@FAST
@given(OPTIONS, SEEDS)
def test_observations_are_json_and_clones_are_independent(options: dict[str, Any], seed: int) -> None:
    for st in random_play(options, seed):
        if st.is_over() or st.phase != KAEDAMA:
            continue
        before = observations(st)
        copy = st.clone()
        copy.apply(copy.to_act()[0], REPLACE)
        assert observations(st) == before
        assert json.loads(before[0])["phase"] == KAEDAMA
