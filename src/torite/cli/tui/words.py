"""The terminal table's own words: generic, nothing here belongs to one game (a game's words
come from its labels).  English, Japanese and Korean; a language the labels offer and this
table does not falls back to English for these few words.  And the table's one formatter of
the labels' rich text: cards, suits and contracts as Rich text in their colours."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text

from torite.present.labels import SUIT_SYMBOLS, Labels

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "card_1": "1 card",
        "cards_n": "{n} cards",
        "cards_range": "{a}–{b} cards",
        "ctrl_c_title": "Quit?",
        "ctrl_c": "Press q to quit (the game is saved and can be resumed).",
        "quit_ask": "Quit this game? It is saved, and torite play --resume goes on with it later.",
        "quit_keys": "y: quit · n: keep playing",
        "resume": "Go on with it later: torite play --resume {path}",
        "pile_by": "{pile} (played by {who})",
        "replay_help": ("←/→ step · Home/End the deal, the end · t/T next/previous trick · r/R next/previous round\n"
                        "v whose eyes · h what hard would play · s score sheet · l log · g language · ? keys · q quit\n"
                        "PgUp/PgDn scroll the table"),
        "replay_start": "The deal. → steps through the game.",
        "replay_next": "Next: {who}.",
        "k_ends": "start/end",
        "of_rounds": "{round} of {m}",
        "dealer": "dealer",
        "cards": "cards {n}",
        "tricks": "tricks {n}",
        "points": "{n} pts",
        "bot": "{name} · {level}",
        "trick": "Trick",
        "no_trick": "no card played yet",
        "last_won": "last trick: {who} won",
        "your_turn": "Your turn: choose a card.",
        "your_choice": "Your turn: {kind}.",
        "select_n": "Select {n} for “{kind}” (Space), then confirm (c).",
        "selected": "({k} selected)",
        "confirm": "c: {text}",
        "waiting": "Waiting for {who}…",
        "waiting_simul": "Waiting for the others…",
        "not_legal": "{card} cannot be chosen now.",
        "no_such_set": "Those cards are not a legal choice; select others.",
        "pick_title": "{kind}: choose any card (arrows, Enter)",
        "bid_title": "{kind}: arrows, Enter",
        "last_trick": "Last trick",
        "no_last_trick": "No trick finished yet this {round}.",
        "score_sheet": "Score sheet",
        "total": "total",
        "log": "Game log",
        "rules": "Rules",
        "round_points": "this {round}",
        "game_over": "Game over",
        "winners": "Winner: {who}",
        "continue": "Enter: next round",
        "quit_hint": "Enter or q: quit",
        "saved": "Record saved to {path}",
        "unfinished": "Game left unfinished.",
        "close": "Esc: close",
        "keys": "Keys",
        "help": ("←/→ move on the hand · Enter play/choose · Space select · c confirm · x clear\n"
                 "↑/↓/←/→ in a bidding box or card picker · 1–9 the numbered buttons · Tab next control\n"
                 "h hint · t last trick · s score sheet · l log · r rules · g language · ? keys · q quit\n"
                 "PgUp/PgDn scroll the table"),
        "k_last": "last trick", "k_sheet": "scores", "k_log": "log", "k_rules": "rules", "k_lang": "language",
        "k_help": "keys", "k_quit": "quit", "k_hint": "hint",
        "open": "every hand open", "spectator": "a spectator", "replay_step": "step {k} of {n}",
        "would_play": "The {level} bot would play:", "thinking": "Thinking…",
        "k_step": "step", "k_trick": "trick", "k_round": "round", "k_viewer": "whose eyes",
        "k_would": "what would hard play",
        "hint": "Hint: {action}",
        "level.random": "random", "level.easy": "easy", "level.normal": "normal", "level.hard": "hard",
        "level.expert": "expert",
    },
    "ja": {
        "card_1": "1枚",
        "cards_n": "{n}枚",
        "cards_range": "{a}～{b}枚",
        "ctrl_c_title": "終了しますか？",
        "ctrl_c": "やめるには q を押してください（ゲームは保存され、続きから遊べます）。",
        "quit_ask": "ゲームを中断しますか？記録は保存され、torite play --resume で続きから遊べます。",
        "quit_keys": "y：中断する · n：続ける",
        "resume": "続きから遊ぶには：torite play --resume {path}",
        "pile_by": "{pile}（{who}が出した）",
        "replay_help": ("←/→ 一手ずつ · Home/End 配り・最後 · t/T 次・前のトリック · r/R 次・前のラウンド\n"
                        "v 誰の視点 · h 強いボットならどうする · s 得点表 · l 記録 · g 言語 · ? キー操作 · q 終了\n"
                        "PgUp/PgDn 卓をスクロール"),
        "replay_start": "配られたところです。→ で一手ずつ進みます。",
        "replay_next": "次は{who}の番です。",
        "k_ends": "最初・最後",
        "of_rounds": "{round}（全{m}）",
        "dealer": "ディーラー",
        "cards": "手札{n}枚",
        "tricks": "トリック{n}",
        "points": "{n}点",
        "bot": "{name}・{level}",
        "trick": "トリック",
        "no_trick": "まだカードが出ていません",
        "last_won": "直前のトリック：{who}が取りました",
        "your_turn": "あなたの番です。カードを選んでください。",
        "your_choice": "あなたの番です：{kind}",
        "select_n": "「{kind}」のカードを{n}選び（Space）、確定してください（c）。",
        "selected": "（{k}枚を選択中）",
        "confirm": "c：{text}",
        "waiting": "{who}を待っています…",
        "waiting_simul": "ほかのプレイヤーを待っています…",
        "not_legal": "{card}はいま選べません。",
        "no_such_set": "その組み合わせは選べません。選び直してください。",
        "pick_title": "{kind}：カードを1枚選んでください（矢印、Enter）",
        "bid_title": "{kind}：矢印、Enter",
        "last_trick": "直前のトリック",
        "no_last_trick": "この{round}はまだトリックが終わっていません。",
        "score_sheet": "得点表",
        "total": "合計",
        "log": "ゲームの記録",
        "rules": "ルール",
        "round_points": "この{round}",
        "game_over": "ゲーム終了",
        "winners": "勝者：{who}",
        "continue": "Enter：次のラウンドへ",
        "quit_hint": "Enter または q：終了",
        "saved": "記録を保存しました：{path}",
        "unfinished": "ゲームは途中で終了しました。",
        "close": "Esc：閉じる",
        "keys": "キー操作",
        "help": ("←/→ 手札を移動 · Enter 出す・選ぶ · Space 選択 · c 確定 · x 選択解除\n"
                 "↑/↓/←/→ ビッドボックス・カード選択 · 1～9 番号のボタン · Tab 次の操作欄\n"
                 "h ヒント · t 直前のトリック · s 得点表 · l 記録 · r ルール · g 言語 · ? キー操作 · q 中断\n"
                 "PgUp/PgDn 卓をスクロール"),
        "k_last": "直前", "k_sheet": "得点表", "k_log": "記録", "k_rules": "ルール", "k_lang": "言語",
        "k_help": "キー", "k_quit": "中断", "k_hint": "ヒント",
        "open": "全員の手札を公開", "spectator": "観戦者", "replay_step": "{n}手中{k}手目",
        "would_play": "ボット({level})なら：", "thinking": "考え中…",
        "k_step": "一手", "k_trick": "トリック", "k_round": "ラウンド", "k_viewer": "誰の視点",
        "k_would": "強いボットならどうする",
        "hint": "ヒント：{action}",
        "level.random": "ランダム", "level.easy": "やさしい", "level.normal": "ふつう", "level.hard": "強い",
        "level.expert": "達人",
    },
    "ko": {
        "card_1": "1장",
        "cards_n": "{n}장",
        "cards_range": "{a}~{b}장",
        "ctrl_c_title": "종료할까요?",
        "ctrl_c": "그만하려면 q를 누르세요(게임은 저장되어 이어서 할 수 있습니다).",
        "quit_ask": "게임을 중단할까요? 기록이 저장되어 torite play --resume 으로 이어서 할 수 있습니다.",
        "quit_keys": "y: 중단 · n: 계속하기",
        "resume": "이어서 하려면: torite play --resume {path}",
        "pile_by": "{pile}({who} 냄)",
        "replay_help": ("←/→ 한 수씩 · Home/End 처음·끝 · t/T 다음·이전 트릭 · r/R 다음·이전 라운드\n"
                        "v 누구의 시점 · h 어려움 봇이라면 · s 점수표 · l 기록 · g 언어 · ? 키 조작 · q 종료\n"
                        "PgUp/PgDn 테이블 스크롤"),
        "replay_start": "카드를 나눈 직후입니다. → 로 한 수씩 진행합니다.",
        "replay_next": "다음 차례: {who}",
        "k_ends": "처음·끝",
        "of_rounds": "{round} (전체 {m})",
        "dealer": "딜러",
        "cards": "카드 {n}장",
        "tricks": "트릭 {n}",
        "points": "{n}점",
        "bot": "{name} · {level}",
        "trick": "트릭",
        "no_trick": "아직 낸 카드가 없습니다",
        "last_won": "직전 트릭: {who} 승리",
        "your_turn": "내 차례입니다. 카드를 고르세요.",
        "your_choice": "내 차례입니다: {kind}",
        "select_n": "“{kind}”에 쓸 카드를 {n} 고르고(Space) 확정하세요(c).",
        "selected": "({k}장 선택함)",
        "confirm": "c: {text}",
        "waiting": "{who} 기다리는 중…",
        "waiting_simul": "다른 플레이어를 기다리는 중…",
        "not_legal": "{card}은(는) 지금 고를 수 없습니다.",
        "no_such_set": "그 조합은 고를 수 없습니다. 다시 고르세요.",
        "pick_title": "{kind}: 카드 한 장을 고르세요(화살표, Enter)",
        "bid_title": "{kind}: 화살표, Enter",
        "last_trick": "직전 트릭",
        "no_last_trick": "이번 {round}에 끝난 트릭이 아직 없습니다.",
        "score_sheet": "점수표",
        "total": "합계",
        "log": "게임 기록",
        "rules": "규칙",
        "round_points": "이번 {round}",
        "game_over": "게임 종료",
        "winners": "승자: {who}",
        "continue": "Enter: 다음 라운드",
        "quit_hint": "Enter 또는 q: 종료",
        "saved": "기록을 저장했습니다: {path}",
        "unfinished": "게임이 끝나지 않은 채 종료되었습니다.",
        "close": "Esc: 닫기",
        "keys": "키 조작",
        "help": ("←/→ 손패 이동 · Enter 내기/고르기 · Space 선택 · c 확정 · x 선택 해제\n"
                 "↑/↓/←/→ 비딩 박스·카드 선택 · 1–9 번호 버튼 · Tab 다음 조작\n"
                 "h 힌트 · t 직전 트릭 · s 점수표 · l 기록 · r 규칙 · g 언어 · ? 키 조작 · q 중단\n"
                 "PgUp/PgDn 테이블 스크롤"),
        "k_last": "직전", "k_sheet": "점수", "k_log": "기록", "k_rules": "규칙", "k_lang": "언어",
        "k_help": "키", "k_quit": "중단", "k_hint": "힌트",
        "open": "모든 패 공개", "spectator": "관전자", "replay_step": "{n}수 중 {k}수째",
        "would_play": "봇({level})이라면:", "thinking": "생각 중…",
        "k_step": "한 수", "k_trick": "트릭", "k_round": "라운드", "k_viewer": "누구의 시점",
        "k_would": "어려움 봇이라면",
        "hint": "힌트: {action}",
        "level.random": "무작위", "level.easy": "쉬움", "level.normal": "보통", "level.hard": "어려움",
        "level.expert": "달인",
    },
}


def words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def level_name(lang: str, level: str) -> str:
    """A bot level in the table's language (its id if the table has no word for it)."""
    return words(lang).get(f"level.{level}", level)


@dataclass(frozen=True, slots=True)
class Theme:
    """The table's styles.  Why two: under ``NO_COLOR`` (no-color.org) Textual turns every colour
    to grey, and red hearts and diamonds came out at about 1.3:1 against the background; the
    no-colour theme draws the suits by their symbols in the text's own colour, hearts and
    diamonds in bold, and marks choices by weight and underline instead of shades."""

    red: str
    black: str
    joker: str
    refused: str
    selected: str
    cursor: str
    button: str
    accent: str

    def suit(self, letter: str) -> str:
        """The style of a suit (a letter: C D H S), or of a word that is not one (bold)."""
        return self.red if letter in ("H", "D") else self.black


COLOUR: Final = Theme(red="bold red", black="bold", joker="bold magenta", refused="dim", selected="on dark_green",
                      cursor="on grey30", button="on grey23", accent="bold magenta")
NO_COLOUR: Final = Theme(red="bold", black="", joker="bold italic", refused="dim strike", selected="bold underline",
                         cursor="underline", button="", accent="bold")


def theme() -> Theme:
    """The no-colour theme when ``NO_COLOR`` is set (as Textual reads it: set at all), else colour."""
    return NO_COLOUR if "NO_COLOR" in os.environ else COLOUR


def card_text(card: str | None, lab: Labels | None = None, *, hidden: str = "??") -> Text:
    """A card as its suit symbol then rank (♠A), hearts and diamonds in red; a joker by the
    labels' word; None is a card not seen."""
    if card is None:
        return Text(lab.word("hidden") if lab is not None else hidden, style="dim")
    if card.startswith("JK"):
        return Text(lab.card_text(card) if lab is not None else "★" + card[2:], style=theme().joker)
    rank, suit = card[:-1], card[-1]
    return Text(SUIT_SYMBOLS.get(suit, suit) + rank, style=theme().suit(suit))


def token_text(tok: Mapping[str, Any], lab: Labels) -> Text:
    """One token of the labels' rich text, drawn in the terminal."""
    kind = tok.get("t")
    if kind == "card":
        return card_text(tok["card"], lab)
    if kind == "cards":
        out = Text()
        for i, c in enumerate(tok["cards"]):
            if i:
                out.append(" ")
            out.append_text(card_text(c, lab))
        return out
    if kind == "suit":
        return Text(lab.token_text(tok), style=theme().suit(tok["suit"]))
    if kind == "contract":
        return Text(lab.token_text(tok), style=theme().suit(tok["denom"]))
    return Text(lab.token_text(tok))


def rich_text(rich: Sequence[Any] | None, lab: Labels, *, style: str = "") -> Text:
    """The labels' rich text as Rich text: its words as they are, its tokens in colour."""
    out = Text(style=style)
    for part in rich or ():
        if isinstance(part, str):
            out.append(part)
        else:
            out.append_text(token_text(part, lab))
    return out
