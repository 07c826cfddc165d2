// Who this browser is: its player (a guest or an account) and the CSRF token every request
// that changes something carries. The session itself is an HttpOnly cookie this code never sees.

let ME = null;

export async function me(refresh = false) {
  if (!ME || refresh) ME = await (await fetch("/api/me", { cache: "no-store" })).json();
  return ME;
}

// A POST of JSON with the page's CSRF token; returns [ok, body].
export async function post(url, body) {
  const who = await me();
  const headers = { "Content-Type": "application/json" };
  if (who.csrf) headers["X-CSRF-Token"] = who.csrf;
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let out = {};
  try { out = await res.json(); } catch { out = { error: `the server answered ${res.status}` }; }
  if (out && "csrf" in out && "player" in out) ME = out;
  return [res.ok, out];
}

// This browser's player, made a guest with ``name`` when it has none yet (one request).
export async function ensurePlayer(name) {
  const who = await me();
  if (who.player) return [true, who];
  return post("/api/me/guest", name ? { name } : {});
}

export function profileUrl(name) {
  return `/players/${encodeURIComponent(name)}`;
}

// The top bar's link to the player's profile and account page ("Ann · account").
export async function showMe(el) {
  if (!el) return;
  const who = await me();
  el.replaceChildren();
  if (who.player) {
    const a = document.createElement("a");
    a.href = profileUrl(who.player.name);
    a.textContent = who.player.name;
    a.className = "me-name";
    el.append(a, " · ");
  }
  const acc = document.createElement("a");
  acc.href = "/account";
  acc.textContent = who.player && who.player.kind === "account" ? "account" :
    (who.accounts === "off" ? "name" : "sign in");
  el.append(acc);
  const lb = document.createElement("a");
  lb.href = "/leaderboard";
  lb.textContent = "leaderboard";
  el.append(" · ", lb);
}
