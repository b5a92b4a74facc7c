"""``torite play --resume RECORD``: an unfinished game's record, played on from where it stopped.

Why the bots decide every recorded move again: a bot keeps a generator seeded at the table
(``derive_seed(seed, "bot", seat)``) and, for some, what it has seen; a bot made afresh would
carry on from its first draw and play another game than the one left off.  So each recorded
move of a bot is decided again (and must be the move recorded: a record from another version of
the bots, or edited, is refused) before the recorded move is applied, and the resumed game is
the very game that an unbroken one would have been.  A person's moves are applied as recorded.

Everything is checked before anything is shown: a bad record gives a clear error and nothing is
played (nor saved over it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from torite.bots import BotError, make_bot
from torite.engine.base import Game, IllegalAction, State
from torite.engine.bot import Bot
from torite.engine.driver import decide
from torite.record import Record, RecordError, check_action
from torite.seeds import derive_seed

#: the name a person's seat has in a table's record
PERSON = "you"


@dataclass
class Resumed:
    """A record replayed to where it stopped: the game, its state, the person's seat, the bots
    (caught up with their moves) and the record to go on writing (saved back to ``path``)."""

    path: Path
    record: Record
    game: Game
    state: State
    human: int
    bots: dict[int, Bot]

    @property
    def levels(self) -> list[str | None]:
        return [None if s == self.human else self.record.seats[s][4:] for s in range(self.game.num_players)]


def find_record(where: str | Path) -> Path:
    """The record to resume: a file, or the newest unfinished table record in a folder."""
    p = Path(where)
    if p.is_dir():
        found = []
        for f in p.glob("*.json"):
            try:
                rec = Record.load(f)
            except RecordError:
                continue
            if rec.result is None and PERSON in rec.seats:
                found.append((f.stat().st_mtime, f.name, f))
        if not found:
            raise RecordError(f"{p} holds no unfinished game of the table to resume")
        return max(found)[2]
    if not p.exists():
        raise RecordError(f"cannot read {p}: no such file")
    return p


def resume(where: str | Path) -> Resumed:
    """Load and replay an unfinished table record (see the module docstring); RecordError
    (saying what is wrong) when it cannot be resumed."""
    path = find_record(where)
    rec = Record.load(path)
    if rec.result is not None:
        raise RecordError(f"{path}: the game is over; there is nothing to resume (replay it with torite replay)")
    if rec.seed is None:
        raise RecordError(f"{path}: the record has no seed, so its bots cannot be made again")
    mine = [s for s, name in enumerate(rec.seats) if name == PERSON]
    if len(mine) != 1:
        raise RecordError(f"{path}: not a record of the table (one seat must be {PERSON!r}, "
                          f"the others bot:LEVEL; it has {rec.seats})")
    human = mine[0]
    game, state = rec.new_game()
    bots: dict[int, Bot] = {}
    for s, name in enumerate(rec.seats):
        if s == human:
            continue
        if not name.startswith("bot:"):
            raise RecordError(f"{path}: seat {s} is {name!r}, not a bot (bot:LEVEL)")
        try:
            bots[s] = make_bot(name[4:], game, s, derive_seed(rec.seed, "bot", s))
        except BotError as e:
            raise RecordError(f"{path}: seat {s}: {e}") from None
    for i, (seat, text) in enumerate(rec.actions):
        if seat in bots and not state.is_over() and seat in state.to_act():
            again = decide(state, seat, bots[seat])
            try:
                recorded = game.parse_action(text)
            except (IllegalAction, ValueError):
                recorded = None
            if recorded != again:
                raise RecordError.at(i, seat, text, f"the bot now plays {game.action_text(again)!r} here: the "
                                                    "record was made by other bots or changed, so the game "
                                                    "cannot go on as it was")
        check_action(state, i, seat, text)
    if state.is_over():
        raise RecordError(f"{path}: the game is over; there is nothing to resume (replay it with torite replay)")
    return Resumed(path, rec, game, state, human, bots)

