"""Play a game in the terminal against bots.

Only the protocol is used: the observation of the human's seat, its legal actions and the
events it may see; bots are driven by the shared driver (``torite.engine.driver``).  What the
game says (status rows, prompts, log lines, action names) comes from its labels, in the chosen
language, with "you" for the person's seat; this module holds only the table's generic words.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from torite.bots import make_bot
from torite.cards import card_str, parse_card
from torite.engine.base import Action, Game, IllegalAction, State
from torite.engine.bot import Bot
from torite.engine.driver import run
from torite.engine.labels import Labels
from torite.record import Record, start_record
from torite.sim import derive_seed

#: The terminal's own words (generic: nothing here belongs to one game).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "help": "Type an action: a card (10D, QS, JK1), several cards (KC QC), a suit letter (S), or\n"
                "the notation shown in brackets ([play 10D], [pass]). A number picks that entry of\n"
                "the list of choices. Other commands: hand, last (the last trick), help, quit.",
        "intro": "{title}: you are seat {seat}; {others}",
        "other": "seat {seat} is {who}",
        "list_sep": ", ",
        "help_hint": "Type 'help' for how to enter moves.",
        "round_line": "Round {round} · dealer {dealer} · scores {scores}",
        "trick": "trick",
        "your_hand": "your hand",
        "choose": "choose",
        "many": "{kind}: {n} choices, e.g. '{example}'",
        "last_trick": "last trick",
        "won_by": "{cards} won by {who}",
        "none_yet": "none yet",
        "final": "Final scores: {scores}",
        "winner": "Winner: {who}",
        "unfinished": "Game left unfinished.",
        "saved": "Record saved to {path} (replay it with: torite replay {path})",
        "pick": "pick a number from 1 to {n}",
        "bot_name": "seat {seat} ({bot})",
    },
    "ja": {
        "help": "アクションを入力してください：カード（10D、QS、JK1）、複数のカード（KC QC）、スートの文字（S）、\n"
                "または［ ］内の記法（[play 10D]、[pass]）。数字を入力すると選択肢の一覧からその番号を選びます。\n"
                "ほかのコマンド：hand（手札）、last（直前のトリック）、help（この説明）、quit（終了）。",
        "intro": "{title}：あなたは席{seat}です。{others}",
        "other": "席{seat}は{who}",
        "list_sep": "、",
        "help_hint": "入力のしかたは help で表示します。",
        "round_line": "第{round}ラウンド · ディーラー {dealer} · 得点 {scores}",
        "trick": "トリック",
        "your_hand": "あなたの手札",
        "choose": "選択肢",
        "many": "{kind}：選択肢は{n}通り（例：'{example}'）",
        "last_trick": "直前のトリック",
        "won_by": "{cards}（{who}が取りました）",
        "none_yet": "まだありません",
        "final": "最終得点：{scores}",
        "winner": "勝者：{who}",
        "unfinished": "ゲームは途中で終了しました。",
        "saved": "記録を保存しました：{path}（再生するには：torite replay {path}）",
        "pick": "1から{n}までの数字を選んでください",
        "bot_name": "席{seat}（{bot}）",
    },
    "ko": {
        "help": "행동을 입력하세요: 카드(10D, QS, JK1), 여러 장의 카드(KC QC), 무늬 글자(S), 또는\n"
                "대괄호 안의 표기([play 10D], [pass]). 숫자를 입력하면 선택지 목록에서 그 번호를 고릅니다.\n"
                "그 밖의 명령: hand(손패), last(직전 트릭), help(이 도움말), quit(종료).",
        "intro": "{title}: 당신은 {seat}번 자리입니다. {others}",
        "other": "{seat}번 자리는 {who}",
        "list_sep": ", ",
        "help_hint": "입력 방법은 help 로 볼 수 있습니다.",
        "round_line": "{round}라운드 · 딜러 {dealer} · 점수 {scores}",
        "trick": "트릭",
        "your_hand": "내 손패",
        "choose": "선택지",
        "many": "{kind}: 선택지 {n}가지 (예: '{example}')",
        "last_trick": "직전 트릭",
        "won_by": "{cards} ({who} 승리)",
        "none_yet": "아직 없습니다",
        "final": "최종 점수: {scores}",
        "winner": "승자: {who}",
        "unfinished": "게임이 끝나지 않은 채 종료되었습니다.",
        "saved": "기록을 저장했습니다: {path} (다시 보기: torite replay {path})",
        "pick": "1부터 {n}까지의 숫자를 고르세요",
        "bot_name": "{seat}번 자리({bot})",
    },
}


def read_action(text: str, legal: Sequence[Action], game: Game, words: dict[str, str] | None = None) -> Action:
    """Turn what a person typed into an action (a number picks from ``legal``)."""
    t = text.strip()
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise IllegalAction((words or WORDS["en"])["pick"].format(n=len(legal)))
    kinds = {a.kind for a in legal}
    first = t.split()[0].lower() if t.split() else ""
    if first not in kinds and len(kinds) == 1:
        t = f"{next(iter(kinds))} {t}"
    return game.parse_action(t)  # the rules check it when it is applied, with their reason


def show_hand(game: Game, hand: Sequence[str], legal: Sequence[Action]) -> str:
    """The hand in display order; a card that a one-card legal action names is marked ``*``."""
    legal_cards = 0
    for a in legal:
        if a.cards.bit_count() == 1:
            legal_cards |= a.cards
    cards = sorted((parse_card(c) for c in hand), key=game.sort_key)
    out = []
    for c in cards:
        mark = "*" if legal_cards >> c & 1 else " "
        out.append(f"{mark}{card_str(c)}")
    return " ".join(out)


def play_terminal(game: Game, human: int, bots: Sequence[str], seed: int, *, records: Path,
                  inp: TextIO | None = None, out: TextIO | None = None,
                  ask: Callable[[str], str] | None = None, lang: str = "en",
                  max_rounds: int | None = None) -> Record:
    labels: Labels = game.labels(lang)  # an unknown language fails here, before anything is played
    inp = sys.stdin if inp is None else inp  # read at call time, so a redirected stdin is used
    out = sys.stdout if out is None else out
    words = WORDS.get(lang, WORDS["en"])
    state: State = game.new_state(seed, max_rounds=max_rounds)
    n = game.num_players
    record_names = []
    players: dict[int, Bot] = {}
    bi = 0
    for s in range(n):
        if s == human:
            record_names.append("you")
        else:
            record_names.append(f"bot:{bots[bi]}")
            players[s] = make_bot(bots[bi], game, s, derive_seed(seed, "bot", s))
            bi += 1
    rec = start_record(game, seed, record_names, max_rounds=max_rounds)
    you = labels.word("you")
    # the game's texts name the person "you" and the others by seat, in the chosen language
    names: list[str | None] = [you if s == human else None for s in range(n)]
    shown = 0

    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    def label(seat: int) -> str:
        if seat == human:
            return you
        return words["bot_name"].format(seat=seat, bot=record_names[seat][4:])

    def flush_events() -> None:
        nonlocal shown
        for e in state.events[shown:]:
            if e.visible_to(human) and e.kind != "deal":
                text = labels.event_text(e, names, human)
                if text:
                    say("  " + text)
        shown = len(state.events)

    def prompt(msg: str) -> str | None:
        if ask is not None:
            return ask(msg)
        print(msg, end="", file=out, flush=True)
        line = inp.readline()
        return None if line == "" else line

    def recorded(seat: int, action: Action, seconds: float) -> None:
        rec.actions.append((seat, game.action_text(action)))

    def choice(a: Action) -> str:
        text = labels.action_text(a)
        return text if text == game.action_text(a) else f"{text} [{game.action_text(a)}]"

    others = words["list_sep"].join(words["other"].format(seat=s, who=record_names[s]) for s in range(n)
                                    if s != human)
    say(words["intro"].format(title=labels.title, seat=human, others=others))
    say(words["help_hint"])
    quit_early = False
    while not quit_early:
        run(state, players, on_action=recorded)  # the bots decide until the person must
        flush_events()
        if state.is_over():
            break
        seat = human
        legal = state.legal_actions(seat)
        obs = state.observation(seat)
        say("")
        say(words["round_line"].format(round=obs["round"] + 1, dealer=label(obs["dealer"]), scores=" / ".join(
            f"{label(s)} {obs['scores'][s]}" for s in range(n))))
        for k, v in labels.status(obs, names):
            say(f"  {k}: {v}")
        if obs.get("trick"):
            say(f"  {words['trick']}: " + words["list_sep"].join(
                f"{label(t['seat'])} {t['card'] or labels.word('hidden')}" for t in obs["trick"]))
        say(f"  {words['your_hand']}: " + show_hand(game, obs["hand"], legal))
        why = labels.phase_prompt(obs["phase"])
        if why:
            say("  " + why)
        if legal[0].kind != "play":
            if len(legal) <= 12:
                say(f"  {words['choose']}: " + "  ".join(f"{i + 1}) {choice(a)}" for i, a in enumerate(legal)))
            else:
                say("  " + words["many"].format(kind=labels.action_label(legal[0].kind), n=len(legal),
                                                example=legal[0]))
        while True:
            line = prompt(f"{labels.action_label(legal[0].kind)}> ")
            if line is None or line.strip().lower() in ("quit", "exit", "q"):
                quit_early = True
                break
            cmd = line.strip().lower()
            if cmd in ("help", "?", ""):
                say(words["help"])
                continue
            if cmd == "hand":
                say(f"  {words['your_hand']}: " + show_hand(game, obs["hand"], legal))
                continue
            if cmd == "last":
                tricks = obs.get("tricks") or []
                last = (words["won_by"].format(cards=" ".join(tricks[-1]["cards"]), who=label(tricks[-1]["winner"]))
                        if tricks else words["none_yet"])
                say(f"  {words['last_trick']}: {last}")
                continue
            try:
                action = read_action(line, legal, game, words)
                state.apply(seat, action)
            except (IllegalAction, ValueError) as e:
                say(f"  ! {e}")
                continue
            rec.actions.append((seat, game.action_text(action)))
            break
    flush_events()
    if state.is_over():
        res = state.result()
        rec.result = res.to_json()
        say("")
        say(words["final"].format(scores=" / ".join(f"{label(s)} {res.scores[s]}" for s in range(n))))
        say(words["winner"].format(who=words["list_sep"].join(label(s) for s in res.winners)))
    else:
        say(words["unfinished"])
    path = records / f"{game.id}-{seed}.json"
    rec.save(path)
    say(words["saved"].format(path=path))
    return rec
