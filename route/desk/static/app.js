// The answer desk page. Everything the agent wrote is put on the page with
// textContent, never as HTML.
//
// The browser is paired (pair.js): every call carries the session's
// cookie and its key, and an approval's answer a passkey assertion.
"use strict";

const pendingEl = document.getElementById("pending");
const historyEl = document.getElementById("history");
const statusEl = document.getElementById("status");
const MAX_TYPED = 1000; // permission.MaxTyped

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
  const headers = { "X-Askbridge-Key": sessionKey() };
  if (body) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) unpaired();
  if (!res.ok) throw Object.assign(new Error(data.error || res.statusText), { data });
  return data;
}

// A card is one step of a set: its own questions, then the follow-ups the
// picks brought. Its key changes with the step, so a new step gets a new form.
function key(p) { return `${p.id}:${p.step}`; }

// showNote puts the set's note (the agent stopped waiting for it, say) on
// a card already drawn, leaving what the user picked or typed in place.
function showNote(form, p) {
  const n = form.querySelector(".note");
  if (!n) return;
  n.textContent = p.note || "";
  n.hidden = !p.note;
}

// uncontainedNote says, on an approval, that the agent asking runs outside
// askbridge's container (askbridge --contain): what it starts can act as
// the user. The askbridge sets the words (Instance.Uncontained).
function uncontainedNote(i) {
  return i && i.uncontained ? [el("div", { class: "meta uncontained", text: i.uncontained })] : [];
}

// modeNote says the session's mode in the agent's own words (ACP's
// modes), and when it runs tools without asking, what that means: fewer
// approvals come than the user may expect (Instance.Mode).
function modeNote(i) {
  const m = i && i.mode;
  if (!m || !m.id) return [];
  const name = m.name || m.id;
  const text = m.unasked ? "⚠ " + m.unasked.charAt(0).toUpperCase() + m.unasked.slice(1) + "." : "Mode: " + name;
  return [el("div", { class: m.unasked ? "meta mode unasked" : "meta mode", text })];
}

function card(p) {
  const form = el("form", { class: "card", "data-key": key(p), "data-id": p.id });
  const round = p.round >= 2 ? `Round ${p.round} · ` : "";
  // The session's id is askbridge's and the agent's business: the group
  // heading says which agent and folder asked.
  if (round) form.append(el("div", { class: "meta", text: round.replace(/ · $/, "") }));
  if (p.deadline) form.append(countdown(p));
  const note = el("p", { class: "note", role: "status" });
  form.append(note);
  showNote(form, p);
  form.append(...modeNote(p.instance), ...modeSwitch(p)); // modes.js
  form.dataset.mode = JSON.stringify((p.instance && p.instance.mode) || null);
  form.append(...contextBlock(p.instance)); // context.js
  if (p.kind === "approval") form.append(approvalBlock(p.approval), ...uncontainedNote(p.instance));
  holdOnInteraction(form, p.id);
  if (p.answered && p.answered.length) {
    const so = el("ul", { class: "answered" });
    for (const a of p.answered) so.append(el("li", {}, el("span", { class: "chip", text: a.header }), " ", el("span", { text: a.answer })));
    form.append(el("div", { class: "meta", text: "Answered so far:" }), so);
  }
  p.questions.forEach((q, qi) => {
    const fs = el("fieldset");
    const legend = el("legend", {}, el("span", { class: "chip", text: q.header }), el("span", { text: q.question }));
    if (p.step > 0) legend.prepend(el("span", { class: "followup", text: "Follow-up" }));
    fs.append(legend);
    if (q.link) fs.append(linkBlock(q.link));
    const type = q.multiple ? "checkbox" : "radio";
    const name = `${p.id}-s${p.step}-q${qi}`;
    q.options.forEach((o, oi) => {
      const input = el("input", { type, name, value: o.label, id: `${name}-o${oi}` });
      const label = el("label", { class: "option", for: input.id }, input, el("span", { text: o.label }));
      if (o.description) label.append(el("span", { class: "desc", text: o.description }));
      const next = q.followUps && q.followUps[o.label];
      if (next) label.append(el("span", { class: "desc then", text: "then asks: " + next.map((f) => f.header).join(", ") }));
      fs.append(label);
    });
    const otherId = `${name}-other`;
    // custom:false: the agent cannot take typed text for this question; input and hint say what its kind takes.
    if (q.custom !== false) fs.append(el("div", { class: "other" },
      el("label", { for: otherId, text: "Other:" }),
      el("input", { type: q.secret ? "password" : q.input || "text", autocomplete: "off", id: otherId, "data-other": name, maxlength: String(MAX_TYPED),
        placeholder: q.secret ? "type your answer (only the agent sees it)" : q.hint ? "type " + q.hint : "type your own answer" })));
    form.append(fs);
  });
  const error = el("p", { class: "error", role: "alert" });
  const submit = el("button", { type: "submit", class: "primary", text: "Submit" });
  const cancel = el("button", { type: "button", text: "Cancel" });
  form.append(el("div", { class: "actions" }, submit, cancel), error);
  for (const hook of window.cardHooks || []) hook(form, p); // grants.js, claims.js
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const answers = p.questions.map((q, qi) => {
      const name = `${p.id}-s${p.step}-q${qi}`;
      const picked = [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
      const input = form.querySelector(`input[data-other="${name}"]`);
      const other = input ? input.value.trim() : "";
      if (other) {
        if (q.multiple) picked.push(other);
        else return [other];
      }
      return picked;
    });
    error.textContent = "";
    try {
      // An approval goes with the user's passkey (pair.js).
      said(form, p.kind === "approval" ? "Waiting for your passkey…" : "Sending…"); // feedback.js
      const assertion = p.kind === "approval" ? await presence(p.id, answers, p.step) : undefined;
      said(form, "Sending…");
      await api("POST", `/question/${encodeURIComponent(p.id)}/reply`, { answers, step: p.step, assertion });
      tell(p.kind === "approval" ? `Answer sent: “${answers.flat().join(", ")}”.` : "Answer sent.");
      refresh();
    } catch (e) {
      said(form, "");
      error.textContent = e.message;
    }
  });
  cancel.addEventListener("click", async () => {
    error.textContent = "";
    try {
      said(form, "Cancelling…");
      await api("POST", `/question/${encodeURIComponent(p.id)}/reject`);
      tell("Question cancelled.");
      refresh();
    } catch (e) {
      said(form, "");
      error.textContent = e.message;
    }
  });
  return form;
}

function status(text) { statusEl.textContent = text; }

async function refresh() {
  const list = await api("GET", "/question");
  const focused = document.activeElement;
  // Keep the forms still asking the same step, with what the user picked
  // or typed in them so far, and in place (groups.js): a form taken out of
  // the page loses its focus.
  const existing = new Map([...pendingEl.querySelectorAll("form")].map((f) => [f.dataset.key, f]));
  const forms = list.map((p) => {
    noteDeadline(p);
    const kept = existing.get(key(p));
    if (kept) { showNote(kept, p); showMode(kept, p); } // modes.js
    return kept || card(p);
  });
  place(pendingEl, list, forms);
  if (list.length === 0) pendingEl.append(el("p", { class: "empty", text: "No question is waiting." }));
  if (focused && focused !== document.activeElement && pendingEl.contains(focused)) focused.focus({ preventScroll: true });
  forgetDeadlines(new Set(list.map((p) => p.id)));
  tick();
  await refreshHistory();
}

// askedAt is when a set was asked, as the reader's clock says it: the time
// of day today, with the date before that.
function askedAt(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return d.toDateString() === new Date().toDateString() ? time : `${d.toLocaleDateString([], { month: "short", day: "numeric" })} ${time}`;
}

// The history comes from the server, every session that asked, so that it
// survives a reload.
async function refreshHistory() {
  const items = [];
  const hists = [];
  for (const s of await api("GET", "/api/session")) {
    const h = await api("GET", `/api/session/${encodeURIComponent(s.id)}/history`).catch(() => null);
    if (h) hists.push(h);
  }
  // On the hub each set says which agent in which folder asked it, the
  // sets kept from before a restart too.
  const hosts = new Set(hists.flatMap((h) => h.rounds).map((r) => (r.instance && r.instance.host) || ""));
  for (const h of hists) {
    for (const r of h.rounds) {
      const answers = r.answers ? Object.entries(r.answers).map(([q, a]) => `${q} → ${a}`).join("; ") : "";
      // A set --on-timeout recommended answered says so.
      const state = r.source === "timeout" && r.state !== "timeout" ? `${r.state} on timeout` : r.state;
      items.push(el("li", {},
        el("span", { class: "round", text: r.kind === "approval" ? "Approval" : `Round ${r.round}` }), " ",
        el("span", { class: `state ${r.state}`, text: `(${state})` }), " ",
        el("span", { text: r.questions.map((q) => q.header).join(", ") }),
        r.instance ? el("span", { class: "origin", text: ` — ${originTitle(r.instance, r.cwd, hosts.size > 1)}` }) : null,
        r.asked ? el("time", { class: "asked", datetime: r.asked, text: `, asked ${askedAt(r.asked)}` }) : null,
        answers ? el("div", { text: answers }) : null));
    }
  }
  historyEl.textContent = "";
  items.forEach((i) => historyEl.append(i));
  if (typeof refreshDecisions === "function") await refreshDecisions();
  if (typeof showAsked === "function") showAsked(); // push.js: a tapped notification's card
}

// The page listens to the event types it knows and ignores the others, so
// a newer askbridge's events do no harm here. The stream is read with
// fetch, not EventSource, which cannot send the session's key.
async function connect() {
  const data = (text) => { try { return JSON.parse(text); } catch { return {}; } };
  const headers = (p) => ((p && p.questions) || []).map((q) => q.header).join(", ");
  const handle = (type, text) => {
    const d = data(text);
    if (type === "question.asked" || type === "question.replied" || type === "question.rejected") {
      if (d.state === "timeout") status(`“${headers(d.properties)}” timed out; the agent went on without an answer.`);
      refresh().catch((e) => status(e.message));
    } else if (type === "question.noted" || type === "question.origin") {
      // Still answerable: the card says what changed (showNote, showMode).
      refresh().catch((e) => status(e.message));
    } else if (type === "question.held") {
      // A deadline moved: no need to redraw the cards, which may hold the
      // user's unsent answers.
      noteDeadline(d.properties);
    } else if (type === "question.claimed") {
      for (const hook of window.claimHooks || []) hook(d.properties); // claims.js
    } else if (type === "question.expiring") {
      noteDeadline(d.properties);
      status(`“${headers(d.properties)}” times out soon: answer it, or start answering to hold it.`);
    }
  };
  for (;;) {
    try {
      const res = await fetch("/event", { headers: { "X-Askbridge-Key": sessionKey() }, credentials: "same-origin" });
      if (res.status === 401) return unpaired();
      if (!res.ok) throw new Error(res.statusText);
      status("Live: new questions appear here as agents ask them.");
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let end;
        while ((end = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          let type = "message", text = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) type = line.slice(7);
            else if (line.startsWith("data: ")) text += line.slice(6);
          }
          if (text) handle(type, text);
        }
      }
    } catch (e) { /* retried below */ }
    status("Disconnected from askbridge; retrying…");
    await new Promise((r) => setTimeout(r, 2000));
  }
}

let started = false;
function start() {
  if (started) return;
  started = true;
  refresh().catch((e) => status(e.message));
  devicesList().catch(() => {});
  if (typeof pushSetup === "function") pushSetup().catch(() => {}); // push.js
  connect();
}

let pairing = false;
function unpaired() {
  if (pairing) return;
  pairing = true;
  status("This browser is not paired.");
  showPairing(() => { pairing = false; started = false; start(); });
}

if (!sessionKey() || pairCode) unpaired();
else start();
