// Drives the page on what an approval grants, Deny… and claims. The lasting
// option is framed apart and lists its changes; Deny… sends the reject
// option with a reason (the passkey made when pairing vouches for it); a
// card another device claims says so, refuses to be answered until Take
// over, then is answered here. Prints what it saw, one fact a line.
// Usage: node decide.mjs URL CODE
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code, { passkey: true });
  const approval = page.locator("form.card", { has: page.locator(".approval") });
  await approval.waitFor({ timeout: 15000 });
  const always = approval.locator("label.option", { hasText: "Always allow" });
  console.log("ALWAYS CLASS " + (await always.getAttribute("class")));
  console.log("ALWAYS BADGE " + (await always.locator(".lasting-badge").textContent()));
  console.log("ALWAYS CHANGES " + (await always.locator("ul.grants li").allTextContents()).join(" | "));
  console.log("ALWAYS BORDER " + (await always.evaluate((e) => getComputedStyle(e).borderStyle)));
  const once = approval.locator("label.option", { hasText: "Allow once" });
  console.log("ONCE CLASS " + (await once.getAttribute("class")));
  console.log("ONCE BORDER " + (await once.evaluate((e) => getComputedStyle(e).borderStyle)));

  await approval.locator("button.deny-open").click();
  await approval.locator("input.deny-reason").fill("move it to archive/ instead");
  await approval.locator("button.deny-send").click();
  await page.waitForFunction(() => !document.querySelector("form.card .approval"), null, { timeout: 15000 });
  console.log("DENIED");

  const q = page.locator("form.card", { hasText: "Which database?" });
  await q.waitFor({ timeout: 15000 });
  await q.locator(".claimed-by").waitFor({ timeout: 10000 });
  console.log("CLAIMED " + (await q.locator(".claimed-by span").textContent()));
  await q.locator("button.takeover").click();
  await q.locator(".claimed-by").waitFor({ state: "detached", timeout: 10000 });
  console.log("TAKEN OVER");
  await q.locator("label.option", { hasText: "SQLite" }).click();
  await q.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 0, null, { timeout: 10000 });
  console.log("ANSWERED");
} finally {
  await browser.close();
}
