"""A decision as a face shows it: which widget each legal action belongs to, from the phase's
declared action forms (``game.schema()``), for every game.

Why here, once: the web table and the terminal table must offer the same decision the same
way (a card of the hand, several cards, a bidding box with its calls, buttons), and neither may
guess a game's actions from their text.  The phase's forms say it:

- ``singles``: a :class:`~torite.engine.phases.Card` form taken from the hand (the hand's cards
  are clicked or chosen with the arrows);
- ``named``: a card form from the deck or a pile (a card to name, the dummy's card): a picker;
- ``multis``: a :class:`~torite.engine.phases.Cards` form (select the cards, then confirm);
- ``bids``: a :class:`~torite.engine.phases.Bid` form, the whole ladder with its legal cells,
  and ``calls``: the phase's words beside a bidding box (pass, double, redouble);
- ``others``: choices and words, as buttons (trump, replace, pass).

A card the hand could play by two single-card forms (rare) would be ambiguous on the hand, so
its actions become buttons.  ``torite.server.viewjson`` writes it for the web table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from torite.cards import iter_bits, parse_card
from torite.engine.base import Action, Refusal, State
from torite.engine.phases import DECK, HAND, Bid, Card, Cards, Contract, Phase, Word


@dataclass
class Multi:
    """Several cards for one action: which cards may take part and every legal set."""

    kind: str
    count: int
    cards: set[int] = field(default_factory=set)
    combos: dict[int, Action] = field(default_factory=dict)  # card mask -> action


@dataclass
class Bids:
    """A bidding box: the ladder's levels × denominations, the legal cells and their actions."""

    kind: str
    levels: list[int]
    denoms: list[str]
    cells: dict[tuple[int, str], Action]


@dataclass
class Decision:
    singles: dict[str, dict[int, Action]] = field(default_factory=dict)  # kind -> card -> action
    named: dict[str, dict[int, Action]] = field(default_factory=dict)
    #: where a named card comes from: ``deck`` or a pile's name, by kind
    sources: dict[str, str] = field(default_factory=dict)
    multis: dict[str, Multi] = field(default_factory=dict)
    bids: dict[str, Bids] = field(default_factory=dict)
    calls: list[Action] = field(default_factory=list)
    #: every call the phase declares beside a bidding box, legal now or not (Pass, Double and
    #: Redouble stay in view, the refused ones disabled)
    all_calls: list[Action] = field(default_factory=list)
    others: list[Action] = field(default_factory=list)

    @property
    def playable(self) -> set[int]:
        """Cards of the hand that one single-card action plays."""
        return {c for mp in self.singles.values() for c in mp}

    @property
    def buttons(self) -> list[Action]:
        """The actions shown as buttons, in the order of their number keys."""
        return [*self.calls, *self.others]


def group(phase: Phase | None, legal: Sequence[Action], hand: Sequence[int]) -> Decision:
    """Sort ``legal`` by the form ``phase`` declares for each (``hand``: the seat's cards)."""
    in_hand = set(hand)
    d = Decision()
    one_card: dict[str, dict[int, Action]] = {}
    others: list[Action] = []
    for a in legal:
        form = phase.template_of(a) if phase is not None else None
        if isinstance(form, Card):
            if form.from_ == HAND and a.card in in_hand:
                one_card.setdefault(a.kind, {})[a.card] = a
            else:
                d.named.setdefault(a.kind, {})[a.card] = a
                d.sources[a.kind] = form.from_
        elif isinstance(form, Cards):
            n = a.cards.bit_count()
            m = d.multis.setdefault(a.kind, Multi(a.kind, n))
            m.count = max(m.count, n)  # sets of several sizes: up to the largest, confirmed exactly
            m.cards.update(iter_bits(a.cards))
            m.combos[a.cards] = a
        elif isinstance(form, Bid):
            box = d.bids.get(a.kind)
            if box is None:
                ladder = form.ladder
                box = d.bids[a.kind] = Bids(a.kind, list(ladder.levels), list(ladder.denominations), {})
            bid = Contract.parse(a.arg)
            box.cells[(bid.level, bid.denomination)] = a
        else:
            others.append(a)
    # a card named by two single-card forms cannot be chosen on the hand alone: buttons
    count: dict[int, int] = {}
    for mp in one_card.values():
        for c in mp:
            count[c] = count.get(c, 0) + 1
    for kind, mp in one_card.items():
        keep = {c: a for c, a in mp.items() if count[c] == 1}
        others.extend(a for c, a in mp.items() if count[c] > 1)
        if keep:
            d.singles[kind] = keep
    if d.bids and phase is not None:
        d.calls = [a for a in others if isinstance(phase.template_of(a), Word)]
        others = [a for a in others if a not in d.calls]
        d.all_calls = [Action(t.kind) for t in phase.actions if isinstance(t, Word)]
    d.others = others
    return d


def refused(state: State, seat: int, phase: Phase | None, d: Decision, obs: Mapping[str, Any],
            ) -> tuple[dict[int, Refusal], dict[Action, Refusal]]:
    """Why each choice a face shows disabled now is refused, from the rules
    (``state.refusal``): the cards of the hand (or of a pile the phase plays from, Umbridge's
    dummy) that no single-card form plays, by card; the bidding box's cells and calls that are
    not legal, by action.  Only for the seat that decides (a waiting seat's hand is simply not
    its turn)."""
    cards: dict[int, Refusal] = {}
    actions: dict[Action, Refusal] = {}
    if phase is None:
        return cards, actions
    hand = [parse_card(c) for c in obs.get("hand") or () if c is not None]
    for form in phase.actions:
        if isinstance(form, Card) and form.from_ != DECK:
            where = hand if form.from_ == HAND else [parse_card(c) for c in obs.get(form.from_) or () if c is not None]
            offered = d.singles.get(form.kind, {}) if form.from_ == HAND else d.named.get(form.kind, {})
            for card in where:
                if card in offered or card in cards:
                    continue
                why = state.refusal(seat, Action(form.kind, 1 << card))
                if why is not None:
                    cards[card] = why
        elif isinstance(form, Cards):
            # a card no legal set takes part in: why not, as the set of its rank it would head
            # (Galapagos' play-off: "your cards must outrank ♦A ♠A"), or as itself
            usable = d.multis[form.kind].cards if form.kind in d.multis else set()
            for card in hand:
                if card in usable or card in cards:
                    continue
                mask = 1 << card
                if form.same_rank and card < 52:
                    mask = sum(1 << c for c in hand if c < 52 and c % 13 == card % 13)
                why = state.refusal(seat, Action(form.kind, mask))
                if why is not None:
                    cards[card] = why
    for box in d.bids.values():
        for level in box.levels:
            for denom in box.denoms:
                if (level, denom) not in box.cells:
                    a = Action(box.kind, 0, str(Contract(level, denom)))
                    why = state.refusal(seat, a)
                    if why is not None:
                        actions[a] = why
    for a in d.all_calls:
        if a not in d.calls:
            why = state.refusal(seat, a)
            if why is not None:
                actions[a] = why
    return cards, actions


def phase_of(phases: Sequence[Phase], name: str) -> Phase | None:
    """The declared phase called ``name`` (None when the game is over)."""
    return next((p for p in phases if p.name == name), None)
