"""The search bots: legal in every phase, reproducible, blind to the real state, and able to
find an obviously winning card."""

from __future__ import annotations

import gc
import json
import random
from typing import Any

import pytest

from torite.bots import BOT_NAMES, make_bot
from torite.bots.search import ISMCTSBot, PIMCBot, SearchBot
from torite.engine.base import Action, Game, State
from torite.engine.registry import game_ids, make_game

TINY = {"iterations": 12}
SHORT_GAME: dict[str, dict[str, Any]] = {"glapgos": {"target": 250}}


def _bots(game: Game, cls: type[SearchBot], seed: int, **kw: Any) -> list[SearchBot]:
    return [cls(game, s, random.Random(seed * 10 + s), **(TINY | kw)) for s in range(game.num_players)]


def _play(game: Game, state: State, bots: list[SearchBot]) -> list[tuple[int, Action]]:
    moves = []
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = bots[seat].act(state.observation(seat), legal)
        assert action in legal
        moves.append((seat, action))
        state.apply(seat, action)
    return moves


def test_search_levels_are_registered() -> None:
    for name in ("hard", "expert", "ismcts", "pimc"):
        assert name in BOT_NAMES
        bot = make_bot(name, make_game(game_ids()[0]), 0, 1)
        assert isinstance(bot, SearchBot)
        assert bot.name == name


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_search_bot_plays_legal_actions_through_a_whole_game(game_id: str, cls: type[SearchBot]) -> None:
    # Galapagos to 250, not 500: two or three deals still cross a deal's end and the game's (to 500
    # it was five deals and a quarter of the suite's time, for nothing a shorter game misses)
    game = make_game(game_id, SHORT_GAME.get(game_id, {}))
    state = game.new_state(seed=5)
    _play(game, state, _bots(game, cls, 5))
    assert state.is_over()
    assert len(state.result().round_scores) >= 1
    if game_id in SHORT_GAME:
        assert len(state.result().round_scores) >= 2  # still more than one deal


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("rollout", ["rule", "mixed"])
def test_rule_of_thumb_rollouts_play_legal_rounds(game_id: str, rollout: str) -> None:
    game = make_game(game_id)
    state = game.new_state(seed=8, max_rounds=1)
    _play(game, state, _bots(game, ISMCTSBot, 8, iterations=4, rollout=rollout))
    assert state.is_over()


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_same_seed_same_decisions(game_id: str, cls: type[SearchBot]) -> None:
    game = make_game(game_id)
    first = _play(game, game.new_state(seed=21, max_rounds=1), _bots(game, cls, 3))
    again = _play(game, game.new_state(seed=21, max_rounds=1), _bots(game, cls, 3))
    assert first == again


def test_a_work_budget_is_deterministic_and_caps_the_iterations() -> None:
    game = make_game(game_ids()[0])
    state = game.new_state(seed=4, max_rounds=1)
    seat = state.to_act()[0]
    obs, legal = state.observation(seat), state.legal_actions(seat)
    a = ISMCTSBot(game, seat, random.Random(1), iterations=10**6, work=3000)
    b = ISMCTSBot(game, seat, random.Random(1), iterations=10**6, work=3000)
    assert a.act(obs, legal) == b.act(obs, legal)
    assert 0 < a.last_iterations == b.last_iterations < 3000


def test_a_single_legal_action_is_returned_without_search() -> None:
    game = make_game(game_ids()[0])
    bot = ISMCTSBot(game, 0, random.Random(0), iterations=10**6)
    only = Action("pass")
    assert bot.act({}, [only]) is only  # not even the observation is read
    assert bot.last_iterations == 0


# ------------------------------------------------------------------ only the observation
def _mid_round(game: Game, seed: int, decisions: int) -> State:
    """The state after ``decisions`` random decisions, or, in a game that ends sooner (Bid and
    Call may end after three passes), the last state before its end."""
    state = game.new_state(seed=seed, max_rounds=1)
    rng = random.Random(seed)
    for _ in range(decisions):
        seat = state.to_act()[0]
        after = state.clone()
        after.apply(seat, rng.choice(state.legal_actions(seat)))
        if after.is_over():
            break
        state = after
    return state


def _states_reachable(root: object) -> list[State]:
    """Every State reachable from ``root`` through containers and instance attributes
    (not through classes, modules or functions, which reach the whole program)."""
    found: list[State] = []
    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type) or (callable(obj) and not hasattr(obj, "__dict__")):
            continue
        seen.add(id(obj))
        if isinstance(obj, State):
            found.append(obj)
        if isinstance(obj, dict | list | tuple | set | frozenset):
            todo.extend(gc.get_referents(obj))
        elif hasattr(obj, "__dict__") and not isinstance(obj, type):
            todo.append(vars(obj))
            for slot in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, slot):
                    todo.append(getattr(obj, slot))
    return found


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_a_bot_decides_from_the_observation_alone(game_id: str, cls: type[SearchBot]) -> None:
    game = make_game(game_id)
    for decisions in (0, 7, 20):
        state = _mid_round(game, 30 + decisions, decisions)
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        obs = json.loads(json.dumps(state.observation(seat)))  # plain data, no live references
        expected = cls(game, seat, random.Random(99), iterations=40).act(obs, legal)

        # another deal the seat cannot tell apart: the same observation, the same decision
        other = game.determinizer(obs).sample(random.Random(decisions))
        assert json.loads(json.dumps(other.observation(seat))) == obs
        assert cls(game, seat, random.Random(99), iterations=40).act(other.observation(seat), legal) == expected

        # poison the real state: any read of it would now fail or mislead
        _poison(state)
        assert cls(game, seat, random.Random(99), iterations=40).act(obs, legal) == expected


def _poison(state: Any) -> None:
    """Empty every list of a kit state and give it a phase no game has (its attributes keep
    their types: compiled, a state takes no other), and clear any instance dict."""
    for name in ("hands", "trick", "trick_seats", "voids", "history", "scores", "round_scores", "round_points",
                 "tricks_won"):
        getattr(state, name).clear()
    state.phase = "poisoned"
    extra = getattr(state, "__dict__", None)
    if extra:
        extra.clear()


@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_a_bot_keeps_no_state_but_its_own_samples(cls: type[SearchBot], monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game(game_ids()[0])
    state = _mid_round(game, 2, 5)
    sampled: list[int] = []
    real_determinizer = type(game).determinizer

    def spying_determinizer(self: Game, obs: Any) -> Any:
        inner = real_determinizer(self, obs)

        class Spy:
            def sample(self, rng: random.Random) -> State:
                st = inner.sample(rng)
                sampled.append(id(st))
                return st

        return Spy()

    monkeypatch.setattr(type(game), "determinizer", spying_determinizer)
    seat = state.to_act()[0]
    bot = cls(game, seat, random.Random(3), iterations=30)
    bot.act(state.observation(seat), state.legal_actions(seat))
    assert sampled
    assert _states_reachable({"x": [(0, state)]}) == [state]  # the walk does find a held state
    held = _states_reachable(bot)
    assert all(id(s) in sampled for s in held)
    assert state not in held
    assert held == []  # nothing outlives the decision


# ------------------------------------------------------------------ a winning move
def _diamond_trick_position() -> tuple[Game, State]:
    """Seat 1 leads K♦, seat 2 follows 10♦; seat 0, last to play and without a joker, holds
    A♦ (wins 37 points) and 2♦ (gives them to seat 1)."""
    game = make_game("trick-of-the-dead")
    deal = {
        "hands": [["AD", "2D", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "2S", "3S", "4S", "5S", "6S", "7S", "8S"],
                  ["KD", "3D", "4D", "5D", "9C", "10C", "JC", "QC", "KC", "AC", "9S", "10S", "JS", "QS", "KS", "AS"],
                  ["10D", "6D", "7D", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]],
        "graveyard": ["8D", "9D", "JD", "QD", "JK1", "JK2"],
    }
    state = game.new_state(seed=1, dealer=0, max_rounds=1, deals=[deal])
    for seat, text in ((0, "bury 2C 3C"), (1, "bury 9C 10C"), (2, "bury 2H 3H"),
                       (1, "play KD"), (2, "play 10D")):
        state.apply_text(seat, text)
    return game, state


@pytest.mark.skipif("trick-of-the-dead" not in game_ids(), reason="needs Trick of the Dead")
@pytest.mark.parametrize("cls", [ISMCTSBot, PIMCBot])
def test_search_takes_a_rich_diamond_trick_with_the_winning_card(cls: type[SearchBot]) -> None:
    game, state = _diamond_trick_position()
    assert state.to_act() == (0,)
    legal = state.legal_actions(0)
    assert sorted(map(str, legal)) == ["play 2D", "play AD"]
    for seed in range(3):
        bot = cls(game, 0, random.Random(seed), iterations=200)
        assert str(bot.act(state.observation(0), legal)) == "play AD"


def test_in_the_games_rule_bot_phases_the_search_levels_play_the_rule_bot() -> None:
    """Mighty's election is left to the rules of thumb (``RULE_BOT_PHASES``); its card play is
    searched."""
    game = make_game("mighty")
    assert "bid" in game.RULE_BOT_PHASES and "play" not in game.RULE_BOT_PHASES
    state = game.new_state(5)
    seat = state.to_act()[0]
    obs, legal = state.observation(seat), state.legal_actions(seat)
    assert obs["phase"] == "bid" and len(legal) > 1
    bot = ISMCTSBot(game, seat, random.Random(1), iterations=50)
    rule = game.rule_bot(seat, random.Random(2))
    assert bot.act(obs, legal) == rule.act(obs, legal) and bot.last_iterations == 0
    while state.observation(state.to_act()[0])["phase"] != "play":
        s = state.to_act()[0]
        state.apply(s, game.rule_bot(s, random.Random(3)).act(state.observation(s), state.legal_actions(s)))
    s = state.to_act()[0]
    searcher = ISMCTSBot(game, s, random.Random(1), iterations=50)
    searcher.act(state.observation(s), state.legal_actions(s))
    assert searcher.last_iterations > 0 or len(state.legal_actions(s)) == 1
