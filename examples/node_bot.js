#!/usr/bin/env node
// A Euchre bot for Node.js that speaks the Euchre bot protocol and nothing else: no package of
// the euchre project is needed. One JSON object per line on stdin and stdout.
//
//   euchre check-bot "cmd:node examples/node_bot.js"
//   euchre tournament "cmd:node examples/node_bot.js" rule --hands 2000
//
// It bids on the count of trumps it would hold, and in play wins a trick as cheaply as it
// can unless its partner has it already, else throws its lowest card.
"use strict";
const readline = require("readline");

const RANKS = "789TJQKA";
const SUITS = "CDHS";
const SAME_COLOUR = { C: "S", S: "C", D: "H", H: "D" };
let rules = null;

function card(text) {
  if (text === "JOKER") return { rank: "JOKER", suit: null };
  return { rank: text[0], suit: text[1] };
}

// The suit a card counts as once trump is known: the left bower (the other Jack of trump's
// colour) and the Joker are trump.
function suitOf(text, trump) {
  const c = card(text);
  if (c.rank === "JOKER") return trump;
  if (trump && c.rank === "J" && c.suit === SAME_COLOUR[trump]) return trump;
  return c.suit;
}

// Higher is stronger; trump beats every other suit, the led suit beats the rest.
function power(text, trump, led) {
  const c = card(text);
  if (c.rank === "JOKER") return 100;
  if (trump && c.rank === "J" && c.suit === trump) return 99;
  if (trump && c.rank === "J" && c.suit === SAME_COLOUR[trump]) return 98;
  const suit = suitOf(text, trump);
  const base = RANKS.indexOf(c.rank);
  if (suit === trump) return 80 + base;
  if (suit === led) return 40 + base;
  return base;
}

function trumpCount(hand, trump) {
  return hand.filter((c) => suitOf(c, trump) === trump).length;
}

function bestCall(view, prefix) {
  // The suit in which this hand holds the most trumps, and how many.
  let best = null;
  let count = -1;
  for (const s of SUITS) {
    const option = `${prefix} ${s}`;
    if (!view.legal_actions.includes(option)) continue;
    const n = trumpCount(view.hand, s);
    if (n > count) { best = option; count = n; }
  }
  return [best, count];
}

function partnerOf(seat) {
  return rules.players === 4 ? (seat + 2) % 4 : -1;
}

function decide(view) {
  const legal = view.legal_actions;
  const has = (a) => legal.includes(a);
  const need = rules.players === 4 ? 3 : 2;
  switch (view.phase) {
    case "bid1": {
      const upSuit = view.upcard ? card(view.upcard).suit : null;
      const n = upSuit ? trumpCount(view.hand, upSuit) + (view.dealer === view.seat ? 1 : 0) : 0;
      if (n >= need && has("order")) return ["order", `${n} trumps with the up-card`];
      return [has("pass") ? "pass" : legal[0], "not enough trumps to order"];
    }
    case "bid2": {
      const [call, n] = bestCall(view, "call");
      if (call && (n >= need || !has("pass"))) return [call, `${n} trumps in that suit`];
      return [has("pass") ? "pass" : legal[0], "no suit worth naming"];
    }
    case "play": {
      const plays = legal.filter((a) => a.startsWith("play "));
      if (plays.length) return [playCard(view, plays.map((a) => a.slice(5))), ""];
      break;
    }
    case "discard": {
      // Bury the weakest card.
      const cards = legal.map((a) => a.slice(8));
      cards.sort((a, b) => power(a, view.trump, null) - power(b, view.trump, null));
      return [`discard ${cards[0]}`, "the weakest card"];
    }
    default:
      break;
  }
  // Every other decision (declarations, defend alone, claims, take or decline, the rows
  // auction): pass when that is allowed, else the first option.
  return [has("pass") ? "pass" : legal[0], ""];
}

function playCard(view, cards) {
  const trump = view.trump;
  const trick = view.current_trick;
  const byPower = (led) => (a, b) => power(a, trump, led) - power(b, trump, led);
  if (trick.length === 0) {
    cards.sort(byPower(null));
    return `play ${cards[cards.length - 1]}`; // lead the strongest card
  }
  const led = suitOf(trick[0][1], trump);
  let winner = trick[0];
  for (const played of trick) {
    if (power(played[1], trump, led) > power(winner[1], trump, led)) winner = played;
  }
  cards.sort(byPower(led));
  if (winner[0] === partnerOf(view.seat)) return `play ${cards[0]}`;
  const beats = cards.filter((c) => power(c, trump, led) > power(winner[1], trump, led));
  return `play ${beats.length ? beats[0] : cards[0]}`;
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: 1, name: "node-example", deterministic: true });
      break;
    case "new_game":
      rules = message.rules;
      break;
    case "decide": {
      const [action, explanation] = decide(message.view);
      const answer = { type: "action", id: message.id, action };
      if (explanation) answer.explanation = explanation;
      send(answer);
      break;
    }
    case "quit":
      process.exit(0);
      break;
    default:
      break; // hand_end and game_end need no answer
  }
});
