"""Records of Umbridge replay to the same result (shuffled and chosen deals, every option), and
``torite simulate umbridge --rounds N`` scores each deal on its own with the issue's stats."""

from __future__ import annotations

import json
from typing import Any

import pytest

from torite.engine.registry import make_game
from torite.record import Record, replay, start_record
from torite.sim import play, simulate

from .helpers import act, quick_contract, start, suits_deal

STATS = ("passed_out_per_round", "contract_level_per_round", "no_trump_per_round", "doubled_per_round",
         "made_per_round", "umbrage_per_round", "bridge_draws_per_round")


@pytest.mark.parametrize("options", [{}, {"scoring": "chicago"}, {"honours": True, "dummy_control": "declarer"},
                                     {"dummy_control": "leader", "deals": 2}], ids=str)
def test_a_bot_game_s_record_replays_to_the_same_result(options: dict[str, Any]) -> None:
    game = make_game("umbridge", options)
    state, rec, _ = play(game, ["normal", "random"], 11, keep_record=True, max_rounds=3)
    assert rec is not None
    again = replay(Record.from_json(json.loads(rec.dumps())))
    assert again.result() == state.result() and again.observation(None) == state.observation(None)


def test_a_record_with_chosen_deals_and_a_respread_replays() -> None:
    deal = suits_deal("S", "H", "D", "C", respread={"dummy": suit_list("H"), "bridge": suit_list("S")})
    game = make_game("umbridge")
    rec = start_record(game, 5, ["a", "b"], dealer=0, max_rounds=1, deals=[deal])
    state = start([deal], dealer=0, max_rounds=1)
    moves = [(0, "umbrage"), (1, "umbrage"), (0, "bid 1 C"), (1, "pass"), (0, "done"), (1, "done")]
    act(state, *moves)
    rec.actions.extend(moves)
    while not state.is_over():
        seat = state.to_act()[0]
        action = state.legal_actions(seat)[-1]
        state.apply(seat, action)
        rec.actions.append((seat, str(action)))
    rec.result = state.result().to_json()
    assert replay(Record.from_json(json.loads(rec.dumps()))).result() == state.result()


def suit_list(letter: str) -> list[str]:
    return [r + letter for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def test_simulate_scores_each_deal_on_its_own_and_reports_the_issue_s_stats() -> None:
    out = simulate("umbridge", {}, ["normal", "normal"], rounds=6, seed=3)
    assert out["rounds"] == 6
    for key in STATS:
        assert key in out["stats"]
    assert 0 <= out["stats"]["passed_out_per_round"] <= 1
    assert 0 <= out["stats"]["made_per_round"] <= 1 and out["stats"]["contract_level_per_round"] <= 7


def test_a_single_deal_is_neither_vulnerable_nor_given_a_rubber_bonus() -> None:
    state = start([suits_deal("S", "H", "D", "C")], dealer=0, max_rounds=1)
    quick_contract(state, 0, "7 S")
    assert state.vulnerable == [False, False]
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.result().scores == (210 + 1000, 0)  # grand slam, no rubber bonus


def test_a_thrown_in_deal_counts_zero_in_every_stat_but_passed_out() -> None:
    state = start([suits_deal("S", "H", "D", "C")], dealer=0, max_rounds=1)
    act(state, (0, "umbrage"), (1, "umbrage"))
    keep = state.counters.copy()
    act(state, (0, "pass"), (1, "pass"))
    assert state.is_over() and keep == dict.fromkeys(keep, 0)
    assert state.counters == {**keep, "passed_out": 1}

