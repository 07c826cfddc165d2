// Step-by-step replay of a finished game, every hand face up (the game is over, so nothing is
// secret any more). The server sends one frame per action, built by the engine.

import { drawBoard, scoreText } from "./board.js";
import { showMissing } from "./missing.js";
import { cardShort, SUIT_SYMBOL, SUITS } from "./cards.js";
import { rememberedSeat } from "./seats.js";
import { showMe } from "./me.js";

showMe(document.getElementById("me"));  // the top bar's sign-in and leaderboard, as on every page

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
let data = null;
let i = 0;
let timer = null;

// The seat this browser played at that table, drawn at the bottom as it was during the game
const viewer = rememberedSeat(tableId);

function show(k) {
  i = Math.max(0, Math.min(data.frames.length - 1, k));
  const f = data.frames[i];
  $("step").value = String(i);
  $("where").textContent = `step ${i} of ${data.frames.length - 1} · hand ${f.hand_no}`;
  const ev = f.event;
  $("event").textContent = ev ? `${ev.text}.` : "The deal.";  // the server's words
  const noUp = f.bids_tricks ? "No up-card: bidding for tricks" : `Up-card ${f.upcard ? cardShort(f.upcard) : "—"}`;
  $("trump-badge").textContent = f.trump ? `Trump ${SUIT_SYMBOL[f.trump]} ${SUITS[f.trump]}` : noUp;
  drawBoard($("board"), f, data.names, viewer);
  $("score").textContent = scoreText(data.names, f.scores, data.target);
}

function playPause() {
  if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶ play"; return; }
  $("play").textContent = "❚❚ pause";
  timer = setInterval(() => { if (i >= data.frames.length - 1) playPause(); else show(i + 1); }, 700);
}

async function main() {
  const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/replay`);
  const body = await res.json();
  if (showMissing(res, body)) return;
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
