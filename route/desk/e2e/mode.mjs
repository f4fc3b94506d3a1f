// Drives a card's mode switch in Chromium at a phone's width: the session
// runs in "auto"; switching to a mode that asks more takes the device
// alone; to one that asks less, the page asks the passkey (a DevTools
// virtual authenticator): refused while the user is not verified, sent
// once they are. Prints what the page said next to the button, a line a
// step. Usage: node mode.mjs URL CODE SCREENSHOT
import { chromium } from "playwright-core";
import { pair } from "./pair.mjs";

const [url, code, shot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
  page.on("console", (m) => console.log("CONSOLE " + m.text()));
  const { cdp, authenticatorId } = await pair(page, url, code, { passkey: true });
  const card = page.locator("form.card");
  await card.waitFor({ timeout: 15000 });
  const pick = card.locator("select.mode-pick");
  console.log("OPTIONS " + JSON.stringify(await pick.locator("option").allTextContents()));
  console.log("SELECTED " + (await pick.inputValue()));
  const said = card.locator(".mode-said");
  const step = async (mode, label) => {
    await pick.selectOption(mode);
    const before = await said.textContent();
    await card.locator("button.mode-switch").click();
    await page.waitForFunction(([b]) => {
      const t = document.querySelector("form.card .mode-said").textContent;
      return t !== b && t !== "Switching…";
    }, [before], { timeout: 15000 });
    const box = await said.boundingBox();
    console.log(label + " " + (await said.textContent()) + " | IN VIEW " + (box !== null && box.y >= 0 && box.y + box.height <= 844 && box.x + box.width <= 390));
  };
  await step("default", "MORE");
  // The agent reports its new mode: the card, still waiting, says it.
  await page.waitForFunction(() => document.querySelector("form.card .mode").textContent === "Mode: Manual", null, { timeout: 5000 })
    .catch(() => {});
  console.log("NOW " + (await card.locator(".mode").textContent()) + " | SELECTED " + (await pick.inputValue()));
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false });
  await step("bypassPermissions", "LESS UNVERIFIED");
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true });
  await step("bypassPermissions", "LESS VERIFIED");
  await page.screenshot({ path: shot });
} finally {
  await browser.close();
}
