// The lobby: pick a game and its options, fill the seats, create a table, share the links.
"use strict";

(function () {
  const T = window.Torite;
  const $ = (id) => document.getElementById(id);
  let catalog = { games: [], bots: [] };
  let players = 0;
  let previewSeq = 0;

  function currentGame() {
    return catalog.games.find((g) => g.id === $("game").value);
  }

  function optionInput(opt) {
    const id = "opt-" + opt.name;
    let input;
    if (opt.choices) {
      input = document.createElement("select");
      for (const c of opt.choices) {
        const o = document.createElement("option");
        o.value = JSON.stringify(c);
        o.textContent = T.word(currentGame().id, "options", opt.name, "choices", typeof c === "string" ? c : JSON.stringify(c)) || String(c);
        if (c === opt.default) o.selected = true;
        input.appendChild(o);
      }
    } else if (opt.type === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!(opt.table ?? opt.default);  // a table's value (Umbridge's claims) first
    } else if (opt.type === "int") {
      input = document.createElement("input");
      input.type = "number";
      input.step = "1";
      input.value = String(opt.default);
      if (opt.minimum !== undefined) input.min = String(opt.minimum);
      if (opt.maximum !== undefined) input.max = String(opt.maximum);
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.value = String(opt.default);
    }
    input.id = id;
    input.dataset.option = opt.name;
    input.dataset.type = opt.type;
    input.addEventListener("change", preview);
    return input;
  }

  function renderOptions() {
    const box = $("options");
    const kept = readOptions();  // a language switch redraws the options: keep what was chosen
    box.innerHTML = "";
    const g = currentGame();
    if (!g) return;
    $("summary").textContent = T.word(g.id, "summary") || "";
    // the house rules (rule values a table may change) apart, folded under their heading
    let house = null;
    if (g.options.some((o) => o.house)) {
      house = document.createElement("details");
      house.id = "house-rules";
      const head = document.createElement("summary");
      head.textContent = T.t("lobby.house_rules");
      const note = document.createElement("p");
      note.className = "help";
      note.textContent = T.t("lobby.house_rules_help");
      house.append(head, note);
      const changed = g.options.some((o) => o.house && o.name in kept && kept[o.name] !== o.default);
      if (changed) house.open = true;
    }
    for (const opt of g.options) {
      const div = document.createElement("div");
      div.className = "field";
      const lab = document.createElement("label");
      lab.htmlFor = "opt-" + opt.name;
      lab.textContent = T.word(g.id, "options", opt.name, "label") || opt.name;
      const help = document.createElement("span");
      help.className = "help";
      let extra = "";
      if (opt.minimum !== undefined || opt.maximum !== undefined) {
        extra = " [" + (opt.minimum ?? "") + "–" + (opt.maximum ?? "") + "]";
      }
      help.textContent = (T.word(g.id, "options", opt.name, "help") || opt.help) + extra;
      const input = optionInput(opt);
      if (opt.name in kept) {
        if (input.type === "checkbox") input.checked = !!kept[opt.name];
        else input.value = input.tagName === "SELECT" ? JSON.stringify(kept[opt.name]) : String(kept[opt.name]);
      }
      div.append(lab, input, help);
      (opt.house ? house : box).appendChild(div);
    }
    if (house) box.appendChild(house);
    $("show-rules").disabled = !g.rules.length;
  }

  function readOptions() {
    const out = {};
    document.querySelectorAll("[data-option]").forEach((el) => {
      const name = el.dataset.option;
      if (el.tagName === "SELECT") out[name] = JSON.parse(el.value);
      else if (el.type === "checkbox") out[name] = el.checked;
      else if (el.dataset.type === "int") out[name] = el.value.trim() === "" ? el.value : Number(el.value);
      else out[name] = el.value;
    });
    return out;
  }

  // The bot levels in order of strength; the two searches by name after them.
  const STRENGTH = ["random", "easy", "normal", "hard", "expert", "ismcts", "pimc"];
  function botsInOrder() {
    const known = STRENGTH.filter((b) => catalog.bots.includes(b));
    return known.concat(catalog.bots.filter((b) => !STRENGTH.includes(b)));
  }

  function levelName(b) {
    return T.t("bot." + b) === "bot." + b ? b : T.t("bot." + b);
  }

  function seatChoices() {
    const list = [["human:you", T.t("seat.you")], ["human:friend", T.t("seat.friend")]];
    for (const b of botsInOrder()) list.push(["bot:" + b, T.t("seat.bot", { level: levelName(b) })]);
    return list;
  }

  // What each bot level is and roughly how long it thinks, weakest first.
  function renderBotsHelp() {
    const dl = $("bots-help");
    dl.innerHTML = "";
    for (const b of botsInOrder()) {
      const help = T.t("bot." + b + ".help");
      if (help === "bot." + b + ".help") continue;
      const dt = document.createElement("dt");
      dt.textContent = levelName(b);
      const dd = document.createElement("dd");
      dd.textContent = help;
      dl.append(dt, dd);
    }
  }

  function renderSeats() {
    const box = $("seats");
    const old = Array.from(box.querySelectorAll(".seat-row")).map((r) => ({
      kind: r.querySelector("select").value, name: r.querySelector("input").value,
    }));
    box.innerHTML = "";
    const defaultBot = catalog.bots.includes("normal") ? "bot:normal" : "bot:" + catalog.bots[0];
    for (let i = 0; i < players; i++) {
      const row = document.createElement("div");
      row.className = "seat-row";
      const lab = document.createElement("label");
      lab.className = "seat-label";
      lab.htmlFor = "seat-" + i;
      lab.textContent = T.t("seat.n", { n: i });
      const sel = document.createElement("select");
      sel.id = "seat-" + i;
      sel.dataset.seat = String(i);
      for (const [v, text] of seatChoices()) {
        const o = document.createElement("option");
        o.value = v;
        o.textContent = text;
        sel.appendChild(o);
      }
      sel.value = old[i] ? old[i].kind : (i === 0 ? "human:you" : defaultBot);
      const name = document.createElement("input");
      name.type = "text";
      name.maxLength = 40;
      name.placeholder = T.t("seat.name");
      name.setAttribute("aria-label", T.t("seat.name"));
      name.value = old[i] ? old[i].name : "";
      row.append(lab, sel, name);
      box.appendChild(row);
    }
    $("players").textContent = players ? T.t("lobby.players", { n: players }) : "";
    box.querySelectorAll("select").forEach((sel) => sel.addEventListener("change", idleDefault));
    idleDefault();
  }

  // A table with invited friends gets an idle timeout (a friend who wanders off does not stop
  // the game); one with only you and bots none.  A value typed by hand is kept.
  const FRIENDS_IDLE = 120;
  function idleDefault() {
    const input = $("idle_seconds");
    if (input.dataset.touched === "1") return;
    const friends = [...document.querySelectorAll(".seat-row select")].some((s) => s.value === "human:friend");
    input.value = String(friends ? FRIENDS_IDLE : 0);
  }

  // Every game with its one-line description; a click chooses it.
  function renderGameList() {
    const ul = $("game-list");
    ul.innerHTML = "";
    for (const g of catalog.games) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.game = g.id;
      b.textContent = T.gameTitle(g.id, g.title);
      if (g.id === $("game").value) li.className = "current";
      b.addEventListener("click", () => {
        $("game").value = g.id;
        $("game").dispatchEvent(new Event("change"));
      });
      li.append(b, " — " + (T.word(g.id, "summary") || ""));
      ul.appendChild(li);
    }
  }

  async function loadReports() {
    try {
      const res = await fetch("/api/reports");
      const data = await res.json();
      const list = (data && data.reports) || [];
      const ul = $("report-list");
      ul.innerHTML = "";
      for (const r of list) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = r.url;
        a.textContent = r.title;
        li.appendChild(a);
        if (r.game) li.append(" (" + T.gameTitle(r.game, r.game) + ")");
        ul.appendChild(li);
      }
      $("reports").classList.toggle("hidden", !list.length);
    } catch (e) { /* no reports: the section stays hidden */ }
  }

  // Options a ruling refuses together, said with their labels and chosen values in the page's
  // language ("초구 조커콜: 예 … 함께 쓸 수 없습니다"), not the server's English.
  function conflictText(conflict) {
    const g = currentGame();
    const named = Object.entries(conflict).map(([name, value]) => {
      const label = T.word(g.id, "options", name, "label") || name;
      const key = typeof value === "string" ? value : JSON.stringify(value);
      const shown = typeof value === "boolean" ? T.t(value ? "yes" : "no")
        : T.word(g.id, "options", name, "choices", key) || String(value);
      return [label, shown];
    });
    if (named.length < 2) return named.map((x) => x.join(": ")).join("");
    return T.t("lobby.conflict", { a: named[0][0], va: named[0][1], b: named[1][0], vb: named[1][1] });
  }

  async function preview() {
    const seq = ++previewSeq;
    $("form-error").textContent = "";
    const res = await fetch("/api/preview", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: $("game").value, options: readOptions() }),
    });
    const data = await res.json();
    if (seq !== previewSeq) return;
    if (!res.ok) {
      $("form-error").textContent = data.conflict ? conflictText(data.conflict)
        : data.error === "too_long" ? T.t("lobby.too_long", { most: data.most_rounds, asked: data.asked })
          : data.message;
      $("create").disabled = true;
      return;
    }
    $("create").disabled = false;
    players = data.players;
    lastGoal = data.goal || null;
    showGoal();
    renderSeats();
  }

  // How the game is won under the chosen options, in one line.
  let lastGoal = null;
  function showGoal() {
    const box = $("goal");
    box.innerHTML = "";
    if (lastGoal) T.richText(box, T.byLang(lastGoal), $("game").value);
  }

  function linkItem(label, url, isSecret) {
    const li = document.createElement("li");
    const strong = document.createElement("strong");
    strong.textContent = label + ": ";
    const a = document.createElement("a");
    a.href = url;
    a.textContent = url;
    if (isSecret) a.dataset.secret = "1";
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = T.t("lobby.copy");
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); copy.textContent = T.t("lobby.copied"); } catch (e) { /* no clipboard: the link is shown */ }
    });
    li.append(strong, a, " ", copy);
    return li;
  }

  async function create(ev) {
    ev.preventDefault();
    $("form-error").textContent = "";
    const seats = [];
    const mine = [];
    document.querySelectorAll(".seat-row").forEach((row, i) => {
      const [kind, what] = row.querySelector("select").value.split(":");
      const name = row.querySelector("input").value.trim();
      if (kind === "bot") seats.push({ kind: "bot", level: what, name });
      else if (what === "you") seats.push({ kind: "human", name, host: true });
      else seats.push({ kind: "human", name });
      if (kind === "human" && what === "you") mine.push(i);
    });
    const body = {
      game: $("game").value, options: readOptions(), seats,
      settings: { bot_delay: Number($("bot_delay").value || 0), idle_seconds: Number($("idle_seconds").value || 0),
                  hints: $("hints").checked ? 1 : 0 },
    };
    $("create").disabled = true;
    $("create").textContent = T.t("lobby.creating");
    try {
      const res = await fetch("/api/tables", {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      const data = await res.json();
      if (!res.ok) { $("form-error").textContent = data.message; return; }
      const ul = $("links");
      ul.innerHTML = "";
      for (const s of data.seats) {
        if (s.kind !== "human") continue;
        const who = mine.includes(s.seat) ? T.t("seat.you") : T.t("seat.friend");
        ul.appendChild(linkItem(T.t("seat.n", { n: s.seat }) + " (" + (s.name || who) + ")", s.url, true));
        // remember our own seats so the table page finds them even without the link
        if (mine.includes(s.seat)) {
          localStorage.setItem("torite.seat." + data.id, JSON.stringify({ seat: s.seat, token: s.token }));
        }
      }
      ul.appendChild(linkItem(T.t("lobby.spectator"), data.spectator, false));
      const go = $("go");
      const first = data.seats.find((s) => mine.includes(s.seat));
      if (first) { go.href = first.path; go.classList.remove("hidden"); } else go.classList.add("hidden");
      $("created").classList.remove("hidden");
      $("created").scrollIntoView({ behavior: "smooth" });
    } finally {
      $("create").disabled = false;
      $("create").textContent = T.t("lobby.create");
    }
  }

  async function showRules() {
    const g = currentGame();
    const body = $("rules-body");
    const res = await fetch("/api/games/" + encodeURIComponent(g.id) + "/rules?lang=" + T.getLang());
    const data = await res.json();
    body.innerHTML = res.ok ? data.html : "<p>" + T.t("lobby.no_rules") + "</p>";  // html is built and escaped by the server
    $("rules-dialog").showModal();
    $("rules-dialog").scrollTop = 0;  // from the top, whatever was read last time
  }

  function renderGames() {
    const sel = $("game");
    const chosen = sel.value;
    sel.innerHTML = "";
    for (const g of catalog.games) {
      const o = document.createElement("option");
      o.value = g.id;
      o.textContent = T.gameTitle(g.id, g.title);
      sel.appendChild(o);
    }
    if (chosen) sel.value = chosen;
  }

  // the footer says which build serves (compiled by mypyc, or pure Python)
  let build = null;
  function renderBuild() {
    if (build) $("build").textContent = T.t("app.build." + build.build, {version: build.version});
  }
  async function loadBuild() {
    try {
      build = await (await fetch("/api/version")).json();
    } catch (e) {
      build = null;
    }
    renderBuild();
  }

  async function init() {
    T.apply();
    T.bindSwitch($("lang"), () => { renderGames(); renderGameList(); renderOptions(); renderSeats(); renderBotsHelp(); showGoal(); loadReports(); renderBuild(); });
    loadBuild();
    $("idle_seconds").addEventListener("input", () => { $("idle_seconds").dataset.touched = "1"; });
    const res = await fetch("/api/games");
    catalog = await res.json();
    T.setGames(catalog.games);
    const sel = $("game");
    renderGames();
    renderGameList();
    renderBotsHelp();
    loadReports();
    sel.addEventListener("change", () => { $("options").innerHTML = ""; renderOptions(); renderGameList(); preview(); });
    $("lobby").addEventListener("submit", create);
    $("show-rules").addEventListener("click", showRules);
    renderOptions();
    await preview();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
