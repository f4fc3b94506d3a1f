// Drives the hub's page in Debian's Chromium at a desktop's size and a
// phone's, each paired with its own code: the sets grouped by connection
// (agent, folder and client, with the askbridge's pid) with how long they
// waited, the count in the tab title, no sideways scrolling, options and
// buttons full-width on the phone; then, on the phone, answers the Codex
// set and cancels the other. Prints what it saw, one fact a line.
// Usage: node hub.mjs URL DESKTOP_CODE PHONE_CODE DESKTOP_SCREENSHOT PHONE_SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, desktopCode, phoneCode, desktopShot, phoneShot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// look prints what a page shows of the hub at its size.
async function look(page, name, code) {
  await pair(page, url, code);
  await page.waitForFunction(() => document.querySelectorAll("section.group").length === 2, null, { timeout: 10000 });
  await page.waitForFunction(() => /waiting/.test(document.querySelector(".group .waited").textContent), null, { timeout: 5000 });
  console.log(`${name} GROUPS ` + (await page.$$eval("section.group .who", (ws) => ws.map((w) => w.textContent).join(" | "))));
  console.log(`${name} CONNECTIONS ` + (await page.$$eval("section.group .conn", (ws) => ws.map((w) => w.textContent).join(" | "))));
  console.log(`${name} WAITED ` + (await page.textContent(".group .waited")));
  console.log(`${name} TITLE ` + (await page.title()));
  // A phone's browser widens its layout to fit what overflows (innerWidth
  // grows with it): measure against the screen's own width too.
  const width = page.viewportSize().width;
  const wide = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  console.log(`${name} OVERFLOW ${wide.scroll > wide.inner || wide.inner > width} (scrollWidth ${wide.scroll}, innerWidth ${wide.inner}, screen ${width})`);
}

try {
  const desktop = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  desktop.on("console", (m) => console.log("CONSOLE " + m.text()));
  await look(desktop, "DESKTOP", desktopCode);
  await desktop.screenshot({ path: desktopShot, fullPage: true });

  const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })).newPage();
  phone.on("console", (m) => console.log("CONSOLE " + m.text()));
  await look(phone, "PHONE", phoneCode);
  // Every option and button as wide as its card's content, and tall enough
  // for a thumb.
  const taps = await phone.$$eval("label.option, .actions button", (es) => es.map((e) => {
    const card = e.closest(".card");
    const cs = getComputedStyle(card);
    const inner = card.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const r = e.getBoundingClientRect();
    return { full: Math.abs(r.width - inner) < 1.5, height: r.height };
  }));
  console.log(`PHONE TAPS ${taps.length} FULL WIDTH ${taps.every((t) => t.full)} MIN HEIGHT ${Math.min(...taps.map((t) => t.height))}`);
  await phone.screenshot({ path: phoneShot, fullPage: true });
  const before = await phone.textContent(".group .waited");
  await phone.waitForFunction((b) => document.querySelector(".group .waited").textContent !== b, before, { timeout: 5000 });
  console.log("PHONE WAITED UPDATES " + before + " -> " + (await phone.textContent(".group .waited")));

  // Answer the Codex set by touch.
  const codex = phone.locator("section.group", { has: phone.locator(".who", { hasText: /^Codex/ }) });
  await codex.locator("label.option", { hasText: "3000" }).tap();
  await codex.locator("button.primary").tap();
  await phone.waitForFunction(() => document.querySelectorAll("section.group").length === 1, null, { timeout: 10000 });
  console.log("PHONE LEFT " + (await phone.textContent("section.group .who")));
  console.log("PHONE TITLE AFTER ANSWER " + (await phone.title()));
  await phone.locator("form.card button", { hasText: "Cancel" }).tap();
  await phone.waitForSelector("p.empty", { timeout: 10000 });
  await phone.waitForFunction(() => !document.title.startsWith("("), null, { timeout: 5000 });
  console.log("PHONE TITLE AT THE END " + (await phone.title()));
  // Both sets are in the history, each named by its agent and folder, once
  // the refresh after the cancel has reached the history (it is fetched
  // after the pending list, so "No question is waiting" can come first).
  await phone.waitForFunction(() => document.querySelectorAll("#history li .origin").length === 2 &&
    !document.querySelector("#history li .state.pending"), null, { timeout: 10000 });
  for (const li of await phone.$$eval("#history li", (ls) => ls.map((l) => l.textContent))) console.log("PHONE HISTORY " + li);
  console.log("DONE");
} catch (e) {
  for (const p of browser.contexts().flatMap((c) => c.pages())) {
    console.log("PAGE " + p.url() + " STATUS " + (await p.textContent("#status").catch(() => "?")) +
      " ERRORS " + (await p.$$eval(".error", (es) => es.map((x) => x.textContent).join(" | ")).catch(() => "?")));
  }
  throw e;
} finally {
  await browser.close();
}
