// The pages' own words (generic: nothing here belongs to one game) in English and Japanese,
// and the helpers both pages use.  A game's words come from the server: its labels from
// /api/games (title, options, phases, action names, trick tags, …) and, in each state message,
// status rows, the last trick's facts, button texts and log lines in every language.
"use strict";

(function () {
  const STRINGS = {
    en: {
      "app.title": "torite",
      "app.tagline": "Trick-taking card games in your browser",
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
      "setting.idle_seconds.help": "この時間操作しなかったプレイヤーは、戻るまでボット（normal）が代わりに打ちます。",
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
      "error.bad_token": "この席のリンクは無効です。観戦モードで表示します。",
      "error.generic": "エラー: {message}",
      "card.joker": "ジョーカー",
      "card.face_down": "裏向きのカード",
      "suit.C": "クラブ", "suit.D": "ダイヤ", "suit.H": "ハート", "suit.S": "スペード",
      "yes": "はい", "no": "いいえ",
    },
  };

  function getLang() {
    const saved = localStorage.getItem("torite.lang");
    if (saved === "en" || saved === "ja") return saved;
    return (navigator.language || "en").toLowerCase().startsWith("ja") ? "ja" : "en";
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
    for (const [code, name] of [["en", "English"], ["ja", "日本語"]]) {
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

  window.Torite = {
    t, getLang, setLang, apply, bindSwitch, cardNode, cardBack, cardParts, cardName, prettyAction,
    setGames, byLang, word, gameTitle, phaseName, actionLabel, denomination, SUIT_SYMBOL,
  };
})();
