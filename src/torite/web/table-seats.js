// The seats around the table: name, online dot, roles (dealer, who leads, president and friend,
// declarer, your partner… from the game's labels), cards left, tricks, points, whose turn, a gone
// player's countdown, and for the host a button that hands a gone player's seat to a bot.

import { $, PILE_ANGLE, REPLAY, S, T, angleOf, el, pileNames, placeInside, send, seatName, signed } from "./table-state.js";

export function countdown(i) {
  const m = S.last;
  const d = m && m.idle_deadlines ? m.idle_deadlines[i] : null;
  if (typeof d !== "number") return null;
  return Math.max(0, Math.ceil(d - (Date.now() / 1000 - S.skew)));
}

// Whether we may hand a gone player's seat to a bot: the table's host, or anyone seated at a
// table without one.
function mayStandIn(m) {
  if (REPLAY || S.me === null || m.over) return false;
  const hosts = m.seats.filter((s) => s.host);
  return !hosts.length || (m.seats[S.me] && m.seats[S.me].host);
}

export function renderSeats(m) {
  const box = $("seats");
  box.innerHTML = "";
  const n = m.num_players;
  const roles = T.byLang(m.roles) || [];
  for (let i = 0; i < n; i++) {
    const s = m.seats[i] || {};
    const d = el("div", "seat");
    d.dataset.seat = String(i);
    placeInside(d, angleOf(i, n), 49, 49);
    // a table too short for its oval (a bidding box below it) lists the seats from ourselves on
    d.style.order = String((i - (S.me === null ? 0 : S.me) + n) % n);
    // a replay shows the game, not who is connected now: nobody is gone, away or counted down
    const gone = !REPLAY && s.kind === "human" && !s.connected && !m.over;
    if (i === S.me) d.classList.add("me");
    if (m.to_act.includes(i) && !m.over) d.classList.add("turn");
    if (gone) d.classList.add("gone");
    const name = el("div", "name");
    const dot = el("span", "dot" + (s.kind === "bot" || s.connected ? " on" : ""));
    dot.title = T.t(s.kind === "bot" || s.connected ? "table.online" : "table.offline");
    if (REPLAY) dot.classList.add("hidden");
    // the short form ("Seat 2", without the bot's level) for the list of a table too short for its oval
    const short = i === S.me ? seatName(i, true) + " (" + T.t("table.you") + ")" : seatName(i, "short");
    name.append(dot, el("span", "full", seatName(i)), el("span", "short", short));
    name.title = seatName(i);
    d.appendChild(name);
    const mine = roles[i] || [];
    if (mine.length) {
      const chips = el("div", "roles");
      for (const r of mine) {
        const chip = el("span", "chip role", r);
        chip.dataset.role = r;
        chips.appendChild(chip);
      }
      d.appendChild(chips);
    }
    const facts = [];
    const mf = (m.facts || [])[i] || {};
    if (Number.isInteger(mf.hand_size)) facts.push(["cards", T.t("table.seat_cards", { n: mf.hand_size })]);
    if (Number.isInteger(mf.tricks_won)) facts.push(["tricks", T.t("table.seat_tricks", { n: mf.tricks_won })]);
    // points only where tricks carry them: a game scored at the round's end shows no "0 points"
    if (Number.isInteger(mf.round_points) && m.tricks_score) {
      facts.push(["points", T.t("table.seat_points", { n: signed(mf.round_points) }, mf.round_points)]);
    }
    if (Number.isInteger(mf.score)) facts.push(["total", T.t("table.seat_total", { n: mf.score })]);
    const f = el("div", "facts");
    for (const [k, text] of facts) f.appendChild(el("span", "fact " + k, text));
    d.appendChild(f);
    // a finished game's replay with every hand open: each seat's cards by its name
    if (Array.isArray(mf.open_hand) && i !== S.me) {
      const open = el("div", "open-hand");
      for (const c of mf.open_hand) open.appendChild(c === null ? T.cardBack() : T.cardNode(String(c), false, m.game));
      d.appendChild(open);
    }
    const tags = [];
    if (m.to_act.includes(i) && !m.over) tags.push(T.t("table.turn"));
    if (s.away && !REPLAY) tags.push(T.t("table.away"));
    else if (gone) tags.push(T.t("table.gone"));
    const left = REPLAY ? null : countdown(i);
    // the turn clock: the seat on turn (and a gone one) shows the seconds before a bot takes over
    const onTurn = m.to_act.includes(i) && !m.over;
    if (left !== null && (gone || i === S.me || onTurn)) {
      tags.push(T.t("table.idle_in", { s: left }));
      if (onTurn) d.classList.add("clock");
    }
    d.appendChild(el("div", "tags", tags.join(" · ")));
    if (gone && !s.away && mayStandIn(m)) {
      const b = el("button", "stand-in", T.t("table.stand_in"));
      b.type = "button";
      b.title = T.t("table.stand_in_title");
      b.dataset.standIn = String(i);
      b.addEventListener("click", () => send({ type: "stand_in", seat: i }));
      d.appendChild(b);
    }
    box.appendChild(d);
  }
  // a pile that plays cards to the tricks (Umbridge's dummy) has a place of its own
  const flags = new Set();
  for (const e of [...((m.trick && m.trick.cards) || []), ...((m.last_trick && m.last_trick.cards) || [])]) {
    if (e.pile) flags.add(e.pile);
  }
  for (const p of pileNames(m)) {
    // a finished game has no trick to play from it: its place goes with the game
    if (!flags.has(p) || m.over) continue;
    const d = el("div", "seat pile-seat");
    d.dataset.pile = p;
    placeInside(d, PILE_ANGLE, 49, 0);
    d.appendChild(el("div", "name", T.word(m.game, "maps", "piles", p)));
    box.appendChild(d);
  }
}
