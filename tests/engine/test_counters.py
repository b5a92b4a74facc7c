"""Each game counts its rules' occasions (``STAT_KEYS``, what ``simulate`` and ``compare`` report):
every counter added for designers is checked against the game's own record of what happened
(events, tricks), by worked examples and over random games of the options that bring it into play.
Counting changes no rule: the conformance suite replays every game's records."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kaedama.test_deals import do, example_state
from torite.cards import parse_card
from torite.engine.base import State
from torite.engine.registry import make_game
from torite.games.good_cop.rules import SUIT_MASKS
from torite.games.hearts.rules import POINTS_MASK
from torite.games.kaedama.rules import Kaedama
from torite.games.umbridge.rules import winning_index


def random_game(game_id: str, options: Mapping[str, Any], seed: int, max_rounds: int | None = None,
                before: Callable[[State, int, Any], None] | None = None) -> State:
    """A game of uniformly random legal actions; ``before(state, seat, action)`` sees each one first."""
    state = make_game(game_id, dict(options)).new_state(seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        if before is not None:
            before(state, seat, action)
        state.apply(seat, action)
    return state


def ends(state: State) -> list[dict[str, Any]]:
    return [e.data for e in state.events if e.kind == "round_end"]


# ---------------------------------------------------------------------------- Kaedama
def test_kaedama_counts_a_replacement_while_winning_which_only_reverse_allows() -> None:
    st = example_state({"reverse": True})
    # A leads 9S, B's KS wins, C plays QC: A passes, B replaces while winning, C (losing) replaces
    do(st, "play 9S", "play KS", "play QC", "pass", "replace", "replace")
    assert st.stats()["replacements"] == 2 and st.stats()["replacements_while_winning"] == 1
    base = example_state()
    do(base, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    assert base.stats()["replacements"] == 3 and base.stats()["replacements_while_winning"] == 0


def test_kaedama_counts_the_turned_card_drawn() -> None:
    st = example_state({"trump_card": "top"}, after=None)  # 7H, the turned card, lies on top of the stock
    do(st, "play 9S", "play KS", "play QC", "replace")
    assert st.stats()["turned_card_drawn"] == 1 and st.out == [parse_card("9S")]
    shuffled = example_state()  # 7H fourth from the top
    do(shuffled, "play 9S", "play KS", "play QC", "replace", "replace", "replace")
    assert shuffled.stats()["turned_card_drawn"] == 0
    assert "turned_card_drawn" in Kaedama.STAT_KEYS


# ---------------------------------------------------------------------------- Trick of the Dead
def test_trick_of_the_dead_counts_the_hearts_that_survive_in_either_mode() -> None:
    for survival, bonus in ((False, 2), (True, 3)):
        for seed in range(3):
            st = random_game("trick-of-the-dead", {"survival": survival, "target": 40}, seed)
            hearts = sum(sum(d["hearts"]) for d in ends(st))
            assert st.stats()["surviving_hearts"] * bonus == hearts == st.stats()["survival_points"]


# ---------------------------------------------------------------------------- Mighty
def test_mighty_counts_friends_by_the_first_trick_and_fake_friends() -> None:
    calls = fakes = 0
    for seed in range(12):
        st = random_game("mighty", {}, seed, max_rounds=2)
        first = sum(1 for e in st.events if e.kind == "friend" and e.data["call"] == "first-trick")
        fake = sum(1 for d in ends(st) if d["fake"])
        assert st.stats()["first_trick_friend"] == first and st.stats()["fake_friend"] == fake
        calls, fakes = calls + first, fakes + fake
    assert calls and fakes  # the random games met both


# ---------------------------------------------------------------------------- Good Cop
def test_good_cop_counts_a_joker_played_instead_of_following_which_only_wild_allows() -> None:
    for mode in ("wild", "trump"):
        for seed in range(3):
            seen = [0]

            def before(state: Any, seat: int, action: Any, seen: list[int] = seen) -> None:
                card = action.cards.bit_length() - 1 if action.kind == "play" else -1
                if card >= 52 and state.trick and state.led != state.trump \
                        and state.hands[seat] & SUIT_MASKS[state.led]:
                    seen[0] += 1

            st = random_game("good-cop", {"joker": mode}, seed, before=before)
            assert st.stats()["wild_jokers"] == seen[0]
            if mode == "trump":
                assert seen[0] == 0
            else:
                assert seen[0] > 0, seed


# ---------------------------------------------------------------------------- Seconds
def test_seconds_counts_the_seats_that_make_exactly_three_tricks_in_deal_8() -> None:
    st = random_game("seconds", {"edition": "2021"}, 4)
    eighth = [d for d in ends(st) if d["deal"] == 8]
    assert len(eighth) == 1
    assert st.stats()["exact3_made"] == sum(1 for t in eighth[0]["tricks"] if t == 3)
    classic = random_game("seconds", {}, 4)
    assert classic.stats()["exact3_made"] == 0


# ---------------------------------------------------------------------------- Umbridge
def test_umbridge_counts_tricks_won_by_the_dummys_card_and_honour_points() -> None:
    for seed in range(3):
        won = [0]

        def before(state: Any, seat: int, action: Any, won: list[int] = won) -> None:
            if action.kind == "play" and len(state.trick) == 2:  # the trick's last card
                played = [*state.trick, action.cards.bit_length() - 1]
                dummy = [*state.from_dummy[:2], state.phase == "dummy"]
                won[0] += dummy[winning_index(played, state.led, state.trump)]

        st = random_game("umbridge", {"honours": True}, seed, max_rounds=3, before=before)
        assert st.stats()["dummy_tricks"] == won[0] > 0
        assert st.stats()["honour_points"] == sum(sum(d.get("honours", [0])) for d in ends(st))


# ---------------------------------------------------------------------------- Galapagos
def test_galapagos_counts_melds_and_play_off_passes() -> None:
    st = random_game("glapgos", {}, 2, max_rounds=2)
    melds = sum(len(m) for e in st.events if e.kind == "melds" for m in e.data["melds"])
    passes = sum(1 for e in st.events if e.kind == "pass")
    assert st.stats()["melds"] == melds > 0 and st.stats()["playoff_passes"] == passes > 0


# ---------------------------------------------------------------------------- Hearts
def test_hearts_counts_deals_without_a_pass_and_the_point_cards_passed() -> None:
    holds = passed = 0
    for seed in range(8):
        st = random_game("hearts", {}, seed)
        hold = sum(1 for e in st.events if e.kind == "pass_direction" and e.data["direction"] == "none")
        cards = sum(1 for e in st.events if e.kind == "pass" and POINTS_MASK >> parse_card(e.data["card"]) & 1)
        assert st.stats()["hold_rounds"] == hold and st.stats()["point_cards_passed"] == cards
        holds, passed = holds + hold, passed + cards
    assert holds and passed
