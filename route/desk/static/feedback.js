// Feedback where the user is looking. On a phone the header's status line
// is a screen away from the buttons, so what a tap does is said beside the
// control that was used (said: progress and errors on a card, a line under
// a button), and a result whose control is gone (the card answered) in a
// line pinned to the bottom of the screen (tell), which clears itself and
// makes way when a new card comes. The header keeps the connection's
// state. Loaded before the other scripts, which call these; el() is
// app.js's, called only once the page runs.
"use strict";

const TOLD_FOR = 8000; // ms a result stays at the bottom of the screen
const TOLD_AT_LEAST = 2000; // ms a result stays even when a new card comes

let toldAt = 0, toldTimer = null;

function toldLine() {
  let line = document.getElementById("told");
  if (!line) {
    line = el("p", { id: "told", class: "told", role: "status", "aria-live": "polite", hidden: "" });
    document.body.append(line);
  }
  return line;
}

// tell shows a result at the bottom of the screen for TOLD_FOR.
function tell(text) {
  const line = toldLine();
  line.textContent = text;
  line.hidden = !text;
  toldAt = Date.now();
  clearTimeout(toldTimer);
  if (text) toldTimer = setTimeout(() => untell(), TOLD_FOR);
}

function untell() {
  const line = document.getElementById("told");
  if (line) { line.textContent = ""; line.hidden = true; }
}

// said puts text (progress, or with error an error) on a line beside
// anchor, a card's form (after its choices) or a control's box, and
// scrolls it into view; "" clears it.
function said(anchor, text, error) {
  let line = anchor.querySelector(":scope > .said");
  if (!line) {
    line = el("p", { class: "said", role: "status", "aria-live": "polite" });
    const last = anchor.querySelector(":scope > .error");
    if (last) last.before(line); else anchor.append(line);
  }
  if (text) untell(); // a new tap's word, not an old result over it
  line.textContent = text;
  line.classList.toggle("failed", !!error);
  line.hidden = !text;
  if (text) line.scrollIntoView({ block: "nearest" });
}

// bounded is promise, or a rejection with message once ms have passed:
// nothing the page waits on (a push service, a server) waits forever.
function bounded(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// A new card makes an old result stale: it goes, once it has been seen.
document.addEventListener("DOMContentLoaded", () => {
  const pending = document.getElementById("pending");
  if (!pending) return;
  const seen = new Set();
  new MutationObserver(() => {
    let fresh = false;
    for (const f of pending.querySelectorAll("form.card")) {
      if (!seen.has(f.dataset.key)) { seen.add(f.dataset.key); fresh = true; }
    }
    if (!fresh) return;
    const left = TOLD_AT_LEAST - (Date.now() - toldAt);
    clearTimeout(toldTimer);
    toldTimer = setTimeout(() => untell(), Math.max(0, left));
  }).observe(pending, { childList: true, subtree: true });
});
