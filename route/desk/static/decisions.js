// Who decided what, on the hub's page: the newest entries of the hub's
// decisions log (GET /api/decisions, which a plain desk does not serve),
// under the history, each a sentence: what was asked, how it ended, where
// and by whom (a device, the editor, the terminal inbox), for an approval
// whether a passkey vouched for it, how long it waited, and which agent in
// which folder asked. The log's digest of the arguments is for `askbridge
// hub log`, not for a phone's screen. Loaded before app.js, whose el(),
// api() and askedAt() it calls; app.js calls refreshDecisions() after each
// history refresh.
"use strict";

let decisionsEl = null;

// decidedBy says where a decision was made: on a device, in the editor, …
function decidedBy(r) {
  if (r.device) return /^the /.test(r.device) ? `in ${r.device}` : `on ${r.device}`;
  return { client: "in the editor", inbox: "in the terminal inbox", terminal: "at the terminal", notification: "from a notification",
    desk: "on the page", hub: "on the page" }[r.route] || "";
}

function decisionWait(ms) {
  const s = Math.round((ms || 0) / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 360) / 10} h`;
}

function decisionText(r) {
  const asked = `“${r.asked}”`;
  const by = decidedBy(r);
  const after = `after ${decisionWait(r.waitedMs)}`;
  const approval = r.kind === "approval";
  // A passkey vouches only for what a paired device decided.
  const vouched = approval && r.device && r.route !== "inbox" ? (r.signed ? " with a passkey" : " without a passkey") : "";
  const lasting = r.lasting ? " (lasting: from now on)" : "";
  const reason = r.reason ? ` Reason: “${r.reason}”.` : "";
  if (r.outcome === "answered") {
    if (approval) return `“${r.answer}”${lasting} for ${asked}, chosen ${by}${vouched}, ${after}.${reason}`.replace(" ,", ",");
    return `${asked} answered ${by} ${after}: ${r.answer}.${reason}`.replace("  ", " ");
  }
  if (r.outcome === "timeout") {
    return `${asked} timed out ${after}` + (r.answer ? `; the recommended answer went: ${r.answer}${lasting}.` : ", with no answer.");
  }
  return `${asked} ${r.outcome} ${by} ${after}.${reason}`.replace("  ", " ");
}

// originText is which agent asked, in which folder, on which machine.
function originText(r) {
  const where = [r.cwd ? `in ${r.cwd}` : "", r.host ? `on ${r.host}` : ""].filter(Boolean).join(" ");
  return [r.agent ? `Asked by ${r.agent}` : "Asked", where].filter(Boolean).join(" ");
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
    if (r.agent || r.cwd || r.host) li.append(el("div", { class: "origin", text: originText(r) + "." }));
    decisionsEl.append(li);
  }
  if (!list.length) decisionsEl.append(el("li", { class: "empty", text: "No decision yet." }));
}
