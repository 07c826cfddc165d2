// The lobby: the site's open tables (read again every few seconds), Play now, and a seat or a
// place to watch at any of them. Every word about a table's rules comes from the server.

import { me, showMe } from "./me.js";
import { botsChoice, takeSeat } from "./play.js";

const $ = (id) => document.getElementById(id);
const EVERY = 3000;  // ms between looks at the list

function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

function fail(message) { $("lobby-error").textContent = message; }

async function seat(url, body) {
  if (!await takeSeat(url, body, $("lobby-name").value.trim(), fail)) load();
}

function seatsText(t) {
  const bots = t.bots ? `, ${t.bots} bot${t.bots === 1 ? "" : "s"}` : "";
  const who = `${t.people} ${t.people === 1 ? "person" : "people"}${bots}, ${t.computers} computer${t.computers === 1 ? "" : "s"}`;
  return t.free ? `${t.free} free · ${who}` : `full · ${who}`;
}

let botsAllowed = false;
let withBots = () => ({});  // what Play now asks for about bots (play.js: botsChoice)

async function load() {
  let tables = [];
  try {
    const res = await fetch("/api/lobby", { cache: "no-store" });
    const out = await res.json();
    tables = out.tables || [];
    botsAllowed = out.bots === "allowed";
  } catch { return; }  // the next look tries again
  withBots = botsChoice($("lobby-bots-label"), botsAllowed);
  const body = $("lobby").querySelector("tbody");
  body.replaceChildren();
  for (const t of tables) {
    const tr = make("tr");
    const rules = make("td");
    rules.append(make("strong", "", t.rules[0]), make("span", "small", " · " + t.rules.slice(1).join(" · ")));
    if (t.rated) rules.append(make("span", "tag", "rated"));
    if (botsAllowed) rules.append(make("span", "tag" + (t.bots_welcome ? " bot" : ""), t.bots_welcome ? "bots welcome" : "no bots"));
    const names = make("td");
    names.append(make("span", "", seatsText(t)), make("br"),
      make("span", "small", t.seats.map((s) => (s.free ? `${s.name} (free)` : s.bot ? `${s.name} (bot)` : s.name)).join(", ")));
    // the turn clock at the table's pace now, and its most when that is more
    const pace = make("td", "", !t.clock ? "no clock" : t.pace < t.clock ? `${t.pace} s a turn (up to ${t.clock})` : `${t.clock} s a turn`);
    if (t.clock) pace.title = "3 times the median of the people's recent decisions at this table, from 6 s to its most";
    const go = make("td", "lobby-go");
    if (t.free) {
      const b = make("button", "primary", "Take a seat");
      b.onclick = () => seat(`/api/lobby/${encodeURIComponent(t.id)}/join`, {});
      go.append(b);
    }
    const watch = make("a", "button", "Watch");
    watch.href = t.url;
    go.append(watch);
    tr.append(rules, names, pace, go);
    body.append(tr);
  }
  $("lobby-empty").hidden = tables.length > 0;
  $("lobby-count").textContent = tables.length ? `(${tables.length})` : "";
}

async function main() {
  showMe($("me"));
  const who = await me();
  $("lobby-name-label").hidden = !!who.player;  // a player plays under their own name
  $("lobby-name").value = localStorage.getItem("euchre:name") || "";
  const opts = await (await fetch("/api/options")).json();
  for (const name of Object.keys(opts.presets)) $("lobby-preset").append(make("option", "", name));
  $("play-now").onclick = () => {
    const preset = $("lobby-preset").value;
    seat("/api/play", { ...(preset ? { preset } : {}), ...withBots() });
  };
  await load();
  setInterval(load, EVERY);
}

main();
