// The answer desk page. Everything the agent wrote is put on the page with
// textContent, never as HTML.
"use strict";

const pendingEl = document.getElementById("pending");
const historyEl = document.getElementById("history");
const statusEl = document.getElementById("status");
const sessions = new Set();

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function card(p) {
  const form = el("form", { class: "card", "data-id": p.id });
  const round = p.round >= 2 ? `Round ${p.round} · ` : "";
  form.append(el("div", { class: "meta", text: `${round}session ${p.sessionID}` }));
  p.questions.forEach((q, qi) => {
    const fs = el("fieldset");
    const legend = el("legend", {}, el("span", { class: "chip", text: q.header }), el("span", { text: q.question }));
    fs.append(legend);
    const type = q.multiple ? "checkbox" : "radio";
    const name = `${p.id}-q${qi}`;
    q.options.forEach((o, oi) => {
      const input = el("input", { type, name, value: o.label, id: `${name}-o${oi}` });
      const label = el("label", { class: "option", for: input.id }, input, el("span", { text: o.label }));
      if (o.description) label.append(el("span", { class: "desc", text: o.description }));
      fs.append(label);
    });
    const otherId = `${name}-other`;
    fs.append(el("div", { class: "other" },
      el("label", { for: otherId, text: "Other:" }),
      el("input", { type: "text", id: otherId, "data-other": name, maxlength: q.multiple ? "1000" : "256", placeholder: "type your own answer" })));
    form.append(fs);
  });
  const error = el("p", { class: "error", role: "alert" });
  const submit = el("button", { type: "submit", class: "primary", text: "Submit" });
  const cancel = el("button", { type: "button", text: "Cancel" });
  form.append(el("div", { class: "actions" }, submit, cancel), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const answers = p.questions.map((q, qi) => {
      const name = `${p.id}-q${qi}`;
      const picked = [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
      const other = form.querySelector(`input[data-other="${name}"]`).value.trim();
      if (other) {
        if (q.multiple) picked.push(other);
        else return [other];
      }
      return picked;
    });
    try {
      await api("POST", `/question/${encodeURIComponent(p.id)}/reply`, { answers });
      status("Answer sent.");
      refresh();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  cancel.addEventListener("click", async () => {
    try {
      await api("POST", `/question/${encodeURIComponent(p.id)}/reject`);
      status("Question cancelled.");
      refresh();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

function status(text) { statusEl.textContent = text; }

async function refresh() {
  const list = await api("GET", "/question");
  const focused = document.activeElement && document.activeElement.closest("form");
  const keep = focused ? focused.dataset.id : null;
  const existing = new Map([...pendingEl.querySelectorAll("form")].map((f) => [f.dataset.id, f]));
  pendingEl.textContent = "";
  if (list.length === 0) pendingEl.append(el("p", { class: "empty", text: "No question is waiting." }));
  for (const p of list) {
    sessions.add(p.sessionID);
    // Keep a form the user is filling in.
    pendingEl.append(p.id === keep && existing.get(p.id) ? existing.get(p.id) : card(p));
  }
  await refreshHistory();
}

async function refreshHistory() {
  const items = [];
  for (const s of sessions) {
    const h = await api("GET", `/api/session/${encodeURIComponent(s)}/history`).catch(() => null);
    if (!h) continue;
    for (const r of h.rounds) {
      const answers = r.answers ? Object.entries(r.answers).map(([q, a]) => `${q} → ${a}`).join("; ") : "";
      items.push(el("li", {},
        el("span", { class: "round", text: `Round ${r.round}` }), " ",
        el("span", { class: "state", text: `(${r.state})` }), " ",
        el("span", { text: r.questions.map((q) => q.header).join(", ") }),
        answers ? el("div", { text: answers }) : null));
    }
  }
  historyEl.textContent = "";
  items.forEach((i) => historyEl.append(i));
}

function connect() {
  const events = new EventSource("/event");
  events.onopen = () => status("Live: new questions appear here as agents ask them.");
  for (const type of ["question.asked", "question.replied", "question.rejected"]) {
    events.addEventListener(type, (ev) => {
      try { sessions.add(JSON.parse(ev.data).properties.sessionID); } catch (_) { /* ignore */ }
      refresh();
    });
  }
  events.onerror = () => status("Disconnected from askbridge; retrying…");
}

if (location.search.includes("token=")) history.replaceState(null, "", "/");
refresh().catch((e) => status(e.message));
connect();
