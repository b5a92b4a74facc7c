"""The experiment behind ``torite compare``: every variant plays the same deals with the same bots.

Work comes in *deals*: deal ``i`` plays a *unit* for every variant, one after the other in one
worker, so the work spreads over the workers deal by deal (a slow bot's deals as well as a fast
one's) and each variant's games meet the reference's games in the same place.  A unit plays:

- **one whole game** between the table's bots (``--bots``), seeded ``derive_seed(seed,
  "compare-game", i)`` with its bots seeded from that game seed exactly as ``torite simulate``
  seeds them.  Every variant gets the same seed, so the same shuffles and the same bot random
  streams (common random numbers): as long as two variants' rules consume the game's random
  generator alike, round *k* of game *i* is dealt the same cards in both, and a difference
  between them is the rules', not the cards';
- **one duplicate deal** (unless the skill measure is off): a single round seeded
  ``derive_seed(seed, "compare-deal", i)`` with the dealer ``i mod n`` and round number ``i``,
  played once for each seating of the strong and the weak bot (the arena's seatings, each bot at
  least once), the bots of seating ``j`` seeded ``derive_seed(seed, "compare-bots", i, j)``.
  The same cards under every seating separate the players' part of a round's score from the
  cards' part (luck), and the strong bot's edge over the weak one (skill).

Each game a variant plays is compared with the reference's (the first variant's) game on the
same seeds, action by action: the same actions by the same seats and the same scores is the
*same game*, card for card (a bare ``pass`` is a declined decision: a variant that offers a
decision the reference does not, such as Kaedama's ``reverse`` offering the trick's winner a
replacement, adds passes and nothing else when it is declined); the same actions with other
scores is *the same play, other scores*; the same actions as long as both games lasted, one
going on after the other ended (other scores moved the end of a game played to a target), is
*the same play, another end*; anything else is *other play*, and the bot whose decision first
differs is named.  So a report can say that a rule never came into play with
some bots, and which bots did use it.

Results are folded in deal order whatever ``jobs`` is, so every number is a function of the seed,
the variants and the bots alone.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torite.arena import play_round, seatings
from torite.bots import make_bot
from torite.engine import driver
from torite.engine.base import Action, Game, OptionError
from torite.engine.registry import game_class, make_game
from torite.parallel import BackendInfo, ordered_map, start_backend
from torite.present import labels
from torite.seeds import derive_seed


class VariantError(ValueError):
    """A ``--variant`` that cannot be read or whose options the game refuses."""


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.+-]*$")


@dataclass(frozen=True)
class Variant:
    """A named set of option values; ``given`` holds only the values the designer wrote (the
    report names a variant by what it changes), ``options`` the game's full validated options."""

    name: str
    given: Mapping[str, Any]
    options: Mapping[str, Any]


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """``NAME:KEY=VALUE[,KEY=VALUE…]`` (or a bare ``NAME`` / ``NAME:`` for the game's defaults)
    → the name and the raw option texts.  Syntax only: the game checks the values."""
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not name:
        raise VariantError(f"variant {text!r}: start with a name, e.g. survival:survival=true")
    if not _NAME.match(name):
        raise VariantError(f"variant {text!r}: a name is letters, digits, spaces and _ . + - "
                           f"(starting with a letter or digit)")
    opts: dict[str, str] = {}
    if sep and rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or not key or not value.strip():
                raise VariantError(f"variant {name!r}: {part.strip()!r} is not KEY=VALUE "
                                   f"(write NAME:KEY=VALUE,KEY=VALUE)")
            if key in opts:
                raise VariantError(f"variant {name!r}: option {key} given twice")
            opts[key] = value.strip()
    return name, opts


def make_variants(game_id: str, specs: Sequence[str], common: Mapping[str, Any] | None = None) -> list[Variant]:
    """Read ``--variant`` texts into checked variants: each one's options are ``common`` with its
    own values over them.  Names must differ; every variant must seat as many players (a seat's
    numbers are compared seat by seat)."""
    game_class(game_id)  # an unknown game fails here, with the registry's message
    if not specs:
        raise VariantError("name at least one --variant, e.g. --variant base --variant survival:survival=true")
    out: list[Variant] = []
    seats: int | None = None
    for text in specs:
        name, raw = parse_variant(text)
        if any(v.name == name for v in out):
            raise VariantError(f"variant name {name!r} used twice")
        given: dict[str, Any] = {**(common or {}), **raw}
        try:
            game = make_game(game_id, given)
        except OptionError as e:
            raise VariantError(f"variant {name!r}: {e}") from None
        if seats is not None and game.num_players != seats:
            raise VariantError(f"variant {name!r} seats {game.num_players} players, the first seats {seats}: "
                               f"compare variants with the same number of players")
        seats = game.num_players
        out.append(Variant(name, {k: game.options[k] for k in raw}, dict(game.options)))
    return out


# a game against the reference's (module docstring)
SAME, SCORES, ENDS, PLAY = "same", "scores", "ends", "play"
DECLINE = "pass"  # a bare pass: a declined decision


@dataclass
class UnitData:
    """What one unit measured.  Per round of the whole game: ``round_points[k][seat]``,
    ``dealers[k]``, ``leaders[k]`` (the seat that played the round's first card; -1 if unknown) and
    ``leading[k]`` (the seats that would win if the game stopped after round ``k``: the game's own
    result rule).  ``stats``: the game's counters over the whole game.  ``duplicate[j][seat]``:
    the duplicate deal's points under seating ``j`` (empty when skill is off).  ``versus``: each
    game of the unit (the whole game first, then the duplicate deal's seatings) against the
    reference's same game: ``(SAME | SCORES | ENDS | PLAY, the bot whose decision first differs,
    with PLAY, else None)``."""

    deal: int
    variant: int
    round_points: list[tuple[int, ...]]
    dealers: list[int]
    leaders: list[int]
    leading: list[tuple[int, ...]]
    winners: tuple[int, ...]
    stats: dict[str, float]
    duplicate: list[tuple[int, ...]] = field(default_factory=list)
    versus: list[tuple[str, str | None]] = field(default_factory=list)
    cpu_seconds: float = 0.0  # processor time of the unit, in its worker (the machine's load aside)
    #: per round, the game's roles the round's first leader held as it played the first card (the
    #: table's role chips, seen by a spectator: president, declarer; not dealer or leader)
    leader_roles: list[tuple[str, ...]] = field(default_factory=list)


Move = tuple[int, str]  # (seat, action text)


def play_game(game: Game, bots: Sequence[str], seed: int, log: list[Move] | None = None,
              roles: list[tuple[str, ...]] | None = None) -> tuple[Any, list[tuple[int, ...]]]:
    """One whole game (bots seeded as ``torite simulate`` seeds them); returns the final state
    and the leading seats after every round.  ``log`` receives every action; ``roles``, round by
    round, the roles of the seat that played the round's first card (:func:`seat_roles`)."""
    state = game.new_state(seed)
    players = {s: make_bot(name, game, s, derive_seed(seed, "bot", s)) for s, name in enumerate(bots)}
    leading: list[tuple[int, ...]] = []
    words = labels.load(game, "en") if roles is not None else None

    def on_action(seat: int, action: Action, _seconds: float) -> None:
        if log is not None:
            log.append((seat, str(action)))
        if (words is not None and roles is not None and action.kind == "play" and len(roles) <= state.rounds_played
                and len(getattr(state, "trick", ())) == 1 and not getattr(state, "history", ())):  # its first card
            roles.extend([()] * (state.rounds_played - len(roles)))  # a round no card was played in
            roles.append(seat_roles(words, state, seat))
        if state.rounds_played > len(leading):
            leading.append(tuple(state.result().winners))

    driver.run(state, players, on_action=on_action)
    return state, leading


def seat_roles(words: labels.Labels, state: Any, seat: int) -> tuple[str, ...]:
    """The game's own roles ``seat`` holds now, as a spectator sees them: the table's role
    chips (the labels' ``roles``) other than the dealer's and the leader's."""
    own = {r.label for r in words.role_rows if r.seat not in ("dealer", "leader")}
    held = words.roles(state.observation(None))
    return tuple(r for r in held[seat] if r in own) if 0 <= seat < len(held) else ()


def versus(reference: Sequence[Move], moves: Sequence[Move], same_scores: bool,
           bots: Sequence[str]) -> tuple[str, str | None]:
    """A game against the reference's game on the same seeds (module docstring): ``SAME``,
    ``SCORES``, ``ENDS``, or ``PLAY`` with the bot (``bots[seat]``) whose decision first differs."""
    if list(moves) != list(reference):
        kept = [m for m in moves if m[1] != DECLINE]
        ref = [m for m in reference if m[1] != DECLINE]
        if kept != ref:
            i = next((i for i, (a, b) in enumerate(zip(kept, ref)) if a != b), None)
            if i is None:  # one game is the other's beginning: it ended earlier
                return ENDS, None
            return PLAY, bots[kept[i][0]]
    return (SAME if same_scores else SCORES), None


def _dealers_and_leaders(events: Sequence[Any]) -> tuple[list[int], list[int]]:
    """Each round's dealer (its ``round`` event) and the seat that played its first card (-1 for
    a round in which no ``play`` event shows: such rounds leave the leader's measure out)."""
    dealers: list[int] = []
    leaders: list[int] = []
    for e in events:
        if e.kind == "round":
            leaders.extend([-1] * (len(dealers) - len(leaders)))
            dealers.append(int(e.data.get("dealer", -1)))
        elif e.kind == "play" and len(leaders) < len(dealers):
            leaders.append(e.seat)
    leaders.extend([-1] * (len(dealers) - len(leaders)))
    return dealers, leaders


_Job = tuple[str, list[dict[str, Any]], list[str], tuple[str, str] | None, int, int]


def run_unit(game_id: str, options: Mapping[str, Any], bots: Sequence[str], skill: tuple[str, str] | None,
             seed: int, index: int, variant: int) -> tuple[UnitData, list[list[Move]], list[list[str]]]:
    """Play one variant's unit of deal ``index``; returns it, each of its games' actions (the whole
    game first, then the seatings of the duplicate deal) and each game's bot by seat."""
    cpu = time.process_time()
    game = make_game(game_id, dict(options))
    n = game.num_players
    logs: list[list[Move]] = [[]]
    roles: list[tuple[str, ...]] = []
    state, leading = play_game(game, bots, derive_seed(seed, "compare-game", index), logs[0], roles)
    res = state.result()
    dealers, leaders = _dealers_and_leaders(state.events)
    rounds = len(res.round_scores)
    dealers += [-1] * (rounds - len(dealers))
    leaders += [-1] * (rounds - len(leaders))
    unit = UnitData(index, variant, [tuple(r) for r in res.round_scores], dealers[:rounds], leaders[:rounds],
                    leading[:rounds], tuple(res.winners), state.stats(),
                    leader_roles=(roles + [()] * rounds)[:rounds])
    names = [list(bots)]
    if skill is not None:
        deal_seed = derive_seed(seed, "compare-deal", index)
        for j, seating in enumerate(seatings(2, n)):
            names.append([skill[b] for b in seating])
            logs.append([])
            unit.duplicate.append(play_round(game, names[-1], deal_seed, index % n,
                                             derive_seed(seed, "compare-bots", index, j), first_round=index,
                                             log=logs[-1]))
    unit.cpu_seconds = time.process_time() - cpu
    return unit, logs, names


def run_deal(job: _Job) -> list[UnitData]:
    """Play deal ``index`` for every variant and compare each game with the reference's (module
    level, so that worker processes can run it)."""
    game_id, options, bots, skill, seed, index = job
    units: list[UnitData] = []
    ref_logs: list[list[Move]] = []
    ref_points: list[Any] = []
    for k, opts in enumerate(options):
        unit, logs, names = run_unit(game_id, opts, bots, skill, seed, index, k)
        points: list[Any] = [unit.round_points, *unit.duplicate]
        if k == 0:
            ref_logs, ref_points = logs, points
        unit.versus = [versus(ref_logs[g], logs[g], points[g] == ref_points[g], names[g]) for g in range(len(logs))]
        units.append(unit)
    return units


@dataclass
class Experiment:
    """Everything played: ``units[v][i]`` is variant ``v``'s unit for deal ``i``."""

    game_id: str
    variants: list[Variant]
    bots: list[str]
    skill: tuple[str, str] | None
    seed: int
    deals: int
    jobs: int
    seats: int
    stat_keys: tuple[str, ...]
    units: list[list[UnitData]]
    seconds: float
    backend: BackendInfo | None = None  # where it played (Ray: the cluster and its start-up)

    @property
    def cpu_seconds(self) -> float:
        """Processor time of every unit: what the run costs whatever the machine's load and
        ``jobs`` (the wall time on ``jobs`` idle cores is about this divided by ``jobs``)."""
        return sum(u.cpu_seconds for us in self.units for u in us)


def run_experiment(game_id: str, variants: Sequence[Variant], bots: Sequence[str], *, deals: int,
                   skill: tuple[str, str] | None = ("normal", "random"), seed: int = 0, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None, backend: str = "local",
                   address: str | None = None) -> Experiment:
    """Play ``deals`` units for every variant (see the module docstring) and keep the raw data.
    ``backend="ray"`` plays them on a Ray cluster (``torite.parallel``): the same numbers."""
    if not variants:
        raise VariantError("name at least one variant")
    if deals < 2:
        raise ValueError("deals must be at least 2: an interval needs two deals to measure their spread")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    game = make_game(game_id, variants[0].options)
    n = game.num_players
    if len(bots) != n:
        raise ValueError(f"{len(bots)} bots for {n} seats")
    names = list(bots) + (list(skill) if skill is not None else [])
    for name in names:  # an unknown bot fails here, before any worker starts
        make_bot(name, game, 0, 0)
    if skill is not None and skill[0] == skill[1]:
        raise ValueError("the skill measure needs two different bots (strong, weak)")
    options = [dict(v.options) for v in variants]
    where = start_backend(backend, address, jobs)  # Ray's start-up before the clock
    jobs_list: list[_Job] = [(game_id, options, list(bots), skill, seed, i) for i in range(deals)]
    units: list[list[UnitData]] = [[] for _ in variants]
    start = time.perf_counter()
    # one deal at a time to a worker: a deal of search bots takes minutes, and the progress shows
    # each one; on Ray many deals go in a task (a task costs more than a deal of fast bots)
    chunk = 1 if backend == "local" else None
    for done, played in enumerate(ordered_map(run_deal, jobs_list, jobs, chunksize=chunk, backend=backend,
                                              address=address), 1):
        for unit in played:
            units[unit.variant].append(unit)
        if progress is not None:
            progress(done, deals)
    return Experiment(game_id, list(variants), list(bots), skill, seed, deals, where.jobs, n,
                      tuple(game.STAT_KEYS), units, time.perf_counter() - start, where)
