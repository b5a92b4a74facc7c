"""What each seat may know in Mighty: the kitty and the discards, the hidden friend, and the
inferences the determinizer must respect (sampled worlds looked at card by card)."""

from __future__ import annotations

import random

from torite.cards import SUIT_MASKS, parse_card
from torite.engine.registry import make_game
from torite.games.mighty.basics import JOKER_BIT
from torite.games.mighty.rules import MightyState

from .helpers import act, deal, elect, mask, play, playable, setup, start


def worlds(state: MightyState, seat: int, k: int = 40) -> list[MightyState]:
    det = state.game.determinizer(state.observation(seat))
    rng = random.Random(seat)
    out = []
    for _ in range(k):
        w = det.sample(rng)
        assert isinstance(w, MightyState)
        out.append(w)
    return out


def test_the_kitty_is_seen_by_nobody_until_the_president_takes_it() -> None:
    state = start([deal({}, "2C 3D 4H")])
    for seat in (0, 1, 2, 3, 4, None):
        obs = state.observation(seat)
        assert obs["kitty"] is None and obs["kitty_size"] == 3
    elect(state, 2, "14 D")
    assert state.observation(None)["kitty_size"] == 0
    assert "2C" in state.observation(2)["hand"] and "2C" not in state.observation(1)["hand"]
    assert state.known_cards(2) & mask("2C 3D 4H") == mask("2C 3D 4H")
    assert not state.known_cards(1) & mask("2C 3D 4H")


def test_the_discards_are_the_presidents_alone_and_sampled_for_the_others() -> None:
    state = setup({}, kitty="2C 3D 4H", discards="2C 3D 4H", friend="friend none", max_rounds=None)
    assert state.observation(0)["discards"] == ["4H", "3D", "2C"] or \
        sorted(state.observation(0)["discards"]) == ["2C", "3D", "4H"]
    for w in worlds(state, 0, 10):
        assert sorted(w.discards) == sorted(state.discards)  # the president knows them
    moved = 0
    for w in worlds(state, 3):
        assert len(w.discards) == 3 and w.hands[3] == state.hands[3]
        moved += sorted(w.discards) != sorted(state.discards)
    assert moved  # the others do not know them


def test_a_sampled_world_puts_the_friend_with_the_friend_card_it_samples() -> None:
    state = setup({3: "KS 2C 3C 4C 5C 6C 7C 8C 9C 10C"}, bid="13 H", friend="friend KS")
    assert state.friend == 3
    seen = set()
    for w in worlds(state, 1):
        holder = next((s for s in range(5) if w.hands[s] >> parse_card("KS") & 1), -1)
        expected = -1 if holder in (-1, 0) else holder
        assert w.friend == expected
        seen.add(w.friend)
    assert len(seen) > 1  # seat 1 does not know who it is
    assert all(w.friend == 3 for w in worlds(state, 3, 5))  # the friend knows itself


def test_the_presidents_world_has_no_friend_when_it_holds_the_friend_card() -> None:
    state = setup({0: "AS KH QH JH 10H 9H 8H 7H 6H 5H"}, friend="friend AS")
    assert state.friend == -1
    for w in worlds(state, 0, 10):
        assert w.friend == -1
        assert w.observation(0)["friend"] is None


def test_a_seat_that_did_not_play_the_joker_to_a_joker_call_holds_none_in_any_world() -> None:
    # the president discarded the joker: the call finds nobody
    state = setup({0: "AS 3C 2S 3S 4S 5S 6S 7S 8S 9S"}, bid="13 H", kitty="JK 2D 3D", discards="JK 2D 3D")
    play(state, "AS")
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    play(state, "3C")
    act(state, "call")
    play(state, sorted(playable(state))[0])
    play(state, sorted(playable(state))[0])
    # seats 1 and 2 have played no joker to the call
    for w in worlds(state, 4):
        assert not (w.hands[1] | w.hands[2]) & JOKER_BIT
    while len(state.history) < 2:
        play(state, sorted(playable(state))[0])
    for w in worlds(state, 1):
        assert not (w.hands[2] | w.hands[3] | w.hands[4]) & JOKER_BIT


def test_a_trump_lead_to_trick_1_shows_the_president_held_only_trumps_and_the_joker() -> None:
    state = setup({0: "JK AH KH QH JH 10H 9H 8H 7H 6H"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "6H")
    others = mask("2H") ^ mask("2H")
    for s in (0, 1, 3):
        others |= SUIT_MASKS[s]
    for w in worlds(state, 2):
        assert not w.hands[0] & others


def test_the_friend_role_of_a_first_trick_friend_is_hidden_until_trick_1_ends() -> None:
    state = setup({}, bid="13 H", friend="friend first-trick")
    assert all(state.observation(s)["friend"] is None for s in (0, 1, 2, 3, 4, None))
    assert not state.friend_shown


def test_every_event_a_seat_is_shown_names_only_cards_it_may_know() -> None:
    """A lighter twin of the conformance leak test, over several whole games."""
    from tests.conformance.harness import LeakJudge, random_move
    game = make_game("mighty", {"deals": 2})
    for seed in range(3):
        judge = LeakJudge(game, seed)
        rng = random.Random(seed)
        leaks = judge.initial_leaks
        while not judge.state.is_over() and not leaks:
            leaks = judge.apply(*random_move(judge.state, rng))
        assert not leaks, leaks
