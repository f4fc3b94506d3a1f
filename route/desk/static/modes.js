// The session's mode, steered from the card (issue 49): where the agent
// reports the modes it offers, a card has a list of them and a button to
// switch. A mode that asks more switches with the device alone; one that
// asks less (fewer approvals reach this page) answers 403 {"presence"},
// and the switch goes again with a user-verified passkey assertion for
// that very mode. What happened is said next to the button, not at the
// top of a phone's screen.

// asksLess says whether switching from cur to o lets the agent run more
// without asking, as the server judges it (desk/mode.go, hub/mode.go).
function asksLess(cur, o) { return o.id !== cur.id && o.asks <= cur.asks; }

function modeSwitch(p) {
  const m = p.instance && p.instance.mode;
  if (!m || !m.available || m.available.length < 2) return [];
  const pick = el("select", { class: "mode-pick", "aria-label": "The session's mode" });
  modeOptions(pick, m);
  const go = el("button", { type: "button", class: "mode-switch", text: "Switch mode" });
  const said = el("span", { class: "mode-said", role: "status" });
  go.addEventListener("click", async () => {
    const to = pick.value;
    if (to === pick.dataset.cur) { said.textContent = "Already in this mode."; return; }
    go.disabled = true;
    said.textContent = "Switching…";
    try {
      await switchMode(p.id, to);
      said.textContent = "Switched; the agent and the editor are told.";
      refresh();
    } catch (e) {
      said.textContent = "Not switched: " + e.message;
    } finally {
      go.disabled = false;
    }
  });
  return [el("div", { class: "meta mode-steer" }, pick, " ", go, " ", said)];
}

// modeOptions lists the modes m offers in pick, m's selected, unless the
// user picked another already (a card redrawn as they choose).
function modeOptions(pick, m) {
  const chosen = pick.dataset.cur && pick.value !== pick.dataset.cur ? pick.value : m.id;
  pick.dataset.cur = m.id;
  pick.textContent = "";
  for (const o of m.available) {
    const opt = el("option", { value: o.id, text: (o.name || o.id) + (asksLess(m, o) ? " (asks less: passkey)" : "") });
    if (o.id === chosen) opt.selected = true;
    pick.append(opt);
  }
}

// showMode puts the session's mode as it is now on a card already drawn
// (question.origin: it can change while the set waits), leaving the rest
// of the card, and what is said of a switch, in place.
function showMode(form, p) {
  const m = (p.instance && p.instance.mode) || null;
  const now = JSON.stringify(m);
  if (form.dataset.mode === now) return;
  form.dataset.mode = now;
  const note = form.querySelector(":scope > .mode");
  const fresh = modeNote(p.instance); // app.js
  if (note) note.remove();
  if (fresh.length) form.querySelector(":scope > .note").after(fresh[0]);
  const pick = form.querySelector(".mode-pick");
  if (pick && m && m.available && m.available.length >= 2) modeOptions(pick, m);
}

// switchMode asks the server to switch set id's session to mode, with the
// passkey when the server says the mode asks less.
async function switchMode(id, mode) {
  const path = `/question/${encodeURIComponent(id)}/mode`;
  try {
    return await api("POST", path, { mode });
  } catch (e) {
    if (!e.data || !e.data.presence) throw e;
  }
  const opts = await api("POST", `${path}/presence`, { mode });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(opts.publicKey);
  const assertion = (await navigator.credentials.get({ publicKey })).toJSON();
  return api("POST", path, { mode, assertion });
}
