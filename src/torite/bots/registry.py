"""Bot names to bot objects."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from torite.engine.base import Action, Game
from torite.engine.bot import Bot, RandomBot


class BotError(ValueError):
    """An unknown bot name, or a bot list that does not fit the game."""


class EasyBot(Bot):
    """The rule-of-thumb bot, but a quarter of its decisions are random: beatable on purpose."""

    name = "easy"
    MISTAKE_RATE = 0.25

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        self.inner: Bot = game.rule_bot(seat, rng)

    def act(self, obs: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self.rng.random() < self.MISTAKE_RATE:
            skips = self.game.BOT_SKIPS
            pick = [a for a in legal if a.kind not in skips] or list(legal) if skips else legal
            return pick[self.rng.randrange(len(pick))]
        return self.inner.act(obs, legal)


BotFactory = Callable[[Game, int, random.Random], Bot]

_FACTORIES: dict[str, BotFactory] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": lambda game, seat, rng: game.rule_bot(seat, rng),
    "openspiel-ismcts": lambda game, seat, rng: _openspiel_ismcts(game, seat, rng),
    "learned": lambda game, seat, rng: _learned(game, seat, rng),
}


def _learned(game: Game, seat: int, rng: random.Random) -> Bot:
    """The trained policy of ``game`` (numpy at run time; only games with a policy file)."""
    from torite.bots.learned import LearnedBot

    return LearnedBot(game, seat, rng)


def _openspiel_ismcts(game: Game, seat: int, rng: random.Random) -> Bot:
    """OpenSpiel's ISMCTS through the adapter; imported on use (OpenSpiel is a research extra)."""
    from torite.bots.openspiel_ismcts import OpenSpielISMCTS

    return OpenSpielISMCTS(game, seat, rng)

BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def register_bot(name: str, factory: BotFactory) -> None:
    global BOT_NAMES
    _FACTORIES[name] = factory
    BOT_NAMES = tuple(_FACTORIES)


def make_bot(name: str, game: Game, seat: int, rng: random.Random | int) -> Bot:
    factory = _FACTORIES.get(name)
    if factory is None:
        raise BotError(f"unknown bot {name!r} (bots: {', '.join(_FACTORIES)})")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    return factory(game, seat, rng)


#: bots that read no house rule: random play, and the trained policy (trained on the defaults)
_READ_NONE = frozenset({"random", "learned"})


def house_rules_read(name: str, game: type[Game] | Game) -> frozenset[str]:
    """The house rules (``Game.house_rules``) bot ``name`` reads, so that a changed value changes
    its play: the rule-of-thumb levels (``normal``, ``easy``) those their game declares
    (``Game.BOT_READS``), ``random`` and ``learned`` none, and the searches every one (they
    score their rollouts by the game's own rules)."""
    every = frozenset(s.name for s in game.house_rules())
    if name in _READ_NONE:
        return frozenset()
    if name in ("normal", "easy"):
        return game.BOT_READS & every
    return every


def parse_bots(text: str | Sequence[str], count: int) -> list[str]:
    """``"normal"`` or ``"hard,normal,random"`` → exactly ``count`` bot names.

    One name fills every seat; otherwise the list must have exactly ``count`` names.
    """
    names = [x.strip() for x in text.split(",")] if isinstance(text, str) else list(text)
    names = [x for x in names if x]
    for x in names:
        if x not in _FACTORIES:
            raise BotError(f"unknown bot {x!r} (bots: {', '.join(_FACTORIES)})")
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise BotError(f"{len(names)} bots named for {count} seats")
    return names
