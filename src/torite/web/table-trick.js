// The middle of the table: the trick as it lies (each card in front of its owner, a pile's card
// such as Umbridge's dummy in its own place, labelled by owner), a finished trick staying a
// moment with its winner marked, the piles the game shows, and the last trick on demand.

import {
  $, PILE_ANGLE, S, T, angleOf, buttonName, el, isMine, narrow, pileNames, reducedMotion, rich, seatName, signed,
} from "./table-state.js";

const PAUSES = [0, 0.8, 1.5, 3];   // seconds a finished trick stays on the table
let pauseTimer = null;
let after = () => {};              // what to do once a finished trick has gone (prompt, summaries)

export function onPauseEnd(fn) { after = fn; }
export { PAUSES };

export function pauseSeconds() {
  const saved = localStorage.getItem("torite.pause");
  const v = saved === null ? NaN : Number(saved);
  return PAUSES.includes(v) ? v : 1.5;
}

export function startPause(trick) {
  clearTimeout(pauseTimer);
  const secs = pauseSeconds();
  if (secs <= 0) { S.doneTrick = null; return; }
  S.doneTrick = trick;
  pauseTimer = setTimeout(endPause, secs * 1000);
}

// The trick goes to its winner (a short slide unless the browser asks for less motion).
export function endPause() {
  clearTimeout(pauseTimer);
  pauseTimer = null;
  if (!S.doneTrick) return;
  const winner = S.doneTrick.winner;
  S.doneTrick = null;
  const cards = [...$("trick").querySelectorAll(".trick-card")];
  const target = $("seats").querySelector('.seat[data-seat="' + winner + '"]');
  if (!reducedMotion && cards.length && target) {
    const to = target.getBoundingClientRect();
    for (const c of cards) {
      const r = c.getBoundingClientRect();
      c.style.setProperty("--to-x", (to.left + to.width / 2 - r.left - r.width / 2) + "px");
      c.style.setProperty("--to-y", (to.top + to.height / 2 - r.top - r.height / 2) + "px");
      c.classList.add("collect");
    }
    setTimeout(afterPause, 280);
  } else {
    afterPause();
  }
}

function afterPause() {
  if (S.doneTrick) return;  // a newer trick finished meanwhile
  S.liveShown = new Set();
  if (S.last) renderTrick(S.last);
  after();
}

// Who owns a card of a trick: its seat, or the pile it came from (the view's ``pile``, when the
// game shows that pile: Umbridge's dummy) played by that seat.
function ownerOf(entry, piles) {
  return entry && entry.pile && piles.has(entry.pile) ? entry.pile : null;
}

function ownerLabel(pile, seat) {
  const word = T.word(S.last.game, "maps", "piles", pile) || T.t("table.dummy");
  return seat === undefined || seat === null ? word : word + " · " + seatName(seat, "short");
}

// A trick entry is a card text or the view's {seat, card, tags, pile}: its tags (a zombie's) shown.
function trickCard(entry, seat, pile) {
  const box = el("div", "trick-card");
  const card = typeof entry === "string" || entry === null ? entry : entry.card;
  // A card the seat may not see yet (e.g. drawn face down) arrives as null: show its back.
  box.appendChild(card === null || card === undefined ? T.cardBack() : T.cardNode(String(card), false));
  const who = entry && typeof entry === "object" && entry.seat !== undefined ? entry.seat : seat;
  if (who !== undefined && who !== null) box.dataset.seat = String(who);
  if (pile) {
    box.dataset.owner = pile;
    box.appendChild(el("span", "who", ownerLabel(pile, who)));
  } else if (who !== undefined && who !== null) {
    // the seat's name without its bot's level (the plate says it): a caption short enough to read whole
    box.appendChild(el("span", "who", seatName(who, "short")));
  }
  if (entry && typeof entry === "object") {
    for (const k of entry.tags || []) {
      const tag = S.last ? T.word(S.last.game, "tags", k) : undefined;
      if (k !== pile && tag) box.appendChild(rich("span", "tag", tag));
    }
  }
  return box;
}

function placeCard(node, seat, pile, n) {
  if (pile) node.dataset.angle = String(PILE_ANGLE);
  else if (seat !== null && seat !== undefined) node.dataset.angle = String(angleOf(seat, n));
}

// Each card of the trick in front of the seat that played it: on the line from the table's
// middle to that seat's plate, as far out as it goes without lying under any plate.  Run again
// whenever the table's size changes (table-fit.js).
export function placeTrick() {
  const ring = $("ring");
  const cards = [...$("trick").querySelectorAll(".trick-card[data-angle]")];
  if (!cards.length) return;
  const rr = ring.getBoundingClientRect();
  const cx = rr.width / 2;
  const cy = rr.height / 2;
  const plates = [...$("seats").querySelectorAll(".seat")].map((e) => {
    const r = e.getBoundingClientRect();
    return { e, l: r.left - rr.left - 4, t: r.top - rr.top - 4, r: r.right - rr.left + 4, b: r.bottom - rr.top + 4 };
  });
  for (const node of cards) {
    const w = node.offsetWidth / 2;
    const h = node.offsetHeight / 2;
    const own = node.dataset.owner
      ? plates.find((p) => p.e.dataset.pile === node.dataset.owner)
      : plates.find((p) => p.e.dataset.seat === node.dataset.seat && !p.e.dataset.pile);
    const a = Number(node.dataset.angle);
    const vx = own ? (own.l + own.r) / 2 - cx : Math.cos(a) * cx;
    const vy = own ? (own.t + own.b) / 2 - cy : Math.sin(a) * cy;
    let x = cx;
    let y = cy;
    for (let k = 35; k >= 0; k--) {
      const px = cx + (k / 50) * vx;
      const py = cy + (k / 50) * vy;
      if (!plates.some((p) => px - w < p.r && p.l < px + w && py - h < p.b && p.t < py + h)) { x = px; y = py; break; }
    }
    node.style.left = x.toFixed(1) + "px";
    node.style.top = y.toFixed(1) + "px";
  }
}

export function renderTrick(m) {
  const box = $("trick");
  const note = $("trick-note");
  box.innerHTML = "";
  note.innerHTML = "";
  const n = m.num_players;
  const piles = pileNames(m);
  $("ring").classList.toggle("paused", !!S.doneTrick);
  if (S.doneTrick) {
    const t = S.doneTrick;
    const cards = Array.isArray(t.cards) ? t.cards : [];
    // a finished trick's flags by card (Umbridge's dummy: [false, true, false])
    const flagged = Object.entries(t).filter(([k, v]) => piles.has(k) && Array.isArray(v) && v.length === cards.length);
    cards.forEach((c, k) => {
      const seat = Array.isArray(t.seats) ? t.seats[k] : (Number.isInteger(t.leader) ? (t.leader + k) % n : k);
      const pile = (flagged.find(([, v]) => v[k] === true) || [null])[0];
      const node = trickCard(c === null ? null : String(c), seat, pile);
      placeCard(node, seat, pile, n);
      if (seat === t.winner && !pile) node.classList.add("winner");
      box.appendChild(node);
    });
    placeTrick();
    if (Number.isInteger(t.winner)) {
      const shown = m.tricks_score && t.points !== undefined && t.points !== null;
      const pts = shown ? T.t("table.trick_points", { points: signed(t.points) }) : "";
      note.appendChild(el("span", "won", T.t("table.trick_won", { who: seatName(t.winner, true) }) + (pts ? " " + pts : "")));
      note.appendChild(el("span", "skip muted", T.t("table.skip")));
    }
    return;
  }
  const trick = (m.trick && m.trick.cards) || [];
  if (!trick.length) {
    // a finished game has no trick to come: nothing said of one
    if (!m.over) note.appendChild(el("span", "muted", T.t("table.no_trick")));
    S.liveShown = new Set();
    return;
  }
  const shown = new Set();
  const lead = m.trick && Number.isInteger(m.trick.leader) ? m.trick.leader : null;
  trick.forEach((e, k) => {
    const seat = typeof e === "object" && e !== null && e.seat !== undefined ? e.seat : (lead !== null ? (lead + k) % n : null);
    const pile = ownerOf(e, piles);
    const node = trickCard(e, seat, pile);
    placeCard(node, seat, pile, n);
    const key = (pile || seat) + ":" + (typeof e === "string" ? e : e.card);
    shown.add(key);
    if (!S.liveShown.has(key) && !reducedMotion && seat !== null) {
      // slide in from the place of the seat (or the pile) that played it
      const a = pile ? PILE_ANGLE : angleOf(seat, n);
      node.style.setProperty("--from-x", (Math.cos(a) * 9) + "rem");
      node.style.setProperty("--from-y", (Math.sin(a) * 7) + "rem");
      node.classList.add("arrive");
    }
    if (seat === m.winning && !pile) node.classList.add("winning");
    box.appendChild(node);
  });
  placeTrick();
  S.liveShown = shown;
  if (Number.isInteger(m.winning) && !m.over) note.appendChild(el("span", "winning-now", T.t("table.winning_now", { who: seatName(m.winning, true) })));
}

// Piles the game's labels name (maps.piles): cards face up, or backs with a count.  A card
// there that a legal action names (and that is not in the hand) is played by clicking it; one
// that may not be played now says why.
export function renderPiles(m, act, refuse) {
  const box = $("piles");
  box.innerHTML = "";
  const mine = isMine(m);
  const inHand = new Set(m.hand);
  const named = new Map();
  const playsFrom = new Set();
  if (mine && !S.busy) {
    for (const a of m.legal) if (a.cards.length === 1 && !a.arg && !inHand.has(a.cards[0])) named.set(a.cards[0], a);
    for (const g of Object.values((m.decision && m.decision.named) || {})) playsFrom.add(g.from);
  }
  const hint = S.hint && S.hint.n === m.n ? S.hint.action : null;
  for (const p of m.piles || []) {
    const label = T.word(m.game, "maps", "piles", p.name);
    if (!label) continue;
    const d = el("div", "pile");
    d.dataset.pile = p.name;
    const count = Array.isArray(p.cards) ? p.cards.length : p.count;
    d.appendChild(rich("div", "pile-title", label + " (" + count + ")"));
    const row = el("div", "pile-cards");
    // an empty pile is its title and count only; cards not seen lie stacked, not one by one
    d.classList.toggle("empty", count === 0);
    // on a phone a long pile that is only looked at lies fanned, each card's corner in view
    d.classList.toggle("fan", narrow() && count > 7 && !playsFrom.has(p.name));
    if (Array.isArray(p.cards)) {
      let backs = null;
      for (const c of p.cards) {
        if (c === null) {
          if (!backs) { backs = el("span", "backs"); row.appendChild(backs); }
          if (backs.childNodes.length < 6) backs.appendChild(T.cardBack());
          continue;
        }
        backs = null;
        const a = named.get(c);
        const refused = !a && playsFrom.has(p.name);
        const node = T.cardNode(c, !!a || refused);
        if (a) {
          node.type = "button";
          node.classList.add("legal");
          node.dataset.action = a.text;
          node.title = buttonName(a);
          if (hint === a.text) node.classList.add("hinted");
          node.addEventListener("click", () => act(a.text));
        } else if (refused) {
          node.type = "button";
          refuse(node, c);
        }
        row.appendChild(node);
      }
    } else {
      const backs = el("span", "backs");
      for (let k = 0; k < Math.min(count, 6); k++) backs.appendChild(T.cardBack());
      row.appendChild(backs);
    }
    if (count) d.appendChild(row);
    box.appendChild(d);
  }
}

export function renderLastTrick(m) {
  const panel = $("last-trick");
  panel.classList.toggle("hidden", !S.showLast);
  if (!S.showLast) return;
  const body = $("last-trick-body");
  body.innerHTML = "";
  const t = m.last_trick;
  if (!t) { body.appendChild(el("span", "muted", T.t("table.no_last_trick"))); return; }
  const piles = pileNames(m);
  for (const e of t.cards) {
    const pile = ownerOf(e, piles);
    const node = trickCard(e, e.seat, pile);
    if (e.seat === t.winner && !pile) node.classList.add("winner");
    body.appendChild(node);
  }
  const facts = el("dl", "status");
  for (const [k, v] of T.byLang(t.facts) || []) facts.append(rich("dt", null, k), rich("dd", null, v));
  body.appendChild(facts);
}
