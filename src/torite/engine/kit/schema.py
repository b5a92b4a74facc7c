"""``game.schema()``: one JSON description of a game under its options, read by every face.

Why one description: the research encodings, the server, the web and terminal tables and the
labels audit each need to know the same things – the deck, who sees which pile, what each
field holds, every decision and the form of its actions.  Each used to find them out for
itself (random exploration, JSON shapes, method-name prefixes); now the game declares them
once and this module publishes them.  ``docs/schema.md`` documents the format; its version is
:data:`SCHEMA_VERSION`, raised on any change a reader must know about.
"""

from __future__ import annotations

from typing import Any

from torite.engine.kit.gamedata import GameData

SCHEMA_VERSION = 1

#: the observation keys every kit game has, with their kinds (``docs/schema.md``)
COMMON_KEYS: tuple[tuple[str, str], ...] = (
    ("game", "str"), ("options", "options"), ("seat", "seat"), ("num_players", "int"), ("phase", "phase"),
    ("to_act", "seats"), ("turn", "seat"), ("round", "int"), ("max_rounds", "int"), ("dealer", "seat"),
    ("scores", "ints"), ("round_scores", "rounds"), ("round_points", "ints"), ("tricks_won", "ints"),
    ("hand", "cards"), ("hand_sizes", "ints"), ("leader", "seat"), ("led", "suit"), ("voids", "seat_suits"),
    ("tricks", "tricks"), ("stats", "stats"), ("trick", "trick"), ("winning", "seat"),
)


def _bounds(game: GameData) -> dict[str, Any]:
    b = game.bounds()
    return {"round_score": list(b.round_score), "round_actions": b.round_actions,
            "round_return": list(b.returns(game.SCORE_SIGN)), "thrown_in_actions": b.thrown_in_actions}


def schema(game: GameData) -> dict[str, Any]:
    """The description of ``game`` (its options fixed): JSON-ready, the same for every seed."""
    return {
        "schema_version": SCHEMA_VERSION,
        "id": game.id,
        "title": game.title,
        "players": game.num_players,
        "options": [{**s.describe(), "value": game.options[s.name]} for s in game.OPTIONS],
        "deck": {"cards": [game.card_text(c) for c in game.deck], "hand_size": game.hand_size},
        "phases": [p.describe() for p in game.phases()],
        "piles": [p.describe() for p in game.PILES],
        "fields": [f.describe() for f in game.FIELDS] + [v.describe() for v in game.VIEWS],
        "roles": [r.describe() for r in game.ROLES],
        "trick": {"slots": [t.describe() for t in game.TRICK_SLOTS],
                  "facts": [f.describe() for f in game.TRICK_FACTS],
                  "face_down": game.TRICK_FACE_DOWN is not None},
        "common": [{"key": k, "kind": kind} for k, kind in COMMON_KEYS],
        "stats": list(game.STAT_KEYS),
        "score_sign": game.SCORE_SIGN,
        "bounds": _bounds(game),
        "rule_bot_phases": sorted(game.RULE_BOT_PHASES),
    }
