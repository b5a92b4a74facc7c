// Beside the table: the game's status rows (the pinned ones, the contract and the trump, also in
// a bar kept in view above the table), the bidding so far as a history with one column a seat,
// the score sheet and the log.

import { $, S, T, el, narrow, rich, seatName } from "./table-state.js";

function rows(dl, list) {
  for (const [k, v] of list || []) dl.append(rich("dt", null, k), rich("dd", null, v));
}

export function renderStatus(m) {
  const dl = $("status");
  dl.innerHTML = "";
  const list = [];
  if (m.phase) list.push([T.t("table.phase"), T.phaseName(m.game, m.phase)]);
  // the game's own word for a round where it has one ("deal", Mighty's 판)
  const roundWord = T.word(m.game, "words", "round_word");
  if (Number.isInteger(m.round)) list.push([typeof roundWord === "string" ? roundWord : T.t("table.round"), String(m.round + 1)]);
  const status = T.byLang(m.status) || [];
  rows(dl, list.concat(status));
  // the pinned rows stay in view above the table, on a phone too
  const bar = $("pinned");
  bar.innerHTML = "";
  for (const [k, v, pin] of status) {
    if (!pin) continue;
    const item = el("span", "pin");
    item.append(rich("span", "pin-label", k), rich("span", "pin-value", v));
    bar.appendChild(item);
  }
  bar.classList.toggle("hidden", !bar.childNodes.length);
}

// The bidding so far: one column a seat, a call under its bidder, a new row whenever the bidding
// comes round again (as bridge sites write it).  Beside the table; on a phone in the felt while
// the bidding goes on, below it after (the play leaves the felt to the trick and the hand).
export function renderAuction(m) {
  const list = Array.isArray(m.auction) ? m.auction : [];
  const early = !!m.bidding;
  const phone = narrow();
  for (const [id, show] of [["auction-felt", early && phone], ["auction-side", !early || !phone]]) {
    const box = $(id);
    box.innerHTML = "";
    const on = show && list.length > 0;
    box.classList.toggle("hidden", !on);
    if (!on) continue;
    box.appendChild(el("div", "auction-title", T.t("table.bidding")));
    const table = el("table", "auction");
    const head = el("tr");
    for (let i = 0; i < m.num_players; i++) head.appendChild(el("th", null, seatName(i, "short")));
    const thead = el("thead");
    thead.appendChild(head);
    const tbody = el("tbody");
    let tr = null;
    let col = m.num_players;
    for (const e of list) {
      if (!tr || e.seat <= col) {
        tr = el("tr");
        for (let i = 0; i < m.num_players; i++) tr.appendChild(el("td"));
        tbody.appendChild(tr);
      }
      col = e.seat;
      const cell = tr.children[e.seat];
      cell.classList.add("call-" + e.kind);
      if (e.rich) T.richText(cell, e.rich, m.game, true);
      else cell.textContent = T.actionLabel(m.game, e.kind);
    }
    table.append(thead, tbody);
    box.appendChild(table);
    box.scrollTop = box.scrollHeight;  // the newest calls
  }
}

export function renderSheet(m) {
  const table = $("sheet");
  table.innerHTML = "";
  const head = el("tr");
  head.appendChild(el("th", null, "#"));
  for (let i = 0; i < m.num_players; i++) {
    const th = el("th", null, seatName(i, "short"));
    th.title = seatName(i, true);
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  const tbody = el("tbody");
  (m.round_scores || []).forEach((row, r) => {
    const tr = el("tr");
    tr.appendChild(el("td", null, String(r + 1)));
    row.forEach((v) => tr.appendChild(el("td", null, String(v))));
    tbody.appendChild(tr);
  });
  if (m.scores) {
    const tr = el("tr", "total");
    tr.appendChild(el("td", null, T.t("table.total")));
    m.scores.forEach((v) => tr.appendChild(el("td", null, String(v))));
    tbody.appendChild(tr);
  }
  table.append(thead, tbody);
  $("btn-last-summary").classList.toggle("hidden", !S.lastSummary);
}

// One line per event; a round's start and a trick's end mark separators.
// In a replay each line names its step (a click goes there) and the step's own lines are marked.
function logItem(line) {
  const li = rich("li", "kind-" + (line.kind || "event") + (line.now ? " now" : ""), T.byLang(line.text));
  if (Number.isInteger(line.step)) li.dataset.step = String(line.step);
  if (line.now) li.setAttribute("aria-current", "step");
  return li;
}

export function renderLog(newLines) {
  const ol = $("log");
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
  const lines = newLines === null ? S.logLines : newLines;
  if (newLines === null) ol.innerHTML = "";
  for (const line of lines) if (line.text) ol.appendChild(logItem(line));
  if (atBottom || newLines === null) ol.scrollTop = ol.scrollHeight;
}
