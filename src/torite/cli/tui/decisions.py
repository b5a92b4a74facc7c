"""A decision by the form of its legal actions, for any game (the web table's grouping).

No face knows a game; what a decision looks like follows from its legal actions alone:

- ``singles``: one card of the hand each (arrows and Enter on the hand);
- ``named``: one card each, some not in the hand (a partner's card): a picker over the deck;
- ``multis``: several cards of the hand (select them, then confirm);
- ``bids``: no card, ``LEVEL DENOMINATION`` (a bidding box), with ``calls`` (pass, double,
  redouble) beside it;
- ``others``: anything else, as buttons (trump, replace, pass, …).

A card that two single-card kinds name (rare) would be ambiguous on the hand, so its actions
become buttons.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from torite.cards import card_str, iter_bits, parse_card
from torite.engine.base import Action

BID = re.compile(r"^(\d+)\s+(\S+)$")
BID_CALLS = ("pass", "double", "redouble")
DENOM_ORDER = ("C", "D", "H", "S", "NT")


@dataclass
class Multi:
    """Several cards for one action: which cards may take part and every legal set."""

    kind: str
    count: int
    cards: set[int] = field(default_factory=set)
    combos: dict[int, Action] = field(default_factory=dict)  # card mask -> action


@dataclass
class Bids:
    """A bidding box: levels × denominations, the legal cells and their actions."""

    kind: str
    levels: list[int]
    denoms: list[str]
    cells: dict[tuple[int, str], Action]


@dataclass
class Decision:
    singles: dict[str, dict[int, Action]] = field(default_factory=dict)  # kind -> card -> action
    named: dict[str, dict[int, Action]] = field(default_factory=dict)
    multis: dict[str, Multi] = field(default_factory=dict)
    bids: dict[str, Bids] = field(default_factory=dict)
    calls: list[Action] = field(default_factory=list)
    others: list[Action] = field(default_factory=list)

    @property
    def playable(self) -> set[int]:
        """Cards of the hand that one single-card action plays."""
        return {c for mp in self.singles.values() for c in mp}

    @property
    def buttons(self) -> list[Action]:
        """The actions shown as buttons, in the order of their number keys."""
        return [*self.calls, *self.others]


def group(legal: Sequence[Action], hand: Sequence[str]) -> Decision:
    """Sort ``legal`` by form; ``hand`` is the observation's hand (card texts)."""
    in_hand = {parse_card(c) for c in hand}
    d = Decision()
    one_card: dict[str, dict[int, Action]] = {}
    bid_lists: dict[str, list[tuple[int, str, Action]]] = {}
    others: list[Action] = []
    for a in legal:
        n = a.cards.bit_count()
        if n == 1 and not a.arg:
            one_card.setdefault(a.kind, {})[a.card] = a
        elif n >= 2 and not a.arg:
            m = d.multis.setdefault(a.kind, Multi(a.kind, n))
            m.count = max(m.count, n)  # sets of several sizes: up to the largest, confirmed exactly
            m.cards.update(iter_bits(a.cards))
            m.combos[a.cards] = a
        elif n == 0 and (bid := BID.match(a.arg)):
            bid_lists.setdefault(a.kind, []).append((int(bid.group(1)), bid.group(2), a))
        else:
            others.append(a)
    # a card named by two single-card kinds cannot be chosen on the hand alone: buttons
    seen: dict[int, int] = {}
    for mp in one_card.values():
        for c in mp:
            seen[c] = seen.get(c, 0) + 1
    for kind, mp in one_card.items():
        if any(c not in in_hand for c in mp):
            d.named[kind] = mp
            continue
        keep = {c: a for c, a in mp.items() if seen[c] == 1}
        others.extend(a for c, a in mp.items() if seen[c] > 1)
        if keep:
            d.singles[kind] = keep
    for kind, items in bid_lists.items():
        levels = sorted({lv for lv, _, _ in items})
        seen_d = list(dict.fromkeys(dn for _, dn, _ in items))
        denoms = [x for x in DENOM_ORDER if x in seen_d] + [x for x in seen_d if x not in DENOM_ORDER]
        d.bids[kind] = Bids(kind, list(range(levels[0], levels[-1] + 1)), denoms,
                            {(lv, dn): a for lv, dn, a in items})
    if d.bids:
        d.calls = [a for a in others if a.kind in BID_CALLS and not a.cards and not a.arg]
        others = [a for a in others if a not in d.calls]
    d.others = others
    return d


def cards_text(mask: int) -> str:
    return " ".join(card_str(c) for c in iter_bits(mask))
