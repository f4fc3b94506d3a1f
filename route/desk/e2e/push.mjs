// Web Push to the page's service worker, in Chromium. The page pairs; it
// has not asked for notification permission (only a click asks); it
// registers its worker. The test then grants the permission as the user
// would and delivers, through DevTools (no push service is reachable
// here), each payload the hub sent to the local push service and that it
// decrypted, one JSON line a payload in FEED: an "asked" shows a
// notification with its tag, a "decided" closes it. Prints what it saw.
// Usage: node push.mjs URL CODE FEED COUNT
import { readFileSync, existsSync } from "node:fs";
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, feed, count] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code);
  await page.waitForSelector("#push button", { timeout: 15000 });
  console.log("BUTTON " + (await page.textContent("#push button")));
  console.log("PERMISSION " + (await page.evaluate(() => Notification.permission)));
  console.log("MANIFEST " + (await page.evaluate(async () => (await (await fetch("manifest.json")).json()).display)));
  await page.evaluate(() => navigator.serviceWorker.ready);
  console.log("WORKER READY");

  const origin = new URL(url).origin;
  await context.grantPermissions(["notifications"], { origin }); // the user's "Allow"
  const cdp = await context.newCDPSession(page);
  const regs = new Promise((resolve) => cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
    const r = e.registrations.find((x) => x.scopeURL.startsWith(origin) && !x.isDeleted);
    if (r) resolve(r.registrationId);
  }));
  await cdp.send("ServiceWorker.enable");
  console.log("GRANTED " + (await page.evaluate(() => Notification.permission)));
  const registrationId = await regs;

  const tags = () => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => `${n.tag}|${n.title}|${n.body}`));
  let done = 0;
  // Each push waits up to 30 s for its effect, over up to three
  // deliveries: the browser may have to start the stopped worker first,
  // which takes its time on a busy machine.
  for (const deadline = Date.now() + 150000; done < Number(count) && Date.now() < deadline;) {
    const lines = existsSync(feed) ? readFileSync(feed, "utf8").split("\n").filter(Boolean) : [];
    if (lines.length <= done) { await sleep(100); continue; }
    const data = lines[done++];
    const m = JSON.parse(data);
    // DevTools' delivery is not a push service's: a delivery whose effect
    // does not come within 10 s (the first, when the worker has not yet
    // heard of the permission just granted) is made again, up to three
    // times, as a push service retries. The worker's handling is the same
    // each time (a tag replaces, a close of a closed tag is nothing).
    let seen = false;
    for (let attempt = 1; !seen && attempt <= 3; attempt++) {
      if (attempt > 1) console.log(`REDELIVERED ${m.type} ${m.tag} (attempt ${attempt})`);
      await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data });
      for (const until = Date.now() + 10000; !seen && Date.now() < until;) {
        const shown = await tags();
        const has = shown.some((t) => t.startsWith(m.tag + "|"));
        if (m.type === "asked" && has) { console.log("SHOWN " + shown.find((t) => t.startsWith(m.tag + "|")).replace(/\n/g, " / ")); seen = true; }
        if (m.type === "decided" && !has) { console.log("CLOSED " + m.tag); seen = true; }
        if (!seen) await sleep(100);
      }
    }
    if (!seen) console.log(`MISSED ${m.type} ${m.tag} after three deliveries of 10 s; showing: ${(await tags()).join(" | ")}`);
  }
  console.log("DELIVERED " + done);
} finally {
  await browser.close();
}
