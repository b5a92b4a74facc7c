"""Scoring one deal of Umbridge (§8) on the state: split from ``rules.py`` to keep it short."""

from __future__ import annotations

from typing import Any

from torite.engine.summary import row, summary
from torite.games.umbridge.scoring import (
    GAME,
    chicago_bonus,
    contract_score,
    rubber_bonus,
    trick_points,
)


def score_deal(state: Any) -> dict[str, Any]:
    """The deal scored (§8): the contract's points, above and below the line, the bonuses, and
    the summary's rows; the rubber's score sheet moves on."""
    counters = state.counters
    if state.contract is None:
        counters["passed_out"] += 1
        end = state.unfinished()
        return {"contract": None, **end, "summary": summary(
            [row("unfinished", end["unfinished"])] if "unfinished" in end else [])}
    assert state.declarer is not None
    declarer, defender = state.declarer, 1 - state.declarer
    level, denom = state.contract
    vul = state.vulnerable
    tricks = state.tricks_won[declarer]
    cs = contract_score(level, denom, state.doubled, vul[declarer], tricks)
    points = [0, 0]
    points[declarer] += cs.below + cs.declarer_above
    points[defender] += cs.defender_above
    above = [0, 0]
    above[declarer] += cs.declarer_above
    above[defender] += cs.defender_above
    honours = list(state.honours_held) if state.honours else [0, 0]
    bonus = [0, 0]
    game_won = None
    if state.chicago:
        bonus[declarer] = chicago_bonus(cs, vul[declarer], state.game.options["part_score_bonus"])
    else:
        below = [*state.below[-1]]
        below[declarer] += cs.below
        games = list(state.games)
        if below[declarer] >= GAME:
            games[declarer] += 1
            game_won = declarer
        state.below = [*state.below[:-1], below]
        if game_won is not None and max(games) < 2:
            state.below = [*state.below, [0, 0]]  # a new game starts afresh (§8.2)
        state.games = games
        if max(games) >= 2:
            o = state.game.options
            bonus = rubber_bonus(games, o["rubber_two_nil"], o["rubber_two_one"])
    for s in range(2):
        above[s] += honours[s] + bonus[s]
        points[s] += honours[s] + bonus[s]
    state.above = [a + b for a, b in zip(state.above, above)]
    for s in range(2):
        state.round_points[s] += points[s]
    counters["contract_level"] += level
    counters["no_trump"] += denom == "NT"
    counters["doubled"] += state.doubled > 0
    counters["made"] += cs.made
    counters["umbrage"] += sum(state.umbrage)
    counters["bridge_draws"] += sum(state.drawn)
    counters["honour_points"] += sum(honours)
    end = state.unfinished()

    def by_side(to_declarer: int, to_defender: int = 0) -> list[int]:
        out = [0, 0]
        out[declarer], out[defender] = to_declarer, to_defender
        return out

    rows = [row("tricks", by_side(tricks, 13 - tricks), adds=False),
            row("contract", by_side(cs.below)), row("overtricks", by_side(cs.overtricks)),
            row("insult", by_side(cs.insult)), row("slam", by_side(cs.slam)),
            row("undertricks", by_side(0, cs.undertricks)), row("honours", honours),
            row("bonus", bonus)]
    if "unfinished" in end:
        rows.append(row("unfinished", end["unfinished"]))
    need = 6 + level
    per = trick_points(1, denom) - (10 if denom == "NT" else 0)
    return {"contract": str(state.contract), "declarer": declarer, "doubled": state.doubled, "tricks": tricks,
            # the contract's value written out (§8.1): level × per trick (+10 at no trump), doubled
            "need": need, "down": max(0, need - tricks), "per_trick": per, "nt_first": 10 if denom == "NT" else 0,
            "trick_value": trick_points(level, denom), "factor": 1 << state.doubled,
            "made": cs.made, "below": cs.below, "overtricks": cs.overtricks, "insult": cs.insult,
            "slam": cs.slam, "undertricks": cs.undertricks, "honours": honours,
            "vulnerable": list(vul), "game_won": game_won,
            "bonus": bonus, **end, "summary": summary(rows)}
