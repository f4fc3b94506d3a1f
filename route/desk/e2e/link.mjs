// Drives the desk page in Debian's Chromium on a sign-in (a URL
// elicitation): the card shows the message, and the address in full as a
// link the user may follow (a new tab, no referrer) with its host; an
// address that is not http or https is shown as text, never a link. The
// page opens nothing by itself. Before that, an unpaired browser, and one
// whose stored key the desk no longer knows (revoked, or from before a
// restart), are told so and stay told: the page never claims there is
// nothing to answer. Prints what it saw, one fact a line.
// Usage: node link.mjs URL CODE SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const requests = [];
  context.on("request", (r) => requests.push(r.url()));
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const unpairedSays = async (label) => {
    await page.waitForSelector("#pair", { timeout: 10000 });
    await page.waitForTimeout(3000); // long enough for a retry or a refresh to overwrite it
    console.log(label + " " + (await page.textContent("#status")).trim());
    console.log(label + "-FORM " + (await page.locator("#pair").count()));
    console.log(label + "-CARDS " + (await page.locator("form.card:not(#pair)").count()));
  };
  await page.goto(url);
  await unpairedSays("UNPAIRED");
  await page.evaluate(() => localStorage.setItem("askbridge-key", "a-key-this-desk-never-gave"));
  await page.goto(url);
  await unpairedSays("STALE");
  await page.goto("about:blank"); // else the pairing link only changes the hash, and nothing reloads
  await pair(page, url, code);
  const cards = page.locator("form.card");
  await cards.first().waitFor({ timeout: 15000 });
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 2, null, { timeout: 10000 });
  const good = cards.filter({ hasText: "ABCD-12345" });
  const a = good.locator(".link a");
  console.log("HREF " + (await a.getAttribute("href")));
  console.log("TEXT " + (await a.textContent()));
  console.log("TARGET " + (await a.getAttribute("target")));
  console.log("REL " + (await a.getAttribute("rel")));
  console.log("HOST " + (await good.locator(".link .meta").last().textContent()));
  const bad = cards.filter({ hasText: "Evil" });
  console.log("BADLINKS " + (await bad.locator(".link a").count()));
  console.log("BADTEXT " + (await bad.locator(".link code").textContent()));
  console.log("FETCHED " + requests.filter((u) => !u.startsWith(new URL(url).origin)).length);
  await page.screenshot({ path: shot });
  await good.locator("label.option", { hasText: "I opened it" }).click();
  await good.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 1, null, { timeout: 10000 });
  console.log("SENT");
} finally {
  await browser.close();
}
