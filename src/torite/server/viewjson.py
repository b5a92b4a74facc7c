"""A seat's view as the web table reads it: :class:`~torite.present.view.SeatView` and its words
as JSON.

The edge where cards become text: the view holds ints, the browser the game's notation
(``♠A`` is drawn from ``AS``).  Nothing here looks at the state or the observation: what the
browser may draw is what the view declares, so the web table and the terminal cannot disagree.
Every text comes by language (``{"en": …, "ja": …}``): a socket asks for its reader's language
only, an API reader gets every one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from torite.cards import iter_bits
from torite.engine.base import Action, Game
from torite.engine.phases import Bid, Contract
from torite.present.decision import Decision
from torite.present.view import Call, PileView, Played, SeatView, TrickView, ViewWords, card_texts, words


def view_json(v: SeatView, words: Mapping[str, ViewWords]) -> dict[str, Any]:
    """The view's part of the table's state message; ``words``: the view in each language sent."""
    game = v.game
    card = game.card_text
    act = game.action_text

    def by_lang(pick: Any) -> dict[str, Any]:
        return {lang: pick(w) for lang, w in words.items()}

    legal = [{"text": act(a), "kind": a.kind, "label": by_lang(lambda w, a=a: w.actions[a]),
              "cards": [card(c) for c in iter_bits(a.cards)], "arg": a.arg} for a in v.legal]
    reasons: dict[str, Any] = {
        "cards": {card(c): by_lang(lambda w, c=c: w.refused_cards[c]) for c in v.refused_cards},
        "actions": {act(a): by_lang(lambda w, a=a: w.refused_actions[a]) for a in v.refused_actions}}
    status = {lang: [[r.label, r.value, r.pinned] for r in w.status] for lang, w in words.items()}
    return {
        "phase": v.phase, "round": v.round, "max_rounds": v.max_rounds, "dealer": v.dealer,
        "over": v.over, "to_act": list(v.to_act), "hand": [card(c) for c in v.hand],
        "facts": [{"hand_size": f.hand_size, "tricks_won": f.tricks_won, "round_points": f.round_points,
                   "score": f.score, "open_hand": None if f.open_hand is None else card_texts(game, f.open_hand)}
                  for f in v.seats],
        "trick": trick_json(game, v.trick), "winning": v.trick.winner,
        "last_trick": None if v.last_trick is None else trick_json(game, v.last_trick)
        | {"points": (v.last_trick.record or {}).get("points"),
           "facts": by_lang(lambda w: [list(r) for r in w.last_trick])},
        "piles": [pile_json(game, p) for p in v.piles],
        "auction": None if v.auction is None else [call_json(game, c) for c in v.auction],
        # the phase is a bidding (its forms hold a bid): the bidding so far matters most now
        "bidding": any(isinstance(t, Bid) for p in game.phases() if p.name == v.phase for t in p.actions),
        "contract": None if v.contract is None else str(v.contract), "trump": v.trump,
        "legal": legal, "decision": None if v.decision is None else decision_json(v.decision, game),
        "reasons": reasons, "roles": by_lang(lambda w: [list(r) for r in w.roles]),
        "prompt": {lang: w.prompt for lang, w in words.items() if w.prompt},
        "status": status, "round_scores": [list(r) for r in v.round_scores],
        "scores": None if v.scores is None else list(v.scores),
        "result": None if v.result is None else v.result.to_json(),
    }


def trick_json(game: Game, t: TrickView) -> dict[str, Any]:
    return {"cards": [played_json(game, p) for p in t.cards], "leader": t.leader, "led": t.led, "winner": t.winner}


def played_json(game: Game, p: Played) -> dict[str, Any]:
    return {"seat": p.seat, "card": None if p.card is None else game.card_text(p.card), "tags": list(p.tags),
            "pile": p.pile}


def pile_json(game: Game, p: PileView) -> dict[str, Any]:
    """``{"name", "cards"}`` for a pile the seat sees (a card it may not see is null, drawn as a
    back), ``{"name", "count"}`` for one it does not."""
    if p.cards is None:
        return {"name": p.name, "count": p.count}
    return {"name": p.name, "cards": card_texts(game, p.cards)}


def call_json(game: Game, c: Call) -> dict[str, Any]:
    """A call of the bidding history: a bid's contract or card as a token to draw, another call
    by its kind (the labels name it: pass, double)."""
    entry: dict[str, Any] = {"seat": c.seat, "kind": c.kind}
    if c.cards:
        entry["rich"] = [{"t": "cards", "cards": [game.card_text(x) for x in c.cards]}]
    elif c.contract is not None:
        entry["rich"] = [{"t": "contract", "level": c.contract.level, "denom": c.contract.denomination}]
    return entry


def decision_json(d: Decision, game: Game) -> dict[str, Any]:
    """The decision grouped by widget: cards and actions in the game's notation (the ``legal``
    list's ``text``)."""
    card, act = game.card_text, game.action_text
    return {
        "singles": {k: [card(c) for c in sorted(mp)] for k, mp in d.singles.items()},
        "named": {k: {"from": d.sources[k], "cards": [card(c) for c in sorted(mp)]} for k, mp in d.named.items()},
        "multis": {k: {"count": m.count, "cards": [card(c) for c in sorted(m.cards)],
                       "sets": [act(a) for a in m.combos.values()]} for k, m in d.multis.items()},
        "bids": {k: {"levels": b.levels, "denoms": b.denoms,
                     "cells": {f"{lv} {dn}": act(a) for (lv, dn), a in b.cells.items()},
                     # every cell's action, legal or not: a refused cell's reason is keyed by it
                     "texts": {f"{lv} {dn}": act(Action(k, 0, str(Contract(lv, dn)))) for lv in b.levels
                               for dn in b.denoms}} for k, b in d.bids.items()},
        "calls": [act(a) for a in d.calls],
        "all_calls": [act(a) for a in d.all_calls],
        "others": [act(a) for a in d.others],
    }


def words_in(v: SeatView, langs: Sequence[str], names: Sequence[str | None]) -> dict[str, ViewWords]:
    """The view in each of ``langs``."""
    return {lang: words(v, lang, names) for lang in langs}
