"""Good Cop's rules and rulings (``rules.en.md``), one test a rule, the worked examples
included.  What each seat may know of the teams is in ``test_hidden_teams.py``; what every game
must do (random games, clones, records, card leaks) is the conformance suite's."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.cards import parse_card
from torite.engine.base import IllegalAction, OptionError
from torite.engine.kit import Place
from torite.engine.registry import make_game
from torite.games.good_cop.rules import (
    GoodCop,
    GoodCopState,
    deal_scores,
    follow_mask,
    penalty_count,
    suits_from_turned,
    winning_index,
)
from torite.testing import why

from .helpers import deal, finish_deal, holder, legal, play, start

C, D, H, S = 0, 1, 2, 3
HC = ("9H", "2C")  # ♥ trump, ♣ penalty: the worked examples' suits


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# --------------------------------------------------------------------------- the game
def test_the_game_is_registered_for_four_players_with_54_cards_13_each() -> None:
    game = make_game("good-cop")
    assert isinstance(game, GoodCop)
    assert game.title == "Good Cop" and game.num_players == 4
    assert sorted(game.deck) == list(range(54)) and game.hand_size == 13


def test_options_have_the_pages_defaults_and_ranges_and_bad_values_are_refused() -> None:
    assert dict(make_game("good-cop").options) == {"joker": "trump", "lone_factor": 3, "deals": 4,
                                                   "penalty_points": 1}
    assert make_game("good-cop", {"joker": "wild", "lone_factor": 1, "deals": 100}).options["deals"] == 100
    for bad in ({"joker": "tame"}, {"lone_factor": 0}, {"lone_factor": 11}, {"deals": 0}, {"deals": 101},
                {"trump": "H"}):
        with pytest.raises(OptionError):
            make_game("good-cop", bad)


# --------------------------------------------------------------------------- §3 suits
def test_the_first_turned_card_fixes_trump_and_the_second_the_penalty_suit() -> None:
    state = start(("8H", "KC"), {})
    obs = state.observation(None)
    assert (obs["trump"], obs["penalty"], obs["turned"]) == ("H", "C", ["8H", "KC"])
    in_play = sum(1 for h in state.hands for c in range(13) if h >> c & 1)
    assert in_play == 12  # worked example: 12 clubs remain in play


def test_two_turned_cards_of_one_suit_make_it_both_trump_and_penalty_suit() -> None:
    obs = start(("4D", "JD"), {}).observation(0)
    assert (obs["trump"], obs["penalty"]) == ("D", "D")


@pytest.mark.parametrize("turned", [("JK1", "5S"), ("5S", "JK2")])
def test_a_turned_joker_lends_the_other_cards_suit_to_both_and_one_good_cop_plays_alone(
        turned: tuple[str, str]) -> None:
    state = start(turned, {1: "JK1 JK2".replace(next(t for t in turned if t.startswith("JK")), "").strip()})
    obs = state.observation(0)
    assert (obs["trump"], obs["penalty"]) == ("S", "S")
    dealt = [c for c in ("JK1", "JK2") if c not in turned]
    assert holder(state, dealt[0]) == 1 and state.good_cops() == [1]
    turned_role = "cop1" if "JK1" in turned else "cop2"
    assert obs[turned_role] == -1 and obs[turned_role + "_shown"] is True  # public: nobody holds it


def test_suits_from_turned_cards_refuse_two_jokers() -> None:
    assert suits_from_turned(parse_card("8H"), parse_card("KC")) == (H, C)
    with pytest.raises(ValueError, match="shuffle again"):
        suits_from_turned(52, 53)


def test_two_turned_jokers_make_the_dealer_shuffle_the_whole_pack_again() -> None:
    game = make_game("good-cop")
    for seed in range(5000):
        state = game.new_state(seed, max_rounds=1)
        assert isinstance(state, GoodCopState)
        assert not all(c >= 52 for c in state.turned)
        if state.counters["reshuffles"]:
            break
    else:
        pytest.fail("no deal in 5000 turned two jokers")
    turn = next(e for e in state.events if e.kind == "turn")
    assert turn.data["reshuffles"] >= 1
    assert [e.kind for e in state.events[:6]] == ["round", "deal", "deal", "deal", "deal", "turn"]
    assert sorted(c for h in state.hands for c in range(54) if h >> c & 1) == sorted(
        set(range(54)) - set(state.turned))


def test_ruling_c3_the_turned_cards_lie_face_up_out_of_play() -> None:
    state = start(("8H", "KC"), {})
    for viewer in (0, 1, 2, 3, None):
        assert state.observation(viewer)["turned"] == ["8H", "KC"]
    assert holder(state, "8H") == holder(state, "KC") == -1
    assert state.card_places()["turned"] == (1 << parse_card("8H")) | (1 << parse_card("KC"))
    finish_deal(state)
    played = {c for e in state.events if e.kind == "trick" for c in e.data["cards"]}
    assert len(played) == 52 and not {"8H", "KC"} & played


# --------------------------------------------------------------------------- §1 teams
def test_the_two_players_dealt_the_jokers_are_the_good_cops() -> None:
    state = start(HC, {1: "JK1", 3: "JK2"})
    assert state.good_cops() == [1, 3]


def test_one_player_dealt_both_jokers_is_a_good_cop_alone_against_three() -> None:
    state = start(HC, {2: "JK1 JK2"})
    assert state.good_cops() == [2]
    finish_deal(state)
    end = next(e for e in state.events if e.kind == "round_end")
    assert end.data["lone"] is True and end.data["good"] == [2] and end.data["bad"] == [0, 1, 3]


# --------------------------------------------------------------------------- §4 lead and play
def test_the_player_left_of_the_dealer_leads_and_play_goes_clockwise() -> None:
    state = start(HC, {}, dealer=1)
    assert state.to_act() == (2,)
    play(state, "2D" if "2D" in legal(state) else sorted(legal(state))[0])
    assert state.to_act() == (3,)


def test_ruling_c6_the_winner_of_a_trick_leads_the_next() -> None:
    state = start(HC, {0: "2S", 1: "AS", 2: "3S", 3: "4S"})
    play(state, "2S", "AS", "3S", "4S")
    assert state.history[-1]["winner"] == 1 and state.to_act() == (1,)


def test_a_player_who_can_follow_suit_must() -> None:
    state = start(HC, {0: "2S", 1: "AS 5D"})
    play(state, "2S")
    assert "5D" not in legal(state) and "AS" in legal(state)
    with pytest.raises(IllegalAction, match="must follow"):
        state.apply_text(1, "play 5D")
    assert why(state, "5D") == "follow"


def test_a_player_who_cannot_follow_may_play_any_card() -> None:
    state = start(HC, {0: "2S", 1: "5D 2H"}, voids={1: "S"})
    play(state, "2S")
    assert legal(state) == {card for card in state.observation(1)["hand"]}


# --------------------------------------------------------------------------- §6 trick winner
def test_worked_example_trick_1_a_joker_from_a_player_void_in_the_suit_led_wins() -> None:
    state = start(HC, {0: "QS", 1: "3S", 2: "2H", 3: "JK1"}, voids={2: "SJ", 3: "S"})
    play(state, "QS", "3S", "2H")
    assert "JK1" in legal(state)
    play(state, "JK1")
    trick = state.history[-1]
    assert trick["winner"] == 3 and trick["penalty_cards"] == 0
    assert all(state.observation(v)["cop1"] == 3 for v in (0, 1, 2, None))  # P4 now known


def test_worked_example_trick_2_the_trump_wins_and_its_three_penalty_cards_make_it_minus_2() -> None:
    state = start(HC, {0: "AC", 1: "5C", 2: "KC", 3: "3H"}, voids={3: "C"})
    play(state, "AC", "5C", "KC", "3H")
    assert state.history[-1]["winner"] == 3 and state.history[-1]["penalty_cards"] == 3
    assert state.tricks_won[3] - state.penalties[3] == 1 - 3


def test_without_a_trump_or_joker_the_highest_card_of_the_suit_led_wins() -> None:
    assert winning_index(cards("5S AD KS 2C"), S, H) == 2  # AD does not follow spades
    assert winning_index(cards("5S 2H KS AS"), S, H) == 1  # any trump beats the suit led


def test_the_first_of_two_jokers_wins_and_a_joker_beats_the_ace_of_trumps() -> None:
    assert winning_index(cards("AH JK2 JK1 KH"), H, H) == 1
    assert winning_index(cards("JK1 AH JK2 KH"), H, H) == 0
    assert winning_index(cards("2S AH 3S JK2"), S, H) == 3


# --------------------------------------------------------------------------- §5 jokers (C1)
def test_ruling_c1_a_joker_follows_trumps_and_one_with_no_other_trump_must_play_it() -> None:
    state = start(HC, {0: "AH", 1: "JK1 2S"}, voids={1: "H"})
    play(state, "AH")
    assert legal(state) == {"JK1"} and why(state, "2S") == "follow_trump"


def test_ruling_c1_with_trumps_led_a_joker_or_any_trump_may_follow() -> None:
    state = start(HC, {0: "AH", 1: "JK1 2H 2S"})
    play(state, "AH")
    assert {"JK1", "2H"} <= legal(state) and "2S" not in legal(state)


def test_ruling_c1_a_player_holding_the_plain_suit_led_may_not_play_a_joker() -> None:
    state = start(HC, {0: "2S", 1: "JK1 5S"})
    play(state, "2S")
    assert "JK1" not in legal(state)
    with pytest.raises(IllegalAction):
        state.apply_text(1, "play JK1")
    assert why(state, "JK1") == "joker_is_trump" and why(state, "5S") is None


def test_ruling_c1_a_led_joker_is_a_lead_of_trumps() -> None:
    state = start(HC, {0: "JK1", 1: "2H 2S", 2: "JK2 3S"}, voids={2: "H"})
    play(state, "JK1")
    hearts = {c for c in state.observation(1)["hand"] if c.endswith("H")}
    assert state.observation(1)["led"] == "H" and legal(state) == hearts and "2H" in hearts
    play(state, "2H")
    assert legal(state) == {"JK2"}  # a joker is its only trump
    play(state, "JK2")
    assert state.history == [] and state.trick_winner() == 0


def test_a_player_who_did_not_follow_a_lead_of_trumps_shows_no_trump_and_no_joker() -> None:
    state = start(HC, {0: "AH", 1: "2S"}, voids={1: "HJ"})
    play(state, "AH", "2S")
    assert state.observation(0)["voids"][1] == ["H"]
    assert (Place.hand(1), (1 << 52) | (1 << 53)) in state.forbids(0)


def test_a_joker_played_to_a_plain_suit_shows_its_player_void_in_that_suit() -> None:
    state = start(HC, {0: "2S", 1: "JK1"}, voids={1: "S"})
    play(state, "2S", "JK1")
    assert state.observation(2)["voids"][1] == ["S"]


def test_wild_jokers_may_be_played_to_any_trick_even_by_a_player_able_to_follow() -> None:
    state = start(HC, {0: "2S", 1: "JK1 5S"}, options={"joker": "wild"})
    play(state, "2S")
    assert legal(state) == {"JK1", *[c for c in state.observation(1)["hand"] if c.endswith("S")]}
    play(state, "JK1")
    assert state.observation(2)["voids"][1] == []  # it showed nothing


def test_wild_a_joker_wins_unless_an_earlier_joker_is_in_the_trick() -> None:
    state = start(HC, {0: "2S", 1: "JK2 5S", 2: "JK1 AS"}, options={"joker": "wild"})
    play(state, "2S", "JK2", "JK1")
    play(state, sorted(legal(state))[0])
    assert state.history[-1]["winner"] == 1


def test_ruling_w1_wild_jokers_belong_to_no_suit_when_following_trumps() -> None:
    state = start(HC, {0: "AH", 1: "JK1 2S"}, voids={1: "H"}, options={"joker": "wild"})
    play(state, "AH")
    assert legal(state) == set(state.observation(1)["hand"])  # need not play the joker
    play(state, "2S")
    assert state.forbids(0) == []  # and not following trumps says nothing of jokers


def test_ruling_w1_a_led_wild_joker_is_still_a_lead_of_trumps() -> None:
    state = start(HC, {0: "JK1", 1: "2H 2S"}, options={"joker": "wild"})
    play(state, "JK1")
    assert state.observation(1)["led"] == "H" and "2S" not in legal(state)


def test_follow_mask_in_both_modes() -> None:
    hand = sum(1 << c for c in cards("JK1 2S 3S 4H"))
    jk, spades = 1 << 52, sum(1 << c for c in cards("2S 3S"))
    assert follow_mask(hand, -1, H, wild=False) == hand
    assert follow_mask(hand, S, H, wild=False) == spades
    assert follow_mask(hand, S, H, wild=True) == spades | jk
    assert follow_mask(hand, H, H, wild=False) == jk | (1 << parse_card("4H"))
    assert follow_mask(hand, D, H, wild=False) == hand


# --------------------------------------------------------------------------- §7 scoring (C2)
def test_jokers_are_never_penalty_cards_and_trumps_are_when_the_penalty_suit_is_trump() -> None:
    assert penalty_count(cards("JK1 JK2 2C 3C"), C) == 2
    assert penalty_count(cards("2H 3H JK1 4S"), H) == 2


def test_worked_example_deal_score_2_against_2() -> None:
    # P1..P4 are seats 0..3: nets from 5/1 tricks with 7 clubs (bad) and 4/3 with 2/3 (good)
    tricks, clubs = [5, 4, 1, 3], [4, 2, 3, 3]
    nets = [t - c for t, c in zip(tricks, clubs)]
    assert nets[1] == 2 and nets[3] == 0 and nets[0] + nets[2] == -1
    assert deal_scores(nets, [1, 3], 3) == [-1, 2, -1, 2]
    assert sum(clubs) == 12


def test_worked_example_deal_score_1_against_3_with_the_lone_factor() -> None:
    nets = [4 - 1, -1, -1, 0]  # the lone good cop: 4 tricks, 1 club; the bad cops: 9 tricks, 11 clubs
    assert deal_scores(nets, [0], 3) == [9, -2, -2, -2]
    assert deal_scores(nets, [0], 1) == [3, -2, -2, -2]


@pytest.mark.parametrize("options", [{}, {"joker": "wild"}, {"lone_factor": 5}])
def test_each_deal_is_scored_from_its_tricks_penalty_cards_and_jokers_by_team(options: dict[str, Any]) -> None:
    """Recompute every deal of random games from the public log alone: the turned cards, the
    tricks, and who played the jokers."""
    game = make_game("good-cop", options)
    factor = game.options["lone_factor"]
    for seed in range(10):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            moves = state.legal_actions(seat)
            state.apply(seat, moves[rng.randrange(len(moves))])
        deals: list[dict[str, Any]] = []
        for e in state.events:
            if e.kind == "turn":
                deals.append({"penalty": e.data["penalty"], "tricks": [0] * 4, "pens": [0] * 4, "good": set()})
            elif e.kind == "play" and e.data["card"].startswith("JK"):
                deals[-1]["good"].add(e.seat)
            elif e.kind == "trick":
                deals[-1]["tricks"][e.seat] += 1
                deals[-1]["pens"][e.seat] += sum(1 for c in e.data["cards"]
                                                 if c[-1] == deals[-1]["penalty"] and not c.startswith("JK"))
        assert len(deals) == 4
        for d, points in zip(deals, state.round_scores):
            nets = [t - p for t, p in zip(d["tricks"], d["pens"])]
            good = d["good"]
            good_net = sum(nets[s] for s in good) * (factor if len(good) == 1 else 1)
            bad_net = sum(nets[s] for s in range(4) if s not in good)
            assert list(points) == [good_net if s in good else bad_net for s in range(4)]


def test_teams_are_certain_at_the_end_of_every_deal_and_the_result_names_them() -> None:
    state = start(HC, {1: "JK1", 3: "JK2"}, options={"deals": 1})
    assert state.result().teams == ()
    finish_deal(state)
    assert state.is_over()
    assert state.result().teams == ((1, 3), (0, 2))
    assert state.result().to_json()["teams"] == [[1, 3], [0, 2]]


# --------------------------------------------------------------------------- §8 end (C5)
def test_ruling_c5_a_game_is_four_deals_each_dealt_by_the_next_seat() -> None:
    state = make_game("good-cop").new_state(3, dealer=2)
    dealers = []
    while not state.is_over():
        if not dealers or len(state.round_scores) == len(dealers):
            dealers.append(state.dealer)
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert len(state.round_scores) == 4 and dealers == [2, 3, 0, 1]


def test_the_deals_option_sets_the_length_and_the_highest_total_wins_ties_sharing() -> None:
    state = make_game("good-cop", {"deals": 2}).new_state(8)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    result = state.result()
    assert len(result.round_scores) == 2
    top = max(result.scores)
    assert result.winners == tuple(s for s in range(4) if result.scores[s] == top)


# --------------------------------------------------------------------------- explicit deals
def test_an_explicit_deal_names_the_turned_cards_first_one_first_and_the_four_hands() -> None:
    d = deal(("KC", "8H"), {0: "AS", 2: "JK1 JK2"})
    state = make_game("good-cop").new_state(1, dealer=3, deals=[d])
    assert isinstance(state, GoodCopState)
    assert (state.observation(0)["trump"], state.observation(0)["penalty"]) == ("C", "H")
    assert state.observation(0)["hand"] == sorted(d["hands"][0], key=parse_card)


@pytest.mark.parametrize(("change", "message"), [
    ({"turned": ["JK1", "JK2"]}, "may not both be jokers"),
    ({"turned": ["8H"]}, "turned needs 2 cards"),
    ({"extra": 1}, "unknown key"),
    ({"hands": [["AS"] * 13] * 4}, "each of the 54 cards once"),
])
def test_a_bad_explicit_deal_is_refused_saying_what_is_wrong(change: dict[str, Any], message: str) -> None:
    d = deal(("8H", "KC"), {})
    if change.get("turned") == ["JK1", "JK2"]:
        d = deal(("JK1", "JK2"), {})
    d = d | change
    with pytest.raises(ValueError, match=message):
        make_game("good-cop").new_state(1, deals=[d])


# --------------------------------------------------------------------------- stats
def test_stats_count_lone_good_cops_penalty_cards_and_good_team_wins_per_deal() -> None:
    state = start(HC, {2: "JK1 JK2"}, options={"deals": 1})
    assert state.stats()["lone_good_cop"] == 0  # not counted before the deal ends (it would tell)
    finish_deal(state)
    stats = state.stats()
    assert stats["lone_good_cop"] == 1
    assert stats["penalty_cards"] == sum(t["penalty_cards"] for t in
                                         [e.data for e in state.events if e.kind == "trick"]) == 12
    points = state.round_scores[0]
    assert stats["good_team_wins"] == (points[2] > points[0])
