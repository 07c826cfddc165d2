// The computer analysis of a finished game: the server reviews every decision in its worker
// pool (this page polls until the review is done), then the page draws what each decision
// cost, each seat's total with its error bar, the worst decisions first, and the table at any
// decision with every option's value. Every number and label comes from the review's JSON.

import { drawBoard, make, momentFacts, scoreText } from "./board.js";
import { showMe } from "./me.js";
import { showMissing } from "./missing.js";

showMe(document.getElementById("me"));  // the top bar's sign-in and leaderboard, as on every page

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const SVG = "http://www.w3.org/2000/svg";
// One colour per seat, told apart by people with the common colour blindnesses (Okabe-Ito).
const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];
const WORST_SHOWN = 8;
const MIN_BAR = 3.6;  // pixels a decision, at least

let rev = null;
let order = [];      // decisions in game order (the chart's x axis)
let selected = -1;   // index into order
let chartX = null;   // a decision's place on the chart, in pixels

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

// A loss or value in the review's unit: points a hand, or the chance to win the game.
function amount(x, digits = 2) {
  if (rev.objective === "win") return `${(100 * x).toFixed(1)}%`;
  return x.toFixed(digits);
}
function withError(x, ci) {
  return ci === null ? `${amount(x)} ± ?` : `${amount(x)} ± ${amount(ci)}`;
}
const unit = () => (rev.objective === "win" ? " of the chance to win" : " points");

function seatName(s) {
  const seat = rev.players[s];
  const name = rev.names[s];
  return name && !name.startsWith(seat) ? `${seat} (${name})` : (name || seat);
}

function verdictOf(d) {
  if (d.clear) return { cls: "clear", text: "clear mistake" };
  if (d.loss > 0) return { cls: "close", text: "close call" };
  return { cls: "best", text: "best choice" };
}

function handWhen(d) { return `Hand ${d.hand}, ${d.when}`; }

// ---------------------------------------------------------------------------------------------
// Totals: each seat's signed total with its 95% error bar, on one scale

function drawTotals() {
  const box = $("totals");
  box.replaceChildren();
  const rows = rev.seat_totals;
  const reach = Math.max(0.01, ...rows.map((t) => Math.abs(t.loss) + (t.loss_ci95 || 0)));
  for (const t of rows) {
    const row = make("div", "total-row");
    const name = make("span", "total-name", seatName(t.seat));
    name.style.borderLeftColor = SEAT_COLOURS[t.seat];
    const W = 240, H = 22, mid = W / 2, k = (W / 2 - 6) / reach;
    const bar = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "total-bar", role: "img",
      "aria-label": `${withError(t.loss, t.loss_ci95)}${unit()} given up` });
    const x0 = mid, x1 = mid + k * t.loss;
    bar.append(svg("rect", { x: Math.min(x0, x1), y: 5, width: Math.max(1, Math.abs(x1 - x0)), height: 12, fill: SEAT_COLOURS[t.seat] }));
    if (t.loss_ci95 !== null) {
      const a = mid + k * (t.loss - t.loss_ci95), b = mid + k * (t.loss + t.loss_ci95);
      bar.append(svg("line", { x1: a, x2: b, y1: 11, y2: 11, class: "whisker" }));
      bar.append(svg("line", { x1: a, x2: a, y1: 6, y2: 16, class: "whisker" }));
      bar.append(svg("line", { x1: b, x2: b, y1: 6, y2: 16, class: "whisker" }));
    }
    bar.append(svg("line", { x1: mid, x2: mid, y1: 0, y2: H, class: "zero" }));
    const mistakes = t.mistakes === 1 ? "1 clear mistake" : `${t.mistakes} clear mistakes`;
    const text = make("span", "total-text", `${withError(t.loss, t.loss_ci95)}${unit()} · ${mistakes} · ${t.decisions} decisions`);
    if (t.mistakes) {
      // the seat's clear mistakes, to replay as puzzles (the same review: its budget and judge)
      const q = new URLSearchParams(location.search);
      q.set("seat", String(t.seat));
      const link = make("a", "puzzle-link", t.mistakes === 1 ? "replay it as a puzzle" : `replay them as puzzles`);
      link.href = `/puzzles/${encodeURIComponent(tableId)}?${q}`;
      text.append(" · ", link);
    }
    row.append(name, bar, text);
    box.append(row);
  }
  $("totals-note").textContent = "Each total adds the decisions' losses, each measured on deals apart from those that picked the best choice, so a total is not biased against the player and may come out below zero; the bar is its 95% interval (through zero: no sign of play worse than the best).";
}

// ---------------------------------------------------------------------------------------------
// The chart: a bar per decision, in game order, in its seat's colour; hands marked

function niceStep(top) {
  const raw = top / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

function drawChart() {
  const box = $("chart");
  box.replaceChildren();
  // at least a few pixels a decision: on a phone the chart scrolls sideways instead
  const W = Math.max(320, box.clientWidth || 900, Math.ceil(MIN_BAR * order.length) + 54);
  const H = 230, L = 46, R = 8, T = 10, B = 30;
  const n = order.length;
  const bw = (W - L - R) / Math.max(1, n);
  const floor = rev.objective === "win" ? 0.05 : 0.5;
  // scaled to the losses (an error bar taller than the chart is cut at its top)
  const top = Math.max(floor, ...order.map((d) => 1.15 * d.loss));
  const step = niceStep(top);
  const ymax = Math.ceil(top / step) * step;
  const y = (v) => T + (H - T - B) * (1 - Math.min(v, ymax) / ymax);
  const x = (i) => L + i * bw;
  chartX = (i) => x(i) + bw / 2;
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": `what each of ${n} decisions cost, by seat, through the game` });
  // hands: a shaded band every other hand, its number underneath
  let start = 0;
  for (let i = 1; i <= n; i++) {
    if (i < n && order[i].hand === order[start].hand) continue;
    const hand = order[start].hand;
    if (hand % 2 === 0) el.append(svg("rect", { x: x(start), y: T, width: (i - start) * bw, height: H - T - B, class: "hand-band" }));
    const wide = (i - start) * bw;
    if (wide >= 14) el.append(svg("text", { x: x(start) + wide / 2, y: H - B + 13, class: "hand-label", "text-anchor": "middle" }, wide >= 34 ? `H${hand}` : String(hand)));
    start = i;
  }
  el.append(svg("text", { x: L, y: H - 3, class: "axis-label" }, "hands →"));
  // y axis
  for (let v = 0; v <= ymax + 1e-9; v += step) {
    el.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    el.append(svg("text", { x: L - 4, y: y(v) + 4, class: "tick", "text-anchor": "end" }, amount(v, step < 0.1 ? 2 : 1)));
  }
  // bars, their error bars, and a click target per decision
  order.forEach((d, i) => {
    const cx = x(i) + bw / 2;
    const g = svg("g", { class: "decision" + (i === selected ? " selected" : ""), "data-i": i });
    g.append(svg("rect", { x: x(i), y: T, width: bw, height: H - T - B, class: "hit" }));
    if (d.loss > 0) {
      g.append(svg("rect", { x: x(i) + bw * 0.12, y: y(d.loss), width: Math.max(1, bw * 0.76), height: y(0) - y(d.loss),
        fill: SEAT_COLOURS[d.seat], "fill-opacity": d.clear ? 1 : 0.4 }));
      if (d.ci95 !== null) {
        g.append(svg("line", { x1: cx, x2: cx, y1: y(Math.max(0, d.loss - d.ci95)), y2: y(d.loss + d.ci95), class: "whisker" }));
      }
    } else {
      g.append(svg("rect", { x: x(i) + bw * 0.12, y: y(0) - 2, width: Math.max(1, bw * 0.76), height: 2, fill: SEAT_COLOURS[d.seat], "fill-opacity": 0.5 }));
    }
    g.append(svg("title", {}, `${handWhen(d)} · ${seatName(d.seat)}: ${d.choice_label}` +
      (d.loss > 0 ? `, best ${d.best_label}: ${withError(d.loss, d.ci95)}${unit()} given up (${verdictOf(d).text})` : " (best choice)")));
    g.addEventListener("click", () => select(i));
    el.append(g);
  });
  box.append(el);
}

function drawLegend() {
  const box = $("legend");
  box.replaceChildren();
  rev.players.forEach((_, s) => {
    const item = make("span", "legend-item");
    const sw = make("span", "swatch");
    sw.style.background = SEAT_COLOURS[s];
    item.append(sw, seatName(s));
    box.append(item);
  });
}

// ---------------------------------------------------------------------------------------------
// The worst decisions, and one decision at the table

function drawWorst(all = false) {
  const list = $("worst");
  list.replaceChildren();
  const costly = rev.decisions.filter((d) => d.loss > 0);
  if (!costly.length) {
    list.append(make("li", "", "No decision gave anything up beyond the noise: every choice was as good as the best the review found."));
  }
  for (const d of all ? costly : costly.slice(0, WORST_SHOWN)) {
    const li = make("li");
    const b = make("button", "worst-item");
    const v = verdictOf(d);
    b.append(make("span", `badge ${v.cls}`, v.text), make("span", "worst-where", `${handWhen(d)} · ${seatName(d.seat)}`));
    b.append(make("span", "worst-what", `${d.choice_label}, best ${d.best_label}: ${withError(d.loss, d.ci95)}${unit()}`));
    b.style.borderLeftColor = SEAT_COLOURS[d.seat];
    b.dataset.i = String(order.indexOf(d));
    b.classList.toggle("selected", Number(b.dataset.i) === selected);
    b.onclick = () => select(order.indexOf(d));
    li.append(b);
    list.append(li);
  }
  $("more").hidden = all || costly.length <= WORST_SHOWN;
  $("more").textContent = `Show all ${costly.length}`;
}

function select(i) {
  if (i < 0 || i >= order.length) return;
  selected = i;
  const d = order[i];
  const m = d.moment;
  document.querySelectorAll("#chart .decision, #worst .worst-item").forEach((g) => g.classList.toggle("selected", Number(g.dataset.i) === i));
  const box = $("chart");  // a chart wider than the screen shows the chosen decision
  if (chartX && box.scrollWidth > box.clientWidth) {
    const at = chartX(i);
    if (at < box.scrollLeft + 20 || at > box.scrollLeft + box.clientWidth - 20) box.scrollLeft = Math.max(0, at - box.clientWidth / 2);
  }
  $("detail-h").textContent = `${handWhen(d)}: ${seatName(d.seat)} to ${d.phase === "play" ? "play" : "decide"}`;
  $("detail-facts").textContent = momentFacts(m);
  drawBoard($("board"), m, rev.players.map((_, s) => seatName(s)), d.seat, d.seat);
  $("detail-score").textContent = scoreText(rev.players, m.scores, rev.target);
  const table = $("options");
  table.replaceChildren();
  const head = make("tr");
  const hasWin = d.options.some((o) => o.win !== undefined);
  for (const h of ["Option", "Points this hand (±95%)", ...(hasWin ? ["Chance to win (±95%)"] : []), ""]) head.append(make("th", "", h));
  table.append(head);
  for (const o of d.options) {
    const tr = make("tr");
    const marks = [];
    if (o.action === d.choice) { marks.push("chosen"); tr.classList.add("chosen"); }
    if (o.action === d.best) { marks.push("best"); tr.classList.add("best"); }
    const sign = o.points >= 0 ? "+" : "−";
    tr.append(make("td", "opt-label", o.label));
    tr.append(make("td", "num", `${sign}${Math.abs(o.points).toFixed(2)} ± ${o.ci95 === null ? "?" : o.ci95.toFixed(2)}`));
    if (hasWin) tr.append(make("td", "num", o.win === undefined ? "" : `${(100 * o.win).toFixed(0)}%` +
      (o.win_ci95 === undefined ? "" : ` ± ${(100 * o.win_ci95).toFixed(0)}%`)));
    const mk = make("td", "marks");
    for (const w of marks) mk.append(make("span", `badge ${w}`, w));
    tr.append(mk);
    table.append(tr);
  }
  $("pick-note").hidden = d.deals === 0;
  const v = verdictOf(d);
  const verdict = $("verdict");
  verdict.className = `verdict ${v.cls}`;
  verdict.textContent = d.loss > 0
    ? `${d.choice_label} gave up ${withError(d.loss, d.ci95)}${unit()} against ${d.best_label}: ` +
      (d.clear ? "a clear mistake: the deals that picked the best and fresh deals both say so." : "not confirmed beyond the error: a close call.")
    : `${d.choice_label} was the best choice, or as good as any the review could tell apart.`;
  $("why").textContent = d.why;
}

// ---------------------------------------------------------------------------------------------

function show(body) {
  rev = body.review;
  order = [...rev.decisions].sort((a, b) => a.hand - b.hand || a.index - b.index);
  $("progress").hidden = true;
  $("result").hidden = false;
  const judge = `Judged by ${rev.objective_words}`;
  $("summary").textContent = `${judge} · ${order.length} decisions, ${body.deals} deals each (card plays solved double-dummy over deals consistent with what the player saw, bids played out) · reviewed in ${body.seconds} s`;
  // the other judge, where this game has both (a two-sided game to a target score)
  const other = rev.objective === "win" ? "points" : "win";
  const knowsWin = rev.decisions.some((d) => d.options.some((o) => o.win !== undefined));
  const alt = $("other-objective");
  alt.hidden = other === "win" && !knowsWin;
  const q = new URLSearchParams(location.search);
  q.set("objective", other);
  alt.href = `${location.pathname}?${q}`;
  alt.textContent = other === "win" ? "Judge by the chance to win the game" : "Judge by points this hand";
  drawTotals();
  drawLegend();
  drawChart();
  drawWorst();
  $("more").onclick = () => drawWorst(true);
  const worst = rev.decisions[0];
  select(order.indexOf(worst));
  let width = $("chart").clientWidth;
  window.addEventListener("resize", () => {
    if ($("chart").clientWidth !== width) { width = $("chart").clientWidth; drawChart(); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") select(selected + 1);
    else if (e.key === "ArrowLeft") select(selected - 1);
  });
}

function progress(body) {
  const text = $("progress-text");
  const bar = $("progress-bar");
  if (body.state === "queued") {
    text.textContent = `Queued: ${body.position === 1 ? "next" : `number ${body.position}`} in line (the server reviews ${body.reviews_at_once} game${body.reviews_at_once === 1 ? "" : "s"} at a time, so that the tables' computer players keep their pace).`;
    bar.removeAttribute("value");
  } else if (!body.decisions) {
    text.textContent = "Reviewing: counting the decisions…";
    bar.removeAttribute("value");
  } else {
    text.textContent = `Reviewing: ${body.decisions_done} of ${body.decisions} decisions (${body.hands_done} of ${body.hands} hands), ${body.deals} deals each…`;
    bar.max = Math.max(1, body.decisions);
    bar.value = body.decisions_done;
  }
}

async function main() {
  const api = `/api/tables/${encodeURIComponent(tableId)}`;
  $("replay-link").href = `/replay/${encodeURIComponent(tableId)}`;
  $("record-link").href = `${api}/record`;
  const query = location.search;
  for (;;) {
    let res, body;
    try {
      res = await fetch(`${api}/review${query}`);
      body = await res.json();
    } catch (err) {
      body = { error: "the server could not be reached; reload the page to try again" };
      res = { ok: false, status: 0 };
    }
    if (res.status === 200) { show(body); return; }
    if (showMissing(res, body)) return;
    if (res.status !== 202) {
      $("progress").hidden = true;
      $("error").hidden = false;
      $("error").textContent = body.error || "the review could not be worked out";
      return;
    }
    progress(body);
    await new Promise((r) => setTimeout(r, 400));
  }
}

main();
