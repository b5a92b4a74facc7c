// The helpers the pages use: their own words (strings.js) by language, a game's words from the
// server, and the one formatter of cards, suits and contracts.  A game's words come from the
// server: its labels from /api/games (title, options, phases, action names, trick tags, …) and,
// in each state message, status rows, the last trick's facts, button texts and log lines in
// every language.
"use strict";

(function () {
  const STRINGS = window.ToriteStrings;

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

  // A page word; a word with plural forms ({one: …, other: …}) takes the form the language's
  // CLDR rules give ``count`` (Intl.PluralRules), by default the variable n.
  function t(key, vars, count) {
    const lang = getLang();
    let s = (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
    if (typeof s === "object") {
      const n = count !== undefined ? count : vars && vars.n !== undefined ? Number(vars.n) : 0;
      s = s[new Intl.PluralRules(lang).select(n)] || s.other;
    }
    if (vars) {
      for (const [k, v] of Object.entries(vars)) s = s.split("{" + k + "}").join(String(v));
    }
    return lang === "ko" && vars ? particles(s) : s;
  }

  // Names as the language lists them ("seat 1 and seat 3", "席1、席3", "1번 자리와 3번 자리"):
  // the page words list.pair, list.last and list.sep, as the labels' list_pair, list_last and
  // list_sep (CLDR's list patterns).
  function list(items) {
    const xs = (items || []).map(String);
    if (xs.length < 2) return xs.join("");
    const fill = (key, a, b) => t(key).split("{0}").join(a).split("{1}").join(b);
    const text = xs.length === 2 ? fill("list.pair", xs[0], xs[1])
      : fill("list.last", xs.slice(0, -1).join(t("list.sep")), xs[xs.length - 1]);
    return getLang() === "ko" ? particles(text) : text;
  }

  // ---------------------------------------------------------------- Korean particles
  // A Korean text writes both forms of a particle that follows a value ("이(가)", "을(를)",
  // "은(는)", "과(와)", "(으)로"); the one the reading of the text before it takes is kept
  // (카드를, 조커 1이), or both where that reading cannot be known (a name in Latin letters).
  // The same rules as torite/present/labels/korean.py, tested on the same cases.
  const PARTICLE_FORMS = { "이(가)": ["이", "가"], "을(를)": ["을", "를"], "은(는)": ["은", "는"],
    "과(와)": ["과", "와"], "(으)로": ["으로", "로"] };
  const DUAL = /이\(가\)|을\(를\)|은\(는\)|과\(와\)|\(으\)로/g;
  const DIGIT_SOUND = { 1: "rieul", 7: "rieul", 8: "rieul", 3: "consonant", 6: "consonant",
    2: "vowel", 4: "vowel", 5: "vowel", 9: "vowel" };

  // How a text ends when read aloud in Korean: "vowel", "rieul" (ㄹ), "consonant", or null.
  function finalSound(text) {
    const butParen = /[ \u00a0’”'"\]」』》〉]+$/;
    let s = text.replace(butParen, "");
    // a parenthetical glossing the word before it is passed over whole (4번 자리(보통)와)
    while (s.endsWith(")") && s.lastIndexOf("(") > 0) s = s.slice(0, s.lastIndexOf("(")).replace(butParen, "");
    s = s.replace(/[ \u00a0’”'")\]」』》〉]+$/, "");
    if (!s) return null;
    const last = s[s.length - 1];
    if (last >= "가" && last <= "힣") {
      const batchim = (last.charCodeAt(0) - 0xac00) % 28;
      return batchim === 0 ? "vowel" : batchim === 8 ? "rieul" : "consonant";
    }
    if (/\d/.test(last)) {
      const digits = /\d+$/.exec(s)[0];
      const significant = digits.replace(/0+$/, "");
      if (significant !== digits || !significant) return "consonant";  // 십, 백, 천, 만 … and 영
      return DIGIT_SOUND[significant[significant.length - 1]] || null;
    }
    if (/[A-Za-z]/.test(last)) {
      const word = /[A-Za-z]+$/.exec(s)[0];
      if (word.length === 1 || (word === word.toUpperCase() && word.length <= 4)) {
        return "LlRr".includes(last) ? "rieul" : "MmNn".includes(last) ? "consonant" : "vowel";
      }
      return null;  // a word in Latin letters: its sound is its own
    }
    return "♠♥♦♣♤♡♢♧".includes(last) ? "vowel" : null;
  }

  function particles(text, before) {
    if (!text.includes("(")) return text;
    let done = "";
    let pos = 0;
    for (const m of text.matchAll(DUAL)) {
      done += text.slice(pos, m.index);
      const sound = finalSound((before || "") + done);
      const [afterConsonant, afterVowel] = PARTICLE_FORMS[m[0]];
      done += sound === null ? m[0]
        : sound === "vowel" || (sound === "rieul" && m[0] === "(으)로") ? afterVowel : afterConsonant;
      pos = m.index + m[0].length;
    }
    return done + text.slice(pos);
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

  // ---------------------------------------------------------------- cards, suits, contracts
  // One formatter for the whole web table.  The server sends what a game says as rich text: a
  // list of plain strings and tokens ({t: "card", card}, {t: "cards", cards}, {t: "suit", suit,
  // word}, {t: "contract", level, denom}); the table draws tokens here, and draws the cards of
  // the hand, the trick and the piles with the same names.  Visible text is the compact form
  // (♠A, ♥10, a joker by its word, ♥, 14♥, 14 노기루다, 3NT); the spelled-out name in the
  // language's order (ace of spades, スペードのA, 스페이드 A) is the accessible name and tooltip.
  // The words come from the game's labels (/api/games): its suits, ranks, jokers and
  // denominations in the chosen language.
  const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
  let currentGame = null;  // the table's game: whose labels name cards when none is given
  let currentOptions = {};  // its options: what its glossary's terms mean at this table

  function setGame(gameId, options) {
    currentGame = gameId;
    currentOptions = options && typeof options === "object" ? options : {};
  }

  // A word of the common or the game's labels, or the fallback before the labels arrive.
  function vocab(gameId, section, key, fallback) {
    const v = word(gameId || currentGame, section, key);
    return v === undefined || v === null ? fallback : v;
  }

  // Card text ("10D", "AS", "JK1", "JK") → parts of a card face; anything else is shown as is.
  function cardParts(text) {
    const m = /^(10|[2-9JQKA])([CDHS])$/.exec(text);
    if (m) return { rank: m[1], suit: m[2], symbol: SUIT_SYMBOL[m[2]], joker: false };
    if (/^JK\d?$/.test(text)) return { rank: "★", suit: "", symbol: text.slice(2), joker: true };
    return { rank: text, suit: "", symbol: "", joker: false };
  }

  function suitName(letter, gameId) { return vocab(gameId, "suits", letter, letter); }

  // A card as it shows in text: ♠A, ♥10; a joker by its word; null (not seen) as "??".
  function cardText(text, gameId) {
    if (text === null || text === undefined) return vocab(gameId, "words", "hidden", "??");
    const p = cardParts(String(text));
    if (p.joker) return vocab(gameId, "jokers", text, text);
    return p.suit ? p.symbol + p.rank : String(text);
  }

  // A card spelled out in the language's order: "ace of spades", "スペードのA", "스페이드 A".
  function cardName(text, gameId) {
    if (text === null || text === undefined) return vocab(gameId, "words", "face_down", t("card.face_down"));
    const p = cardParts(String(text));
    if (p.joker) return vocab(gameId, "jokers", text, text);
    if (!p.suit) return String(text);
    const pattern = vocab(gameId, "words", "card_name", "{rank} {suit}");
    return pattern.split("{rank}").join(vocab(gameId, "ranks", p.rank, p.rank)).split("{suit}").join(suitName(p.suit, gameId));
  }

  // A contract's denomination: a suit's symbol (its word spoken), else the game's word for it.
  function denomination(gameId, d, spoken) {
    if (SUIT_SYMBOL[d]) return spoken ? suitName(d, gameId) : SUIT_SYMBOL[d];
    return vocab(gameId, "denominations", d, d);
  }

  // 14♥ (spoken "14 hearts", "1 heart" for one); a word after a space (14 no-trump), an
  // abbreviation attached (3NT).  In words (spoken, or a denomination without a symbol) a
  // contract takes the form the labels' plurals.contract_<denomination> gives its number: its
  // plural form and the players' order (스페이드 13, 노기루다 20), as torite/present/labels does.
  function contractText(level, denom, gameId, spoken) {
    if (SUIT_SYMBOL[denom] && !spoken) return level + SUIT_SYMBOL[denom];
    const forms = vocab(gameId, "plurals", "contract_" + denom, null);
    if (forms && typeof forms === "object") {
      const form = forms[new Intl.PluralRules(getLang()).select(Number(level) || 0)] || forms.other;
      if (typeof form === "string") return form.split("{n}").join(String(level));
    }
    const name = denomination(gameId, denom, spoken);
    if (SUIT_SYMBOL[denom]) return level + " " + name;
    return /^[A-Z]+$/.test(name) ? level + name : level + " " + name;
  }

  function suitText(tok, gameId, spoken) {
    const name = suitName(tok.suit, gameId);
    if (spoken) return name;
    if (!tok.word) return SUIT_SYMBOL[tok.suit] || tok.suit;
    return vocab(gameId, "words", "suit_named", "{symbol} {name}").split("{symbol}").join(SUIT_SYMBOL[tok.suit] || "")
      .split("{name}").join(name);
  }

  // A token as text: compact (what shows) or spoken (its accessible name).
  function tokenText(tok, gameId, spoken) {
    if (!tok || typeof tok !== "object") return String(tok);
    if (tok.t === "card") return spoken ? cardName(tok.card, gameId) : cardText(tok.card, gameId);
    if (tok.t === "cards") {
      const sep = spoken ? vocab(gameId, "words", "card_sep", ", ") : " ";
      return (tok.cards || []).map((c) => (spoken ? cardName(c, gameId) : cardText(c, gameId))).join(sep);
    }
    if (tok.t === "suit") return suitText(tok, gameId, spoken);
    if (tok.t === "contract") return contractText(tok.level, tok.denom, gameId, spoken);
    return "";
  }

  // Rich text as plain text (a tooltip, the tab title): strings and tokens, compact or spoken.
  function richString(parts, gameId, spoken) {
    if (typeof parts === "string") return parts;
    return (parts || []).map((p) => (typeof p === "string" ? p : tokenText(p, gameId, spoken))).join("");
  }

  function cardSpan(card, gameId) {
    const node = document.createElement("span");
    const p = card === null || card === undefined ? null : cardParts(String(card));
    node.className = "c" + (p && p.suit ? " suit-" + p.suit : p && p.joker ? " joker" : "");
    node.textContent = cardText(card, gameId);
    node.title = cardName(card, gameId);
    node.setAttribute("aria-label", node.title);
    return node;
  }

  // A token as a DOM node: a card in its suit's colour, a suit symbol, a contract; each with its
  // spelled-out name as tooltip and accessible name.
  function tokenNode(tok, gameId) {
    if (tok.t === "card") return cardSpan(tok.card, gameId);
    const node = document.createElement("span");
    if (tok.t === "cards") {
      node.className = "cs";
      (tok.cards || []).forEach((c, i) => {
        if (i) node.appendChild(document.createTextNode(" "));
        node.appendChild(cardSpan(c, gameId));
      });
      return node;
    }
    const suit = tok.t === "suit" ? tok.suit : SUIT_SYMBOL[tok.denom] ? tok.denom : "";
    node.className = "c" + (suit ? " suit-" + suit : "");
    node.textContent = tokenText(tok, gameId, false);
    node.title = tokenText(tok, gameId, true);
    node.setAttribute("aria-label", node.title);
    return node;
  }

  // A card as a DOM node (a <button> when interactive, else a <span>).
  function cardNode(text, asButton, gameId) {
    const el = document.createElement(asButton ? "button" : "span");
    const p = cardParts(text);
    el.className = "card" + (p.suit ? " suit-" + p.suit : "") + (p.joker ? " joker" : "");
    el.dataset.card = text;
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = p.rank;
    const s = document.createElement("span");
    s.className = "suit";
    // a joker's number only where the game tells its jokers apart (Joker 1, Joker 2)
    s.textContent = p.joker && !/\d/.test(cardText(text, gameId)) ? "" : p.symbol;
    el.append(r, s);
    el.setAttribute("aria-label", cardName(text, gameId));
    if (!asButton) el.title = cardName(text, gameId);
    return el;
  }

  // The back of a card nobody at this seat may see yet.
  function cardBack(gameId) {
    const el = document.createElement("span");
    el.className = "card back";
    el.dataset.card = "";
    el.setAttribute("aria-label", cardName(null, gameId));
    el.title = cardName(null, gameId);
    return el;
  }

  // A condition of the labels ("key", "!key", "key == 'text'", "key != null", "n > 20", clauses
  // joined by &) over ``ctx``, as torite/present/labels reads it.
  function holds(cond, ctx) {
    if (!cond) return true;
    const truthy = (v) => !(v === null || v === undefined || v === false || v === "" ||
      (Array.isArray(v) && !v.length) || (typeof v === "object" && v !== null && !Array.isArray(v) && !Object.keys(v).length));
    const operand = (x) => {
      x = x.trim();
      const lit = /^'([^']*)'$/.exec(x);
      if (lit) return lit[1];
      if (x === "null") return null;
      if (x === "true") return true;
      if (x === "false") return false;
      if (/^-?\d+$/.test(x)) return Number(x);
      return ctx[x] === undefined ? null : ctx[x];
    };
    return String(cond).split("&").every((clause) => {
      const m = /^(!?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?$/.exec(clause.trim());
      if (!m) return false;
      const v = ctx[m[2]] === undefined ? null : ctx[m[2]];
      if (!m[3]) return m[1] ? !truthy(v) : truthy(v);
      const o = operand(m[4]);
      if (m[3] === "==") return v === o;
      if (m[3] === "!=") return v !== o;
      if (typeof v !== "number" || typeof o !== "number") return false;
      return m[3] === "<" ? v < o : m[3] === ">" ? v > o : m[3] === "<=" ? v <= o : v >= o;
    });
  }

  // A game's glossary (labels maps.glossary: id -> "Term: what it means", or variants whose
  // "if" reads the table's options: a term an option changes is explained as the table plays
  // it), as [term, meaning].  "{option}" in a text is the option's value at this table (a house
  // rule's number, never its default); a text whose option is not known here is left out.
  function glossary(gameId) {
    const g = gameId ? word(gameId, "maps", "glossary") : null;
    const opts = (gameId || null) === currentGame ? currentOptions : {};
    const out = [];
    for (const entry of Object.values(g || {})) {
      const raw = Array.isArray(entry) ? (entry.find((x) => holds(x.if, opts)) || {}).text : entry;
      const slots = [...String(raw || "").matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
      if (slots.some((k) => !(k in opts))) continue;
      const v = String(raw || "").replace(/\{(\w+)\}/g, (_, k) => String(opts[k]));
      const m = /^(.+?)\s*[:：]\s*(.+)$/s.exec(v);
      if (m) out.push([m[1], m[2]]);
    }
    return out.sort((a, b) => b[0].length - a[0].length);
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  // Fill ``parent`` with plain ``text``, each glossary term of the game underlined with its
  // meaning on hover (and on a tap or Enter, for a phone or the keyboard).  Nothing else in the
  // text is read: cards and suits come as tokens, never guessed from prose.
  function glossText(parent, text, gameId) {
    const terms = glossary(gameId);
    if (!terms.length) { parent.appendChild(document.createTextNode(text)); return parent; }
    const re = new RegExp("(" + terms.map((x) => escapeRe(x[0])).join("|") + ")", "giu");
    let pos = 0;
    for (const m of text.matchAll(re)) {
      const term = terms.find((x) => x[0].toLowerCase() === m[0].toLowerCase());
      if (!term) continue;
      if (m.index > pos) parent.appendChild(document.createTextNode(text.slice(pos, m.index)));
      const node = document.createElement("abbr");
      node.className = "gloss";
      node.title = term[1];
      node.tabIndex = 0;
      node.textContent = m[0];
      const tell = (ev) => { ev.stopPropagation(); notice(m[0] + ": " + term[1]); };
      node.addEventListener("click", tell);
      node.addEventListener("keydown", (ev) => { if (ev.key === "Enter") tell(ev); });
      parent.appendChild(node);
      pos = m.index + m[0].length;
    }
    if (pos < text.length) parent.appendChild(document.createTextNode(text.slice(pos)));
    return parent;
  }

  // Fill ``parent`` with rich text (or a plain string): tokens drawn, strings with the glossary
  // (not on a button, ``plain``: a click there is the button's, not a term's).
  function richText(parent, parts, gameId, plain) {
    if (parts === null || parts === undefined) return parent;
    const text = (s) => (plain ? parent.appendChild(document.createTextNode(s)) : glossText(parent, s, gameId));
    if (!Array.isArray(parts)) { text(String(parts)); return parent; }
    for (const p of parts) {
      if (typeof p === "string") text(p);
      else if (p && typeof p === "object") parent.appendChild(tokenNode(p, gameId));
    }
    return parent;
  }

  // A UI string with placeholders filled by plain values or tokens, as rich text (so a card
  // put into "You are winning the trick with {card}." is drawn as a card).
  function tRich(key, vars, count) {
    const s = t(key, undefined, count);
    const out = [];
    let pos = 0;
    for (const m of s.matchAll(/\{(\w+)\}/g)) {
      if (!vars || !(m[1] in vars)) continue;
      if (m.index > pos) out.push(s.slice(pos, m.index));
      const v = vars[m[1]];
      out.push(v !== null && typeof v === "object" ? v : String(v));
      pos = m.index + m[0].length;
    }
    if (pos < s.length) out.push(s.slice(pos));
    if (getLang() !== "ko") return out;
    const read = [];  // each part as read aloud: what a particle after it follows
    return out.map((p) => {
      const done = typeof p === "string" ? particles(p, read.join("")) : p;
      read.push(typeof p === "string" ? done : tokenText(p, currentGame, true));
      return done;
    });
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
    cardText, cardName, richText, richString, tokenNode, tokenText, contractText, tRich, glossary, notice, list, holds,
    LANGS, STRINGS, t, getLang, setLang, apply, bindSwitch, cardNode, cardBack, cardParts, setGame,
    setGames, byLang, word, gameTitle, phaseName, actionLabel, denomination, SUIT_SYMBOL, particles,
  };
})();
