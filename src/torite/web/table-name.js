// The name a player gives their own seat at the table, kept on their device (localStorage) and
// said to the server when they sit down, so the others see it on the seat's plate (drawn as
// text, never as markup).  The server cleans and bounds it (24 characters, no control
// characters, not "bot:…") and answers the name it kept; a refusal is said in the reader's
// language like any other.

import { $, S, T, send } from "./table-state.js";

const KEY = "torite.name";
const MOST = 24;

function stored() {
  try { return localStorage.getItem(KEY) || ""; } catch (e) { return ""; }
}

function keep(name) {
  try { localStorage.setItem(KEY, name); } catch (e) { /* kept for this page only */ }
}

function seatsName() {
  const seat = S.last && S.me !== null ? S.last.seats[S.me] : null;
  return seat ? seat.name || "" : null;
}

// Sitting down (a seat's "joined", and each state after it until the name is said): the kept
// name is said once, if the seat does not carry it already.
export function sayKeptName() {
  if (S.me === null || S.nameSaid === S.me) return;
  const name = stored().slice(0, MOST);
  const now = seatsName();
  if (now === null) return;  // no state yet: the next one says it
  S.nameSaid = S.me;
  if (name && name !== now && !(S.last && S.last.over)) send({ type: "name", name });
}

export function onNamed(msg) {
  keep(msg.name);
}

export function setupNames() {
  const btn = $("btn-name"), dlg = $("name-dialog"), input = $("name-input");
  input.maxLength = MOST;
  btn.addEventListener("click", () => {
    input.value = seatsName() || stored();
    dlg.showModal();
    input.focus();
  });
  $("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim().slice(0, MOST);
    keep(name);
    send({ type: "name", name });
    dlg.close();
  });
  $("name-cancel").addEventListener("click", () => dlg.close());
}

// The button shows for a seated player of a game in play.
export function renderNameButton() {
  const on = S.me !== null && S.last && !S.last.over && S.last.seats[S.me] && S.last.seats[S.me].kind === "human";
  $("btn-name").classList.toggle("hidden", !on);
}
