"""What the terminal table shows, drawn from the seat's view alone: the header, the seats around
the table, the status rows, the last trick, the score sheet, the log and a round's summary.

Its own part because these pictures are rich renderables built from the seat's view
(:class:`~torite.present.view.SeatView`, the one the web table draws too) and its words, with
no widget, key or game loop in them: :class:`~torite.cli.tui.app.TableApp`
places them in its widgets and screens, and the replay viewer (``torite.cli.tui.replay``)
draws the same ones, changing a few.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from torite.present.labels import SUIT_SYMBOLS
from torite.present.view import Played, SeatView, TrickView, ViewWords

from .session import Session
from .words import card_text, level_name, rich_text, theme, words


def key_line(pairs: list[tuple[str, str]]) -> Text:
    """The footer's keys and what each does, in one line (the table's and the replay's)."""
    out = Text()
    for i, (k, v) in enumerate(pairs):
        if i:
            out.append("  ")
        out.append(k, style="bold")
        out.append(" " + v)
    return out


class TablePictures:
    """The pictures of the table (see the module docstring), for the app to mix in: they need its
    ``session`` only."""

    session: Session

    @property
    def w(self) -> dict[str, str]:
        return words(self.session.lang)

    def header(self, v: SeatView, vw: ViewWords) -> Text:
        s = self.session
        parts = [vw.labels.title]
        if v.round is not None:
            m = v.max_rounds
            # the game's own word for a round ("Deal 3", Mighty's "세 번째 판"), as the line mode
            # and the web table say it
            number = vw.labels.round_name(v.round + 1)
            parts.append(self.w["of_rounds"].format(round=number, m=m) if m is not None else number)
        if vw.phase:
            parts.append(vw.phase)
        if v.dealer is not None:
            parts.append(f"{self.w['dealer']}{vw.labels.word('label_sep')}{s.seat_name(v.dealer)}")
        return Text(" · ".join(parts))

    def seat_label(self, seat: int) -> str:
        s = self.session
        name = s.seat_name(seat)
        level = s.levels[seat]
        return self.w["bot"].format(name=name, level=level_name(s.lang, level)) if level else name

    def positions(self) -> dict[int, tuple[int, int]]:
        """Where each seat sits in a 3×3 grid: you at the bottom, the others clockwise from your
        left, in the order they play after you."""
        s = self.session
        n = s.game.num_players
        others = [(s.human + k) % n for k in range(1, n)]
        spots = {1: [(0, 1)], 2: [(1, 0), (1, 2)], 3: [(1, 0), (0, 1), (1, 2)],
                 4: [(1, 0), (0, 0), (0, 2), (1, 2)], 5: [(1, 0), (0, 0), (0, 1), (0, 2), (1, 2)]}
        places = spots.get(len(others), [(0, i % 3) for i in range(len(others))])
        out = {seat: places[i] for i, seat in enumerate(others)}
        out[s.human] = (2, 1)
        return out

    def card(self, card: int | None, vw: ViewWords) -> Text:
        """A card of the view as the table draws it (its game's name for it: Mighty's one joker is
        "Joker"), None as a back."""
        return card_text(None if card is None else self.session.game.card_text(card), vw.labels)

    def ring(self, v: SeatView, vw: ViewWords) -> RenderableType:
        """The seats around the trick: each seat's name, its role chips on a line of their own
        (a long Japanese role is never cut), its counts and the card it played; a card played
        from a pile (Umbridge's dummy) lies on the pile's own place, credited to the pile."""
        s = self.session
        lab = vw.labels
        th = theme()
        roles = vw.roles
        to_act = set(v.to_act)
        shown_last = not v.trick.cards and v.last_trick is not None
        shown: TrickView = v.last_trick if shown_last and v.last_trick is not None else v.trick
        cells: dict[tuple[int, int], RenderableType] = {}

        def played_text(entry: Played | None, owner: int | str) -> Text:
            played = Text()
            if entry is None:
                return played
            played.append("[")
            played.append_text(self.card(entry.card, vw))
            played.append("]")
            if shown_last:
                played.stylize("dim")
                if shown.winner == owner:
                    played.append(" ★", style="yellow")
            else:
                for tag in entry.tags:
                    if tag != entry.pile:
                        played.append(" " + str(lab.data["tags"].get(tag, tag)), style="italic cyan")
            return played

        for seat, place in self.positions().items():
            facts = v.seats[seat]
            name = Text(overflow="fold")
            if seat in to_act and not v.over:
                name.append("▶ ", style="bold green")
            name.append(self.seat_label(seat), style="bold" if seat == s.human else "")
            if facts.score is not None:
                name.append("  " + self.w["points"].format(n=facts.score), style="bold yellow")
            chips = Text(overflow="fold")
            for i, role in enumerate(roles[seat] if seat < len(roles) else ()):
                chips.append(("" if not i else " ") + f"[{role}]", style=th.accent)
            stats = []
            if facts.hand_size is not None:
                stats.append(self.w["cards"].format(n=facts.hand_size))
            if facts.tricks_won is not None:
                stats.append(self.w["tricks"].format(n=facts.tricks_won))
            entry = next((p for p in shown.cards if p.seat == seat and p.pile is None), None)
            parts: list[RenderableType] = [name]
            if chips.plain:
                parts.append(chips)
            parts += [Text(" · ".join(stats), style="dim"), played_text(entry, seat)]
            cells[place] = Group(*parts)
        free = [p for p in ((1, 2), (1, 0), (0, 0), (0, 2), (2, 0), (2, 2)) if p not in cells]
        for pile in v.piles:
            # a pile cards are played from (seen in this trick or the last): a place of its own
            entry = next((p for p in shown.cards if p.pile == pile.name), None)
            if not any(p.pile == pile.name for t in (v.trick, v.last_trick) if t is not None for p in t.cards):
                continue
            if not free:
                break
            word = lab.data["maps"].get("piles", {}).get(pile.name, pile.name)
            count = Text(self.w["cards"].format(n=pile.count), style="dim")
            cells[free.pop(0)] = Group(Text(word, style="bold"), count,
                                       played_text(entry, entry.seat if entry is not None else -1))
        centre = Text(overflow="fold")
        centre.append(self.w["trick"], style="bold")
        led = v.trick.led
        if led in SUIT_SYMBOLS:
            centre.append(f"  {SUIT_SYMBOLS[led]}", style=th.suit(led))
        if v.trick.cards:
            centre.append("\n")
            for i, e in enumerate(v.trick.cards):
                centre.append("  " if i else "")
                centre.append_text(self.card(e.card, vw))
        elif shown_last and shown.winner is not None:
            centre.append("\n" + self.w["last_won"].format(who=s.seat_name(shown.winner)), style="dim")
        else:
            centre.append("\n" + self.w["no_trick"], style="dim")
        if (1, 1) not in cells:
            cells[(1, 1)] = centre
        grid = Table.grid(expand=True, padding=(0, 1))
        for _ in range(3):
            grid.add_column(ratio=1, overflow="fold")
        for r in range(3):
            if any((r, c) in cells for c in range(3)):
                grid.add_row(*(cells.get((r, c), Text("")) for c in range(3)))
        return grid

    def status(self, v: SeatView, vw: ViewWords) -> Text:
        out = Text()
        for i, row in enumerate(vw.status):
            if i:
                out.append("\n")
            out.append(row.label + vw.labels.word("label_sep"), style="bold")  # "：" in Japanese
            out.append_text(rich_text(row.value, vw.labels))
        return out

    def key_hints(self) -> Text:
        w = self.w
        pairs = [("h", w["k_hint"]), ("t", w["k_last"]), ("s", w["k_sheet"]), ("l", w["k_log"]), ("r", w["k_rules"])]
        if len(self.session.languages) > 1:
            pairs.append(("g", w["k_lang"]))
        pairs += [("?", w["k_help"]), ("q", w["k_quit"])]
        return key_line(pairs)

    def last_trick(self, v: SeatView, vw: ViewWords) -> RenderableType:
        s = self.session
        t = v.last_trick
        if t is None:
            return Text(self.w["no_last_trick"].format(round=vw.labels.word("round_word")), style="dim")
        line = Text()
        for p in t.cards:
            # a card played from a pile (Umbridge's dummy) is the pile's, played by its controller
            owner = s.seat_name(p.seat) if p.pile is None else self.w["pile_by"].format(
                pile=vw.labels.data["maps"].get("piles", {}).get(p.pile, p.pile), who=s.seat_name(p.seat))
            line.append(f"{owner} ")
            line.append_text(self.card(p.card, vw))
            line.append("   ")
        facts = Text()
        for k, value in vw.last_trick:
            facts.append(f"\n{k}: ", style="bold")
            facts.append_text(rich_text(value, vw.labels))
        return Group(line, facts)

    def score_sheet(self, v: SeatView, width: int | None = None) -> RenderableType:
        """The rounds' points by seat.  A seat's name is never broken nor cut ("1번 / 자리",
        "1번 자…"): where the names do not fit ``width`` (the side panel), each seat is headed
        by its number, the person by their word (나, あなた, you)."""
        s = self.session
        table = Table(box=None, padding=(0, 1), show_edge=False)
        first = max([len(self.w["total"]), 2])
        names = [s.seat_name(seat) for seat in range(v.num_players)]
        if width is not None and first + sum(cell_len(x) + 2 for x in names) + 2 > width:
            names = [name if seat == s.human else str(seat) for seat, name in enumerate(names)]
        table.add_column("#", justify="right", no_wrap=True)
        for name in names:
            table.add_column(name, justify="right", no_wrap=True)
        for r, row in enumerate(v.round_scores):
            table.add_row(str(r + 1), *(str(x) for x in row))
        if v.scores is not None:
            table.add_row(self.w["total"], *(str(x) for x in v.scores), style="bold")
        return table

    def log_text(self) -> Text:
        return Text("\n").join(Text(f"{i + 1:>4}  ") + rich_text(x.rich, self.session.labels)
                                for i, x in enumerate(self.session.log))

    def log_lines(self, lines: Sequence[Any]) -> Text:
        """Log lines drawn with their cards and suits in colour."""
        return Text("\n").join(rich_text(x.rich, self.session.labels) for x in lines)

    def summary_body(self, v: SeatView, vw: ViewWords) -> RenderableType:
        """The last round's points explained: the scoring written out (the game's ``explain``),
        then its summary's rows with their units, each seat's calculation step by step, the
        round's points and the totals (``torite.engine.summary``)."""
        s = self.session
        lab = vw.labels
        n = v.num_players
        data: Mapping[str, Any] = v.round_end or {}
        out: list[RenderableType] = []
        for k, value in vw.explain:
            out.append(Text(k + lab.word("label_sep"), style="bold") + rich_text(value, lab))
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("")
        for seat in range(n):
            table.add_column(s.seat_name(seat), justify="right", no_wrap=True)
        summary = data.get("summary") or {"rows": []}
        steps = summary.get("steps") or []
        for r in summary.get("rows", ()):
            label = lab.scoring_word(r["key"]) + (f" ×{r['per']}" if "per" in r else "")
            counted = "count" in r and r.get("per", 1) != 1
            cells = [f"{r['count'][i]} = {x}" if counted and r["count"][i] else str(x)
                     for i, x in enumerate(r["values"])]
            table.add_row(Text(label, style="" if r["adds"] else "dim italic"), *cells,
                          style="" if r["adds"] else "dim")
        for i in range(max((len(x) for x in steps), default=0)):
            keys = dict.fromkeys(x[i]["key"] for x in steps if len(x) > i)
            cells = []
            for x in steps:
                st = x[i] if len(x) > i else None
                cells.append("" if st is None else str(st["value"]) if st["op"] == "=" else f"{st['op']} {st['value']}")
            table.add_row(" / ".join(lab.scoring_word(key) for key in keys), *cells, style="cyan")
        if isinstance(data.get("points"), list):
            this_round = self.w["round_points"].format(round=lab.word("round_word"))  # "this deal"
            table.add_row(this_round, *(f"{v:+}" for v in data["points"]), style="bold")
        if v.scores is not None:
            table.add_row(self.w["total"], *(str(x) for x in v.scores), style="bold")
        out.append(table)
        return Group(*out)
