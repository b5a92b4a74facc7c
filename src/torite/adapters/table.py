"""A torite game's table as plain text a person reads: the ``ansi`` rendering of the research
environments (PettingZoo and Gymnasium).

Why its own module: both environments show the same table, and what it says must be words in
the reader's language (English, Japanese or Korean), never JSON or the action notation: seat
names, phases, the game's status rows and cards come from the game's labels
(:mod:`torite.present.labels`: cards as the tables show them, ``♠A``, ``♥10``); the few words of
the table itself are below.  It shows the public view (a spectator's observation), so printing it
shows an agent nothing its seat may not know.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from torite.engine.base import State
from torite.present.labels import Labels
from torite.present.labels import load as load_labels

#: the table's own words (everything a game says comes from its labels)
WORDS: dict[str, dict[str, str]] = {
    "en": {"round": "round {n}", "to_act": "to act: {who}", "seat": "seat", "cards": "cards",
           "tricks": "tricks", "points": "this round", "total": "total", "trick": "in the trick",
           "dealer": "{who} (dealer)", "row": "{label}: {value}", "last_trick": "last trick",
           "won_by": "{cards}, won by {who}", "over": "game over", "winner": "winner: {who}", "sep": ", "},
    "ja": {"round": "第{n}ラウンド", "to_act": "手番：{who}", "seat": "席", "cards": "手札",
           "tricks": "トリック", "points": "このラウンド", "total": "合計", "trick": "場のカード",
           "dealer": "{who}（ディーラー）", "row": "{label}：{value}", "last_trick": "直前のトリック",
           "won_by": "{cards}（{who}が取りました）", "over": "ゲーム終了", "winner": "勝者：{who}", "sep": "、"},
    "ko": {"round": "{n}라운드", "to_act": "차례: {who}", "seat": "자리", "cards": "손패",
           "tricks": "트릭", "points": "이번 라운드", "total": "합계", "trick": "낸 카드",
           "dealer": "{who} (딜러)", "row": "{label}: {value}", "last_trick": "직전 트릭",
           "won_by": "{cards} ({who} 승리)", "over": "게임 종료", "winner": "승자: {who}", "sep": ", "},
}
LANGS = tuple(WORDS)


def check_lang(lang: str) -> str:
    if lang not in WORDS:
        raise ValueError(f"lang must be one of {', '.join(LANGS)}, not {lang!r}")
    return lang


def _width(text: str) -> int:
    """Columns a terminal gives ``text``: two for a wide (Japanese, Korean) character."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - _width(text))
    return gap + text if right else text + gap


def _grid(rows: Sequence[Sequence[str]], numeric: Sequence[bool]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(_pad(cell, w, right=numeric[i] and k > 0) for i, (cell, w) in enumerate(zip(row, widths)))
            .rstrip() for k, row in enumerate(rows)]


def render(state: State, lang: str = "en") -> str:
    """The table now, as lines of text: the round and whose turn it is; per seat its cards in
    hand, tricks, points this round, total and its card in the current trick; the game's status
    rows (trump, contract, ...); the last trick; at the end the final scores and the winners."""
    labels: Labels = load_labels(state.game, lang)
    words = WORDS[lang]
    obs = state.observation(None)
    n = state.game.num_players
    name = [labels.name_of(s, None) for s in range(n)]
    sep = words["sep"]
    over = state.is_over()
    head = [labels.title, words["round"].replace("{n}", str(int(obs.get("round") or 0) + 1))]
    if over:
        head.append(words["over"])
    else:
        head.append(labels.phase_name(str(obs.get("phase"))))
        head.append(words["to_act"].replace("{who}", sep.join(name[s] for s in obs.get("to_act") or ())))
    lines = [" · ".join(head)]
    played = {e.get("seat"): labels.card_text(e.get("card")) for e in obs.get("trick") or ()}
    rows = [[words["seat"], words["cards"], words["tricks"], words["points"], words["total"], words["trick"]]]
    for s in range(n):
        who = words["dealer"].replace("{who}", name[s]) if obs.get("dealer") == s else name[s]
        rows.append([who, str(_at(obs, "hand_sizes", s)), str(_at(obs, "tricks_won", s)),
                     str(_at(obs, "round_points", s)), str(_at(obs, "scores", s)), played.get(s, "")])
    lines += _grid(rows, [False, True, True, True, True, False])
    for label, value in labels.status(obs):
        if value:
            lines.append(words["row"].replace("{label}", label).replace("{value}", value))
    tricks = obs.get("tricks") or []
    if tricks:
        last = tricks[-1]
        cards = " ".join(labels.card_text(c) for c in last.get("cards") or ())
        winner = last.get("winner")
        won = words["won_by"].replace("{cards}", cards).replace(
            "{who}", name[winner] if isinstance(winner, int) and 0 <= winner < n else "")
        lines.append(words["row"].replace("{label}", words["last_trick"]).replace("{value}", won))
    if over:
        result = state.result()
        lines.append(words["winner"].replace("{who}", sep.join(name[s] for s in result.winners)))
    return "\n".join(lines)


def _at(obs: Mapping[str, Any], key: str, seat: int) -> Any:
    values = obs.get(key) or []
    return values[seat] if seat < len(values) else ""
