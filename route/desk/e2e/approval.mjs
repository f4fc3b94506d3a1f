// Drives the desk page in Debian's Chromium on an approval (askbridge
// --approvals): the card shows what will run in a monospace block, marks
// the lasting option, offers no "Other". The browser pairs with a passkey
// made on a DevTools virtual authenticator (user verification on, as Touch
// ID or Windows Hello); with the user not verified the approval is refused
// and stays; verified, it is sent. Prints what it saw, one fact a line.
// Usage: node approval.mjs URL CODE SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 900, height: 700 } })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const { cdp, authenticatorId } = await pair(page, url, code, { passkey: true });
  await page.waitForSelector("#devices li", { timeout: 10000 });
  console.log("DEVICE " + (await page.textContent("#devices li span")));
  const card = page.locator("form.card");
  await card.waitFor({ timeout: 15000 });
  console.log("RUN " + JSON.stringify(await card.locator(".approval pre.run").first().textContent()));
  console.log("FONT " + (await card.locator(".approval pre.run").first().evaluate((e) => getComputedStyle(e).fontFamily)));
  console.log("LASTING " + (await card.locator("label.option", { hasText: "Always allow" }).locator(".desc").textContent()));
  console.log("OTHER " + (await card.locator("[data-other]").count()));
  await card.locator("label.option", { hasText: "Allow once" }).click();
  await page.screenshot({ path: shot });

  // The user is not there: the authenticator cannot verify them.
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
  await card.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelector("form.card .error").textContent !== "", null, { timeout: 15000 });
  console.log("REFUSED " + (await card.locator(".error").textContent()));
  await page.waitForTimeout(500);
  console.log("STILL PENDING " + (await page.locator("form.card").count()));

  // The user is there.
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
  await card.locator("button.primary").click();
  await page.waitForFunction(() => document.querySelectorAll("form.card").length === 0, null, { timeout: 10000 });
  console.log("SENT");
} finally {
  await browser.close();
}
