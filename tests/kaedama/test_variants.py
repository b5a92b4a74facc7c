"""Every option, alone and combined."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from torite.cards import card_str, parse_card
from torite.engine.base import OptionError
from torite.games.kaedama.rules import Kaedama, KaedamaState

from .test_deals import A, B, C, deal, do, example_state

DOUBLE_HANDS = ("4S 5S 6S 7S 8S 9S 10C JD QD", "10S JS KS JC 8H 9H 10H JH QH",
                "QC 6C 5C 7C 8C 9C KC 5D 7D")
DOUBLE_STOCK = "7H 5H QS 8D 6D 9D KH 10D 4C 4D 4H KD 6H"


def double_state(**options: Any) -> KaedamaState:
    game = Kaedama({"rounds": 1, "double": True, **options})
    return game.new_state(1, dealer=2, deals=[deal(DOUBLE_HANDS, DOUBLE_STOCK, None)])


def visible_text(st: KaedamaState, seat: int | None) -> str:
    """Everything ``seat`` can read: its observation and its events."""
    return json.dumps([st.observation(seat), [e.data for e in st.events_for(seat)]])


# ------------------------------------------------------------------ options
def test_defaults() -> None:
    assert Kaedama().options == {"blind": False, "double": False, "reverse": False, "rounds": 6,
                                 "trump_card": "shuffle", "reversal_points": 2, "most_tricks_bonus": 3,
                                 "most_reversals_bonus": 2}


@pytest.mark.parametrize("options", [
    {"rounds": 0}, {"rounds": -2}, {"rounds": "six"}, {"trump_card": "bottom"}, {"blind": "maybe"},
    {"double": 1}, {"colour": True},
])
def test_bad_options_raise_option_error(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        Kaedama(options)


def test_options_given_as_text_are_read() -> None:
    game = Kaedama({"blind": "true", "rounds": "9", "trump_card": "top"})
    assert game.options["blind"] is True and game.options["rounds"] == 9


# ------------------------------------------------------------------ trump_card
def test_trump_card_top_makes_the_first_draw_the_turned_card() -> None:
    st = example_state({"trump_card": "top"}, after=None)
    obs = st.observation(C)
    assert obs["turned_card_at"] == "top"
    assert card_str(st.stock[-1]) == "7H"
    do(st, "play 9S", "play KS", "play QC", "replace")
    assert card_str(st.trick[0]) == "7H"
    assert st.observation(C)["turned_card_at"] == "shown"


def test_the_turned_card_is_shown_once_drawn_face_up() -> None:
    st = example_state(after="7H 5H QS 8D 6D 9D")
    assert st.observation(A)["turned_card_at"] == "shuffled"
    do(st, "play 9S", "play KS", "play QC", "replace")
    assert st.observation(A)["turned_card_at"] == "shown"


# ------------------------------------------------------------------ blind
def test_blind_drawn_card_is_face_down_and_seen_by_nobody_not_even_the_drawer() -> None:
    st = example_state({"blind": True})
    do(st, "play 9S", "play KS", "play QC", "replace")  # A draws 5H face down
    assert card_str(st.trick[0]) == "5H"
    for seat in (A, B, C, None):
        obs = st.observation(seat)
        assert obs["trick"][0]["card"] is None and obs["trick"][0]["face_down"]
        assert obs["out"] == ["9S"]  # the replaced card is public at once
        assert '"5H"' not in visible_text(st, seat)


def test_blind_winning_is_judged_on_face_up_cards_only() -> None:
    st = example_state({"blind": True})
    do(st, "play 9S", "play KS", "play QC", "replace")  # A's 5H would win, but it is face down
    assert st.to_act() == (C,)  # so B (KS) still counts as winning and is skipped
    do(st, "replace")  # C draws QS face down
    record = st.history[-1]
    assert record["cards"] == ["5H", "KS", "QS"]
    assert record["winner"] == A and record["reversal"] and record["points"] == 2


def test_blind_cards_are_revealed_to_all_after_every_player_has_decided() -> None:
    st = example_state({"blind": True})
    do(st, "play 9S", "play KS", "play QC", "replace", "pass")
    reveal = [e for e in st.events if e.kind == "reveal"]
    assert len(reveal) == 1 and reveal[0].visible_to(None)
    assert reveal[0].data["revealed"] == ["5H"]
    for seat in (A, B, C, None):
        assert st.observation(seat)["tricks"][-1]["cards"] == ["5H", "KS", "QC"]


def test_blind_with_top_everyone_knows_the_first_draw_is_the_turned_card_ruling_k5() -> None:
    st = example_state({"blind": True, "trump_card": "top"}, after=None)
    do(st, "play 9S", "play KS", "play QC", "replace")
    for seat in (A, B, C):
        obs = st.observation(seat)
        assert obs["turned_card_at"] == "face_down" and obs["turned_card_seat"] == A
        assert obs["trick"][0]["card"] is None
    assert st.to_act() == (C,)  # the known trump still lies face down: B counts as winning
    do(st, "pass")
    assert st.observation(B)["turned_card_at"] == "shown"
    assert st.history[-1]["winner"] == A


# ------------------------------------------------------------------ double
def test_double_uses_40_cards_hands_of_nine_and_a_stock_of_twelve_ruling_d1() -> None:
    st = Kaedama({"double": True}).new_state(3)
    obs = st.observation(0)
    assert len(obs["hand"]) == 9 and obs["stock_size"] == 12
    assert obs["turned_card_at"] == "out" and obs["out"] == [obs["turned_card"]]
    assert obs["trump"] == obs["turned_card"][-1]
    assert {card_str(c)[:-1] for c in st.game.deck} == {"4", "5", "6", "7", "8", "9", "10",
                                                        "J", "Q", "K"}


def test_double_turned_card_stays_out_of_play_whatever_trump_card_says_ruling_k6() -> None:
    for mode in ("shuffle", "top"):
        st = double_state(trump_card=mode)
        assert card_str(st.out[0]) == "7H" and parse_card("7H") not in st.stock
        assert card_str(st.stock[-1]) == "5H"


def test_double_second_decision_comes_right_after_the_first_draw_ruling_k2() -> None:
    st = double_state()
    do(st, "play 9S", "play KS", "play QC", "replace")  # A draws 5H: now winning, no second go
    assert st.to_act() == (B,)
    do(st, "replace")  # B draws QS, still losing
    obs = st.observation(B)
    assert st.to_act() == (B,) and obs["kaedama_step"] == 2
    do(st, "replace")  # B draws 8D
    assert st.to_act() == (C,)
    do(st, "replace", "replace")  # C: 6D then 9D
    record = st.history[-1]
    assert record["draws"] == [1, 2, 2]
    assert record["cards"] == ["5H", "8D", "9D"]
    assert st.observation(A)["out"] == ["7H", "9S", "KS", "QS", "QC", "6D"]
    assert record["winner"] == A and record["points"] == 2


def test_double_a_pass_ends_the_players_kaedama_for_the_trick_ruling_k2() -> None:
    st = double_state()
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (C,)


def test_double_no_second_decision_once_winning() -> None:
    st = double_state()
    do(st, "play 9S", "play KS", "play QC", "replace")
    assert st.observation(A)["trick"][0]["card"] == "5H"
    assert st.to_act() == (B,)


def test_double_a_round_is_nine_tricks() -> None:
    st = Kaedama({"double": True, "rounds": 1}).new_state(4)
    while not st.is_over():
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat)[0])
    assert len(st.history) == 9


def test_blind_double_face_down_card_replaced_again_leaves_face_down_ruling_k4() -> None:
    st = double_state(blind=True)
    do(st, "play 9S", "play KS", "play QC", "replace")  # A draws 5H face down
    assert st.to_act() == (A,)  # a face-down card never counts as winning: A may go again
    do(st, "replace")  # the unseen 5H leaves face down, A draws QS face down
    for seat in (A, B, C, None):
        obs = st.observation(seat)
        assert obs["out"] == ["7H", "9S", None]
        text = visible_text(st, seat)
        assert '"5H"' not in text and '"QS"' not in text
    do(st, "pass")  # B: KS still winning face up is skipped; C passes
    assert st.observation(B)["out"] == ["7H", "9S", "5H"]
    record = st.history[-1]
    assert record["cards"] == ["QS", "KS", "QC"] and record["winner"] == B


# ------------------------------------------------------------------ reverse
def test_reverse_lets_a_winning_player_replace() -> None:
    st = example_state({"reverse": True})
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (B,)
    st = example_state()
    do(st, "play 9S", "play KS", "play QC", "pass")
    assert st.to_act() == (C,)


def test_reverse_a_winner_may_dodge_the_trick() -> None:
    st = example_state({"reverse": True}, after="8D 5H QS 7H 6D 9D")
    do(st, "play 9S", "play KS", "play QC", "pass", "replace")  # B swaps KS for 8D
    do(st, "pass")
    assert st.history[-1]["winner"] == A  # 9S is now the best spade


# ------------------------------------------------------------------ all combinations
COMBOS = [dict(zip(("blind", "double", "reverse", "trump_card"), v))
          for v in itertools.product((False, True), (False, True), (False, True), ("shuffle", "top"))]


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_combination_plays_whole_games(options: dict[str, Any]) -> None:
    game = Kaedama({"rounds": 2, **options})
    deck = sorted(game.deck)
    rng = random.Random(5)
    for seed in range(3):
        st = game.new_state(seed)
        while not st.is_over():
            seat = st.to_act()[0]
            acts = st.legal_actions(seat)
            st.apply(seat, acts[rng.randrange(len(acts))])
        assert st.rounds_played == 2
        assert len(st.history) == game.hand_size
        allc = sorted([c for m in st.taken for c in range(52) if m >> c & 1] + st.out + st.stock)
        assert allc == deck
        assert st.stats()["tricks"] == 2 * game.hand_size


# ------------------------------------------------------------------ in random games (hypothesis)
# What the conformance suite (tests/conformance) cannot say for every game: where Kaedama's
# face-down cards and turned card may be, and that they stay hidden.
RANDOM_OPTIONS = hs.fixed_dictionaries({
    "blind": hs.booleans(), "double": hs.booleans(), "reverse": hs.booleans(),
    "trump_card": hs.sampled_from(("shuffle", "top")),
})
SEEDS = hs.integers(0, 2**32 - 1)


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


def observations(st: KaedamaState) -> list[str]:
    return [json.dumps(st.observation(s), sort_keys=True) for s in (0, 1, 2, None)]


@settings(max_examples=25, deadline=None)
@given(RANDOM_OPTIONS, SEEDS)
def test_a_determinized_state_keeps_the_voids_shown_and_what_is_known_of_the_turned_card(
        options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    for st in random_play(options, seed):
        voids = st.observation(None)["voids"]
        for seat in range(3):
            sample = st.determinize(seat, rng)
            assert sample.hands[seat] == st.hands[seat]
            for other in range(3):
                for suit in voids[other]:
                    assert not sample.hands[other] >> (13 * "CDHS".index(suit)) & 0x1FFF
            if st.turned_at == "top":
                assert sample.stock[-1] == st.stock[-1] == st.turned
            if st.turned_at == "shuffled":
                assert not any(h >> st.turned & 1 for h in sample.hands)


@settings(max_examples=25, deadline=None)
@given(RANDOM_OPTIONS.map(lambda o: o | {"blind": True}), SEEDS)
def test_blind_cards_are_invisible_to_every_seat_before_the_reveal(options: dict[str, Any], seed: int) -> None:
    for st in random_play(options, seed):
        hidden = [c for c, d in zip(st.trick, st.down) if d] + [c for c, d in zip(st.out, st.out_down) if d]
        hidden = [c for c in hidden if c != st.turned]  # the turned card's name is public anyway
        if not hidden:
            continue
        for seat in (0, 1, 2, None):
            text = visible_text(st, seat)
            for c in hidden:
                assert f'"{card_str(c)}"' not in text
        # and no observation depends on which cards lie face down
        if st.stock:
            swapped = st.clone()
            pos = next(i for i, d in enumerate(swapped.down) if d) if any(swapped.down) else -1
            if pos >= 0 and swapped.trick[pos] != st.turned and swapped.stock[0] != st.turned:
                swapped.trick[pos], swapped.stock[0] = swapped.stock[0], swapped.trick[pos]
                assert observations(swapped) == observations(st)
