"""The normal bot reads an open graveyard (issue 16) and plays a closed one exactly as before.

Each position is played twice from the same deal, once with ``open_graveyard`` and once
without: the open graveyard must change the decision the way a good player would (take a trick
that raises a good card, leave one that raises a club, pair a rank or not accordingly, count
the graveyard's cards as out of play), and the closed one must not.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from torite.cards import card_str
from torite.games.trick_of_the_dead.bot import TrickOfTheDeadBot
from torite.games.trick_of_the_dead.rules import TrickOfTheDead, TrickOfTheDeadState

from .conftest import play, setup


def bot_choice(state: TrickOfTheDeadState) -> str:
    """The card (or declaration) the normal bot chooses for the seat to act, from its observation."""
    (seat,) = state.to_act()
    bot = TrickOfTheDeadBot(state.game, seat, random.Random(0))
    action = bot.act(state.observation(seat), state.legal_actions(seat))
    return card_str(action.card) if action.kind == "play" else f"{action.kind} {action.arg}"


def last_to_play(top: str | None, hands: list[str], moves: tuple[str, ...], **kw: Any) -> str:
    """Seat 2's choice after ``moves``; ``top`` is the open graveyard's top card (None: closed)."""
    state = setup(hands, after_top=top or "QD", open_graveyard=top is not None, **kw)
    play(state, *moves)
    assert tuple(state.to_act()) == (2,)
    if top is not None:
        assert state.observation(2)["graveyard"][0] == top
    else:
        assert state.observation(2)["graveyard"] is None
    return bot_choice(state)


# Lead 7S, 7H from a player void in spades: the 7s pair, so the graveyard's top rises for
# whoever takes the trick.  Seat 2 can take it with 9S or let it go with 2S.
PAIRED = (["7S", "7H", "9S 2S"], ("7S", "7H"))


def test_closed_graveyard_lets_a_poor_paired_trick_go() -> None:
    hands, moves = PAIRED
    assert last_to_play(None, hands, moves, voids={1: "S", 2: "S"}) == "2S"


@pytest.mark.parametrize("top", ["JK1", "QD", "AD", "5H"])
def test_open_graveyard_takes_a_trick_that_raises_a_good_card(top: str) -> None:
    hands, moves = PAIRED
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "9S"


@pytest.mark.parametrize("top", ["KC", "2C"])
def test_open_graveyard_does_not_take_a_poor_trick_for_a_club(top: str) -> None:
    hands, moves = PAIRED
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "2S"


# Lead 3S, 3H: a trick worth +1 that seat 2 takes cheaply with 4S, unless it raises a club.
CHEAP = (["3S", "3H", "4S 2S"], ("3S", "3H"))


@pytest.mark.parametrize("top", [None, "5S", "QD"])
def test_a_cheap_paired_trick_is_taken_when_its_zombie_is_not_a_club(top: str | None) -> None:
    hands, moves = CHEAP
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "4S"


@pytest.mark.parametrize("top", ["KC", "7C"])
def test_a_cheap_paired_trick_is_left_when_it_raises_a_club(top: str) -> None:
    hands, moves = CHEAP
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "2S"


# Lead AS, 6S: seat 2, void in spades, dumps a club into seat 0's trick.  6C pairs the 6S and
# would raise the graveyard's top for seat 0; 5C does not.
DUMP = (["AS", "6S", "6C 5C"], ("AS", "6S"))


def test_closed_graveyard_dumps_the_higher_club() -> None:
    hands, moves = DUMP
    assert last_to_play(None, hands, moves, voids={2: "SC"}) == "6C"


@pytest.mark.parametrize("top", ["JK2", "AD"])
def test_open_graveyard_does_not_pair_a_good_zombie_into_a_rivals_hand(top: str) -> None:
    hands, moves = DUMP
    assert last_to_play(top, hands, moves, voids={2: "SC"}) == "5C"


@pytest.mark.parametrize("top", ["KC", "3S"])
def test_open_graveyard_pairs_freely_when_the_zombie_is_no_gift(top: str) -> None:
    hands, moves = DUMP
    assert last_to_play(top, hands, moves, voids={2: "SC"}) == "6C"


# Lead 9S, JH (void in spades): seat 2 takes the trick with 10S or JS; only JS pairs the JH.
TAKE = (["9S", "JH", "JS 10S"], ("9S", "JH"))


def test_closed_graveyard_takes_with_the_lower_card() -> None:
    hands, moves = TAKE
    assert last_to_play(None, hands, moves, voids={1: "S", 2: "S"}) == "10S"


@pytest.mark.parametrize("top", ["JK1", "KD", "4H"])
def test_open_graveyard_pairs_to_raise_a_good_zombie_into_its_own_hand(top: str) -> None:
    hands, moves = TAKE
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "JS"


@pytest.mark.parametrize("top", ["QC", "2C"])
def test_open_graveyard_does_not_pair_to_raise_a_club_for_itself(top: str) -> None:
    hands, moves = TAKE
    assert last_to_play(top, hands, moves, voids={1: "S", 2: "S"}) == "10S"


def test_a_zombie_in_the_open_graveyard_goes_to_the_trick_winner_as_the_bot_expects() -> None:
    """The position the bot reasons about is the real one: JS takes the trick and gets the KD."""
    hands, moves = TAKE
    state = setup(hands, after_top="KD", open_graveyard=True, voids={1: "S", 2: "S"})
    play(state, *moves, "JS")
    assert "KD" in state.observation(0)["zombies"][2]


def test_the_open_graveyard_shows_the_ace_is_out_so_the_king_leads() -> None:
    """With AD lying in the graveyard, KD is the top diamond: worth leading for the diamonds."""
    hands = ["KD 2C 3C 4C 5C 6C 7C 8C 9C 10C 2S 3S 4S 5S", "", ""]
    closed = setup(hands, after_top="2H 3H AD")
    opened = setup(hands, after_top="2H 3H AD", open_graveyard=True)
    assert opened.observation(0)["graveyard"][2] == "AD"
    assert bot_choice(opened) == "KD"
    assert bot_choice(closed) != "KD"


def test_two_players_do_not_pair_a_joker_into_the_rivals_hand() -> None:
    """Two players: a zombie rises when both cards share a rank.  Seat 1, void in spades and
    clubs, loses the trick whatever it plays; its cheapest card 2D would pair the 2S."""
    hands = ["2S", "2D 3D"]
    opened = setup(hands, after_top="JK1", open_graveyard=True, players=2, dealer=1, voids={1: "SC"})
    closed = setup(hands, after_top="JK1", players=2, dealer=1, voids={1: "SC"})
    for state in (opened, closed):
        play(state, "2S")
        assert tuple(state.to_act()) == (1,)
    assert bot_choice(closed) == "2D"
    assert bot_choice(opened) == "3D"


def _digest(options: dict[str, Any], seeds: range) -> str:
    """The actions of seeded one-round games of three (or two) normal bots."""
    h = hashlib.sha256()
    for seed in seeds:
        game = TrickOfTheDead(options)
        state = game.new_state(seed, max_rounds=1)
        bots = [TrickOfTheDeadBot(game, s, random.Random(seed * 7 + s)) for s in range(game.num_players)]
        while not state.is_over():
            for seat in state.to_act():
                a = bots[seat].act(state.observation(seat), state.legal_actions(seat))
                state.apply(seat, a)
                h.update(f"{seat}:{a.kind}:{a.cards}:{a.arg};".encode())
    return h.hexdigest()[:16]


#: digests of the bot's play before it read the graveyard (commit 1aec99c): a closed graveyard
#: must keep every decision of those games
CLOSED_BEFORE: dict[str, tuple[dict[str, Any], str]] = {
    "base": ({}, "588caa7080b781d8"),
    "survival": ({"survival": True}, "52c24cb1a2ace83a"),
    "two players": ({"players": 2}, "3ba8a2138c440601"),
}


@pytest.mark.parametrize("name", CLOSED_BEFORE)
def test_closed_graveyard_play_is_unchanged(name: str) -> None:
    options, digest = CLOSED_BEFORE[name]
    assert _digest(options, range(10)) == digest


def test_open_graveyard_play_differs_somewhere() -> None:
    """The same seeded games with the graveyard open are played differently (else the option
    would be invisible to the bot again, as issue 16 found)."""
    assert _digest({"open_graveyard": True}, range(10)) != _digest({}, range(10))
