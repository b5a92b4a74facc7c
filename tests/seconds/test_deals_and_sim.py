"""Explicit deals, what a seat is shown, single deals in schedule order (``first_round``, as
``torite simulate --rounds`` and the arena play them), the simulator's stats and records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from torite.engine.registry import make_game
from torite.games.seconds.rules import Seconds, SecondsState
from torite.record import Record, replay
from torite.sim import simulate

from .deals import E, N, S, W, hands_with, state, suit

SUITED = [suit(x) for x in "CDHS"]


# ---------------------------------------------------------------- explicit deals
def test_an_explicit_deal_gives_each_seat_its_hand() -> None:
    st = state(SUITED, kind=1)
    for seat in range(4):
        assert st.observation(seat)["hand"] == SUITED[seat]


def test_explicit_deals_are_used_in_order_from_the_first_deal_of_the_game() -> None:
    deals = [{"hands": SUITED}, {"hands": SUITED[1:] + SUITED[:1]}]
    st = Seconds().new_state(1, dealer=0, deals=deals)
    assert isinstance(st, SecondsState)
    while st.rounds_played == 0:
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert st.deal_kind == 2 and st.observation(0)["hand"] == SUITED[1]


@pytest.mark.parametrize(("deal", "message"), [
    ({"hands": [h[:12] for h in SUITED]}, "4 hands of 13 cards"),
    ({"hands": SUITED[:3]}, "4 hands of 13 cards"),
    ({"hands": [SUITED[0], SUITED[0], SUITED[2], SUITED[3]]}, "each of the 52 cards once"),
    ({"hands": SUITED, "stock": []}, "unknown key"),
    ({"hand": SUITED}, "unknown key"),
    ({}, "needs"),
    ({"hands": [["XX"] * 13] * 4}, "needs"),
])
def test_a_malformed_deal_is_refused_with_a_message(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Seconds().new_state(1, deals=[deal])


# ---------------------------------------------------------------- hidden information
def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    st = state(hands_with({N: ["AS"], E: ["KS"], S: ["QS"], W: ["JS"]}), kind=1)
    for seat in range(4):
        obs = st.observation(seat)
        text = json.dumps(obs)
        assert obs["hand_sizes"] == [13] * 4
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in st.observation(other)["hand"])
    assert st.observation(None)["hand"] == []


def test_a_sampled_world_keeps_the_seats_hand_and_the_public_arrangement() -> None:
    st = Seconds().new_state(4, dealer=2, first_round=4)  # deal 5
    assert isinstance(st, SecondsState)
    rng = random.Random(1)
    for _ in range(9):
        seat = st.to_act()[0]
        st.apply(seat, rng.choice(st.legal_actions(seat)))
    obs = st.observation(1)
    world = make_game("seconds").determinizer(obs).sample(random.Random(2))
    assert isinstance(world, SecondsState)
    assert world.hands[1] == st.hands[1]
    assert (world.deal_kind, world.north, world.mates) == (st.deal_kind, st.north, st.mates)
    assert world.observation(1) == obs


# ---------------------------------------------------------------- single deals in turn
@pytest.mark.parametrize(("edition", "length"), [("classic", 7), ("2021", 8)])
def test_single_deal_r_is_deal_r_mod_the_schedule_plus_1_with_north_seat_0(edition: str, length: int) -> None:
    """How the simulator and the arena play single deals: dealer ``r mod 4``, round ``r``."""
    game = Seconds({"edition": edition})
    for r in range(2 * length + 3):
        st = game.new_state(r, dealer=r % 4, max_rounds=1, first_round=r)
        assert isinstance(st, SecondsState)
        assert (st.deal_kind, st.north, st.dealer) == (r % length + 1, 0, r % 4)
        assert st.observation(0)["round"] == r


def test_a_game_started_at_a_later_deal_plays_on_to_the_end_of_the_schedule() -> None:
    st = Seconds().new_state(2, dealer=1, first_round=5)  # deal 6, dealt by East: North is seat 0
    assert isinstance(st, SecondsState)
    kinds = []
    while not st.is_over():
        kinds.append(st.deal_kind)
        rounds = st.rounds_played
        while st.rounds_played == rounds:
            seat = st.to_act()[0]
            st.apply(seat, st.legal_actions(seat)[0])
    assert kinds == [6, 7] and st.north == 0


def test_simulate_rounds_plays_the_schedule_in_turn_and_reports_the_stats(tmp_path: Path) -> None:
    """14 single deals: each deal kind twice; ``points_deal_<k>_per_round`` is a seat's mean
    points in deal kind k, ``no_follow_tricks_per_round`` the tricks in which only the leader
    played the led suit; every record replays (it keeps ``first_round``)."""
    out = simulate("seconds", {}, ["random"] * 4, rounds=14, seed=3, records=tmp_path)
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 14
    by_kind: dict[int, list[int]] = {}
    no_follow = 0
    for i, path in enumerate(records):
        rec = Record.load(path)
        assert rec.first_round == i and rec.dealer == i % 4 and rec.max_rounds == 1
        st = replay(rec)
        assert isinstance(st, SecondsState) and st.deal_kind == i % 7 + 1
        by_kind.setdefault(st.deal_kind, []).extend(st.round_scores[0])
        no_follow += sum(1 for t in st.history if sum(1 for c in t["cards"] if c[-1] == t["led"]) == 1)
    stats = out["stats"]
    for k in range(1, 8):
        assert stats[f"points_deal_{k}_per_round"] == pytest.approx(sum(by_kind[k]) / len(by_kind[k]))
    assert stats["points_deal_8_per_round"] == 0
    assert stats["no_follow_tricks_per_round"] == pytest.approx(no_follow / 14)
    assert stats["tricks_per_round"] == 13


def test_simulate_games_reports_each_deals_mean_over_whole_games() -> None:
    out = simulate("seconds", {"edition": "2021"}, ["random"] * 4, games=3, seed=1)
    assert out["rounds"] == 24 and out["rounds_per_game"] == 8
    assert out["stats"]["points_deal_8_per_round"] > 0  # somebody made exactly 3 tricks
    assert sum(out["wins"]) >= 3
