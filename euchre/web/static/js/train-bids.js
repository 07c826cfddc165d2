// The bidding trainer: the server deals a position whose answer is clear (one bid leads every
// other firmly) and values every bid; this page shows the table as the seat sees it, takes a
// bid, then shows every bid's expected points with its 95% interval, how far behind the best
// each one is, and the service's words.

import { drawBoard, make, momentFacts, rangeWords, showHand } from "./board.js";
import { showMe } from "./me.js";

showMe(document.getElementById("me"));  // the top bar's sign-in and leaderboard, as on every page

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let pos = null;
let right = 0;
let asked = 0;
let seed = params.has("seed") ? Number(params.get("seed")) : Math.floor(Math.random() * 1e9);

function signed(x) { return `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`; }

async function deal() {
  $("answer").hidden = true;
  $("choices").replaceChildren();
  $("hand").hidden = true;
  $("question").textContent = "";
  $("position-h").textContent = "Dealing a position whose answer is clear…";
  $("error").hidden = true;
  const q = new URLSearchParams({ seed: String(seed), round: $("round").value });
  let res, body;
  try {
    res = await fetch(`/api/train-bids?${q}`);
    body = await res.json();
  } catch (err) {
    res = { status: 0 };
    body = { error: "the server could not be reached; try again" };
  }
  if (res.status !== 200) {
    $("error").hidden = false;
    $("error").textContent = body.error || "no position could be dealt";
    $("position-h").textContent = "No position";
    return;
  }
  pos = body;
  show();
}

function show() {
  const m = pos.moment;
  const names = m.hands.map((_, s) => (s === pos.seat ? "You" : ["North", "East", "South", "West"][s] || `Seat ${s}`));
  $("position-h").textContent = `Position ${asked + 1}: you are ${pos.seat_name}, ${pos.dealer === pos.seat ? "you deal" : `${pos.dealer_name} deals`}, round ${pos.round}`;
  $("facts").textContent = momentFacts(m);
  drawBoard($("board"), m, names, pos.seat, pos.seat);
  // the hand the bid rests on, at full size (the table draws it small)
  const hand = $("hand");
  showHand(hand, m.hands[pos.seat]);
  hand.hidden = false;
  $("question").textContent = "Your bid?";
  const box = $("choices");
  box.replaceChildren();
  for (const b of pos.bids) {
    const el = make("button", "choice-bid", b.label);
    el.dataset.action = b.action;
    el.onclick = () => answer(b.action);
    box.append(el);
  }
}

function answer(action) {
  asked += 1;
  const ok = action === pos.answer;
  right += ok;
  for (const b of $("choices").children) {
    b.disabled = true;
    b.classList.toggle("picked", b.dataset.action === action);
    b.classList.toggle("answer", b.dataset.action === pos.answer);
  }
  const best = pos.values[0];
  const mine = pos.values.find((v) => v.action === action);
  const verdict = $("verdict");
  verdict.className = `verdict ${ok ? "best" : "clear"}`;
  verdict.textContent = ok ? `Right: ${best.label} is the best bid.` :
    `Not the best: ${mine.label} brings ${mine.range} than ${best.label}.`;
  const table = $("values");
  table.replaceChildren();
  const head = make("tr");
  for (const h of ["Bid", "Points this hand (±95%)", ""]) head.append(make("th", "", h));
  table.append(head);
  for (const v of pos.values) {
    const tr = make("tr");
    if (v.action === pos.answer) tr.classList.add("best");
    // each bid's one gap to the best, said as firm or as a close call
    const label = make("td", "opt-label", v.label);
    label.append(make("div", "range", rangeWords(v)));
    tr.append(label, make("td", "num", `${signed(v.points)} ± ${v.ci95.toFixed(2)}`));
    const marks = make("td", "marks");
    if (v.action === pos.answer) marks.append(make("span", "badge best", "best"));
    if (v.action === action) marks.append(make("span", "badge chosen", "your bid"));
    tr.append(marks);
    table.append(tr);
  }
  $("words").textContent = pos.words;
  $("answer").hidden = false;
  $("score").textContent = `${right} of ${asked} best`;
  $("next").focus();
}

$("next").onclick = () => { seed += 1; deal(); };
$("round").onchange = () => { deal(); };
if (params.has("round")) $("round").value = params.get("round");
deal();
