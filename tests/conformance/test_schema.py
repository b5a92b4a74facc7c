"""The published description (``game.schema()``) is true to the game: JSON, the same for every
seed and instance, every phase met is declared with the forms of the actions it offers, every
legal action is one the schema lists, and every observation key is declared."""

from __future__ import annotations

import json
import random

from torite.engine.kit import TrickGame, TrickState
from torite.engine.kit.schema import COMMON_KEYS, SCHEMA_VERSION
from torite.engine.phases import all_actions

from .harness import Case, RandomPlay, viewers

SEEDS = 2


def declared_keys(game: TrickGame) -> set[str]:
    keys = {k for k, _ in COMMON_KEYS}
    for p in game.PILES:
        keys |= {p.name, p.name + "_size"}
    keys |= {f.obs_key for f in game.FIELDS} | {v.key for v in game.VIEWS}
    for r in game.ROLES:
        keys |= {r.attr, r.revealed_attr}
    return keys


def test_the_schema_is_json_versioned_and_the_same_for_every_instance(case: Case) -> None:
    game = case.game()
    assert isinstance(game, TrickGame)
    schema = game.schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema["schema_version"] == SCHEMA_VERSION and schema["id"] == game.id
    assert case.game().schema() == schema
    assert {o["name"]: o["value"] for o in schema["options"]} == game.options


def test_every_decision_is_declared_and_every_legal_action_is_listed(case: Case) -> None:
    game = case.game()
    assert isinstance(game, TrickGame)
    phases = {p.name: p for p in game.phases()}
    listed = set(all_actions(game.phases(), game.deck))
    unlisted: dict[str, str] = {}
    for seed in case.seeds(SEEDS):
        for state in RandomPlay(game.new_state(seed, max_rounds=2), random.Random(seed)):
            assert isinstance(state, TrickState)
            if state.is_over():
                break
            phase = phases.get(state.phase)
            assert phase is not None, f"phase {state.phase!r} is not declared"
            for seat in state.to_act():
                for a in state.legal_actions(seat):
                    if phase.template_of(a) is None or a not in listed:
                        unlisted.setdefault(f"{state.phase}: {a}", str(seed))
    assert not unlisted, f"legal actions the schema does not list: {sorted(unlisted)[:10]}"


def test_every_observation_key_is_declared(case: Case) -> None:
    game = case.game()
    assert isinstance(game, TrickGame)
    keys = declared_keys(game)
    seen: set[str] = set()
    for seed in case.seeds(1):
        for i, state in enumerate(RandomPlay(game.new_state(seed, max_rounds=1), random.Random(seed))):
            if i % 5:
                continue
            for viewer in viewers(state):
                seen |= set(state.observation(viewer))
    assert seen == keys, f"undeclared: {sorted(seen - keys)}; declared, never shown: {sorted(keys - seen)}"
