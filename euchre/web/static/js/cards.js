// Cards drawn by the project: an SVG face built from a fixed vocabulary (ranks, four suit paths),
// so no server string ever reaches the markup except through the whitelist in parseCard.

export const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_TEXT = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_WORD = { 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };

// Suit shapes in a 10 x 10 box.
const SUIT_PATH = {
  H: "M5 9.4C4.2 8.6 0 5.6 0 2.9 0 1.2 1.3 0 2.8 0 3.8 0 4.6.6 5 1.5 5.4.6 6.2 0 7.2 0 8.7 0 10 1.2 10 2.9 10 5.6 5.8 8.6 5 9.4Z",
  D: "M5 0 9 5 5 10 1 5Z",
  S: "M5 0C3.6 1.9 0 4.2 0 6.3 0 7.8 1.2 8.8 2.5 8.8 3.4 8.8 4.1 8.4 4.5 7.8L3.7 10H6.3L5.5 7.8C5.9 8.4 6.6 8.8 7.5 8.8 8.8 8.8 10 7.8 10 6.3 10 4.2 6.4 1.9 5 0Z",
  C: "M5 0A2.45 2.45 0 0 0 2.9 3.7 2.45 2.45 0 1 0 4.4 7.7L3.7 10H6.3L5.6 7.7A2.45 2.45 0 1 0 7.1 3.7 2.45 2.45 0 0 0 5 0Z",
};

export function parseCard(code) {
  if (code === "JOKER") return { joker: true, code };
  const m = /^([789TJQKA])([CDHS])$/.exec(code || "");
  if (!m) return null;
  return { rank: m[1], suit: m[2], code };
}

export function isRed(suit) { return suit === "H" || suit === "D"; }

export function cardName(code) {
  const c = parseCard(code);
  if (!c) return "card";
  if (c.joker) return "the Joker";
  return `${RANK_WORD[c.rank]} of ${SUITS[c.suit]}`;
}

export function cardShort(code) {
  const c = parseCard(code);
  if (!c) return "?";
  if (c.joker) return "Joker";
  return RANK_TEXT[c.rank] + SUIT_SYMBOL[c.suit];
}

export function suitSvg(suit, size = 14) {
  const fill = isRed(suit) ? "#c8102e" : "#111";
  return `<svg class="suit-icon" width="${size}" height="${size}" viewBox="-0.5 -0.5 11 11" aria-hidden="true"><path d="${SUIT_PATH[suit]}" fill="${fill}"/></svg>`;
}

const PIPS = {
  // pip layout (x, y) in the 60 x 84 face for the number cards; faces get one large suit
  7: [[22, 20], [40, 20], [31, 32], [22, 44], [40, 44], [22, 66], [40, 66]],
  8: [[22, 20], [40, 20], [31, 31], [22, 42], [40, 42], [31, 53], [22, 66], [40, 66]],
  9: [[22, 19], [40, 19], [22, 35], [40, 35], [31, 43], [22, 51], [40, 51], [22, 67], [40, 67]],
  T: [[22, 18], [40, 18], [31, 27], [22, 35], [40, 35], [22, 51], [40, 51], [31, 59], [22, 68], [40, 68]],
};

function faceSvg(c) {
  if (c.joker) {
    return `<svg viewBox="0 0 60 84" aria-hidden="true"><rect x="0.5" y="0.5" width="59" height="83" rx="5" class="face"/>` +
      `<text x="6" y="15" class="rank joker-rank">JKR</text>` +
      `<circle cx="30" cy="44" r="14" fill="#7a1fa2"/><circle cx="30" cy="44" r="7" fill="#f7c600"/>` +
      `<text x="30" y="76" text-anchor="middle" class="joker-word">JOKER</text></svg>`;
  }
  const red = isRed(c.suit);
  const color = red ? "#c8102e" : "#111";
  const path = SUIT_PATH[c.suit];
  let body = "";
  if (PIPS[c.rank]) {
    for (const [x, y] of PIPS[c.rank]) {
      body += `<path d="${path}" fill="${color}" transform="translate(${x - 5} ${y - 5})"/>`;
    }
  } else if (c.rank === "A") {
    body = `<path d="${path}" fill="${color}" transform="translate(18 30) scale(2.4)"/>`;
  } else {
    const tint = red ? "#fbe3e6" : "#e4e8f1";
    body = `<rect x="12" y="20" width="36" height="46" rx="3" fill="${tint}" stroke="${color}" stroke-width="0.8"/>` +
      `<text x="30" y="52" text-anchor="middle" class="court" fill="${color}">${RANK_TEXT[c.rank]}</text>` +
      `<path d="${path}" fill="${color}" transform="translate(24.5 23) scale(1.1)"/>`;
  }
  return `<svg viewBox="0 0 60 84" aria-hidden="true"><rect x="0.5" y="0.5" width="59" height="83" rx="5" class="face"/>` +
    `<text x="4" y="14" class="rank" fill="${color}">${RANK_TEXT[c.rank]}</text>` +
    `<path d="${path}" fill="${color}" transform="translate(4.5 17) scale(0.8)"/>` +
    body + `</svg>`;
}

// A card element; `tag` is "button" for cards the player may click.
export function cardEl(code, { tag = "div", small = false } = {}) {
  const c = parseCard(code);
  const el = document.createElement(tag);
  el.className = "card" + (small ? " small" : "");
  if (!c) return el;
  el.dataset.card = code;
  // a card that is no button is a picture with a name, so a screen reader reads every card on
  // the table (a div's aria-label alone is read by none)
  if (tag !== "button") el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  if (!c.joker) el.classList.add(isRed(c.suit) ? "red" : "black");
  el.innerHTML = faceSvg(c);  // built only from the whitelisted rank and suit above
  return el;
}

export function backEl({ small = false } = {}) {
  const el = document.createElement("div");
  el.className = "card back" + (small ? " small" : "");
  el.setAttribute("aria-hidden", "true");
  return el;
}
