// Notifications on this device (the hub's Web Push): the page is an
// installable app (manifest.json, sw.js). Once paired, the devices list
// offers "Notify this device"; only that click asks the browser for
// permission, then subscribes with the hub's key (GET /api/push) and gives
// the hub the subscription (PUT /api/push). "Stop notifying" unsubscribes
// (DELETE /api/push): per device. A plain desk has no /api/push and shows
// nothing. A tapped notification opens the page at #q=ID: that card is
// brought into view. Loaded before app.js, whose el(), api() and status()
// it calls; app.js calls pushSetup() once paired.
"use strict";

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

function drawPush(reg) {
  const devices = document.getElementById("devices");
  if (!devices) return;
  let box = document.getElementById("push");
  if (!box) {
    box = el("p", { id: "push" });
    devices.after(box);
  }
  box.textContent = "";
  const on = pushState.subscribed && Notification.permission === "granted";
  const button = el("button", { type: "button", text: on ? "Stop notifying this device" : "Notify this device" });
  button.addEventListener("click", () => (on ? pushOff(reg) : pushOn(reg)).catch((e) => status(e.message)));
  box.append(el("span", { text: on ? "This device gets a notification for each question and approval. " : "" }), button);
}

async function pushOn(reg) {
  if ((await Notification.requestPermission()) !== "granted") {
    status("Notifications are not allowed for this page in the browser's settings.");
    return;
  }
  const key = Uint8Array.from(atob(pushState.key.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const sub = (await reg.pushManager.getSubscription()) || (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  await api("PUT", "/api/push", sub.toJSON());
  pushState.subscribed = true;
  status("This device will be notified.");
  drawPush(reg);
}

async function pushOff(reg) {
  const sub = await reg.pushManager.getSubscription();
  if (sub) await sub.unsubscribe().catch(() => {});
  await api("DELETE", "/api/push");
  pushState.subscribed = false;
  status("This device will not be notified.");
  drawPush(reg);
}

// showAsked brings the card a notification named (#q=ID) into view.
function showAsked() {
  const m = /^#q=([\w-]+)$/.exec(location.hash);
  if (!m) return;
  const card = document.querySelector(`form.card[data-id="${m[1]}"]`);
  if (card) card.scrollIntoView({ block: "center" });
}
window.addEventListener("hashchange", showAsked);
