// Why the agent asks: what it said and planned before it asked (the set's
// origin's context: permission.Context), and an edit it asks to make as a
// line diff with context. All as text, never HTML (el, app.js).
"use strict";

const PLAN_STATUS = { completed: "✓ done", in_progress: "▶ doing", pending: "○ to do" };
const DIFF_CONTEXT = 3; // unchanged lines shown around a change
const DIFF_MAX_CELLS = 4e6; // past this, the LCS table is too big: every line is shown changed

// contextBlock is the agent's last words and its plan, in a <details>:
// open on a wide screen, collapsed on a phone, where the question comes
// first.
function contextBlock(i) {
  const c = i && i.context;
  const plan = (c && c.plan) || [];
  if (!c || (!c.words && !plan.length)) return [];
  const d = el("details", { class: "context" });
  d.open = !(window.matchMedia && window.matchMedia("(max-width: 600px)").matches);
  const parts = [];
  if (c.words) parts.push("its last words");
  if (plan.length) parts.push(`its plan (${plan.length})`);
  d.append(el("summary", { text: "Before the agent asked: " + parts.join(" and ") }));
  if (c.words) d.append(el("blockquote", { class: "words", text: c.words }));
  if (plan.length) {
    const ol = el("ol", { class: "plan" });
    for (const e of plan) {
      const li = el("li", { class: "plan-" + (e.status || "pending") },
        el("span", { class: "status", text: PLAN_STATUS[e.status] || e.status || "" }), " ", el("span", { text: e.content || "" }));
      if (e.priority === "high") li.append(" ", el("span", { class: "chip", text: "high" }));
      ol.append(li);
    }
    d.append(ol);
  }
  return [d];
}

// diffLines is the line diff of a to b: [op, line] with op " ", "-" or
// "+", from the longest common subsequence of their lines.
function diffLines(a, b) {
  const x = a === "" ? [] : a.split("\n"), y = b === "" ? [] : b.split("\n");
  // Common head and tail first: an edit is usually small in a long text.
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail), ys = y.slice(head, y.length - tail);
  const out = x.slice(0, head).map((l) => [" ", l]);
  const n = xs.length, m = ys.length;
  if (n * m > DIFF_MAX_CELLS) {
    out.push(...xs.map((l) => ["-", l]), ...ys.map((l) => ["+", l]));
  } else {
    const t = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) t[i][j] = xs[i] === ys[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    let i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xs[i] === ys[j]) { out.push([" ", xs[i]]); i++; j++; }
      else if (i < n && (j === m || t[i + 1][j] >= t[i][j + 1])) out.push(["-", xs[i++]]); // removed before added
      else out.push(["+", ys[j++]]);
    }
  }
  out.push(...x.slice(x.length - tail).map((l) => [" ", l]));
  return out;
}

// diffBlock shows a tool call's diff content: its file, then each change
// with DIFF_CONTEXT unchanged lines around it, every line marked, a gap
// where unchanged lines are left out.
function diffBlock(c) {
  const lines = diffLines(c.oldText || "", c.newText || "");
  const keep = lines.map(() => false);
  lines.forEach(([op], k) => {
    if (op === " ") return;
    for (let d = Math.max(0, k - DIFF_CONTEXT); d <= Math.min(lines.length - 1, k + DIFF_CONTEXT); d++) keep[d] = true;
  });
  const pre = el("pre", { class: "diff" });
  let skipped = false;
  lines.forEach(([op, text], k) => {
    if (!keep[k]) { skipped = true; return; }
    if (skipped) pre.append(el("span", { class: "gap", text: "⋯\n" }));
    skipped = false;
    pre.append(el("span", { class: { "+": "add", "-": "del", " ": "ctx" }[op], text: `${op} ${text}\n` }));
  });
  if (skipped) pre.append(el("span", { class: "gap", text: "⋯\n" }));
  const what = c.oldText == null || c.oldText === "" ? "new file" : "edit";
  return [el("div", { class: "meta", text: `${what} ${c.path || ""}` }), pre];
}
