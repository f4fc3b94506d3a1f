// Drives the desk page in Debian's Chromium through question deadlines
// (askbridge --question-timeout): the countdown is shown and counts down,
// the last minute is marked, focusing an answer and typing one each hold
// their set (one hold call per set within 10 s), a hold made elsewhere
// reaches the page as a question.held event, and a set left alone times
// out. The test asks the questions when this prints READY, and holds a set
// itself when it prints READY FOR THE LONG HOLD. Prints what it saw, one
// fact a line.
// Usage: node deadline.mjs URL CODE
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1100, height: 800 } })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const holds = {};
  page.on("request", (r) => {
    const m = r.method() === "POST" && new URL(r.url()).pathname.match(/^\/question\/([^/]+)\/hold$/);
    if (m) holds[m[1]] = (holds[m[1]] || 0) + 1;
  });
  await pair(page, url, code);
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Live"), null, { timeout: 10000 });
  // Every status the page shows, however briefly.
  await page.evaluate(() => {
    window.__statuses = [];
    const s = document.getElementById("status");
    new MutationObserver(() => window.__statuses.push(s.textContent)).observe(s, { childList: true, characterData: true, subtree: true });
  });
  console.log("READY");

  await page.waitForFunction(() => document.querySelectorAll("form.card .countdown").length === 3, null, { timeout: 15000 });
  const card = (header) => page.locator("form.card", { has: page.locator("legend .chip", { hasText: header }) });
  const one = card("One"), two = card("Two");
  const text = async (c) => c.locator(".countdown").textContent();
  // Waits until the countdown of the card with that header shows at least min seconds.
  const atLeast = (header, min) => page.waitForFunction(([h, min]) => {
    const f = [...document.querySelectorAll("form.card")].find((f) => f.querySelector("legend .chip").textContent === h);
    const m = f && /within (\d+):(\d\d)/.exec(f.querySelector(".countdown").textContent);
    return m && Number(m[1]) * 60 + Number(m[2]) >= min;
  }, [header, min], { timeout: 10000 });

  console.log("COUNTDOWN1 " + (await text(one)));
  await page.waitForTimeout(1600);
  console.log("COUNTDOWN2 " + (await text(one)));
  console.log("EXPIRING " + (await one.evaluate((f) => f.classList.contains("expiring"))));

  // Focusing an answer holds its set.
  await one.locator('input[value="A"]').focus();
  await atLeast("One", 50);
  console.log("HELD ONE " + (await text(one)));
  // Typing holds too: an input event with no focus before it (a real
  // keystroke focuses first, which would hold on its own).
  await two.locator("input[type=text]").evaluate((i) => {
    i.value = "typed";
    i.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await atLeast("Two", 50);
  console.log("HELD TWO " + (await text(two)));
  // More work on One within 10 s makes no second call.
  await one.locator('input[value="B"]').check();
  await one.locator("input[type=text]").pressSequentially("maybe");
  await one.locator("input[type=text]").fill("");
  await page.waitForTimeout(300);
  console.log("HOLD CALLS " + JSON.stringify(holds));

  console.log("READY FOR THE LONG HOLD");
  await atLeast("Two", 100);
  console.log("LONG HOLD " + (await text(two)) + " EXPIRING " + (await two.evaluate((f) => f.classList.contains("expiring"))));

  // Three, left alone, times out; One and Two, held, stay.
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 2, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector(".history .state.timeout"), null, { timeout: 10000 });
  console.log("HISTORY " + (await page.textContent(".history")));
  console.log("STATUSES " + (await page.evaluate(() => window.__statuses.join(" | "))));

  // The held sets are still answerable; One kept its pick through the
  // page's redraws.
  await one.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 1, null, { timeout: 10000 });
  await two.locator("input[type=text]").fill("");
  await two.locator('input[value="A"]').check();
  await two.locator("button.primary").click();
  await page.waitForSelector("p.empty", { timeout: 10000 });
  console.log("DONE");
} catch (e) {
  for (const p of browser.contexts().flatMap((c) => c.pages())) {
    console.log("PAGE " + p.url() + " STATUS " + (await p.textContent("#status").catch(() => "?")) +
      " CARDS " + (await p.$$eval("form.card", (fs) => fs.map((f) => f.textContent).join(" || ")).catch(() => "?")));
  }
  throw e;
} finally {
  await browser.close();
}
