"""The OpenSpiel adapter: pyspiel's random simulation test on every registered game, chance as
the seed, information states from the observation, resampling from torite's determinizer, and
OpenSpiel's ISMCTSBot playing through it (also as the torite bot ``openspiel-ismcts``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from torite.adapters import openspiel as adapter  # noqa: E402
from torite.adapters.encoding import spec  # noqa: E402
from torite.bots import make_bot  # noqa: E402
from torite.bots.openspiel_ismcts import OpenSpielISMCTS  # noqa: E402
from torite.cli.main import main  # noqa: E402
from torite.engine import driver  # noqa: E402
from torite.engine.registry import game_ids, make_game  # noqa: E402

GAMES = game_ids()


def _dealt(game: object, seed: int) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for byte in seed.to_bytes(adapter.SEED_NODES, "big"):
        state.apply_action(byte)
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_pyspiel_random_simulation_test_passes(game_id: str) -> None:
    game = adapter.load(game_id)
    assert game.get_type().short_name == adapter.short_name(game_id)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_every_game_is_registered_under_its_name_with_its_options() -> None:
    names = set(pyspiel.registered_names())
    assert {adapter.short_name(g) for g in GAMES} <= names
    game = pyspiel.load_game("python_torite_trick_of_the_dead", {"players": 2, "max_rounds": 2})
    assert game.num_players() == 2 and game.get_parameters()["max_rounds"] == 2
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def test_the_chance_nodes_are_the_bytes_of_torites_seed() -> None:
    game = adapter.load("kaedama")
    state = game.new_initial_state()
    for _ in range(adapter.SEED_NODES):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(7)
    seed = int.from_bytes(bytes([7] * adapter.SEED_NODES), "big")
    torite = make_game("kaedama").new_state(seed, max_rounds=1)
    assert state.torite.observation(None) == torite.observation(None)
    assert state.current_player() == torite.to_act()[0]


@pytest.mark.parametrize("game_id", ["trick-of-the-dead", "kaedama", "hearts"])
def test_information_states_come_from_the_seat_observation_and_resampling_keeps_them(game_id: str) -> None:
    if game_id not in GAMES:
        pytest.skip(f"{game_id} is not registered")
    game = adapter.load(game_id)
    sp = spec(game_id)
    state = _dealt(game, 99)
    rng = random.Random(1)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    key = state.information_state_string(player)
    assert np.array_equal(np.asarray(state.information_state_tensor(player), np.float32),
                          sp.obs.encode(state.torite.observation(player)))
    hands = set()
    for k in range(8):
        world = state.resample_from_infostate(player, random.Random(k).random)
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
        other = (player + 1) % game.num_players()
        hands.add(str(world.torite.card_places().get(f"hands[{other}]")))
    assert len(hands) > 2, "the other seats' hidden cards are sampled anew"


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiels_ismcts_bot_plays_the_game_through_the_adapter(game_id: str) -> None:
    game = adapter.load(game_id)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 10.0, 6, random_state=rs)
    state = _dealt(game, 5)
    decisions = 0
    while not state.is_terminal() and decisions < 4:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 0


@pytest.fixture
def quick_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(OpenSpielISMCTS, "SIMULATIONS", 3)


def test_the_openspiel_ismcts_bot_is_a_torite_bot_deciding_from_the_observation(quick_bot: None) -> None:
    game = make_game("trick-of-the-dead")
    picks = []
    for _ in range(2):
        state = game.new_state(4, max_rounds=1)
        bots = {s: make_bot("openspiel-ismcts" if s == 0 else "random", game, s, 10 + s) for s in range(3)}
        log: list[str] = []
        driver.run(state, bots, on_action=lambda seat, a, _t, log=log: log.append(f"{seat}:{a}"))
        assert state.is_over()
        picks.append(log)
    assert picks[0] == picks[1], "the same seeds give the same game"


def test_torite_arena_runs_openspiel_ismcts_on_trick_of_the_dead(quick_bot: None,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "trick-of-the-dead", "--bots", "random,openspiel-ismcts", "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "openspiel-ismcts" in out and "random" in out


def test_an_illegal_action_id_is_refused_and_changes_nothing() -> None:
    game = adapter.load("kaedama")
    state = _dealt(game, 12)
    before = state.information_state_string(0)
    history = state.history()
    legal = set(state.legal_actions())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    with pytest.raises(Exception, match=r"not legal|outside|names no"):
        state.apply_action(illegal)
    assert state.information_state_string(0) == before and set(state.legal_actions()) == legal
    assert state.history() == history
    assert state.action_to_string(state.current_player(), min(legal)).startswith(("play", "pass", "replace"))


def test_a_public_observer_sees_what_a_spectator_sees_and_no_private_cards() -> None:
    from open_spiel.python.observation import make_observation

    game = adapter.load("hearts" if "hearts" in GAMES else "kaedama")
    state = _dealt(game, 21)
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    hand = spec(game.torite_id).obs.offset["hand"]
    assert not public.tensor[hand:hand + len(spec(game.torite_id).deck)].any()
    assert public.string_from(state, 0) == public.string_from(state, 1)
    with pytest.raises(ValueError, match="never"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_returns_and_bounds_are_the_games_declared_ones() -> None:
    """Returns are the game's (the points times the score's sign); the utility bounds and the
    game length are the bounds the game declares from its rules, times the rounds."""
    for game_id in ("trick-of-the-dead", "mighty"):
        game = adapter.load(game_id)
        state = _dealt(game, 8)
        rng = random.Random(2)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        torite_game = make_game(game_id)
        scores = state.torite.result().scores
        assert state.returns() == [float(torite_game.SCORE_SIGN * s) for s in scores]
        bounds = torite_game.bounds()
        low, high = bounds.returns(torite_game.SCORE_SIGN)
        three = adapter.load(game_id, max_rounds=3)
        assert (three.min_utility(), three.max_utility()) == (3 * low, 3 * high)
        assert three.max_game_length() == 3 * (bounds.round_actions + adapter.THROWN_IN_DEALS
                                                * bounds.thrown_in_actions)


def test_hearts_returns_bounds_and_length_are_openspiels() -> None:
    """``python_torite_hearts`` is OpenSpiel's ``hearts`` to an algorithm: returns 26 minus the
    points (a moon: 26 to the shooter, 0 to the others), utilities in [0, 36], 64 decisions."""
    ours, theirs = adapter.load("hearts"), pyspiel.load_game("hearts")
    assert (ours.min_utility(), ours.max_utility()) == (theirs.min_utility(), theirs.max_utility()) == (0, 36)
    assert ours.max_game_length() == theirs.max_game_length() == 64
    assert ours.get_type().utility == theirs.get_type().utility
    state = _dealt(ours, 8)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    points = state.torite.result().scores
    assert state.returns() == [26.0 - p for p in points] and sum(points) > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_dealing_card_by_card_as_chance_passes_the_random_simulation_test(game_id: str) -> None:
    """``chance=deal``: OpenSpiel's card games' chance, a node a card (and the dealer and the
    deal's words first, the seed after for what the game draws later); a game whose explicit
    deals cannot take every arrangement of the cards says so."""
    if make_game(game_id).deal_chance() is None:
        with pytest.raises(ValueError, match="card by card"):
            adapter.load(game_id, chance="deal")
        return
    game = adapter.load(game_id, chance="deal")
    # serialising replays the history, the same code as with the seed's chance (tested above)
    pyspiel.random_sim_test(game, num_sims=1, serialize=game_id == "hearts", verbose=False)


def test_the_cards_chance_deals_are_the_hands_and_piles_of_the_game() -> None:
    game = adapter.load("trick-of-the-dead", chance="deal")
    state = game.new_initial_state()
    nodes = game.chance.nodes
    assert [n.kind for n in nodes[:1]] == ["dealer"] and [n.kind for n in nodes[-adapter.SEED_NODES:]] == ["seed"] * 4
    rng = random.Random(4)
    drawn = []
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9
        pick = rng.choice(outcomes)
        drawn.append(pick)
        state.apply_action(pick)
    deck = game.spec.deck
    cards = [deck[o] for o, n in zip(drawn, nodes) if n.kind == "card"]
    assert sorted(cards) == sorted(deck)  # every card once
    places = state.torite.card_places()
    assert places["hands[0]"] == sum(1 << c for c in cards[0:48:3])
    assert places["graveyard"] == sum(1 << c for c in cards[48:])
    assert state.torite.dealer == drawn[0]
    hearts = adapter.load("hearts", chance="deal")
    assert [n.kind for n in hearts.chance.nodes] == ["word"] + ["card"] * 52  # OpenSpiel's own
    with pytest.raises(ValueError, match="chance must be"):
        adapter.load("hearts", chance="cards")
