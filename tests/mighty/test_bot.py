"""The rule-of-thumb bot: legal games under every option, sensible choices in the spots its rules
of thumb name, better than random players on the same deals; records of its games replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from torite.engine.bot import RandomBot
from torite.engine.driver import run
from torite.engine.registry import make_game
from torite.games.mighty.bot import MightyBot, hand_value
from torite.games.mighty.rules import MightyState
from torite.record import Record, replay, start_record

from .helpers import deal, elect, mask, play, playable, setup, start


def choice(state: MightyState) -> str:
    seat = state.to_act()[0]
    bot = MightyBot(state.game, seat, random.Random(0))
    return state.game.action_text(bot.act(state.observation(seat), state.legal_actions(seat)))


def test_the_game_wires_its_rule_bot() -> None:
    bot = make_game("mighty").rule_bot(2, random.Random(0))
    assert isinstance(bot, MightyBot) and bot.name == "normal" and bot.seat == 2


@pytest.mark.parametrize("options", [{}, {"deal_miss": "half_point", "all_pass": "min12", "nt_min12": True},
                                     {"joker_last_trick": "forbidden", "joker_first_trick": "forbidden"},
                                     {"joker_call_first_trick": True, "mighty_when_spades": "CA"}], ids=str)
def test_the_bot_plays_legal_games_under_every_option(options: dict[str, Any]) -> None:
    game = make_game("mighty", options | {"deals": 2})
    for seed in range(3):
        state = game.new_state(seed)
        run(state, {s: MightyBot(game, s, random.Random(s)) for s in range(5)})
        assert state.is_over() and sum(state.scores) == 0


def test_a_strong_hand_bids_its_best_trump_and_a_weak_one_passes() -> None:
    state = start([deal({0: "AS JK AH KH QH JH 10H 9H 2C 3D"})])
    assert choice(state) == "bid 13 H"
    state = start([deal({0: "2C 3C 4C 5D 6D 7H 8H 9S 10S QC"})])
    assert choice(state) == "pass"
    assert hand_value(mask("AS JK AH KH QH JH 10H 9H 2C 3D"), "H") > 15


def test_the_president_keeps_the_mighty_the_joker_and_trumps_when_discarding() -> None:
    state = start([deal({0: "AS JK AH KH QH JH 10H 9H 2C 3D"}, "4C 5D 6S")])
    elect(state, 0, "15 H")
    for _ in range(3):
        text = choice(state)
        assert text.split()[1] not in ("AS", "JK") and not text.endswith("H")
        state.apply_text(0, text)


def test_the_president_names_the_mighty_as_friend_when_it_lacks_it_else_the_joker() -> None:
    state = setup({0: "JK AH KH QH JH 10H 9H 8H 2C 3D"}, bid="14 H", friend="friend none")
    assert state.friend_call == "none"
    state = start([deal({0: "JK AH KH QH JH 10H 9H 8H 2C 3D"})])
    elect(state, 0, "14 H")
    while state.phase != "friend":
        state.apply_text(0, choice(state))
    assert choice(state) == "friend AS"
    state = start([deal({0: "AS AH KH QH JH 10H 9H 8H 2C 3D"})])
    elect(state, 0, "14 H")
    while state.phase != "friend":
        state.apply_text(0, choice(state))
    assert choice(state) == "friend JK"


def test_the_opposition_takes_a_rich_trick_with_the_mighty_when_a_foe_is_winning() -> None:
    state = setup({0: "KD QD 2S 3S 4S 5S 6S 7S 8S 9S", 1: "AS 2D 3H 4H 5H 6H 7H 8H 9H 10H"},
                  bid="13 S", kitty="2C 3C 4C", discards="2C 3C 4C", contract="13 S", friend="friend none")
    assert state.mighty == mask("AD").bit_length() - 1
    state2 = setup({0: "KD 10D 2S 3S 4S 5S 6S 7S 8S 9S", 1: "AS 2D 3H 4H 5H 6H 7H 8H 9H 10H"},
                   bid="13 H", kitty="2C 3C 4C", discards="2C 3C 4C", contract="13 H", friend="friend none")
    play(state2, "KD")
    assert "AS" in playable(state2)
    assert choice(state2) == "play AS"  # the president leads a point card: the Mighty takes it


def test_the_bot_calls_the_joker_when_another_hand_may_hold_it() -> None:
    state = setup({0: "AS 3C 2S 3S 4S 5S 6S 7S 8S 9S"}, bid="13 H", kitty="2D 3D 4D", discards="2D 3D 4D")
    play(state, "AS")
    while len(state.history) < 1:
        play(state, sorted(playable(state))[0])
    play(state, "3C")
    assert choice(state) == "call"


def test_normal_beats_random_on_the_same_deals() -> None:
    game = make_game("mighty", {"deals": 1})
    total = 0
    for seed in range(30):
        for normal in range(5):
            state = game.new_state(seed, dealer=seed % 5)
            bots = {s: (MightyBot(game, s, random.Random(seed)) if s == normal
                        else RandomBot(game, s, random.Random(s))) for s in range(5)}
            run(state, bots)
            total += state.scores[normal]
    assert total > 0


def test_a_record_of_a_bot_game_replays_to_the_same_result(tmp_path: Any) -> None:
    game = make_game("mighty", {"deals": 3})
    deals = [deal({2: "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D"}), deal({})]
    rec = start_record(game, 5, ["bot:normal"] * 5, dealer=1, deals=deals)
    state = game.new_state(5, dealer=1, deals=deals)
    bots = {s: MightyBot(game, s, random.Random(s)) for s in range(5)}
    run(state, bots, on_action=lambda seat, action, _t: rec.actions.append((seat, str(action))))
    rec.result = state.result().to_json()
    path = rec.save(tmp_path / "mighty.json")
    again = replay(Record.load(path))
    assert again.result() == state.result() and again.stats() == state.stats()
    assert any(text.startswith("friend") for _, text in rec.actions)
