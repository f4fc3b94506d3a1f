// Drives the desk page in Debian's Chromium at a phone's width (390 px) on
// an approval to edit a file: the card says what the agent said and planned
// before it asked, collapsed until tapped, and shows the edit as a line
// diff with context, every line marked, nothing wider than the screen.
// Prints what it saw, one fact a line.
// Usage: node context.mjs URL CODE SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code);
  const card = page.locator("form.card");
  await card.waitFor({ timeout: 15000 });
  const details = card.locator("details.context");
  console.log("OPEN " + (await details.evaluate((d) => d.open)));
  console.log("SUMMARY " + (await details.locator("summary").textContent()));
  await details.locator("summary").click();
  console.log("OPEN " + (await details.evaluate((d) => d.open)));
  console.log("WORDS " + JSON.stringify(await details.locator(".words").textContent()));
  for (const li of await details.locator("ol.plan li").all()) console.log("PLAN " + (await li.textContent()));
  for (const l of await card.locator("pre.diff span").all()) console.log("DIFF " + JSON.stringify((await l.textContent()).replace(/\n$/, "")));
  const wide = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  console.log(`WIDTH ${wide[0]} ${wide[1]}`);
  await page.screenshot({ path: shot, fullPage: true });
} finally {
  await browser.close();
}
