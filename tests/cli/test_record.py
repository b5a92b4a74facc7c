"""Records replay exactly; a bad record names the action, the seat and the reason."""

import json
from pathlib import Path

import pytest

from torite.engine import make_game
from torite.record import Record, RecordError, replay
from torite.sim import play


def _record(seed: int = 5) -> Record:
    game = make_game("trick-of-the-dead", {"target": 40})
    _, rec, _ = play(game, ["normal", "random", "easy"], seed, keep_record=True)
    assert rec is not None
    return rec


def test_a_record_replays_to_the_same_result(tmp_path: Path) -> None:
    rec = _record()
    path = rec.save(tmp_path / "g.json")
    again = Record.load(path)
    state = replay(again)
    assert state.is_over()
    assert state.result().to_json() == rec.result
    assert again.to_json() == rec.to_json()


def test_an_illegal_action_names_index_seat_and_reason() -> None:
    rec = _record()
    i = next(k for k, (_, a) in enumerate(rec.actions) if a.startswith("play"))
    seat, _ = rec.actions[i]
    rec.actions[i] = (seat, "play ZZ")
    with pytest.raises(RecordError, match=rf"action {i} \(seat {seat}"):
        replay(rec)


def test_an_action_by_the_wrong_seat_is_caught() -> None:
    rec = _record()
    i = next(k for k, (_, a) in enumerate(rec.actions) if a.startswith("play"))
    seat, text = rec.actions[i]
    rec.actions[i] = ((seat + 1) % 3, text)
    with pytest.raises(RecordError, match=f"action {i}.*not seat"):
        replay(rec)


def test_a_tampered_result_is_caught() -> None:
    rec = _record()
    assert rec.result is not None
    rec.result = dict(rec.result, scores=[0, 0, 0])
    with pytest.raises(RecordError, match="differs"):
        replay(rec)


@pytest.mark.parametrize("doc", [
    [], {"format": "other"}, {"format": "torite-record", "version": 9},
    {"format": "torite-record", "version": 1, "game": "trick-of-the-dead", "seats": ["a"] * 3},
    {"format": "torite-record", "version": 1, "game": "chess", "seats": [], "actions": []},
    {"format": "torite-record", "version": 1, "game": "trick-of-the-dead", "seats": ["a"] * 2, "actions": []},
    {"format": "torite-record", "version": 1, "game": "trick-of-the-dead", "seats": ["a"] * 3,
     "actions": [{"seat": "x"}]},
    {"format": "torite-record", "version": 1, "game": "trick-of-the-dead", "seats": ["a"] * 3,
     "actions": [], "options": {"target": -1}},
    {"format": "torite-record", "version": 1, "game": "trick-of-the-dead", "seats": ["a"] * 3,
     "actions": [], "deals": [{"hands": []}]},
])
def test_malformed_records_are_refused_with_a_message(doc: object) -> None:
    with pytest.raises(RecordError):
        replay(Record.from_json(doc))


def test_unreadable_files_are_record_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match="not JSON"):
        Record.load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")


def test_record_json_is_plain_json() -> None:
    rec = _record()
    doc = json.loads(rec.dumps())
    assert doc["format"] == "torite-record" and doc["version"] == 1
    assert {"game", "options", "seed", "seats", "actions", "result"} <= set(doc)
    assert all(set(a) == {"seat", "action"} for a in doc["actions"])
