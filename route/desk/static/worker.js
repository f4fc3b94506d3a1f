// The page's side of worker.go: on every load it has the browser ask
// askbridge again for the script of every service worker registered at
// this origin (registration.update(), past every cache): one askbridge
// did not serve (another program's, registered while askbridge was down)
// is then replaced by the one that removes it, which reloads this tab.
// The hub's own worker, in front of this page, must say the version the
// hub says (GET /api/worker); one that does not is unregistered and the
// tab reloaded once. A tab that comes back from a removal (?worker-removed)
// says so: its storage was cleared, so it pairs again. Loaded first,
// before every other script.
"use strict";

(async () => {
  const back = new URLSearchParams(location.search).has("worker-removed");
  if (back) history.replaceState(null, "", location.pathname + location.hash);
  if (!("serviceWorker" in navigator)) return;
  let state;
  try {
    state = await (await fetch("/api/worker", { credentials: "omit", cache: "no-store" })).json();
  } catch {
    return; // not askbridge, or not up: nothing to hold the workers to
  }
  if (back) workerRemoved(state.removed || []);
  const regs = await navigator.serviceWorker.getRegistrations();
  const t0 = performance.now();
  await Promise.all(regs.map((r) => r.update().catch(() => {})));
  if (regs.length) console.log(`askbridge: ${regs.length} service worker(s) checked in ${Math.round(performance.now() - t0)} ms`);
  const front = navigator.serviceWorker.controller;
  if (!front) return;
  if (front.scriptURL !== new URL(state.script, location.origin).href) return foreignWorker(front, regs);
  if ((await workerVersion(front)) === state.version) return sessionStorage.removeItem("askbridge-worker-reload");
  if (sessionStorage.getItem("askbridge-worker-reload")) return;
  sessionStorage.setItem("askbridge-worker-reload", "1"); // once: never a reload loop
  for (const r of regs) await r.unregister().catch(() => {});
  location.reload();
})();

// foreignWorker: a worker askbridge did not serve is in front of this
// page. Its update brought askbridge's remover, which takes this tab over
// and reloads it; if it does not come, the page removes what is there
// itself, clears its storage (the other program could read and write it)
// and reloads.
async function foreignWorker(front, regs) {
  const taken = await new Promise((done) => {
    if (navigator.serviceWorker.controller !== front) return done(true);
    navigator.serviceWorker.addEventListener("controllerchange", () => done(true), { once: true });
    setTimeout(() => done(false), 3000);
  });
  if (taken) return;
  for (const r of regs) await r.unregister().catch(() => {});
  localStorage.clear();
  location.replace("/?worker-removed");
}

// workerVersion is what the worker says its version is (sw.js), or null.
function workerVersion(worker) {
  return new Promise((done) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = (ev) => done(ev.data);
    worker.postMessage("version", [ch.port2]);
    setTimeout(() => done(null), 1000);
  });
}

// workerRemoved says on the page what askbridge removed, and why.
function workerRemoved(removed) {
  const last = removed[removed.length - 1];
  const what = last ? ` (${last.script}, at ${new Date(last.at).toLocaleTimeString()})` : "";
  const p = document.createElement("p");
  p.id = "worker-removed";
  p.className = "error";
  p.setAttribute("role", "alert");
  p.textContent = `askbridge removed a service worker it did not serve${what}: another program held this page's address while askbridge was down, and could read this page's storage. This browser's storage was cleared: pair it again, and revoke its old entry in the paired devices.`;
  document.querySelector("header").append(p);
}
