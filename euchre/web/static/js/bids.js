// A bid in words, as the table shows it and the review lists the bidding: "Pick it up" for the
// dealer, "Assist" for the dealer's partner, "♥ hearts alone", "Bid 8 tricks". ``s`` needs only
// the hand's ``dealer`` and ``players``.

import { cardShort, SUIT_SYMBOL, SUITS } from "./cards.js";

const BID_WORDS = { pass: "Pass", order: "Order up", "order alone": "Order up alone",
  "defend alone": "Defend alone", alone: "Go alone", partner: "Play with partner",
  decline: "Decline", take: "Take it", farmer: "Farmer's hand: redeal", misdeal: "Call a misdeal",
  "claim renege": "Claim a renege" };

export function bidText(s, code, seat) {
  let m = /^bid (\d+)$/.exec(code);
  if (m) return `Bid ${m[1]} tricks`;
  m = /^call ([CDHS])( alone)?$/.exec(code);
  if (m) return `${SUIT_SYMBOL[m[1]]} ${SUITS[m[1]]}${m[2] ? " alone" : ""}`;
  if (code.startsWith("order") && s && seat === s.dealer) {
    return code === "order" ? "Pick it up" : "Pick it up alone";
  }
  if (code.startsWith("order") && s && s.players === 4 && seat === (s.dealer + 2) % 4) {
    return code === "order" ? "Assist" : "Assist alone";
  }
  m = /^swap (.+)$/.exec(code);
  if (m) return "Swap " + m[1].split(" ").map(cardShort).join(" ");
  return BID_WORDS[code] || code;
}
