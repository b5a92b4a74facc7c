"""Game records: a JSON document that replays a game exactly.

Format (version 1)::

    {
      "format": "torite-record", "version": 1,
      "game": "trick-of-the-dead",
      "options": {"target": 100, ...},          # every option, defaults included
      "seed": 42,                               # drives every chance event not fixed by deals
      "dealer": 0,                              # optional: first dealer (else from the seed)
      "max_rounds": null,                       # optional: stop after this many rounds
      "first_round": 0,                         # optional: the number of the first round (0)
      "deals": [ {...}, ... ],                  # optional: explicit deals, round by round
      "seats": ["you", "bot:normal", "bot:random"],
      "actions": [{"seat": 1, "action": "bury QC KC"}, {"seat": 1, "action": "play 10D"}, ...],
      "hints": [0, 3, 0],                       # optional: hints each seat took at the table
      "result": {"scores": [...], "winners": [...], "round_scores": [[...], ...]}
    }

``hints`` counts, per seat, the hints a player asked the table for (the ``normal`` bot's
suggestion); it is absent when nobody took one, and replaying ignores it.

An explicit deal's fields are the game's own (its rules page says which); every hand and pile
is listed in order.  ``replay`` re-applies every action through the rules and recomputes the
result, so a record that was edited by hand is caught at the first action that breaks a rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from torite.engine.base import Game, IllegalAction, OptionError, State
from torite.engine.registry import make_game

FORMAT = "torite-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the action, seat and reason.

    An action that breaks a rule also carries them apart (``action``: its index, ``seat``,
    ``text``, ``reason``), so a page can say it in its reader's language."""

    def __init__(self, message: str, *, action: int | None = None, seat: int | None = None,
                 text: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.action, self.seat, self.text, self.reason = action, seat, text, reason

    @classmethod
    def at(cls, i: int, seat: int, text: str, reason: str) -> RecordError:
        """Action ``i`` (``seat``'s ``text``) breaks a rule: ``reason``."""
        return cls(f"action {i} (seat {seat}, {text!r}): {reason}", action=i, seat=seat, text=text, reason=reason)


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    seed: int | None
    seats: list[str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    dealer: int | None = None
    max_rounds: int | None = None
    deals: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    first_round: int = 0
    hints: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game,
                             "options": self.options, "seed": self.seed}
        if self.dealer is not None:
            d["dealer"] = self.dealer
        if self.max_rounds is not None:
            d["max_rounds"] = self.max_rounds
        if self.first_round:  # absent at 0, so records of whole games keep their form
            d["first_round"] = self.first_round
        if self.deals:
            d["deals"] = self.deals
        d["seats"] = self.seats
        d["actions"] = [{"seat": s, "action": a} for s, a in self.actions]
        if self.hints and any(self.hints):  # absent otherwise, so records without hints keep their form
            d["hints"] = list(self.hints)
        d["result"] = self.result
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.dumps() + "\n", encoding="utf-8")
        return p

    @classmethod
    def from_json(cls, d: Any) -> Record:
        if not isinstance(d, dict):
            raise RecordError("a record is a JSON object")
        if d.get("format") != FORMAT:
            raise RecordError(f"not a torite record (format must be {FORMAT!r})")
        if d.get("version") != VERSION:
            raise RecordError(f"unsupported record version {d.get('version')!r} (this torite reads {VERSION})")
        for key in ("game", "seats", "actions"):
            if key not in d:
                raise RecordError(f"record has no {key!r}")
        if not isinstance(d["game"], str):
            raise RecordError("'game' must be a game id")
        opts = d.get("options", {})
        if not isinstance(opts, dict):
            raise RecordError("'options' must be an object")
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError("'seed' must be an integer or null")
        if not isinstance(d["seats"], list) or not all(isinstance(s, str) for s in d["seats"]):
            raise RecordError("'seats' must be a list of names")
        actions: list[tuple[int, str]] = []
        if not isinstance(d["actions"], list):
            raise RecordError("'actions' must be a list")
        for i, a in enumerate(d["actions"]):
            if (not isinstance(a, dict) or not isinstance(a.get("seat"), int)
                    or not isinstance(a.get("action"), str)):
                raise RecordError(f"action {i}: must be {{'seat': int, 'action': text}}")
            actions.append((a["seat"], a["action"]))
        deals = d.get("deals", [])
        if not isinstance(deals, list) or not all(isinstance(x, dict) for x in deals):
            raise RecordError("'deals' must be a list of objects")
        for key in ("dealer", "max_rounds"):
            v = d.get(key)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise RecordError(f"{key!r} must be an integer or null")
        first = d.get("first_round", 0)
        if not isinstance(first, int) or isinstance(first, bool) or first < 0:
            raise RecordError("'first_round' must be an integer from 0")
        result = d.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("'result' must be an object or null")
        hints = d.get("hints")
        if hints is not None and (not isinstance(hints, list) or len(hints) != len(d["seats"]) or not all(
                isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in hints)):
            raise RecordError("'hints' must be a count from 0 for each seat")
        return cls(d["game"], dict(opts), seed, list(d["seats"]), actions, d.get("dealer"),
                   d.get("max_rounds"), list(deals), result, first, hints)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read {path}: {e.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"{path} is not JSON: {e}") from None
        return cls.from_json(data)

    def new_game(self) -> tuple[Game, State]:
        try:
            game = make_game(self.game, self.options)
        except OptionError as e:
            raise RecordError(str(e)) from None
        if len(self.seats) != game.num_players:
            raise RecordError(f"{len(self.seats)} seats for a {game.num_players}-player game")
        try:
            state = game.new_state(self.seed, dealer=self.dealer, max_rounds=self.max_rounds,
                                   deals=self.deals, first_round=self.first_round)
        except ValueError as e:
            raise RecordError(str(e)) from None
        return game, state


def start_record(game: Game, seed: int | None, seats: Sequence[str], *, dealer: int | None = None,
                 max_rounds: int | None = None, deals: Sequence[Mapping[str, Any]] = (),
                 first_round: int = 0) -> Record:
    return Record(game.id, dict(game.options), seed, list(seats), [], dealer, max_rounds,
                  [dict(x) for x in deals], None, first_round)


def check_action(state: State, i: int, seat: int, text: str) -> None:
    """Apply action ``i`` of a record (``seat``'s ``text``) to ``state``, or raise
    :class:`RecordError` naming it and the rule it breaks (``state`` unchanged then)."""
    if state.is_over():
        raise RecordError.at(i, seat, text, "the game is already over")
    if seat not in state.to_act():
        raise RecordError.at(i, seat, text, f"it is not seat {seat}'s decision "
                                            f"(to act: {', '.join(map(str, state.to_act()))})")
    try:
        state.apply_text(seat, text)
    except IllegalAction as e:
        raise RecordError.at(i, seat, text, str(e)) from None


def replay(record: Record, *, check_result: bool = True) -> State:
    """Re-apply every action; raise :class:`RecordError` naming the first one that fails."""
    _, state = record.new_game()
    for i, (seat, text) in enumerate(record.actions):
        check_action(state, i, seat, text)
    if check_result and record.result is not None:
        if not state.is_over():
            raise RecordError(f"the record claims a result but the game is not over after "
                              f"{len(record.actions)} actions")
        got = state.result().to_json()
        if got != record.result:
            raise RecordError(f"the recorded result {record.result} differs from the replayed one {got}")
    return state
