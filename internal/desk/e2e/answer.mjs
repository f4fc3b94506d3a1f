// Opens the desk page in Debian's Chromium, checks that agent text shows as
// text, answers the pending multi-select with the keyboard alone, and takes
// a screenshot. Usage: node answer.mjs URL SCREENSHOT
import { chromium } from "playwright-core";

const [url, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.on("dialog", (d) => { console.log("DIALOG " + d.message()); d.dismiss(); });
  await page.goto(url);
  await page.waitForSelector("form.card", { timeout: 10000 });
  const legend = await page.textContent("form.card legend");
  console.log("LEGEND " + legend);
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
  await page.waitForSelector(".history li", { timeout: 10000 });
  console.log("HISTORY " + (await page.textContent(".history")));
  console.log("DONE");
} finally {
  await browser.close();
}
