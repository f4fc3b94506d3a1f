// What an approval grants, and "Deny…". On an approval's card each option
// whose effect lasts (allow_always, reject_always) is marked LASTING and
// framed apart from the one-time ones, with what it changes from then on
// (the option's _meta.permission: title, description, changes) listed
// under it. "Deny…" opens a line for the reason: the agent gets its reject
// option and the model reads the reason. Loaded before app.js, whose el(),
// api(), status(), presence() and refresh() it calls when a card is made.
"use strict";

// optionOf is the agent's option behind a card's label (its name, else
// its optionId).
function optionOf(a, label) {
  const opts = (a && a.options) || [];
  return opts.find((o) => o.name === label) || opts.find((o) => o.optionId === label);
}

function lastingKind(kind) { return kind === "allow_always" || kind === "reject_always"; }

// grantOf reads an option's _meta.permission.
function grantOf(o) {
  const p = (o && o._meta && o._meta.permission) || {};
  const line = (c) => (typeof c === "string" ? c : (c && (c.description || c.title || c.summary)) || JSON.stringify(c));
  return {
    title: typeof p.title === "string" ? p.title : "",
    description: typeof p.description === "string" ? p.description : (o && o.description) || "",
    changes: Array.isArray(p.changes) ? p.changes.map(line) : [],
  };
}

function markGrants(form, p) {
  for (const label of form.querySelectorAll("label.option")) {
    const input = label.querySelector("input");
    const o = optionOf(p.approval, input && input.value);
    if (!o) continue;
    label.dataset.kind = o.kind || "";
    if (!lastingKind(o.kind)) continue;
    label.classList.add("lasting");
    label.querySelector("span").after(el("span", { class: "badge lasting-badge", text: o.kind === "allow_always" ? "LASTING · allows from now on" : "LASTING · refuses from now on" }));
    const g = grantOf(o);
    const list = el("ul", { class: "grants" });
    for (const t of [g.title, g.description].filter(Boolean)) list.append(el("li", { text: t }));
    for (const c of g.changes) list.append(el("li", { class: "change", text: c }));
    if (list.childElementCount) label.append(list);
  }
}

// denyBlock is "Deny…": a reason, then the agent's reject option with it.
function denyBlock(form, p) {
  const reject = ((p.approval && p.approval.options) || []).find((o) => o.kind === "reject_once") ||
    ((p.approval && p.approval.options) || []).find((o) => o.kind === "reject_always");
  if (!reject) return;
  const q = p.questions[0];
  const label = q.options.some((o) => o.label === reject.name) ? reject.name : reject.optionId;
  const open = el("button", { type: "button", class: "deny-open", text: "Deny…" });
  const box = el("div", { class: "deny", hidden: "" });
  const input = el("input", { type: "text", class: "deny-reason", maxlength: String(MAX_TYPED), autocomplete: "off",
    placeholder: "why not, or what to do instead (the model reads this)", "aria-label": "Reason for denying" });
  const send = el("button", { type: "button", class: "deny-send", text: "Deny with this reason" });
  box.append(input, send);
  open.addEventListener("click", () => { box.hidden = false; input.focus(); });
  send.addEventListener("click", async () => {
    const error = form.querySelector(".error");
    const reason = input.value.trim();
    if (!reason) { input.focus(); return; }
    const answers = [[label]];
    try {
      const assertion = await presence(p.id, answers, p.step, reason);
      await api("POST", `/question/${encodeURIComponent(p.id)}/reply`, { answers, step: p.step, assertion, reason });
      status("Denied; the agent reads your reason.");
      refresh();
    } catch (e) {
      if (error) error.textContent = e.message;
    }
  });
  form.querySelector(".actions").after(box);
  form.querySelector(".actions").append(open);
}

(window.cardHooks = window.cardHooks || []).push((form, p) => {
  if (p.kind !== "approval") return;
  markGrants(form, p);
  denyBlock(form, p);
});
