"""Fixed-size numbers for any torite game: an observation vector and an enumerated action space.

Research frameworks want a tensor of one fixed shape per game and a fixed set of action ids
with a legality mask.  torite games speak JSON-ready observations and actions such as
``play 10D`` or ``bury QC KC``.  This module derives both encodings *from the game's published
description* (``game.schema()``: its declared phases, the forms of their actions, its piles,
fields and views), so a game registered tomorrow is covered with no code here, every action a
game can ever offer has an id, and the layout is the same for every seed.

**The action space.**  An action is ``kind`` + a set of cards + an argument.  Each declared
action form gives blocks of ids: a card (``play``) one id per card of the deck; several cards
(``bury``) one per ``n``-card set, ranked by the combinatorial number system over the deck's
cards in index order, or, for sets of one rank (Galapagos' pairs), one per such set in the same
order; a word with an argument (``trump S``) or a bid (``bid 15 H``) one id per argument.  The
blocks are ordered by kind, card count and argument text.  There are no other ids: an action
outside the space is a bug of the game's declarations (the conformance suite checks every legal
action is declared), and raises ``KeyError`` with its text.

**The observation vector** (``float32``), segments in this order (``N`` seats, ``D`` deck cards
in index order, ``S`` = 5 suits C D H S and joker/none; "one-hot" segments are all zero for
``None``):

====================  ==========  ==================================================
segment               size        content
====================  ==========  ==================================================
``seat``              N           one-hot: the observing seat
``phase``             P+1         one-hot over the declared phases, last = game over
``to_act``            N           seats deciding now
``turn``              N           one-hot
``dealer``            N           one-hot
``leader``            N           one-hot: the current trick's leader
``round``             1           the round number
``led``               S           one-hot: the suit led to the current trick
``hand``              D           the seat's hand
``hand_sizes``        N           cards held by each seat
``scores``            N           game totals
``round_points``      N           points of the round so far
``tricks_won``        N           tricks won this round
``voids``             N x S       suits each seat has shown it lacks
``trick``             N x D       the current trick: the card each seat played
``played``            N x D       every card each seat played this round (finished tricks)
``won``               N x D       the cards of the tricks each seat won this round
``tricks_played``     1           finished tricks this round
``trick.<key>``       D           the cards a declared trick slot (a flag or a card) or trick
                                  fact (a card) marks in this round's finished tricks
``trick.now.<key>``   D           the same in the current trick (trick slots)
``<key>``             varies      every declared pile, field, view and role, by its kind:
                                  int or bool 1; seat or a number that may be None 2
                                  (present, value); card D one-hot; suit S one-hot; a word
                                  one-hot over its declared values + 1 "another"; a contract
                                  one-hot over the game's contracts + 1; cards, card texts
                                  and a seen pile D (+1: count of face-down entries); per-seat
                                  cards N x D; per-seat numbers or flags N
====================  ==========  ==================================================

Left out: ``game``, ``options`` (constant), ``stats`` (totals for statisticians),
``round_scores`` (earlier rounds; ``scores`` sums them), ``num_players``, ``max_rounds``,
``winning`` (derived from the trick), a pile nobody ever sees (its size is kept), free text and
lists of other shapes (an auction's calls).  :func:`describe` lists a game's segments with
offsets; ``docs/research.md`` prints them for the shipped games.  Values are raw (points are
points), not normalised.

**Kept up to date.**  :meth:`ObsSpec.encode` encodes an observation whole; an environment asks
for one at every step, so the adapters keep each seat's vector with a :class:`Tracker`, which
writes only what changed since it was last asked (each finished trick read once, the rest
compared with what the vector holds) and equals the whole encoding at every step.

The parts are modules of their own: the action ids in :mod:`torite.adapters.actionspace`, the
observation layout in :mod:`torite.adapters.obsspec`, the tracker in
:mod:`torite.adapters.tracker`; this module pairs them for a game (:func:`spec`) and every name
the adapters and tests use is importable from here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from torite.adapters.actionspace import ActionSpace, all_card_sets
from torite.adapters.obsspec import NSUITS, OBS_BOUND, ObsSpec, Vector
from torite.adapters.tracker import Tracker
from torite.engine.kit import TrickGame
from torite.engine.registry import make_game

__all__ = ["NSUITS", "OBS_BOUND", "ActionSpace", "GameSpec", "ObsSpec", "Tracker", "Vector", "all_card_sets",
           "describe", "options_key", "spec"]


def options_key(options: Mapping[str, Any]) -> str:
    return json.dumps(dict(options), sort_keys=True)


# --------------------------------------------------------------------------- the spec
@dataclass
class GameSpec:
    """A game with fixed options and its encodings."""

    game: TrickGame
    deck: list[int]
    actions: ActionSpace
    obs: ObsSpec

    def tracker(self, seat: int | None) -> Tracker:
        """A new :class:`Tracker` of ``seat``'s observation vector (``None``: a spectator's)."""
        return Tracker(self.obs, seat)


@functools.lru_cache(maxsize=64)
def _spec(game_id: str, key: str) -> GameSpec:
    game = make_game(game_id, json.loads(key))
    if not isinstance(game, TrickGame):
        raise TypeError(f"{game_id} publishes no schema: the encodings need a game on the kit")
    deck = sorted(game.deck)
    return GameSpec(game, deck, ActionSpace.of(game, deck), ObsSpec(game, deck))


def spec(game_id: str, options: Mapping[str, Any] | None = None) -> GameSpec:
    """The encodings of ``game_id`` under ``options`` (validated; cached per options)."""
    game = make_game(game_id, options or {})
    return _spec(game_id, options_key(game.options))


def describe(game_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The layout of a game's encodings, for documentation."""
    sp = spec(game_id, options)
    d = len(sp.deck)
    return {
        "game": game_id,
        "options": sp.game.options,
        "players": sp.game.num_players,
        "deck": d,
        "observation_size": sp.obs.size,
        "segments": [{"name": n, "offset": o, "size": s, "content": w} for n, o, s, w in sp.obs.segments],
        "skipped_keys": sp.obs.skipped,
        "action_space": sp.actions.size,
        "action_blocks": [{"kind": b.kind, "cards": b.n, "arg": b.arg, "offset": off, "size": b.size(d)}
                          for b, off in zip(sp.actions.blocks, sp.actions.offsets)],
    }
