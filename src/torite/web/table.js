// The table: one WebSocket to the server, which sends this seat's view after every change.
// Everything shown comes from that message: the observation's common keys (hand, trick, scores,
// phase, to_act, round, dealer, round_scores, tricks, hand_sizes, tricks_won, round_points), the
// game's status rows (some pinned in view), the prompt, the seats' roles, the goal, the bidding
// so far, the last trick's facts, log lines (a finished trick's and a round end's line carry
// their event's data, a round end's its scoring written out), the decision grouped by the
// phase's declared forms with each action's words (rich text: strings and card, suit and
// contract tokens that the one formatter in i18n.js draws), each disabled choice's reason from
// the rules, the piles, who is winning the trick, idle clocks, the rematch, and the game's labels
// from /api/games.  Nothing here knows a particular game.
//
// The parts: table-state.js (shared state, helpers), table-seats.js (the seats and their
// roles), table-trick.js (the trick, the pause after it, the piles, the last trick),
// table-decide.js (the hand, the choices, why not, the hint), table-side.js (status, bidding
// history, score sheet, log), table-dialogs.js (round summary, game over, rules, take-over).
// The replay viewer (/replay…) is this page drawn by the same code from a record's steps instead
// of a socket: table-replay.js.

import { $, REPLAY, S, T, cardReason, el, isMine, setSend, tableId } from "./table-state.js";
import { renderSeats } from "./table-seats.js";
import { PAUSES, endPause, onPauseEnd, pauseSeconds, renderLastTrick, renderPiles, renderTrick, startPause } from "./table-trick.js";
import { act, askHint, onHandKey, renderActions, renderPrompt, showWhy } from "./table-decide.js";
import { renderAuction, renderLog, renderSheet, renderStatus } from "./table-side.js";
import { askTakeOver, openSummary, renderOver, showRules, showSummaries } from "./table-dialogs.js";
import { fitTable, watchFit } from "./table-fit.js";
import { setupHandTools } from "./table-hand.js";
import { onNamed, renderNameButton, sayKeptName, setupNames } from "./table-name.js";

const storeKey = "torite.seat." + tableId;
let ws = null;
let retry = 0;
let stopped = false;
let toastTimer = null;
let wasMyTurn = false;
let chimedAt = -1;        // the action count at which "your turn" was last signalled
let audio = null;
S.skew = 0;               // our clock minus the server's, in seconds

// ------------------------------------------------------------ credentials
// An invitation link carries the seat's token after the "#".  The page keeps it in this
// browser's storage and takes it out of the address bar at once, so an address copied from
// there (or seen over a shoulder) does not give the seat away; the link itself still works.
function credentials() {
  const h = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (h.has("watch")) return null;
  if (h.has("seat") && h.has("token")) {
    const c = { seat: Number(h.get("seat")), token: h.get("token") };
    const text = JSON.stringify(c);
    try { sessionStorage.setItem(storeKey, text); } catch (e) { /* storage off: the seat lasts this page */ }
    try { localStorage.setItem(storeKey, text); } catch (e) { /* as above */ }
    history.replaceState(null, "", location.pathname + location.search);
    return c;
  }
  for (const store of [sessionStorage, localStorage]) {
    try {
      const saved = JSON.parse(store.getItem(storeKey) || "null");
      if (saved && Number.isInteger(saved.seat) && typeof saved.token === "string") return saved;
    } catch (e) { /* a damaged entry: try the next, else watch */ }
  }
  return null;
}
let creds = credentials();
let watching = false;     // we chose to watch although we hold the seat's token

// This browser tab's own id: a reload keeps it, so only another tab is asked before taking over.
function tabId() {
  try {
    let id = sessionStorage.getItem("torite.tab");
    if (!id) {
      id = Math.random().toString(36).slice(2) + Date.now().toString(36);
      sessionStorage.setItem("torite.tab", id);
    }
    return id;
  } catch (e) {
    return "";
  }
}

// ------------------------------------------------------------ connection
function setConn(key) {
  $("conn").dataset.i18n = key;
  $("conn").textContent = T.t(key);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId));
  ws.addEventListener("open", () => {
    retry = 0;
    const seated = creds && !watching;
    // the texts come in the reader's language only (a switch asks for them again, see init)
    const lang = T.getLang();
    ws.send(JSON.stringify(seated ? { type: "join", seat: creds.seat, token: creds.token, tab: tabId(), lang }
      : { type: "join", seat: null, lang }));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(msg);
  });
  ws.addEventListener("close", () => {
    if (stopped) return;
    setConn("table.reconnecting");
    $("table").dataset.connected = "0";
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  });
}

setSend((obj) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj)); });

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), 5000);
}

function watch() {
  watching = true;
  S.me = null;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "join", seat: null, lang: T.getLang() }));
}

function onMessage(msg) {
  if (msg.type === "state") {
    const full = msg.log_from === 0;
    // a whole log comes in pages (the first here, the rest as "log" messages): all of it is
    // history, replayed from none of it
    const history = full || S.logBehind;
    S.logBehind = (msg.log_rest || 0) > 0;
    if (full) S.logLines = [];
    S.logLines.push(...msg.log);
    if (typeof msg.now === "number") S.skew = Date.now() / 1000 - msg.now;
    noteMoments(msg.log, history, full);
    if (msg.over && !S.overSeen) {
      S.overSeen = true;
      // a game that ended before this page joined: its end opens as if it had been watched
      // (once its whole log is here)
      if (history) S.endOpens = true;
    }
    if (S.endOpens && !S.logBehind) {
      S.endOpens = false;
      if (S.lastSummary) S.summaries.push(S.lastSummary);
    }
    if (S.hint && (!S.last || msg.n !== S.hint.n)) S.hint = null;
    S.last = msg;
    S.busy = false;
    // the language the table's words came in (null: every one): a switch is done when it is ours
    $("table").dataset.lang = msg.lang || "";
    setConn(S.me === null ? "table.spectating" : "table.connected");
    $("table").dataset.connected = "1";
    render(history ? null : msg.log);
    sayKeptName();
    renderNameButton();
  } else if (msg.type === "log") {
    // the next page of a whole log: history
    S.logLines.push(...msg.log);
    noteMoments(msg.log, true, false);
    S.logBehind = msg.log_rest > 0;
    if (S.endOpens && !S.logBehind) {
      S.endOpens = false;
      if (S.lastSummary) S.summaries.push(S.lastSummary);
    }
    if (S.last) render(null);
  } else if (msg.type === "named") {
    onNamed(msg);
  } else if (msg.type === "joined") {
    S.me = msg.seat;
    S.nameSaid = null;
    setConn(S.me === null ? "table.spectating" : "table.connected");
    $("table").dataset.takeover = msg.others ? "1" : "0";
    if (msg.seat !== null && msg.others > 0) askTakeOver(watch);
  } else if (msg.type === "taken_over") {
    S.me = null;
    toast(T.t("table.taken_over"));
    $("table").dataset.takenOver = "1";
  } else if (msg.type === "hint") {
    S.hint = msg;
    if (S.last) { renderActions(); renderPiles(S.last, act, refusePile); }
  } else if (msg.type === "error") {
    S.busy = false;
    if (msg.code === "bad_token") {
      toast(T.t("error.bad_token"));
      forget();
      creds = null;
      ws.send(JSON.stringify({ type: "join", seat: null, lang: T.getLang() }));
    } else if (msg.code === "stale") {
      // a second click, or another tab, answered a decision already made: the table shown is current
    } else if (msg.code === "not_found") {
      stopped = true;
      $("notfound").classList.remove("hidden");
      setConn("table.not_found");
    } else if (msg.code === "no_hints") {
      toast(T.t("table.hint_off"));
    } else {
      // a refusal the page has words for is said in the reader's language
      const key = "error." + msg.code;
      toast(T.t(key) !== key ? T.t(key) : T.t("error.generic", { message: msg.message }));
    }
    if (S.last) renderActions();
  }
}

function forget() {
  try { sessionStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ }
  try { localStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ }
}

// New log lines: a finished trick stays on the table a moment, a round's end queues its summary.
// A whole log (the first message, a reconnect, in pages) is history: nothing is replayed from it,
// but the last round's summary can be reopened.  ``fresh``: the log starts over here.
export function noteMoments(lines, full, fresh = full) {
  let trick = null;
  if (fresh) { S.roundsSeen = 0; S.roundTricks = []; }
  for (const line of lines) {
    if (line.kind === "round_end" && line.data) {
      S.roundsSeen += 1;
      S.lastSummary = { data: line.data, explain: line.explain, round: S.roundsSeen, tricks: S.roundTricks };
      S.roundTricks = [];
      if (!full) S.summaries.push(S.lastSummary);
    } else if (line.kind === "trick" && line.data) {
      const w = line.data.winner;
      if (Number.isInteger(w)) S.roundTricks[w] = (S.roundTricks[w] || 0) + 1;
      if (!full) trick = line.data;
    }
  }
  if (trick) startPause(trick);
}

onPauseEnd(() => { if (S.last) { renderPrompt(); fitTable(); } showSummaries(); });

function refusePile(node, card) {
  node.classList.add("refused");
  node.setAttribute("aria-disabled", "true");
  const reason = cardReason(card);
  const text = T.richString(reason, S.last.game, false);
  node.title = text;
  node.dataset.reason = text;
  node.addEventListener("mouseenter", () => showWhy(reason));
  node.addEventListener("focus", () => showWhy(reason));
  node.addEventListener("click", () => { showWhy(reason); T.notice(text); });
}

// ------------------------------------------------------------ rendering
export function render(newLines) {
  const m = S.last;
  T.setGame(m.game, m.options);  // the game whose labels name the cards drawn (its glossary under its options)
  const main = $("table");
  main.dataset.ready = "1";
  main.dataset.seat = S.me === null ? "" : String(S.me);
  main.dataset.n = String(m.n);
  main.dataset.over = m.over ? "1" : "0";
  const mine = isMine(m);
  main.dataset.myTurn = mine ? "1" : "0";
  main.dataset.phase = m.phase || "";
  main.classList.toggle("bidding", !!(mine && m.decision && Object.keys(m.decision.bids || {}).length));
  const title = T.gameTitle(m.game, m.title);
  document.title = (mine ? "▶ " + T.t("table.your_turn") + " · " : "") + title + " · torite";
  // a new decision: not a re-render, not the next step of one's own move
  if (mine && m.n !== chimedAt && !(wasMyTurn && m.n === S.actedAt + 1)) chime();
  if (mine) chimedAt = m.n;
  wasMyTurn = mine;
  $("title").textContent = title;
  const goal = $("goal");
  goal.innerHTML = "";
  T.richText(goal, T.byLang(m.goal) || "", m.game);
  goal.title = goal.textContent;
  // on a phone the header has no room for it: the table's panel says it
  const side = $("goal-side");
  side.innerHTML = "";
  T.richText(side, T.byLang(m.goal) || "", m.game);
  renderSeats(m);
  renderTrick(m);
  renderPiles(m, act, refusePile);
  renderLastTrick(m);
  renderStatus(m);
  renderAuction(m);
  renderSheet(m);
  renderLog(newLines);
  renderOver(m);
  $("away").classList.toggle("hidden", !(S.me !== null && m.seats[S.me] && m.seats[S.me].away && !m.over));
  renderActions();
  if (!S.doneTrick) showSummaries();
}

// ------------------------------------------------------------ your turn
// A soft two-note chime made on the spot (nothing is downloaded), only when switched on.
function chime() {
  if (localStorage.getItem("torite.sound") !== "1") return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const t0 = audio.currentTime;
    [660, 880].forEach((f, k) => {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = "sine";
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + k * 0.12);
      g.gain.exponentialRampToValueAtTime(0.06, t0 + k * 0.12 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + k * 0.12 + 0.25);
      o.connect(g).connect(audio.destination);
      o.start(t0 + k * 0.12);
      o.stop(t0 + k * 0.12 + 0.3);
    });
    document.documentElement.dataset.chimes = String(Number(document.documentElement.dataset.chimes || 0) + 1);
  } catch (e) { /* no audio here: the tab title still says it */ }
}

async function rematch() {
  if (!creds || S.busy) return;
  S.busy = true;
  try {
    const res = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/rematch", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ seat: creds.seat, token: creds.token }),
    });
    const data = await res.json();
    if (!res.ok) { toast(T.t("error.generic", { message: data.message })); return; }
    location.assign(data.path);
  } finally {
    S.busy = false;
  }
}

// ------------------------------------------------------------ settings in the header
function setupPause() {
  const sel = $("pause");
  const fill = () => {
    sel.innerHTML = "";
    for (const v of PAUSES) {
      const o = el("option", null, v === 0 ? T.t("table.pause_off") : T.t("table.pause_s", { s: v }));
      o.value = String(v);
      sel.appendChild(o);
    }
    sel.value = String(pauseSeconds());
  };
  fill();
  sel.addEventListener("change", () => localStorage.setItem("torite.pause", sel.value));
  return fill;
}

function setupSound() {
  const b = $("btn-sound");
  const show = () => {
    const on = localStorage.getItem("torite.sound") === "1";
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = T.t(on ? "table.sound_on" : "table.sound_off");
  };
  b.addEventListener("click", () => {
    const on = localStorage.getItem("torite.sound") !== "1";
    localStorage.setItem("torite.sound", on ? "1" : "0");
    if (on) {
      try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); audio.resume(); } catch (e) { /* no audio */ }
    }
    show();
  });
  show();
  return show;
}

// On a phone the header is one row: its tools fold into a menu.
function setupMenu() {
  const b = $("btn-menu");
  const tools = $("tools");
  b.addEventListener("click", () => {
    const open = !tools.classList.contains("open");
    tools.classList.toggle("open", open);
    b.setAttribute("aria-expanded", open ? "true" : "false");
  });
  tools.addEventListener("click", (ev) => {
    if (ev.target.closest("button") && tools.classList.contains("open")) {
      tools.classList.remove("open");
      b.setAttribute("aria-expanded", "false");
    }
  });
}

function init() {
  T.apply();
  const refillPause = setupPause();
  const showSound = setupSound();
  const refillHandTools = setupHandTools(() => { if (S.last) renderActions(); });
  setupNames();
  setupMenu();
  watchFit();
  T.bindSwitch($("lang"), () => {
    // the server sends a state and the whole log in the new language; until it comes, the
    // page's own words switch at once and the table's show in the old language
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "lang", lang: T.getLang() }));
    refillPause();
    showSound();
    refillHandTools();
    if (S.last) render(null);
    if (S.onLang) S.onLang();
    if ($("round-dialog").open && S.lastSummary) openSummary(S.lastSummary);
  });
  $("hand").addEventListener("keydown", onHandKey);
  $("btn-back").addEventListener("click", () => ws && ws.send(JSON.stringify({ type: "back" })));
  $("btn-rules").addEventListener("click", showRules);
  $("btn-hint").addEventListener("click", askHint);
  $("btn-last").addEventListener("click", () => {
    S.showLast = !S.showLast;
    $("btn-last").setAttribute("aria-pressed", S.showLast ? "true" : "false");
    if (S.last) renderLastTrick(S.last);
  });
  $("ring").addEventListener("click", () => { if (S.doneTrick) endPause(); });
  $("trick-note").addEventListener("click", () => { if (S.doneTrick) endPause(); });
  $("btn-rematch").addEventListener("click", rematch);
  $("final-rematch").addEventListener("click", rematch);
  for (const id of ["btn-summary", "btn-last-summary"]) {
    $(id).addEventListener("click", () => { if (S.lastSummary) openSummary(S.lastSummary); });
  }
  $("btn-spectate").addEventListener("click", async () => {
    const url = location.origin + "/t/" + encodeURIComponent(tableId) + "#watch";
    try { await navigator.clipboard.writeText(url); T.notice(T.t("lobby.copied") + ": " + url); } catch (e) { T.notice(url); }
  });
  window.addEventListener("hashchange", () => {
    if (!location.hash) return;  // our own clearing of the token
    creds = credentials();
    watching = false;
    if (ws) ws.close();
  });
  // a gone player's countdown ticks between messages
  setInterval(() => { if (S.last && (S.last.idle_deadlines || []).some((d) => typeof d === "number")) renderSeats(S.last); }, 1000);
  window.__torite = { state: () => S.last, seat: () => S.me, lines: () => S.logLines };
  // the game's words (labels in every language): the names of cards, suits and contracts too
  fetch("/api/games").then((r) => r.json()).then((data) => {
    T.setGames(data.games);
    if (S.last) render(null);
  }).catch(() => { /* the server's texts still come with every state */ });
  if (REPLAY) {
    // no socket: the steps of a record, drawn by the same code
    $("table").dataset.mode = "replay";
    document.documentElement.dataset.mode = "replay";
    import("./table-replay.js").then((r) => r.start(render, noteMoments));
  } else {
    connect();
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
