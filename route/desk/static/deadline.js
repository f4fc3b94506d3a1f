// Deadlines of question sets (askbridge --question-timeout): a live
// countdown on each card whose set can time out, its last minute marked,
// and holds: working on a card's answers (focusing one, typing, choosing)
// asks the desk to keep that set open a minute longer (POST
// /question/{id}/hold), at most once every HOLD_EVERY per set, so that
// nobody is timed out while answering. Loaded before app.js, whose api()
// and status() it calls.
"use strict";

const HOLD_EVERY = 10000; // ms between two holds of one set
const LAST_MINUTE = 60000;
const deadlines = new Map(); // set id -> { end: this clock's ms when it times out, at: the deadline }
const lastHold = new Map(); // set id -> this clock's ms of its last hold
const warned = new Set(); // set ids whose last minute was announced

// noteDeadline takes the deadline a set carries (GET /question, an event,
// a hold's answer). The countdown runs on remainingMs, which does not
// depend on this machine's clock agreeing with askbridge's.
function noteDeadline(p) {
  if (!p || !p.id) return;
  if (!p.deadline) {
    deadlines.delete(p.id);
    return;
  }
  const end = typeof p.remainingMs === "number" ? Date.now() + p.remainingMs : Date.parse(p.deadline);
  if (end - Date.now() > LAST_MINUTE) warned.delete(p.id); // held off: warn again when it comes back
  deadlines.set(p.id, { end, at: new Date(p.deadline) });
  tick();
}

// forgetDeadlines drops the sets no longer pending.
function forgetDeadlines(pendingIds) {
  for (const m of [deadlines, lastHold, warned]) {
    for (const id of m.keys()) if (!pendingIds.has(id)) m.delete(id);
  }
}

// countdown is the card's countdown line, filled in by tick.
function countdown(p) {
  return el("p", { class: "countdown", role: "timer", "data-id": p.id });
}

function clock(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const now = Date.now();
  for (const c of document.querySelectorAll(".countdown[data-id]")) {
    const id = c.dataset.id;
    const d = deadlines.get(id);
    const card = c.closest(".card");
    if (!d) {
      c.textContent = "";
      card.classList.remove("expiring");
      continue;
    }
    const left = d.end - now;
    const last = left <= LAST_MINUTE;
    card.classList.toggle("expiring", last);
    c.textContent = left > 0
      ? `Answer within ${clock(left)} (by ${d.at.toLocaleTimeString()}); after that the agent goes on without your answer.`
      : "Time is up: the agent goes on without your answer.";
    if (last && left > 0 && !warned.has(id)) {
      warned.add(id);
      const header = [...card.querySelectorAll("legend .chip")].map((x) => x.textContent).join(", ");
      status(`“${header}” times out in under a minute: answer it, or start answering to hold it.`);
    }
  }
}
setInterval(tick, 500);

// hold tells the desk someone is answering set id.
async function hold(id, card) {
  if (!deadlines.has(id)) return;
  const now = Date.now();
  if (now - (lastHold.get(id) || 0) < HOLD_EVERY) return;
  lastHold.set(id, now);
  try {
    noteDeadline(await api("POST", `/question/${encodeURIComponent(id)}/hold`));
  } catch (e) {
    // Resolved meanwhile (410 when it timed out): say so on the card;
    // the event that resolved it takes the card away.
    const error = card.querySelector(".error");
    if (error) error.textContent = e.message;
  }
}

// holdOnInteraction holds the card's set whenever one of its answer
// controls is focused, typed in or chosen.
function holdOnInteraction(card, id) {
  const on = (ev) => {
    if (ev.target.matches("input")) hold(id, card);
  };
  for (const type of ["focusin", "input", "change"]) card.addEventListener(type, on);
}
