// Sign up, sign in, sign out, change the password or the name; an account's bots. Each request carries the page's
// CSRF token (me.js); the session is an HttpOnly cookie the page never reads.

import { me, post, profileUrl, showMe } from "./me.js";

const $ = (id) => document.getElementById(id);

async function draw() {
  const who = await me(true);
  showMe($("me"));
  const p = who.player;
  const st = $("status");
  st.replaceChildren();
  if (p) {
    st.append(p.kind === "account" ? "Signed in as " : "Playing as the guest ");
    const a = document.createElement("a");
    a.href = profileUrl(p.name);
    a.textContent = p.name;
    st.append(a, ".");
  } else st.append("You have no player's name yet: one is made when you take a seat, or sign in.");
  $("name-box").hidden = !p;
  if (p) $("new-name").value = p.name;
  // the rule as the server holds new passwords to it (one home: accounts.PASSWORD_RULE)
  for (const el of document.querySelectorAll(".password-rule")) el.textContent = who.password_rule || "";
  const canSignUp = who.accounts === "open" && (!p || p.kind === "guest");
  $("signup-box").hidden = !canSignUp;
  if (p && p.kind === "guest") $("su-name").value = p.name;
  $("signin-box").hidden = who.accounts === "off" || (p && p.kind === "account");
  // a guest signing in to an account may bring their games (and their rating's evidence)
  $("si-guest-box").hidden = !(p && p.kind === "guest");
  if (p && p.kind === "guest") $("si-guest-text").textContent = `Add my games as the guest ${p.name} to this account`;
  $("password-box").hidden = !(p && p.kind === "account");
  // passkeys where the browser has WebAuthn's JSON forms (all current ones)
  const pk = Boolean(window.PublicKeyCredential && PublicKeyCredential.parseRequestOptionsFromJSON);
  $("passkey-box").hidden = !(pk && p && p.kind === "account");
  if (!$("passkey-box").hidden) await drawPasskeys();
  $("pk-signin-box").hidden = !pk || $("signin-box").hidden;
  $("signout-box").hidden = !p;
  await drawBots(p && p.kind === "account");
}

// An account's bots: each with its rating, a new token, revoking its token; a token is shown
// once, when it is made.
async function drawBots(account) {
  const box = $("bots-box");
  box.hidden = true;
  if (!account) return;
  const res = await fetch("/api/bots", { cache: "no-store" });
  if (!res.ok) return;
  const body = await res.json();
  if (body.mode === "off") return;
  box.hidden = false;
  for (const el of box.querySelectorAll(".origin")) el.textContent = location.origin;
  const list = $("bots-list");
  list.replaceChildren();
  for (const b of body.bots) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = profileUrl(b.name);
    a.textContent = b.name;
    li.append(a, ` · ${b.rating_text} · ${b.has_token ? "has a token" : "no token (revoked)"} `);
    const fresh = document.createElement("button");
    fresh.textContent = "New token";
    fresh.onclick = () => botAction(`/api/bots/${encodeURIComponent(b.name)}/token`);
    li.append(fresh);
    if (b.has_token) {
      const revoke = document.createElement("button");
      revoke.textContent = "Revoke token";
      revoke.onclick = () => botAction(`/api/bots/${encodeURIComponent(b.name)}/revoke`);
      li.append(" ", revoke);
    }
    list.append(li);
  }
  $("bot-add").hidden = body.bots.length >= body.most;
}

function showToken(name, token) {
  $("bot-token").hidden = !token;
  $("bot-token-name").textContent = name || "";
  $("bot-token-value").value = token || "";
}

async function botAction(url, body) {
  $("form-error").textContent = "";
  const [ok, out] = await post(url, body || {});
  if (!ok) { $("form-error").textContent = out.error; return; }
  showToken(out.bot ? out.bot.name : out.name, out.token);
  await drawBots(true);
}

function form(id, url, body) {
  $(id).onsubmit = async (ev) => {
    ev.preventDefault();
    $("form-error").textContent = "";
    const [ok, out] = await post(url, body());
    if (!ok) { $("form-error").textContent = out.error; return; }
    for (const input of document.querySelectorAll("input[type=password]")) input.value = "";
    await draw();
  };
}

form("rename", "/api/me/name", () => ({ name: $("new-name").value }));
form("signup", "/api/account/signup", () => ({ name: $("su-name").value, password: $("su-pass").value }));
form("signin", "/api/account/signin", () => ({
  name: $("si-name").value, password: $("si-pass").value,
  guest_games: !$("si-guest-box").hidden && $("si-guest").checked,
}));
form("password", "/api/account/password", () => ({ password: $("pw-old").value, new_password: $("pw-new").value }));
// The account's passkeys, each with a button that removes it.
async function drawPasskeys() {
  const list = $("pk-list");
  const r = await fetch("/api/account/passkeys", { cache: "no-store" });
  if (!r.ok) { list.replaceChildren(); return; }
  const when = (t) => new Date(t * 1000).toLocaleString();
  list.replaceChildren(...(await r.json()).passkeys.map((k, i) => {
    const li = document.createElement("li");
    li.append(`Passkey ${i + 1}: added ${when(k.created_at)}, `,
      k.used_at ? `last used ${when(k.used_at)} ` : "never used yet ");
    const rm = document.createElement("button");
    rm.type = "button";
    rm.className = "pk-remove";
    rm.textContent = "Remove";
    rm.onclick = async () => {
      $("form-error").textContent = "";
      const [ok, out] = await post("/api/account/passkeys/remove", { id: k.id });
      if (!ok) { $("form-error").textContent = out.error; return; }
      $("pk-status").textContent = `Passkey removed: this account has ${out.passkeys.length}.`;
      await drawPasskeys();
    };
    li.append(rm);
    return li;
  }));
}

// A passkey ceremony: the server's options, the browser's authenticator, the answer back.
$("pk-form").onsubmit = async (ev) => {
  ev.preventDefault();
  $("form-error").textContent = "";
  $("pk-status").textContent = "";
  const [ok, begun] = await post("/api/account/passkeys/new", { password: $("pk-pass").value });
  $("pk-pass").value = "";
  if (!ok) { $("form-error").textContent = begun.error; return; }
  let cred;
  try {
    cred = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(begun.options) });
  } catch (e) {
    $("form-error").textContent = e.name === "InvalidStateError"
      ? "no passkey was made: this device already keeps one for this account"
      : e.name === "NotAllowedError" ? "no passkey was made: the device was cancelled or timed out"
      : `no passkey was made: ${e.message}`;
    return;
  }
  const [done, out] = await post("/api/account/passkeys", { ceremony: begun.ceremony, credential: cred.toJSON() });
  if (!done) { $("form-error").textContent = out.error; return; }
  $("pk-status").textContent = `Passkey added: this account has ${out.passkeys}.`;
  await drawPasskeys();
};

$("pk-signin").onclick = async () => {
  $("form-error").textContent = "";
  const [ok, begun] = await post("/api/account/passkey/start", {});
  if (!ok) { $("form-error").textContent = begun.error; return; }
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(begun.options) });
  } catch (e) { $("form-error").textContent = `no passkey answered: ${e.message}`; return; }
  const guestGames = !$("si-guest-box").hidden && $("si-guest").checked;
  const [done, out] = await post("/api/account/passkey/signin", { ceremony: begun.ceremony, credential: cred.toJSON(), guest_games: guestGames });
  if (!done) { $("form-error").textContent = out.error; return; }
  await draw();
};

$("bot-add").onsubmit = async (ev) => {
  ev.preventDefault();
  await botAction("/api/bots", { name: $("bot-name").value });
  $("bot-name").value = "";
};
// A guest has no password: signing out loses their name and games on this browser for good,
// so they are told so first and offered the sign-up that keeps them.
async function signOut() {
  $("guest-signout").hidden = true;
  await post("/api/account/signout", {});
  await draw();
}
$("signout").onclick = async () => {
  const p = (await me(true)).player;
  if (!p || p.kind !== "guest") { await signOut(); return; }
  const canSignUp = !$("signup-box").hidden;
  $("guest-signout-text").textContent = `A guest has no password: once you sign out, this browser `
    + `forgets ${p.name} for good. You cannot come back as ${p.name}, take ${p.name}'s seats again `
    + `or bring ${p.name}'s games into an account.`
    + (canSignUp ? " Sign up to keep the name, the games and the rating on every device." : "");
  $("signup-instead").hidden = !canSignUp;
  $("guest-signout").hidden = false;
  $("signout-stay").focus();
};
$("signout-anyway").onclick = signOut;
$("signout-stay").onclick = () => { $("guest-signout").hidden = true; };
$("signup-instead").onclick = () => {
  $("guest-signout").hidden = true;
  $("signup-box").scrollIntoView();
  $("su-pass").focus();
};
draw();
