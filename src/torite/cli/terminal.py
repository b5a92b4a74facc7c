"""Play a game in the terminal's line mode (``--plain``) against bots: for screen readers and
scripts.

Only the protocol is used: the observation of the human's seat, its legal actions and the
events it may see; bots are driven by the shared driver (``torite.engine.driver``).  What the
game says (status rows, prompts, log lines, action names) comes from its labels, in the chosen
language, with "you" for the person's seat; this module holds only the table's generic words.
Cards, suits and contracts are spelled out as a screen reader reads them ("ace of spades",
"スペードのA", "스페이드 A"), never in the notation; every choice is listed with a number, and a
number is the answer (a card may also be typed by its rank and suit letter).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from torite.bots import make_bot
from torite.cards import card_str, parse_card
from torite.engine.base import Action, Game, IllegalAction, State
from torite.engine.bot import Bot
from torite.engine.driver import run
from torite.present.hint import suggest
from torite.present.labels import LabelError, Labels, Rich, korean
from torite.present.labels import load as load_labels
from torite.record import Record, start_record
from torite.sim import derive_seed

#: The terminal's own words (generic: nothing here belongs to one game).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "help": "Type the number of a choice from the list. A card may also be typed by its rank and the\n"
                "first letter of its suit in English (10 D for the 10 of diamonds, Q S for the queen of\n"
                "spades). Other commands: hand, last (the last trick), hint, help, quit.",
        "hint": "Hint: {action}",
        "intro": "{title}: you are seat {seat}; {others}",
        "other": "seat {seat} is a bot ({level})",
        "list_sep": ", ",
        "colon": ": ",
        "help_hint": "Type 'help' for how to enter moves.",
        "round_line": "{round} · dealer {dealer} · scores {scores}",
        "trick": "trick",
        "your_hand": "your hand",
        "choose": "choose",
        "last_trick": "last trick",
        "won_by": "{cards}, won by {who}",
        "none_yet": "none yet",
        "final": "Final scores: {scores}",
        "winner": "Winner: {who}",
        "winners": "Winners: {who}",
        "unfinished": "Game left unfinished.",
        "saved": "Record saved to {path} (replay it with: torite replay {path})",
        "pick": "pick a number from 1 to {n}",
        "not_legal": "{what} cannot be chosen now; pick a number from 1 to {n}",
        "bot_name": "seat {seat} ({bot})",
        "level.random": "random", "level.easy": "easy", "level.normal": "normal", "level.hard": "hard",
        "level.expert": "expert",
    },
    "ja": {
        "help": "選択肢の番号を入力してください。カードはランクとスートの英語の頭文字でも入力できます\n"
                "（ダイヤの10なら 10 D、スペードのQなら Q S）。\n"
                "ほかのコマンド：hand（手札）、last（直前のトリック）、hint（ヒント）、help（この説明）、quit（終了）。",
        "hint": "ヒント：{action}",
        "intro": "{title}：あなたは席{seat}です。{others}",
        "other": "席{seat}はボット（{level}）",
        "list_sep": "、",
        "colon": "：",
        "help_hint": "入力のしかたは help で表示します。",
        "round_line": "{round} · ディーラー {dealer} · 得点 {scores}",
        "trick": "トリック",
        "your_hand": "あなたの手札",
        "choose": "選択肢",
        "last_trick": "直前のトリック",
        "won_by": "{cards}（{who}が取りました）",
        "none_yet": "まだありません",
        "final": "最終得点：{scores}",
        "winner": "勝者：{who}",
        "winners": "勝者：{who}",
        "unfinished": "ゲームは途中で終了しました。",
        "saved": "記録を保存しました：{path}（再生するには：torite replay {path}）",
        "pick": "1から{n}までの数字を選んでください",
        "not_legal": "{what}はいま選べません。1から{n}までの数字を選んでください",
        "bot_name": "席{seat}（{bot}）",
        "level.random": "ランダム", "level.easy": "やさしい", "level.normal": "ふつう", "level.hard": "強い",
        "level.expert": "達人",
    },
    "ko": {
        "help": "선택지의 번호를 입력하세요. 카드는 숫자와 무늬의 영어 첫 글자로도 입력할 수 있습니다\n"
                "(다이아몬드 10이면 10 D, 스페이드 Q면 Q S).\n"
                "그 밖의 명령: hand(손패), last(직전 트릭), hint(힌트), help(이 도움말), quit(종료).",
        "hint": "힌트: {action}",
        "intro": "{title}: 나는 {seat}번 자리입니다. {others}",
        "other": "{seat}번 자리는 봇({level})",
        "list_sep": ", ",
        "colon": ": ",
        "help_hint": "입력 방법은 help 로 볼 수 있습니다.",
        "round_line": "{round} · 딜러 {dealer} · 점수 {scores}",
        "trick": "트릭",
        "your_hand": "내 손패",
        "choose": "선택지",
        "last_trick": "직전 트릭",
        "won_by": "{cards} ({who} 승리)",
        "none_yet": "아직 없습니다",
        "final": "최종 점수: {scores}",
        "winner": "승자: {who}",
        "winners": "승자: {who}",
        "unfinished": "게임이 끝나지 않은 채 종료되었습니다.",
        "saved": "기록을 저장했습니다: {path} (다시 보기: torite replay {path})",
        "pick": "1부터 {n}까지의 숫자를 고르세요",
        "not_legal": "{what}은(는) 지금 고를 수 없습니다. 1부터 {n}까지의 숫자를 고르세요",
        "bot_name": "{seat}번 자리({bot})",
        "level.random": "무작위", "level.easy": "쉬움", "level.normal": "보통", "level.hard": "어려움",
        "level.expert": "달인",
    },
}


def read_action(text: str, legal: Sequence[Action], game: Game, words: dict[str, str] | None = None,
                labels: Labels | None = None, state: State | None = None, seat: int | None = None) -> Action:
    """Turn what a person typed into one of ``legal``: a number picks from the list; a card (or
    an action's notation, for scripts) names it.  Anything else is refused in the person's
    words, never with a rules module's English reason; a choice the rules refuse says which
    rule (``state.refusal``, in the labels' words: "you must follow suit")."""
    w = words or WORDS["en"]
    t = text.strip()
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise IllegalAction(w["pick"].format(n=len(legal)))
    kinds = {a.kind for a in legal}
    first = t.split()[0].lower() if t.split() else ""
    if first not in kinds and len(kinds) == 1:
        t = f"{next(iter(kinds))} {t}"
    try:
        action = game.parse_action(t)
    except ValueError:
        raise IllegalAction(w["pick"].format(n=len(legal))) from None
    if action not in legal:
        what = text.strip()
        if labels is not None:
            with contextlib.suppress(LabelError):  # not an action its words can say: as typed
                what = labels.action_text(action, spoken=True)
        message = korean.finish(w["not_legal"].format(what=what, n=len(legal)))  # 카드는, 카드1은
        why = state.refusal(seat, action) if state is not None and seat is not None and labels is not None else None
        if why is not None and why.rule != "not_now" and labels is not None:  # "not now" says no more
            with contextlib.suppress(LabelError, KeyError, TypeError, ValueError):
                message = labels.text(labels.reason_rich(why.rule, why.data), spoken=True) + " " + message
        raise IllegalAction(message)
    return action


def show_hand(game: Game, hand: Sequence[str], labels: Labels) -> str:
    """The hand in display order, each card spelled out."""
    cards = sorted((parse_card(c) for c in hand), key=game.sort_key)
    return labels.word("card_sep").join(labels.card_text(card_str(c), spoken=True) for c in cards)


def play_terminal(game: Game, human: int, bots: Sequence[str], seed: int, *, records: Path,
                  inp: TextIO | None = None, out: TextIO | None = None,
                  ask: Callable[[str], str] | None = None, lang: str = "en",
                  max_rounds: int | None = None) -> Record:
    labels: Labels = load_labels(game, lang)  # an unknown language fails here, before anything is played
    inp = sys.stdin if inp is None else inp  # read at call time, so a redirected stdin is used
    out = sys.stdout if out is None else out
    words = WORDS.get(lang, WORDS["en"])
    colon = words["colon"]  # between a row's label and its value, as the language writes it
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
    hints = 0
    you = labels.word("you")
    # the game's texts name the person "you" and the others by seat, in the chosen language
    names: list[str | None] = [you if s == human else None for s in range(n)]
    shown = 0

    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    def spoken(rich: Rich | None) -> str:
        return labels.text(rich, spoken=True)

    def level(seat: int) -> str:
        bot = record_names[seat][4:]
        return words.get(f"level.{bot}", bot)

    def label(seat: int) -> str:
        if seat == human:
            return you
        return words["bot_name"].format(seat=seat, bot=level(seat))

    def flush_events() -> None:
        nonlocal shown
        for e in state.events[shown:]:
            if e.visible_to(human) and e.kind != "deal":
                rich = labels.event_rich(e, names, human)
                if rich:
                    say("  " + spoken(rich))
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
        return labels.action_text(a, spoken=True)

    others = words["list_sep"].join(words["other"].format(seat=s, level=level(s)) for s in range(n)
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
        # the game's own word for a round ("Deal 3" where the game says deal), from its labels
        number = labels.word("round_no").replace("{n}", str(obs["round"] + 1)).replace(
            "{nth}", labels.ordinal(obs["round"] + 1))
        say(words["round_line"].format(round=number, dealer=label(obs["dealer"]), scores=" / ".join(
            f"{label(s)} {obs['scores'][s]}" for s in range(n))))
        for k, v in labels.status_rich(obs, names):
            say(f"  {k}{colon}{spoken(v)}")
        if obs.get("trick"):
            say(f"  {words['trick']}{colon}" + words["list_sep"].join(
                f"{label(t['seat'])} {labels.card_text(t['card'], spoken=True)}" for t in obs["trick"]))
        say(f"  {words['your_hand']}{colon}" + show_hand(game, obs["hand"], labels))
        why = labels.phase_prompt(obs["phase"], obs)
        if why:
            say("  " + why)
        say(f"  {words['choose']}{colon}" + "  ".join(f"{i + 1}) {choice(a)}" for i, a in enumerate(legal)))
        while True:
            line = prompt(f"{labels.action_label(legal[0].kind)}> ")
            if line is None or line.strip().lower() in ("quit", "exit", "q"):
                quit_early = True
                break
            cmd = line.strip().lower()
            if cmd in ("help", "?", ""):
                say(words["help"])
                continue
            if cmd in ("hint", "h"):  # the normal bot's choice from what the person sees, and why
                hinted, reason = suggest(game, seat, obs, legal)
                hints += 1
                rec.hints = [hints if s == human else 0 for s in range(n)]
                why = spoken(labels.hint_rich(reason.key, reason.data, names)) if reason is not None else ""
                say("  " + words["hint"].format(action=choice(hinted)) + (" — " + why if why else ""))
                continue
            if cmd == "hand":
                say(f"  {words['your_hand']}{colon}" + show_hand(game, obs["hand"], labels))
                continue
            if cmd == "last":
                tricks = obs.get("tricks") or []
                last = (words["won_by"].format(cards=spoken([{"t": "cards", "cards": tricks[-1]["cards"]}]),
                                               who=label(tricks[-1]["winner"]))
                        if tricks else words["none_yet"])
                say(f"  {words['last_trick']}{colon}{last}")
                continue
            try:
                action = read_action(line, legal, game, words, labels, state, seat)
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
        who = labels.join([label(s) for s in res.winners])
        say(words["winner" if len(res.winners) == 1 else "winners"].format(who=who))
    else:
        say(words["unfinished"])
    path = records / f"{game.id}-{seed}.json"
    rec.save(path)
    say(words["saved"].format(path=path))
    return rec
