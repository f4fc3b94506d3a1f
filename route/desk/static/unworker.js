// Served by askbridge in place of any service worker it did not serve
// (worker.go): another program held this page's address while askbridge
// was down, and registered a worker that would stay in front of the page.
// The browser asked for that worker's script again and got this one,
// which takes its place, empties the origin's caches, unregisters itself,
// and sends the tabs it held back to the page through a one-time link,
// whose answer clears the origin's storage (Clear-Site-Data). It answers
// no request itself: everything goes to askbridge.
"use strict";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (ev) => ev.waitUntil((async () => {
  await self.clients.claim().catch(() => {});
  for (const name of await caches.keys()) await caches.delete(name).catch(() => {});
  await self.registration.unregister();
  const back = new URL("/?worker-removed=REMOVAL_TOKEN", self.location.origin).href;
  for (const tab of await self.clients.matchAll({ type: "window" })) {
    if (tab.navigate) await tab.navigate(back).catch(() => {});
  }
})()));
