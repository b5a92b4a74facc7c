// The pages' own words (generic: nothing here belongs to one game) in English, Japanese and
// Korean, and the helpers the pages use.  A game's words come from the server: its labels from
// /api/games (title, options, phases, action names, trick tags, …) and, in each state message,
// status rows, the last trick's facts, button texts and log lines in every language.
"use strict";

(function () {
  const STRINGS = {
    en: {
      "app.title": "torite",
      "app.tagline": "Trick-taking card games in your browser",
      "app.build.compiled": "torite {version}, compiled engine",
      "app.build.pure": "torite {version}, pure-Python engine",
      "lang.label": "Language",
      "lobby.game": "Game",
      "lobby.options": "Options",
      "lobby.seats": "Seats",
      "lobby.table": "Table settings",
      "lobby.create": "Create table",
      "lobby.creating": "Creating…",
      "lobby.created": "Table created",
      "lobby.links_help": "Send each friend their own link: it holds the secret of their seat. Anyone with the spectator link can watch (public information only).",
      "lobby.go": "Take my seat",
      "lobby.spectator": "Spectator link",
      "lobby.copy": "Copy",
      "lobby.copied": "Copied",
      "lobby.rules": "Rules",
      "lobby.no_rules": "No rules page yet.",
      "lobby.players": "{n} players",
      "seat.you": "You",
      "seat.friend": "Invited friend",
      "seat.bot": "Bot: {level}",
      "seat.name": "Name (optional)",
      "seat.n": "Seat {n}",
      "setting.bot_delay": "Bot thinking pause (seconds)",
      "setting.bot_delay.help": "Bots wait this long before moving, so you can follow their cards.",
      "setting.idle_seconds": "Idle timeout (seconds, 0 = off)",
      "setting.idle_seconds.help": "A player who does not move for this long is played by a bot (normal) until they return.",
      "bot.random": "random",
      "bot.easy": "easy",
      "bot.normal": "normal",
      "bot.hard": "hard",
      "bot.expert": "expert",
      "table.connecting": "Connecting…",
      "table.reconnecting": "Connection lost, reconnecting…",
      "table.connected": "Connected",
      "table.spectating": "Watching (public information only)",
      "table.seat": "Seat {n}",
      "table.you": "you",
      "table.bot": "bot ({level})",
      "table.away": "away — a bot plays",
      "table.offline": "offline",
      "table.online": "online",
      "table.dealer": "dealer",
      "table.turn": "to act",
      "table.hand": "Your hand",
      "table.trick": "Trick",
      "table.no_trick": "No cards played yet in this trick.",
      "table.status": "Table",
      "table.phase": "phase",
      "table.round": "round",
      "table.your_turn": "Your turn",
      "table.your_turn_play": "Your turn: choose a card.",
      "table.your_turn_choose": "Your turn: choose.",
      "table.select_n": "Your turn: select {n} cards for “{kind}”, then confirm.",
      "table.selected": "{k} of {n} selected",
      "table.confirm": "Confirm {kind}",
      "table.clear": "Clear",
      "table.waiting": "Waiting for {who}.",
      "table.waiting_simul": "Waiting for the others.",
      "table.last_trick": "Last trick",
      "table.no_last_trick": "No trick finished yet this round.",
      "table.scores": "Score sheet",
      "table.total": "Total",
      "table.log": "Game log",
      "table.rules": "Rules",
      "table.close": "Close",
      "table.over": "Game over",
      "table.winners": "Winner: {who}",
      "table.download": "Download the record",
      "table.lobby": "New table",
      "table.away_banner": "You were away, so a bot is playing for you.",
      "table.im_back": "I'm back",
      "table.not_found": "This table does not exist.",
      "table.invite": "Invite / spectate",
      "table.actions": "Choices",
      "table.other_actions": "Other choices",
      "table.copy_spectator": "Copy spectator link",
      "table.choose_kind": "Your turn: {kind}",
      "table.pause": "Trick pause",
      "table.pause_off": "off",
      "table.pause_s": "{s} s",
      "table.sound": "Sound",
      "table.sound_on": "Sound: on",
      "table.sound_off": "Sound: off",
      "table.rematch": "Rematch",
      "table.rematch_join": "Join the rematch",
      "table.show_summary": "Summary",
      "table.continue": "Continue",
      "table.dealer_chip": "D",
      "table.seat_cards": "cards {n}",
      "table.seat_tricks": "tricks {n}",
      "table.seat_points": "points {n}",
      "table.seat_total": "total {n}",
      "table.gone": "gone",
      "table.idle_in": "a bot plays in {s} s",
      "table.trick_won": "{who} takes the trick",
      "table.trick_points": "({points})",
      "table.skip": "(click to go on)",
      "table.winning_now": "{who} is winning the trick",
      "table.is_winning": "{who} is winning the trick with {card}.",
      "table.you_are_winning": "You are winning the trick with {card}.",
      "table.empty": "empty",
      "table.round_over": "Round {n} is over",
      "table.round_points": "Points this round",
      "table.game_over_title": "Game over",
      "missing.title": "There is no such table",
      "missing.text": "The link may be mistyped, or the table is gone.",
      "missing.lobby": "Go to the lobby",
      "lobby.games": "Games",
      "lobby.reports": "Reports",
      "lobby.reports_help": "Ready-made comparisons of rules and bots.",
      "lobby.idle_friends": "With invited friends, a bot stands in for a player idle this long.",
      "error.bad_token": "This seat's link is not valid. You are watching instead.",
      "error.generic": "Error: {message}",
      "card.joker": "Joker",
      "card.face_down": "face-down card",
      "suit.C": "clubs", "suit.D": "diamonds", "suit.H": "hearts", "suit.S": "spades",
      "yes": "yes", "no": "no",
    },
    ja: {
      "app.title": "torite",
      "app.tagline": "ブラウザで遊ぶトリックテイキングゲーム",
      "app.build.compiled": "torite {version}（コンパイル版エンジン）",
      "app.build.pure": "torite {version}（Python 版エンジン）",
      "lang.label": "言語",
      "lobby.game": "ゲーム",
      "lobby.options": "オプション",
      "lobby.seats": "席",
      "lobby.table": "卓の設定",
      "lobby.create": "卓を作る",
      "lobby.creating": "作成中…",
      "lobby.created": "卓ができました",
      "lobby.links_help": "友達にはそれぞれ自分の席のリンクを送ってください（席の秘密の鍵が入っています）。観戦リンクでは誰でも公開情報だけを見られます。",
      "lobby.go": "自分の席へ",
      "lobby.spectator": "観戦リンク",
      "lobby.copy": "コピー",
      "lobby.copied": "コピーしました",
      "lobby.rules": "ルール",
      "lobby.no_rules": "ルールページはまだありません。",
      "lobby.players": "{n}人",
      "seat.you": "自分",
      "seat.friend": "招待する友達",
      "seat.bot": "ボット: {level}",
      "seat.name": "名前（任意）",
      "seat.n": "席 {n}",
      "setting.bot_delay": "ボットの考慮時間（秒）",
      "setting.bot_delay.help": "ボットは動く前にこの時間待ちます。出されたカードを目で追えます。",
      "setting.idle_seconds": "放置タイムアウト（秒、0 = なし）",
      "setting.idle_seconds.help": "この時間操作しなかったプレイヤーは、戻るまでボット（ふつう）が代わりに打ちます。",
      "bot.random": "ランダム",
      "bot.easy": "やさしい",
      "bot.normal": "ふつう",
      "bot.hard": "強い",
      "bot.expert": "達人",
      "table.connecting": "接続中…",
      "table.reconnecting": "接続が切れました。再接続しています…",
      "table.connected": "接続済み",
      "table.spectating": "観戦中（公開情報のみ）",
      "table.seat": "席 {n}",
      "table.you": "あなた",
      "table.bot": "ボット（{level}）",
      "table.away": "離席中 — ボットが代打ち",
      "table.offline": "オフライン",
      "table.online": "オンライン",
      "table.dealer": "ディーラー",
      "table.turn": "手番",
      "table.hand": "あなたの手札",
      "table.trick": "トリック",
      "table.no_trick": "このトリックではまだカードが出ていません。",
      "table.status": "卓の状況",
      "table.phase": "フェーズ",
      "table.round": "ラウンド",
      "table.your_turn": "あなたの番です",
      "table.your_turn_play": "あなたの番です。カードを選んでください。",
      "table.your_turn_choose": "あなたの番です。選んでください。",
      "table.select_n": "あなたの番です。「{kind}」するカードを{n}枚選んで確定してください。",
      "table.selected": "{n}枚中{k}枚選択",
      "table.confirm": "{kind} を確定",
      "table.clear": "選び直す",
      "table.waiting": "{who} の番です。",
      "table.waiting_simul": "他のプレイヤーを待っています。",
      "table.last_trick": "直前のトリック",
      "table.no_last_trick": "このラウンドで終わったトリックはまだありません。",
      "table.scores": "得点表",
      "table.total": "合計",
      "table.log": "ゲームの記録",
      "table.rules": "ルール",
      "table.close": "閉じる",
      "table.over": "ゲーム終了",
      "table.winners": "勝者: {who}",
      "table.download": "棋譜をダウンロード",
      "table.lobby": "新しい卓",
      "table.away_banner": "離席していたので、ボットが代わりに打っています。",
      "table.im_back": "戻りました",
      "table.not_found": "この卓は存在しません。",
      "table.invite": "招待・観戦",
      "table.actions": "選択",
      "table.other_actions": "その他の選択",
      "table.copy_spectator": "観戦リンクをコピー",
      "table.choose_kind": "あなたの番です：{kind}",
      "table.pause": "トリックの表示時間",
      "table.pause_off": "なし",
      "table.pause_s": "{s}秒",
      "table.sound": "音",
      "table.sound_on": "音: オン",
      "table.sound_off": "音: オフ",
      "table.rematch": "同じメンバーでもう一度",
      "table.rematch_join": "再戦の卓へ",
      "table.show_summary": "結果",
      "table.continue": "続ける",
      "table.dealer_chip": "親",
      "table.seat_cards": "手札{n}枚",
      "table.seat_tricks": "{n}トリック",
      "table.seat_points": "{n}点",
      "table.seat_total": "合計{n}",
      "table.gone": "退席中",
      "table.idle_in": "あと{s}秒でボットが代打ち",
      "table.trick_won": "{who}がトリックを取りました",
      "table.trick_points": "（{points}）",
      "table.skip": "（クリックで次へ）",
      "table.winning_now": "いまトリックを取るのは{who}",
      "table.is_winning": "いまトリックを取るのは{who}の{card}です。",
      "table.you_are_winning": "いまトリックを取るのはあなたの{card}です。",
      "table.empty": "なし",
      "table.round_over": "ラウンド{n}終了",
      "table.round_points": "このラウンドの得点",
      "table.game_over_title": "ゲーム終了",
      "missing.title": "この卓はありません",
      "missing.text": "リンクが間違っているか、卓がもう残っていません。",
      "missing.lobby": "ロビーへ",
      "lobby.games": "ゲーム一覧",
      "lobby.reports": "レポート",
      "lobby.reports_help": "ルールやボットを比べた既製のレポートです。",
      "lobby.idle_friends": "友達を招待する卓では、この時間操作しないプレイヤーをボットが代打ちします。",
      "error.bad_token": "この席のリンクは無効です。観戦モードで表示します。",
      "error.generic": "エラー: {message}",
      "card.joker": "ジョーカー",
      "card.face_down": "裏向きのカード",
      "suit.C": "クラブ", "suit.D": "ダイヤ", "suit.H": "ハート", "suit.S": "スペード",
      "yes": "はい", "no": "いいえ",
    },
    ko: {
      "app.title": "torite",
      "app.tagline": "브라우저에서 즐기는 트릭테이킹 카드 게임",
      "app.build.compiled": "torite {version}, 컴파일된 엔진",
      "app.build.pure": "torite {version}, 파이썬 엔진",
      "lang.label": "언어",
      "lobby.game": "게임",
      "lobby.options": "옵션",
      "lobby.seats": "자리",
      "lobby.table": "테이블 설정",
      "lobby.create": "테이블 만들기",
      "lobby.creating": "만드는 중…",
      "lobby.created": "테이블이 만들어졌습니다",
      "lobby.links_help": "친구마다 자기 자리의 링크를 보내세요(자리의 비밀 열쇠가 들어 있습니다). 관전 링크로는 누구나 공개 정보만 볼 수 있습니다.",
      "lobby.go": "내 자리로",
      "lobby.spectator": "관전 링크",
      "lobby.copy": "복사",
      "lobby.copied": "복사했습니다",
      "lobby.rules": "규칙",
      "lobby.no_rules": "아직 규칙 페이지가 없습니다.",
      "lobby.players": "{n}명",
      "seat.you": "나",
      "seat.friend": "초대할 친구",
      "seat.bot": "봇: {level}",
      "seat.name": "이름(선택)",
      "seat.n": "자리 {n}",
      "setting.bot_delay": "봇 생각 시간(초)",
      "setting.bot_delay.help": "봇은 움직이기 전에 이만큼 기다립니다. 봇이 낸 카드를 눈으로 따라갈 수 있습니다.",
      "setting.idle_seconds": "자리 비움 시간 제한(초, 0 = 없음)",
      "setting.idle_seconds.help": "이 시간 동안 움직이지 않은 플레이어는 돌아올 때까지 봇(보통)이 대신 둡니다.",
      "bot.random": "무작위",
      "bot.easy": "쉬움",
      "bot.normal": "보통",
      "bot.hard": "어려움",
      "bot.expert": "달인",
      "table.connecting": "연결 중…",
      "table.reconnecting": "연결이 끊겼습니다. 다시 연결하는 중…",
      "table.connected": "연결됨",
      "table.spectating": "관전 중(공개 정보만)",
      "table.seat": "자리 {n}",
      "table.you": "나",
      "table.bot": "봇({level})",
      "table.away": "자리 비움 — 봇이 대신 둠",
      "table.offline": "오프라인",
      "table.online": "온라인",
      "table.dealer": "딜러",
      "table.turn": "차례",
      "table.hand": "내 손패",
      "table.trick": "트릭",
      "table.no_trick": "이번 트릭에는 아직 낸 카드가 없습니다.",
      "table.status": "테이블 상황",
      "table.phase": "단계",
      "table.round": "라운드",
      "table.your_turn": "내 차례입니다",
      "table.your_turn_play": "내 차례입니다. 카드를 고르세요.",
      "table.your_turn_choose": "내 차례입니다. 고르세요.",
      "table.select_n": "내 차례입니다. “{kind}”할 카드 {n}장을 골라 확정하세요.",
      "table.selected": "{n}장 중 {k}장 선택",
      "table.confirm": "{kind} 확정",
      "table.clear": "다시 고르기",
      "table.waiting": "{who}의 차례입니다.",
      "table.waiting_simul": "다른 플레이어를 기다리는 중입니다.",
      "table.last_trick": "직전 트릭",
      "table.no_last_trick": "이번 라운드에 끝난 트릭이 아직 없습니다.",
      "table.scores": "점수표",
      "table.total": "합계",
      "table.log": "게임 기록",
      "table.rules": "규칙",
      "table.close": "닫기",
      "table.over": "게임 종료",
      "table.winners": "승자: {who}",
      "table.download": "기보 내려받기",
      "table.lobby": "새 테이블",
      "table.away_banner": "자리를 비우셔서 봇이 대신 두고 있습니다.",
      "table.im_back": "돌아왔습니다",
      "table.not_found": "이 테이블은 없습니다.",
      "table.invite": "초대·관전",
      "table.actions": "선택",
      "table.other_actions": "다른 선택",
      "table.copy_spectator": "관전 링크 복사",
      "table.choose_kind": "내 차례입니다: {kind}",
      "table.pause": "끝난 트릭 표시 시간",
      "table.pause_off": "없음",
      "table.pause_s": "{s}초",
      "table.sound": "소리",
      "table.sound_on": "소리: 켬",
      "table.sound_off": "소리: 끔",
      "table.rematch": "같은 사람들과 다시 하기",
      "table.rematch_join": "재대결 테이블로",
      "table.show_summary": "결과",
      "table.continue": "계속",
      "table.dealer_chip": "딜",
      "table.seat_cards": "손패 {n}장",
      "table.seat_tricks": "{n}트릭",
      "table.seat_points": "{n}점",
      "table.seat_total": "합계 {n}",
      "table.gone": "나감",
      "table.idle_in": "{s}초 뒤 봇이 대신 둠",
      "table.trick_won": "{who}이(가) 트릭을 가져갑니다",
      "table.trick_points": "({points})",
      "table.skip": "(클릭하면 넘어갑니다)",
      "table.winning_now": "지금 트릭을 이기고 있는 사람: {who}",
      "table.is_winning": "지금 {who}의 {card}이(가) 트릭을 이기고 있습니다.",
      "table.you_are_winning": "지금 나의 {card}이(가) 트릭을 이기고 있습니다.",
      "table.empty": "없음",
      "table.round_over": "라운드 {n} 종료",
      "table.round_points": "이번 라운드 점수",
      "table.game_over_title": "게임 종료",
      "missing.title": "그런 테이블은 없습니다",
      "missing.text": "링크가 잘못되었거나 테이블이 이미 없어졌습니다.",
      "missing.lobby": "로비로",
      "lobby.games": "게임 목록",
      "lobby.reports": "보고서",
      "lobby.reports_help": "규칙과 봇을 비교한 미리 만든 보고서입니다.",
      "lobby.idle_friends": "친구를 초대한 테이블에서는 이 시간 동안 움직이지 않은 플레이어를 봇이 대신합니다.",
      "error.bad_token": "이 자리의 링크가 올바르지 않습니다. 관전으로 보여 드립니다.",
      "error.generic": "오류: {message}",
      "card.joker": "조커",
      "card.face_down": "뒤집힌 카드",
      "suit.C": "클럽", "suit.D": "다이아몬드", "suit.H": "하트", "suit.S": "스페이드",
      "yes": "예", "no": "아니요",
    },
  };

  const LANG_NAMES = [["en", "English"], ["ja", "日本語"], ["ko", "한국어"]];
  const LANGS = LANG_NAMES.map((x) => x[0]);

  function getLang() {
    const saved = localStorage.getItem("torite.lang");
    if (LANGS.includes(saved)) return saved;
    const nav = (navigator.language || "en").toLowerCase().slice(0, 2);
    return LANGS.includes(nav) ? nav : "en";
  }

  function setLang(lang) {
    localStorage.setItem("torite.lang", lang);
    document.documentElement.lang = lang;
  }

  function t(key, vars) {
    const lang = getLang();
    let s = (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
    if (vars) {
      for (const [k, v] of Object.entries(vars)) s = s.split("{" + k + "}").join(String(v));
    }
    return s;
  }

  // ---------------------------------------------------------------- a game's words
  const gameLabels = {};  // game id -> {lang -> labels}, as /api/games serves them

  function setGames(games) {
    for (const g of games || []) gameLabels[g.id] = g.labels || {};
  }

  // One of a {lang: value} map in the chosen language (English, then any, when missing).
  function byLang(map) {
    if (map === null || map === undefined || typeof map !== "object" || Array.isArray(map)) return map;
    const lang = getLang();
    if (map[lang] !== undefined) return map[lang];
    if (map.en !== undefined) return map.en;
    const any = Object.values(map);
    return any.length ? any[0] : undefined;
  }

  function labelsOf(gameId) {
    return byLang(gameLabels[gameId] || {}) || null;
  }

  // A game's word: section and key(s), e.g. word(id, "phases", "bury", "name"); undefined if none.
  function word(gameId, ...path) {
    let v = labelsOf(gameId);
    for (const k of path) {
      if (v === null || v === undefined || typeof v !== "object") return undefined;
      v = v[k];
    }
    return v;
  }

  function gameTitle(gameId, fallback) { return word(gameId, "title") || fallback || gameId; }
  function phaseName(gameId, phase) { return word(gameId, "phases", phase, "name") || phase; }
  function actionLabel(gameId, kind) { return word(gameId, "actions", kind, "label") || kind; }

  // How a bidding box names a denomination: a suit as its symbol, anything else in the game's words.
  function denomination(gameId, d) {
    return SUIT_SYMBOL[d] || word(gameId, "denominations", d) || d;
  }

  function apply(root) {
    (root || document).querySelectorAll("[data-i18n]").forEach((el) => {
      el.textContent = t(el.getAttribute("data-i18n"));
    });
    (root || document).querySelectorAll("[data-i18n-title]").forEach((el) => {
      el.title = t(el.getAttribute("data-i18n-title"));
    });
    document.documentElement.lang = getLang();
  }

  // A language switch: a <select> filled with both languages, calling onChange after switching.
  function bindSwitch(select, onChange) {
    select.innerHTML = "";
    for (const [code, name] of LANG_NAMES) {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = name;
      select.appendChild(o);
    }
    select.value = getLang();
    select.addEventListener("change", () => {
      setLang(select.value);
      apply();
      if (onChange) onChange();
    });
  }

  // Card text ("10D", "AS", "JK1") → parts for display; anything else is shown as is.
  const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  function cardParts(text) {
    const m = /^(10|[2-9JQKA])([CDHS])$/.exec(text);
    if (m) return { rank: m[1], suit: m[2], symbol: SUIT_SYMBOL[m[2]], joker: false };
    if (/^JK\d$/.test(text)) return { rank: "★", suit: "J", symbol: text.slice(2), joker: true };
    return { rank: text, suit: "", symbol: "", joker: false };
  }

  function cardName(text) {
    const p = cardParts(text);
    if (p.joker) return t("card.joker") + " " + p.symbol;
    if (p.suit) return p.rank + " " + t("suit." + p.suit);
    return text;
  }

  // A card as a DOM node (a <button> when interactive, else a <span>).
  function cardNode(text, asButton) {
    const el = document.createElement(asButton ? "button" : "span");
    const p = cardParts(text);
    el.className = "card" + (p.suit ? " suit-" + p.suit : "") + (p.joker ? " joker" : "");
    el.dataset.card = text;
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = p.rank;
    const s = document.createElement("span");
    s.className = "suit";
    s.textContent = p.symbol;
    el.append(r, s);
    el.setAttribute("aria-label", cardName(text));
    if (!asButton) el.title = cardName(text);
    return el;
  }

  // The back of a card nobody at this seat may see yet.
  function cardBack() {
    const el = document.createElement("span");
    el.className = "card back";
    el.dataset.card = "";
    el.setAttribute("aria-label", t("card.face_down"));
    el.title = t("card.face_down");
    return el;
  }

  // An action's label: its text notation exactly (what records and the CLI use), with a suit
  // symbol after a suit letter so it reads at a glance.
  function prettyAction(text) {
    return text.split(" ").map((w, i) => (i > 0 && /^[CDHS]$/.test(w) ? w + " " + SUIT_SYMBOL[w] : w)).join(" ");
  }

  // A card as short text with its suit symbol ("10♦", "★1"), for sentences.
  function cardText(text) {
    const p = cardParts(String(text));
    if (p.joker) return "★" + p.symbol;
    return p.suit ? p.rank + p.symbol : String(text);
  }

  // A game's glossary (labels maps.glossary: id -> "Term: what it means"), as [term, meaning].
  function glossary(gameId) {
    const g = gameId ? word(gameId, "maps", "glossary") : null;
    const out = [];
    for (const v of Object.values(g || {})) {
      const m = /^(.+?)\s*[:：]\s*(.+)$/.exec(String(v));
      if (m) out.push([m[1], m[2]]);
    }
    return out.sort((a, b) => b[0].length - a[0].length);
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // Fill ``parent`` with ``text``: card texts and lone suit letters as symbols (red for ♦ ♥),
  // a joker as ★n, and each glossary term of the game underlined with its meaning on hover
  // (and on a tap or Enter, for a phone or the keyboard).
  function richText(parent, text, gameId) {
    const terms = glossary(gameId);
    const parts = ["(?<![A-Za-z0-9])(10|[2-9JQKA])([CDHS])(?![A-Za-z0-9])", "(?<![A-Za-z0-9])JK(\\d)(?![A-Za-z0-9])",
      "(?<![A-Za-z0-9])([CDHS])(?![A-Za-z0-9])"];
    if (terms.length) parts.push("(" + terms.map((t) => escapeRe(t[0])).join("|") + ")");
    const re = new RegExp(parts.join("|"), "giu");
    let pos = 0;
    for (const m of text.matchAll(re)) {
      const upper = m[0] === m[0].toUpperCase();
      const isCard = m[1] !== undefined && upper;
      const isJoker = m[3] !== undefined && upper;
      const isSuit = m[4] !== undefined && m[0] === m[4] && /^[CDHS]$/.test(m[0]);
      const term = m[5] !== undefined ? terms.find((t) => t[0].toLowerCase() === m[5].toLowerCase()) : null;
      if (!isCard && !isJoker && !isSuit && !term) continue;
      if (m.index > pos) parent.appendChild(document.createTextNode(text.slice(pos, m.index)));
      let node;
      if (term) {
        node = document.createElement("abbr");
        node.className = "gloss";
        node.title = term[1];
        node.tabIndex = 0;
        node.textContent = m[0];
        const tell = (ev) => { ev.stopPropagation(); notice(m[0] + ": " + term[1]); };
        node.addEventListener("click", tell);
        node.addEventListener("keydown", (ev) => { if (ev.key === "Enter") tell(ev); });
      } else {
        const suit = isCard ? m[2] : isSuit ? m[4] : "";
        node = document.createElement("span");
        node.className = "c" + (suit ? " suit-" + suit : " joker");
        node.textContent = isCard ? m[1] + SUIT_SYMBOL[suit] : isSuit ? SUIT_SYMBOL[suit] : "★" + m[3];
        node.title = isCard ? cardName(m[1] + suit) : isSuit ? t("suit." + suit) : cardName("JK" + m[3]);
      }
      parent.appendChild(node);
      pos = m.index + m[0].length;
    }
    if (pos < text.length) parent.appendChild(document.createTextNode(text.slice(pos)));
    return parent;
  }

  // A short message at the bottom of the page (a term's meaning, a copied link).
  let noticeTimer = null;
  function notice(text) {
    let el = document.getElementById("notice");
    if (!el) {
      el = document.createElement("div");
      el.id = "notice";
      el.className = "notice hidden";
      el.setAttribute("role", "status");
      document.body.appendChild(el);
    }
    el.textContent = text;
    el.classList.remove("hidden");
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => el.classList.add("hidden"), 6000);
  }

  window.Torite = {
    cardText, richText, glossary, notice, LANGS, STRINGS,
    t, getLang, setLang, apply, bindSwitch, cardNode, cardBack, cardParts, cardName, prettyAction,
    setGames, byLang, word, gameTitle, phaseName, actionLabel, denomination, SUIT_SYMBOL,
  };
})();
