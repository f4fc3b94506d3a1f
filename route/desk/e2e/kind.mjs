// Drives the desk page in Debian's Chromium on a question of a registered
// answer kind (permission.RegisterKind) whose typed text is a number: the
// card's Other field is the input its kind names, saying what to type, and
// a number typed there answers. Prints what it saw, one fact a line.
// Usage: node kind.mjs URL CODE
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  await pair(page, url, code);
  const card = page.locator("form.card").first();
  await card.waitFor({ timeout: 15000 });
  const other = card.locator("input[data-other]");
  console.log("TYPE " + (await other.getAttribute("type")));
  console.log("PLACEHOLDER " + (await other.getAttribute("placeholder")));
  await other.fill("12");
  await card.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 0, null, { timeout: 10000 });
  console.log("SENT");
} finally {
  await browser.close();
}
