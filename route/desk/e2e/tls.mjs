// Drives the desk page in Debian's Chromium over HTTPS, at a phone's size,
// reached by a name that is not loopback (as a phone on the LAN or tailnet
// reaches the hub): the page loads, its live stream connects, and an
// answer posted from its https origin is taken, once paired with the code
// (without a passkey: a browser makes none on a certificate it does not
// trust). Prints what it saw.
// Usage: node tls.mjs URL CODE HOST   (HOST is resolved to 127.0.0.1)
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, host] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    `--host-resolver-rules=MAP ${host} 127.0.0.1`],
});
try {
  // The test's certificate is self-signed and names 127.0.0.1 only.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code);
  console.log("ADDRESS " + page.url());
  const card = page.locator("form.card");
  await card.waitFor({ timeout: 15000 });
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Live"), null, { timeout: 10000 });
  console.log("STATUS " + (await page.textContent("#status")));
  await card.locator("label.option", { hasText: "Blue" }).click();
  await card.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 0, null, { timeout: 10000 });
  console.log("SENT");
} finally {
  await browser.close();
}
