// Pairing and passkeys. A browser is paired once, with the code askbridge
// shows on its own terminal (or in the link and QR code there, after '#',
// which the browser never sends): the code buys a session in two halves,
// an HttpOnly cookie and a key kept here in localStorage (per origin, port
// included, so another service on this host never gets it), and, where the
// browser has an authenticator, a passkey that every approval then needs.
// Loaded before app.js, whose el() it calls, and feedback.js's tell() and
// said().
"use strict";

const KEY = "askbridge-key";
const sessionKey = () => localStorage.getItem(KEY) || "";

// takePairCode is the code in the address (#pair=CODE), taken out of the
// address bar and the history at once. pairCode is the latest link's: the
// one the page opened with, then any a link opened in this tab brings
// (pairLinks).
function takePairCode() {
  const m = /^#pair=([0-9A-Za-z-]+)$/.exec(location.hash);
  if (m) history.replaceState(null, "", location.pathname);
  return m ? m[1] : "";
}
let pairCode = takePairCode();

// deviceName is what the platform says this device is, "Chrome on
// Android", "Safari on iPhone", "Firefox on Linux": a name the devices
// list and the decisions can show, before the user gives a better one.
// (navigator.platform says "Linux armv8l" on an Android phone.)
function deviceName() {
  const ua = navigator.userAgent;
  const os = [[/iPhone/, "iPhone"], [/iPad/, "iPad"], [/Android/, "Android"], [/CrOS/, "ChromeOS"], [/Windows/, "Windows"],
    [/Macintosh|Mac OS X/, navigator.maxTouchPoints > 1 ? "iPad" : "macOS"], [/Linux/, "Linux"]].find(([re]) => re.test(ua));
  const browser = [[/EdgA?\//, "Edge"], [/OPR\//, "Opera"], [/SamsungBrowser\//, "Samsung Internet"], [/Firefox\/|FxiOS\//, "Firefox"],
    [/Chrome\/|CriOS\//, "Chrome"], [/Safari\//, "Safari"]].find(([re]) => re.test(ua));
  return [browser && browser[1], os && os[1]].filter(Boolean).join(" on ") || navigator.platform || "";
}

async function post(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}), credentials: "same-origin" });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// showPairing replaces the page with the pairing form; paired() runs once
// this browser holds a session.
function showPairing(paired) {
  const main = document.querySelector("main");
  main.hidden = true;
  const box = el("form", { class: "card pair", id: "pair" });
  const code = el("input", { id: "pair-code", autocomplete: "off", placeholder: "XXXX-XXXX-XXXX", value: pairCode });
  const name = el("input", { id: "pair-name", autocomplete: "off", value: deviceName() });
  const skip = el("input", { type: "checkbox", id: "pair-skip" });
  const noPasskey = el("input", { type: "checkbox", id: "pair-nopasskey" });
  const error = el("p", { class: "error", role: "alert" });
  const steps = pairSteps();
  const ask = el("button", { type: "button", id: "pair-new", text: "Show a new code on askbridge's terminal" });
  box.append(
    el("h2", { text: "Pair this browser" }),
    el("p", { text: pairCode ? "The code from your pairing link is filled in: name this device if you like, then press Pair. A code works once, for 5 minutes."
      : "Type the pairing code askbridge shows on its terminal (askbridge hub pair prints one for the hub), or open its link. It works once, for 5 minutes." }),
    el("label", { for: "pair-code", text: "Code " }), code, " ",
    el("label", { for: "pair-name", text: "This device " }), name,
    el("p", {}, skip, el("label", { for: "pair-skip", text: " Pair without a passkey: this browser has no fingerprint, face, PIN or security key. It answers questions, but approves the agent's tool calls only if you also tick:" })),
    el("p", {}, noPasskey, el("label", { for: "pair-nopasskey", text: " Let it approve without a passkey (weaker: whoever gets its session could approve)." })),
    el("div", { class: "actions" }, el("button", { type: "submit", class: "primary", text: "Pair" }), ask), steps.el, error);
  document.body.append(box);
  ask.addEventListener("click", async () => {
    try { steps.show(`A new code is on ${(await post("/pair/new")).shown}: type it above.`); } catch (e) { error.textContent = e.message; }
  });
  // The code is spent by /pair/begin: a passkey that fails can be tried
  // again, or skipped, with the same ticket, until it expires. A code a
  // new link brings replaces the form's, and ends an attempt under way
  // (attempt counts them; aborter ends a pending passkey prompt).
  let begun = null, attempt = 0, aborter = null;
  box.newCode = (fresh) => {
    attempt++;
    if (aborter) aborter.abort();
    begun = null;
    steps.stop();
    code.value = fresh;
    error.textContent = "";
    steps.show("A new code from the link: press Pair.");
  };
  box.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const mine = ++attempt;
    try {
      if (!begun || steps.expired()) {
        begun = null;
        steps.show("Checking the code…");
        const b = await post("/pair/begin", { code: code.value, name: name.value });
        if (mine !== attempt) return;
        begun = b;
        steps.expires(begun.remainingMs);
      }
      let credential = null;
      if (begun.publicKey && window.PublicKeyCredential && !skip.checked) {
        steps.show("Waiting for your passkey: your fingerprint, face, PIN or security key, as the browser asks.");
        aborter = new AbortController();
        try {
          const options = PublicKeyCredential.parseCreationOptionsFromJSON(begun.publicKey.publicKey);
          credential = (await navigator.credentials.create({ publicKey: options, signal: aborter.signal })).toJSON();
        } catch (e) {
          if (mine !== attempt) return; // a new link's code took over
          throw new Error(`No passkey was made (${e.message}): try again, or pair without one.`);
        } finally {
          aborter = null;
        }
        steps.show("Passkey made. Pairing this browser…");
      } else {
        steps.show(!skip.checked && begun.noPasskey ? `No passkey here (${begun.noPasskey}). Pairing this browser…` : "Pairing this browser…");
      }
      const ticket = begun.ticket;
      begun = null;
      const done = await post("/pair/finish", { ticket, name: name.value, credential, noPasskeyApprovals: noPasskey.checked });
      if (mine !== attempt) return;
      localStorage.setItem(KEY, done.key);
      localStorage.setItem(HUB_KEY, done.hubKey); // prove.js holds the server to it
      localStorage.setItem(REQUEST_KEY, done.mac); // and proves each request with it
      steps.stop();
      box.remove();
      main.hidden = false;
      tell(`Paired as “${done.device.name}”${done.device.passkey ? " with a passkey" : ""}.`); // feedback.js
      paired();
    } catch (e) {
      if (mine !== attempt) return;
      steps.show(begun ? "" : "Not paired.");
      error.textContent = e.message;
    }
  });
}

// pairSteps says where pairing is, and once the code is taken the time
// left to finish (a passkey prompt waits on the user), counting down.
function pairSteps() {
  const line = el("p", { class: "pair-step", id: "pair-step", role: "status", "aria-live": "polite" });
  let text = "", until = 0, timer = null;
  const left = () => until - Date.now();
  const render = () => {
    if (!until) { line.textContent = text; return; }
    const s = Math.max(0, Math.ceil(left() / 1000));
    const clock = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    line.textContent = s > 0 ? `${text} ${clock} left on this code.`.trim()
      : "The code has expired: ask for a new one (askbridge hub pair, or the button below), then press Pair.";
    if (s === 0) clearInterval(timer);
  };
  return {
    el: line,
    show(t) { text = t; render(); },
    expires(ms) {
      until = Date.now() + (ms > 0 ? ms : 5 * 60 * 1000);
      clearInterval(timer);
      timer = setInterval(render, 1000);
      render();
    },
    expired: () => until > 0 && left() <= 0,
    stop() { clearInterval(timer); until = 0; },
  };
}

// pairLinks takes a pairing link opened in this tab while it is open (the
// address changes to #pair=CODE, without a reload): its code replaces the
// form's, or brings the form back on a paired page.
window.addEventListener("hashchange", () => {
  const fresh = takePairCode();
  if (!fresh) return;
  pairCode = fresh;
  const box = document.getElementById("pair");
  if (box) box.newCode(fresh);
  else unpaired();
});

// presence gets the passkey assertion an approval's answer needs (null for
// a device allowed to approve without one). A denial's reason is vouched
// for with the answers.
async function presence(id, answers, step, reason) {
  const opts = await api("POST", `/question/${encodeURIComponent(id)}/presence`, { answers, step, reason });
  if (opts.noPasskey) return null;
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(opts.publicKey);
  const got = await navigator.credentials.get({ publicKey });
  return got.toJSON();
}

// revokeDevice unpairs device id; another device than this one takes
// this page's passkey, where it has one.
async function revokeDevice(id) {
  const path = `/api/devices/${encodeURIComponent(id)}`;
  const opts = await api("POST", `${path}/presence`, {});
  const body = {};
  if (!opts.noPasskey) {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(opts.publicKey);
    body.assertion = (await navigator.credentials.get({ publicKey })).toJSON();
  }
  await api("DELETE", path, body);
}

// devicesList shows the paired devices, each with a button to revoke it.
async function devicesList() {
  const list = document.getElementById("devices");
  if (!list) return;
  const devices = await api("GET", "/api/devices");
  list.textContent = "";
  for (const d of devices) {
    const revoke = el("button", { type: "button", text: "Revoke" });
    revoke.addEventListener("click", async () => {
      try {
        await revokeDevice(d.id);
      } catch (e) {
        said(revoke.parentElement, e.message, true); // feedback.js
        return;
      }
      if (d.this) location.reload(); else devicesList();
    });
    list.append(el("li", { "data-device": d.id },
      el("span", { text: `${d.name}${d.this ? " (this browser)" : ""} · ${d.passkey ? "passkey" : d.noPasskeyApprovals ? "approves without a passkey" : "questions only"} · paired ${new Date(d.paired).toLocaleDateString()} ` }), revoke));
  }
}
