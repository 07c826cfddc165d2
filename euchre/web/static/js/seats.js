// Where each seat is drawn, shared by the table and the replay: the viewer's own seat at the
// bottom and the others clockwise from it (left, top, right), so a replay looks as the game did.

export function positions(n) {
  return { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] }[n];
}

// The place of ``seat`` for a viewer sitting at ``base`` (a spectator sees seat 0 at the bottom).
export function seatPosition(n, seat, base) {
  const b = base >= 0 ? base : 0;
  return positions(n)[(seat - b + n) % n];
}

const key = (tableId) => `euchre:me:${tableId}`;

// The table page remembers which seat this browser played, so the replay can put it at the
// bottom; nothing secret (the seat number is on every state message).
export function rememberSeat(tableId, seat) {
  if (seat >= 0) localStorage.setItem(key(tableId), String(seat));
}

export function rememberedSeat(tableId) {
  const v = Number(localStorage.getItem(key(tableId)));
  return Number.isInteger(v) && localStorage.getItem(key(tableId)) !== null ? v : -1;
}
