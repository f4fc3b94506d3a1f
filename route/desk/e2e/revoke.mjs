// Drives the page's Revoke button for another device in Chromium: the
// page pairs with a passkey on a DevTools virtual authenticator; with the
// user not verified the revocation is refused and the device stays;
// verified, it goes. Prints what it saw, one fact a line.
// Usage: node revoke.mjs URL CODE OTHER-DEVICE-NAME
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, other] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext()).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const { cdp, authenticatorId } = await pair(page, url, code, { passkey: true });
  await page.waitForFunction(() => document.querySelectorAll("#devices li").length === 2, null, { timeout: 10000 });
  const row = page.locator("#devices li", { hasText: other });
  console.log("LISTED " + (await page.locator("#devices li").count()));

  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
  await row.locator("button").click();
  await page.waitForTimeout(1000);
  console.log("AFTER UNVERIFIED " + (await page.locator("#devices li").count()));

  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
  await row.locator("button").click();
  await page.waitForFunction(() => document.querySelectorAll("#devices li").length === 1, null, { timeout: 10000 });
  console.log("REVOKED " + (await page.textContent("#devices li span")));
} finally {
  await browser.close();
}
