"""One test a rule or ruling of ``rules.en.md``, the worked examples included."""

from __future__ import annotations

import pytest

from torite.cards import card_str, parse_card
from torite.engine.base import Action, IllegalAction
from torite.engine.registry import make_game
from torite.games.kaedama.rules import KAEDAMA, PLAYING, Kaedama, round_bonus

from .test_deals import A, B, C, do, example_state


def card(text: str) -> int:
    return parse_card(text)


# ------------------------------------------------------------------ setting up
def test_the_game_is_registered_with_its_title() -> None:
    game = make_game("kaedama")
    assert isinstance(game, Kaedama)
    assert game.title == "Kaedama Trick"
    assert game.num_players == 3


def test_the_turned_top_card_of_the_stock_fixes_trump() -> None:
    st = example_state()
    assert st.observation(A)["trump"] == "H"
    assert st.observation(None)["turned_card"] == "7H"


def test_turned_card_is_shuffled_back_into_the_stock_ruling_s1() -> None:
    st = example_state(after=None)
    obs = st.observation(B)
    assert obs["turned_card_at"] == "shuffled"
    assert obs["stock_size"] == 6
    assert card("7H") in st.stock


def test_the_player_left_of_the_dealer_leads_and_the_deal_passes_clockwise() -> None:
    st = Kaedama({"rounds": 2}).new_state(3, dealer=1)
    assert st.to_act() == (2,)
    while st.rounds_played == 0:
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.dealer == 2
    assert st.to_act() == (0,)


def test_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {Kaedama().new_state(seed).dealer for seed in range(30)}
    assert dealers == {0, 1, 2}
    assert Kaedama().new_state(11).dealer == Kaedama().new_state(11).dealer


# ------------------------------------------------------------------ play
def test_must_follow_suit_if_able() -> None:
    st = example_state()
    do(st, "play 9S")
    legal = {str(a) for a in st.legal_actions(B)}
    assert legal == {"play 10S", "play JS", "play KS"}
    with pytest.raises(IllegalAction, match="follow"):
        st.apply(B, Action.parse("play JC"))


def test_a_player_void_in_the_led_suit_may_play_any_card() -> None:
    st = example_state()
    do(st, "play 9S", "play KS")
    assert len(st.legal_actions(C)) == 10
    assert st.observation(A)["voids"][C] == []
    do(st, "play QC")
    assert st.observation(A)["voids"][C] == ["S"]


def test_after_three_cards_the_kaedama_phase_starts_with_the_leader() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC")
    assert st.phase == KAEDAMA
    assert st.to_act() == (A,)
    assert st.legal_actions(A) == [Action("replace"), Action("pass")]


def test_the_winning_player_is_not_asked_and_the_trick_ends_when_nobody_may_replace() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (C,)  # B is winning with KS: skipped
    do(st, "pass")
    assert st.phase == PLAYING
    assert st.history[-1]["winner"] == B
    assert st.to_act() == (B,)  # the winner leads the next trick


def test_replaced_card_leaves_the_game_face_up() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace")
    for seat in (A, B, C, None):
        obs = st.observation(seat)
        assert obs["out"] == ["9S"]
        assert obs["trick"][0]["card"] == "5H"
        assert obs["stock_size"] == 5
    assert card("9S") not in st.trick


def test_the_drawn_card_is_the_top_of_the_stock_and_must_be_used() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace")
    assert card_str(st.trick[0]) == "5H"
    assert st.to_act() == (B,)  # no choice is left to A: the drawn card stays
    with pytest.raises(IllegalAction):
        st.apply(A, Action("pass"))


def test_at_most_one_replacement_per_player_per_trick() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    assert st.phase == PLAYING
    assert st.history[-1]["draws"] == [1, 1, 1]


def test_eligibility_is_judged_again_after_each_replacement() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC")
    assert st.to_act() == (A,)
    do(st, "replace")  # A draws 5H, a trump: B (KS) is now losing
    assert st.to_act() == (B,)


def test_kaedama_decisions_are_one_pass_from_the_leader_ruling_k1() -> None:
    st = example_state(after="8D 5H QS 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (C,)  # B winning: skipped
    do(st, "replace")  # C draws 8D: nothing changes
    assert st.history[-1]["winner"] == B
    st = example_state(after="5H QS 8D 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "pass", "replace")  # C draws 5H and now wins
    assert st.phase == PLAYING  # B, skipped while winning, is not asked again
    assert st.history[-1]["winner"] == C


def test_the_led_suit_does_not_change_when_the_leader_replaces_ruling_l1() -> None:
    st = example_state(after="8D 5H QS 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "replace")  # A's 9S becomes 8D
    assert st.observation(C)["led"] == "S"
    assert st.to_act() == (C,)  # B still wins with KS, diamonds did not become the led suit
    do(st, "pass")
    assert st.history[-1]["winner"] == B


def test_a_card_of_neither_suit_never_wins() -> None:
    st = example_state(after="8D 5H QS 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "replace", "pass")
    assert st.history[-1]["cards"] == ["8D", "KS", "QC"]
    assert st.history[-1]["winner"] == B


def test_the_highest_trump_wins() -> None:
    st = example_state(after="5H 6D 8D 7H QS 9D", options={"reverse": True})
    do(st, "play 9S", "play KS", "play QC", "replace")  # A: 5H
    do(st, "pass", "replace")  # C: 6D, not a trump
    assert st.history[-1]["winner"] == A
    st = example_state(after="5H 7H 8D QS 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "replace", "replace")  # A: 5H, B: 7H
    assert st.to_act() == (C,)
    do(st, "pass")
    assert st.history[-1]["winner"] == B


def test_the_leader_wins_when_no_card_of_the_led_suit_or_trump_remains_ruling_l2() -> None:
    # reverse: A leads a spade nobody else can follow, then swaps it for a diamond
    hands = ("5S 6S 7S 8S 9S 10S JS QS KS 5C", "6C 7C 8C 9C 10C JC QC KC 6H 8H",
             "5D 7D 8D 10D JD QD KD 9H 10H JH")
    st = example_state({"reverse": True}, hands=hands, stock="7H 6D 9D 5H QH KH",
                       after="6D 9D 5H 7H QH KH")
    do(st, "play 9S", "play QC", "play 8D", "replace")  # A was winning, draws 6D
    assert st.observation(B)["trick"][0]["card"] == "6D"
    do(st, "pass", "pass")
    record = st.history[-1]
    assert record["cards"] == ["6D", "QC", "8D"]
    assert record["winner"] == A
    assert record["points"] == 1  # A was winning before drawing: no reversal


def test_the_winner_of_a_trick_leads_the_next() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    assert st.to_act() == (A,) and st.leader == A


def test_hands_are_not_refilled_and_a_round_is_ten_tricks() -> None:
    st = Kaedama({"rounds": 1}).new_state(4)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[-1])
    assert len(st.history) == 10
    assert st.stats()["tricks"] == 10


def test_nobody_may_replace_once_the_stock_is_empty() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    do(st, "play 5S", "play 10S", "play 5D", "replace", "replace", "replace")
    assert st.stock == []
    do(st, "play 10C", "play JC", "play 6C")
    assert st.phase == PLAYING
    assert st.history[-1]["draws"] == [0, 0, 0]


# ------------------------------------------------------------------ scoring
def test_each_trick_scores_one_point() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "pass", "pass")
    assert st.history[-1]["points"] == 1
    assert st.round_points == [0, 1, 0]


def test_a_trick_won_by_a_card_drawn_by_a_losing_player_is_a_reversal_scoring_two() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "pass", "pass")
    record = st.history[-1]
    assert record["winner"] == A and record["reversal"] and record["points"] == 2
    assert st.reversals == [1, 0, 0]
    assert st.stats()["reversals"] == 1


def test_a_drawn_card_of_a_player_already_winning_is_no_reversal_with_reverse() -> None:
    st = example_state({"reverse": True}, after="QS 5H 8D 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (B,)  # reverse: B is asked although winning
    do(st, "replace")  # KS becomes 5H: B still wins, but was winning before the draw
    do(st, "pass")
    record = st.history[-1]
    assert record["winner"] == B and not record["reversal"] and record["points"] == 1


def test_worked_example_1_a_reverses_with_a_drawn_trump() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC")
    assert st.win_position() == 1  # B is winning
    do(st, "replace")
    assert card_str(st.trick[0]) == "5H" and st.win_position() == 0
    assert st.to_act() == (B,)  # B, now losing, may replace
    do(st, "replace")
    assert card_str(st.trick[1]) == "QS" and st.win_position() == 0
    assert st.to_act() == (C,)
    do(st, "replace")
    record = st.history[-1]
    assert record["cards"] == ["5H", "QS", "8D"]
    assert record["winner"] == A and record["points"] == 2 and record["reversal"]
    assert st.observation(B)["out"] == ["9S", "KS", "QC"]


def test_worked_example_2_with_the_stock_empty_nobody_replaces_and_b_scores_one() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    do(st, "play 5S", "play 10S", "play 5D", "replace", "replace", "replace")
    assert st.observation(A)["stock_size"] == 0
    before = st.round_points[B]
    do(st, "play 10C", "play JC", "play 6C")
    record = st.history[-1]
    assert record["winner"] == B and record["points"] == 1
    assert st.round_points[B] == before + 1


def test_worked_example_3_round_bonuses() -> None:
    assert round_bonus([4, 3, 3], [1, 1, 0]) == [5, 2, 0]


def test_tied_players_each_get_the_full_bonus_ruling_b1() -> None:
    assert round_bonus([4, 4, 2], [2, 0, 2]) == [5, 3, 2]
    assert round_bonus([3, 3, 4], [1, 1, 1]) == [2, 2, 5]


def test_the_reversal_bonus_needs_at_least_one_reversal() -> None:
    assert round_bonus([4, 3, 3], [0, 0, 0]) == [3, 0, 0]


def test_round_points_are_trick_points_plus_bonuses() -> None:
    st = Kaedama({"rounds": 1}).new_state(8)
    while not st.is_over():
        seat = st.to_act()[0]
        acts = st.legal_actions(seat)
        st.apply(seat, acts[0])
    trick_points = [0, 0, 0]
    for t in st.history:
        trick_points[t["winner"]] += t["points"]
    bonus = round_bonus(st.tricks_won, st.reversals)
    assert list(st.round_scores[0]) == [p + b for p, b in zip(trick_points, bonus)]
    assert list(st.scores) == list(st.round_scores[0])


def test_the_game_lasts_the_rounds_option_and_the_highest_total_wins() -> None:
    st = Kaedama({"rounds": 3}).new_state(2)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.rounds_played == 3
    res = st.result()
    assert list(res.scores) == [sum(r[s] for r in res.round_scores) for s in range(3)]
    assert res.winners == tuple(s for s in range(3) if res.scores[s] == max(res.scores))
    assert st.to_act() == () and st.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply(0, Action("pass"))


def test_the_default_game_is_six_rounds() -> None:
    st = Kaedama().new_state(2)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.rounds_played == 6


def test_tied_totals_share_the_win() -> None:
    st = Kaedama({"rounds": 1}).new_state(2)
    st.scores = [7, 7, 3]
    assert st.result().winners == (0, 1)


def test_max_rounds_stops_the_game_early() -> None:
    st = Kaedama().new_state(2, max_rounds=1)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.rounds_played == 1


def test_stats_count_replacements_reversals_and_tricks() -> None:
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    assert set(st.stats()) == set(Kaedama.STAT_KEYS) == {"replacements", "replacements_while_winning", "reversals",
                                                         "turned_card_drawn", "tricks"}
    assert st.stats() == {"replacements": 3.0, "replacements_while_winning": 0.0, "reversals": 1.0,
                          "turned_card_drawn": 0.0, "tricks": 1.0}


def test_winning_is_judged_as_if_the_trick_were_decided_now_ruling_k3() -> None:
    # blind + reverse: B's KS is winning face up; B swaps it and draws 5H face down, which wins,
    # but B was winning just before drawing, so it is no reversal
    st = example_state({"blind": True, "reverse": True})
    do(st, "play 9S", "play KS", "play QC", "pass", "replace")  # B draws 5H face down
    assert not st.observation(A)["trick"][1]["drawn_while_losing"]
    do(st, "replace")  # C draws QS face down: C was losing
    assert st.history[-1]["drawn"] == [False, True, True]
    record = st.history[-1]
    assert record["winner"] == B and not record["reversal"] and record["points"] == 1


@pytest.mark.parametrize("page", ["rules.en.md", "rules.ja.md", "rules.ko.md"])
def test_the_rules_pages_cover_every_option_and_ruling(page: str) -> None:
    from importlib.resources import files

    text = files("torite.games.kaedama").joinpath(page).read_text(encoding="utf-8")
    for spec in Kaedama.OPTIONS:  # the house rules: in the section the page is given (pages.rules_page)
        assert f"`{spec.name}`" in text or spec.house
    for ruling in ("S1", "L1", "L2", "B1", "D1", "K1", "K2", "K3", "K4", "K5", "K6"):
        assert ruling in text
