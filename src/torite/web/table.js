// The table: one WebSocket to the server, which sends this seat's view after every change.
// Everything shown comes from that message: the observation's common keys (hand, trick,
// scores, phase, to_act, round, dealer, round_scores, tricks, hand_sizes, tricks_won,
// round_points), the game's status rows, the last trick's facts, log lines (a finished trick's
// and a round end's line carry their event's data), the legal actions with their button texts
// (each by language), the piles, who is winning the trick, idle clocks, the rematch, and the
// game's labels from /api/games.  Nothing here knows a particular game: a decision is shown by
// the form of its legal actions alone (cards of the hand, several cards, a card named from the
// whole deck, a bid "LEVEL DENOMINATION", anything else as a button).
"use strict";

(function () {
  const T = window.Torite;
  const $ = (id) => document.getElementById(id);
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const storeKey = "torite.seat." + tableId;
  const PAUSES = [0, 0.8, 1.5, 3];   // seconds a finished trick stays on the table
  const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  let ws = null;
  let me = null;            // our seat, or null when watching
  let last = null;          // the newest state message
  let logLines = [];        // [{i, text, kind, data?}]
  let selection = null;     // {kind, cards: [...]}: choosing several cards for one action
  let pendingCard = null;   // a card with several single-card actions: which one?
  let busy = false;         // an action is on its way: ignore further clicks until the answer
  let retry = 0;
  let stopped = false;
  let showLast = false;
  let toastTimer = null;
  let skew = 0;             // our clock minus the server's, in seconds
  let doneTrick = null;     // a finished trick on show: its event data, until the pause ends
  let pauseTimer = null;
  let liveShown = new Set(); // "seat:card" of the live trick as last drawn (new ones slide in)
  let summaries = [];       // round ends waiting to be shown: [{data, round}]
  let roundsSeen = 0;       // round-end lines received so far
  let roundTricks = [];     // tricks won this round by seat, counted from the trick lines
  let lastSummary = null;   // the newest summary, for the "Summary" button at the end
  let wasMyTurn = false;
  let chimedAt = -1;        // the action count at which "your turn" was last signalled
  let actedAt = -2;         // the action count when we last acted
  let audio = null;
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
    actedAt = last ? last.n : -2;
    // the decision it answers: a second click or another tab cannot land on the next one
    const msg = { type: "act", action: text };
    if (last && Number.isInteger(last.decision)) msg.decision = last.decision;
    send(msg);
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
      const full = msg.log_from === 0;
      if (full) logLines = [];
      logLines.push(...msg.log);
      if (typeof msg.now === "number") skew = Date.now() / 1000 - msg.now;
      noteMoments(msg.log, full);
      last = msg;
      busy = false;
      setConn(me === null ? "table.spectating" : "table.connected");
      $("table").dataset.connected = "1";
      render(full ? null : msg.log);
    } else if (msg.type === "joined") {
      me = msg.seat;
      setConn(me === null ? "table.spectating" : "table.connected");
    } else if (msg.type === "error") {
      busy = false;
      if (msg.code === "bad_token") {
        toast(T.t("error.bad_token"));
        forget();
        creds = null;
        send({ type: "join", seat: null });
      } else if (msg.code === "stale") {
        // a second click, or another tab, answered a decision already made: the table shown is current
      } else if (msg.code === "not_found") {
        stopped = true;
        $("notfound").classList.remove("hidden");
        setConn("table.not_found");
      } else {
        // a refusal the page has words for is said in the reader's language
        const key = "error." + msg.code;
        toast(T.t(key) !== key ? T.t(key) : T.t("error.generic", { message: msg.message }));
      }
      if (last) renderActions();
    }
  }

  function forget() {
    try { sessionStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ }
    try { localStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ }
  }

  // New log lines: a finished trick stays on the table a moment, a round's end queues its summary.
  // A whole log (the first message, a reconnect) is history: nothing is replayed from it.
  function noteMoments(lines, full) {
    let trick = null;
    if (full) { roundsSeen = 0; roundTricks = []; }
    for (const line of lines) {
      if (line.kind === "round_end" && line.data) {
        roundsSeen += 1;
        lastSummary = { data: line.data, round: roundsSeen, tricks: roundTricks };
        roundTricks = [];
        if (!full) summaries.push(lastSummary);
      } else if (line.kind === "trick" && line.data) {
        const w = line.data.winner;
        if (Number.isInteger(w)) roundTricks[w] = (roundTricks[w] || 0) + 1;
        if (!full) trick = line.data;
      }
    }
    if (trick) startPause(trick);
  }

  function pauseSeconds() {
    const saved = localStorage.getItem("torite.pause");
    const v = saved === null ? NaN : Number(saved);
    return PAUSES.includes(v) ? v : 1.5;
  }

  function startPause(trick) {
    clearTimeout(pauseTimer);
    const secs = pauseSeconds();
    if (secs <= 0) { doneTrick = null; return; }
    doneTrick = trick;
    pauseTimer = setTimeout(endPause, secs * 1000);
  }

  // The trick goes to its winner (a short slide unless the browser asks for less motion).
  function endPause() {
    clearTimeout(pauseTimer);
    pauseTimer = null;
    if (!doneTrick) return;
    const winner = doneTrick.winner;
    doneTrick = null;
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
    if (doneTrick) return;  // a newer trick finished meanwhile
    liveShown = new Set();
    if (last) { renderTrick(last); renderPrompt(); }
    showSummaries();
  }

  // ------------------------------------------------------------ helpers
  function seatName(i, plain) {
    if (!last) return T.t("table.seat", { n: i });
    const s = last.seats[i];
    let name = (s && s.name) || T.t("table.seat", { n: i });
    if (s && s.kind === "bot" && !s.name) name = T.t("table.seat", { n: i }) + " · " + T.t("table.bot", { level: botLevel(s.level) });
    return i === me && !plain ? name + " (" + T.t("table.you") + ")" : name;
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

  // A text from the server or the labels, shown with suit symbols and the game's glossary.
  function rich(tag, cls, text) {
    const e = el(tag, cls);
    T.richText(e, text === undefined || text === null ? "" : String(text), last ? last.game : null);
    return e;
  }

  function signed(v) {
    return typeof v === "number" && v > 0 ? "+" + v : String(v);
  }

  // Where a seat sits around the table: ourselves at the bottom, the next seats clockwise.
  function angleOf(seat, n) {
    const base = me === null ? 0 : me;
    const r = (seat - base + n) % n;
    return Math.PI / 2 + (r * 2 * Math.PI) / n;
  }

  // a phone: the seats sit further out, the trick closer in, so neither covers the other
  function narrow() {
    return window.matchMedia("(max-width: 760px)").matches;
  }

  function place(node, seat, n, rx, ry) {
    const a = angleOf(seat, n);
    node.style.left = (50 + rx * Math.cos(a)) + "%";
    node.style.top = (50 + ry * Math.sin(a)) + "%";
  }

  // A trick entry is a card text or {seat, card, …flags}: flags that are true become tags.
  function trickCard(entry, seat) {
    const box = el("div", "trick-card");
    const card = typeof entry === "string" ? entry : entry.card;
    // A card the seat may not see yet (e.g. drawn face down) arrives as null: show its back.
    box.appendChild(card === null || card === undefined ? T.cardBack() : T.cardNode(String(card), false));
    const who = typeof entry === "object" && entry.seat !== undefined ? entry.seat : seat;
    if (who !== undefined && who !== null) {
      box.dataset.seat = String(who);
      box.appendChild(el("span", "who", seatName(who, true)));
    }
    if (typeof entry === "object") {
      for (const [k, v] of Object.entries(entry)) {
        const tag = v === true && last ? T.word(last.game, "tags", k) : undefined;
        if (k !== "seat" && k !== "card" && tag) box.appendChild(rich("span", "tag", tag));
      }
    }
    return box;
  }

  function rows(dl, list) {
    for (const [k, v] of list || []) dl.append(rich("dt", null, k), rich("dd", null, v));
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
    const mine = me !== null && m.to_act.includes(me) && !m.over;
    main.dataset.myTurn = mine ? "1" : "0";
    main.dataset.phase = obs.phase || "";
    const title = T.gameTitle(m.game, m.title);
    document.title = (mine ? "▶ " + T.t("table.your_turn") + " · " : "") + title + " · torite";
    // a new decision: not a re-render, not the next step of one's own move
    if (mine && m.n !== chimedAt && !(wasMyTurn && m.n === actedAt + 1)) chime();
    if (mine) chimedAt = m.n;
    wasMyTurn = mine;
    $("title").textContent = title;
    renderSeats(m, obs);
    renderTrick(m);
    renderPiles(m);
    renderLastTrick(obs);
    renderStatus(m, obs);
    renderSheet(m, obs);
    renderLog(newLines);
    renderOver(m);
    $("away").classList.toggle("hidden", !(me !== null && m.seats[me] && m.seats[me].away && !m.over));
    renderActions();
    if (!doneTrick) showSummaries();
  }

  function countdown(i) {
    const d = last && last.idle_deadlines ? last.idle_deadlines[i] : null;
    if (typeof d !== "number") return null;
    return Math.max(0, Math.ceil(d - (Date.now() / 1000 - skew)));
  }

  function renderSeats(m, obs) {
    const box = $("seats");
    box.innerHTML = "";
    const n = m.num_players;
    for (let i = 0; i < n; i++) {
      const s = m.seats[i] || {};
      const d = el("div", "seat");
      d.dataset.seat = String(i);
      place(d, i, n, 36, narrow() ? 44 : 40);
      const gone = s.kind === "human" && !s.connected && !m.over;
      if (i === me) d.classList.add("me");
      if (m.to_act.includes(i) && !m.over) d.classList.add("turn");
      if (gone) d.classList.add("gone");
      const name = el("div", "name");
      const dot = el("span", "dot" + (s.kind === "bot" || s.connected ? " on" : ""));
      dot.title = T.t(s.kind === "bot" || s.connected ? "table.online" : "table.offline");
      name.append(dot, seatName(i));
      if (obs.dealer === i) {
        const chip = el("span", "chip dealer", T.t("table.dealer_chip"));
        chip.title = T.t("table.dealer");
        name.appendChild(chip);
      }
      d.appendChild(name);
      const facts = [];
      if (Array.isArray(obs.hand_sizes)) facts.push(["cards", T.t("table.seat_cards", { n: obs.hand_sizes[i] })]);
      if (Array.isArray(obs.tricks_won)) facts.push(["tricks", T.t("table.seat_tricks", { n: obs.tricks_won[i] })]);
      if (Array.isArray(obs.round_points)) facts.push(["points", T.t("table.seat_points", { n: signed(obs.round_points[i]) })]);
      if (Array.isArray(obs.scores)) facts.push(["total", T.t("table.seat_total", { n: obs.scores[i] })]);
      const f = el("div", "facts");
      for (const [k, text] of facts) f.appendChild(el("span", "fact " + k, text));
      d.appendChild(f);
      const tags = [];
      if (m.to_act.includes(i) && !m.over) tags.push(T.t("table.turn"));
      if (s.away) tags.push(T.t("table.away"));
      else if (gone) tags.push(T.t("table.gone"));
      const left = countdown(i);
      if (left !== null && (gone || i === me)) tags.push(T.t("table.idle_in", { s: left }));
      d.appendChild(el("div", "tags", tags.join(" · ")));
      box.appendChild(d);
    }
  }

  function renderTrick(m) {
    const box = $("trick");
    const note = $("trick-note");
    box.innerHTML = "";
    note.innerHTML = "";
    const n = m.num_players;
    const ring = $("ring");
    ring.classList.toggle("paused", !!doneTrick);
    if (doneTrick) {
      const t = doneTrick;
      const cards = Array.isArray(t.cards) ? t.cards : [];
      cards.forEach((c, k) => {
        const seat = Array.isArray(t.seats) ? t.seats[k] : (Number.isInteger(t.leader) ? (t.leader + k) % n : k);
        const node = trickCard(c === null ? null : String(c), seat);
        place(node, seat, n, 15, narrow() ? 14 : 19);
        if (seat === t.winner) node.classList.add("winner");
        box.appendChild(node);
      });
      if (Number.isInteger(t.winner)) {
        const pts = t.points === undefined || t.points === null ? "" : T.t("table.trick_points", { points: signed(t.points) });
        note.appendChild(el("span", "won", T.t("table.trick_won", { who: seatName(t.winner, true) }) + (pts ? " " + pts : "")));
        note.appendChild(el("span", "skip muted", T.t("table.skip")));
      }
      return;
    }
    const trick = (m.obs && m.obs.trick) || [];
    if (!trick.length) { note.appendChild(el("span", "muted", T.t("table.no_trick"))); liveShown = new Set(); return; }
    const shown = new Set();
    const lead = m.obs && Number.isInteger(m.obs.leader) ? m.obs.leader : null;
    trick.forEach((e, k) => {
      const seat = typeof e === "object" && e !== null && e.seat !== undefined ? e.seat : (lead !== null ? (lead + k) % n : null);
      const node = trickCard(e, seat);
      if (seat !== null) place(node, seat, n, 15, narrow() ? 14 : 19);
      const key = seat + ":" + (typeof e === "string" ? e : e.card);
      shown.add(key);
      if (!liveShown.has(key) && !reducedMotion && seat !== null) {
        // slide in from the seat that played it
        const a = angleOf(seat, n);
        node.style.setProperty("--from-x", (Math.cos(a) * 9) + "rem");
        node.style.setProperty("--from-y", (Math.sin(a) * 7) + "rem");
        node.classList.add("arrive");
      }
      if (seat === m.winning) node.classList.add("winning");
      box.appendChild(node);
    });
    liveShown = shown;
    if (Number.isInteger(m.winning) && !m.over) note.appendChild(el("span", "winning-now", T.t("table.winning_now", { who: seatName(m.winning, true) })));
  }

  // Piles the game's labels name (maps.piles): cards face up, or backs with a count.  A card
  // there that a legal action names (and that is not in the hand) is played by clicking it.
  function renderPiles(m) {
    const box = $("piles");
    box.innerHTML = "";
    const mine = me !== null && m.to_act.includes(me) && !m.over;
    const inHand = new Set(m.hand);
    const named = new Map();
    if (mine && !busy) {
      for (const a of m.legal) if (a.cards.length === 1 && !a.arg && !inHand.has(a.cards[0])) named.set(a.cards[0], a);
    }
    for (const p of m.piles || []) {
      const label = T.word(m.game, "maps", "piles", p.name);
      if (!label) continue;
      const d = el("div", "pile");
      d.dataset.pile = p.name;
      const count = Array.isArray(p.cards) ? p.cards.length : p.count;
      d.appendChild(rich("div", "pile-title", label + " (" + count + ")"));
      const row = el("div", "pile-cards");
      if (Array.isArray(p.cards)) {
        if (!p.cards.length) row.appendChild(el("span", "muted", T.t("table.empty")));
        for (const c of p.cards) {
          if (c === null) { row.appendChild(T.cardBack()); continue; }
          const a = named.get(c);
          const node = T.cardNode(c, !!a);
          if (a) {
            node.type = "button";
            node.classList.add("legal");
            node.dataset.action = a.text;
            node.title = buttonText(a);
            node.addEventListener("click", () => act(a.text));
          }
          row.appendChild(node);
        }
      } else {
        const backs = el("span", "backs");
        for (let k = 0; k < Math.min(count, 6); k++) backs.appendChild(T.cardBack());
        row.appendChild(backs);
      }
      d.appendChild(row);
      box.appendChild(d);
    }
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
        const node = trickCard(c === null ? null : String(c), seat);
        if (seat === t.winner) node.classList.add("winner");
        body.appendChild(node);
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
    for (let i = 0; i < m.num_players; i++) head.appendChild(el("th", null, seatName(i, true)));
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

  // One line per event; a round's start and a trick's end mark separators.
  function logItem(line) {
    return rich("li", "kind-" + (line.kind || "event"), T.byLang(line.text));
  }

  function renderLog(newLines) {
    const ol = $("log");
    const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
    const lines = newLines === null ? logLines : newLines;
    if (newLines === null) ol.innerHTML = "";
    for (const line of lines) if (line.text) ol.appendChild(logItem(line));
    if (atBottom || newLines === null) ol.scrollTop = ol.scrollHeight;
  }

  function standingsOrder(result) {
    const scores = result.scores;
    const idx = scores.map((_, i) => i);
    const wins = result.winners || [];
    // the winners' end of the scale: a game where the lowest total wins ranks upward
    const low = wins.length && wins.every((w) => scores[w] === Math.min(...scores)) && Math.min(...scores) !== Math.max(...scores);
    idx.sort((a, b) => (wins.includes(b) - wins.includes(a)) || (low ? scores[a] - scores[b] : scores[b] - scores[a]) || a - b);
    return idx;
  }

  function renderOver(m) {
    $("over").classList.toggle("hidden", !m.over);
    if (!m.over || !m.result) return;
    $("winners").textContent = T.t("table.winners", { who: m.result.winners.map((w) => seatName(w)).join(", ") }) +
      " (" + m.result.scores.join(" / ") + ")";
    const href = "/api/tables/" + encodeURIComponent(tableId) + "/record";
    const file = "torite-" + m.game + "-" + tableId + ".json";
    for (const id of ["download", "final-download"]) {
      $(id).href = href;
      $(id).setAttribute("download", file);
    }
    const joined = m.rematch && m.rematch.path;
    for (const [btn, link] of [["btn-rematch", "rematch-link"], ["final-rematch", "final-rematch-link"]]) {
      $(btn).classList.toggle("hidden", !!joined || me === null);
      $(link).classList.toggle("hidden", !joined);
      if (joined) $(link).href = m.rematch.path;
    }
    $("btn-summary").classList.toggle("hidden", !lastSummary);
  }

  // ------------------------------------------------------------ round summary
  // Each seat's round in the game's own terms: the per-seat lists of the round's end that the
  // game's labels name in maps.round_summary (in that order), then the round's points and the
  // running totals.  At the game's end the same dialog shows the standings and the way on.
  function showSummaries() {
    if (!summaries.length || !last) return;
    const dlg = $("round-dialog");
    if (dlg.open) return;
    const s = summaries.shift();
    summaries = [];  // several rounds at once (a late tab): the newest says enough
    openSummary(lastSummary && lastSummary.round > s.round ? lastSummary : s);
  }

  function openSummary(s) {
    const m = last;
    const n = m.num_players;
    const data = s.data;
    $("round-title").textContent = T.t("table.round_over", { n: s.round });
    const table = $("round-table");
    table.innerHTML = "";
    const head = el("tr");
    head.appendChild(el("th"));
    for (let i = 0; i < n; i++) head.appendChild(el("th", null, seatName(i, true)));
    const thead = el("thead");
    thead.appendChild(head);
    const tbody = el("tbody");
    const line = (label, values, cls) => {
      const tr = el("tr", cls);
      tr.dataset.key = cls || "";
      tr.appendChild(rich("th", null, label));
      for (const v of values) tr.appendChild(el("td", null, cell(v)));
      tbody.appendChild(tr);
    };
    const named = T.word(m.game, "maps", "round_summary") || {};
    for (const [key, label] of Object.entries(named)) {
      // a game that does not say how many tricks each seat took: counted from its trick lines
      const v = data[key] !== undefined ? data[key] : key === "tricks" && s.tricks ? [...Array(n).keys()].map((i) => s.tricks[i] || 0) : undefined;
      if (Array.isArray(v) && v.length === n && key !== "points" && key !== "scores") line(label, v, "row-" + key);
    }
    if (Array.isArray(data.points)) line(T.t("table.round_points"), data.points.map(signed), "points");
    if (Array.isArray(data.scores)) line(T.t("table.total"), data.scores, "total");
    table.append(thead, tbody);
    const over = m.over && m.result && s === lastSummary;
    $("final").classList.toggle("hidden", !over);
    if (over) {
      const r = m.result;
      $("final-winners").textContent = T.t("table.winners", { who: r.winners.map((w) => seatName(w)).join(", ") });
      const ol = $("standings");
      ol.innerHTML = "";
      for (const i of standingsOrder(r)) {
        const li = el("li", r.winners.includes(i) ? "won" : null, seatName(i) + " — " + r.scores[i]);
        ol.appendChild(li);
      }
      $("round-title").textContent = T.t("table.game_over_title");
    }
    $("round-continue").textContent = T.t(over ? "table.close" : "table.continue");
    const dlg = $("round-dialog");
    if (!dlg.open) dlg.showModal();
    dlg.scrollTop = 0;
  }

  function cell(v) {
    if (v === true) return T.t("yes");
    if (v === false) return T.t("no");
    if (v === null || v === undefined) return "";
    if (Array.isArray(v)) return v.join(" ");
    return String(v);
  }

  async function rematch() {
    if (!creds || busy) return;
    busy = true;
    try {
      const res = await fetch("/api/tables/" + encodeURIComponent(tableId) + "/rematch", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ seat: creds.seat, token: creds.token }),
      });
      const data = await res.json();
      if (!res.ok) { toast(T.t("error.generic", { message: data.message })); return; }
      location.assign(data.path);
    } finally {
      busy = false;
    }
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

  // What to do now and why: the game's words for this phase when it has them, else what the
  // choices look like; and who is winning the trick as it lies.
  function renderPrompt() {
    const m = last;
    if (!m) return;
    const mine = me !== null && m.to_act.includes(me) && !m.over;
    const prompt = $("prompt");
    prompt.innerHTML = "";
    prompt.classList.toggle("mine", mine);
    if (m.over) return;
    const { singles, multis } = groupLegal(mine ? m.legal : [], m.hand);
    const kindName = (kind) => T.actionLabel(m.game, kind);
    const why = mine && m.obs ? T.word(m.game, "phases", m.obs.phase, "prompt") : undefined;
    let text;
    if (mine && why) text = why;
    else if (mine && selection && multis.has(selection.kind)) text = T.t("table.select_n", { n: multis.get(selection.kind).count, kind: kindName(selection.kind) });
    else if (mine && singles.size) text = T.t("table.your_turn_play");
    else if (mine && m.legal.length) text = T.t("table.choose_kind", { kind: kindName(m.legal[0].kind) });
    else if (mine) text = T.t("table.your_turn_choose");
    else if (m.to_act.length > 1 && me !== null && !m.to_act.includes(me)) text = T.t("table.waiting_simul");
    else text = T.t("table.waiting", { who: m.to_act.map((w) => seatName(w)).join(", ") });
    prompt.appendChild(rich("span", "why", text));
    if (!doneTrick && Number.isInteger(m.winning)) {
      const own = m.winning === me;
      const entry = ((m.obs && m.obs.trick) || []).find((e) => e && e.seat === m.winning);
      const card = entry && entry.card ? T.cardText(entry.card) : "";
      prompt.appendChild(rich("span", "now", own ? T.t("table.you_are_winning", { card }) : T.t("table.is_winning", { who: seatName(m.winning, true), card })));
    }
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

    renderPrompt();

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
      const onTable = new Set();
      for (const p of m.piles || []) {
        if (Array.isArray(p.cards) && T.word(m.game, "maps", "piles", p.name)) p.cards.forEach((c) => onTable.add(c));
      }
      for (const [kind, mp] of named) {
        // every choice lies face up in a pile: those cards are the buttons, no picker needed
        if (![...mp.keys()].every((c) => onTable.has(c))) box.appendChild(cardPicker(kind, mp));
      }
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
    const dlg = $("rules-dialog");
    dlg.showModal();
    dlg.scrollTop = 0;  // from the top, whatever was read last time
    $("rules-body").scrollTop = 0;
  }

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

  function init() {
    T.apply();
    const refillPause = setupPause();
    const showSound = setupSound();
    T.bindSwitch($("lang"), () => {
      refillPause();
      showSound();
      if (last) render(null);
      if ($("round-dialog").open && lastSummary) openSummary(lastSummary);
    });
    $("hand").addEventListener("keydown", onHandKey);
    $("btn-back").addEventListener("click", () => send({ type: "back" }));
    $("btn-rules").addEventListener("click", showRules);
    $("btn-last").addEventListener("click", () => {
      showLast = !showLast;
      $("btn-last").setAttribute("aria-pressed", showLast ? "true" : "false");
      if (last) renderLastTrick(last.obs || {});
    });
    $("ring").addEventListener("click", () => { if (doneTrick) endPause(); });
    $("trick-note").addEventListener("click", () => { if (doneTrick) endPause(); });
    $("btn-rematch").addEventListener("click", rematch);
    $("final-rematch").addEventListener("click", rematch);
    $("btn-summary").addEventListener("click", () => { if (lastSummary) openSummary(lastSummary); });
    $("btn-spectate").addEventListener("click", async () => {
      const url = location.origin + "/t/" + encodeURIComponent(tableId) + "#watch";
      try { await navigator.clipboard.writeText(url); T.notice(T.t("lobby.copied") + ": " + url); } catch (e) { T.notice(url); }
    });
    window.addEventListener("hashchange", () => {
      if (!location.hash) return;  // our own clearing of the token
      creds = credentials();
      if (ws) ws.close();
    });
    // a gone player's countdown ticks between messages
    setInterval(() => { if (last && (last.idle_deadlines || []).some((d) => typeof d === "number")) renderSeats(last, last.obs || {}); }, 1000);
    window.__torite = { state: () => last, seat: () => me, lines: () => logLines };
    // the game's words (labels in every language); until they come, the notation is shown
    fetch("/api/games").then((r) => r.json()).then((data) => {
      T.setGames(data.games);
      if (last) render(null);
    }).catch(() => { /* the notation stays */ });
    connect();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
