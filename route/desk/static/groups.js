// Where the cards go. On the hub, sets carry their askbridge (instance)
// and their session's folder (cwd): the cards are grouped by connection and
// folder under a heading such as "Claude Code · ~/src/api · Zed  pid 4242 ·
// a3", with how long the group's oldest set has waited. On a plain desk (no
// instance) the cards stay a flat list, as they always were. The tab title
// counts the sets waiting. Loaded before app.js, whose el() it calls.
"use strict";

let baseTitle = document.title; // the hub's page renames itself (app.js)

// shortFolder shows a folder under its askbridge's home (each askbridge
// reports its own, a remote one's included) as "~/…".
function shortFolder(cwd, home) {
  if (!cwd || !home) return cwd || "";
  home = home.replace(/[\\/]+$/, "");
  if (!home) return cwd;
  if (cwd === home) return "~";
  const sep = cwd.charAt(home.length);
  if (cwd.startsWith(home) && (sep === "/" || sep === "\\")) return "~" + cwd.slice(home.length);
  return cwd;
}

// originTitle names where a set comes from: "Claude Code · ~/src/api · Zed";
// withHost puts the machine before the folder, for folders of several.
function originTitle(i, cwd, withHost) {
  let folder = shortFolder(cwd, i.home);
  if (withHost && i.host) folder = `${i.host}:${folder}`;
  return [i.agent || "agent", i.subagent, folder, i.client].filter(Boolean).join(" · ");
}

// connectionOf names an askbridge's connection to the hub: the process on
// it as the system says (else as the askbridge says) and the hub's id.
function connectionOf(i) {
  const pid = i.peerPid || i.pid;
  return [pid ? `pid ${pid}` : "", i.id || ""].filter(Boolean).join(" · ");
}

function waitedText(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `waiting ${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `waiting ${m} min`;
  return `waiting ${Math.floor(m / 60)} h ${m % 60} min`;
}

// groupsOf splits the list (oldest set first) into groups, the one that has
// waited longest first, or returns null when no set says where it comes
// from (a plain desk).
function groupsOf(list) {
  if (!list.some((p) => p.instance)) return null;
  const hosts = new Set(list.map((p) => (p.instance && p.instance.host) || ""));
  const groups = new Map();
  for (const p of list) {
    const i = p.instance || {};
    // One group per connection (and folder): the connection's id and its
    // process are the hub's to say, so an askbridge that claims another's
    // agent and folder still stands apart, under its own pid.
    const k = JSON.stringify([i.id || "", p.cwd || ""]);
    let g = groups.get(k);
    if (!g) {
      g = { key: k, title: originTitle(i, p.cwd, hosts.size > 1), who: connectionOf(i), sets: [], since: Infinity };
      groups.set(k, g);
    }
    g.sets.push(p);
    if (typeof p.waitedMs === "number") g.since = Math.min(g.since, Date.now() - p.waitedMs);
  }
  return [...groups.values()];
}

// arrange makes parent's children exactly kids, in order, moving only
// those out of place (a form taken out of the page loses its focus).
function arrange(parent, kids) {
  for (const child of [...parent.children]) if (!kids.includes(child)) child.remove();
  kids.forEach((k, i) => {
    if (parent.children[i] !== k) parent.insertBefore(k, parent.children[i] || null);
  });
}

// place puts the forms (one per set of list, in its order) on the page.
function place(pendingEl, list, forms) {
  document.title = list.length ? `(${list.length}) ${baseTitle}` : baseTitle;
  const groups = groupsOf(list);
  if (!groups) {
    arrange(pendingEl, forms);
    return;
  }
  const formOf = new Map(list.map((p, i) => [p, forms[i]]));
  const existing = new Map([...pendingEl.querySelectorAll("section.group")].map((s) => [s.dataset.group, s]));
  const sections = groups.map((g) => {
    let s = existing.get(g.key);
    if (!s) {
      s = el("section", { class: "group", "data-group": g.key },
        el("h3", {}, el("span", { class: "who" }), " ", el("span", { class: "conn" }), " ", el("span", { class: "waited" })),
        el("div", { class: "sets" }));
    }
    s.querySelector(".who").textContent = g.title;
    s.querySelector(".conn").textContent = g.who;
    s.querySelector(".waited").dataset.since = Number.isFinite(g.since) ? String(g.since) : "";
    arrange(s.querySelector(".sets"), g.sets.map((p) => formOf.get(p)));
    return s;
  });
  arrange(pendingEl, sections);
  tickWaits();
}

function tickWaits() {
  const now = Date.now();
  for (const w of document.querySelectorAll(".group .waited")) {
    const since = Number(w.dataset.since);
    w.textContent = w.dataset.since ? waitedText(now - since) : "";
  }
}
setInterval(tickWaits, 1000);

// linkBlock shows a page a question asks the user to open (a sign-in's
// verification page): the address in full and its host, as a link the user
// may follow in a new tab. Only an http or https address becomes a link;
// askbridge never opens or fetches it.
function linkBlock(link) {
  const box = el("div", { class: "link" }, el("div", { class: "meta", text: "Open this page (askbridge does not open it):" }));
  let u = null;
  try { u = new URL(link); } catch { u = null; }
  if (u && (u.protocol === "https:" || u.protocol === "http:")) {
    box.append(el("a", { href: u.href, target: "_blank", rel: "noopener noreferrer", text: link }));
    box.append(el("div", { class: "meta", text: "Host: " + u.host }));
  } else {
    box.append(el("code", { text: link }));
  }
  return box;
}
