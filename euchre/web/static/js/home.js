// Home page: a form generated from the engine's own list of rules options (/api/options), so
// every option and preset the engine has is offered, and the finished games.

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

function presetValues(name) {
  const values = {};
  for (const o of OPT.options) values[o.name] = o.default;
  Object.assign(values, OPT.presets[name] || {});
  if (values.going_alone === null || values.going_alone === undefined) values.going_alone = values.players === 4;
  if (!(name in OPT.presets) || !("going_alone" in OPT.presets[name])) values.going_alone = values.players === 4;
  return values;
}

function buildRules(values) {
  const box = $("rules");
  box.replaceChildren();
  const sbox = $("scoring");
  sbox.replaceChildren();
  for (const o of OPT.options) {
    if (o.kind === "scoring") {
      const sc = Object.assign({}, o.default, values.scoring || {});
      for (const f of o.fields) {
        const label = make("label", "", f.replace(/_/g, " "));
        const input = make("input");
        input.type = "number"; input.min = "0"; input.max = "99"; input.value = sc[f];
        input.dataset.scoring = f;
        label.append(input);
        sbox.append(label);
      }
      continue;
    }
    const label = make("label", "", o.label);
    if (o.help) label.title = o.help;  // what the option does, on hover
    let input;
    if (o.kind === "bool") {
      input = make("input"); input.type = "checkbox"; input.checked = !!values[o.name];
    } else if (o.kind === "int") {
      input = make("input"); input.type = "number"; input.min = o.min; input.max = o.max; input.value = values[o.name];
    } else {
      input = make("select");
      for (const c of o.choices) {
        const opt = make("option", "", String(c).replace(/_/g, " "));
        opt.value = String(c);
        input.append(opt);
      }
      input.value = String(values[o.name]);
    }
    input.name = o.name;
    input.dataset.kind = o.kind;
    input.id = "opt-" + o.name;
    if (o.help) input.setAttribute("aria-description", o.help);
    label.append(input);
    box.append(label);
  }
  $("opt-players").onchange = () => {
    const n = Number($("opt-players").value);
    const v = readRules();
    v.players = n;
    v.going_alone = n === 4;
    if (n !== 4) Object.assign(v, { defend_alone: false, canadian_loner: false, alone_timing: "with_bid", defend_alone_vs_partners: false });
    buildRules(v);
    buildSeats(n);
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
    const o = make("option", "", l);
    o.value = l;
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
    for (const [v, t] of [["me", "me"], ["friend", "a friend (invite link)"], ["computer", "computer"]]) {
      const o = make("option", "", t);
      o.value = v;
      kind.append(o);
    }
    kind.value = i === (n === 4 ? 2 : 0) ? "me" : "computer";
    kind.onchange = () => {
      if (kind.value === "me") {
        for (const other of box.querySelectorAll("select.kind")) if (other !== kind && other.value === "me") other.value = "computer";
      }
    };
    const level = levelSelect(OPT.default_level);
    level.setAttribute("aria-label", `${names[i]}: computer level (also plays for an absent person)`);
    row.append(kind, make("span", "small", "level"), level);
    box.append(row);
  }
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
    seats.push({ kind: kind === "computer" ? "computer" : "human", level });
  }
  const name = $("name").value.trim() || "You";
  localStorage.setItem("euchre:name", name);
  const res = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ preset: "standard", rules, seats, my_seat: mySeat, name }),
  });
  const body = await res.json();
  if (!res.ok) { $("form-error").textContent = body.error; return; }
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
    tr.append(make("td", "", t.names.join(", ")));
    // no scores: closed unfinished after being abandoned
    tr.append(make("td", "", t.scores.length ? t.scores.join(" – ") : "abandoned"));
    const links = make("td");
    const rep = make("a", "", "replay");
    rep.href = `/replay/${encodeURIComponent(t.id)}`;
    const rec = make("a", "", "record");
    rec.href = `/api/tables/${encodeURIComponent(t.id)}/record`;
    links.append(rep, " · ", rec);
    tr.append(links);
    tbody.append(tr);
  }
}

async function main() {
  OPT = await (await fetch("/api/options")).json();
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
  $("name").value = localStorage.getItem("euchre:name") || "You";
  const v = presetValues("standard");
  buildRules(v);
  buildSeats(v.players);
  $("create").onsubmit = create;
  loadFinished();
}

main();
