// Notifications on this device (the hub's Web Push): the page is an
// installable app (manifest.json, sw.js). Once paired, the devices list
// offers "Notify this device"; only that click asks the browser for
// permission, then subscribes with the hub's key (GET /api/push) and gives
// the hub the subscription (PUT /api/push). "Stop notifying" unsubscribes
// (DELETE /api/push): per device. A plain desk has no /api/push and shows
// nothing. Each click says, beside the button, where it is and how it
// ended: the browser's push service can be unreachable (offline, a network
// that blocks it), and its subscribe() then never settles, so the page
// gives up after PUSH_WAIT with the likely cause and a retry. A tapped
// notification opens the page at #q=ID: that card is brought into view.
// Loaded before app.js, whose el() and api() it calls, and feedback.js's
// said() and bounded(); app.js calls pushSetup() once paired.
"use strict";

const PUSH_WAIT = 20000; // ms for the browser's push service to answer

let pushState = null;

async function pushSetup() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return;
  try {
    pushState = await api("GET", "/api/push");
  } catch {
    return; // no push here (a plain desk)
  }
  const reg = await navigator.serviceWorker.register("sw.js", { updateViaCache: "none" }).catch(() => null);
  if (!reg) return;
  drawPush(reg);
}

// drawPush draws the button, and after a click the line saying how it
// went (said, failed: it is an error).
function drawPush(reg, told, failed) {
  const devices = document.getElementById("devices");
  if (!devices) return;
  let box = document.getElementById("push");
  if (!box) {
    box = el("div", { id: "push", class: "push" });
    devices.after(box);
  }
  box.textContent = "";
  const on = pushState.subscribed && Notification.permission === "granted";
  const text = on ? "Stop notifying this device" : failed ? "Try again: notify this device" : "Notify this device";
  const button = el("button", { type: "button", text });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await (on ? pushOff(reg, box) : pushOn(reg, box));
    } catch (e) {
      drawPush(reg, e.message, true);
    }
  });
  box.append(el("span", { text: on ? "This device gets a notification for each question and approval. " : "" }), button);
  if (told) said(box, told, failed);
}

async function pushOn(reg, box) {
  said(box, "Asking the browser for permission…");
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error("Notifications are blocked for this page: allow them in the browser's site settings, then try again.");
  }
  said(box, "Subscribing…");
  const key = Uint8Array.from(atob(pushState.key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const sub = await bounded((async () => (await reg.pushManager.getSubscription()) ||
    reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }))(), PUSH_WAIT,
  `No answer from this browser's push service in ${PUSH_WAIT / 1000} s: the device may be offline, or this network blocks it (a VPN, a firewall, a captive portal).`)
    .catch((e) => { throw new Error(e.name === "AbortError" || e.name === "NotAllowedError" ? `This browser's push service refused: ${e.message}` : e.message); });
  said(box, "Telling the hub…");
  await bounded(api("PUT", "/api/push", sub.toJSON()), PUSH_WAIT, `No answer from the hub in ${PUSH_WAIT / 1000} s.`);
  pushState.subscribed = true;
  drawPush(reg, "This device will be notified.");
}

async function pushOff(reg, box) {
  said(box, "Stopping…");
  const sub = await bounded(reg.pushManager.getSubscription(), PUSH_WAIT, "").catch(() => null);
  if (sub) await bounded(sub.unsubscribe(), PUSH_WAIT, "").catch(() => {});
  await bounded(api("DELETE", "/api/push"), PUSH_WAIT, `No answer from the hub in ${PUSH_WAIT / 1000} s.`);
  pushState.subscribed = false;
  drawPush(reg, "This device will not be notified.");
}

// showAsked brings the card a notification named (#q=ID) into view.
function showAsked() {
  const m = /^#q=([\w-]+)$/.exec(location.hash);
  if (!m) return;
  const card = document.querySelector(`form.card[data-id="${m[1]}"]`);
  if (card) card.scrollIntoView({ block: "center" });
}
window.addEventListener("hashchange", showAsked);
