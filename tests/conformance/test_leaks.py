"""Hidden information stays hidden: no observation and no event a seat (or a spectator) is shown
names a card that viewer may not know at that moment.

The ground truth is the state's own ``known_cards(seat)``; a card is "named" wherever its text
(``10D``, ``QS``, ``JK1``) appears in the JSON, alone or inside a longer text.
"""

from __future__ import annotations

import random

from .harness import Case, LeakJudge, cards_text, random_move

SEEDS = 2


def test_no_observation_names_a_card_its_viewer_may_not_know(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(SEEDS):
        judge = LeakJudge(game, seed, max_rounds=2)
        rng = random.Random(seed)
        leaks = judge.observation_leaks()
        while not judge.state.is_over() and not leaks:
            judge.apply(*random_move(judge.state, rng))
            leaks = judge.observation_leaks()
        assert not leaks, "\n".join(leaks)


def test_no_event_names_a_card_its_viewer_may_not_know_when_it_happens(case: Case) -> None:
    game = case.game()
    for seed in case.seeds(SEEDS):
        judge = LeakJudge(game, seed, max_rounds=2)
        leaks = judge.initial_leaks
        rng = random.Random(seed)
        while not judge.state.is_over() and not leaks:
            leaks = judge.apply(*random_move(judge.state, rng))
        assert not leaks, "\n".join(leaks)


def test_a_seat_knows_what_a_spectator_knows_and_at_the_deal_something_more(case: Case) -> None:
    """The ground truth itself, as far as the protocol can judge it: public is public to every
    seat, and a dealt hand is private (a ``known_cards`` that lets everyone know everything
    would make the leak tests above pass vacuously)."""
    game = case.game()
    for seed in case.seeds(1):
        judge = LeakJudge(game, seed, max_rounds=1)
        start = judge.known_after[0]
        for seat in range(game.num_players):
            assert start[seat] & ~start[None], f"at the deal seat {seat} knows nothing a spectator does not"
        rng = random.Random(seed)
        while not judge.state.is_over():
            judge.apply(*random_move(judge.state, rng))
            known = judge.known_after[-1]
            for seat in range(game.num_players):
                assert not known[None] & ~known[seat], (
                    f"after {len(judge.actions)} actions the spectator knows {cards_text(known[None] & ~known[seat])} "
                    f"which seat {seat} does not")
