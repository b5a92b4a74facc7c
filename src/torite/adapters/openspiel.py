"""Every torite game as an OpenSpiel Python game: ``pyspiel.load_game("python_torite_<id>")``.

Importing this module registers each game of :func:`torite.engine.registry.game_ids` (ids with
``-`` written ``_``: ``python_torite_trick_of_the_dead``); :func:`register` adds a game
registered later.  Parameters are the game's options (defaults as in ``torite games``) plus
``max_rounds`` (default 1: one deal, as OpenSpiel's card games play; more for several rounds).

>>> import pyspiel, torite.adapters.openspiel
>>> game = pyspiel.load_game("python_torite_kaedama", {"max_rounds": 1, "blind": True})

The game.  Sequential and imperfect-information.  A simultaneous torite phase (Trick of the
Dead's burial) is serialised in ``to_act()`` order, each seat deciding on its own observation,
as torite's driver plays it.  Actions are the fixed action ids of
:mod:`torite.adapters.encoding` (``state.action_to_string`` gives torite's text).

Chance.  torite defines a deal by its seed: ``new_state(seed)`` shuffles, draws the dealer and
every later chance event from it.  So the chance nodes here are the seed: ``SEED_NODES`` chance
nodes of 256 equally likely outcomes each, one byte of a 32-bit seed.  That is exactly torite's
own distribution over 32-bit seeds, for every game and every round of it, whatever the game
draws.  Dealing card by card as chance outcomes would be exact over deals, but only for the
first deal of games whose deal is a plain shuffle into known places (not later rounds, not
games that draw during play), so it is not what this adapter does.

Information.  The information-state string of a seat is its torite observation as canonical
JSON: everything the seat may know, including the round's play history (every trick, who led,
voids shown); the tensor is the observation vector of :mod:`torite.adapters.encoding`, kept up
to date along the state's history by a tracker per player (cloned with the state).  The
observation string and tensor are the same (torite's observation is the information state of
the round; earlier rounds show as scores).  A public observer (``private_info=NONE``) gets a
spectator's observation; an all-players one is refused.  ``resample_from_infostate(player, sampler)`` draws
a full state from torite's determinizer, built from that observation alone: the hidden cards
dealt again consistent with every card seen, void shown and card pinned.

Returns are the game's (``Game.returns``: each round's points times ``SCORE_SIGN``, so every
player maximises its return; the Hearts yardstick's are OpenSpiel's ``26 - points`` a deal, so
``python_torite_hearts`` returns exactly what ``hearts`` returns), general-sum.  The bounds are
the ones the game declares from its rules (``Game.bounds``): ``min_utility`` / ``max_utility``
the least and greatest return of a round times ``max_rounds`` (Hearts: OpenSpiel's [0, 36]),
``max_game_length`` the most decisions of a round times ``max_rounds`` (Hearts: 64; the seed's
chance nodes are not decisions).  A round the rules may deal again without end (Mighty, when
all pass) is counted with ``THROWN_IN_DEALS`` deals thrown in.

States clone cheaply (``state.clone()`` clones the torite state), and OpenSpiel's C++ side,
which copies a Python state with ``copy.deepcopy``, gets the same clone (``__deepcopy__``):
states reached by play and resampled ones alike, on both builds (a torite state is copyable by
``copy``, ``copy.deepcopy`` and pickle, compiled too).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from torite.adapters.encoding import GameSpec, Tracker, Vector, spec
from torite.engine.base import Bounds, IllegalAction, State
from torite.engine.kit import TrickState
from torite.engine.registry import game_class, game_ids

SEED_NODES = 4
#: the chance of the adapter: the seed's bytes, or the first deal card by card
CHANCE_MODES = ("seed", "deal")
#: deals thrown in and dealt again that ``max_game_length`` allows a round (Mighty's rules deal
#: again as often as all pass: with its rule-of-thumb bots about 1 election in 14 is passed out)
THROWN_IN_DEALS = 8
PREFIX = "python_torite_"


def game_length(bounds: Bounds, rounds: int) -> int:
    """The most decisions ``rounds`` rounds can take (``max_game_length``)."""
    return rounds * (bounds.round_actions + THROWN_IN_DEALS * bounds.thrown_in_actions)


def short_name(game_id: str) -> str:
    return PREFIX + game_id.replace("-", "_")


class Node(NamedTuple):
    """One chance node before play begins: what it draws (``seed``: a byte of the seed;
    ``dealer``; ``word``: a key of the explicit deal; ``card``: the card at one place of the
    deal), and for a card the place (``hands[2]``, a pile), for a word its key and values."""

    kind: str
    place: str = ""
    values: tuple[str, ...] = ()


class Chance:
    """The chance nodes of a game before its first decision, and the state they make.

    ``seed`` (the default): ``SEED_NODES`` bytes of a 32-bit seed, 256 equally likely outcomes
    each, the seed of ``new_state``: exactly torite's own chance, for every game and round.
    ``deal``: as OpenSpiel's card games deal, one node per card: for each place of the first
    round's deal in turn (card k of the hands to hand k mod N, then the dealt piles, top first),
    the card, each of the cards not dealt yet equally likely (an outcome is the card's index in
    the deck); before the cards, the first dealer and the deal's words chance draws
    (``TrickGame.deal_chance``: Hearts' pass direction); after them, the seed's bytes, for what
    the game draws later (a shuffle, a redeal, the next rounds), when it does."""

    def __init__(self, sp: GameSpec, mode: str, rounds: int) -> None:
        if mode not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {mode!r}")
        self.spec, self.mode, self.rounds = sp, mode, rounds
        game = sp.game
        self.nodes: list[Node] = []
        self.later = True
        if mode == "deal":
            dc = game.deal_chance()
            if dc is None:
                raise ValueError(f"{game.id} cannot be dealt card by card (chance=deal): use chance=seed")
            if dc.dealer:
                self.nodes.append(Node("dealer"))
            self.nodes += [Node("word", key, values) for key, values in dc.words]
            n = game.num_players
            self.nodes += [Node("card", f"hands[{k % n}]") for k in range(n * game.hand_size)]
            self.nodes += [Node("card", p.name) for p, size in game.dealt_piles() for _ in range(size)]
            self.later = dc.later or rounds > 1
        if self.later:
            self.nodes += [Node("seed")] * SEED_NODES

    @property
    def max_outcomes(self) -> int:
        """The most outcomes a node has."""
        sizes = {"seed": 256, "dealer": self.spec.game.num_players, "card": len(self.spec.deck)}
        return max(len(node.values) if node.kind == "word" else sizes[node.kind] for node in self.nodes)

    def outcomes(self, drawn: list[int]) -> list[int]:
        """The outcomes of the next node after ``drawn``."""
        node = self.nodes[len(drawn)]
        if node.kind == "seed":
            return list(range(256))
        if node.kind == "dealer":
            return list(range(self.spec.game.num_players))
        if node.kind == "word":
            return list(range(len(node.values)))
        taken = {o for o, nd in zip(drawn, self.nodes) if nd.kind == "card"}
        return [i for i in range(len(self.spec.deck)) if i not in taken]

    def describe(self, drawn: list[int], outcome: int) -> str:
        """An outcome of the next node in words: ``dealer 2``, ``pass_direction left``,
        ``hands[1] 10D``, ``seed byte 3: 17``."""
        k = len(drawn)
        node = self.nodes[k] if k < len(self.nodes) else Node("seed")
        if node.kind == "dealer":
            return f"dealer {outcome}"
        if node.kind == "word" and 0 <= outcome < len(node.values):
            return f"{node.place} {node.values[outcome]}"
        if node.kind == "card" and 0 <= outcome < len(self.spec.deck):
            return f"{node.place} {self.spec.game.card_text(self.spec.deck[outcome])}"
        return f"seed byte {sum(1 for nd in self.nodes[:k] if nd.kind == 'seed')}: {outcome}"

    def state(self, drawn: list[int]) -> TrickState[Any]:
        """The torite state the chance outcomes ``drawn`` (all of them) make."""
        game = self.spec.game
        seed_bytes = [o for o, nd in zip(drawn, self.nodes) if nd.kind == "seed"]
        seed = int.from_bytes(bytes(seed_bytes), "big") if seed_bytes else 0
        if self.mode == "seed":
            return game.new_state(seed, max_rounds=self.rounds)
        dealer = None
        deal: dict[str, Any] = {"hands": [[] for _ in range(game.num_players)]}
        for o, node in zip(drawn, self.nodes):
            if node.kind == "dealer":
                dealer = o
            elif node.kind == "word":
                deal[node.place] = node.values[o]
            elif node.kind == "card":
                text = game.card_text(self.spec.deck[o])
                if node.place.startswith("hands["):
                    deal["hands"][int(node.place[6:-1])].append(text)
                else:
                    deal.setdefault(node.place, []).append(text)
        return game.new_state(seed, dealer=dealer, max_rounds=self.rounds, deals=[deal])


class ToriteGame(pyspiel.Game):  # type: ignore[misc]
    """One torite game with fixed options, as a pyspiel game."""

    GAME_ID = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.GAME_ID
        params = dict(params or {})
        rounds = int(params.pop("max_rounds", 1))
        mode = str(params.pop("chance", "seed"))
        if rounds < 1:
            raise ValueError("max_rounds must be at least 1")
        sp = spec(game_id, params)
        chance = Chance(sp, mode, rounds)
        n = sp.game.num_players
        bounds = sp.game.bounds()
        low, high = bounds.returns(sp.game.SCORE_SIGN)
        info = pyspiel.GameInfo(
            num_distinct_actions=sp.actions.size,
            max_chance_outcomes=chance.max_outcomes,
            num_players=n,
            min_utility=rounds * low,
            max_utility=rounds * high,
            utility_sum=None,
            # OpenSpiel bounds the chance nodes of a history by the game length too
            max_game_length=max(game_length(bounds, rounds), len(chance.nodes)))
        super().__init__(game_type(game_id), info, {**sp.game.options, "max_rounds": rounds, "chance": mode})
        # set after the pybind base is built: attributes set before it are lost
        self.torite_id = game_id
        self.max_rounds = rounds
        self.spec: GameSpec = sp
        self.chance = chance

    def new_initial_state(self) -> ToriteState:
        return ToriteState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ToriteObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = getattr(iig_obs_type, "private_info", None)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("torite observations never show every player's private cards")
        return ToriteObserver(self, public_only=private == pyspiel.PrivateInfoType.NONE)

    def wrap(self, state: State, *, horizon: bool = False) -> ToriteState:
        """A pyspiel state around a torite state (a sampled world, say), its chance resolved.
        With ``horizon`` the pyspiel state ends when the current round does, and its returns
        are those of the rounds scored from here (the current one): what a search deciding one
        round needs."""
        if not isinstance(state, TrickState):
            raise TypeError("the OpenSpiel adapter plays games on the kit")
        s = ToriteState(self)
        s.torite = state
        s.horizon_round = state.rounds_played if horizon else None
        s.base = state.rounds_played if horizon else 0
        return s


class _Info:
    """What a state needs of its game.  pyspiel may hand a state a fresh Python wrapper of the
    game (without the attributes set in ``ToriteGame.__init__``, e.g. when its C++ side clones a
    state), so it is found again from the game's name and parameters (cached)."""

    def __init__(self, spec: GameSpec, max_rounds: int, chance: Chance) -> None:
        self.spec = spec
        self.max_rounds = max_rounds
        self.chance = chance

    @staticmethod
    def of(game: Any) -> _Info:
        sp = getattr(game, "spec", None)
        if sp is not None:
            return _Info(sp, game.max_rounds, game.chance)
        params = dict(game.get_parameters())
        rounds = int(params.pop("max_rounds", 1))
        mode = str(params.pop("chance", "seed"))
        name = game.get_type().short_name
        ids = {short_name(g): g for g in game_ids()}
        found = spec(ids[name], params)
        return _Info(found, rounds, Chance(found, mode, rounds))


class ToriteState(pyspiel.State):  # type: ignore[misc]
    """A torite state behind the pyspiel protocol: chance picks the seed (or deals the cards),
    then torite plays."""

    def __init__(self, game: ToriteGame) -> None:
        super().__init__(game)
        self.tgame = _Info.of(game)
        self.drawn: list[int] = []  # the chance outcomes so far
        self.torite: TrickState[Any] | None = None
        self.horizon_round: int | None = None
        self.base = 0  # the rounds before the returns count
        self.moves: list[int] = []
        self._key: tuple[tuple[int, int], str] | None = None
        self.trackers: dict[int | None, Tracker] = {}

    # ------------------------------------------------------------------ protocol
    def _over(self) -> bool:
        t = self.torite
        if t is None:
            return False
        if t.is_over():
            return True
        return self.horizon_round is not None and t.rounds_played > self.horizon_round

    def current_player(self) -> int:
        if self.torite is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.torite.to_act()[0]

    def is_terminal(self) -> bool:
        return self._over()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.torite is None
        outcomes = self.tgame.chance.outcomes(self.drawn)
        return [(i, 1.0 / len(outcomes)) for i in outcomes]

    def _legal_actions(self, player: int) -> list[int]:
        t = self.torite
        if t is None or self._over() or player != t.to_act()[0]:
            return []
        legal = t.legal_actions(player)
        index = self.tgame.spec.actions.index
        return sorted(index(a, legal) for a in legal)

    def _apply_action(self, action: int) -> None:
        if self.torite is None:
            chance = self.tgame.chance
            if action not in chance.outcomes(self.drawn):
                raise ValueError(f"{action} is not an outcome of chance node {len(self.drawn)} "
                                 f"({chance.nodes[len(self.drawn)].kind})")
            self.moves.append(int(action))
            self.drawn.append(int(action))
            if len(self.drawn) == len(chance.nodes):
                self.torite = chance.state(self.drawn)
            return
        seat = self.torite.to_act()[0]
        space = self.tgame.spec.actions
        try:
            chosen = space.action(int(action))
        except KeyError as e:
            raise ValueError(str(e.args[0])) from None
        try:
            self.torite.apply(seat, chosen)
        except IllegalAction as e:
            raise ValueError(f"action {action} ({chosen}) is not legal for seat {seat} now: {e}") from None
        self.moves.append(int(action))

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's observation as canonical JSON (the observer's string), remembered until
        the next action: a search asks for it several times per node."""
        p = self.current_player() if player is None else player
        key = (len(self.moves), p)
        if self._key is None or self._key[0] != key:
            self._key = (key, _observation_string(self, p))
        return self._key[1]

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.tgame.chance.describe(self.drawn, int(action))
        t = self.torite
        legal = t.legal_actions(player) if t is not None and not t.is_over() else []
        try:
            return str(self.tgame.spec.actions.action(int(action), legal))
        except KeyError:
            return f"action {action}"

    def returns(self) -> list[float]:
        game = self.tgame.spec.game
        if self.torite is None or not self._over():
            return [0.0] * game.num_players
        return list(game.returns(self.torite.result(), since=self.base))

    def tensor(self, player: int | None) -> Vector:
        """The observation vector of ``player`` (None: a spectator's), from its tracker."""
        assert self.torite is not None
        tracker = self.trackers.get(player)
        if tracker is None:
            tracker = self.trackers[player] = self.tgame.spec.tracker(player)
        return tracker.update(self.torite)

    def clone(self) -> ToriteState:
        new = ToriteState(self.get_game())
        new.drawn = list(self.drawn)
        new.torite = self.torite.clone() if self.torite is not None else None
        new.horizon_round = self.horizon_round
        new.base = self.base
        new.moves = list(self.moves)
        new.trackers = {p: t.copy() for p, t in self.trackers.items()}
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> ToriteState:
        """How OpenSpiel's C++ side copies a Python state (``copy.deepcopy``; its ``Clone``):
        :meth:`clone`, which copies what play changes and shares the fixed game."""
        return self.clone()

    def history(self) -> list[int]:
        """The actions applied to this Python object (a resampled state starts its own)."""
        return list(self.moves)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ToriteState:
        """A state drawn from torite's determinizer, from ``player_id``'s observation alone."""
        t = self.torite
        if t is None:
            return self.clone()  # before the deal nothing is known: the chance state itself
        sampler = probability_sampler if callable(probability_sampler) else random.random
        seed = int(float(sampler()) * 2**53)
        world = t.game.determinizer(t.observation(player_id)).sample(random.Random(seed))
        assert isinstance(world, TrickState)
        new = ToriteState(self.get_game())
        new.drawn = list(self.drawn)
        new.torite = world
        new.horizon_round = self.horizon_round
        new.base = self.base
        return new

    def __str__(self) -> str:
        if self.torite is None:
            return f"dealing: chance outcomes {self.drawn}"
        return json.dumps(self.torite.observation(None), sort_keys=True, ensure_ascii=False)


class ToriteObserver:
    """The observer pyspiel asks for strings and tensors (information state and observation
    alike: the seat's torite observation; with ``public_only``, a spectator's, the same for
    every player)."""

    def __init__(self, game: ToriteGame, *, public_only: bool = False) -> None:
        self.game = game
        self.public_only = public_only
        self.tensor = np.zeros(game.spec.obs.size, np.float32)
        self.dict: dict[str, Any] = {
            name: self.tensor[offset:offset + size] for name, offset, size, _ in game.spec.obs.segments}

    def set_from(self, state: ToriteState, player: int) -> None:
        if state.torite is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.tensor(None if self.public_only else player)

    def string_from(self, state: ToriteState, player: int) -> str:
        return _observation_string(state, None if self.public_only else player)


def _observation_string(state: ToriteState, player: int | None) -> str:
    if state.torite is None:
        return f"seat {player}: dealing" if player is not None else "dealing"
    return json.dumps(state.torite.observation(player), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_type(game_id: str) -> Any:
    cls = game_class(game_id)
    params: dict[str, Any] = {o.name: o.default for o in cls.OPTIONS}
    params["max_rounds"] = 1
    params["chance"] = "seed"
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"torite {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


_REGISTERED: set[str] = set()


def register(game_id: str) -> str:
    """Register ``game_id`` with pyspiel (once); returns its short name."""
    name = short_name(game_id)
    if game_id not in _REGISTERED:
        # a class, not a closure: pyspiel keeps the factory until after the interpreter is
        # finalised, and a closure holding pyspiel objects then crashes the exit
        cls = type(f"Torite_{game_id.replace('-', '_')}", (ToriteGame,), {"GAME_ID": game_id})
        pyspiel.register_game(game_type(game_id), cls)
        _REGISTERED.add(game_id)
    return name


def load(game_id: str, **params: Any) -> ToriteGame:
    """``pyspiel.load_game`` of a torite game by its torite id."""
    register(game_id)
    game: ToriteGame = pyspiel.load_game(short_name(game_id), params)
    return game


def register_all() -> list[str]:
    return [register(g) for g in game_ids()]


register_all()

__all__ = ["ToriteGame", "ToriteObserver", "ToriteState", "load", "register", "register_all", "short_name"]
