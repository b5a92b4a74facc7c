"""``openspiel-ismcts``: OpenSpiel's own Python ``ISMCTSBot`` playing a torite game through the
OpenSpiel adapter (:mod:`torite.adapters.openspiel`).

It is there to measure torite's search bots against the reference framework's on the same
deals (``torite arena hearts --bots hard,openspiel-ismcts``), not to be strong or fast.

A decision: the bot gets its seat's observation and the legal actions, like every torite bot.
It samples one full state from ``game.determinizer(obs)``, wraps it as a pyspiel state that
ends with the current round and returns each seat's return of that round (torite's own
search looks as far, for the same reasons: see :mod:`torite.bots.search`), and lets
``ISMCTSBot`` search from it.  Every world the search plays comes from the adapter's
``resample_from_infostate``, i.e. torite's determinizer on the observation alone, drawn from
this bot's seeded generator, so a decision is a function of the bot's seed and the
observation.  Budget: ``SIMULATIONS`` simulations, one random rollout each; the exploration
constant is the largest return of a round the game declares (``Game.bounds``: returns are in
the game's points).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from torite.engine.base import Action, Game
from torite.engine.bot import Bot


class OpenSpielISMCTS(Bot):
    """OpenSpiel's ISMCTS over the adapter (see the module docstring)."""

    name = "openspiel-ismcts"
    thinks = True
    SIMULATIONS = 200

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        try:
            from torite.adapters import openspiel as adapter
        except ImportError as e:  # pragma: no cover - pyspiel is a research extra
            raise RuntimeError("openspiel-ismcts needs OpenSpiel: pip install 'torite[research]'") from e
        self.adapter = adapter
        self._osgame: Any = None

    def _game(self, max_rounds: int) -> Any:
        if self._osgame is None or self._osgame.max_rounds != max_rounds:
            self._osgame = self.adapter.load(self.game.id, **self.game.options, max_rounds=max_rounds)
        return self._osgame

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        osgame = self._game(max(1, int(obs.get("max_rounds") or 1)))
        world = self.game.determinizer(obs).sample(random.Random(self.rng.getrandbits(63)))
        root = osgame.wrap(world, horizon=True)
        np_rng = np.random.RandomState(self.rng.getrandbits(32))
        worlds = random.Random(self.rng.getrandbits(63))
        low, high = self.game.bounds().returns(self.game.SCORE_SIGN)
        bot = ismcts.ISMCTSBot(osgame, mcts.RandomRolloutEvaluator(1, np_rng), max(abs(low), abs(high)),
                               self.SIMULATIONS, random_state=np_rng)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random))
        choice = int(bot.step(root))
        action: Action = osgame.spec.actions.action(choice, list(legal))
        if action not in legal:  # the sampled world shows this seat the same choices
            raise RuntimeError(f"openspiel-ismcts chose {action}, not among the legal actions")
        return action
