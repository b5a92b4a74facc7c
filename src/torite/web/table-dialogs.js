// The dialogs over the table: a round's summary that explains its points (the scoring written
// out, rows that add up with their units, each seat's calculation, the round's points and the
// totals), the end of the game (the rule that decides it, the standings in its order, the
// record, the rematch), the rules page, and a seat open in another window.

import { $, S, T, el, rich, seatName, send, signed, tableId } from "./table-state.js";

// Several rounds at once (a late tab): the newest says enough.
export function showSummaries() {
  if (!S.summaries.length || !S.last) return;
  const dlg = $("round-dialog");
  if (dlg.open) return;
  const s = S.summaries.shift();
  S.summaries = [];
  openSummary(S.lastSummary && S.lastSummary.round > s.round ? S.lastSummary : s);
}

function scoringWord(game, key) {
  const w = T.word(game, "scoring", key);
  return typeof w === "string" ? w : key;
}

function per(v) {
  return (v < 0 ? "×−" + -v : "×" + v);
}

// The round-end data's summary as table rows: each row with its unit ("hearts taken ×1"), a
// count shown beside its value where the unit is not 1 ("3 = −6"), the facts that do not add
// (tricks won) apart; then each seat's calculation step by step (Mighty: base score, ×2 for
// no-trump, the share), the round's points and the totals.
function summaryRows(m, data, tricks) {
  const n = m.num_players;
  const out = [];
  const summary = data.summary || { rows: [] };
  const steps = summary.steps || [];
  // a fact the calculation starts from anyway (Seconds' tricks won) is said once, as its step
  const first = (i) => (steps[i] && steps[i][0] ? steps[i][0] : null);
  const repeated = (r) => !r.adds && r.values.every((v, i) => first(i) && first(i).key === r.key && first(i).value === v);
  // a row that adds nothing to anyone (Umbridge's slam in a part-score deal) is left out
  const nothing = (r) => r.adds && r.values.every((v) => v === 0);
  for (const r of (summary.rows || []).filter((x) => !repeated(x) && !nothing(x))) {
    const label = scoringWord(m.game, r.key) + (r.per !== undefined ? " " + per(r.per) : "");
    const values = r.values.map((v, i) => {
      if (Array.isArray(r.count) && r.per !== undefined && r.per !== 1 && r.count[i]) return r.count[i] + " = " + v;
      return String(v);
    });
    out.push({ key: "row-" + r.key, label, values, cls: r.adds ? "adds" : "fact" });
  }
  const depth = Math.max(0, ...steps.map((st) => st.length));
  for (let k = 0; k < depth; k++) {
    const keys = steps.map((s) => (s[k] ? s[k].key : null)).filter(Boolean);
    const label = [...new Set(keys)].map((x) => scoringWord(m.game, x)).join(" / ");
    const values = [];
    for (let i = 0; i < n; i++) {
      const st = steps[i] && steps[i][k];
      values.push(!st ? "" : st.op === "=" ? String(st.value) : st.op === "-" ? "− " + st.value
        : st.op === "+" ? "+ " + st.value : per(st.value));
    }
    out.push({ key: "step-" + k, label, values, cls: "step" });
  }
  if (!summary.rows.length && !steps.length && tricks) {
    out.push({ key: "row-tricks", label: T.t("table.seat_tricks", { n: "" }).trim(), values: [...Array(n).keys()].map((i) => String(tricks[i] || 0)), cls: "fact" });
  }
  return out;
}

function roundTitle(m, round) {
  const w = T.word(m.game, "words", "round_over");
  return typeof w === "string" ? w.split("{n}").join(String(round)) : T.t("table.round_over", { n: round });
}

export function openSummary(s) {
  const m = S.last;
  const n = m.num_players;
  const data = s.data;
  $("round-title").textContent = roundTitle(m, s.round);
  const explain = $("round-explain");
  explain.innerHTML = "";
  for (const [k, v] of T.byLang(s.explain) || []) explain.append(rich("dt", null, k), rich("dd", null, v));
  explain.classList.toggle("hidden", !explain.childNodes.length);
  const table = $("round-table");
  table.innerHTML = "";
  const head = el("tr");
  head.appendChild(el("th"));
  for (let i = 0; i < n; i++) {
    const th = el("th", null, seatName(i, "short"));
    th.title = seatName(i, true);
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  const tbody = el("tbody");
  const line = (label, values, cls, key) => {
    const tr = el("tr", cls);
    tr.dataset.key = key;
    tr.appendChild(rich("th", null, label));
    for (const v of values) tr.appendChild(el("td", null, v));
    tbody.appendChild(tr);
  };
  for (const r of summaryRows(m, data, s.tricks)) line(r.label, r.values, r.cls, r.key);
  const pointsWord = T.word(m.game, "words", "round_points");
  if (Array.isArray(data.points)) line(typeof pointsWord === "string" ? pointsWord : T.t("table.round_points"), data.points.map(signed), "points", "points");
  if (Array.isArray(data.scores)) line(T.t("table.total"), data.scores.map(String), "total", "total");
  table.append(thead, tbody);
  const over = m.over && m.result && s === S.lastSummary;
  $("final").classList.toggle("hidden", !over);
  if (over) {
    const r = m.result;
    $("final-goal").innerHTML = "";
    T.richText($("final-goal"), T.byLang(m.goal) || "", m.game);
    $("final-winners").textContent = T.t("table.winners", { who: T.list(r.winners.map((w) => seatName(w))) }, r.winners.length);
    const ol = $("standings");
    ol.innerHTML = "";
    for (const i of standingsOrder(r)) ol.appendChild(el("li", r.winners.includes(i) ? "won" : null, seatName(i) + " — " + r.scores[i]));
    $("round-title").textContent = T.t("table.game_over_title");
  }
  $("round-continue").textContent = T.t(over ? "table.close" : "table.continue");
  const dlg = $("round-dialog");
  if (!dlg.open) dlg.showModal();
  dlg.scrollTop = 0;
}

// The standings in the order the game's rule ranks them: the winners first (the second-highest
// total in Seconds, the lowest in Hearts), then the others from the winners' end of the scale.
export function standingsOrder(result) {
  const scores = result.scores;
  const idx = scores.map((_, i) => i);
  const wins = result.winners || [];
  const low = wins.length && wins.every((w) => scores[w] === Math.min(...scores)) && Math.min(...scores) !== Math.max(...scores);
  idx.sort((a, b) => (wins.includes(b) - wins.includes(a)) || (low ? scores[a] - scores[b] : scores[b] - scores[a]) || a - b);
  return idx;
}

export function renderOver(m) {
  $("over").classList.toggle("hidden", !m.over);
  if (!m.over || !m.result) return;
  $("winners").textContent = T.t("table.winners", { who: T.list(m.result.winners.map((w) => seatName(w))) }, m.result.winners.length) +
    " (" + m.result.scores.join(" / ") + ")";
  const goal = $("over-goal");
  goal.innerHTML = "";
  T.richText(goal, T.byLang(m.goal) || "", m.game);
  const href = "/api/tables/" + encodeURIComponent(tableId) + "/record";
  const file = "torite-" + m.game + "-" + tableId + ".json";
  for (const id of ["download", "final-download"]) {
    $(id).href = href;
    $(id).setAttribute("download", file);
  }
  for (const id of ["watch-replay", "final-replay"]) $(id).href = "/replay/" + encodeURIComponent(tableId);
  const joined = m.rematch && m.rematch.path;
  for (const [btn, link] of [["btn-rematch", "rematch-link"], ["final-rematch", "final-rematch-link"]]) {
    $(btn).classList.toggle("hidden", !!joined || S.me === null);
    $(link).classList.toggle("hidden", !joined);
    if (joined) $(link).href = m.rematch.path;
  }
  $("btn-summary").classList.toggle("hidden", !S.lastSummary);
}

export async function showRules() {
  if (!S.last) return;
  const res = await fetch("/api/games/" + encodeURIComponent(S.last.game) + "/rules?lang=" + T.getLang());
  const data = await res.json();
  // the server builds this HTML from the rules page and escapes all of its text
  $("rules-body").innerHTML = res.ok ? data.html : "<p>" + T.t("lobby.no_rules") + "</p>";
  const dlg = $("rules-dialog");
  dlg.showModal();
  dlg.scrollTop = 0;  // from the top, whatever was read last time
  $("rules-body").scrollTop = 0;
}

// Our seat is open in another window: play here (the other only watches then), or just watch.
export function askTakeOver(onWatch) {
  const dlg = $("takeover-dialog");
  $("takeover-play").onclick = () => { dlg.close(); send({ type: "take_over" }); };
  $("takeover-watch").onclick = () => { dlg.close(); onWatch(); };
  if (!dlg.open) dlg.showModal();
}
