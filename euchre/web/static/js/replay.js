// Step-by-step replay of a finished game, every hand face up (the game is over, so nothing is
// secret any more). The server sends one frame per action, built by the engine.

import { cardEl, cardShort, SUIT_SYMBOL, SUITS } from "./cards.js";
import { rememberedSeat, seatPosition } from "./seats.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
let data = null;
let i = 0;
let timer = null;

function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

// The seat this browser played at that table, drawn at the bottom as it was during the game
const viewer = rememberedSeat(tableId);

function show(k) {
  i = Math.max(0, Math.min(data.frames.length - 1, k));
  const f = data.frames[i];
  const n = data.players;
  $("step").value = String(i);
  $("where").textContent = `step ${i} of ${data.frames.length - 1} · hand ${f.hand_no}`;
  const ev = f.event;
  $("event").textContent = ev ? `${data.names[ev.seat]}: ${ev.kind === "play" ? cardShort(ev.card) : ev.text}` : "The deal.";
  const noUp = f.rows && f.rows.length ? "No up-card: bidding for tricks" : `Up-card ${f.upcard ? cardShort(f.upcard) : "—"}`;
  $("trump-badge").textContent = f.trump ? `Trump ${SUIT_SYMBOL[f.trump]} ${SUITS[f.trump]}` : noUp;
  const board = $("board");
  board.replaceChildren();
  for (let s = 0; s < n; s++) {
    const box = make("div", "rseat");
    box.style.gridArea = seatPosition(n, s, viewer < n ? viewer : -1);
    box.append(make("b", "", `${data.names[s]}${s === f.dealer ? " (dealer)" : ""}${s === f.maker ? (f.alone ? " · alone" : " · maker") : ""}`));
    const hand = make("div", "rhand");
    for (const c of f.hands[s]) hand.append(cardEl(c, { small: true }));
    box.append(hand);
    if (f.rows && f.rows.length) box.append(rowEl(f.rows[s]));
    box.append(make("span", "small", `tricks ${f.tricks_won[s]}${f.rows && f.rows.length ? " of 12" : ""}`));
    board.append(box);
  }
  const center = make("div", "rcenter");
  if (f.trick.length) {
    for (const [s, c] of f.trick) {
      const cell = make("div", "trick-cell");
      cell.append(cardEl(c), make("span", "", data.names[s]));
      center.append(cell);
    }
  } else if (f.upcard && !f.trump) {
    center.append(cardEl(f.upcard), make("span", "", "up-card"));
  }
  board.append(center);
  const sides = n === 4 ? [`${data.names[0]} & ${data.names[2]}`, `${data.names[1]} & ${data.names[3]}`] : data.names;
  $("score").textContent = "Score: " + f.scores.map((v, s) => `${sides[s]} ${v}`).join(", ") + ` (to ${data.target})`;
}

// Two-handed with rows: a seat's four columns, each its face-up card with the card still face
// down under it shown faded (the game is over, so it may be seen now), or the card turned up.
function rowEl(cols) {
  const row = make("div", "rrow");
  for (const col of cols) {
    const box = make("div", "rcol");
    if (col.card) box.append(cardEl(col.card, { small: true }));
    if (col.under) {
      const u = cardEl(col.under, { small: true });
      u.classList.add("under");
      u.title = "face down";
      box.append(u);
    }
    row.append(box);
  }
  row.title = "row: face-up cards, with the face-down card under each faded";
  return row;
}

function playPause() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ play"; return; }
  $("play").textContent = "❚❚ pause";
  timer = setInterval(() => { if (i >= data.frames.length - 1) playPause(); else show(i + 1); }, 700);
}

async function main() {
  const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  const body = await res.json();
  if (!res.ok) { $("event").textContent = body.error; return; }
  data = body;
  $("step").max = String(data.frames.length - 1);
  $("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(i - 1);
  $("next").onclick = () => show(i + 1);
  $("last").onclick = () => show(data.frames.length - 1);
  $("play").onclick = playPause;
  $("step").oninput = () => show(Number($("step").value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(i + 1);
    else if (e.key === "ArrowLeft") show(i - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(data.frames.length - 1);
    else if (e.key === " ") { playPause(); e.preventDefault(); }
  });
  show(0);
}

main();
