"""What each seat may know of the secret teams (§1, ruling C4), and that the worlds the search
bots sample respect it.

A seat's team is fixed by the jokers it was dealt.  Before a joker is played only its holder
knows who holds it: a seat with no joker knows it is a bad cop and no more, a seat with one
joker knows its partner holds the other but not who.  The card leak test of the conformance
suite cannot see a team leak (no card is named), so these tests look at the roles, the events
and the result, and compare observations of deals that differ only where a seat cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.cards import JOKERS_MASK, parse_card
from torite.engine.registry import make_game
from torite.games.good_cop.rules import GoodCopState

from .helpers import deal, holder, play, start

HC = ("9H", "2C")
VIEWERS = (0, 1, 2, 3, None)
ROLES = (("cop1", "JK1"), ("cop2", "JK2"))


def roles_seen(state: GoodCopState, role: str) -> list[Any]:
    return [state.observation(v)[role] for v in VIEWERS]


def test_before_a_joker_is_played_only_its_holder_sees_it() -> None:
    state = start(HC, {1: "JK1", 3: "JK2"})
    assert roles_seen(state, "cop1") == [None, 1, None, None, None]
    assert roles_seen(state, "cop2") == [None, None, None, 3, None]
    assert roles_seen(state, "cop1_shown") == [False] * 5


def test_a_seat_dealt_both_jokers_sees_both_and_nobody_else_sees_either() -> None:
    state = start(HC, {2: "JK1 JK2"})
    assert roles_seen(state, "cop1") == roles_seen(state, "cop2") == [None, None, 2, None, None]


def test_playing_a_joker_shows_its_holder_to_everyone_and_the_other_joker_stays_hidden() -> None:
    state = start(HC, {0: "2S", 1: "JK1", 3: "JK2"}, voids={1: "S"})
    play(state, "2S", "JK1")
    assert roles_seen(state, "cop1") == [1, 1, 1, 1, 1]
    assert roles_seen(state, "cop1_shown") == [True] * 5
    assert roles_seen(state, "cop2") == [None, None, None, 3, None]
    assert state.result().teams == ()


def test_the_last_joker_played_makes_the_teams_public_with_an_event() -> None:
    state = start(HC, {0: "2S", 1: "JK1", 2: "3S", 3: "JK2"}, voids={1: "S", 3: "S"})
    play(state, "2S", "JK1", "3S", "JK2")
    last = [e for e in state.events if e.kind == "play"][-1]
    assert last.data == {"card": "JK2", "good_cop": True, "good": 1, "partner": 3}
    assert state.result().teams == ((1, 3), (0, 2))


def two_worlds() -> tuple[GoodCopState, GoodCopState, set[int]]:
    """Two deals seat 0 cannot tell apart: seats 1 and 2 swap JK2 and a card X, so the teams are
    2 against 2 in one and seat 1 alone in the other.  Returns them and the two swapped cards."""
    named = {0: "2S 3S", 1: "JK1 5S 6D", 2: "JK2 4S"}
    a = start(HC, named)
    hands = deal(HC, named)["hands"]
    hands[1][hands[1].index("6D")], hands[2][hands[2].index("JK2")] = "JK2", "6D"
    b = make_game("good-cop").new_state(1, dealer=3, deals=[{"turned": list(HC), "hands": hands}])
    assert isinstance(b, GoodCopState)
    assert a.good_cops() == [1, 2] and b.good_cops() == [1]
    return a, b, {parse_card("JK2"), parse_card("6D")}


def visible_events(state: GoodCopState, viewer: int | None) -> list[Any]:
    return [(e.kind, e.seat, e.data) for e in state.events if e.visible_to(viewer)]


def test_a_bad_cop_sees_nothing_that_tells_two_against_two_from_one_against_three() -> None:
    a, b, hidden = two_worlds()
    steps = 0
    while not a.is_over() and steps < 40:
        for viewer in (0, 3, None):
            assert a.observation(viewer) == b.observation(viewer), f"after {steps} plays, viewer {viewer}"
            assert visible_events(a, viewer) == visible_events(b, viewer)
        assert a.stats() == b.stats() and a.result().teams == b.result().teams == ()
        seat = a.to_act()[0]
        both = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat) and x.card not in hidden]
        if not both:
            break
        a.apply(seat, both[0])
        b.apply(seat, both[0])
        steps += 1
    assert steps >= 8  # the jokers' seats played cards too (JK1 among them, once it was legal)


@pytest.mark.parametrize("options", [{}, {"joker": "wild"}])
def test_no_observation_event_or_result_tells_a_team_before_its_joker_is_played(options: dict[str, Any]) -> None:
    game = make_game("good-cop", options | {"deals": 2})
    for seed in range(6):
        state = game.new_state(seed)
        assert isinstance(state, GoodCopState)
        rng = random.Random(seed)
        seen_events = 0
        while not state.is_over():
            shown = {role: state.observation(None)[role + "_shown"] for role, _ in ROLES}
            for viewer in VIEWERS:
                obs = state.observation(viewer)
                for role, card in ROLES:
                    if not shown[role] and holder(state, card) != viewer:
                        assert obs[role] is None, f"seed {seed}: {viewer} sees {role}"
            if not all(shown.values()):
                assert state.result().teams == ()
            for e in state.events[seen_events:]:
                if e.kind == "play" and ("good" in e.data or "partner" in e.data):
                    assert all(shown.values()) or e.data["card"].startswith("JK")
            seen_events = len(state.events)
            round0 = len(state.round_scores)
            lone0 = state.stats()["lone_good_cop"]
            seat = state.to_act()[0]
            moves = state.legal_actions(seat)
            state.apply(seat, moves[rng.randrange(len(moves))])
            if len(state.round_scores) == round0:
                assert state.stats()["lone_good_cop"] == lone0  # counted only once the deal is over


# --------------------------------------------------------------------------- sampled worlds
def worlds(state: GoodCopState, seat: int, count: int = 150) -> list[GoodCopState]:
    out = []
    for i in range(count):
        w = state.determinize(seat, random.Random(i))
        assert isinstance(w, GoodCopState)
        assert w.observation(seat) == state.observation(seat)
        out.append(w)
    return out


def test_a_bad_cops_worlds_put_the_jokers_elsewhere_with_both_kinds_of_teams() -> None:
    state = start(HC, {1: "JK1", 3: "JK2"})
    kinds = set()
    for w in worlds(state, 0):
        assert (w.cop1, w.cop2) == (holder(w, "JK1"), holder(w, "JK2"))
        assert 0 not in (w.cop1, w.cop2)
        kinds.add(len(w.good_cops()))
    assert kinds == {1, 2}  # a bad cop cannot tell 2 against 2 from 1 against 3


def test_a_good_cops_worlds_keep_its_joker_and_give_its_partner_the_other() -> None:
    state = start(HC, {1: "JK1", 3: "JK2"})
    partners = set()
    for w in worlds(state, 1):
        assert w.cop1 == 1 and holder(w, "JK1") == 1
        assert w.cop2 == holder(w, "JK2") != 1
        partners.add(w.cop2)
    assert partners == {0, 2, 3}


def test_a_revealed_good_cop_stays_one_in_every_world() -> None:
    state = start(HC, {0: "2S", 1: "JK1", 3: "JK2"}, voids={1: "S"})
    play(state, "2S", "JK1")
    for w in worlds(state, 2):
        assert w.cop1 == 1 and w.cop1_shown and w.cop2 == holder(w, "JK2") not in (-1, 2)


def test_with_a_turned_joker_every_world_has_one_good_cop_alone() -> None:
    state = start(("JK1", "5S"), {2: "JK2"})
    for w in worlds(state, 0):
        assert w.cop1 == -1 and w.cop1_shown and w.cop2 == holder(w, "JK2") in (1, 2, 3)
        assert len(w.good_cops()) == 1


def test_worlds_give_no_joker_to_a_seat_that_did_not_follow_trumps_but_wild_jokers_may_be_anywhere() -> None:
    for options, may in (({}, False), ({"joker": "wild"}, True)):
        state = start(HC, {0: "AH", 1: "2S", 2: "JK1", 3: "JK2"}, voids={1: "HJ"}, options=options)
        play(state, "AH", "2S")  # seat 1 shows it has no trump
        got = any(w.hands[1] & JOKERS_MASK for w in worlds(state, 0, 200))
        assert got is may, options
