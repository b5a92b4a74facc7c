// The hand and the decision: what to do now and why, the cards and choices that may be made
// (drawn from the server's grouping of the decision, m.decision, by the phase's declared forms),
// why each disabled one may not (the rules' reasons, on hover, tap and keyboard focus), and
// the hint.  Nothing here knows a particular game or reads an action's notation.

import {
  $, S, T, actionReason, buttonName, buttonText, cardReason, el, isMine, rich, send, seatName,
} from "./table-state.js";
import { fitTable } from "./table-fit.js";
import { arrivedCards, confirmPlays, sortedHand } from "./table-hand.js";

const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const NONE = { singles: {}, named: {}, multis: {}, bids: {}, calls: [], all_calls: [], others: [] };

export function act(text) {
  if (S.busy) return;
  S.busy = true;
  S.selection = null;
  S.pendingCard = null;
  S.pendingOwn = null;
  S.actedAt = S.last ? S.last.n : -2;
  // the decision it answers: a second click or another tab cannot land on the next one
  const msg = { type: "act", action: text };
  if (S.last && Number.isInteger(S.last.decision_no)) msg.decision = S.last.decision_no;
  send(msg);
  renderActions();
}

// The decision as widgets: the server's grouping with each action's words (from m.legal).
//   singles  kind -> Map(card -> action): a card of the hand, clicked
//   named    kind -> {from, cards: Map(card -> action)}: a card named from the deck or a pile
//   multis   kind -> {count, sizes, cards: Set, combos: Map(sorted cards -> action)}
//   bids     kind -> {levels, denoms, cells: Map("14 H" -> action), texts: {"14 H": text}}
//   calls    every call beside a bidding box: {text, action|null}
//   others   buttons
export function decisionOf(m) {
  const d = (isMine(m) && m.decision) || NONE;
  const byText = new Map(m.legal.map((a) => [a.text, a]));
  const oneCard = (kind, cards) => {
    const want = new Set(cards);
    const mp = new Map();
    for (const a of m.legal) if (a.kind === kind && a.cards.length === 1 && want.has(a.cards[0])) mp.set(a.cards[0], a);
    return mp;
  };
  const singles = new Map(Object.entries(d.singles).map(([kind, cards]) => [kind, oneCard(kind, cards)]));
  const named = new Map(Object.entries(d.named).map(([kind, g]) => [kind, { from: g.from, cards: oneCard(kind, g.cards) }]));
  const multis = new Map();
  for (const [kind, g] of Object.entries(d.multis)) {
    const combos = new Map();
    const sizes = new Set();
    for (const text of g.sets) {
      const a = byText.get(text);
      if (!a) continue;
      combos.set(a.cards.slice().sort().join(" "), a);
      sizes.add(a.cards.length);
    }
    multis.set(kind, { count: g.count, sizes, cards: new Set(g.cards), combos });
  }
  const bids = new Map();
  for (const [kind, b] of Object.entries(d.bids)) {
    const cells = new Map();
    for (const [cell, text] of Object.entries(b.cells)) if (byText.has(text)) cells.set(cell, byText.get(text));
    bids.set(kind, { levels: b.levels, denoms: b.denoms, cells, texts: b.texts || {} });
  }
  const legalCalls = new Set(d.calls);
  const calls = (d.all_calls && d.all_calls.length ? d.all_calls : d.calls)
    .map((text) => ({ text, action: legalCalls.has(text) ? byText.get(text) : null }));
  const others = d.others.map((t) => byText.get(t)).filter(Boolean);
  return { singles, named, multis, bids, calls, others };
}

// ------------------------------------------------------------------ why not
// A refused card or choice is focusable and says why on hover, tap and keyboard focus: in its
// tooltip, and in the line under the prompt (read out to screen readers).
function refuse(node, reason) {
  node.classList.add("refused");
  node.setAttribute("aria-disabled", "true");
  const text = T.richString(reason, S.last.game, false);
  node.title = text;
  node.dataset.reason = text;
  const show = () => showWhy(reason);
  node.addEventListener("mouseenter", show);
  node.addEventListener("focus", show);
  node.addEventListener("click", (ev) => { ev.preventDefault(); show(); T.notice(text); });
}

export function showWhy(reason) {
  const box = $("why");
  box.innerHTML = "";
  if (reason) T.richText(box, reason, S.last ? S.last.game : null);
  box.classList.toggle("hidden", !reason);
}

// ------------------------------------------------------------------ the prompt
// What to do now and why: the game's prompt for this moment (rendered by the server over the
// observation), else what the choices look like; and who is winning the trick as it lies.
export function renderPrompt() {
  const m = S.last;
  if (!m) return;
  const mine = isMine(m);
  const prompt = $("prompt");
  prompt.innerHTML = "";
  prompt.classList.toggle("mine", mine);
  if (m.over) return;
  const { singles, multis } = decisionOf(m);
  const kindName = (kind) => T.actionLabel(m.game, kind);
  const why = mine ? T.byLang(m.prompt) : undefined;
  let text;
  // the game's own prompt says what to choose: a generic line after it would say it twice
  if (mine && S.selection && multis.has(S.selection.kind) && !why) {
    const g = multis.get(S.selection.kind);
    text = g.sizes.size > 1 ? T.t("table.select_cards", { kind: kindName(S.selection.kind) })
      : T.t("table.select_n", { n: g.count, kind: kindName(S.selection.kind) });
  } else if (mine && why) text = why;
  else if (mine && singles.size) text = T.t("table.your_turn_play");
  else if (mine && m.legal.length) text = T.t("table.choose_kind", { kind: kindName(m.legal[0].kind) });
  else if (mine) text = T.t("table.your_turn_choose");
  else if (m.to_act.length > 1 && S.me !== null && !m.to_act.includes(S.me)) text = T.t("table.waiting_simul");
  else text = T.t("table.waiting", { who: T.list(m.to_act.map((w) => seatName(w))) });
  prompt.appendChild(rich("span", "why", text));
  if (!S.doneTrick && Number.isInteger(m.winning)) {
    const own = m.winning === S.me;
    const entry = ((m.trick && m.trick.cards) || []).find((e) => e.seat === m.winning);
    const card = { t: "card", card: entry && entry.card ? entry.card : null };
    prompt.appendChild(rich("span", "now", own ? T.tRich("table.you_are_winning", { card })
      : T.tRich("table.is_winning", { who: seatName(m.winning, true), card })));
  }
}

// ------------------------------------------------------------------ hand and choices
function focusKey() {
  const a = document.activeElement;
  if (!a) return null;
  if (a.dataset && a.dataset.card && a.closest("#hand")) return { card: a.dataset.card };
  if (a.dataset && a.dataset.action) return { action: a.dataset.action };
  if (a.dataset && a.dataset.bid) return { bid: a.dataset.bid };
  return null;
}

function restoreFocus(key, hadFocusInHand) {
  let target = null;
  if (key && key.card) target = $("hand").querySelector('button.card[data-card="' + CSS.escape(key.card) + '"]');
  if (key && key.action) target = $("controls").querySelector('button[data-action="' + CSS.escape(key.action) + '"]');
  if (key && key.bid) target = $("controls").querySelector('button[data-bid="' + CSS.escape(key.bid) + '"]');
  if (!target && hadFocusInHand) target = $("hand").querySelector("button.card.legal");
  if (target) target.focus();
}

// The hint: which card or button it points at (the action's text or cards).
function hinted(m) {
  const h = S.hint;
  return h && h.n === m.n && isMine(m) ? h : null;
}

export function renderActions() {
  const m = S.last;
  if (!m) return;
  const key = focusKey();
  const active = document.activeElement;
  const hadFocus = !!(active && (active.closest("#hand") || active.closest("#controls")));
  const mine = isMine(m);
  const { singles, named, multis, bids, calls, others } = decisionOf(m);
  if (S.selection && !multis.has(S.selection.kind)) S.selection = null;
  if (S.selection) S.selection.cards = S.selection.cards.filter((c) => multis.get(S.selection.kind).cards.has(c));
  if (!S.selection && !singles.size && multis.size) S.selection = { kind: multis.keys().next().value, cards: [] };
  if (S.pendingCard && ![...singles.values()].some((mp) => mp.has(S.pendingCard))) S.pendingCard = null;
  const hand = $("hand");
  const hint = hinted(m);
  const hintAction = hint ? m.legal.find((a) => a.text === hint.action) : null;
  const kindName = (kind) => T.actionLabel(m.game, kind);

  renderPrompt();
  renderHint(hint);
  showWhy(null);  // said again when a refused card or choice has the focus or the pointer
  // a decision that plays no card of the hand (a bid, a button): the hand is only to look at
  const playsHand = !!(S.selection || singles.size);
  hand.classList.toggle("waiting", !mine || !playsHand);

  // the hand
  hand.innerHTML = "";
  hand.style.setProperty("--cards", String(Math.max(1, m.hand.length)));
  $("hand-title").classList.toggle("hidden", S.me === null);
  const arrived = arrivedCards(m);
  const twoTaps = confirmPlays();
  for (const c of sortedHand(m.hand)) {
    const b = T.cardNode(c, true);
    b.type = "button";
    if (arrived.has(c)) {
      b.classList.add("arrived");
      b.setAttribute("aria-description", T.t("table.arrived"));
    }
    let onClick = null;
    let reason = null;
    if (S.selection) {
      const g = multis.get(S.selection.kind);
      if (g.cards.has(c)) {
        const picked = S.selection.cards.includes(c);
        b.classList.toggle("selected", picked);
        b.setAttribute("aria-pressed", picked ? "true" : "false");
        onClick = () => {
          if (S.selection.cards.includes(c)) S.selection.cards = S.selection.cards.filter((x) => x !== c);
          else if (S.selection.cards.length < g.count) S.selection.cards.push(c);
          renderActions();
        };
      } else {
        reason = cardReason(c);
      }
    } else {
      const kinds = [...singles.entries()].filter(([, mp]) => mp.has(c));
      if (kinds.length === 1 && !twoTaps) onClick = () => act(kinds[0][1].get(c).text);
      else if (kinds.length === 1) {
        // select, then confirm: a second tap on the card (or its button below) plays it
        b.classList.toggle("selected", S.pendingCard === c);
        onClick = () => {
          if (S.pendingCard === c) act(kinds[0][1].get(c).text);
          else { S.pendingCard = c; renderActions(); }
        };
      } else if (kinds.length > 1) {
        b.classList.toggle("selected", S.pendingCard === c);
        onClick = () => { S.pendingCard = S.pendingCard === c ? null : c; renderActions(); };
      } else {
        const said = m.reasons && m.reasons.cards && m.reasons.cards[c];
        reason = mine && !playsHand && !said ? T.t("table.no_card_now") : cardReason(c);
      }
    }
    if (hintAction && hintAction.cards.includes(c)) b.classList.add("hinted");
    if (onClick && !S.busy) {
      b.classList.add("legal");
      b.addEventListener("click", onClick);
      b.addEventListener("focus", () => showWhy(null));
    } else if (S.busy) {
      b.disabled = true;
    } else {
      refuse(b, reason);
    }
    hand.appendChild(b);
  }

  // the controls
  const box = $("controls");
  box.innerHTML = "";
  const button = (text, action, handler, primary) => {
    const b = el("button", primary ? "primary" : null);
    T.richText(b, text, m.game, true);
    if (typeof text !== "string") b.title = T.richString(text, m.game, true);
    b.type = "button";
    if (action) b.dataset.action = action;
    if (hintAction && action === hintAction.text) b.classList.add("hinted");
    b.disabled = S.busy;
    b.addEventListener("click", handler);
    box.appendChild(b);
    return b;
  };
  if (mine) {
    if (S.selection) {
      const g = multis.get(S.selection.kind);
      const combo = g.combos.get(S.selection.cards.slice().sort().join(" "));
      // a set of several possible sizes (Galapagos' play-off) says how many are chosen, in words
      const count = el("span", "muted", g.sizes.size > 1 ? T.t("table.selected_some", { k: S.selection.cards.length })
        : T.t("table.selected", { k: S.selection.cards.length, n: g.count }));
      count.id = "selected-count";
      box.appendChild(count);
      const ok = button(combo ? buttonText(combo) : T.t("table.confirm", { kind: kindName(S.selection.kind) }),
        null, () => combo && act(combo.text), true);
      ok.id = "confirm";
      ok.disabled = S.busy || !combo;
      const clr = button(T.t("table.clear"), null, () => { S.selection.cards = []; renderActions(); });
      clr.id = "clear";
    }
    for (const [kind, g] of multis) {
      if (S.selection && S.selection.kind === kind) continue;
      button(kindName(kind) + " (" + g.count + ")", null, () => { S.selection = { kind, cards: [] }; S.pendingCard = null; renderActions(); });
    }
    if (S.pendingCard) {
      for (const [, mp] of singles) {
        const a = mp.get(S.pendingCard);
        if (a) button(buttonText(a), a.text, () => act(a.text), true);
      }
    }
    if (S.selection && singles.size) button("✕", null, () => { S.selection = null; renderActions(); });
    for (const [kind, b] of bids) box.appendChild(biddingBox(kind, b, calls, hintAction));
    const onTable = new Set();
    for (const p of m.piles || []) {
      if (Array.isArray(p.cards) && T.word(m.game, "maps", "piles", p.name)) p.cards.forEach((c) => onTable.add(c));
    }
    for (const [kind, g] of named) {
      // every choice lies face up in a pile: those cards are the buttons, no picker needed
      if (![...g.cards.keys()].every((c) => onTable.has(c))) box.appendChild(cardPicker(kind, g, hintAction));
    }
    if (S.pendingOwn) {
      const a = S.pendingOwn;
      button(T.tRich("table.name_anyway", { card: { t: "card", card: a.cards[0] } }), a.text, () => act(a.text), true);
    }
    for (const a of others) button(buttonText(a), a.text, () => act(a.text), true);
  }
  // the hint: the normal bot's suggestion for this decision, unless the table gives none
  $("btn-hint").classList.toggle("hidden", !(mine && m.legal.length && m.settings && m.settings.hints !== 0));
  $("btn-hint").disabled = S.busy || !!hint;
  restoreFocus(key, hadFocus);
  fitTable();
}

function renderHint(hint) {
  const line = $("hint");
  line.innerHTML = "";
  line.classList.toggle("hidden", !hint);
  if (!hint) return;
  const label = T.byLang(hint.label) || [];
  const [before, after] = T.t("table.hint_is").split("{action}");
  line.appendChild(rich("span", "hint-action", [before, ...label, after || ""]));
  const reason = T.byLang(hint.reason);
  if (reason) line.appendChild(rich("span", "hint-reason", reason));
}

// A picker over the whole deck for one kind of action naming any card: the legal cards enabled,
// the others saying why; a card of our own hand asks once more (naming it may mean playing alone).
function cardPicker(kind, g, hintAction) {
  const m = S.last;
  const box = el("div", "picker");
  box.dataset.kind = kind;
  box.appendChild(el("div", "picker-title", T.actionLabel(m.game, kind)));
  const inHand = new Set(m.hand);
  const rowsOf = ["S", "H", "D", "C"].map((suit) => RANKS.map((r) => r + suit));
  const jokers = [...g.cards.keys()].filter((c) => /^JK\d?$/.test(c)).sort();
  if (jokers.length) rowsOf.unshift(jokers);
  for (const cards of rowsOf) {
    const row = el("div", "picker-row");
    for (const c of cards) {
      const b = T.cardNode(c, true);
      b.type = "button";
      b.classList.add("mini");
      const a = g.cards.get(c);
      if (a && !S.busy) {
        b.classList.add("legal");
        b.dataset.action = a.text;
        b.title = buttonName(a);
        if (hintAction && hintAction.text === a.text) b.classList.add("hinted");
        if (inHand.has(c)) {
          b.classList.add("own");
          const own = T.word(m.game, "words", "own_card");
          b.title = typeof own === "string" ? own : T.richString(T.tRich("table.own_card", { card: { t: "card", card: c } }), m.game, false);
          const warning = b.title;
          b.addEventListener("click", () => {
            S.pendingOwn = a;
            renderActions();
            showWhy(warning);
          });
        } else {
          b.addEventListener("click", () => act(a.text));
        }
      } else if (S.busy) {
        b.disabled = true;
      } else {
        refuse(b, cardReason(c));
      }
      row.appendChild(b);
    }
    box.appendChild(row);
  }
  return box;
}

// A bidding box: its calls first (Pass, Double, Redouble always in view, the refused ones saying
// why), a button to keep the contract when keeping it is a choice, then levels × denominations,
// the legal cells enabled and the others saying why.
function biddingBox(kind, b, calls, hintAction) {
  const m = S.last;
  const box = el("div", "bidbox");
  box.dataset.kind = kind;
  box.appendChild(el("div", "picker-title", T.actionLabel(m.game, kind)));
  const row = el("div", "bidcalls");
  const current = typeof m.contract === "string" ? m.contract : null;
  const keep = current ? b.cells.get(current) : null;
  if (keep && !S.busy) {
    const [level, denom] = current.split(" ");
    const k = el("button", "primary keep");
    T.richText(k, T.tRich("table.keep", { contract: { t: "contract", level: Number(level), denom } }), m.game, true);
    k.type = "button";
    k.dataset.action = keep.text;
    k.addEventListener("click", () => act(keep.text));
    row.appendChild(k);
  }
  for (const c of calls) {
    const a = c.action;
    const word = T.word(m.game, "actions", c.text, "button");
    const b2 = a ? el("button", "call-" + a.kind) : el("button", "call-" + c.text);
    if (a) T.richText(b2, buttonText(a), m.game, true);
    else b2.textContent = typeof word === "string" && !word.includes("{") ? word : T.actionLabel(m.game, c.text);
    b2.type = "button";
    if (a && !S.busy) {
      b2.dataset.action = a.text;
      if (hintAction && hintAction.text === a.text) b2.classList.add("hinted");
      b2.addEventListener("click", () => act(a.text));
    } else if (S.busy) {
      b2.disabled = true;
    } else {
      b2.dataset.call = c.text;
      refuse(b2, actionReason(c.text));
    }
    row.appendChild(b2);
  }
  if (row.childNodes.length) box.appendChild(row);
  const grid = el("table", "bidgrid");
  // a denomination that is a word (no-trump, 노기루다) heads its column once; its cells show the level
  const head = el("tr");
  for (const d of b.denoms) {
    const th = el("th", T.SUIT_SYMBOL[d] ? "suit-" + d : "word", T.denomination(m.game, d, false));
    th.title = T.denomination(m.game, d, true);
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  grid.appendChild(thead);
  for (const level of b.levels) {
    const tr = el("tr");
    for (const d of b.denoms) {
      const td = el("td");
      const cell = level + " " + d;
      const a = b.cells.get(cell);
      const shown = T.SUIT_SYMBOL[d] ? T.contractText(level, d, m.game, false) : String(level);
      const btn = el("button", "bid" + (T.SUIT_SYMBOL[d] ? " suit-" + d : " word"), shown);
      btn.type = "button";
      btn.dataset.bid = cell;
      btn.setAttribute("aria-label", T.contractText(level, d, m.game, true));
      if (a && !S.busy) {
        btn.dataset.action = a.text;
        btn.title = buttonName(a);
        if (hintAction && hintAction.text === a.text) btn.classList.add("hinted");
        btn.addEventListener("click", () => act(a.text));
      } else if (S.busy) {
        btn.disabled = true;
      } else {
        refuse(btn, actionReason(b.texts[cell]));
      }
      td.appendChild(btn);
      tr.appendChild(td);
    }
    grid.appendChild(tr);
  }
  box.appendChild(grid);
  return box;
}

// Arrow keys move between the cards of the hand (a refused one says why when it has the focus);
// Enter and Space play (native button behaviour).
export function askHint() {
  if (!S.busy && isMine()) send({ type: "hint" });
}

export function onHandKey(ev) {
  if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
  const cards = [...$("hand").querySelectorAll("button.card:not(:disabled)")];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
  const next = ev.key === "ArrowRight" ? (i + 1) % cards.length : (i - 1 + cards.length) % cards.length;
  cards[i < 0 ? 0 : next].focus();
  ev.preventDefault();
}
