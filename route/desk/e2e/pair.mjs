// Pairs a page with a desk or hub as the user does: opens the pairing link
// (URL#pair=CODE) and submits the form. With passkey, the page's tab gets
// a DevTools virtual authenticator first (a platform authenticator that
// verifies the user, as Touch ID or Windows Hello does), and the device's
// passkey is made on it; without, the device pairs without one (approve:
// the user's opt-in to approvals without a passkey). Returns the DevTools
// session and the authenticator's id.
export async function pair(page, url, code, { passkey = false, approve = false, name = "test browser" } = {}) {
  let cdp = null, authenticatorId = null;
  if (passkey) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    ({ authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }));
  }
  await page.goto(url + "#pair=" + code);
  await page.waitForSelector("#pair", { timeout: 10000 });
  await page.fill("#pair-name", name);
  if (!passkey) await page.check("#pair-skip");
  if (approve) await page.check("#pair-nopasskey");
  await page.click("#pair button.primary");
  try {
    await page.waitForSelector("#pair", { state: "detached", timeout: 15000 });
  } catch (e) {
    console.log("PAIRING FAILED " + (await page.textContent("#pair .error").catch(() => "?")));
    throw e;
  }
  return { cdp, authenticatorId };
}
