"""Play a game in the terminal's line mode (``--plain``) against bots: for screen readers and
scripts.

Only the protocol is used: the person's seat's view (:func:`torite.present.view.view`, the one
the web table and the Textual table draw too: its hand, the trick, the status rows, the decision)
and the events it may see; bots are driven by the shared driver (``torite.engine.driver``).  What the
game says (status rows, prompts, log lines, action names) comes from its labels, in the chosen
language, with "you" for the person's seat; this module holds only the table's generic words.
Cards, suits and contracts are spelled out as a screen reader reads them ("ace of spades",
"スペードのA", "스페이드 A"), never in the notation; every choice is listed with a number, and a
number is the answer (a card may also be typed by its rank and suit letter).  The choices are
numbered in the order the hand is read (a card of the hand where it lies in it), the other
choices after them in the rules' order.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from torite.bots import make_bot
from torite.cli.resume import Resumed
from torite.engine.base import Action, Game, IllegalAction, State
from torite.engine.bot import Bot
from torite.engine.driver import run
from torite.present.hint import suggest
from torite.present.labels import LabelError, Labels, Rich, korean
from torite.present.labels import load as load_labels
from torite.present.view import SeatView, ViewWords, view
from torite.present.view import words as words_of
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
        "resume": "Go on with it later: torite play --resume {path}",
        "resumed": "Going on with the game where it stopped, after {n} moves.",
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
        "resume": "続きから遊ぶには：torite play --resume {path}",
        "resumed": "中断したところ（{n}手目のあと）から続けます。",
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
        "resume": "이어서 하려면: torite play --resume {path}",
        "resumed": "중단한 곳({n}수 뒤)부터 이어서 합니다.",
        "pick": "1부터 {n}까지의 숫자를 고르세요",
        "not_legal": "{what}은(는) 지금 고를 수 없습니다. 1부터 {n}까지의 숫자를 고르세요",
        "bot_name": "{seat}번 자리({bot})",
        "level.random": "무작위", "level.easy": "쉬움", "level.normal": "보통", "level.hard": "어려움",
        "level.expert": "달인",
    },
}


#: a card typed as its rank and suit letter apart ("10 D", "q s"): joined before it is read
_SPACED_CARD = re.compile(r"(?<!\S)(10|[2-9AKQJT])\s+([CDHS])(?!\S)", re.IGNORECASE)


def joined_cards(text: str) -> str:
    """``play 10 D`` → ``play 10D``: the documented way of typing a card, rank and suit apart,
    read as the card (not as a rank and a suit argument)."""
    return _SPACED_CARD.sub(lambda m: m.group(1) + m.group(2), text)


def ordered(v: SeatView) -> list[Action]:
    """The seat's choices in the order they are read: a card of the hand where it lies in the hand
    (as it is read out), every other choice after them in the rules' order."""
    place = {c: i for i, c in enumerate(v.hand)}

    def key(item: tuple[int, Action]) -> tuple[int, int]:
        i, a = item
        if a.cards and a.cards.bit_count() == 1 and a.card in place:
            return (0, place[a.card])
        return (1, i)

    return [a for _, a in sorted(enumerate(v.legal), key=key)]


def per_seat(text: str, n: int, label: Callable[[int], str], sep: str) -> str:
    """A status row that counts something for each seat ("2 / 1 / 1", as the labels write a
    count a seat) read with the seats' names ("you 2, seat 1 (normal) 1, …"): a list of bare
    numbers is nothing a listener can follow.  Any other text is said as it is."""
    parts = text.split(" / ")
    if len(parts) != n or not all(re.fullmatch(r"-?\d+", p.strip()) for p in parts):
        return text
    return sep.join(f"{label(s)} {p.strip()}" for s, p in enumerate(parts))


def decision_lines(v: SeatView, vw: ViewWords, words: dict[str, str], label: Callable[[int], str]) -> list[str]:
    """What the line mode says at the person's decision, from their view: the round, the status
    rows (a count a seat with the seats' names), the trick, the hand, what to do (once: a status
    row named after the phase is its instruction, said by the prompt), and the choices numbered
    (:func:`ordered`)."""
    lab = vw.labels
    game = v.game

    def card_name(card: int | None) -> str:
        return lab.card_text(None if card is None else game.card_text(card), spoken=True)

    colon = words["colon"]  # between a row's label and its value, as the language writes it
    scores = " / ".join(f"{label(s)} {v.seats[s].score}" for s in range(v.num_players))
    # the game's own word for a round ("Deal 3" where the game says deal), from its labels
    number = lab.round_name((v.round or 0) + 1)
    out = [words["round_line"].format(round=number, dealer=label(v.dealer or 0), scores=scores)]
    for row in vw.status:  # (a row that repeats the prompt is not among them: present.view.words)
        said = per_seat(lab.text(row.value, spoken=True), v.num_players, label, words["list_sep"])
        out.append(f"  {row.label}{colon}{said}")
    if v.trick.cards:
        out.append(f"  {words['trick']}{colon}" + words["list_sep"].join(
            f"{label(t.seat)} {card_name(t.card)}" for t in v.trick.cards))
    out.append(f"  {words['your_hand']}{colon}" + show_hand(game, v.hand, lab))
    if vw.prompt:
        out.append("  " + lab.text(vw.prompt, spoken=True))
    out.append(f"  {words['choose']}{colon}" + "  ".join(f"{i + 1}) {lab.action_text(a, spoken=True)}"
                                                      for i, a in enumerate(ordered(v))))
    return out


def read_action(text: str, legal: Sequence[Action], game: Game, words: dict[str, str] | None = None,
                labels: Labels | None = None, state: State | None = None, seat: int | None = None) -> Action:
    """Turn what a person typed into one of ``legal``: a number picks from the list; a card (or
    an action's notation, for scripts) names it.  Anything else is refused in the person's
    words, never with a rules module's English reason; a choice the rules refuse says which
    rule (``state.refusal``, in the labels' words: "you must follow suit")."""
    w = words or WORDS["en"]
    t = joined_cards(text.strip())
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


def show_hand(game: Game, hand: Sequence[int], labels: Labels) -> str:
    """The hand in display order (the view's), each card spelled out."""
    return labels.word("card_sep").join(labels.card_text(game.card_text(c), spoken=True) for c in hand)


def play_terminal(game: Game, human: int, bots: Sequence[str], seed: int, *, records: Path,
                  inp: TextIO | None = None, out: TextIO | None = None,
                  ask: Callable[[str], str] | None = None, lang: str = "en",
                  max_rounds: int | None = None, resumed: Resumed | None = None) -> Record:
    """Play in the line mode; ``resumed``: an unfinished game's record replayed to where it
    stopped (``--resume``), played on and saved back to its file."""
    labels: Labels = load_labels(game, lang)  # an unknown language fails here, before anything is played
    inp = sys.stdin if inp is None else inp  # read at call time, so a redirected stdin is used
    out = sys.stdout if out is None else out
    words = WORDS.get(lang, WORDS["en"])
    colon = words["colon"]  # between a row's label and its value, as the language writes it
    n = game.num_players
    record_names: list[str] = []
    players: dict[int, Bot] = {}
    if resumed is not None:
        state: State = resumed.state
        players = dict(resumed.bots)
        rec = resumed.record
        record_names = list(rec.seats)
        human = resumed.human
        seed = rec.seed or 0
        path = resumed.path
    else:
        state = game.new_state(seed, max_rounds=max_rounds)
        bi = 0
        for s in range(n):
            if s == human:
                record_names.append("you")
            else:
                record_names.append(f"bot:{bots[bi]}")
                players[s] = make_bot(bots[bi], game, s, derive_seed(seed, "bot", s))
                bi += 1
        rec = start_record(game, seed, record_names, max_rounds=max_rounds)
        path = records / f"{game.id}-{seed}.json"
    hints = (rec.hints or [0] * n)[human]
    you = labels.word("you")
    # the game's texts name the person "you" and the others by seat, in the chosen language
    names: list[str | None] = [you if s == human else None for s in range(n)]
    # a resumed game is not read again from its start: where it stands is said at the decision
    shown = len(state.events) if resumed is not None else 0

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

    def card_name(card: int | None) -> str:
        return labels.card_text(None if card is None else game.card_text(card), spoken=True)

    others = words["list_sep"].join(words["other"].format(seat=s, level=level(s)) for s in range(n)
                                    if s != human)
    say(words["intro"].format(title=labels.title, seat=human, others=others))
    if resumed is not None:
        say(words["resumed"].format(n=len(rec.actions)))
    say(words["help_hint"])
    quit_early = False
    while not quit_early:
        run(state, players, on_action=recorded)  # the bots decide until the person must
        flush_events()
        if state.is_over():
            break
        seat = human
        seen = view(state, seat, deciding=True)
        said = words_of(seen, lang, names, you=human)
        legal = ordered(seen)
        obs = seen.observation  # what the hint's bot is given: exactly what a bot would see
        say("")
        for text in decision_lines(seen, said, words, label):
            say(text)
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
                say(f"  {words['your_hand']}{colon}" + show_hand(game, seen.hand, labels))
                continue
            if cmd == "last":
                t = seen.last_trick
                last = (words["won_by"].format(
                    cards=labels.word("card_sep").join(card_name(p.card) for p in t.cards),
                    who=label(t.winner if t.winner is not None else 0)) if t is not None else words["none_yet"])
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
    rec.save(path)
    say(words["saved"].format(path=path))
    if not state.is_over():
        say(words["resume"].format(path=path))
    return rec
