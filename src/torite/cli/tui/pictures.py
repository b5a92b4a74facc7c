"""What the terminal table shows, drawn from the session alone: the header, the seats around
the table, the status rows, the last trick, the score sheet, the log and a round's summary.

Its own part because these pictures are rich renderables built from the session's observation
and labels, with no widget, key or game loop in them: :class:`~torite.cli.tui.app.TableApp`
places them in its widgets and screens, and the replay viewer (``torite.cli.tui.replay``)
draws the same ones, changing a few.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from torite.present.labels import SUIT_SYMBOLS

from .session import RENDER_ERRORS, Session
from .words import card_text, level_name, rich_text, words


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

    def header(self, obs: Mapping[str, Any]) -> Text:
        s = self.session
        lab = s.labels
        parts = [lab.title]
        if isinstance(obs.get("round"), int):
            m = obs.get("max_rounds")
            parts.append(self.w["of_rounds"].format(n=obs["round"] + 1, m=m) if isinstance(m, int)
                         else self.w["round"].format(n=obs["round"] + 1))
        if isinstance(obs.get("phase"), str):
            parts.append(lab.phase_name(obs["phase"]))
        if isinstance(obs.get("dealer"), int):
            parts.append(f"{self.w['dealer']}: {s.seat_name(obs['dealer'])}")
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

    def roles(self, obs: Mapping[str, Any]) -> list[list[str]]:
        """Each seat's roles now (dealer, president, declarer, your partner…), from the labels."""
        try:
            return self.session.labels.roles(obs)
        except RENDER_ERRORS:
            return []

    def ring(self, obs: Mapping[str, Any]) -> RenderableType:
        s = self.session
        lab = s.labels
        roles = self.roles(obs)
        n = s.game.num_players
        to_act = set(obs.get("to_act") or [])
        trick = {e["seat"]: e for e in obs.get("trick") or [] if isinstance(e, Mapping) and "seat" in e}
        tricks = obs.get("tricks") or []
        last = tricks[-1] if tricks and isinstance(tricks[-1], Mapping) else None
        shown_last = not trick and last is not None and isinstance(last.get("cards"), list)
        if shown_last and last is not None:
            seats = last.get("seats") or [(int(last.get("leader", 0)) + k) % n for k in range(len(last["cards"]))]
            trick = {seat: {"seat": seat, "card": c} for seat, c in zip(seats, last["cards"])}
        cells: dict[tuple[int, int], RenderableType] = {}
        sizes = obs.get("hand_sizes") or [None] * n
        won = obs.get("tricks_won") or [None] * n
        scores = obs.get("scores") or [None] * n
        for seat, place in self.positions().items():
            name = Text()
            if seat in to_act and not s.state.is_over():
                name.append("▶ ", style="bold green")
            name.append(self.seat_label(seat), style="bold" if seat == s.human else "")
            for role in roles[seat] if seat < len(roles) else ():
                name.append(f" [{role}]", style="bold magenta")
            if scores[seat] is not None:
                name.append("  " + self.w["points"].format(n=scores[seat]), style="bold yellow")
            stats = []
            if sizes[seat] is not None:
                stats.append(self.w["cards"].format(n=sizes[seat]))
            if won[seat] is not None:
                stats.append(self.w["tricks"].format(n=won[seat]))
            played = Text()
            entry = trick.get(seat)
            if entry is not None:
                card = card_text(entry.get("card"), lab)
                played.append("[")
                played.append_text(card)
                played.append("]")
                if shown_last:
                    played.stylize("dim")
                    if last is not None and last.get("winner") == seat:
                        played.append(" ★", style="yellow")
                for k, v in entry.items():
                    if v is True and k not in ("seat", "card"):
                        played.append(" " + str(lab.data["tags"].get(k, k)), style="italic cyan")
            cells[place] = Group(name, Text(" · ".join(stats), style="dim"), played)
        centre = Text()
        centre.append(self.w["trick"], style="bold")
        if isinstance(obs.get("led"), str) and obs["led"] in SUIT_SYMBOLS:
            centre.append(f"  {SUIT_SYMBOLS[obs['led']]}", style="bold red" if obs["led"] in "HD" else "bold")
        current = [e for e in obs.get("trick") or [] if isinstance(e, Mapping)]
        if current:
            centre.append("\n")
            for i, e in enumerate(current):
                centre.append("  " if i else "")
                centre.append_text(card_text(e.get("card"), lab))
        elif shown_last and last is not None and isinstance(last.get("winner"), int):
            centre.append("\n" + self.w["last_won"].format(who=s.seat_name(last["winner"])), style="dim")
        else:
            centre.append("\n" + self.w["no_trick"], style="dim")
        if (1, 1) not in cells:
            cells[(1, 1)] = centre
        grid = Table.grid(expand=True, padding=(0, 1))
        for _ in range(3):
            grid.add_column(ratio=1)
        for r in range(3):
            if any((r, c) in cells for c in range(3)):
                grid.add_row(*(cells.get((r, c), Text("")) for c in range(3)))
        return grid

    def status(self, obs: Mapping[str, Any]) -> Text:
        s = self.session
        rows = s.status(dict(obs))
        out = Text()
        for i, (k, v) in enumerate(rows):
            if i:
                out.append("\n")
            out.append(f"{k}: ", style="bold")
            out.append_text(rich_text(v, s.labels))
        return out

    def key_hints(self) -> Text:
        w = self.w
        pairs = [("h", w["k_hint"]), ("t", w["k_last"]), ("s", w["k_sheet"]), ("l", w["k_log"]), ("r", w["k_rules"])]
        if len(self.session.languages) > 1:
            pairs.append(("g", w["k_lang"]))
        pairs += [("?", w["k_help"]), ("q", w["k_quit"])]
        return key_line(pairs)

    def last_trick(self) -> RenderableType:
        s = self.session
        obs = s.observation()
        tricks = obs.get("tricks") or []
        if not tricks or not isinstance(tricks[-1], Mapping):
            return Text(self.w["no_last_trick"], style="dim")
        t = tricks[-1]
        n = s.game.num_players
        cards = t.get("cards") or []
        seats = t.get("seats") or [(int(t.get("leader", 0)) + k) % n for k in range(len(cards))]
        line = Text()
        for seat, c in zip(seats, cards):
            line.append(f"{s.seat_name(seat)} ")
            line.append_text(card_text(c, s.labels))
            line.append("   ")
        facts = Text()
        for k, v in s.trick_facts(t):
            facts.append(f"\n{k}: ", style="bold")
            facts.append_text(rich_text(v, s.labels))
        return Group(line, facts)

    def score_sheet(self) -> RenderableType:
        s = self.session
        obs = s.observation()
        n = s.game.num_players
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("#", justify="right")
        for seat in range(n):
            table.add_column(s.seat_name(seat), justify="right")
        for r, row in enumerate(obs.get("round_scores") or []):
            table.add_row(str(r + 1), *(str(v) for v in row))
        if obs.get("scores") is not None:
            table.add_row(self.w["total"], *(str(v) for v in obs["scores"]), style="bold")
        return table

    def log_text(self) -> Text:
        return Text("\n").join(Text(f"{i + 1:>4}  ") + rich_text(x.rich, self.session.labels)
                                for i, x in enumerate(self.session.log))

    def log_lines(self, lines: Sequence[Any]) -> Text:
        """Log lines drawn with their cards and suits in colour."""
        return Text("\n").join(rich_text(x.rich, self.session.labels) for x in lines)

    def summary_body(self, obs: Mapping[str, Any]) -> RenderableType:
        """The last round's points explained: the scoring written out (the game's ``explain``),
        then its summary's rows with their units, each seat's calculation step by step, the
        round's points and the totals (``torite.engine.summary``)."""
        s = self.session
        lab = s.labels
        n = s.game.num_players
        ends = [e for e in s.state.events if e.kind == "round_end" and e.visible_to(s.human)]
        data: Mapping[str, Any] = ends[-1].data if ends else {}
        out: list[RenderableType] = []
        try:
            explain = lab.explain_rich(data, s.names(), s.human)
        except RENDER_ERRORS:
            explain = []
        for k, v in explain:
            out.append(Text(f"{k}: ", style="bold") + rich_text(v, lab))
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("")
        for seat in range(n):
            table.add_column(s.seat_name(seat), justify="right")
        summary = data.get("summary") or {"rows": []}
        steps = summary.get("steps") or []
        for r in summary.get("rows", ()):
            label = lab.scoring_word(r["key"]) + (f" ×{r['per']}" if "per" in r else "")
            counted = "count" in r and r.get("per", 1) != 1
            cells = [f"{r['count'][i]} = {v}" if counted and r["count"][i] else str(v)
                     for i, v in enumerate(r["values"])]
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
            table.add_row(self.w["round_points"], *(f"{v:+}" for v in data["points"]), style="bold")
        totals = obs.get("scores")
        if isinstance(totals, list):
            table.add_row(self.w["total"], *(str(v) for v in totals), style="bold")
        out.append(table)
        return Group(*out)
