// A player's own clear mistakes, posed again: the server reviews the finished game (as the
// review page asks, the same budget and judge) and gives the seat's clear mistakes as puzzles;
// this page shows each at the table as the player saw it, asks for a card or a bid, then says
// whether it was the best, with every option's value and its error, and why.

import { drawBoard, make, momentFacts, rangeWords, showHand } from "./board.js";
import { showMissing } from "./missing.js";
import { cardEl } from "./cards.js";
import { showMe } from "./me.js";

showMe(document.getElementById("me"));  // the top bar's sign-in and leaderboard, as on every page

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);

let set = null;
let at = 0;
let right = 0;

function pct(x) { return `${(100 * x).toFixed(1)}%`; }

// An option's value in the puzzle's unit with its 95% interval.
function valueText(o, win) {
  if (win && o.win !== undefined) return o.win_ci95 === null || o.win_ci95 === undefined ? pct(o.win) : `${pct(o.win)} ± ${pct(o.win_ci95)}`;
  const sign = o.points >= 0 ? "+" : "−";
  return `${sign}${Math.abs(o.points).toFixed(2)}` + (o.ci95 === null ? "" : ` ± ${o.ci95.toFixed(2)}`);
}

function show(i) {
  const p = set.puzzles[i];
  const m = p.moment;
  const names = set.source.players.length ? set.source.players : m.hands.map((_, s) => `Seat ${s}`);
  $("puzzle").hidden = false;
  $("done").hidden = true;
  $("answer").hidden = true;
  $("puzzle-h").textContent = `Puzzle ${i + 1} of ${set.puzzles.length}: hand ${p.hand}, ${p.when}`;
  $("facts").textContent = momentFacts(m);
  drawBoard($("board"), m, names, p.seat, p.seat);
  const kind = p.kind || "play";
  // a bid rests on the whole hand: shown at full size (the table draws it small); a card
  // play's choices are the hand's cards themselves
  const hand = $("hand");
  showHand(hand, m.hands[p.seat]);
  hand.hidden = kind !== "bid";
  $("question").textContent = kind === "play" ? "Which card is best here?" : kind === "discard" ? "Which card do you bury?" : "Which bid is best here?";
  const box = $("choices");
  box.replaceChildren();
  for (const o of p.choices) {
    let b;
    if (kind === "play" || kind === "discard") {
      b = cardEl(o.action.split(" ")[1] || o.action, { tag: "button" });
      b.classList.add("choice-card");
    } else {
      b = make("button", "choice-bid", o.label);
    }
    b.dataset.action = o.action;
    b.onclick = () => answer(p, o.action);
    box.append(b);
  }
}

function answer(p, action) {
  const win = p.objective === "win";
  const best = p.answer_action;
  const mine = p.options.find((o) => o.action === action);
  const top = p.options.find((o) => o.action === best);
  const ok = action === best;
  right += ok;
  for (const b of $("choices").children) {
    b.disabled = true;
    b.classList.toggle("picked", b.dataset.action === action);
    b.classList.toggle("answer", b.dataset.action === best);
  }
  const verdict = $("verdict");
  verdict.className = `verdict ${ok ? "best" : mine.firm ? "clear" : "close"}`;
  // one gap, the range the review's pick rests on; a firm one and a close one read differently
  const gap = ok ? "" : `${mine.label} brings ${mine.range}${win ? " of the chance to win the game" : " this hand"} than ${top.label}`;
  verdict.textContent = (ok ? `Right: ${top.label} is the best.` : mine.firm ? `Not the best: ${gap}.` :
    `A close call: ${gap}, within the error; the review's answer is ${top.label}.`) +
    ` In the game you chose ${p.choice_label}.`;
  const table = $("values");
  table.replaceChildren();
  const head = make("tr");
  for (const h of ["Option", win ? "Chance to win (±95%)" : "Points this hand (±95%)", ""]) head.append(make("th", "", h));
  table.append(head);
  for (const o of p.options) {
    const tr = make("tr");
    if (o.action === best) tr.classList.add("best");
    // each option's one gap to the best, said as firm or as a close call
    const label = make("td", "opt-label", o.label);
    label.append(make("div", "range", rangeWords(o)));
    tr.append(label, make("td", "num", valueText(o, win)));
    const marks = make("td", "marks");
    if (o.action === best) marks.append(make("span", "badge best", "best"));
    if (o.action === action) marks.append(make("span", "badge chosen", "your answer"));
    if (o.action === p.choice_action) marks.append(make("span", "badge close", "in the game"));
    tr.append(marks);
    table.append(tr);
  }
  $("why").textContent = p.explanation;
  $("answer").hidden = false;
  $("next").textContent = at + 1 < set.puzzles.length ? "Next puzzle" : "Finish";
  $("next").focus();
}

function next() {
  at += 1;
  if (at < set.puzzles.length) { show(at); return; }
  $("puzzle").hidden = true;
  $("done").hidden = false;
  $("done-text").textContent = `${right} of ${set.puzzles.length} right.`;
}

function progress(body) {
  const text = $("progress-text");
  const bar = $("progress-bar");
  if (body.state === "queued") {
    text.textContent = `Queued for the review: ${body.position === 1 ? "next" : `number ${body.position}`} in line.`;
    bar.removeAttribute("value");
  } else if (!body.decisions) {
    text.textContent = "Reviewing the game: counting the decisions…";
    bar.removeAttribute("value");
  } else {
    text.textContent = `Reviewing the game: ${body.decisions_done} of ${body.decisions} decisions…`;
    bar.max = Math.max(1, body.decisions);
    bar.value = body.decisions_done;
  }
}

async function main() {
  const api = `/api/tables/${encodeURIComponent(tableId)}`;
  const review = new URLSearchParams(params);
  review.delete("seat");
  review.delete("player");
  $("review-link").href = `/review/${encodeURIComponent(tableId)}${review.size ? `?${review}` : ""}`;
  $("next").onclick = next;
  $("again").onclick = () => { at = 0; right = 0; show(0); };
  for (;;) {
    let res, body;
    try {
      res = await fetch(`${api}/puzzles?${params}`);
      body = await res.json();
    } catch (err) {
      body = { error: "the server could not be reached; reload the page to try again" };
      res = { status: 0 };
    }
    if (res.status === 200) { set = body; break; }
    if (showMissing(res, body)) return;
    if (res.status !== 202) {
      $("progress").hidden = true;
      $("error").hidden = false;
      $("error").textContent = body.error || "the puzzles could not be worked out";
      return;
    }
    progress(body);
    await new Promise((r) => setTimeout(r, 400));
  }
  $("progress").hidden = true;
  // a seat's mistakes, or one player's of them where others held the seat too
  const who = set.source.player || set.source.players[set.source.seat] || `seat ${set.source.seat}`;
  if (!set.puzzles.length) {
    $("summary").textContent = `${who} made no clear mistake in this game: nothing to replay.`;
    return;
  }
  $("summary").textContent = `${who}'s clear mistakes in this game, ${set.puzzles.length} of them: play each again. ` +
    "Each was confirmed by the review on two samples of deals; the values are the review's, with their 95% intervals.";
  show(0);
}

main();
