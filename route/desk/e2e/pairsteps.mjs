// Pairs a desk page in Debian's Chromium as a user with several links
// does: the tab opened with a first pairing link gets a second link (the
// address changes, no reload), whose code replaces the form's; pairing
// with a passkey waits on the user (a DevTools virtual authenticator that
// does not answer by itself), and meanwhile the page says so and counts
// down the time left; a third link ends that wait and takes its code,
// which pairs once the user answers. Prints what it saw, one fact a line.
// Usage: node pairsteps.mjs URL CODE1 CODE2 CODE3
import { chromium } from "playwright-core";

const [url, code1, code2, code3] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const step = (page) => page.textContent("#pair-step");
try {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: false },
  });

  await page.goto(url + "#pair=" + code1);
  await page.waitForSelector("#pair", { timeout: 10000 });
  console.log("FIRST " + (await page.inputValue("#pair-code")));
  console.log("ADDRESS " + page.url());
  await page.goto(url + "#pair=" + code2); // the same tab: a fragment navigation
  await page.waitForFunction((c) => document.querySelector("#pair-code").value === c, code2, { timeout: 10000 });
  console.log("SECOND " + (await page.inputValue("#pair-code")));
  console.log("ADDRESS " + page.url());
  console.log("STEP " + (await step(page)));

  await page.click("#pair button.primary");
  await page.waitForFunction(() => /left on this code/.test(document.querySelector("#pair-step").textContent), null, { timeout: 10000 });
  const waiting = await step(page);
  console.log("WAITING " + waiting);
  // The count goes down while the prompt waits.
  const clock = (t) => { const m = /(\d+):(\d\d) left/.exec(t); return m ? Number(m[1]) * 60 + Number(m[2]) : -1; };
  await page.waitForFunction((before) => {
    const m = /(\d+):(\d\d) left/.exec(document.querySelector("#pair-step").textContent);
    return m && Number(m[1]) * 60 + Number(m[2]) < before;
  }, clock(waiting), { timeout: 10000 });
  console.log("COUNTED " + clock(waiting) + " " + clock(await step(page)));

  await page.goto(url + "#pair=" + code3);
  await page.waitForFunction((c) => document.querySelector("#pair-code").value === c, code3, { timeout: 10000 });
  console.log("THIRD " + (await page.inputValue("#pair-code")));
  console.log("STEP " + (await step(page)));
  console.log("ERROR " + JSON.stringify(await page.textContent("#pair .error")));

  await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
  await page.click("#pair button.primary");
  await page.waitForSelector("#pair", { state: "detached", timeout: 15000 });
  await page.waitForSelector("#devices li", { timeout: 10000 });
  console.log("DEVICE " + (await page.textContent("#devices li span")));
} finally {
  await browser.close();
}
