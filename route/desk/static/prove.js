// The page never sends its session's secret. The pairing answer carries
// the hub's public key (kept here, HUB_KEY) and the key this page proves
// its requests with (REQUEST_KEY). Before every request to the API the
// page asks the server to sign a fresh nonce with the hub's key (GET
// /api/prove, sent without the cookie) and checks the signature
// (WebCrypto Ed25519); the same answer gives a one-time ticket, and the
// request then carries a MAC (HMAC-SHA256 under the request key) over
// that ticket, its method, its path and the SHA-256 of its body. A
// server that cannot prove itself (another process holding the port
// while the hub is down) gets no request from this tab: it fails and is
// retried, and goes through once the hub is back. One that took the port
// in the instant after the proof gets that request alone: its ticket is
// spent or unknown at the hub, and its MAC fits no other request.
// The cookie half of the session the browser sends by itself.
// Loaded before pair.js and app.js, whose fetch calls it wraps.
"use strict";

const HUB_KEY = "askbridge-hub-key";
const REQUEST_KEY = "askbridge-request-key";
const PROOF_CONTEXT = "askbridge page proof v1";
const SESSION_HEADER = "X-Askbridge-Key";

const b64url = {
  encode: (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  decode: (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
};

const plainFetch = window.fetch.bind(window);

// hubProves resolves to a fresh ticket once the server has signed a
// nonce of this page's with the key kept at pairing (stored), and throws
// otherwise. Where the page has no WebCrypto (plain HTTP beyond
// loopback, --allow-remote-http, already clear text) nothing is checked.
async function hubProves(stored) {
  const nonce = b64url.encode(crypto.getRandomValues(new Uint8Array(32)));
  let answer = {};
  try {
    const res = await plainFetch(`/api/prove?nonce=${nonce}`, { credentials: "omit", cache: "no-store" });
    answer = await res.json();
  } catch (e) {
    answer = {};
  }
  if (window.isSecureContext) {
    const key = await crypto.subtle.importKey("raw", b64url.decode(stored.replace(/^ed25519:/, "")), { name: "Ed25519" }, false, ["verify"]);
    const message = new TextEncoder().encode(`${PROOF_CONTEXT}\n${location.host}\n${nonce}`);
    if (!(await crypto.subtle.verify({ name: "Ed25519" }, key, b64url.decode(answer.sig || ""), message))) {
      throw new Error("The server at this address did not prove it is the hub this browser paired with: nothing was sent to it. Is the hub running?");
    }
  }
  if (!answer.ticket) throw new Error("The hub gave no ticket to prove this request with: is it up to date?");
  return answer.ticket;
}

// requestMAC is the proof of one request (the server's RequestMAC,
// auth_mac.go).
async function requestMAC(ticket, method, url, body) {
  const enc = new TextEncoder();
  const sum = Array.from(sha256(typeof body === "string" ? enc.encode(body) : new Uint8Array(0)), (b) => b.toString(16).padStart(2, "0")).join("");
  const message = enc.encode(`askbridge request v1\n${ticket}\n${method}\n${url.pathname}${url.search}\n${sum}`);
  return b64url.encode(hmacSHA256(b64url.decode(localStorage.getItem(REQUEST_KEY)), message));
}

// fetch, for a request marked with the session header (api() and the
// event stream mark theirs), takes the header off, has the server prove
// itself, and proves the request with a MAC bound to it. A browser paired
// before requests were proved so has no request key: nothing of its
// session is sent, and the server's 401 has it pair again.
window.fetch = async (input, init) => {
  const headers = new Headers((init && init.headers) || {});
  if (headers.has(SESSION_HEADER)) {
    headers.delete(SESSION_HEADER);
    const stored = localStorage.getItem(HUB_KEY);
    if (stored && localStorage.getItem(REQUEST_KEY)) {
      const ticket = await hubProves(stored);
      const url = new URL(typeof input === "string" ? input : input.url, location.href);
      headers.set("X-Askbridge-Ticket", ticket);
      headers.set("X-Askbridge-Mac", await requestMAC(ticket, ((init && init.method) || "GET").toUpperCase(), url, init && init.body));
    }
    init = { ...init, headers };
  }
  return plainFetch(input, init);
};

// sha256 and hmacSHA256 are plain JavaScript rather than WebCrypto so that
// a page without WebCrypto (plain HTTP beyond loopback) proves its
// requests too, by one path. The constants are the fractional parts of
// the primes' square and cube roots, as FIPS 180-4 defines them.
const SHA256_K = new Uint32Array(64), SHA256_H = new Uint32Array(8);
for (let p = 2, n = 0; n < 64; p++) {
  let prime = true;
  for (let d = 2; d * d <= p; d++) if (p % d === 0) prime = false;
  if (!prime) continue;
  if (n < 8) SHA256_H[n] = (Math.sqrt(p) % 1) * 2 ** 32;
  SHA256_K[n++] = (Math.cbrt(p) % 1) * 2 ** 32;
}

function sha256(bytes) {
  const padded = new Uint8Array(((bytes.length + 72) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 2 ** 29));
  view.setUint32(padded.length - 4, (bytes.length << 3) >>> 0);
  const h = Uint32Array.from(SHA256_H), w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 64; i++) {
      w[i] = i < 16 ? view.getUint32(off + 4 * i)
        : w[i - 16] + (rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3)) + w[i - 7] + (rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10));
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] += x; });
  }
  const out = new Uint8Array(32);
  h.forEach((x, i) => new DataView(out.buffer).setUint32(4 * i, x));
  return out;
}

function hmacSHA256(key, message) {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const pad = (x) => block.map((b) => b ^ x);
  const inner = sha256(Uint8Array.from([...pad(0x36), ...message]));
  return sha256(Uint8Array.from([...pad(0x5c), ...inner]));
}
