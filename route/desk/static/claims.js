// Claims: one device answers a card at a time. Working on a card (focusing
// one of its controls, typing, choosing) claims its set for this device
// (POST /question/{id}/hold, renewed at most every CLAIM_EVERY while the
// user goes on); a card another device claims says "Being answered on
// NAME" with a button to take it over, and its answer would be refused
// until then. Loaded before app.js, whose el(), api(), said() (feedback.js) and
// noteDeadline() (deadline.js) it calls.
"use strict";

const CLAIM_EVERY = 10000; // ms between two claims of one set by this page
const lastClaim = new Map(); // set id -> this clock's ms of its last claim
let myDevice = null; // this browser's device id (GET /api/device)

async function whoAmI() {
  if (myDevice === null) {
    myDevice = api("GET", "/api/device").then((d) => d.id, () => "");
  }
  return myDevice;
}

// showClaim puts the card's claim line: nothing when no other device has
// it.
async function showClaim(form, claim) {
  const me = await whoAmI();
  let line = form.querySelector(".claimed-by");
  const elsewhere = claim && claim.device !== me && !claim.mine && claim.remainingMs > 0;
  form.classList.toggle("claimed-elsewhere", !!elsewhere);
  if (!elsewhere) {
    if (line) line.remove();
    return;
  }
  if (!line) {
    line = el("div", { class: "claimed-by", role: "status" });
    form.prepend(line);
  }
  line.textContent = "";
  const take = el("button", { type: "button", class: "takeover", text: "Take over" });
  take.addEventListener("click", () => claimSet(form, form.dataset.id, true));
  line.append(el("span", { text: `Being answered on ${claim.name}.` }), take);
}

// claimSet claims (or with takeover takes over) set id for this device.
async function claimSet(form, id, takeover) {
  try {
    const res = await api("POST", `/question/${encodeURIComponent(id)}/hold`, takeover ? { takeover: true } : undefined);
    lastClaim.set(id, Date.now());
    if (typeof noteDeadline === "function" && res.deadline) noteDeadline(res);
    showClaim(form, res.claim);
    if (takeover) said(form, "You have taken this card over: answer it here."); // feedback.js
  } catch (e) {
    // Another device has it (409): the list says who.
    lastClaim.delete(id);
    const p = (await api("GET", "/question").catch(() => [])).find((x) => x.id === id);
    if (p) showClaim(form, p.claim);
    else {
      const error = form.querySelector(".error");
      if (error) error.textContent = e.message;
    }
  }
}

(window.cardHooks = window.cardHooks || []).push((form, p) => {
  showClaim(form, p.claim);
  const on = (ev) => {
    if (!ev.target.matches("input, button") || ev.target.classList.contains("takeover")) return;
    if (form.classList.contains("claimed-elsewhere")) return; // taking over is explicit
    if (typeof deadlines !== "undefined" && deadlines.has(p.id)) return; // deadline.js's hold is the same claim
    if (Date.now() - (lastClaim.get(p.id) || 0) < CLAIM_EVERY) return;
    lastClaim.set(p.id, Date.now());
    claimSet(form, p.id, false);
  };
  for (const type of ["focusin", "input", "change"]) form.addEventListener(type, on);
});

// A claim changed hands: say so on that card, whatever else it holds.
(window.claimHooks = window.claimHooks || []).push((p) => {
  if (!p || !p.id) return;
  for (const form of document.querySelectorAll(`form.card[data-id="${CSS.escape(p.id)}"]`)) {
    if (p.claim && p.claim.device) whoAmI().then((me) => { if (p.claim.device === me) lastClaim.set(p.id, Date.now()); });
    showClaim(form, p.claim);
  }
});
