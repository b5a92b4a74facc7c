"""The person's controls, drawn from the decision of the seat's view: the prompt above them,
the bidding box or card picker, the row of a pile played from (Umbridge's dummy) and the
numbered buttons.

Its own part because what is offered, in which order and under which number, is the table's
promise to the person (a button keeps its number for the whole phase, in the order the phase
declares its calls; a refused one is struck out in place, never renumbering the others) and
reads the decision only; :class:`~torite.cli.tui.app.TableApp` mixes it in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from torite.cards import parse_card
from torite.engine.base import Action
from torite.engine.phases import DECK
from torite.present.decision import Decision, Multi
from torite.present.labels import SUIT_SYMBOLS, Labels, korean
from torite.present.view import SeatView, ViewWords

from .session import Session
from .widgets import Cell, ChoiceBar, GridView, HandView
from .words import card_text, rich_text, theme

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def sizes(m: Multi) -> tuple[int, int]:
    """The fewest and most cards a legal set of ``m`` has (Galapagos' play-off: 1 to 3)."""
    counts = [mask.bit_count() for mask in m.combos] or [m.count]
    return min(counts), max(counts)


def pile_kind(d: Decision) -> str | None:
    """The kind of a decision's card played from a pile (Umbridge's dummy), drawn as a row of
    its own; None when none is."""
    return next((k for k in d.named if d.sources.get(k, DECK) != DECK), None)


class Controls:
    """The controls (see the module docstring); the app provides the rest."""

    session: Session
    legal: list[Action]
    decision: Decision
    selecting: str | None
    selected: set[int]
    refused_cards: dict[int, str]
    refused_actions: dict[Action, str]
    _buttons: list[tuple[Text, Callable[[], None]]]
    #: the action behind each button, by number (None: a struck-out call, or a control's own)
    button_actions: list[Action | None]

    # provided by TableApp
    w: dict[str, str]
    query_one: Any
    act: Any
    action_confirm: Any
    start_selecting: Any
    explain: Any

    def count_text(self, lo: int, hi: int) -> str:
        """"1 card", "3 cards", "1–3 cards" in the table's language."""
        w = self.w
        if lo != hi:
            return w["cards_range"].format(a=lo, b=hi)
        return w["card_1"] if hi == 1 else w["cards_n"].format(n=hi)

    def decision_prompt(self, vw: ViewWords) -> list[str]:
        """What the person is asked: the game's own instruction first (its rule in its words),
        then the table's how-to for several cards, with the legal range."""
        s = self.session
        w = self.w
        d = self.decision
        lines = []
        why = vw.labels.text(vw.prompt) if vw.prompt else None
        if why:
            lines.append(why)
        if self.selecting is not None:
            lo, hi = sizes(d.multis[self.selecting])
            lines.append(w["select_n"].format(n=self.count_text(lo, hi), kind=s.labels.action_label(self.selecting))
                         + " " + w["selected"].format(k=len(self.selected), n=self.count_text(lo, hi)))
        elif not why and d.singles:
            lines.append(w["your_turn"])
        elif not why and self.legal:
            lines.append(w["your_choice"].format(kind=s.labels.action_label(self.legal[0].kind)))
        return lines

    def draw_pile(self, v: SeatView, vw: ViewWords, d: Decision) -> None:
        """The pile a card is played from (Umbridge's dummy) as a row of its own: its cards, the
        playable ones bright, the others refused with their reason (never the whole deck)."""
        row = self.query_one("#pile", HandView)
        kind = pile_kind(d)
        row.labels = self.session.labels
        row.game = self.session.game
        if kind is None:
            row.show([], [])
            row.set_class(False, "on")
            return
        name = d.sources[kind]
        pile = next((p for p in v.piles if p.name == name), None)
        cards = [c for c in (pile.cards or ()) if c is not None] if pile is not None else list(d.named[kind])
        word = vw.labels.data["maps"].get("piles", {}).get(name, name)
        row.show(cards, d.named[kind], head=Text(f"{word}:", style="bold"))
        row.set_class(True, "on")

    def draw_grid(self, d: Decision) -> None:
        grid = self.query_one(GridView)
        lab = self.session.labels
        th = theme()
        named = {k: mp for k, mp in d.named.items() if k != pile_kind(d)}
        if d.bids:
            b = next(iter(d.bids.values()))  # the whole ladder: a bid shows where it stands
            rows = []
            for dn in b.denoms:
                head = Text(SUIT_SYMBOLS.get(dn, lab.data["denominations"].get(dn, dn)), style=th.suit(dn))
                # a suit's cells read 14♥; a word's row (노기루다) names it once, its cells the level
                rows.append((head, [Cell(rich_text([{"t": "contract", "level": lv, "denom": dn}], lab)
                                         if dn in SUIT_SYMBOLS else Text(str(lv), style="bold"),
                                         b.cells.get((lv, dn)),
                                         self.refused_actions.get(Action(b.kind, 0, f"{lv} {dn}"), ""))
                                    for lv in b.levels]))
            grid.show(Text(self.w["bid_title"].format(kind=lab.action_label(b.kind)), style="bold"), rows)
            grid.set_class(True, "on")
        elif named:
            kind, mp = next(iter(named.items()))
            rows = []
            jokers = sorted(c for c in mp if c >= 52)
            if jokers:
                rows.append((Text("★", style=th.joker),
                             [self._card_cell(c, mp, lab) for c in jokers]))
            for letter in ("S", "H", "D", "C"):
                rows.append((Text(SUIT_SYMBOLS[letter], style=th.suit(letter)),
                             [self._card_cell(parse_card(r + letter), mp, lab) for r in RANKS]))
            grid.show(Text(self.w["pick_title"].format(kind=lab.action_label(kind)), style="bold"), rows)
            grid.set_class(True, "on")
        else:
            grid.show(Text(), [])
            grid.set_class(False, "on")

    def _card_cell(self, c: int, mp: dict[int, Action], lab: Labels) -> Cell:
        return Cell(card_text(self.session.game.card_text(c), lab), mp.get(c), self.refused_cards.get(c, ""))

    def draw_buttons(self, d: Decision) -> None:
        """The numbered buttons.  Beside a bidding box, every call the phase declares, in its
        order, legal or struck out in place (so 3 is Redouble all through the auction); then the
        other choices; then the controls of a set of cards."""
        lab = self.session.labels
        buttons: list[tuple[Text, Callable[[], None]]] = []
        actions: list[Action | None] = []
        calls = d.all_calls if d.all_calls else d.calls
        for a in calls:
            if a in d.calls:
                buttons.append((rich_text(self.session.action_rich(a), lab), lambda a=a: self.act(a)))  # type: ignore[misc]
                actions.append(a)
            else:  # may not be made now: in view, struck out, saying why when chosen
                why = self.refused_actions.get(a, "")
                label = lab.text(self.session.action_rich(a))  # as it reads when legal ("Redouble")
                buttons.append((Text(label, style="dim strike"),
                                lambda why=why, label=label: self.explain(why, label)))  # type: ignore[misc]
                actions.append(None)
        for a in [*[c for c in d.calls if c not in calls], *d.others]:
            buttons.append((rich_text(self.session.action_rich(a), lab), lambda a=a: self.act(a)))  # type: ignore[misc]
            actions.append(a)
        if self.selecting is not None:
            m = d.multis[self.selecting]
            combo = m.combos.get(sum(1 << c for c in self.selected))
            text = rich_text(self.session.action_rich(combo), lab) if combo else Text(lab.action_label(self.selecting))
            head, _, tail = self.w["confirm"].partition("{text}")
            buttons.append((Text(head) + text + Text(tail), self.action_confirm))
            actions.append(None)
        for kind, m in d.multis.items():
            if kind != self.selecting:
                buttons.append((Text(f"{lab.action_label(kind)} ({self.count_text(*sizes(m))})"),
                                lambda kind=kind: self.start_selecting(kind)))  # type: ignore[misc]
                actions.append(None)
        self._buttons = buttons
        self.button_actions = actions
        self.query_one(ChoiceBar).show([t for t, _ in buttons])

    def not_now(self, what: str) -> str:
        """A refusal with no rule to tell: "Double cannot be chosen now." (더블은 …: its particle
        in the form its word takes)."""
        return korean.finish(self.w["not_legal"].format(card=what))
