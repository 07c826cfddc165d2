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

// "Bots may play at my table", beside every Play now (the home page's and the lobby's): shown
// where the server seats bots by themselves (``euchre serve --bots allowed``), remembered in
// this browser. ``holder``: the element it goes in (hidden until then). Returns what Play now
// adds to its request for it.
const BOTS_KEY = "euchre:bots";

export function botsChoice(holder, allowed) {
  holder.hidden = !allowed;
  if (!allowed) return () => ({});
  if (!holder.firstChild) {
    const label = document.createElement("label");
    label.title = "Bot accounts are programs playing online; they take at most half of a table's seats, and the lobby marks them. Unchecked: you sit at no table with a bot, and a table made for you takes none";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = localStorage.getItem(BOTS_KEY) !== "no";
    box.onchange = () => localStorage.setItem(BOTS_KEY, box.checked ? "yes" : "no");
    label.append(box, " Bots may play at my table");
    holder.append(label);
  }
  const box = holder.querySelector("input");
  return () => (box.checked ? {} : { bots: false });
}
