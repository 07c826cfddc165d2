// The leaderboard: people, computer levels and bots on one rating scale, filtered by kind.

import { profileUrl, showMe } from "./me.js";

const $ = (id) => document.getElementById(id);

function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

async function load() {
  const kind = document.querySelector("input[name=kind]:checked").value;
  const settled = $("settled").checked ? 1 : 0;
  const res = await fetch(`/api/leaderboard?kind=${kind}&settled=${settled}`);
  const body = await res.json();
  const tbody = $("board").querySelector("tbody");
  tbody.replaceChildren();
  if (!body.players.length) {
    const tr = make("tr");
    const td = make("td", "", "Nobody rated yet.");
    td.colSpan = 4;
    tr.append(td);
    tbody.append(tr);
  }
  for (const p of body.players) {
    const tr = make("tr", p.kind === "computer" || p.kind === "bot" ? p.kind : "person");
    tr.append(make("td", "", p.rank === null ? "–" : String(p.rank)));  // provisional: unranked
    const who = make("td");
    const a = make("a", "", p.name);
    a.href = profileUrl(p.name);
    who.append(a);
    if (p.kind === "computer" || p.kind === "bot") who.append(make("span", `tag ${p.kind}`, p.kind));
    tr.append(who);
    tr.append(make("td", "", p.text));  // the server's words: "1601 ± 669 (provisional)"
    tr.append(make("td", "", String(p.rated_games)));
    tbody.append(tr);
  }
}

showMe($("me"));
for (const el of document.querySelectorAll("input[name=kind], #settled")) el.onchange = load;
load();
