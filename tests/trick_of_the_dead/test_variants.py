"""Options: open graveyard, two players, and refusals of bad options and bad deals."""

from __future__ import annotations

import random

import pytest

from torite.engine.base import OptionError
from torite.engine.registry import make_game as registry_make_game

from .conftest import build_deal, make_game, play, random_playout, setup


def test_open_graveyard_shows_the_whole_order_to_everyone_after_the_shuffle() -> None:
    state = make_game(open_graveyard=True).new_state(4)
    for viewer in (0, 1, 2, None):
        assert state.observation(viewer)["graveyard"] is None  # face down until the burial ends
    for s in range(3):
        state.apply(s, state.legal_actions(s)[0])
    grave = state.observation(None)["graveyard"]
    assert len(grave) == 12
    for viewer in (0, 1, 2):
        assert state.observation(viewer)["graveyard"] == grave


def test_open_graveyard_order_is_the_order_zombies_rise() -> None:
    state = make_game(open_graveyard=True).new_state(9)
    for s in range(3):
        state.apply(s, state.legal_actions(s)[0])
    expected = list(state.observation(None)["graveyard"])
    rng = random.Random(9)
    risen: list[str] = []
    start_round = state.observation(None)["round"]
    while not state.is_over() and state.observation(None)["round"] == start_round:
        obs = state.observation(None)
        assert obs["graveyard"] == expected[len(risen):]
        for seat in state.to_act():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.history and state.observation(None)["round"] == start_round:
            risen = [t["risen"] for t in state.history if t["risen"]]
    assert risen, "seed chosen so that zombies rise"
    assert risen == expected[:len(risen)]


def test_closed_graveyard_keeps_its_order_hidden() -> None:
    state = make_game().new_state(4)
    for s in range(3):
        state.apply(s, state.legal_actions(s)[0])
    for viewer in (0, 1, 2, None):
        assert state.observation(viewer)["graveyard"] is None
        assert state.observation(viewer)["graveyard_size"] == 12


def test_two_player_trick_has_two_cards_and_a_pair_raises_a_zombie() -> None:
    state = setup(["7S", "7H"], after_top="QD", voids={1: "S"}, players=2)
    assert state.observation(None)["hand_sizes"] == [18, 18]
    assert state.observation(None)["graveyard_size"] == 18
    play(state, "7S", "7H")
    rec = state.history[-1]
    assert rec["cards"] == ["7S", "7H"]
    assert (rec["winner"], rec["risen"]) == (0, "QD")
    assert state.to_act() == (0,)


def test_two_player_trick_of_different_ranks_raises_nothing() -> None:
    state = setup(["7S", "8S"], after_top="QD", players=2)
    play(state, "7S", "8S")
    assert state.history[-1]["risen"] is None
    assert state.history[-1]["winner"] == 1


def test_two_player_games_run_to_the_end() -> None:
    for seed in range(5):
        state = make_game(players=2).new_state(seed)
        random_playout(state, random.Random(seed))
        assert len(state.result().scores) == 2


@pytest.mark.parametrize("options", [
    {"players": 4}, {"players": 1}, {"players": "three"}, {"survival": "maybe"}, {"survival": 1},
    {"open_graveyard": "x"}, {"zombie_doubles": "hearts"}, {"target": 0}, {"target": -5},
    {"target": "lots"}, {"target": True}, {"colour": "red"},
])
def test_bad_options_raise_option_error(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        make_game(**options)
    with pytest.raises(OptionError):
        registry_make_game("trick-of-the-dead", options)


def test_options_accept_their_text_forms() -> None:
    game = make_game(players="2", survival="yes", open_graveyard="on", zombie_doubles="trick", target="50")
    assert game.options == {"players": 2, "survival": True, "open_graveyard": True,
                            "zombie_doubles": "trick", "target": 50, "club_points": -2, "survivor_points": 2,
                            "joker_points": 5}
    assert game.num_players == 2


def _good() -> dict[str, object]:
    deal, _ = build_deal(["AS"], after_top=None)
    return deal


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("hands"), "needs 'hands' and 'graveyard'"),
    (lambda d: d.pop("graveyard"), "needs 'hands' and 'graveyard'"),
    (lambda d: d.__setitem__("hands", d["hands"][:2]), "needs 3 hands of 16 cards"),
    (lambda d: d["hands"][0].pop(), "needs 3 hands of 16 cards"),
    (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "not a card"),
    (lambda d: d["hands"][0].__setitem__(0, d["hands"][1][0]), "each of the 54 cards once"),
    (lambda d: d["graveyard"].pop(), "each of the 54 cards once"),
    (lambda d: d.__setitem__("graveyard_after_burial", ["AS"]), "graveyard_after_burial needs 12"),
    (lambda d: d.__setitem__("graveyard_after_burial", d["graveyard"] * 2), "graveyard_after_burial needs 12"),
    (lambda d: d.__setitem__("graveyard_after_burial", [c for h in d["hands"] for c in h][:12]),
     "graveyard_after_burial must hold every card of the graveyard"),
    (lambda d: d.__setitem__("graveyard_after_burial", ["XX"] * 12), "graveyard_after_burial"),
])
def test_bad_deals_raise_value_error_with_a_clear_message(change, message: str) -> None:  # type: ignore[no-untyped-def]
    deal = _good()
    change(deal)
    with pytest.raises(ValueError, match=message) as info:
        make_game().new_state(0, deals=[deal])
    assert "bad deal" in str(info.value)


def test_bad_dealer_raises_value_error() -> None:
    with pytest.raises(ValueError, match="dealer must be a seat"):
        make_game().new_state(0, dealer=3)


def test_two_player_deal_must_have_two_hands_of_20() -> None:
    deal = _good()
    with pytest.raises(ValueError, match="needs 2 hands of 20 cards"):
        make_game(players=2).new_state(0, deals=[deal])
    deal2, _ = build_deal(["AS"], players=2, after_top=None)
    state = make_game(players=2).new_state(0, deals=[deal2])
    assert state.observation(None)["hand_sizes"] == [20, 20]


def test_explicit_deals_apply_round_by_round_then_random_deals_follow() -> None:
    deal1, _ = build_deal(["AS KS"], after_top=None)
    deal2, _ = build_deal(["AH KH"], after_top=None)
    state = make_game(target=500).new_state(1, deals=[deal1, deal2])
    rng = random.Random(1)
    seen = []
    while state.rounds_played < 3:
        obs = state.observation(0)
        if obs["phase"] == "bury" and obs["buried_done"] == [False, False, False]:
            seen.append(sorted(obs["hand"]))
        for seat in state.to_act():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen[0] == sorted(deal1["hands"][0])
    assert seen[1] == sorted(deal2["hands"][0])
    assert len(seen) == 3 and seen[2] not in (seen[0], seen[1])
