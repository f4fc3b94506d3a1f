// askbridge's service worker: the hub's Web Push (route/webpush). A push
// is "asked" (a set waits: a notification tagged by the set, its question
// or command and the choices) or "decided" (the set was decided anywhere:
// its notification is closed). Tapping a notification opens that card;
// nothing is ever answered from the notification itself (an approval takes
// the passkey, on the page).
//
// Its bytes are the same for every run of a build (the hub fills in
// VERSION, their hash): a browser's update check installs it only over a
// worker that is not this one, such as one another program registered at
// /sw.js while the hub was down (worker.go). The tabs that worker held
// are reloaded, so no page it served stays open. The page asks for
// VERSION (worker.js) to check the worker in front of it is the hub's.
"use strict";

const VERSION = "WORKER_VERSION";
let replaced = false; // another worker was active here before this one

self.addEventListener("install", () => {
  replaced = Boolean(self.registration.active);
  self.skipWaiting();
});
self.addEventListener("activate", (ev) => ev.waitUntil((async () => {
  await self.clients.claim();
  if (!replaced) return;
  for (const tab of await self.clients.matchAll({ type: "window" })) {
    if (tab.navigate) await tab.navigate(tab.url).catch(() => {});
  }
})()));
self.addEventListener("message", (ev) => {
  if (ev.data === "version" && ev.ports[0]) ev.ports[0].postMessage(VERSION);
});

self.addEventListener("push", (ev) => {
  let m = {};
  try { m = ev.data ? ev.data.json() : {}; } catch { m = {}; }
  ev.waitUntil((async () => {
    if (m.type === "decided") {
      for (const n of await self.registration.getNotifications({ tag: m.tag })) n.close();
      return;
    }
    if (m.type !== "asked") return;
    const choices = Array.isArray(m.choices) && m.choices.length ? "Choices: " + m.choices.join(" · ") : "";
    // --push-content none: no word of the set; the page shows it.
    const bare = m.kind === "approval" ? "An approval waits" : "A question waits";
    await self.registration.showNotification(m.title || "askbridge: " + bare, {
      body: [m.body, choices].filter(Boolean).join("\n") || "Open to see it.",
      tag: m.tag,
      renotify: true,
      requireInteraction: m.kind === "approval",
      data: { url: m.url || "/", id: m.id },
    });
  })());
});

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const url = new URL((ev.notification.data && ev.notification.data.url) || "/", self.registration.scope).href;
  ev.waitUntil((async () => {
    for (const c of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (new URL(c.url).origin === self.location.origin) {
        if (c.navigate) await c.navigate(url).catch(() => {});
        return c.focus();
      }
    }
    return self.clients.openWindow(url);
  })());
});
