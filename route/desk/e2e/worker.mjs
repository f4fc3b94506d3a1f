// Drives the hub's page in Debian's Chromium through a squat that leaves a
// service worker behind: the page pairs with a passkey and goes live; on
// "CLOSED" (the hub killed) it sees it go; on "DOWN" (another user holds
// the port) the tab reloads and gets the squatter's page, which registers
// its worker; on "BACK" (the squatter gone, the hub again, two approvals
// waiting) the tab reloads, and after a moment, as a user would, the user
// clicks Allow on the harmless one with their passkey; if the page asks to
// pair again first (its storage cleared), the user pairs with AGAIN.
// Prints what it saw, one fact a line.
// Usage: node worker.mjs URL CODE AGAIN
import { chromium } from "playwright-core";
import { createInterface } from "node:readline";
import { pair } from "./pair.mjs";

const [url, code, again] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async (want) => {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error("stdin ended before " + want);
    if (value.trim() === want) return;
  }
};
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const workers = (page) => page.evaluate(async () =>
  (await navigator.serviceWorker.getRegistrations()).map((r) => (r.active || r.waiting || r.installing || {}).scriptURL).join(" ") || "none");
try {
  const page = await (await browser.newContext()).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code, { passkey: true });
  await page.waitForFunction(() => /^Live/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  console.log("LIVE");
  await next("CLOSED");
  await page.waitForFunction(() => !/^Live/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  console.log("NOT LIVE");

  await next("DOWN");
  await page.reload();
  await page.waitForFunction(() => document.title.startsWith("SQUATTED"), null, { timeout: 20000 });
  console.log("SQUATTER " + (await page.title()));

  await next("BACK");
  const reloaded = Date.now();
  await page.reload();
  // A user's moment before the click (at most 8 s), in which the browser
  // checks the workers the page is served through; the removal, if any,
  // ends it.
  const removed = await page.waitForSelector("#worker-removed", { timeout: 8000 }).then(() => Date.now() - reloaded, () => -1);
  await page.waitForLoadState();
  if (await page.locator("#pair").count()) {
    console.log("NOTICE " + (await page.textContent("#worker-removed").catch(() => "none")));
    console.log("PAIR AGAIN");
    await page.fill("#pair-code", again);
    await page.fill("#pair-name", "test browser again");
    await page.click("#pair button.primary");
    await page.waitForSelector("#pair", { state: "detached", timeout: 15000 });
  }
  const card = page.locator("form.card", { hasText: "ls -la" });
  await card.waitFor({ timeout: 15000 });
  console.log("CARDS " + (await page.locator("form.card").count()));
  await card.locator("label.option", { hasText: "Allow once" }).click();
  await card.locator("button.primary").click();
  await page.waitForFunction(() => ![...document.querySelectorAll("form.card")].some((c) => c.textContent.includes("ls -la")) ||
    [...document.querySelectorAll("form.card .error")].some((e) => e.textContent), null, { timeout: 15000 }).catch(() => {});
  console.log("CLICKED");
  console.log("WORKERS " + (await workers(page)));
  console.log("REMOVED AFTER MS " + (await removed));
  console.log("DONE");
} finally {
  await browser.close();
}
