// Taking a seat at an open table, from the home page's Play now or the lobby: this browser's
// player first (a guest with the typed name if it has none), then the seat, then the table.

import { ensurePlayer, post } from "./me.js";

// ``url``: /api/play or a table's /api/lobby/ID/join; ``name``: the typed name (may be empty);
// ``fail(message)`` shows why nothing happened.
export async function takeSeat(url, body, name, fail) {
  fail("");
  if (name) localStorage.setItem("euchre:name", name);
  const [made, who] = await ensurePlayer(name || undefined);
  if (!made) { fail(who.error || "could not take that name"); return false; }
  const [ok, out] = await post(url, { ...body, name: name || undefined });
  if (!ok) { fail(out.error || "no seat now: try again"); return false; }
  location.assign(out.url);
  return true;
}
