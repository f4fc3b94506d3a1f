// Pairing and passkeys. A browser is paired once, with the code askbridge
// shows on its own terminal (or in the link and QR code there, after '#',
// which the browser never sends): the code buys a session in two halves,
// an HttpOnly cookie and a key kept here in localStorage (per origin, port
// included, so another service on this host never gets it), and, where the
// browser has an authenticator, a passkey that every approval then needs.
// Loaded before app.js, whose el() and status() it calls.
"use strict";

const KEY = "askbridge-key";
const sessionKey = () => localStorage.getItem(KEY) || "";

// pairCode is the code in the address (#pair=CODE), taken out of the
// address bar and the history at once.
const pairCode = (() => {
  const m = /^#pair=([0-9A-Za-z-]+)$/.exec(location.hash);
  if (m) history.replaceState(null, "", location.pathname);
  return m ? m[1] : "";
})();

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
  const name = el("input", { id: "pair-name", autocomplete: "off", value: navigator.platform || "" });
  const skip = el("input", { type: "checkbox", id: "pair-skip" });
  const noPasskey = el("input", { type: "checkbox", id: "pair-nopasskey" });
  const error = el("p", { class: "error", role: "alert" });
  const ask = el("button", { type: "button", id: "pair-new", text: "Show a new code on askbridge's terminal" });
  box.append(
    el("h2", { text: "Pair this browser" }),
    el("p", { text: "Type the pairing code askbridge shows on its terminal (askbridge hub pair prints one for the hub). It works once, for 5 minutes." }),
    el("label", { for: "pair-code", text: "Code " }), code, " ",
    el("label", { for: "pair-name", text: "This device " }), name,
    el("p", {}, skip, el("label", { for: "pair-skip", text: " Pair without a passkey: this browser has no fingerprint, face, PIN or security key. It answers questions, but approves the agent's tool calls only if you also tick:" })),
    el("p", {}, noPasskey, el("label", { for: "pair-nopasskey", text: " Let it approve without a passkey (weaker: whoever gets its session could approve)." })),
    el("div", { class: "actions" }, el("button", { type: "submit", class: "primary", text: "Pair" }), ask), error);
  document.body.append(box);
  ask.addEventListener("click", async () => {
    try { status(`A new code is on ${(await post("/pair/new")).shown}.`); } catch (e) { error.textContent = e.message; }
  });
  // The code is spent by /pair/begin: a passkey that fails can be tried
  // again, or skipped, with the same ticket.
  let begun = null;
  box.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      if (!begun) begun = await post("/pair/begin", { code: code.value, name: name.value });
      let credential = null;
      if (begun.publicKey && window.PublicKeyCredential && !skip.checked) {
        try {
          const options = PublicKeyCredential.parseCreationOptionsFromJSON(begun.publicKey.publicKey);
          credential = (await navigator.credentials.create({ publicKey: options })).toJSON();
        } catch (e) {
          throw new Error(`No passkey was made (${e.message}): try again, or pair without one.`);
        }
      } else if (!skip.checked && begun.noPasskey) {
        status(`No passkey here: ${begun.noPasskey}`);
      }
      const ticket = begun.ticket;
      begun = null;
      const done = await post("/pair/finish", { ticket, name: name.value, credential, noPasskeyApprovals: noPasskey.checked });
      localStorage.setItem(KEY, done.key);
      localStorage.setItem(HUB_KEY, done.hubKey); // prove.js holds the server to it
      box.remove();
      main.hidden = false;
      status(`Paired as “${done.device.name}”${done.device.passkey ? " with a passkey" : ""}.`);
      paired();
    } catch (e) {
      error.textContent = e.message;
    }
  });
}

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
      await revokeDevice(d.id).catch((e) => status(e.message));
      if (d.this) location.reload(); else devicesList();
    });
    list.append(el("li", { "data-device": d.id },
      el("span", { text: `${d.name}${d.this ? " (this browser)" : ""} · ${d.passkey ? "passkey" : d.noPasskeyApprovals ? "approves without a passkey" : "questions only"} · paired ${new Date(d.paired).toLocaleDateString()} ` }), revoke));
  }
}
