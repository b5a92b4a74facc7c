// The replay viewer: the table as it was at every step of a record, drawn by the live table's own
// code (render in table.js) from the state message the server builds for the chosen viewer at
// that step, exactly as it would have sent it live.  Two sources: a table's game
// (/replay/{table id}: GET /api/tables/{id}/replay) or a record file opened or dropped here (its
// JSON is sent to the stateless POST /api/replay; nothing is kept).  Steps forward and back, to
// a trick or a round, play/pause with the trick pause, the log with the step's lines marked (a
// click on a line goes to its step), the round summaries, whose eyes (every hand open, a seat,
// a spectator), and at a seat's decision what a bot would play from that seat's view only.

import { $, S, T, el, rich, seatName, tableId } from "./table-state.js";
import { endPause, pauseSeconds, startPause } from "./table-trick.js";
import { showSummaries } from "./table-dialogs.js";

const MAX_FILE = 1 << 20;          // the server's bound on a record's size
const STEP_MS = 700;               // a step's time when playing (a finished trick: the trick pause)
const SUGGEST_LEVEL = "hard";

const R = {
  record: null,     // the record opened in the page (null: a table's game)
  step: 0,
  info: null,       // the step's replay facts: steps, tricks, rounds, viewers, viewer, finished
  viewer: "open",   // asked for ("open", a seat, null); the server says what is shown
  playing: false,
  timer: null,
  seq: 0,           // the newest request: an older answer arriving late is dropped
  loading: false,
  suggestion: null, // {step, seat, label, cards}
};
let draw = () => {};
let note = () => {};

export function start(render, noteMoments) {
  draw = render;
  note = noteMoments;
  $("replay-bar").classList.remove("hidden");
  $("conn").dataset.i18n = "replay.watching";
  $("conn").textContent = T.t("replay.watching");
  for (const b of $("replay-controls").querySelectorAll("button[data-i18n-title]")) b.setAttribute("aria-label", b.title);
  wire();
  window.__torite.replay = () => ({ step: R.step, steps: R.info ? R.info.steps : 0, viewer: R.info ? R.info.viewer : R.viewer,
    loading: R.loading, playing: R.playing, error: $("replay-error").dataset.code || null });
  window.__torite.goto = (k, viewer) => { if (viewer !== undefined) R.viewer = viewer; return load(k, false); };
  if (tableId) load(Number.MAX_SAFE_INTEGER, false);
  else $("replay-open").classList.remove("hidden");
}

// ------------------------------------------------------------ asking the server
function viewerParam(v) {
  return v === null ? "spectator" : String(v);
}

async function fetchStep(step) {
  if (R.record === null) {
    const q = "?viewer=" + encodeURIComponent(viewerParam(R.viewer)) + (Number.isSafeInteger(step) && step < 1e6 ? "&step=" + step : "");
    return fetch("/api/tables/" + encodeURIComponent(tableId) + "/replay" + q);
  }
  return fetch("/api/replay", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ record: R.record, step: Math.min(step, R.info ? R.info.steps : 0), viewer: R.viewer }),
  });
}

// Go to ``step``; ``forward``: one step on (a finished trick stays its pause, a round's end
// opens its summary, as at the live table).
async function load(step, forward) {
  const seq = ++R.seq;
  R.loading = true;
  $("table").dataset.loading = "1";
  let res, data;
  try {
    res = await fetchStep(step);
    data = await res.json();
  } catch (e) {
    data = { error: "network", message: String(e) };
  }
  if (seq !== R.seq) return;
  R.loading = false;
  $("table").dataset.loading = "0";
  if (!res || !res.ok) {
    fail(data);
    return;
  }
  clearError();
  show(data, forward);
}

function show(msg, forward) {
  const info = msg.replay;
  R.info = info;
  R.step = info.step;
  if (R.suggestion && R.suggestion.step !== R.step) R.suggestion = null;
  S.me = Number.isInteger(info.viewer) ? info.viewer : null;
  S.logLines = msg.log;
  S.last = msg;
  note(msg.log, true);  // the round summaries so far, for the buttons that reopen them
  const fresh = msg.log.filter((l) => l.now);
  const trick = fresh.filter((l) => l.kind === "trick" && l.data).pop();
  if (forward && trick) startPause(trick.data);
  else if (S.doneTrick) { S.doneTrick = null; endPause(); }
  S.summaries = [];
  const roundEnd = fresh.some((l) => l.kind === "round_end");
  if (forward && roundEnd && S.lastSummary) S.summaries.push(S.lastSummary);
  const main = $("table");
  main.dataset.step = String(R.step);
  main.dataset.viewer = info.viewer === null ? "spectator" : String(info.viewer);
  draw(null);
  renderBar();
  if (forward && roundEnd && !S.doneTrick) showSummaries();
}

// ------------------------------------------------------------ the bar
function landmarks() {
  const info = R.info;
  const out = [{ step: 0, label: T.t("replay.deal") }];
  let r = 0;
  let t = 0;
  const ends = new Set(info.rounds);
  const tricks = new Set(info.tricks);
  const all = [...new Set([...info.tricks, ...info.rounds])].sort((a, b) => a - b);
  for (const k of all) {
    if (tricks.has(k)) { t += 1; out.push({ step: k, label: T.t("replay.trick", { r: r + 1, t }) }); }
    if (ends.has(k)) { r += 1; t = 0; out.push({ step: k, label: T.t("replay.round_end", { r }) }); }
  }
  return out;
}

function viewerLabel(v) {
  if (v === "open") return T.t("replay.open");
  if (v === null) return T.t("replay.spectator");
  return seatName(v, true);
}

function renderBar() {
  const info = R.info;
  if (!info) return;
  $("replay-controls").classList.remove("hidden");
  const n = info.steps;
  $("rp-step").textContent = T.t("replay.step", { k: R.step, n });
  const range = $("rp-range");
  range.max = String(n);
  range.value = String(R.step);
  $("rp-first").disabled = $("rp-prev").disabled = R.step <= 0;
  $("rp-last").disabled = $("rp-next").disabled = R.step >= n;
  $("rp-prev-trick").disabled = !prevOf(allTricks());
  $("rp-next-trick").disabled = nextOf(info.tricks) === null;
  $("rp-prev-round").disabled = !prevOf([0, ...info.rounds]);
  $("rp-next-round").disabled = nextOf(info.rounds) === null;
  $("rp-play").textContent = T.t(R.playing ? "replay.pause" : "replay.play");
  $("rp-play").setAttribute("aria-pressed", R.playing ? "true" : "false");
  const jump = $("rp-jump");
  jump.innerHTML = "";
  let chosen = 0;
  for (const mark of landmarks()) {
    const o = el("option", null, mark.label);
    o.value = String(mark.step);
    jump.appendChild(o);
    if (mark.step <= R.step) chosen = mark.step;
  }
  jump.value = String(chosen);
  const sel = $("rp-viewer");
  sel.innerHTML = "";
  for (const v of info.viewers) {
    const o = el("option", null, viewerLabel(v));
    o.value = v === null ? "spectator" : String(v);
    sel.appendChild(o);
  }
  sel.value = info.viewer === null ? "spectator" : String(info.viewer);
  sel.disabled = info.viewers.length < 2;
  sel.title = info.finished ? "" : T.t("replay.in_progress");
  // a seat's decision: what would a bot play, from this seat's view only
  const m = S.last;
  const decides = Number.isInteger(info.viewer) && !m.over && m.to_act.includes(info.viewer);
  const ask = $("rp-suggest");
  ask.classList.toggle("hidden", !decides);
  ask.textContent = T.t("replay.suggest", { level: T.t("bot." + SUGGEST_LEVEL) });
  const line = $("rp-suggestion");
  line.innerHTML = "";
  const sug = R.suggestion && R.suggestion.step === R.step && R.suggestion.seat === info.viewer ? R.suggestion : null;
  line.classList.toggle("hidden", !sug);
  ask.disabled = !!sug || R.suggesting;
  if (sug) {
    const label = T.byLang(sug.label) || [];
    line.appendChild(rich("span", "hint-action", T.tRich("replay.suggested", { level: T.t("bot." + sug.level), action: "\u0000" })
      .flatMap((p) => (p === "\u0000" ? label : [p]))));
    for (const c of sug.cards) {
      const b = $("hand").querySelector('button.card[data-card="' + CSS.escape(c) + '"]');
      if (b) b.classList.add("hinted");
    }
  }
}

function allTricks() {
  return [0, ...R.info.tricks];
}

function prevOf(list) {
  const before = list.filter((k) => k < R.step);
  return before.length ? before[before.length - 1] : null;
}

function nextOf(list) {
  const after = list.filter((k) => k > R.step);
  return after.length ? after[0] : null;
}

function go(step, forward) {
  if (!R.info) return;
  const k = Math.max(0, Math.min(R.info.steps, step));
  if (k === R.step && !R.loading) return;
  load(k, !!forward);
}

// ------------------------------------------------------------ playing
function play(on) {
  R.playing = on && !!R.info && R.step < R.info.steps;
  clearTimeout(R.timer);
  if (R.playing) tick();
  renderBar();
}

async function tick() {
  if (!R.playing) return;
  if ($("round-dialog").open) { R.timer = setTimeout(tick, 300); return; }  // reading the summary
  if (R.step >= R.info.steps) { play(false); return; }
  await load(R.step + 1, true);
  if (!R.playing) return;
  const wait = S.doneTrick ? pauseSeconds() * 1000 + 300 : STEP_MS;
  R.timer = setTimeout(tick, wait);
}

// ------------------------------------------------------------ suggestion
async function suggest() {
  const info = R.info;
  if (!info || !Number.isInteger(info.viewer) || R.suggesting) return;
  R.suggesting = true;
  const step = R.step;
  const seat = info.viewer;
  $("rp-suggest").disabled = true;
  $("rp-suggest").textContent = T.t("replay.thinking");
  let res, data;
  try {
    if (R.record === null) {
      res = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/replay/suggest?step=" + step + "&seat=" + seat
        + "&level=" + SUGGEST_LEVEL);
    } else {
      res = await fetch("/api/replay/suggest", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ record: R.record, step, seat, level: SUGGEST_LEVEL }),
      });
    }
    data = await res.json();
  } catch (e) {
    data = { error: "network", message: String(e) };
  } finally {
    R.suggesting = false;
  }
  if (res && res.ok) R.suggestion = data;
  else T.notice(said(data));
  renderBar();
}

// ------------------------------------------------------------ a record file
function openText(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    fail({ error: "not_json" });
    return;
  }
  R.record = data;
  R.info = null;
  R.step = 0;
  R.viewer = "open";
  R.suggestion = null;
  play(false);
  load(0, false);
}

function openFile(file) {
  if (!file) return;
  if (file.size > MAX_FILE) { fail({ error: "too_big" }); return; }
  file.text().then(openText, () => fail({ error: "not_json" }));
}

// A refusal in the reader's language when the page has words for it (too many requests, the
// server busy), else the server's own message.
function said(data) {
  const key = "error." + data.error;
  return T.t(key) !== key ? T.t(key) : T.t("error.generic", { message: data.message || data.error });
}

// A refused record: the action and the reason, in the reader's language as far as the page
// has words for them (the rule's own reason comes from the engine).
function fail(data) {
  const box = $("replay-error");
  let text;
  if (data.error === "not_json") text = T.t("replay.not_json");
  else if (data.error === "too_big" || data.error === "too_large") text = T.t("replay.too_big");
  else if (data.detail && Number.isInteger(data.detail.action)) {
    const d = data.detail;
    text = T.t("replay.bad_action", { n: d.action, seat: d.seat, text: d.text, reason: d.reason });
  } else if (data.error === "bad_record") text = T.t("replay.bad_record", { message: String(data.message || "").replace(/^this record cannot be replayed: /, "") });
  else text = said(data);
  box.textContent = text;
  box.dataset.code = data.error || "error";
  box.classList.remove("hidden");
  play(false);
  if (data.error === "bad_record" || data.error === "not_json" || data.error === "too_big") {
    // nothing of a refused record is shown
    R.record = null;
    R.info = null;
    $("replay-controls").classList.add("hidden");
    $("table").dataset.ready = "0";
  }
}

function clearError() {
  const box = $("replay-error");
  box.classList.add("hidden");
  box.textContent = "";
  delete box.dataset.code;
}

// ------------------------------------------------------------ wiring
function wire() {
  $("rp-first").addEventListener("click", () => go(0));
  $("rp-last").addEventListener("click", () => go(R.info.steps));
  $("rp-prev").addEventListener("click", () => go(R.step - 1));
  $("rp-next").addEventListener("click", () => go(R.step + 1, true));
  $("rp-prev-trick").addEventListener("click", () => go(prevOf(allTricks()) ?? 0));
  $("rp-next-trick").addEventListener("click", () => go(nextOf(R.info.tricks) ?? R.step, true));
  $("rp-prev-round").addEventListener("click", () => go(prevOf([0, ...R.info.rounds]) ?? 0));
  $("rp-next-round").addEventListener("click", () => go(nextOf(R.info.rounds) ?? R.step, true));
  $("rp-play").addEventListener("click", () => play(!R.playing));
  $("rp-range").addEventListener("change", () => go(Number($("rp-range").value)));
  $("rp-jump").addEventListener("change", () => go(Number($("rp-jump").value), true));
  $("rp-viewer").addEventListener("change", () => {
    const v = $("rp-viewer").value;
    R.viewer = v === "open" ? "open" : v === "spectator" ? null : Number(v);
    load(R.step, false);
  });
  $("rp-suggest").addEventListener("click", suggest);
  $("log").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-step]");
    if (li) go(Number(li.dataset.step));
  });
  $("replay-file").addEventListener("change", (ev) => openFile(ev.target.files[0]));
  document.addEventListener("dragover", (ev) => { if (R.record !== null || !tableId) ev.preventDefault(); });
  document.addEventListener("drop", (ev) => {
    if (tableId) return;
    ev.preventDefault();
    openFile(ev.dataTransfer && ev.dataTransfer.files[0]);
  });
  document.addEventListener("keydown", (ev) => {
    if (!R.info || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || $("round-dialog").open) return;
    if (ev.key === "ArrowLeft") go(R.step - 1);
    else if (ev.key === "ArrowRight") go(R.step + 1, true);
    else if (ev.key === "t") go(nextOf(R.info.tricks) ?? R.step, true);
    else if (ev.key === "r") go(nextOf(R.info.rounds) ?? R.step, true);
    else return;
    ev.preventDefault();
  });
  S.onLang = renderBar;
}
