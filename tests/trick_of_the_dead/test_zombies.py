"""Zombies: when they rise, to whom, and what they are afterwards."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings

from torite.cards import card_str, iter_bits

from .conftest import OPTIONS, SEEDS, assert_refused, build_deal, cards, make_game, names, play, setup


def test_zombie_rises_to_trick_winner_when_two_cards_share_a_rank() -> None:
    state = setup(["7S", "KS", "7H"], after_top="QD", voids={2: "S"})
    play(state, "7S", "KS", "7H")
    rec = state.history[-1]
    assert rec["winner"] == 1
    assert rec["risen"] == "QD"
    assert "QD" in state.observation(1)["hand"]
    assert state.observation(1)["zombies"][1] == ["QD"]
    assert state.observation(None)["hand_sizes"] == [13, 14, 13]
    assert state.observation(None)["graveyard_size"] == 11


def test_zombie_rises_to_the_winner_even_when_the_winner_is_not_in_the_pair() -> None:
    state = setup(["7S", "7H", "AS"], after_top="QD", voids={1: "S"})
    play(state, "7S", "7H", "AS")
    assert state.history[-1]["winner"] == 2
    assert state.observation(None)["zombies"] == [[], [], ["QD"]]


def test_only_one_zombie_rises_for_three_of_a_kind() -> None:
    state = setup(["7S", "7H", "7D"], after_top="QD JD", voids={1: "S", 2: "S"})
    play(state, "7S", "7H", "7D")
    assert state.history[-1]["risen"] == "QD"
    assert state.observation(None)["zombies"] == [["QD"], [], []]
    assert state.observation(None)["graveyard_size"] == 11


def test_no_zombie_rises_without_a_shared_rank() -> None:
    state = setup(["7S", "8S", "9S"], after_top="QD")
    play(state, "7S", "8S", "9S")
    assert state.history[-1]["risen"] is None
    assert state.observation(None)["zombies"] == [[], [], []]
    assert state.observation(None)["graveyard_size"] == 12


def test_jokers_have_no_rank_two_jokers_raise_no_zombie() -> None:
    state = setup(["5S", "JK1", "JK2"], after_top="QD")
    play(state, "5S", "JK1", "trump H", "JK2")
    assert state.history[-1]["risen"] is None
    assert state.observation(None)["graveyard_size"] == 12


def test_suits_do_not_matter_for_a_shared_rank_but_ranks_do() -> None:
    state = setup(["QS", "KS", "JS"], after_top="QD")
    play(state, "QS", "KS", "JS")  # Q, K, J: no pair although all spades
    assert state.history[-1]["risen"] is None


def _emptying_deal(**options: object):  # type: ignore[no-untyped-def]
    """Seat 0 holds every spade, seat 1 every diamond, seat 2 every club; the graveyard
    (after the burial, top first) is the 10 other hearts and the jokers, which rise in that
    order to seat 0: it leads rank r of spades and the others answer with rank r."""
    grave_after = "JH QH KH AH 3H 4H 6H 7H 9H 10H JK1 JK2"
    spades = " ".join(f"{r}S" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
    diamonds = spades.replace("S", "D")
    clubs = spades.replace("S", "C")
    return setup([spades + " 2H", diamonds + " 5H", clubs + " 8H"],
                 bury=["3H 4H", "6H 7H", "9H 10H"], graveyard="JH QH KH AH JK1 JK2",
                 after_top=grave_after, **options)


def test_no_zombie_rises_once_the_graveyard_is_empty() -> None:
    state = _emptying_deal()
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for i, r in enumerate(ranks):
        play(state, f"{r}S", f"{r}D", f"{r}C")
        rec = state.history[-1]
        assert rec["winner"] == 0
        if i < 12:
            assert rec["risen"] is not None
        else:
            assert rec["risen"] is None, "the 13th pair found an empty graveyard"
    obs = state.observation(None)
    assert obs["graveyard_size"] == 0
    assert len(obs["zombies"][0]) == 12
    assert obs["hand_sizes"] == [13, 1, 1]
    assert [t["risen"] for t in obs["tricks"][:12]] == cards("JH QH KH AH 3H 4H 6H 7H 9H 10H JK1 JK2")


def test_zombies_are_public_to_every_seat_and_spectators() -> None:
    state = setup(["7S", "KS", "7H"], after_top="QD", voids={2: "S"})
    play(state, "7S", "KS", "7H")
    for viewer in (0, 1, 2, None):
        obs = state.observation(viewer)
        assert obs["zombies"] == [[], ["QD"], []]
        assert obs["tricks"][-1]["risen"] == "QD"
    # seat 1's other cards stay hidden
    hidden = set(state.observation(1)["hand"]) - {"QD"}
    for viewer in (0, 2, None):
        text = repr(state.observation(viewer))
        assert not any(f"'{c}'" in text for c in hidden)


def test_a_zombie_can_be_played_from_the_next_trick() -> None:
    state = setup(["7S", "KS", "7H"], after_top="QD", voids={2: "S"})
    play(state, "7S", "KS", "7H")
    assert state.to_act() == (1,)
    assert "play QD" in {str(a) for a in state.legal_actions(1)}
    state.apply_text(1, "play QD")
    assert state.observation(0)["trick"] == [{"seat": 1, "card": "QD", "zombie": True}]
    assert state.observation(None)["zombies"] == [[], [], []]  # played: no longer in a hand


def test_a_zombie_counts_for_must_follow() -> None:
    # trick 1 gives seat 1 (no diamonds) the zombie QD; trick 3 leads a diamond
    state = setup(["7S AS 5D", "KS 3S", "7H 2D"], after_top="QD", voids={1: "D", 2: "S"})
    play(state, "7S", "KS", "7H")
    play(state, "3S", "2D", "AS")
    assert state.to_act() == (0,)
    play(state, "5D")
    assert [str(a) for a in state.legal_actions(1)] == ["play QD"]
    other = next(c for c in state.observation(1)["hand"] if c != "QD")
    assert_refused(state, 1, f"play {other}")
    play(state, "QD")


def test_a_zombie_is_the_top_of_the_graveyard_in_order() -> None:
    deal, burials = build_deal(["7S 8S", "KD 8H", "7H 9D"], after_top="QD 2H", voids={1: "S", 2: "S"})
    state = make_game().new_state(0, dealer=2, deals=[deal])
    for s in range(3):
        state.apply_text(s, "bury " + " ".join(burials[s]))
    play(state, "7S", "8H", "7H")
    assert state.history[-1]["risen"] == "QD"
    assert state.history[-1]["winner"] == 0
    play(state, "8S", "KD", "9D")
    assert state.history[-1]["winner"] == 0
    assert state.history[-1]["risen"] is None
    assert names(state.observation(2)["zombies"][0]) == {"QD"}


def test_a_buried_card_can_come_back_as_a_zombie() -> None:
    state = setup(["7S", "KS", "7H"], bury=["AD KD"], after_top="AD", voids={2: "S"})
    play(state, "7S", "KS", "7H")
    assert state.observation(0)["zombies"][1] == ["AD"]
    assert state.observation(0)["buried"] == ["KD", "AD"]


# ------------------------------------------------------------------ in random games (hypothesis)


@given(SEEDS, OPTIONS)
@settings(max_examples=25, deadline=None)
def test_in_random_games_a_zombie_stays_in_its_holders_hand_and_every_seat_and_spectator_sees_it(
        seed: int, options: dict[str, Any]) -> None:
    state = make_game(**options).new_state(seed, max_rounds=2)
    rng = random.Random(seed)
    while True:
        expected = [sorted(card_str(c) for c in iter_bits(z)) for z in state.zombies]
        for s in range(state.n):
            assert state.zombies[s] & ~state.hands[s] == 0  # a zombie is a card in a hand
        for viewer in [*range(state.n), None]:
            obs = state.observation(viewer)
            assert [sorted(z) for z in obs["zombies"]] == expected
            assert obs["hand_sizes"] == [h.bit_count() for h in state.hands]
        if state.is_over():
            break
        seat = rng.choice(state.to_act())  # simultaneous burials in any order
        state.apply(seat, rng.choice(state.legal_actions(seat)))
