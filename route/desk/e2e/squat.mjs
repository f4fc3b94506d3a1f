// Drives the desk page in Debian's Chromium through a restart squat: the
// page pairs and goes live; on "DOWN" (the desk stopped, another process
// holding its port) the open tab goes on retrying as it does; on "BACK"
// (the desk again, same key) it must go live again. Prints what it saw,
// one fact a line; the Go side (browser_squat_test.go) watches the
// squatter's side.
// Usage: node squat.mjs URL CODE
import { chromium } from "playwright-core";
import { createInterface } from "node:readline";
import { pair } from "./pair.mjs";

const [url, code] = process.argv.slice(2);
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
try {
  const page = await (await browser.newContext()).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code);
  const live = () => page.waitForFunction(() => /^Live/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  await live();
  console.log("HUBKEY " + (await page.evaluate(() => localStorage.getItem("askbridge-hub-key"))));
  console.log("LIVE");
  await next("CLOSED");
  await page.waitForFunction(() => !/^Live/.test(document.getElementById("status").textContent), null, { timeout: 20000 });
  console.log("NOT LIVE");
  await next("DOWN");
  // The tab's own retries, and a click on anything that asks the API.
  await page.evaluate(() => fetch("/api/devices", { headers: { "X-Askbridge-Key": localStorage.getItem("askbridge-key") } }).catch((e) => console.log("REFUSED " + e.message)));
  // and one that changes something (api() marks it the same way)
  await page.evaluate(() => fetch("/question/q1/hold", { method: "POST", headers: { "X-Askbridge-Key": localStorage.getItem("askbridge-key") } }).catch((e) => console.log("REFUSED " + e.message)));
  await next("BACK");
  await live();
  console.log("LIVE AGAIN");
} finally {
  await browser.close();
}
