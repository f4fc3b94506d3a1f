// The page sends its session key only to the server it paired with. The
// pairing answer carries the hub's public key (kept here, HUB_KEY); before
// every request that carries the session key, the page asks the server to
// sign a fresh nonce with it (GET /api/prove, sent without the cookie) and
// checks the signature (WebCrypto Ed25519). A server that cannot (another
// process holding the port while the hub is down) gets no key from this
// tab: the request fails and is retried, and goes through once the hub is
// back. The cookie half of the session the browser sends by itself, and to
// every port of the host: alone it is no session (pairing.Devices.Check
// wants both), so the key is the half to hold back.
// Loaded before pair.js and app.js, whose fetch calls it wraps.
"use strict";

const HUB_KEY = "askbridge-hub-key";
const PROOF_CONTEXT = "askbridge page proof v1";
const SESSION_HEADER = "X-Askbridge-Key";

const b64url = {
  encode: (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  decode: (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
};

const plainFetch = window.fetch.bind(window);

// hubProves resolves once the server has signed a nonce of this page's
// with the key kept at pairing, and throws otherwise.
async function hubProves(stored) {
  const nonce = b64url.encode(crypto.getRandomValues(new Uint8Array(32)));
  let sig;
  try {
    const res = await plainFetch(`/api/prove?nonce=${nonce}`, { credentials: "omit", cache: "no-store" });
    sig = b64url.decode((await res.json()).sig || "");
  } catch (e) {
    sig = new Uint8Array(0);
  }
  const key = await crypto.subtle.importKey("raw", b64url.decode(stored.replace(/^ed25519:/, "")), { name: "Ed25519" }, false, ["verify"]);
  const message = new TextEncoder().encode(`${PROOF_CONTEXT}\n${location.host}\n${nonce}`);
  if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, sig, message))) {
    throw new Error("The server at this address did not prove it is the hub this browser paired with: this browser's session was not sent to it. Is the hub running?");
  }
}

// fetch, for a request carrying the session key, first has the server
// prove itself. A browser paired before pairing gave a key has none to
// hold the server to: its session is not sent, and the server's 401 has
// it pair again. Where the page has no WebCrypto (plain HTTP beyond
// loopback, --allow-remote-http, already clear text) nothing is checked.
window.fetch = async (input, init) => {
  const headers = new Headers((init && init.headers) || {});
  if (headers.get(SESSION_HEADER) && window.isSecureContext) {
    const stored = localStorage.getItem(HUB_KEY);
    if (!stored) {
      headers.delete(SESSION_HEADER);
      init = { ...init, headers };
    } else {
      await hubProves(stored);
    }
  }
  return plainFetch(input, init);
};
