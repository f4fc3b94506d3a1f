// Drives the desk page in Debian's Chromium, as one browser with two desks:
// checks that agent text shows as text, answers a multi-select with the
// keyboard alone, opens a second desk in another tab, reloads the first
// (its history must survive, its session must still work), then answers a
// set whose pick brings a follow-up. Prints what it saw, one fact a line.
// Usage: node answer.mjs URL_A CODE_A URL_B CODE_B SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [urlA, codeA, urlB, codeB, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  page.on("dialog", (d) => { console.log("DIALOG " + d.message()); d.dismiss(); });
  await pair(page, urlA, codeA);
  await page.waitForSelector("form.card", { timeout: 10000 });
  console.log("ADDRESS " + page.url());
  console.log("LEGEND " + (await page.textContent("form.card legend")));
  console.log("XSS " + (await page.evaluate(() => window.__xss === true)));
  console.log("SCRIPTS " + (await page.evaluate(() => document.querySelectorAll("main script").length)));
  // Keyboard only: focus the first checkbox, Space, move on with Tab.
  await page.focus('input[value="Go"]');
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab"); // Rust
  await page.keyboard.press("Tab"); // C
  await page.keyboard.press("Space");
  await page.screenshot({ path: shot, fullPage: true });
  await page.keyboard.press("Tab"); // Other text box
  await page.keyboard.press("Tab"); // Submit
  await page.keyboard.press("Enter");
  await page.waitForSelector("p.empty", { timeout: 10000 });
  await page.waitForFunction(() => document.querySelector(".history li") &&
    !document.querySelector(".history").textContent.includes("(pending)"), null, { timeout: 10000 });
  console.log("HISTORY " + (await page.textContent(".history")));

  // A second desk in the same browser, then the first one reloaded.
  const other = await context.newPage();
  await pair(other, urlB, codeB);
  await other.waitForFunction(() => document.getElementById("status").textContent.startsWith("Live"), null, { timeout: 10000 });
  console.log("OTHER DESK " + (await other.textContent("#status")));
  const cookies = await context.cookies();
  console.log("COOKIES " + cookies.map((c) => `${c.name} httpOnly=${c.httpOnly} sameSite=${c.sameSite}`).sort().join(", "));
  await page.reload();
  await page.waitForSelector(".history li", { timeout: 10000 });
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Live"), null, { timeout: 10000 });
  console.log("RELOADED HISTORY " + (await page.textContent(".history")));

  // A set whose pick brings a follow-up: the test asks it on this line.
  console.log("READY FOR THE FOLLOW-UP SET");
  await page.waitForSelector('form.card input[value="OAuth"]', { timeout: 15000 });
  await page.check('input[value="OAuth"]');
  await page.check('input[value="SQLite"]');
  await page.click("form.card button.primary");
  await page.waitForSelector("form.card legend .followup", { timeout: 10000 });
  console.log("FOLLOWUP " + (await page.textContent("form.card legend")));
  console.log("SO FAR " + (await page.textContent("form.card .answered")));
  await page.check('input[value="Google"]');
  await page.click("form.card button.primary");
  await page.waitForSelector("p.empty", { timeout: 10000 });
  // The page fetches the history after the pending list: wait for the
  // refresh that shows the second set answered, not its pending entry.
  await page.waitForFunction(() => document.querySelectorAll(".history li").length >= 2 &&
    !document.querySelector(".history").textContent.includes("(pending)"), null, { timeout: 10000 });
  console.log("HISTORY 2 " + (await page.textContent(".history")));
  console.log("DONE");
} catch (e) {
  // Say what the page showed, for the test's log.
  for (const p of browser.contexts().flatMap((c) => c.pages())) {
    console.log("PAGE " + p.url() + " STATUS " + (await p.textContent("#status").catch(() => "?")) +
      " ERRORS " + (await p.$$eval(".error", (es) => es.map((x) => x.textContent).join(" | ")).catch(() => "?")));
  }
  throw e;
} finally {
  await browser.close();
}
