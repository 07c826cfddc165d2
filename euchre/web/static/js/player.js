// A player's profile: their rating with its margin, games and hands, the rating over time as a
// chart (the page's own SVG), and their finished games with links to replay, analysis and
// the player's own clear mistakes of each as puzzles.

import { me, showMe } from "./me.js";
import { showMissing } from "./missing.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/")[2] || "");
const SVG = "http://www.w3.org/2000/svg";

function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// The rating after each rated game, with its 95% band.
function chart(box, history) {
  box.replaceChildren();
  if (!history.length) { box.append(make("p", "small", "No rated games yet.")); return; }
  const W = 600, H = 220, L = 48, R = 12, T = 12, B = 28;
  const lo = Math.min(...history.map((h) => h.rating - h.plus_minus));
  const hi = Math.max(...history.map((h) => h.rating + h.plus_minus));
  const span = Math.max(1, hi - lo);
  const x = (i) => L + (history.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (history.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / span;
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart" });
  el.append(svg("title", {}));
  el.firstChild.textContent = `Rating over ${history.length} rated game${history.length === 1 ? "" : "s"}: now ${history[history.length - 1].rating}`;
  const band = history.map((h, i) => `${x(i)},${y(h.rating + h.plus_minus)}`)
    .concat(history.map((h, i) => `${x(i)},${y(h.rating - h.plus_minus)}`).reverse());
  el.append(svg("polygon", { points: band.join(" "), class: "band" }));
  el.append(svg("polyline", { points: history.map((h, i) => `${x(i)},${y(h.rating)}`).join(" "), class: "line" }));
  history.forEach((h, i) => {  // each game's rating with its 95% margin, seen even for one game
    el.append(svg("line", { x1: x(i), x2: x(i), y1: y(h.rating + h.plus_minus), y2: y(h.rating - h.plus_minus), class: "whisker" }));
    el.append(svg("circle", { cx: x(i), cy: y(h.rating), r: 3.5, class: "dot" }));
  });
  for (const v of [hi, (hi + lo) / 2, lo]) {
    const t = svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" });
    t.textContent = String(Math.round(v));
    el.append(t);
  }
  const t = svg("text", { x: (W + L) / 2, y: H - 6, "text-anchor": "middle", class: "axis" });
  t.textContent = "rated games, oldest first";
  el.append(t);
  box.append(el);
}

const STATS = [["games", "Games"], ["won", "Won"], ["hands", "Hands played"], ["made", "Made trump and made it"],
  ["euchred", "Made trump and was euchred"], ["euchres", "Euchred the makers"], ["lone", "Lone hands"],
  ["lone_made", "Lone hands made"], ["lone_marches", "Lone marches (all five)"], ["lone_euchred", "Lone hands euchred"]];

async function main() {
  showMe($("me"));
  const res = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const p = await res.json();
  if (showMissing(res, p)) return;
  if (!res.ok) { $("who").textContent = p.error; return; }
  document.title = `${p.name} · Euchre`;
  $("who").textContent = p.kind === "computer" ? `${p.name} (computer level)` :
    p.kind === "bot" ? `${p.name} (bot)` : p.name;
  if (p.kind === "bot") {  // a program that plays here with an account of its own
    $("rating").before(make("p", "small", `A bot: a program that plays here with an account of its own, kept by ${p.owner || "the site's operator"}.`));
  }
  $("rating").textContent = `Rating ${p.rating_text} · ${p.rated_games} rated game${p.rated_games === 1 ? "" : "s"}`;
  if (p.calibration) {  // a computer level: where its rating started
    $("rating").after(make("p", "small", `Measured at ${p.calibration.text} over ${p.calibration.games} games against the other levels (the calibration run, euchre rate --levels), where its rating here started.`));
  }
  const dl = $("stats");
  for (const [k, label] of STATS) {  // each label with its number, one grid cell
    const pair = make("div", "stat");
    pair.append(make("dt", "", label), make("dd", "", String(p.stats[k])));
    dl.append(pair);
  }
  chart($("chart"), p.history);
  const viewer = await me();
  const mine = viewer.player && viewer.player.name === p.name;  // "your" only to its owner
  const tbody = $("games").querySelector("tbody");
  if (!p.games.length) {
    const tr = make("tr");
    const td = make("td", "", "No finished games yet.");
    td.colSpan = 5;
    tr.append(td);
    tbody.append(tr);
  }
  for (const g of p.games) {
    const tr = make("tr");
    tr.append(make("td", "", new Date(g.finished_at * 1000).toLocaleString()));
    tr.append(make("td", "", g.names.join(", ")));
    // this player's side first (a level on both sides: North-South first)
    tr.append(make("td", "", (g.won === null ? g.scores : g.score).join(" – ")));
    const change = g.rating_change === null ? "unrated" : `${g.rating_change > 0 ? "+" : ""}${g.rating_change}`;
    // a computer level seated on both sides neither won nor lost
    const result = g.won === null ? "both sides" : g.won ? "won" : "lost";
    // a seat held for part of the game (left, or taken over): rated for that part
    const part = g.shares.length === 1 && g.shares[0] < 1 ? ` · played ${Math.round(g.shares[0] * 100)}%` : "";
    // the change of the rating's centre, beside the rating it moved to with its margin
    const after = g.rating_change !== null && g.rating_after ? ` → ${g.rating_after}` : "";
    tr.append(make("td", g.won === null ? "" : result, `${result} · ${change}${after}${part}`));
    const links = make("td");
    const rev = make("a", "", "analysis");
    rev.href = g.analysis;
    const rep = make("a", "", "replay");
    rep.href = g.replay;
    const puz = make("a", "", mine ? "your mistakes" : "mistakes at this seat");
    puz.href = g.puzzles;
    puz.title = mine ? "Your clear mistakes of this game, to play again" : "The clear mistakes made at this seat in this game, to play again";
    links.append(rev, " · ", rep, " · ", puz);
    tr.append(links);
    tbody.append(tr);
  }
}

main();
