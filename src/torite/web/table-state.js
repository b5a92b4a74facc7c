// The table's shared state and the small helpers every part of the table uses.  Everything the
// table shows comes from the newest state message (S.last) and the log lines received so far;
// nothing here knows a particular game.

export const T = window.Torite;
export const $ = (id) => document.getElementById(id);
const parts = location.pathname.split("/").filter(Boolean);
// the replay viewer: /replay/{table id} (a table's game), /replay (a record file opened in the page)
export const REPLAY = parts[0] === "replay";
export const tableId = decodeURIComponent((REPLAY ? parts[1] : parts[parts.length - 1]) || "");
export const reducedMotion = !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// One object holds what changes, so every part reads the same values.
export const S = {
  me: null,            // our seat, or null when watching
  last: null,          // the newest state message
  logLines: [],        // [{i, text, kind, data?, explain?}]
  selection: null,     // {kind, cards: [...]}: choosing several cards for one action
  pendingCard: null,   // a card with several single-card actions: which one?
  pendingOwn: null,    // a card of our own hand named from the deck: asked once more
  busy: false,         // an action is on its way: ignore further clicks until the answer
  actedAt: -2,         // the action count when we last acted
  doneTrick: null,     // a finished trick on show: its event data, until the pause ends
  liveShown: new Set(),// "seat:card" of the live trick as last drawn (new ones slide in)
  summaries: [],       // round ends waiting to be shown: [{data, round, explain}]
  roundsSeen: 0,       // round-end lines received so far
  roundTricks: [],     // tricks won this round by seat, counted from the trick lines
  overSeen: false,     // the game's end was shown (live, or on joining a finished game)
  lastSummary: null,   // the newest summary, for the buttons that reopen it
  logBehind: false,    // a whole log is coming in pages: the lines so far are history
  endOpens: false,     // a game over before we joined: its end opens once its whole log is here
  hint: null,          // the hint for the decision on show: {n, action, label, reason}
  showLast: false,     // the last trick's panel is open
  nameSaid: null,      // the seat whose kept name was said to the server since it joined
};

let sendFn = () => {};
export function setSend(fn) { sendFn = fn; }
export function send(obj) { sendFn(obj); }

// Whether we decide now (never in a replay: a seat's view there is only looked at).
export function isMine(m = S.last) {
  return !REPLAY && !!m && S.me !== null && m.to_act.includes(S.me) && !m.over;
}

export function botLevel(level) {
  const k = "bot." + level;
  const s = T.t(k);
  return s === k ? level : s;
}

// A seat's name: the one chosen in the lobby, else "Seat 1 · bot (normal)"; ``plain`` leaves out
// "(you)", ``"short"`` also the bot's level (a narrow column's header).
export function seatName(i, plain) {
  const m = S.last;
  if (!m) return T.t("table.seat", { n: i });
  const s = m.seats[i];
  let name = (s && s.name) || T.t("table.seat", { n: i });
  if (s && s.kind === "bot" && !s.name && plain !== "short") name = T.t("table.seat", { n: i }) + " · " + T.t("table.bot", { level: botLevel(s.level) });
  return i === S.me && !plain ? name + " (" + T.t("table.you") + ")" : name;
}

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// A text from the server (rich text: strings and tokens) or the labels (a string), its tokens
// drawn by the one formatter and the game's glossary terms explained.
export function rich(tag, cls, text) {
  const e = el(tag, cls);
  T.richText(e, text === undefined || text === null ? "" : text, S.last ? S.last.game : null);
  return e;
}

// A number with its sign: +3, -2, 0.
export function signed(v) {
  return typeof v === "number" && v > 0 ? "+" + v : String(v);
}

// Where a seat sits around the table: ourselves at the bottom, the next seats clockwise.
export function angleOf(seat, n) {
  const base = S.me === null ? 0 : S.me;
  const r = (seat - base + n) % n;
  return Math.PI / 2 + (r * 2 * Math.PI) / n;
}

// a phone: the seats sit further out, the trick closer in, so neither covers the other
export function narrow() {
  return window.matchMedia("(max-width: 760px)").matches;
}

export function placeAt(node, angle, rx, ry) {
  node.style.left = (50 + rx * Math.cos(angle)) + "%";
  node.style.top = (50 + ry * Math.sin(angle)) + "%";
}

export function place(node, seat, n, rx, ry) {
  placeAt(node, angleOf(seat, n), rx, ry);
}

// A seat's plate at the edge of the table, wholly inside it: the plate hangs from its place
// toward the middle (the bottom one sits on the edge, a side one leans in), so no plate sticks
// out of the table to cover what lies below it.
export function placeInside(node, angle, rx, ry) {
  placeAt(node, angle, rx, ry);
  const dx = 50 + 50 * Math.cos(angle);
  const dy = 50 + 50 * Math.sin(angle);
  node.style.transform = "translate(" + (-dx).toFixed(1) + "%, " + (-dy).toFixed(1) + "%)";
}

// A pile that owns cards of a trick (Umbridge's dummy) sits in a place of its own: on the side
// between the seats, east of ourselves.
export const PILE_ANGLE = 0;

// The piles a trick card may belong to: the declared piles the game's labels name.
export function pileNames(m = S.last) {
  const out = new Set();
  for (const p of (m && m.piles) || []) if (T.word(m.game, "maps", "piles", p.name)) out.add(p.name);
  return out;
}

// Why a card or a choice is refused now, in the reader's language (rich text), from the rules:
// the server sends each disabled card's and choice's reason; a seat that waits is told it is
// not its turn.
export function cardReason(card) {
  const m = S.last;
  if (!m) return null;
  const r = m.reasons && m.reasons.cards ? T.byLang(m.reasons.cards[card]) : undefined;
  if (r) return r;
  return isMine(m) ? T.t("table.no_reason") : notYourTurn();
}

export function actionReason(text) {
  const m = S.last;
  if (!m) return null;
  const r = m.reasons && m.reasons.actions ? T.byLang(m.reasons.actions[text]) : undefined;
  return r || (isMine(m) ? T.t("table.no_reason") : notYourTurn());
}

function notYourTurn() {
  const w = S.last ? T.word(S.last.game, "reasons", "not_your_turn") : undefined;
  return typeof w === "string" ? w : T.t("table.no_reason");
}

// The words of a legal action (rich text from its labels); without them its kind's name, never
// the notation.
export function buttonText(a) {
  return T.byLang(a.label) || [T.actionLabel(S.last.game, a.kind)];
}

export function buttonName(a) {
  return T.richString(buttonText(a), S.last.game, true);
}
