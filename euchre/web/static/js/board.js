// The table drawn from one frame, shared by the replay (every hand face up) and the review (the
// deciding seat's hand face up, the others' cards face down): seats around the felt, the trick
// or the up-card in the middle.

import { backEl, cardEl, cardShort, SUIT_SYMBOL } from "./cards.js";
import { seatPosition } from "./seats.js";

export function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}

// A seat's cards: a list of cards face up, or a count of cards face down.
function handEl(cards) {
  const hand = make("div", "rhand");
  if (typeof cards === "number") {
    hand.classList.add("backs");
    for (let k = 0; k < cards; k++) hand.append(backEl({ small: true }));
  } else {
    for (const c of cards) hand.append(cardEl(c, { small: true }));
  }
  return hand;
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

// Draw frame ``f`` into ``board`` with ``viewer``'s seat at the bottom (-1: seat 0), and
// ``mark`` (a seat, or -1) highlighted as the one to decide.
export function drawBoard(board, f, names, viewer, mark = -1) {
  const n = f.hands.length;
  const rows = f.rows && f.rows.length;
  board.replaceChildren();
  for (let s = 0; s < n; s++) {
    const box = make("div", "rseat" + (s === mark ? " deciding" : ""));
    box.style.gridArea = seatPosition(n, s, viewer < n ? viewer : -1);
    box.append(make("b", "", `${names[s]}${s === f.dealer ? " (dealer)" : ""}${s === f.maker ? (f.alone ? " · alone" : " · maker") : ""}`));
    box.append(handEl(f.hands[s]));
    if (rows) box.append(rowEl(f.rows[s]));
    box.append(make("span", "small", `tricks ${f.tricks_won[s]}${f.bids_tricks ? ` of ${f.tricks_per_hand}` : ""}`));
    board.append(box);
  }
  const center = make("div", "rcenter");
  if (f.trick.length) {
    for (const [s, c] of f.trick) {
      const cell = make("div", "trick-cell");
      cell.append(cardEl(c), make("span", "", names[s]));
      center.append(cell);
    }
  } else if (f.upcard && !f.trump) {
    const down = f.upcard_status === "turned down";
    const up = cardEl(f.upcard);
    if (down) up.classList.add("turned-down");
    center.append(up, make("span", "", down ? "up-card, turned down" : "up-card"));
  }
  board.append(center);
}

// "Score: North & South 3, East & West 5 (to 10)": four-handed by side, else by seat.
export function scoreText(names, scores, target) {
  const sides = names.length === 4 ? [`${names[0]} & ${names[2]}`, `${names[1]} & ${names[3]}`] : names;
  return "Score: " + scores.map((v, s) => `${sides[s]} ${v}`).join(", ") + ` (to ${target})`;
}

// What a moment of a hand (a review's decision, a puzzle, a trainer's position) shows besides
// the table: the up-card, the trump and the bidding so far, one line.
export function momentFacts(m) {
  const bids = m.bids.filter((e) => e.text).map((e) => e.text);  // the server's words
  const parts = [];
  if (m.upcard) parts.push(`Up-card ${cardShort(m.upcard)} (${m.upcard_status})`);
  if (m.trump) parts.push(`Trump ${SUIT_SYMBOL[m.trump]}`);
  parts.push(bids.length ? `Bidding so far: ${bids.join(", ")}` : "No bids yet");
  return parts.join(" · ");
}

// The deciding seat's hand at full size in `box`, labelled (the table draws it small): what a
// bid rests on, shown by the puzzles and the trainer.
export function showHand(box, cards) {
  box.replaceChildren(make("span", "hand-label", "Your hand"), ...cards.map((c) => cardEl(c)));
}

// An option's one gap to the best, as the range the verdict rests on, said as firm or as a
// close call (the service's `range` and `firm`; null `range` for the best).
export function rangeWords(o) {
  if (o.range === null) return "the best";
  return o.firm ? `clearly worse: ${o.range}` : `a close call: ${o.range}`;
}
