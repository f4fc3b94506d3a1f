// What an approval lets the agent do, on its card: the tool call's kind,
// what it is for in prose (the agent's description of it), the command or
// input in a monospace block, diffs as diffs, and the files it touches.
// All as text, never HTML. Loaded before app.js, whose el() it calls and
// whose card() calls approvalBlock.
"use strict";

// aboutOf is the tool call's prose: its text content (claude-agent-acp
// puts a Bash call's description there) or rawInput.description. It reads
// as a sentence, not as a second command.
function aboutOf(tc) {
  const texts = (tc.content || []).filter((c) => c.type === "content" && c.content && c.content.type === "text").map((c) => c.content.text);
  const input = tc.rawInput;
  if (!texts.length && input && typeof input === "object" && typeof input.description === "string") texts.push(input.description);
  return texts.filter(Boolean);
}

function approvalBlock(a) {
  const tc = (a && a.toolCall) || {};
  const box = el("div", { class: "approval" });
  box.append(el("div", { class: "meta", text: `The agent asks to run${tc.kind ? " (" + tc.kind + ")" : ""}:` }));
  for (const t of aboutOf(tc)) box.append(el("p", { class: "about", text: t }));
  const input = tc.rawInput;
  let what = "";
  if (input && typeof input === "object" && typeof input.command === "string") what = input.command;
  else if (input !== undefined) what = JSON.stringify(input, null, 2);
  else what = tc.title || "";
  box.append(el("pre", { class: "run", text: what }));
  for (const c of tc.content || []) {
    if (c.type === "diff") box.append(...diffBlock(c)); // context.js
  }
  const files = (tc.locations || []).map((l) => l.path).filter(Boolean);
  if (files.length) box.append(el("div", { class: "meta", text: "Files: " + files.join(", ") }));
  return box;
}
