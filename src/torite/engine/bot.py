"""What a player program is: it sees an observation and the legal actions, never the state.

This lives in the engine (not in ``torite.bots``) so that each game's rule-of-thumb bot can be
written inside its rules package.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from torite.engine.base import Action, Game


class Reason(NamedTuple):
    """Why a bot chose what it chose, in one line: a key of the labels' ``hints`` (which say it in
    each language) and what it names (``{"card": "QS", "higher": 2}``).  A rule-of-thumb bot
    sets it as it decides, so the table's hint can teach the rule, not only the move."""

    key: str
    data: Mapping[str, Any] = {}


# Compiled, a native class: a game's bot or a test's may still be an interpreted subclass.  Every
# compiled bot class allows interpreted subclasses, its own too: a server pickles each bot to the
# worker process that keeps it (``torite.server.bots``), and only then does mypyc's ``__new__``
# leave ``__init__`` (which wants the game) to Python, so that pickle can rebuild the bot.
# (``serializable=True`` would do that too, but mypyc then never calls the ``__init__`` of a
# subclass that writes its own: mypyc/mypyc#979.)
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot(ABC):
    """A player.  ``act`` gets only what its seat may know."""

    name: str = "bot"
    #: False for a bot that ignores the observation, so drivers may skip building it.
    uses_observation: bool = True
    #: True for a bot whose decisions may take long (a search: tenths of a second and more), so a
    #: server can keep them apart from the quick rule-of-thumb decisions that people wait on.
    thinks: bool = False
    #: True for a bot that keeps nothing between decisions but its generator ``rng``: one made
    #: for an earlier game plays the next as a new one would once ``rng`` is reseeded, so the
    #: simulator keeps it from game to game (``torite.sim``)
    stateless: bool = False

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        #: the reason for the last ``act``'s choice (None: the bot gives none)
        self.reason: Reason | None = None

    @abstractmethod
    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` (never empty) given the seat's observation."""


@mypyc_attr(allow_interpreted_subclasses=True)  # see Bot: pickled to a server's worker
class RandomBot(Bot):
    """Uniform over the legal actions at each decision."""

    name = "random"
    uses_observation = False
    stateless = True

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        # ``self.rng.randrange(n)`` written out (its ``_randbelow``): the same draws, two
        # Python calls less a decision
        n = len(legal)
        getrandbits = self.rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]
