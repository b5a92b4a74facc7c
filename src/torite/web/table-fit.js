// The table fits the screen: the felt fills the window below the header, the oval of seats
// takes what room the prompt, the choices and the hand leave it (between a floor and a
// ceiling, CSS), and when even its floor would push the choices or the hand out of view while
// no card lies on the table (a bidding box, a card picker, a discard), the oval folds into a
// list of the seats, so a decision and the hand are always in view without scrolling.

import { $, S } from "./table-state.js";
import { placeTrick } from "./table-trick.js";

function bottomOf(sel) {
  let low = 0;
  for (const e of document.querySelectorAll(sel)) {
    const r = e.getBoundingClientRect();
    if (r.width || r.height) low = Math.max(low, r.bottom + window.scrollY);
  }
  return low;
}

export function fitTable() {
  const felt = document.querySelector(".felt");
  const ring = $("ring");
  if (!felt || !ring) return;
  const m = S.last;
  const quiet = !S.doneTrick && !(m && m.trick && m.trick.cards && m.trick.cards.length);
  ring.classList.remove("compact");
  ring.style.height = "";
  const top = felt.getBoundingClientRect().top + window.scrollY;
  const pad = parseFloat(getComputedStyle($("table")).paddingBottom) || 0;
  felt.style.setProperty("--felt-h", Math.max(0, window.innerHeight - top - pad) + "px");
  if (quiet && bottomOf("#controls > *, #hand button.card, #piles button.card.legal") > window.innerHeight) {
    ring.classList.add("compact");
  } else {
    // the height found is kept until the next state: a reason shown under the hand while a
    // refused card is pointed at makes the felt longer, it never moves the hand under the pointer
    ring.style.height = ring.getBoundingClientRect().height + "px";
  }
  placeTrick();
}

let queued = false;
export function watchFit() {
  window.addEventListener("resize", () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fitTable(); });
  });
}
