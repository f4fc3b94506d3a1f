// Drives the hub's page in Chromium as an Android phone (390 × 844, touch)
// whose push service takes connections and never answers (Chromium's GCM
// endpoints pointed at HANG_PORT on loopback). Pairs from the link with a
// passkey (a DevTools virtual authenticator); denies an approval with a
// reason; answers the question the test then asks; taps "Notify this
// device". Every tap is checked: each status line whose words it changed
// ([role=status], [role=alert], .said, .error) must be inside the
// viewport. Prints what it saw, one fact a line; screenshots of each
// screen go to SHOTS/phone-*.png.
// Usage: node phone.mjs URL CODE HANG_PORT SHOTS
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [url, code, hang, shots] = process.argv.slice(2);
const dead = `http://127.0.0.1:${hang}`;
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
// A profile on disk, not an incognito context: Chromium offers no Push API
// in incognito.
const profile = mkdtempSync(join(tmpdir(), "askbridge-phone-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync",
    `--gcm-checkin-url=${dead}/checkin`, `--gcm-registration-url=${dead}/register`, `--gcm-mcs-endpoint=${dead}`],
  viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: ANDROID,
});
try {
  const page = await context.newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const shot = (name) => page.screenshot({ path: `${shots}/phone-${name}.png` });

  // onScreen: inside the viewport and not under something else (the
  // line at the bottom of the screen).
  const onScreen = (loc) => loc.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.top >= 0 && r.bottom <= innerHeight && !!top && (e === top || e.contains(top));
  });

  // tap taps target, waits for done(), and checks every status line whose
  // words changed: it must be on screen.
  let taps = 0;
  const lines = () => page.$$eval("[role=status], [role=alert], .said, .error", (es) => es.map((e, i) => {
    const r = e.getBoundingClientRect();
    const shown = !!(e.textContent && (r.width || r.height) && !e.closest("[hidden]"));
    // On screen, and not under something else (the line at the bottom).
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const inView = r.top >= 0 && r.bottom <= innerHeight && !!top && (e === top || e.contains(top));
    return { i, text: e.textContent, shown, inView, id: e.id || e.className };
  }));
  async function tap(target, done) {
    const before = new Map((await lines()).map((l) => [l.id + "|" + l.text, true]));
    await target.tap();
    await done();
    taps++;
    for (const l of await lines()) {
      if (!l.shown || before.has(l.id + "|" + l.text)) continue;
      console.log(`${l.inView ? "IN VIEW" : "OUT OF VIEW"} ${l.id}: ${l.text}`);
    }
  }

  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto(url + "#pair=" + code);
  await page.waitForSelector("#pair", { timeout: 10000 });
  console.log("NAME " + (await page.inputValue("#pair-name")));
  console.log("PAIR TEXT " + (await page.textContent("#pair h2 + p")));
  await shot("pair");
  await tap(page.locator("#pair button.primary"), () => page.waitForSelector("#pair", { state: "detached", timeout: 15000 }));

  const card = page.locator("form.card", { has: page.locator(".approval") });
  await card.waitFor({ timeout: 15000 });
  const about = card.locator(".approval .about");
  console.log(`ABOUT ${await about.textContent()} (font: ${/mono/.test(await about.evaluate((e) => getComputedStyle(e).fontFamily)) ? "monospace" : "prose"})`);
  console.log("RUN " + JSON.stringify(await card.locator(".approval pre.run").first().textContent()));
  // The choices a thumb sees: one yes, one plain no (and the no that
  // tells why, which is neither).
  const choices = await card.locator("button:visible").allTextContents();
  console.log("CHOICES " + choices.join(" | "));
  const yes = choices.filter((c) => /^(allow|approve|yes|run|ok)\b/i.test(c)).length;
  const no = choices.filter((c) => /^(deny|no|reject|refuse)$/i.test(c.trim())).length;
  console.log(`YES ${yes} NO ${no}`);
  await shot("approval");

  await tap(card.locator("button.deny-open"), () => card.locator("input.deny-reason").waitFor({ state: "visible" }));
  const fits = await card.locator("input.deny-reason").evaluate((e) => {
    const cs = getComputedStyle(e);
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
    const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return `${ctx.measureText(e.placeholder).width <= room} (${Math.round(ctx.measureText(e.placeholder).width)} of ${Math.round(room)} px)`;
  });
  console.log("PLACEHOLDER FITS " + fits);
  await card.locator("input.deny-reason").fill("move it to archive/ instead");
  await shot("deny");
  await tap(card.locator("button.deny-send"), () => page.waitForFunction(() => !document.querySelector("form.card .approval") && !document.getElementById("told").hidden, null, { timeout: 15000 }));
  console.log("TOLD " + (await page.textContent("#told")));
  await shot("denied");
  console.log("DENIED");

  // The test asks a question now: the card comes, and the old result goes.
  const q = page.locator("form.card", { hasText: "Which database?" });
  await q.waitFor({ timeout: 15000 });
  const stillTold = await page.evaluate(() => !document.getElementById("told").hidden);
  await page.waitForFunction(() => document.getElementById("told").hidden, null, { timeout: 3000 });
  console.log(stillTold ? "STALE CLEARED" : "TOLD GONE BEFORE THE CARD CAME");
  await tap(q.locator("label.option", { hasText: "SQLite" }), async () => {});
  await tap(q.locator("button.primary"), () => page.waitForFunction(() => !document.querySelector("form.card") && !document.getElementById("told").hidden, null, { timeout: 15000 }));
  console.log("TOLD " + (await page.textContent("#told")));

  // Notify this device, with the push service unreachable.
  await context.grantPermissions(["notifications"], { origin: new URL(url).origin }); // the user's "Allow"
  const push = page.locator("#push button");
  await push.waitFor({ timeout: 15000 });
  await push.scrollIntoViewIfNeeded();
  const started = Date.now();
  await tap(push, () => page.waitForFunction(() => /Subscribing/.test(document.querySelector("#push .said")?.textContent || ""), null, { timeout: 10000 }));
  console.log("PUSH PROGRESS " + (await page.textContent("#push .said")));
  const progress = await onScreen(page.locator("#push .said"));
  console.log(`${progress ? "IN VIEW" : "OUT OF VIEW"} push progress`);
  await shot("subscribing");
  await page.waitForFunction(() => document.querySelector("#push .said.failed, #push .said:not(:empty)") &&
    !/…$/.test(document.querySelector("#push .said").textContent), null, { timeout: 40000 });
  console.log(`PUSH FINAL ${await page.textContent("#push .said")} AFTER ${Date.now() - started} ms`);
  const final = await onScreen(page.locator("#push .said"));
  console.log(`${final ? "IN VIEW" : "OUT OF VIEW"} push final`);
  console.log("PUSH BUTTON " + (await push.textContent()));
  await shot("push");

  await page.waitForSelector("#decisions li.decision", { timeout: 10000 });
  for (const d of await page.$$eval("#decisions li.decision > span", (es) => es.map((e) => e.textContent))) console.log("DECISION " + d);
  console.log("DIGESTS " + (await page.evaluate(() => (document.body.innerText.match(/sha256:/g) || []).length)));
  console.log(`TAPS ${taps} IN VIEW`);
} catch (e) {
  for (const p of context.pages()) {
    console.log("PAGE STATUS " + (await p.textContent("#status").catch(() => "?")) + " SAID " +
      (await p.$$eval(".said, .error, #told", (es) => es.map((x) => x.textContent).join(" | ")).catch(() => "?")));
  }
  throw e;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
