"""The game kit's own guarantees, on a tiny game declared here (not registered): a hidden role
is shown to its holder only until it is revealed, whether it is revealed is public and kept by
a sampled world, a sampled world's role is whoever holds the card there, and an observation
shares no list with the state.  Everything else the kit derives is checked for every registered
game by the conformance suite."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from torite.cards import card_str, parse_card
from torite.engine.base import Action, Bounds
from torite.engine.kit import CARD, LIST, PLAY, REST, Field, Pile, Place, Role, TrickGame, TrickState
from torite.engine.phases import Card, Phase

NAME = "name"


class Named(TrickGame):
    """Nine clubs, two to each of three seats, three set aside; the first seat names a card and
    whoever holds it has the role ``holder`` until the card is played; one trick of each."""

    id = "kit-test-named"
    title = "Named"
    OPTIONS = ()
    PLAYERS = 3
    DECK = tuple(range(9))  # 2C..10C
    PHASES = (Phase(NAME, (Card("name", from_="deck"),)), Phase(PLAY, (Card("play"),)))
    PILES = (Pile("aside", deal=REST),)
    FIELDS = (Field("named", CARD), Field("log", LIST))
    ROLES = (Role("holder", card_attr="named", revealed_attr="shown"),)

    @property
    def hand_size(self) -> int:
        return 2

    def bounds(self) -> Bounds:
        return Bounds((0, 0), 1 + 6)


class NamedState(TrickState):
    aside: list[int]
    named: int
    holder: int
    shown: bool
    log: list[list[Any]]

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        self.phase = NAME
        self.named = self.holder = -1
        self.shown = False
        self.log = []

    def legal_name(self, seat: int) -> list[Action]:
        return [Action("name", 1 << c) for c in self.game.deck if not self.hands[seat] >> c & 1]

    def apply_name(self, seat: int, action: Action) -> None:
        self.named = action.card
        self.holder = next((s for s, h in enumerate(self.hands) if h >> action.card & 1), -1)
        self.log.append([seat, card_str(action.card)])
        self.emit("name", seat, {"card": card_str(action.card)})
        self.phase = PLAY

    def after_play(self, seat: int, card: int) -> bool:
        self.shown = self.shown or card == self.named
        return False

    def trick_winner(self) -> int:
        return max(range(len(self.trick)), key=lambda i: self.trick[i])

    def forbids(self, seat: int) -> list[tuple[Place, int]]:
        """Whoever named the card did not hold it (``log`` shows who named it)."""
        return [(Place.hand(self.log[0][0]), 1 << self.named)] if self.log else []


Named.STATE = NamedState

HANDS = {"hands": [["2C", "3C"], ["4C", "5C"], ["6C", "7C"]], "aside": ["8C", "9C", "10C"]}


def named(card: str, *plays: str) -> NamedState:
    """Seat 0 names ``card`` (seat 2 deals), then the plays."""
    state = Named().new_state(1, dealer=2, deals=[HANDS])
    assert isinstance(state, NamedState)
    state.apply_text(0, f"name {card}")
    for text in plays:
        state.apply_text(state.to_act()[0], text)
    return state


def test_a_role_is_hidden_from_everyone_but_its_holder_until_it_is_revealed() -> None:
    state = named("4C")
    assert [state.observation(v)["holder"] for v in (0, 1, 2, None)] == [None, 1, None, None]
    state = named("4C", "play 2C", "play 4C")
    assert [state.observation(v)["holder"] for v in (0, 1, 2, None)] == [1, 1, 1, 1]


def test_whether_a_role_is_revealed_is_public_and_a_sampled_world_keeps_it() -> None:
    for plays, shown in (((), False), (("play 2C", "play 4C"), True)):
        state = named("4C", *plays)
        assert all(state.observation(v)["shown"] is shown for v in (0, 1, 2, None))
        for seat in range(3):
            world = state.determinize(seat, random.Random(seat))
            assert isinstance(world, NamedState)
            assert world.shown is shown and world.observation(seat) == state.observation(seat)


def test_a_sampled_world_gives_the_role_to_whoever_holds_the_card_there_or_nobody() -> None:
    state = named("4C")
    card = parse_card("4C")
    holders = set()
    for i in range(100):
        world = state.determinize(2, random.Random(i))
        assert isinstance(world, NamedState)
        holder = next((s for s, h in enumerate(world.hands) if h >> card & 1), -1)
        assert world.holder == holder
        holders.add(holder)
    assert holders == {-1, 1}  # seat 2 holds no 4C; seat 0 named it, so it is not seat 0's (forbids)


def test_an_observation_shares_no_list_with_the_state() -> None:
    state = named("4C", "play 2C", "play 4C", "play 6C")
    before = repr(state.observation(None)), repr(state.observation(0))
    for viewer in (None, 0):
        obs = state.observation(viewer)
        obs["log"][0].append("vandal")
        obs["tricks"][0]["cards"].append("vandal")
        obs["tricks"][0]["seats"].clear()
    assert (repr(state.observation(None)), repr(state.observation(0))) == before


class Redealt(Named):
    """Named, with every deal that sets the 10C aside thrown in (``void_deal``)."""

    id = "kit-test-redealt"


class RedealtState(NamedState):
    def void_deal(self, hands: list[int]) -> bool:
        self.thrown_in = getattr(self, "thrown_in", 0) + (parse_card("10C") in self.aside)
        return parse_card("10C") in self.aside


Redealt.STATE = RedealtState


def test_a_shuffled_deal_the_rules_void_is_shuffled_and_dealt_again_before_any_event() -> None:
    ten = parse_card("10C")
    thrown = 0
    for seed in range(40):
        state = Redealt().new_state(seed, dealer=2)
        assert isinstance(state, RedealtState)
        assert ten not in state.aside and any(h >> ten & 1 for h in state.hands)
        assert [e.kind for e in state.events] == ["round", "deal", "deal", "deal"]  # one deal shown
        thrown += state.thrown_in
        again = Redealt().new_state(seed, dealer=2)  # same seed, same redeals, same deal
        assert again.hands == state.hands and again.aside == state.aside
    assert thrown > 0  # a third of shuffles set it aside: some deals were thrown in


def test_an_explicit_deal_the_rules_void_is_thrown_in_for_the_next_explicit_deal_then_a_shuffle() -> None:
    """Explicit deals are used one per deal *attempt* (Mighty's deal misses): a voided one
    gives way to the next, and past the last to a shuffle."""
    void = {"hands": [["2C", "3C"], ["4C", "5C"], ["6C", "7C"]], "aside": ["10C", "9C", "8C"]}
    good = {"hands": [["2C", "10C"], ["4C", "5C"], ["6C", "7C"]], "aside": ["3C", "9C", "8C"]}
    state = Redealt().new_state(1, dealer=2, deals=[void, good])
    assert isinstance(state, RedealtState)
    assert state.thrown_in == 1 and state.attempts == 2
    assert sorted(state.aside) == sorted(parse_card(c) for c in good["aside"])
    shuffled = Redealt().new_state(1, dealer=2, deals=[void])
    assert isinstance(shuffled, RedealtState)
    assert shuffled.thrown_in >= 1 and parse_card("10C") not in shuffled.aside


def test_a_state_may_start_at_a_later_round_with_that_rounds_dealer_and_its_own_deals_first() -> None:
    """``first_round``: the simulator's single round ``i`` is round ``i`` of a game, so a game
    whose rounds differ by number (a schedule) plays them in turn; ``dealer`` deals that round,
    the dealer passes on from it, and explicit deals are used from the state's first round."""
    other = {"hands": [["2C", "4C"], ["3C", "5C"], ["6C", "7C"]], "aside": ["8C", "9C", "10C"]}
    state = Named().new_state(1, dealer=2, deals=[HANDS, other], first_round=5)
    obs = state.observation(0)
    assert (state.round_no, obs["round"], obs["dealer"], obs["hand"]) == (5, 5, 2, ["2C", "3C"])
    state.apply_text(0, "name 8C")
    while state.rounds_played == 0:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    obs = state.observation(0)
    assert (obs["round"], obs["dealer"], obs["hand"], state.rounds_played) == (6, 0, ["2C", "4C"], 1)
    plain = Named().new_state(1, dealer=2, deals=[HANDS])
    assert plain.observation(0)["round"] == 0
    for bad in (-1, 1.5, True):
        try:
            Named().new_state(1, first_round=bad)  # type: ignore[arg-type]
        except ValueError as e:
            assert "first_round" in str(e)
        else:
            raise AssertionError(f"first_round={bad!r} was accepted")


class Lasting(Named):
    """Named with game-long state, a dealer order of its own, a card that shows no void, and
    an in-round redeal: the kit's hooks that games once worked around."""

    id = "kit-test-lasting"


class LastingState(NamedState):
    def start_game(self) -> None:
        self.games_started = getattr(self, "games_started", 0) + 1
        self.sheet = [0, 0, 0]

    def next_dealer(self) -> int:
        return (self.dealer + 2) % self.n  # backwards

    def start_round_hook(self, deal: Mapping[str, Any] | None) -> None:
        super().start_round_hook(deal)
        self.void_exempt = 1 << parse_card("9C")


Lasting.STATE = LastingState


def test_game_long_state_is_set_once_before_the_first_deal_and_survives_rounds() -> None:
    state = Lasting().new_state(3, dealer=2, max_rounds=2)
    assert isinstance(state, LastingState)
    assert state.games_started == 1 and state.sheet == [0, 0, 0]
    state.sheet[1] = 7
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.games_started == 1 and state.sheet == [0, 7, 0] and state.rounds_played == 2


def test_the_next_dealer_is_the_games_choice() -> None:
    state = Lasting().new_state(3, dealer=2, max_rounds=2)
    while state.rounds_played == 0:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.dealer == 1  # 2, then backwards


def test_a_card_exempt_from_following_shows_no_void() -> None:
    deal = {"hands": [["2C", "3C"], ["9C", "5C"], ["6C", "7C"]], "aside": ["8C", "4C", "10C"]}
    state = Lasting().new_state(1, dealer=2, deals=[deal])
    state.apply_text(0, "name 8C")
    state.apply_text(0, "play 2C")
    state.apply_text(1, "play 9C")  # clubs only here: no void either way; the suit is what counts
    assert state.voids[1] == 0


def test_an_in_round_redeal_deals_the_next_explicit_deal_and_shows_each_seat_its_new_hand() -> None:
    other = {"hands": [["2C", "4C"], ["3C", "5C"], ["6C", "7C"]], "aside": ["8C", "9C", "10C"]}
    state = Named().new_state(1, dealer=2, deals=[HANDS, other])
    before = len(state.events)
    used = state.deal_again()
    assert used == other and state.attempts == 2 and state.round_no == 0
    assert state.observation(0)["hand"] == ["2C", "4C"]
    new = state.events[before:]
    assert [(e.kind, e.seat, e.visible) for e in new] == [("deal", s, 1 << s) for s in range(3)]


def test_who_is_winning_the_unfinished_trick_is_in_every_observation() -> None:
    state = named("8C", "play 2C")
    assert [state.observation(v)["winning"] for v in (0, 1, 2, None)] == [0, 0, 0, 0]
    state.apply_text(1, "play 5C")
    assert state.observation(None)["winning"] == 1
    assert named("8C").observation(None)["winning"] is None  # no card yet


class Unwritten(Named):
    id = "kit-test-unwritten"
    PHASES = (*Named.PHASES, Phase("vote", (Card("vote"),)))


class UnwrittenState(NamedState):
    pass


Unwritten.STATE = UnwrittenState


def test_a_declared_phase_the_state_does_not_write_is_refused_at_the_first_state() -> None:
    with pytest.raises(TypeError, match="legal_vote and apply_vote"):
        Unwritten().new_state(1, dealer=2, deals=[HANDS])


def test_both_fast_shuffles_deal_exactly_as_random_shuffle_and_draw_no_more() -> None:
    """The engine's shuffles (one generator call a card, interpreted; one call a deal, compiled)
    give the permutation ``random.shuffle`` gives and leave the generator where it leaves it,
    so a seed deals the same cards in both builds and in the records made before them."""
    from torite.engine import draws

    assert draws.same_as_random_shuffle(draws._shuffle_by_calls)
    assert draws.same_as_random_shuffle(draws._shuffle_by_words)
    for seed in range(50):
        for size in (16, 38, 52, 54):
            ref, a, b, c = list(range(size)), list(range(size)), list(range(size)), list(range(size))
            rr, ra, rb, rc = random.Random(seed), random.Random(seed), random.Random(seed), random.Random(seed)
            rr.shuffle(ref)
            draws._shuffle_by_calls(ra, a)
            draws._shuffle_by_words(rb, b)
            draws.shuffle(rc, c)
            assert a == ref and b == ref and c == ref
            assert ra.random() == rb.random() == rc.random() == rr.random()


def test_the_fast_sample_draws_exactly_as_random_sample_and_no_more() -> None:
    """A sampled deal under voids (the determinizer, thousands a search decision) draws its
    constrained hands with ``draws.sample``: the same cards in the same order as
    ``random.sample``, by both of its methods, the generator left where it leaves it."""
    from torite.engine import draws

    assert draws.same_as_random_sample(draws._sample_by_calls)
    for seed in range(30):
        for size, k in ((39, 13), (26, 13), (12, 3), (54, 2), (200, 30), (5, 5), (7, 0)):
            population = [3 * x + 1 for x in range(size)]
            rr, rs = random.Random(seed), random.Random(seed)
            assert draws.sample(rs, population, k) == rr.sample(population, k)
            assert rs.random() == rr.random()
    with pytest.raises(ValueError, match="Sample larger than population"):
        draws.sample(random.Random(1), [1, 2], 3)
