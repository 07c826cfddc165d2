// Home page: a form generated from the engine's own list of rules options (/api/options), so
// every option and preset the engine has is offered, and the finished games.

import { ensurePlayer, me, post, profileUrl, showMe } from "./me.js";
import { botsChoice, takeSeat } from "./play.js";

const $ = (id) => document.getElementById(id);
let OPT = null;

function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

function seatNames(n) {
  return n === 4 ? ["North", "East", "South", "West"] : Array.from({ length: n }, (_, i) => `Player ${i + 1}`);
}

// The option's value in a game of n players when nobody sets it (going alone follows the
// player count: the server says so in default_for, from the engine's one rule).
function defaultFor(o, n) {
  return o.kind === "group" ? o.default : o.default_for[String(n)];
}

function presetValues(name) {
  const preset = OPT.presets[name] || {};
  const n = preset.players ?? OPT.options.find((o) => o.name === "players").default;
  const values = {};
  for (const o of OPT.options) values[o.name] = defaultFor(o, n);
  return Object.assign(values, preset);
}

// The option's words, and the player counts it exists for when not every count.
function optionHelp(o) {
  const counts = OPT.options.find((x) => x.name === "players").choices;
  const only = o.players.length < counts.length ? ` (${o.players.join(" or ")} players only)` : "";
  return o.help + only;
}

function optionInput(o, value, n) {
  let input;
  if (o.kind === "bool") {
    input = make("input"); input.type = "checkbox"; input.checked = !!value;
  } else if (o.kind === "int") {
    input = make("input"); input.type = "number"; input.step = "1";
    input.min = o.min; input.max = o.max; input.value = value; input.required = true;
  } else {
    input = make("select");
    o.choices.forEach((c, i) => {
      const opt = make("option", "", o.words[i] ?? String(c));
      opt.value = String(c);
      input.append(opt);
    });
    input.value = String(value);
  }
  input.dataset.kind = o.kind;
  input.setAttribute("aria-description", optionHelp(o));
  if (!o.players.includes(n)) input.disabled = true;  // this game has no such option
  return input;
}

function buildRules(values) {
  const box = $("rules");
  box.replaceChildren();
  const sbox = $("scoring");
  sbox.replaceChildren();
  const n = values.players;
  for (const o of OPT.options) {
    if (o.kind === "group") {  // the scoring table: one number per result
      const sc = Object.assign({}, o.default, values[o.name] || {});
      for (const f of o.fields) {
        const label = make("label", "", f.label);
        label.title = optionHelp(f);
        const input = optionInput(f, sc[f.name], n);
        input.dataset.scoring = f.name;
        label.append(input);
        sbox.append(label);
      }
      continue;
    }
    const label = make("label", "", o.label);
    label.title = optionHelp(o);  // what the option does, on hover
    const input = optionInput(o, values[o.name], n);
    input.name = o.name;
    input.id = "opt-" + o.name;
    label.append(input);
    box.append(label);
  }
  $("opt-players").onchange = () => {
    const was = n;
    const now = Number($("opt-players").value);
    const v = readRules();
    v.players = now;
    for (const o of OPT.options) {
      if (o.kind === "group") continue;
      // an option this game lacks, or one left at the old count's default, takes the new default
      if (!o.players.includes(now) || v[o.name] === defaultFor(o, was)) v[o.name] = defaultFor(o, now);
    }
    buildRules(v);
    buildSeats(now);
  };
}

function readRules() {
  const out = {};
  for (const input of $("rules").querySelectorAll("input, select")) {
    const kind = input.dataset.kind;
    if (kind === "bool") out[input.name] = input.checked;
    else if (kind === "int") out[input.name] = Number(input.value);
    else {
      const n = Number(input.value);
      out[input.name] = input.value !== "" && !Number.isNaN(n) ? n : input.value;
    }
  }
  const scoring = {};
  for (const input of $("scoring").querySelectorAll("input")) scoring[input.dataset.scoring] = Number(input.value);
  out.scoring = scoring;
  return out;
}

function levelSelect(value) {
  const sel = make("select", "level");
  for (const l of OPT.levels) {
    const info = (OPT.level_info || {})[l];
    const o = make("option", "", info && info.text ? `${l} · ${info.text}` : l);  // the server's words
    o.value = l;
    if (info) o.title = info.about;
    sel.append(o);
  }
  sel.value = value;
  return sel;
}

function buildSeats(n) {
  const box = $("seats");
  box.replaceChildren();
  const names = seatNames(n);
  for (let i = 0; i < n; i++) {
    const row = make("div", "seat-row");
    row.dataset.seat = i;
    row.append(make("span", "", names[i]));
    const kind = make("select", "kind");
    kind.setAttribute("aria-label", `${names[i]}: who sits here`);
    const kinds = [["me", "me"], ["friend", "a friend (invite link)"], ["computer", "computer"]];
    if (OPT.bots !== "off") kinds.push(["bot", "a bot (by its name)"]);
    for (const [v, t] of kinds) {
      const o = make("option", "", t);
      o.value = v;
      kind.append(o);
    }
    kind.value = i === (n === 4 ? 2 : 0) ? "me" : "computer";
    const level = levelSelect(OPT.default_level);
    const label = make("span", "small level-label");
    // a bot account's seat: its name (the program connects with the bot's token)
    const bot = make("input", "bot-name");
    bot.maxLength = 24;
    bot.placeholder = "the bot's name";
    bot.setAttribute("aria-label", `${names[i]}: the bot's name`);
    kind.onchange = () => {
      if (kind.value === "me") {
        for (const other of box.querySelectorAll("select.kind")) {
          if (other !== kind && other.value === "me") { other.value = "computer"; other.onchange(); }
        }
      }
      bot.hidden = kind.value !== "bot";
      levelLabel(kind.value, names[i], label, level);
    };
    bot.hidden = true;
    levelLabel(kind.value, names[i], label, level);
    row.append(kind, bot, label, level);
    box.append(row);
  }
}

// A person's seat has a level too: the computer that plays it while they are away. Say so, or
// the level next to "me" reads as an opponent's strength.
function levelLabel(kind, seatName, label, select) {
  const words = { me: ["computer for you while you're away", "the computer that plays for you while you are away"],
    friend: ["computer while they're away", "the computer that plays for your friend while they are away"],
    computer: ["level", "how strong this computer plays"],
    bot: ["computer while it's away", "the computer that plays for the bot while its program is not connected"] }[kind];
  label.textContent = words[0];
  select.setAttribute("aria-label", `${seatName}: ${words[1]}`);
  select.title = words[1];
}

async function create(ev) {
  ev.preventDefault();
  const rules = readRules();
  const seats = [];
  let mySeat = -1;
  for (const row of $("seats").querySelectorAll(".seat-row")) {
    const kind = row.querySelector("select.kind").value;
    const level = row.querySelector("select.level").value;
    if (kind === "me") mySeat = Number(row.dataset.seat);
    if (kind === "bot") seats.push({ kind, level, bot: row.querySelector("input.bot-name").value.trim() });
    else seats.push({ kind: kind === "computer" ? "computer" : "human", level });
  }
  // The player's name: a first visit becomes a guest with it on the way (one click). Never
  // "You", which every other player's page would read as their own seat.
  const name = $("name").value.trim() || undefined;
  if (name) localStorage.setItem("euchre:name", name);
  if (mySeat >= 0) {
    const [ok, who] = await ensurePlayer(name);
    if (!ok) { $("form-error").textContent = who.error; return; }
  }
  // checked: rated whenever the table can be (the server says why not otherwise)
  const rated = $("rated").checked ? undefined : false;
  const [ok, body] = await post("/api/tables", { preset: "standard", rules, seats, my_seat: mySeat, name, rated });
  if (!ok) { $("form-error").textContent = body.error; return; }
  const invite = new URLSearchParams(body.invite_url.split("#")[1]).get("invite");
  localStorage.setItem(`euchre:invite:${body.id}`, invite);
  location.href = body.url;
}

async function loadFinished() {
  const res = await fetch("/api/tables/finished");
  const body = await res.json();
  const tbody = $("finished").querySelector("tbody");
  tbody.replaceChildren();
  if (!body.tables.length) {
    const tr = make("tr");
    const td = make("td", "", "No finished games yet.");
    td.colSpan = 4;
    tr.append(td);
    tbody.append(tr);
  }
  for (const t of body.tables) {
    const tr = make("tr");
    tr.append(make("td", "", new Date(t.finished_at * 1000).toLocaleString()));
    const who = make("td", "names");
    t.names.forEach((n, i) => { if (i) who.append(", "); who.append(n); });
    tr.append(who);
    // no scores: closed unfinished after being abandoned
    tr.append(make("td", "", t.scores.length ? t.scores.join(" – ") : "abandoned"));
    const links = make("td");
    const rep = make("a", "", "replay");
    rep.href = `/replay/${encodeURIComponent(t.id)}`;
    const rec = make("a", "", "record");
    rec.href = `/api/tables/${encodeURIComponent(t.id)}/record`;
    const rev = make("a", "", "analysis");
    rev.href = `/review/${encodeURIComponent(t.id)}`;
    links.append(rev, " · ", rep, " · ", rec);
    tr.append(links);
    tbody.append(tr);
  }
}

async function main() {
  // The remembered name fills the box only while it still holds the page's default: a name
  // typed while the options were loading is the player's, not to be overwritten.
  const box = $("name");
  const remembered = localStorage.getItem("euchre:name");
  if (remembered && box.value === box.defaultValue) box.value = remembered;
  showMe($("me"));
  // Play now: the name typed for a new table is the name at the open table too
  let withBots = () => ({});  // "Bots may play at my table", once the options say bots sit here
  $("play-now").onclick = () => takeSeat("/api/play", withBots(), $("name").value.trim(),
    (message) => { $("play-error").textContent = message; });
  me().then((who) => {
    if (!who.player) return;
    // a player plays under their player's name: shown, changed on the account page
    const label = $("name-label");
    label.firstChild.textContent = "Playing as ";
    const a = make("a", "player-link", who.player.name);
    a.href = profileUrl(who.player.name);
    label.insertBefore(a, box);
    box.value = who.player.name;
    box.hidden = true;
  });
  OPT = await (await fetch("/api/options")).json();
  withBots = botsChoice($("play-bots"), OPT.bots === "allowed");
  const preset = $("preset");
  for (const name of Object.keys(OPT.presets)) {
    const o = make("option", "", name);
    o.value = name;
    preset.append(o);
  }
  preset.onchange = () => {
    const v = presetValues(preset.value);
    buildRules(v);
    buildSeats(v.players);
  };
  const v = presetValues("standard");
  buildRules(v);
  buildSeats(v.players);
  for (const l of OPT.levels) {  // one line each: the rating and how it plays
    const info = (OPT.level_info || {})[l];
    if (info) $("levels-help").append(make("li", "", info.about));
  }
  $("create").onsubmit = create;
  loadFinished();
}

main();
