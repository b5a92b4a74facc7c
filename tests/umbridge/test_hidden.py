"""What each seat may know in Umbridge (rules page: "Taking umbrage", "The auction", U2, U3, U10,
U15): the other's umbrage choice until both have decided, the bridge, the other's discards and
draws, the dummy until the auction ends; and the inferences the search bots' sampled worlds keep
(a seat's own discards, the hand it gave up)."""

from __future__ import annotations

import random

from torite.cards import mask_of_texts
from torite.engine.base import ALL_SEATS

from .helpers import act, keep_both, mixed_deal, start, suits_deal

SPADES_TO_0 = suits_deal("S", "H", "D", "C")


def test_the_bridge_is_never_shown_only_its_size() -> None:
    state = start([mixed_deal()])
    keep_both(state)
    act(state, (0, "bid 1 C"), (1, "pass"))
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs["bridge"] is None and obs["bridge_size"] == 13


def test_discards_and_drawn_cards_are_seen_by_their_player_only_U10() -> None:
    state = start([SPADES_TO_0])
    keep_both(state)
    act(state, (0, "bid 1 S"), (1, "pass"), (0, "discard 2S"), (0, "discard 3S"), (0, "done"))
    mine, theirs, spectator = state.observation(0), state.observation(1), state.observation(None)
    assert mine["discarded"] == ["2S", "3S"] and theirs["discarded"] == [] and spectator["discarded"] == []
    for obs in (mine, theirs, spectator):
        assert obs["discards"] is None and obs["discards_size"] == 2
    assert "2C" in mine["hand"] and theirs["hand_sizes"] == [13, 13]
    assert [e.visible for e in state.events if e.kind in ("discard", "draw")] == [1, 1, 1]
    exchange = [e for e in state.events if e.kind == "exchange"][-1]
    assert exchange.visible == ALL_SEATS and exchange.data == {"count": 2, "bridge": 11}
    assert theirs["drawn"] == [2, 0] and theirs["exchanges"] == [[0, 2]]


def test_a_sampled_world_keeps_the_seat_s_own_discards_among_the_discards() -> None:
    state = start([mixed_deal()])
    keep_both(state)
    act(state, (0, "bid 1 C"), (1, "pass"))
    hand = state.observation(0)["hand"]
    act(state, (0, f"discard {hand[0]}"), (0, f"discard {hand[1]}"), (0, "done"), (1, "done"))
    act(state, (0, "bid 1 C"), (1, "pass"))
    # seat 1 discards too: seat 0 knows its own two discards, not seat 1's
    act(state, (0, "done"), (1, f"discard {state.observation(1)['hand'][0]}"), (1, "done"))
    obs = state.observation(0)
    det = state.game.determinizer(obs)
    rng = random.Random(1)
    own = mask_of_texts(hand[:2])
    for _ in range(30):
        world = det.sample(rng)
        discards = sum(1 << c for c in world.discards)
        assert discards & own == own and len(world.discards) == 3
        assert world.observation(0) == obs


def test_a_seat_that_took_umbrage_knows_the_other_holds_none_of_its_old_hand() -> None:
    state = start([mixed_deal()], dealer=0)
    act(state, (0, "umbrage"), (1, "keep"))
    obs = state.observation(0)
    given = mask_of_texts(obs["given_up"])
    assert given.bit_count() == 13
    det = state.game.determinizer(obs)
    rng = random.Random(2)
    for _ in range(40):
        world = det.sample(rng)
        assert world.hands[1] & given == 0  # the old hand went among the spares
        assert (sum(1 << c for c in world.dummy + world.bridge)) & given == given
    assert state.forbids(1) == []  # seat 1 kept: it knows nothing of the kind


def test_once_the_other_player_has_drawn_the_old_hand_may_be_in_its_hand() -> None:
    state = start([mixed_deal()], dealer=0)
    act(state, (0, "umbrage"), (1, "keep"), (0, "bid 1 C"), (1, "pass"), (0, "done"))
    act(state, (1, f"discard {state.observation(1)['hand'][0]}"), (1, "done"))
    assert state.forbids(0) == []


def test_the_dummy_is_sampled_while_hidden_and_kept_once_face_up() -> None:
    state = start([mixed_deal()], dealer=0)
    keep_both(state)
    act(state, (0, "bid 1 C"), (1, "pass"))
    det = state.game.determinizer(state.observation(0))
    dummies = {tuple(sorted(det.sample(random.Random(s)).dummy)) for s in range(5)}
    assert len(dummies) > 1
    act(state, (0, "done"), (1, "done"))
    obs = state.observation(1)
    det = state.game.determinizer(obs)
    for s in range(5):
        assert sorted(det.sample(random.Random(s)).dummy) == sorted(state.dummy)


def test_who_took_umbrage_is_public_once_both_have_decided_U15() -> None:
    state = start([mixed_deal()], dealer=0)
    act(state, (1, "umbrage"))
    assert state.observation(0)["umbrage"] == [] and state.observation(None)["umbrage"] == []
    act(state, (0, "keep"))
    for seat in (0, 1, None):
        assert state.observation(seat)["umbrage"] == [False, True]
