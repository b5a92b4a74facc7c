// The hand as its player likes it, kept on their device (localStorage): the order of its cards
// (as the game sends it, by suit with the colours alternating, or by rank), whether a tap plays
// at once or selects first (a second tap or the card's button plays: a touch screen misplays
// easily), and which cards just came into the hand (a kitty taken, passed cards received, a
// drawn card) until the player's next action.  Nothing here knows a particular game: the arrived
// cards are the hand's new cards since this seat's last state, which is only the seat's own hand.

import { $, REPLAY, T, el } from "./table-state.js";

const ORDERS = ["game", "colours", "rank"];
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const BLACK = ["S", "C"];
const RED = ["H", "D"];
const CARD = /^(10|[2-9JQKA])([CDHS])$/;

function stored(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* kept for this page only */ }
}

export function handOrder() {
  const v = stored("torite.sort");
  return ORDERS.includes(v) ? v : "game";
}

// The suits present, ordered so that no two of a colour touch where that can be: the larger
// colour group first, then one of each in turn (♠♥♣♦; ♠♥♣ without diamonds; ♥♠♦ without clubs).
export function alternatingSuits(present) {
  const blacks = BLACK.filter((s) => present.has(s));
  const reds = RED.filter((s) => present.has(s));
  const [a, b] = blacks.length >= reds.length ? [blacks, reds] : [reds, blacks];
  const out = [];
  for (let i = 0; i < a.length || i < b.length; i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}

// The hand in the chosen order.  "game" keeps the server's order (the game's own: jokers first,
// then by suit, high to low); a card that is not a plain suit card (a joker) keeps its place
// before the others, in the game's order.
export function sortedHand(cards) {
  const order = handOrder();
  if (order === "game") return cards.slice();
  const parsed = cards.map((c, i) => ({ c, i, m: CARD.exec(c) }));
  const suits = alternatingSuits(new Set(parsed.filter((p) => p.m).map((p) => p.m[2])));
  const key = (p) => {
    if (!p.m) return [-1, p.i, 0];
    const rank = RANKS.indexOf(p.m[1]);
    const suit = suits.indexOf(p.m[2]);
    return order === "rank" ? [0, rank, suit] : [0, suit, rank];
  };
  return parsed.sort((x, y) => {
    const a = key(x), b = key(y);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }).map((p) => p.c);
}

// Select-then-confirm: the player's choice, else on where the pointer is coarse (a finger).
export function confirmPlays() {
  const v = stored("torite.confirm");
  if (v === "1" || v === "0") return v === "1";
  return !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

// ------------------------------------------------------------------ arrived cards
const seen = { seat: null, decision: null, hand: null, arrived: new Set() };

// The cards that came into the hand since the seat's last state; forgotten at its next action
// (its decision number moves on).  A whole new hand (a new deal) is not "arrived": every card is.
export function arrivedCards(m) {
  // a replay steps back and forth: a card coming back to the hand there has not "arrived"
  if (REPLAY || m.seat === null || m.seat === undefined || !Array.isArray(m.hand)) {
    seen.seat = null;
    seen.arrived = new Set();
    return seen.arrived;
  }
  if (seen.seat !== m.seat) {
    seen.seat = m.seat;
    seen.hand = null;
    seen.arrived = new Set();
  }
  if (seen.decision !== null && m.decision_no !== seen.decision) seen.arrived = new Set();
  if (seen.hand) {
    const before = new Set(seen.hand);
    const come = m.hand.filter((c) => !before.has(c));
    const kept = m.hand.length - come.length;
    if (come.length && kept > 0 && seen.hand.length) seen.arrived = new Set(come);
    else if (come.length) seen.arrived = new Set();
  }
  seen.hand = m.hand.slice();
  seen.decision = m.decision_no;
  // a card played from the hand is no longer marked
  seen.arrived = new Set([...seen.arrived].filter((c) => m.hand.includes(c)));
  return seen.arrived;
}

// ------------------------------------------------------------------ the controls in the header
// The order's choice and the tap setting, beside the trick pause; ``redraw`` draws the hand again.
export function setupHandTools(redraw) {
  const sel = $("sort");
  const tap = $("btn-confirm-tap");
  const fill = () => {
    sel.innerHTML = "";
    for (const v of ORDERS) {
      const o = el("option", null, T.t("table.sort_" + v));
      o.value = v;
      sel.appendChild(o);
    }
    sel.value = handOrder();
    sel.title = T.t("table.sort");
    const on = confirmPlays();
    tap.setAttribute("aria-pressed", on ? "true" : "false");
    tap.textContent = T.t(on ? "table.tap_confirm_on" : "table.tap_confirm_off");
    tap.title = T.t("table.tap_confirm_help");
  };
  fill();
  sel.addEventListener("change", () => { store("torite.sort", sel.value); redraw(); });
  tap.addEventListener("click", () => { store("torite.confirm", confirmPlays() ? "0" : "1"); fill(); redraw(); });
  return fill;
}
