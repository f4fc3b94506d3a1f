// Who decided what, on the hub's page: the newest entries of the hub's
// decisions log (GET /api/decisions, which a plain desk does not serve),
// under the history: when, what, the outcome, which route and device, and
// how long it waited. Loaded before app.js, whose el() and api() it calls;
// app.js calls refreshDecisions() after each history refresh.
"use strict";

let decisionsEl = null;

function decisionText(r) {
  const by = [r.route, r.device ? `on ${r.device}` : ""].filter(Boolean).join(" ");
  const waited = `${Math.round((r.waitedMs || 0) / 1000)} s`;
  const answer = r.answer ? ` → ${r.answer}${r.lasting ? " (lasting)" : ""}` : "";
  const reason = r.reason ? ` — “${r.reason}”` : "";
  return `${r.kind === "approval" ? "Approval" : "Question"} ${r.outcome}${by ? " by " + by : ""} after ${waited}: ${r.asked}${answer}${reason}`;
}

async function refreshDecisions() {
  let list;
  try {
    list = await api("GET", "/api/decisions?limit=50");
  } catch {
    return; // a plain desk keeps no decisions log
  }
  if (!decisionsEl) {
    const history = document.getElementById("history");
    decisionsEl = el("ol", { id: "decisions", class: "history decisions", "aria-labelledby": "decisions-title" });
    history.after(el("h2", { id: "decisions-title", text: "Decisions" }), decisionsEl);
  }
  decisionsEl.textContent = "";
  for (const r of list) {
    const li = el("li", { class: "decision" },
      el("time", { class: "asked", datetime: r.time, text: askedAt(r.time) + " " }),
      el("span", { text: decisionText(r) }));
    if (r.agent || r.cwd) li.append(el("div", { class: "origin", text: [r.agent, r.cwd].filter(Boolean).join(" · ") }));
    if (r.digest) li.append(el("div", { class: "origin digest", text: r.digest }));
    decisionsEl.append(li);
  }
  if (!list.length) decisionsEl.append(el("li", { class: "empty", text: "No decision yet." }));
}
