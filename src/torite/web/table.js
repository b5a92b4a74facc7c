// The table: one WebSocket to the server, which sends this seat's view after every change.
// Everything shown comes from that message: the observation's common keys (hand, trick,
// scores, phase, to_act, round, dealer, round_scores, tricks), the game's status rows, the last
// trick's facts, log lines and the legal actions with their button texts (each by language),
// and the game's labels from /api/games.  Nothing here knows a particular game: a decision is
// shown by the form of its legal actions alone (cards of the hand, several cards, a card named
// from the whole deck, a bid "LEVEL DENOMINATION", anything else as a button).
"use strict";

(function () {
  const T = window.Torite;
  const $ = (id) => document.getElementById(id);
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const storeKey = "torite.seat." + tableId;

  let ws = null;
  let me = null;            // our seat, or null when watching
  let last = null;          // the newest state message
  let logLines = [];        // [{i, text}]
  let selection = null;     // {kind, cards: [...]}: choosing several cards for one action
  let pendingCard = null;   // a card with several single-card actions: which one?
  let busy = false;         // an action is on its way: ignore further clicks until the answer
  let retry = 0;
  let stopped = false;
  let showLast = false;
  let toastTimer = null;

  // ------------------------------------------------------------ credentials
  function credentials() {
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (h.has("watch")) return null;
    if (h.has("seat") && h.has("token")) {
      const c = { seat: Number(h.get("seat")), token: h.get("token") };
      localStorage.setItem(storeKey, JSON.stringify(c));
      return c;
    }
    try {
      const saved = JSON.parse(localStorage.getItem(storeKey) || "null");
      if (saved && Number.isInteger(saved.seat) && typeof saved.token === "string") return saved;
    } catch (e) { /* a damaged entry: watch instead */ }
    return null;
  }
  let creds = credentials();

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
      ws.send(JSON.stringify(creds ? { type: "join", seat: creds.seat, token: creds.token } : { type: "join", seat: null }));
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

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }

  function act(text) {
    if (busy) return;
    busy = true;
    selection = null;
    pendingCard = null;
    send({ type: "act", action: text });
    renderActions();
  }

  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.classList.remove("hidden");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.add("hidden"), 5000);
  }

  function onMessage(msg) {
    if (msg.type === "state") {
      if (msg.log_from === 0) logLines = [];
      logLines.push(...msg.log);
      last = msg;
      busy = false;
      setConn(me === null ? "table.spectating" : "table.connected");
      $("table").dataset.connected = "1";
      render(msg.log_from === 0 ? null : msg.log);
    } else if (msg.type === "joined") {
      me = msg.seat;
      setConn(me === null ? "table.spectating" : "table.connected");
    } else if (msg.type === "error") {
      busy = false;
      if (msg.code === "bad_token") {
        toast(T.t("error.bad_token"));
        localStorage.removeItem(storeKey);
        creds = null;
        send({ type: "join", seat: null });
      } else if (msg.code === "not_found") {
        stopped = true;
        $("notfound").classList.remove("hidden");
        setConn("table.not_found");
      } else {
        toast(T.t("error.generic", { message: msg.message }));
      }
      if (last) renderActions();
    }
  }

  // ------------------------------------------------------------ helpers
  function seatName(i) {
    if (!last) return T.t("table.seat", { n: i });
    const s = last.seats[i];
    let name = (s && s.name) || T.t("table.seat", { n: i });
    if (s && s.kind === "bot" && !s.name) name = T.t("table.seat", { n: i }) + " · " + T.t("table.bot", { level: botLevel(s.level) });
    return i === me ? name + " (" + T.t("table.you") + ")" : name;
  }

  function botLevel(level) {
    const k = "bot." + level;
    const s = T.t(k);
    return s === k ? level : s;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  // A trick entry is a card text or {seat, card, …flags}: flags that are true become tags.
  function trickCard(entry, seat) {
    const box = el("div", "trick-card");
    const card = typeof entry === "string" ? entry : entry.card;
    // A card the seat may not see yet (e.g. drawn face down) arrives as null: show its back.
    box.appendChild(card === null || card === undefined ? T.cardBack() : T.cardNode(String(card), false));
    const who = typeof entry === "object" && entry.seat !== undefined ? entry.seat : seat;
    if (who !== undefined && who !== null) box.appendChild(el("span", "who", seatName(who)));
    if (typeof entry === "object") {
      for (const [k, v] of Object.entries(entry)) {
        const tag = v === true && last ? T.word(last.game, "tags", k) : undefined;
        if (k !== "seat" && k !== "card" && tag) box.appendChild(el("span", "tag", tag));
      }
    }
    return box;
  }

  function rows(dl, list) {
    for (const [k, v] of list || []) dl.append(el("dt", null, k), el("dd", null, v));
  }

  // ------------------------------------------------------------ rendering
  function render(newLines) {
    const m = last;
    const obs = m.obs || {};
    const main = $("table");
    main.dataset.ready = "1";
    main.dataset.seat = me === null ? "" : String(me);
    main.dataset.n = String(m.n);
    main.dataset.over = m.over ? "1" : "0";
    main.dataset.myTurn = me !== null && m.to_act.includes(me) && !m.over ? "1" : "0";
    main.dataset.phase = obs.phase || "";
    const title = T.gameTitle(m.game, m.title);
    document.title = title + " · torite";
    $("title").textContent = title;
    renderSeats(m, obs);
    renderTrick(obs);
    renderLastTrick(obs);
    renderStatus(m, obs);
    renderSheet(m, obs);
    renderLog(newLines);
    renderOver(m);
    $("away").classList.toggle("hidden", !(me !== null && m.seats[me] && m.seats[me].away && !m.over));
    renderActions();
  }

  function renderSeats(m, obs) {
    const box = $("seats");
    box.innerHTML = "";
    for (let i = 0; i < m.num_players; i++) {
      const s = m.seats[i] || {};
      const d = el("div", "seat");
      d.dataset.seat = String(i);
      if (i === me) d.classList.add("me");
      if (m.to_act.includes(i) && !m.over) d.classList.add("turn");
      const score = obs.scores ? obs.scores[i] : "";
      d.appendChild(el("span", "score", String(score ?? "")));
      const name = el("div", "name");
      const dot = el("span", "dot" + (s.kind === "bot" || s.connected ? " on" : ""));
      dot.title = T.t(s.kind === "bot" || s.connected ? "table.online" : "table.offline");
      name.append(dot, seatName(i));
      d.appendChild(name);
      const tags = [];
      if (obs.dealer === i) tags.push(T.t("table.dealer"));
      if (m.to_act.includes(i) && !m.over) tags.push(T.t("table.turn"));
      if (s.away) tags.push(T.t("table.away"));
      d.appendChild(el("div", "tags", tags.join(" · ")));
      box.appendChild(d);
    }
  }

  function renderTrick(obs) {
    const box = $("trick");
    box.innerHTML = "";
    const trick = obs.trick || [];
    if (!trick.length) { box.appendChild(el("span", "muted", T.t("table.no_trick"))); return; }
    trick.forEach((e) => box.appendChild(trickCard(e)));
  }

  function renderLastTrick(obs) {
    const panel = $("last-trick");
    panel.classList.toggle("hidden", !showLast);
    if (!showLast) return;
    const body = $("last-trick-body");
    body.innerHTML = "";
    const tricks = obs.tricks || [];
    const t = tricks[tricks.length - 1];
    if (!t) { body.appendChild(el("span", "muted", T.t("table.no_last_trick"))); return; }
    const n = last.num_players;
    if (Array.isArray(t.cards)) {
      t.cards.forEach((c, k) => {
        const seat = Array.isArray(t.seats) ? t.seats[k] : (Number.isInteger(t.leader) ? (t.leader + k) % n : null);
        body.appendChild(trickCard(String(c), seat));
      });
    } else if (Array.isArray(t)) {
      t.forEach((e) => body.appendChild(trickCard(e)));
    }
    const facts = el("dl", "status");
    rows(facts, T.byLang(last.last_trick));
    body.appendChild(facts);
  }

  function renderStatus(m, obs) {
    const dl = $("status");
    dl.innerHTML = "";
    const list = [];
    if (typeof obs.phase === "string") list.push([T.t("table.phase"), T.phaseName(m.game, obs.phase)]);
    if (Number.isInteger(obs.round)) list.push([T.t("table.round"), String(obs.round + 1)]);
    rows(dl, list.concat(T.byLang(m.status) || []));
  }

  function renderSheet(m, obs) {
    const table = $("sheet");
    table.innerHTML = "";
    const head = el("tr");
    head.appendChild(el("th", null, "#"));
    for (let i = 0; i < m.num_players; i++) head.appendChild(el("th", null, seatName(i)));
    const thead = el("thead");
    thead.appendChild(head);
    const tbody = el("tbody");
    (obs.round_scores || []).forEach((row, r) => {
      const tr = el("tr");
      tr.appendChild(el("td", null, String(r + 1)));
      row.forEach((v) => tr.appendChild(el("td", null, String(v))));
      tbody.appendChild(tr);
    });
    if (obs.scores) {
      const tr = el("tr", "total");
      tr.appendChild(el("td", null, T.t("table.total")));
      obs.scores.forEach((v) => tr.appendChild(el("td", null, String(v))));
      tbody.appendChild(tr);
    }
    table.append(thead, tbody);
  }

  function renderLog(newLines) {
    const ol = $("log");
    const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
    const lines = newLines === null ? logLines : newLines;
    if (newLines === null) ol.innerHTML = "";
    for (const line of lines) ol.appendChild(el("li", null, T.byLang(line.text)));
    if (atBottom || newLines === null) ol.scrollTop = ol.scrollHeight;
  }

  function renderOver(m) {
    $("over").classList.toggle("hidden", !m.over);
    if (!m.over || !m.result) return;
    $("winners").textContent = T.t("table.winners", { who: m.result.winners.map(seatName).join(", ") }) +
      " (" + m.result.scores.join(" / ") + ")";
    $("download").href = "/api/tables/" + encodeURIComponent(tableId) + "/record";
    $("download").setAttribute("download", "torite-" + m.game + "-" + tableId + ".json");
  }

  // ------------------------------------------------------------ decisions
  const BID = /^(\d+)\s+(\S+)$/;
  const BID_CALLS = ["pass", "double", "redouble"];
  const DENOM_ORDER = ["C", "D", "H", "S", "NT"];
  const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

  // Sort the legal actions by their form:
  //   singles  one card of the hand each (click the card);
  //   named    one card each, some not in the hand (e.g. a partner's card): a picker over the deck;
  //   multis   several cards of the hand (select them, then confirm);
  //   bids     no card, "LEVEL DENOMINATION" (a bidding box, with pass/double/redouble beside it);
  //   others   anything else, as buttons.
  function groupLegal(legal, hand) {
    const inHand = new Set(hand);
    const singles = new Map();  // kind -> Map(card -> action)
    const named = new Map();    // kind -> Map(card -> action)
    const multis = new Map();   // kind -> {count, cards: Set, combos: Map}
    const bids = new Map();     // kind -> [{level, denom, action}]
    let others = [];
    const oneCard = new Map();
    for (const a of legal) {
      if (a.cards.length === 1 && !a.arg) {
        if (!oneCard.has(a.kind)) oneCard.set(a.kind, new Map());
        oneCard.get(a.kind).set(a.cards[0], a);
      } else if (a.cards.length >= 2 && !a.arg) {
        if (!multis.has(a.kind)) multis.set(a.kind, { count: a.cards.length, cards: new Set(), combos: new Map() });
        const g = multis.get(a.kind);
        a.cards.forEach((c) => g.cards.add(c));
        g.combos.set(a.cards.slice().sort().join(" "), a);
      } else if (!a.cards.length && BID.test(a.arg)) {
        const [, level, denom] = BID.exec(a.arg);
        if (!bids.has(a.kind)) bids.set(a.kind, []);
        bids.get(a.kind).push({ level: Number(level), denom, action: a });
      } else {
        others.push(a);
      }
    }
    for (const [kind, mp] of oneCard) {
      const anyOutside = [...mp.keys()].some((c) => !inHand.has(c));
      (anyOutside ? named : singles).set(kind, mp);
    }
    let calls = [];
    if (bids.size) {
      calls = others.filter((a) => BID_CALLS.includes(a.kind) && !a.cards.length && !a.arg);
      others = others.filter((a) => !calls.includes(a));
    }
    return { singles, named, multis, bids, calls, others };
  }

  function buttonText(a) {
    return T.byLang(a.label) || T.prettyAction(a.text);
  }

  function focusKey() {
    const a = document.activeElement;
    if (!a) return null;
    if (a.dataset && a.dataset.card && a.closest("#hand")) return { card: a.dataset.card };
    if (a.dataset && a.dataset.action) return { action: a.dataset.action };
    return null;
  }

  function restoreFocus(key, hadFocusInHand) {
    let target = null;
    if (key && key.card) target = $("hand").querySelector('button.card[data-card="' + CSS.escape(key.card) + '"]:not(:disabled)');
    if (key && key.action) target = $("controls").querySelector('button[data-action="' + CSS.escape(key.action) + '"]');
    if (!target && hadFocusInHand) target = $("hand").querySelector("button.card:not(:disabled)");
    if (target) target.focus();
  }

  // A picker over the whole deck for one kind of action naming any card: only legal cards enabled.
  function cardPicker(kind, choices) {
    const box = el("div", "picker");
    box.dataset.kind = kind;
    box.appendChild(el("div", "picker-title", T.actionLabel(last.game, kind)));
    const rowsOf = ["S", "H", "D", "C"].map((suit) => RANKS.map((r) => r + suit));
    const jokers = [...choices.keys()].filter((c) => /^JK\d$/.test(c)).sort();
    if (jokers.length) rowsOf.unshift(jokers);
    for (const cards of rowsOf) {
      const row = el("div", "picker-row");
      for (const c of cards) {
        const b = T.cardNode(c, true);
        b.type = "button";
        b.classList.add("mini");
        const a = choices.get(c);
        if (a && !busy) {
          b.classList.add("legal");
          b.dataset.action = a.text;
          b.title = buttonText(a);
          b.addEventListener("click", () => act(a.text));
        } else {
          b.disabled = true;
        }
        row.appendChild(b);
      }
      box.appendChild(row);
    }
    return box;
  }

  // A bidding box: levels × denominations, only the legal cells enabled, pass/double/redouble beside.
  function biddingBox(kind, list, calls) {
    const box = el("div", "bidbox");
    box.dataset.kind = kind;
    box.appendChild(el("div", "picker-title", T.actionLabel(last.game, kind)));
    const levels = list.map((b) => b.level);
    const lo = Math.min(...levels);
    const hi = Math.max(...levels);
    const seen = [...new Set(list.map((b) => b.denom))];
    const denoms = DENOM_ORDER.filter((d) => seen.includes(d)).concat(seen.filter((d) => !DENOM_ORDER.includes(d)));
    const legal = new Map(list.map((b) => [b.level + " " + b.denom, b.action]));
    const grid = el("table", "bidgrid");
    for (let level = lo; level <= hi; level++) {
      const tr = el("tr");
      for (const d of denoms) {
        const td = el("td");
        const a = legal.get(level + " " + d);
        const b = el("button", "bid" + (T.SUIT_SYMBOL[d] ? " suit-" + d : ""), level + " " + T.denomination(last.game, d));
        b.type = "button";
        b.dataset.bid = level + " " + d;
        if (a && !busy) {
          b.dataset.action = a.text;
          b.title = buttonText(a);
          b.addEventListener("click", () => act(a.text));
        } else {
          b.disabled = true;
        }
        td.appendChild(b);
        tr.appendChild(td);
      }
      grid.appendChild(tr);
    }
    box.appendChild(grid);
    if (calls.length) {
      const row = el("div", "bidcalls");
      for (const a of calls) {
        const b = el("button", "call-" + a.kind, buttonText(a));
        b.type = "button";
        b.dataset.action = a.text;
        b.disabled = busy;
        b.addEventListener("click", () => act(a.text));
        row.appendChild(b);
      }
      box.appendChild(row);
    }
    return box;
  }

  function renderActions() {
    const m = last;
    if (!m) return;
    const key = focusKey();
    const hadFocus = !!(document.activeElement && (document.activeElement.closest("#hand") || document.activeElement.closest("#controls")));
    const mine = me !== null && m.to_act.includes(me) && !m.over;
    const { singles, named, multis, bids, calls, others } = groupLegal(mine ? m.legal : [], m.hand);
    if (selection && !multis.has(selection.kind)) selection = null;
    if (selection) selection.cards = selection.cards.filter((c) => multis.get(selection.kind).cards.has(c));
    if (!selection && !singles.size && multis.size) selection = { kind: multis.keys().next().value, cards: [] };
    if (pendingCard && ![...singles.values()].some((mp) => mp.has(pendingCard))) pendingCard = null;
    const kindName = (kind) => T.actionLabel(m.game, kind);

    // prompt: the game's words for this phase when it has them, else what the choices look like
    const prompt = $("prompt");
    prompt.classList.toggle("mine", mine);
    const why = mine && m.obs ? T.word(m.game, "phases", m.obs.phase, "prompt") : undefined;
    if (m.over) prompt.textContent = "";
    else if (mine && why) prompt.textContent = why;
    else if (mine && selection) prompt.textContent = T.t("table.select_n", { n: multis.get(selection.kind).count, kind: kindName(selection.kind) });
    else if (mine && singles.size) prompt.textContent = T.t("table.your_turn_play");
    else if (mine && m.legal.length) prompt.textContent = T.t("table.choose_kind", { kind: kindName(m.legal[0].kind) });
    else if (mine) prompt.textContent = T.t("table.your_turn_choose");
    else if (m.to_act.length > 1 && me !== null && !m.to_act.includes(me)) prompt.textContent = T.t("table.waiting_simul");
    else prompt.textContent = T.t("table.waiting", { who: m.to_act.map(seatName).join(", ") });

    // hand
    const hand = $("hand");
    hand.innerHTML = "";
    $("hand-title").classList.toggle("hidden", me === null);
    hand.classList.toggle("waiting", !mine);
    for (const c of m.hand) {
      const b = T.cardNode(c, true);
      b.type = "button";
      let onClick = null;
      if (selection) {
        const g = multis.get(selection.kind);
        if (g.cards.has(c)) {
          const picked = selection.cards.includes(c);
          b.classList.toggle("selected", picked);
          b.setAttribute("aria-pressed", picked ? "true" : "false");
          onClick = () => {
            if (selection.cards.includes(c)) selection.cards = selection.cards.filter((x) => x !== c);
            else if (selection.cards.length < g.count) selection.cards.push(c);
            renderActions();
          };
        }
      } else {
        const kinds = [...singles.entries()].filter(([, mp]) => mp.has(c));
        if (kinds.length === 1) onClick = () => act(kinds[0][1].get(c).text);
        else if (kinds.length > 1) {
          b.classList.toggle("selected", pendingCard === c);
          onClick = () => { pendingCard = pendingCard === c ? null : c; renderActions(); };
        }
      }
      if (onClick && !busy) {
        b.classList.add("legal");
        b.addEventListener("click", onClick);
      } else {
        b.disabled = true;
      }
      hand.appendChild(b);
    }

    // controls
    const box = $("controls");
    box.innerHTML = "";
    const button = (text, action, handler, primary) => {
      const b = el("button", primary ? "primary" : null, text);
      b.type = "button";
      if (action) b.dataset.action = action;
      b.disabled = busy;
      b.addEventListener("click", handler);
      box.appendChild(b);
      return b;
    };
    if (mine) {
      if (selection) {
        const g = multis.get(selection.kind);
        const combo = g.combos.get(selection.cards.slice().sort().join(" "));
        box.appendChild(el("span", "muted", T.t("table.selected", { k: selection.cards.length, n: g.count })));
        const ok = button(combo ? buttonText(combo) : T.t("table.confirm", { kind: kindName(selection.kind) }),
          null, () => combo && act(combo.text), true);
        ok.id = "confirm";
        ok.disabled = busy || !combo;
        const clr = button(T.t("table.clear"), null, () => { selection.cards = []; renderActions(); });
        clr.id = "clear";
      }
      for (const [kind, g] of multis) {
        if (selection && selection.kind === kind) continue;
        button(kindName(kind) + " (" + g.count + ")", null, () => { selection = { kind, cards: [] }; pendingCard = null; renderActions(); });
      }
      if (pendingCard) {
        for (const [, mp] of singles) {
          const a = mp.get(pendingCard);
          if (a) button(buttonText(a), a.text, () => act(a.text), true);
        }
      }
      if (selection && singles.size) {
        button("✕", null, () => { selection = null; renderActions(); });
      }
      for (const [kind, list] of bids) box.appendChild(biddingBox(kind, list, calls));
      for (const [kind, mp] of named) box.appendChild(cardPicker(kind, mp));
      for (const a of others) {
        const b = button(buttonText(a), a.text, () => act(a.text), true);
        b.title = a.text;
      }
    }
    restoreFocus(key, hadFocus);
  }

  // Arrow keys move between the playable cards; Enter and Space play (native button behaviour).
  function onHandKey(ev) {
    if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    const cards = [...$("hand").querySelectorAll("button.card:not(:disabled)")];
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const next = ev.key === "ArrowRight" ? (i + 1) % cards.length : (i - 1 + cards.length) % cards.length;
    cards[i < 0 ? 0 : next].focus();
    ev.preventDefault();
  }

  async function showRules() {
    if (!last) return;
    const res = await fetch("/api/games/" + encodeURIComponent(last.game) + "/rules?lang=" + T.getLang());
    const data = await res.json();
    // the server builds this HTML from the rules page and escapes all of its text
    $("rules-body").innerHTML = res.ok ? data.html : "<p>" + T.t("lobby.no_rules") + "</p>";
    $("rules-dialog").showModal();
  }

  function init() {
    T.apply();
    T.bindSwitch($("lang"), () => { if (last) render(null); });
    $("hand").addEventListener("keydown", onHandKey);
    $("btn-back").addEventListener("click", () => send({ type: "back" }));
    $("btn-rules").addEventListener("click", showRules);
    $("btn-last").addEventListener("click", () => {
      showLast = !showLast;
      $("btn-last").setAttribute("aria-pressed", showLast ? "true" : "false");
      if (last) renderLastTrick(last.obs || {});
    });
    $("btn-spectate").addEventListener("click", async () => {
      const url = location.origin + "/t/" + encodeURIComponent(tableId) + "#watch";
      try { await navigator.clipboard.writeText(url); toast(T.t("lobby.copied") + ": " + url); } catch (e) { toast(url); }
    });
    window.addEventListener("hashchange", () => { creds = credentials(); if (ws) ws.close(); });
    window.__torite = { state: () => last, seat: () => me };
    // the game's words (labels in every language); until they come, the notation is shown
    fetch("/api/games").then((r) => r.json()).then((data) => {
      T.setGames(data.games);
      if (last) render(null);
    }).catch(() => { /* the notation stays */ });
    connect();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
