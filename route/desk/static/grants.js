// What an approval grants, and its choices. An approval's card has one
// yes, one no, and a second kind of no: "Allow" (the agent's one-time allow
// option, or the lasting one picked above it), "Deny" (its reject option),
// and "Deny, and tell the agent why…", which opens a line for the reason:
// the agent gets its reject option and the model reads the reason. Each
// option whose effect lasts (allow_always, reject_always) is marked LASTING
// and framed apart from the one-time ones, with what it changes from then
// on (the option's _meta.permission: title, description, changes) listed
// under it. Loaded before app.js, whose el(), api(), refresh() and
// presence() (pair.js), said() and tell() (feedback.js) it calls when a
// card is made.
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

// rejectOf is the agent's option a plain "Deny" picks: reject_once, else
// reject_always; and its label on the card.
function rejectOf(p) {
  const opts = (p.approval && p.approval.options) || [];
  const o = opts.find((x) => x.kind === "reject_once") || opts.find((x) => x.kind === "reject_always");
  if (!o) return null;
  return { option: o, label: p.questions[0].options.some((x) => x.label === o.name) ? o.name : o.optionId };
}

// choices turns the card's options into one yes and two kinds of no: the
// allow options stay to pick from (the one-time one picked), the reject
// ones become the Deny buttons, and Cancel, a third no, goes.
function choices(form, p) {
  const reject = rejectOf(p);
  const actions = form.querySelector(".actions");
  const submit = actions.querySelector("button.primary");
  const allows = [...form.querySelectorAll("label.option")].filter((l) => (l.dataset.kind || "").startsWith("allow"));
  if (!reject || !allows.length) return;
  for (const l of form.querySelectorAll("label.option")) if ((l.dataset.kind || "").startsWith("reject")) l.hidden = true;
  const once = allows.find((l) => l.dataset.kind === "allow_once") || allows[0];
  once.querySelector("input").checked = true;
  const name = () => { submit.textContent = form.querySelector("label.option.lasting input:checked") ? "Allow from now on" : "Allow"; };
  form.addEventListener("change", name);
  name();
  for (const b of actions.querySelectorAll("button:not(.primary)")) b.hidden = true; // Cancel
  const deny = el("button", { type: "button", class: "deny-plain", text: reject.option.kind === "reject_always" ? "Deny from now on" : "Deny" });
  const open = el("button", { type: "button", class: "deny-open", text: "Deny, and tell the agent why…" });
  const box = el("div", { class: "deny", hidden: "" });
  const id = `${p.id}-s${p.step}-why`;
  const input = el("input", { type: "text", class: "deny-reason", id, maxlength: String(MAX_TYPED), autocomplete: "off",
    placeholder: "what to do instead?" });
  const send = el("button", { type: "button", class: "deny-send", text: "Deny with this reason" });
  box.append(el("label", { for: id, text: "Why not? The model reads this." }), input, send);
  actions.append(deny, open);
  actions.after(box);
  open.addEventListener("click", () => { box.hidden = false; open.hidden = true; input.focus(); box.scrollIntoView({ block: "nearest" }); });
  deny.addEventListener("click", () => sendReject(form, p, reject.label, ""));
  send.addEventListener("click", () => {
    const reason = input.value.trim();
    if (!reason) { said(form, "Write why first, or tap Deny.", true); input.focus(); return; }
    sendReject(form, p, reject.label, reason);
  });
}

// sendReject answers the card with its reject option, and reason if any,
// saying where it is beside the buttons.
async function sendReject(form, p, label, reason) {
  const error = form.querySelector(".error");
  if (error) error.textContent = "";
  const answers = [[label]];
  try {
    said(form, "Waiting for your passkey…");
    const assertion = await presence(p.id, answers, p.step, reason || undefined);
    said(form, "Sending…");
    await api("POST", `/question/${encodeURIComponent(p.id)}/reply`, { answers, step: p.step, assertion, reason: reason || undefined });
    tell(reason ? "Denied, with your reason for the agent." : "Denied.");
    refresh();
  } catch (e) {
    said(form, "");
    if (error) error.textContent = e.message;
  }
}

(window.cardHooks = window.cardHooks || []).push((form, p) => {
  if (p.kind !== "approval") return;
  markGrants(form, p);
  choices(form, p);
});
