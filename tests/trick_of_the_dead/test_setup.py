"""Cards, seats, the deal, the burial and ruling G1."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torite.cards import card_str, iter_bits, parse_card
from torite.games.trick_of_the_dead.rules import TrickOfTheDeadState, winning_index

from .conftest import assert_refused, build_deal, make_game, names, setup


def test_deck_has_54_cards_with_two_distinct_jokers() -> None:
    state = make_game().new_state(1)
    obs = [state.observation(s) for s in range(3)]
    dealt = [c for o in obs for c in o["hand"]]
    assert len(dealt) == len(set(dealt)) == 48
    assert obs[0]["graveyard_size"] == 6
    # over a few deals every one of the 54 cards (both jokers, told apart) turns up in hands
    seen: set[str] = set()
    for seed in range(40):
        st = make_game().new_state(seed)
        for s in range(3):
            seen.update(st.observation(s)["hand"])
    assert len(seen) == 54
    assert {"JK1", "JK2"} <= seen
    assert card_str(parse_card("JK1")) != card_str(parse_card("JK2"))


@pytest.mark.parametrize("suit", "CDHS")
def test_rank_order_is_ace_high_two_low(suit: str) -> None:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    led = "CDHS".index(suit)
    for i, low in enumerate(ranks):
        for high in ranks[i + 1:]:
            lo, hi = parse_card(low + suit), parse_card(high + suit)
            assert winning_index([lo, hi], led, -1) == 1
            assert winning_index([hi, lo], led, -1) == 0


def test_rank_order_decides_a_played_trick() -> None:
    state = setup(["KS", "AS", "2S"])
    before = state.observation(None)["tricks_won"]
    assert before == [0, 0, 0]
    state.apply_text(0, "play KS")
    state.apply_text(1, "play AS")
    state.apply_text(2, "play 2S")
    assert state.history[-1]["winner"] == 1


@pytest.mark.parametrize("seed", range(5))
def test_three_players_deal_16_each_and_6_to_the_graveyard(seed: int) -> None:
    state = make_game().new_state(seed)
    obs = state.observation(None)
    assert obs["hand_sizes"] == [16, 16, 16]
    assert obs["graveyard_size"] == 6
    assert obs["phase"] == "bury"


@pytest.mark.parametrize("seed", range(5))
def test_two_players_deal_20_each_and_14_to_the_graveyard(seed: int) -> None:
    game = make_game(players=2)
    state = game.new_state(seed)
    obs = state.observation(None)
    assert obs["hand_sizes"] == [20, 20]
    assert obs["graveyard_size"] == 14
    for s in (0, 1):
        state.apply(s, state.legal_actions(s)[0])
    obs = state.observation(None)
    assert obs["hand_sizes"] == [18, 18]
    assert obs["graveyard_size"] == 18


def test_burial_leaves_hands_of_14_and_a_graveyard_of_12() -> None:
    state = make_game().new_state(7)
    for s in range(3):
        state.apply(s, state.legal_actions(s)[-1])
    obs = state.observation(None)
    assert obs["hand_sizes"] == [14, 14, 14]
    assert obs["graveyard_size"] == 12


def test_burial_is_simultaneous_every_seat_decides_at_once_in_any_order() -> None:
    state = make_game().new_state(3)
    assert state.to_act() == (0, 1, 2)
    assert all(a.kind == "bury" for s in range(3) for a in state.legal_actions(s))
    state.apply(2, state.legal_actions(2)[0])
    assert state.to_act() == (0, 1)
    assert state.legal_actions(2) == []
    state.apply(0, state.legal_actions(0)[0])
    assert state.to_act() == (1,)
    state.apply(1, state.legal_actions(1)[0])
    assert state.observation(None)["phase"] == "play"


def test_burial_is_two_cards_of_ones_own_hand() -> None:
    state = make_game().new_state(3)
    legal = state.legal_actions(0)
    assert len(legal) == 16 * 15 // 2
    assert all(a.cards.bit_count() == 2 for a in legal)
    mine = names(state.observation(0)["hand"])
    assert all(names(str(a).split()[1:]) <= mine for a in legal)


def test_burial_is_hidden_from_the_other_seats_and_spectators() -> None:
    state = make_game().new_state(11)
    buried = state.observation(0)["hand"][:2]
    state.apply_text(0, "bury " + " ".join(buried))
    assert names(state.observation(0)["buried"]) == names(buried)
    for viewer in (1, 2, None):
        obs = state.observation(viewer)
        text = repr(obs)
        assert obs["buried"] == [] or names(obs["buried"]).isdisjoint(buried)
        for c in buried:
            assert f"'{c}'" not in text, f"seat {viewer} can see {c}"
        assert obs["buried_done"] == [True, False, False]
        assert all(e.kind != "bury" or e.seat != 0 for e in state.events_for(viewer))
    # still hidden after everyone buried and play started
    for s in (1, 2):
        state.apply(s, state.legal_actions(s)[0])
    for viewer in (1, 2, None):
        text = repr(state.observation(viewer))
        for c in buried:
            assert f"'{c}'" not in text


def test_buried_cards_go_into_the_graveyard() -> None:
    deal, _ = build_deal(after_top=None)
    game = make_game(open_graveyard=True)
    state = game.new_state(5, dealer=2, deals=[deal])
    burials = [state.observation(s)["hand"][-2:] for s in range(3)]
    for s in range(3):
        state.apply_text(s, "bury " + " ".join(burials[s]))
    grave = state.observation(1)["graveyard"]
    assert len(grave) == 12
    assert names(grave) == names(deal["graveyard"]) | {c for b in burials for c in b}
    for s in range(3):
        assert names(state.observation(s)["hand"]).isdisjoint(burials[s])


def test_graveyard_is_shuffled_after_the_burial_ruling_g1() -> None:
    deal, _ = build_deal(after_top=None)
    game = make_game(open_graveyard=True)
    tops: Counter[str] = Counter()
    unchanged = 0
    buried_on_top = 0
    for seed in range(60):
        state = game.new_state(seed, dealer=2, deals=[deal])
        burials = [state.observation(s)["hand"][-2:] for s in range(3)]
        for s in range(3):
            state.apply_text(s, "bury " + " ".join(burials[s]))
        grave = state.observation(0)["graveyard"]
        tops[grave[0]] += 1
        # unshuffled, the dealt 6 would stay in order under or over the buried 6
        if grave[:6] == deal["graveyard"] or grave[6:] == deal["graveyard"]:
            unchanged += 1
        if names(grave[:6]) == {c for b in burials for c in b}:
            buried_on_top += 1
    assert len(tops) >= 8, tops
    assert unchanged == 0
    assert buried_on_top == 0


def test_shuffle_comes_from_the_seed() -> None:
    deal, _ = build_deal(after_top=None)
    orders = []
    for _ in range(2):
        state = make_game(open_graveyard=True).new_state(42, dealer=2, deals=[deal])
        for s in range(3):
            state.apply(s, state.legal_actions(s)[0])
        orders.append(state.observation(0)["graveyard"])
    assert orders[0] == orders[1]


def test_graveyard_after_burial_fixes_the_order_top_first() -> None:
    deal, burials = build_deal(["AS"], after_top="JK2 9C", graveyard="9C")
    state = make_game(open_graveyard=True).new_state(0, dealer=2, deals=[deal])
    for s in range(3):
        state.apply_text(s, "bury " + " ".join(burials[s]))
    assert state.observation(0)["graveyard"] == deal["graveyard_after_burial"]
    assert state.observation(0)["graveyard"][:2] == ["JK2", "9C"]


def test_graveyard_after_burial_decides_which_zombie_rises_without_open_graveyard() -> None:
    state = setup(["7S", "KS", "7H"], after_top="QD 2C", voids={2: "S"})
    assert state.observation(0)["graveyard"] is None
    state.apply_text(0, "play 7S")
    state.apply_text(1, "play KS")
    state.apply_text(2, "play 7H")
    assert state.history[-1]["risen"] == "QD"
    assert state.observation(1)["zombies"][1] == ["QD"]


def test_graveyard_after_burial_refuses_a_burial_it_does_not_hold() -> None:
    deal, burials = build_deal(["AS KS"], bury=["2C 3C"])
    game = make_game()
    state = game.new_state(0, dealer=2, deals=[deal])
    assert_refused(state, 0, "bury AS KS")
    # the legal burials are exactly those the listed graveyard holds
    assert [str(a) for a in state.legal_actions(0)] == ["bury 2C 3C"]
    state.apply_text(0, "bury 2C 3C")
    for s in (1, 2):
        state.apply_text(s, "bury " + " ".join(burials[s]))
    assert state.observation(None)["phase"] == "play"


def test_explicit_deal_puts_the_listed_cards_in_each_hand_and_graveyard() -> None:
    deal, _ = build_deal(["AS KS", "AH", "AD"], graveyard="2C")
    state = make_game().new_state(0, dealer=0, deals=[deal])
    for s in range(3):
        assert state.observation(s)["hand"] and names(state.observation(s)["hand"]) == names(deal["hands"][s])
    assert len(deal["graveyard"]) == 6


def test_random_deals_differ_by_seed_and_repeat_with_the_same_seed() -> None:
    a = make_game().new_state(1).observation(0)["hand"]
    b = make_game().new_state(1).observation(0)["hand"]
    c = make_game().new_state(2).observation(0)["hand"]
    assert a == b != c


def test_first_dealer_comes_from_the_seed() -> None:
    dealers = {make_game().new_state(seed).observation(None)["dealer"] for seed in range(30)}
    assert dealers == {0, 1, 2}



# ------------------------------------------------------------------ in random games (hypothesis)
def _hidden_from(state: TrickOfTheDeadState, viewer: int | None) -> set[str]:
    """By the rules, not by the state's own account: other seats' hands but their zombies, and a
    closed graveyard but the viewer's own burial."""
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


@given(st.integers(min_value=0, max_value=2**32), st.fixed_dictionaries({
    "players": st.sampled_from([3, 3, 2]), "open_graveyard": st.booleans(), "survival": st.booleans(),
    "zombie_doubles": st.sampled_from(["diamonds", "trick"])}))
@settings(max_examples=12, deadline=None)
def test_other_hands_a_closed_graveyard_and_other_burials_stay_hidden_in_random_games(
        seed: int, options: dict[str, Any]) -> None:
    state = make_game(**options).new_state(seed, max_rounds=2)
    rng = random.Random(seed)
    while True:
        for viewer in [*range(state.n), None]:
            text = repr(state.observation(viewer))
            for c in _hidden_from(state, viewer):
                assert f"'{c}'" not in text, f"{viewer} sees {c}"
            for e in state.events_for(viewer):
                if e.kind in ("deal", "bury"):
                    assert e.seat == viewer
        if state.is_over():
            break
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
