// The card table. The server sends this seat's whole picture of the table after every accepted
// action; this module only draws it (with the play animated and the trick gathered to its
// winner) and sends the player's choices back. No rule is decided here: an illegal card is sent
// anyway and the engine's refusal is shown, so the reason is always in the engine's words.

import { backEl, cardEl, cardName, cardShort, SUITS, suitSvg } from "./cards.js";
import { ensurePlayer, post, profileUrl, showMe } from "./me.js";
import { rememberSeat, seatPosition } from "./seats.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const FAST = new URLSearchParams(location.search).has("fast");
const SEAT_KEY = `euchre:seat:${tableId}`;
const INVITE_KEY = `euchre:invite:${tableId}`;
const SUIT_ORDER = "CDHS";
const CHAT_MAX = 200;  // characters (code points, as the server counts them) in a chat line
const RANK_ORDER = "789TJQKA";
// asked before a player leaves a rated game (the rule: docs/web.md, "Leaving does not escape")
const LEAVE_RATED = "Leave the table? This game is rated: it still counts for your rating, with your side's result, for your share of your seat's decisions. Your seat's computer plays on.";

let ws = null;
let me = -1;
let shown = null;        // the state on screen: what a click on a card or a bid acts on
let presented = null;    // the last state presented in turn (what the next one animates from)
let latest = null;       // the newest state received
let sentFor = null;      // the seq a move was sent for: nothing more is sent until it is answered
const queue = [];
let pumping = false;
let retries = 0;
let refused = false;
let botsAllowed = false;  // the server seats bots through the lobby (euchre serve --bots allowed)
let hintFor = null;

function text(el, value) { el.textContent = value; return el; }
function make(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (value !== undefined) el.textContent = value;
  return el;
}
// The player's settings, kept in this browser: hold each hand's result until Continue, how
// fast the cards move, and the turn alert (a sound, and the tab's title when it is hidden).
const SETTINGS_KEY = "euchre:settings";
const SPEEDS = { slow: 1.6, normal: 1, fast: 0.45 };
const settings = { hold: false, speed: "normal", alert: true };
try { Object.assign(settings, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}")); } catch { /* kept as default */ }
const TITLE = document.title;
let alertedFor = null;   // the seq the turn alert last sounded for
let askedAgain = false;  // this page asked to play again: it goes to the next table once made
let clockEnds = null;    // the turn clock: {seq, at} (when it runs out, by this page's clock)
const sleep = (ms) => new Promise((r) => setTimeout(r, FAST ? 0 : ms * (SPEEDS[settings.speed] || 1)));

// ---------------------------------------------------------------------------------------------
// Connecting, joining, reconnecting

function start() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    localStorage.setItem(SEAT_KEY, hash.get("token"));
  }
  if (hash.get("invite") && !localStorage.getItem(SEAT_KEY)) {
    showJoin(hash.get("invite"));
    return;
  }
  if (hash.has("token") || hash.has("invite")) {
    // keep the secret out of the address bar (and out of screenshots and shared links)
    history.replaceState(null, "", location.pathname + location.search);
  }
  connect();
}

function showJoin(invite) {
  $("join").hidden = false;
  $("join-name").value = localStorage.getItem("euchre:name") || "";
  $("join-btn").onclick = async () => {
    const name = $("join-name").value.trim() || undefined;
    if (name) localStorage.setItem("euchre:name", name);
    // a first visit becomes a guest with this name on the way: the seat is then theirs alone
    const [made, who] = await ensurePlayer(name);
    if (!made) { text($("join-msg"), who.error || "could not take that name"); return; }
    const [ok, body] = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, { invite, name });
    if (!ok) { text($("join-msg"), body.error || "could not join"); return; }
    localStorage.setItem(SEAT_KEY, body.token);
    history.replaceState(null, "", location.pathname + location.search);
    $("join").hidden = true;
    connect();
  };
  $("watch-btn").onclick = () => {
    history.replaceState(null, "", location.pathname + location.search);
    $("join").hidden = true;
    connect();
  };
}

function connect() {
  const token = localStorage.getItem(SEAT_KEY) || "";
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(tableId)}` +
    (token ? `?token=${encodeURIComponent(token)}` : "");
  ws = new WebSocket(url);
  text($("conn"), "connecting…");
  ws.onopen = () => { retries = 0; text($("conn"), "connected"); $("conn").className = "conn ok"; };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    $("conn").className = "conn bad";
    if (refused || ev.code === 4404) { text($("conn"), "not connected"); return; }
    if (ev.code === 4403) {
      localStorage.removeItem(SEAT_KEY);  // a stale seat link: watch instead
    }
    const wait = Math.min(5000, 300 * 2 ** retries++);
    text($("conn"), "reconnecting…");
    setTimeout(connect, wait);
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      me = msg.you;
      sentFor = null;  // a move lost with the old connection may be made again
      $("game").hidden = false;
      $("chat-list").replaceChildren();
      for (const line of msg.chat) addChat(line);
      document.body.classList.toggle("spectator", me < 0);
      $("watching").hidden = me >= 0;
      rememberSeat(tableId, me);
      $("rules-list").replaceChildren(...(msg.rules || []).map((line) => make("li", "", line)));
      break;
    case "waiting":
      showWaiting(msg);
      break;
    case "state":
      document.body.classList.remove("waiting");
      $("waiting-room").hidden = true;
      clockEnds = countdownOf(msg);
      latest = msg;
      queue.push(msg);
      pump();
      break;
    case "error":
      if (msg.code === "no_table") { refused = true; showMissing(); }
      sentFor = null;
      showError(msg.message);
      if (shown) render(shown, {});  // re-enable what a refused move disabled
      break;
    case "chat":
      addChat(msg);
      break;
    case "hint":
      showHint(msg);
      break;
    case "covered":
      showCovered(msg);
      break;
    case "link":  // this seat's new link: the old one no longer opens it
      localStorage.setItem(SEAT_KEY, msg.token);
      showError(`Your seat's new link: ${location.origin}${msg.url}`);
      break;
    default:
      break;
  }
}

// The waiting room: nothing is dealt until every seat is taken or a person here starts it.
function showWaiting(w) {
  document.body.classList.add("waiting");
  $("waiting-room").hidden = false;
  text($("trump-badge"), "Waiting for players");
  const open = w.seats.filter((x) => x.kind === "human" && !x.claimed).length;
  const away = w.seats.filter((x) => x.kind === "human" && x.claimed && !x.connected).length;
  text($("waiting-msg"), open
    ? `${open} seat${open === 1 ? "" : "s"} still free: the cards are dealt once every seat is taken${w.can_start ? ", or start now and computers take the free seats" : ""}.`
    : away ? "Every seat is taken: the cards are dealt once everyone has the table open." : "Dealing…");
  const ul = $("waiting-seats");
  ul.replaceChildren();
  w.seats.forEach((x, seat) => {
    const li = make("li", seat === w.you ? "mine" : "");
    const state = x.kind === "computer" ? `computer · ${x.level}` : !x.claimed ? "free: waiting for a player"
      : x.connected ? "here" : "not here yet";
    li.append(make("b", "", `${w.seat_names[seat]}: `), seat === w.you ? "You" : x.claimed || x.kind === "computer" ? x.name : "", make("span", "tag", state));
    ul.append(li);
  });
  text($("waiting-rules"), w.rules.join(" · "));
  const invite = localStorage.getItem(INVITE_KEY);
  const box = $("waiting-invite");
  box.hidden = !(invite && open);
  if (!box.hidden) box.replaceChildren(...inviteLink(w.table, invite, "Send this link to friends; each takes a free seat:"));
  if (w.you >= 0 && !$("my-name").matches(":focus")) $("my-name").value = w.seats[w.you].name;
  $("name-panel").hidden = w.you < 0 || w.seats[w.you].player;
  $("start-btn").hidden = !w.can_start || !open;
  $("start-btn").onclick = () => send({ type: "start" });
}

// It is this seat's turn (a new one): a short sound unless muted, and the tab's title says so
// while the page is in the background.
function turnAlert(s) {
  if (!myTurn(s)) { if (document.title !== TITLE && !document.hidden) document.title = TITLE; return; }
  if (alertedFor === s.seq) return;
  alertedFor = s.seq;
  if (!settings.alert) return;
  if (document.hidden) document.title = "● Your turn · " + TITLE;
  beep();
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    if (audio.state !== "running") return;  // the browser allows sound after a click only
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no sound on this browser: the title still says it */ }
}

// A link to no table: say so, rather than an empty table that never connects.
function showMissing() {
  $("game").hidden = true;
  $("join").hidden = true;
  $("missing").hidden = false;
  text($("trump-badge"), "No table");
  document.title = "Euchre: no table here";
}

function showError(message) {
  const el = $("error");
  text(el, message);
  el.classList.add("show");
  clearTimeout(showError.t);
  showError.t = setTimeout(() => el.classList.remove("show"), 6000);
}

// ---------------------------------------------------------------------------------------------
// Seats and names

function posOf(s, seat) { return seatPosition(s.players, seat, me); }
function seatLabel(s, seat) {
  if (seat === me) return "You";
  return s.seats[seat].name;
}
function sideOf(s, seat) { return s.players === 4 ? seat % 2 : seat; }
// A scoring side's name as this page reads it ("You & North (rule)"): the server's words.
function sideName(s, side) { return s.sides[side]; }

// What the game is, as the state says it: ``rows`` holds each seat's row of cards on the table
// (four columns, public; empty in every game without rows), ``bids_tricks`` whether the
// bidding is an auction of tricks (the contract), ``tricks_per_hand`` the tricks of a hand.
function hasRows(s) { return !!(s && s.rows && s.rows.length); }
function bidsTricks(s) { return !!(s && s.bids_tricks); }
function totalTricks(s) { return s.tricks_per_hand; }

// ---------------------------------------------------------------------------------------------
// Presenting states one after another, so every play is seen

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (queue.length) {
      const s = queue.shift();
      const hurry = queue.length > 6;
      await present(s, hurry);
    }
  } finally {
    pumping = false;
  }
}

function completedTrick(prev, s) {
  if (!prev || !s.last || s.last.kind !== "play" || s.trick.length) return null;
  if (s.hand_no === prev.hand_no && s.tricks.length > prev.tricks.length) return s.tricks[s.tricks.length - 1];
  if (s.last_hand && s.last_hand.tricks.length) return s.last_hand.tricks[s.last_hand.tricks.length - 1];
  return null;
}

async function present(s, hurry) {
  const prev = presented;
  presented = s;
  const step = prev && s.seq === prev.seq + 1;
  const done = step ? completedTrick(prev, s) : null;
  const handEnded = prev && s.last_hand && (!prev.last_hand || s.hand_no !== prev.hand_no || (s.finished && !prev.finished));
  // A new deal waits until the old hand's end has been seen: its last trick, then the result.
  const between = handEnded && !hurry && !s.finished ? handEnd(prev, s) : null;
  if (done && !hurry) {
    // show the whole trick (the last card sliding in), name its winner, then gather it to them
    render(between || s, { trick: done.cards, animate: s.last.seat, winner: done.winner });
    await sleep(1000);
    const center = $("center");
    center.classList.add("collect-" + posOf(s, done.winner));
    await sleep(450);
    center.className = "center";
  } else if (step && s.last && s.last.kind === "play" && !hurry) {
    render(s, { animate: s.last.seat });
    await sleep(380);
  } else {
    render(between || s, {});
    if (step && !hurry) await sleep(s.last && s.last.kind === "bid" ? 450 : 150);
  }
  if (handEnded && !hurry && !s.finished) {
    render(between, {});
    await banner(s, 2600);
  }
  render(s, {});
  turnAlert(s);
  if (s.finished) showGameOver(s);
}

// The table as the finished hand left it, for the time between hands: nothing in hand, the
// hand's tricks and the new score, nobody to move. Drawn from the state before the last act
// and the new state's summary of the hand, so the new deal stays off the table until then.
function handEnd(prev, s) {
  const h = s.last_hand;
  const played = s.last && s.last.kind === "play" ? s.last : null;
  const gone = (seat, code) => played && played.seat === seat && played.card === code;
  return {
    ...prev,
    legal: [], turn: null, trick: [],
    tricks: h.tricks, tricks_won: h.tricks_won,
    scores: h.scores_after,
    hand: prev.hand.filter((c) => !gone(me, c)),
    hand_sizes: prev.hand_sizes.map((k, seat) => (played && played.seat === seat && seat !== me ? Math.max(0, k - 1) : k)),
    rows: (prev.rows || []).map((row, seat) => row.map((col) => (gone(seat, col.card) ? { card: null, face_down: col.face_down } : col))),
  };
}

// The last hand's result as the server words it for this seat: what the makers did and the
// points, each side's tricks, (with ``score``) the score.
function resultLines(box, s, score) {
  const [said, tricks, total] = s.result;
  if (said) box.append(make("p", "", said));
  if (tricks) box.append(make("p", "result-tricks", tricks));
  if (score && total) box.append(make("p", "result-score", total));
}

// The result between hands, on the table the hand left: the hand's result, each side's
// tricks and the score; the next deal is drawn when it goes: after ``ms``, or when Continue is
// pressed (only then, with the "keep the result" setting).
async function banner(s, ms) {
  const el = $("banner");
  const box = make("div", "hand-result");
  box.append(make("h2", "", `Hand ${s.hand_no - 1}`));
  resultLines(box, s, true);
  const go = make("button", "primary continue", "Continue");
  go.append(" ", make("kbd", "", "Enter"));
  box.append(go);
  el.replaceChildren(box);
  el.hidden = false;
  const pressed = new Promise((r) => { go.onclick = r; banner.go = r; });
  await (settings.hold && !FAST ? pressed : Promise.race([pressed, sleep(ms)]));
  banner.go = null;
  el.hidden = true;
}

function showGameOver(s) {
  const el = $("banner");
  const box = make("div", "gameover");
  box.append(make("h2", "", s.title));
  resultLines(box, s, false);
  const links = make("p", "links");
  const rep = make("a", "button", "Replay step by step");
  rep.href = `/replay/${encodeURIComponent(s.table)}`;
  const rev = make("a", "button", "Computer analysis");
  rev.href = `/review/${encodeURIComponent(s.table)}`;
  const rec = make("a", "button", "Download the record");
  rec.href = `/api/tables/${encodeURIComponent(s.table)}/record`;
  rec.setAttribute("download", `euchre-${s.table}.json`);
  const home = make("a", "button", "New table");
  home.href = "/";
  if (me >= 0 || s.again) {  // the same seats and rules, at a new table
    const again = make(s.again ? "a" : "button", "button primary", "Play again");
    if (s.again) again.href = s.again;
    else again.onclick = () => { askedAgain = true; again.disabled = true; send({ type: "play_again" }); };
    links.append(again);
    if (s.again && askedAgain) location.assign(s.again);
    else if (s.again && me >= 0) box.append(make("p", "", "A new game with the same seats is ready: Play again takes you to your seat."));
  }
  links.append(rev, rep, rec, home);
  if (me >= 0 && s.seats[me].player) {  // the game on the player's profile, rated or not
    const prof = make("a", "button", "Your profile");
    prof.href = profileUrl(s.seats[me].name);
    const board = make("a", "button", "Leaderboard");
    board.href = "/leaderboard";
    links.append(prof, board);
  }
  box.append(links);
  el.replaceChildren(box);
  el.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// Drawing

function render(s, { trick = null, animate = null, winner = null }) {
  shown = s;  // before drawing: a click on what is drawn acts on this state
  document.body.dataset.phase = s.phase;
  $("felt").classList.toggle("rows-game", hasRows(s));
  renderTrump(s);
  renderSeats(s, winner);
  renderCenter(s, trick || s.trick, animate, winner);
  renderHand(s);
  renderActions(s);
  renderStatus(s, trick, winner);
  renderScore(s);
  renderInvite(s);
  if (!$("log").hidden) renderLog(s);
  if (!$("lasttrick").hidden) renderLastTrick(s);
  if (hintFor !== null && hintFor !== s.seq) { $("hint").hidden = true; hintFor = null; }
  tickClock();
  const mine = me >= 0 ? s.seats[me] : null;
  $("back-btn").hidden = !(mine && mine.stand_in && mine.claimed && !s.next_hand && !s.finished);
  $("leave-btn").hidden = !(mine && s.public && !s.finished);
  showBotsHere(s);
  $("lobby-link").hidden = !s.public;
  if (!$("my-name").matches(":focus") && me >= 0) $("my-name").value = s.seats[me].name;
  // a player's seat carries the player's name (changed on the account page, not here)
  $("name-panel").hidden = me < 0 || s.seats[me].player;
}

// The host (the person Play now made the table for, in its first seat) lets bots sit here.
function showBotsHere(s) {
  const mine = me >= 0 ? s.seats[me] : null;
  $("bots-here").hidden = !(botsAllowed && s.public && me === 0 && mine.kind === "human" && mine.claimed && !s.finished);
  $("bots-here-box").checked = !!s.bots;
}

function renderTrump(s) {
  const el = $("trump-badge");
  el.replaceChildren();
  if (s.trump) {
    el.append("Trump ");
    el.insertAdjacentHTML("beforeend", suitSvg(s.trump, 18));
    const bid = bidsTricks(s) && s.contract ? `, bid ${s.contract} of ${totalTricks(s)}` : "";
    const maker = s.maker >= 0 ? ` · ${seatLabel(s, s.maker)}${s.alone ? " alone" : ""}${bid}` : "";
    el.append(make("strong", "", ` ${SUITS[s.trump]}`), maker);
    el.dataset.suit = s.trump;
  } else {
    el.append(s.phase === "over" ? "Game over" : "Trump: not named yet");
    delete el.dataset.suit;
  }
}

function lastBidder(s) {
  for (let i = s.bids.length - 1; i >= 0; i--) {
    if (/^bid \d+$/.test(s.bids[i].code)) return s.bids[i].seat;
  }
  return -1;
}

function lastBid(s, seat) {
  for (let i = s.bids.length - 1; i >= 0; i--) {
    if (s.bids[i].seat === seat) return s.bids[i];
  }
  return null;
}

function renderSeats(s, winner) {
  for (const el of document.querySelectorAll(".seat")) { el.replaceChildren(); el.hidden = true; el.className = "seat pos-" + el.dataset.pos; }
  for (let seat = 0; seat < s.players; seat++) {
    const pos = posOf(s, seat);
    const el = document.querySelector(`.seat.pos-${pos}`);
    el.hidden = false;
    el.dataset.seat = seat;
    const info = s.seats[seat];
    const head = make("div", "seat-head");
    const name = make(info.player && seat !== me ? "a" : "span", "name", seatLabel(s, seat));
    if (info.player && seat !== me) name.href = profileUrl(info.name);  // to their profile
    name.title = seatLabel(s, seat);  // the whole name where a narrow seat cuts it with "…"
    head.append(name);
    if (seat === s.dealer) {
      const d = make("span", "dealer-button", "D");
      d.setAttribute("role", "img");
      d.setAttribute("aria-label", "dealer");
      head.append(d);
    }
    if (s.maker === seat) {
      const bid = bidsTricks(s) && s.contract ? ` · bid ${s.contract}` : "";
      head.append(make("span", "tag maker", (s.alone ? "alone" : "maker") + bid));
    }
    el.append(head);
    const sub = make("div", "seat-sub");
    if (info.kind === "bot") sub.append(make("span", "tag bot", "bot"));  // a program, online
    if (info.kind === "computer") sub.append(make("span", "tag", `computer · ${info.level}`));
    // who plays the seat now, while the game goes on (once it is over nobody does): its
    // computer for a free seat, for a player there (from the next hand, or after the clock ran
    // out), or for a player gone
    else if (s.finished) { /* nothing to say */ }
    else if (info.stand_in) sub.append(make("span", "tag away", !info.claimed ? "free · computer plays" : info.connected ? "computer plays for now" : "away · computer plays"));
    else if (!info.claimed) sub.append(make("span", "tag away", "waiting for a friend"));
    else if (!info.connected) sub.append(make("span", "tag away", "offline"));
    if (!s.active.includes(seat) && s.trump) sub.append(make("span", "tag", "sits out"));
    if (s.trump) {
      const of = bidsTricks(s) ? ` of ${totalTricks(s)}` : "";
      sub.append(make("span", "tricks", `tricks ${s.tricks_won[seat]}${of}`));
    }
    el.append(sub);
    if (seat !== me) {
      const backs = make("div", "backs");
      backs.setAttribute("role", "img");
      backs.setAttribute("aria-label", `${s.hand_sizes[seat]} card${s.hand_sizes[seat] === 1 ? "" : "s"} in hand`);
      for (let i = 0; i < s.hand_sizes[seat]; i++) backs.append(backEl({ small: true }));
      el.append(backs);
      if (hasRows(s)) el.append(rowEl(s, seat, null));
    }
    const bid = lastBid(s, seat);
    if (seat === winner) {
      el.append(make("div", "bubble won", seat === me ? "you take the trick" : "takes the trick"));
    } else if (bid && s.phase !== "play" && s.phase !== "over") {
      el.append(make("div", "bubble", bid.said));
    }
    if (s.turn === seat && !s.finished) el.classList.add("turn");
    if (s.turn === seat && !s.finished && (s.clock || waitsOnAbsent(s))) {
      const clock = make("span", "clock");
      clock.setAttribute("role", "timer");
      clock.dataset.seq = String(s.seq);
      clock.title = countdownOf(s)?.away ? "Away: a computer plays for this seat when this runs out, unless its player comes back"
        : `${Math.round(s.clock)} s for this turn, at the table's pace`;
      head.append(clock);
    }
    if (seat === me) el.classList.add("me");
  }
}

function renderCenter(s, trick, animate, winner) {
  for (const slot of document.querySelectorAll(".slot")) slot.replaceChildren();
  for (const [seat, code] of trick) {
    const pos = posOf(s, seat);
    const slot = document.querySelector(`.slot-${pos}`);
    const c = cardEl(code);
    if (seat === animate) c.classList.add("enter-" + pos);
    const by = seat === me ? "played by you" : `played by ${seatLabel(s, seat)}`;
    c.setAttribute("aria-label", `${cardName(code)}, ${by}${seat === winner ? ", wins the trick" : ""}`);
    if (seat === winner) c.classList.add("won");
    slot.append(c);
  }
  const mid = $("middle");
  mid.replaceChildren();
  if (s.upcard && !s.trump && s.phase !== "over" && s.phase !== "declare") {
    const box = make("div", "upcard");
    const down = s.upcard_status !== "face up";
    const c = cardEl(s.upcard);
    c.setAttribute("aria-label", `${down ? "turned down" : "up-card"}: ${cardName(s.upcard)}`);
    if (down) c.classList.add("turned-down");
    box.append(c, make("span", "label", down ? "turned down" : "up-card"));
    mid.append(box);
  } else if (bidsTricks(s) && !s.trump && s.phase !== "over") {
    const box = make("div", "auction");
    box.append(make("span", "label", `Bid for the ${totalTricks(s)} tricks`));
    box.append(make("strong", "", s.contract ? `High bid: ${s.contract} (${seatLabel(s, lastBidder(s))})` : "No bid yet"));
    mid.append(box);
  } else if (s.trump && trick.length === 0 && s.phase !== "over") {
    const box = make("div", "trump-mark");
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", `trump: ${SUITS[s.trump]}`);
    box.insertAdjacentHTML("beforeend", suitSvg(s.trump, 34));
    mid.append(box);
  }
}

// One seat's row: four columns, each a face-up card lying on a face-down one (a card back
// peeking out), a card turned up once the one on it was played, or an empty place. ``button``
// makes the seat's own cards clickable; others' are drawn only.
function rowEl(s, seat, button) {
  const row = make("div", "row" + (seat === me ? " mine" : ""));
  const down = s.rows[seat].filter((c) => c.face_down).length;
  row.setAttribute("aria-label", `${seat === me ? "your" : seatLabel(s, seat) + "'s"} row: ${down} face down`);
  for (const col of s.rows[seat]) {
    const box = make("div", "col" + (col.card ? "" : " empty"));
    if (col.face_down) box.append(backEl());
    if (col.card) {
      const c = button ? button(col.card) : cardEl(col.card);
      c.classList.add(col.face_down ? "on-top" : "turned");
      box.append(c);
    }
    row.append(box);
  }
  return row;
}

// "the ace of spades", "the Joker" (whose name already has its article)
function theCard(code) {
  const name = cardName(code);
  return name.startsWith("the ") ? name : `the ${name}`;
}

function cardId(code) {
  if (code === "JOKER") return 32;
  return SUIT_ORDER.indexOf(code[1]) * 8 + RANK_ORDER.indexOf(code[0]);
}

// Whether ``s`` (the state drawn) takes a move now: it is the newest state (a later message of
// the same seq only updates seats), the seat has a choice, and no move is on its way for it.
function myTurn(s) {
  return !!latest && s.seq === latest.seq && s.legal.length > 0 && sentFor !== s.seq;
}

function renderHand(s) {
  const el = $("hand");
  el.replaceChildren();
  if (me < 0) return;
  const byCard = new Map(s.legal.filter((a) => a.card).map((a) => [a.card, a]));
  const active = myTurn(s);
  let key = 0;
  const button = (code, where) => {
    const c = cardEl(code, { tag: "button" });
    const legal = byCard.get(code);
    c.classList.add(active && legal ? "playable" : "idle");
    if (active && !legal && s.phase === "play") c.classList.add("illegal");
    const verb = legal && legal.kind === "discard" ? "discard" : "play";
    key += 1;
    c.setAttribute("aria-label", `${key}: ${verb} ${theCard(code)}${where}`);
    c.dataset.key = String(key);
    c.onclick = () => chooseCard(code);
    if (hintFor === s.seq && $("hint").dataset.card === code) c.classList.add("hinted");
    return c;
  };
  if (hasRows(s)) {
    // your row first (face-up cards on the face-down ones), then the cards in your hand
    const row = make("div", "hand-group");
    row.append(make("span", "group-label", "your row"), rowEl(s, me, (code) => button(code, " from your row")));
    const held = make("div", "hand-group");
    const cards = make("div", "group-cards");
    s.hand.forEach((code) => cards.append(button(code, "")));
    if (!s.hand.length) cards.append(make("span", "group-empty", "none left"));
    held.append(make("span", "group-label", "your hand"), cards);
    el.append(row, held);
  } else {
    s.hand.forEach((code) => el.append(button(code, "")));
  }
  if (s.discard) {
    const d = make("div", "own-discard");
    d.append(make("span", "label", "you buried"), cardEl(s.discard, { small: true }));
    el.append(d);
  }
}

function chooseCard(code) {
  const s = shown;
  if (!s || me < 0 || !myTurn(s)) return;  // not raised: the picture is still catching up
  const legal = s.legal.find((a) => a.card === code);
  if (legal) {
    act(legal.id);
    return;
  }
  // Not playable: ask the engine, whose refusal says why in game terms.
  const id = s.phase === "discard" ? 40 + cardId(code) : cardId(code);
  send({ type: "act", action: id, seq: s.seq });
}

function act(id) {
  send({ type: "act", action: id, seq: latest.seq });
  sentFor = latest.seq;
  for (const b of document.querySelectorAll("#actions button, #hand .card")) b.disabled = true;
  for (const c of document.querySelectorAll("#hand .card.playable")) c.classList.replace("playable", "idle");
}

function renderActions(s) {
  const el = $("actions");
  el.replaceChildren();
  if (!myTurn(s)) return;
  const bids = s.legal.filter((a) => a.kind === "bid");
  bids.forEach((a, i) => {
    const b = make("button", a.code === "pass" ? "bid pass" : "bid", "");
    b.append(make("kbd", "", String(i + 1)), " " + a.text);
    b.dataset.key = String(i + 1);
    b.dataset.code = a.code;
    b.onclick = () => act(a.id);
    el.append(b);
  });
}

// The countdown on the seat to move, by this page's clock from what the server said was left
// when it sent the state: the turn clock, or for a person away the wait before their
// computer plays for them, whichever ends first (either way a computer moves at zero).
function countdownOf(msg) {
  const turn = msg.turn_left ?? null, away = msg.away_left ?? null;
  if (turn === null && away === null) return null;
  const isAway = away !== null && (turn === null || away < turn);
  return { seq: msg.seq, at: performance.now() + (isAway ? away : turn) * 1000, away: isAway };
}

// Whether the seat to move is a person away, whose computer plays for them after a countdown.
function waitsOnAbsent(s) {
  return s.away_left !== null && s.away_left !== undefined;
}

function tickClock() {
  const el = document.querySelector(".seat .clock");
  if (!el) return;
  const left = clockEnds && String(clockEnds.seq) === el.dataset.seq ? Math.max(0, (clockEnds.at - performance.now()) / 1000) : null;
  el.hidden = left === null;
  if (left === null) return;
  el.textContent = `${Math.ceil(left)} s`;
  el.classList.toggle("low", left <= 5);
  el.setAttribute("aria-label", clockEnds.away ? `${Math.ceil(left)} seconds until a computer plays for this seat`
    : `${Math.ceil(left)} seconds left for this turn`);
}

function renderStatus(s, trick, winner) {
  const el = $("status");
  if (winner !== null && trick) {
    const card = trick.find(([seat]) => seat === winner);
    const who = winner === me ? "You take" : `${seatLabel(s, winner)} takes`;
    text(el, `${who} the trick${card ? " with " + theCard(card[1]) : ""}.`);
    el.className = "status won";
    return;
  }
  if (s.finished) { text(el, "Game over."); return; }
  const mine = me >= 0 ? s.seats[me] : null;
  if (mine && mine.stand_in && mine.claimed) {
    text(el, s.next_hand ? "You took this seat during the hand: its computer plays it to the end of the hand, and you from the next."
      : "Your seat's computer is playing for you (the turn clock ran out): press I'm back to play again.");
    el.className = "status";
    return;
  }
  const who = s.turn;
  if (who === null || who === undefined) { text(el, ""); return; }
  if (who === me) {
    const ask = { declare: "declare before bidding, or pass", bid1: s.dealer === me ? "pick up the up-card or pass" : "order up the up-card or pass",
      bid2: "name a trump suit or pass", auction: `bid how many of the ${totalTricks(s)} tricks you will take, or pass`,
      trump: "name trump", fix: "take back a renege or let the trick stand", dealer_take: "take or decline the up-card", discard: "discard a card (click it)",
      alone: "go alone or play with partner", defend: "defend alone or pass", play: "play a card", claim: "claim a renege or pass" }[s.phase] || "choose";
    let line = ask;
    if (s.phase === "auction" && s.contract) line = `${seatLabel(s, lastBidder(s))} bid ${s.contract}: bid more of the ${totalTricks(s)} tricks, or pass`;
    if (s.phase === "trump" && s.contract) line = `you bid ${s.contract} of the ${totalTricks(s)} tricks: name trump`;
    text(el, `Your turn: ${line}.`);
    el.className = "status mine";
  } else {
    text(el, waitsOnAbsent(s) ? `Waiting for ${seatLabel(s, who)}, who is away: a computer plays for them when the countdown on their seat runs out.`
      : `Waiting for ${seatLabel(s, who)}…`);
    el.className = "status";
  }
}

function markers(score) {
  // the 5-and-6 score cards: the 6 shows 1-4 pips under the face-down 5; 5 alone; 6 alone;
  // 7-10: the 6 plus pips of the 5
  let five = -1, six = -1;
  if (score <= 0 || score > 10) { /* both face down */ }
  else if (score < 5) six = score;
  else if (score === 5) five = 5;
  else if (score === 6) six = 6;
  else { five = score - 6; six = 6; }
  const box = make("span", "markers");
  box.setAttribute("aria-hidden", "true");
  for (const [size, shown] of [[5, five], [6, six]]) {
    const m = make("span", "marker" + (shown < 0 ? " down" : ""));
    m.append(make("b", "", String(size)));
    for (let i = 0; i < size; i++) m.append(make("i", i < shown ? "on" : ""));
    box.append(m);
  }
  return box;
}

function renderScore(s) {
  const el = $("score");
  el.replaceChildren(make("h3", "", `Score · to ${s.target} · hand ${s.hand_no}`));
  const sides = s.players === 4 ? 2 : s.players;
  for (let side = 0; side < sides; side++) {
    const row = make("div", "score-row");
    if (me >= 0 && sideOf(s, me) === side) row.classList.add("ours");
    row.append(make("span", "side", sideName(s, side)), make("span", "points", String(s.scores[side])));
    row.append(markers(s.scores[side]));
    if (s.trump) {
      const t = s.players === 4 ? s.tricks_won[side] + s.tricks_won[side + 2] : s.tricks_won[side];
      const of = bidsTricks(s) ? ` of ${totalTricks(s)}` : "";
      row.append(make("span", "side-tricks", `${t}${of} trick${t === 1 && !of ? "" : "s"}`));
    }
    el.append(row);
  }
}

// The table's invite link, ready to copy, after a line saying what it is for.
function inviteLink(table, invite, lead) {
  const url = `${location.origin}/t/${encodeURIComponent(table)}#invite=${invite}`;
  const input = make("input", "invite-url");
  input.readOnly = true;
  input.value = url;
  input.setAttribute("aria-label", "invite link");
  const copy = make("button", "", "Copy");
  copy.onclick = () => { input.select(); navigator.clipboard?.writeText(url); };
  return [make("p", "", lead), input, copy];
}

function renderInvite(s) {
  const el = $("invite");
  const invite = localStorage.getItem(INVITE_KEY);
  const open = s.seats.some((x) => x.kind === "human" && !x.claimed);
  el.hidden = !(invite && open);
  if (el.hidden) return;
  el.replaceChildren(make("h3", "", "Invite friends"), ...inviteLink(s.table, invite, "Send this link; each friend takes an open seat:"));
  const watch = make("p", "small", `Spectators: ${location.origin}/t/${s.table}`);
  el.append(watch);
}


function renderLog(s) {
  const el = $("log");
  el.replaceChildren(make("h3", "", `Hand ${s.hand_no}`));
  const ul = make("ol", "");
  ul.append(make("li", "", `Dealer: ${seatLabel(s, s.dealer)}${s.upcard ? ", up-card " + cardShort(s.upcard) : ""}`));
  for (const ev of s.bids) if (ev.text) ul.append(make("li", "", ev.text));
  s.tricks.forEach((t, i) => {
    const cards = t.cards.map(([seat, c]) => `${seatLabel(s, seat)} ${cardShort(c)}`).join(", ");
    ul.append(make("li", "", `Trick ${i + 1}: ${cards} → ${seatLabel(s, t.winner)}`));
  });
  if (s.trick.length) ul.append(make("li", "", "Now: " + s.trick.map(([seat, c]) => `${seatLabel(s, seat)} ${cardShort(c)}`).join(", ")));
  el.append(ul);
  if (s.result.length && s.tricks.length === 0) el.append(make("p", "small", "Last hand: " + s.result[0]));
}

function renderLastTrick(s) {
  const el = $("lasttrick");
  let t = s.tricks.length ? s.tricks[s.tricks.length - 1] : null;
  if (!t && s.last_hand && s.last_hand.tricks.length) t = s.last_hand.tricks[s.last_hand.tricks.length - 1];
  el.replaceChildren(make("h3", "", "Last trick"));
  if (!t) { el.append(make("p", "", "No trick has been played yet.")); return; }
  const row = make("div", "trick-row");
  for (const [seat, c] of t.cards) {
    const cell = make("div", "trick-cell" + (seat === t.winner ? " won" : ""));
    const card = cardEl(c, { small: true });
    card.setAttribute("aria-label", `${cardName(c)}, played by ${seat === me ? "you" : seatLabel(s, seat)}${seat === t.winner ? ", won the trick" : ""}`);
    cell.append(card, make("span", "", seatLabel(s, seat)));
    row.append(cell);
  }
  el.append(row, make("p", "", `Won by ${seatLabel(s, t.winner)}.`));
}

// Back after an absence: what the seat's computer did meanwhile, in the server's words.
function showCovered(msg) {
  const el = $("covered");
  el.replaceChildren(make("h3", "", "While you were away"));
  el.append(make("p", "", `The computer (${msg.level}) played for you:`));
  // the moves left out are a line of their own; the first shown is numbered from its place
  if (msg.earlier) el.append(make("p", "small", `… ${msg.earlier} earlier move${msg.earlier === 1 ? "" : "s"}`));
  const ul = make("ol", "");
  ul.start = msg.earlier + 1;
  for (const line of msg.moves) ul.append(make("li", "", line));
  const ok = make("button", "", "Got it");
  ok.onclick = () => { el.hidden = true; };
  el.append(ul, ok);
  el.hidden = false;
}

function showHint(msg) {
  const el = $("hint");
  el.replaceChildren(make("h3", "", `Hint (${msg.level})`));
  const s = shown;
  const a = s && s.legal.find((x) => x.id === msg.action);
  el.append(make("p", "hint-move", msg.text), make("p", "", msg.why));
  el.dataset.card = a && a.card ? a.card : "";
  el.hidden = false;
  hintFor = msg.seq;
  if (shown) renderHand(shown);
}

// How much room the chat line has left, shown once it is nearly full.
function chatCount() {
  const n = [...$("chat-input").value].length;
  const el = $("chat-count");
  el.classList.toggle("over", n > CHAT_MAX);
  text(el, n > CHAT_MAX ? `${n - CHAT_MAX} characters too many (at most ${CHAT_MAX})` :
    n >= CHAT_MAX - 40 ? `${CHAT_MAX - n} characters left` : "");
}

// The seat of the table's own chat lines (who left or took a seat): the server's messages.NOTICE.
const NOTICE = -2;

function addChat(line) {
  const notice = line.seat === NOTICE;
  const li = make("li", notice ? "notice" : line.seat < 0 ? "watcher" : "");
  const who = line.seat < 0 ? `${line.name} (watching)` : line.name;
  if (notice) li.append(make("span", "", line.text));  // text only, never markup
  else li.append(make("b", "", who + ": "), make("span", "", line.text));
  $("chat-list").append(li);
  $("chat-list").scrollTop = 1e9;
}

// ---------------------------------------------------------------------------------------------
// Controls

function toggle(id, draw) {
  const el = $(id);
  el.hidden = !el.hidden;
  if (!el.hidden && shown) draw(shown);
}

function wire() {
  $("hint-btn").onclick = () => send({ type: "hint" });
  $("last-btn").onclick = () => toggle("lasttrick", renderLastTrick);
  $("log-btn").onclick = () => toggle("log", renderLog);
  $("name-btn").onclick = () => {
    const name = $("my-name").value.trim();
    if (name) { send({ type: "name", name }); localStorage.setItem("euchre:name", name); }
  };
  $("link-btn").onclick = () => send({ type: "new_link" });
  $("back-btn").onclick = () => send({ type: "back" });
  $("leave-btn").onclick = () => {
    // at a rated game, said before it is done (the button's title is not seen on a phone)
    if (latest && latest.rated && !confirm(LEAVE_RATED)) return;
    send({ type: "leave" }); refused = true; setTimeout(() => location.assign("/lobby"), 300);
  };
  $("bots-here-box").onchange = () => send({ type: "bots", allowed: $("bots-here-box").checked });
  fetch("/api/options").then((r) => r.json()).then((o) => { botsAllowed = o.bots === "allowed"; if (latest && latest.type === "state") showBotsHere(latest); }).catch(() => {});
  setInterval(tickClock, 250);
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const t = $("chat-input").value.trim();
    const n = [...t].length;
    if (n > CHAT_MAX) {  // never cut without saying so: the line stays in the box to shorten
      showError(`A chat line holds at most ${CHAT_MAX} characters; this one has ${n}. Shorten it and send it again.`);
      return;
    }
    if (t) send({ type: "chat", text: t });
    $("chat-input").value = "";
    chatCount();
  };
  $("chat-input").addEventListener("input", chatCount);
  $("set-hold").checked = settings.hold;
  $("set-speed").value = settings.speed;
  $("set-alert").checked = settings.alert;
  const save = () => {
    settings.hold = $("set-hold").checked;
    settings.speed = $("set-speed").value;
    settings.alert = $("set-alert").checked;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  };
  for (const id of ["set-hold", "set-speed", "set-alert"]) $(id).addEventListener("change", save);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) document.title = TITLE; });
  // sound is allowed once the person has clicked or pressed a key on the page
  const unlock = () => { try { audio = audio || new AudioContext(); audio.resume(); } catch { /* none */ } };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
  $("chat-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { $("chat-input").blur(); ev.preventDefault(); }  // back to the table's keys
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    if (k === "enter" && banner.go) { banner.go(); ev.preventDefault(); return; }
    if (/^[1-9]$/.test(k)) {
      const bid = document.querySelector(`#actions button[data-key="${k}"]`);
      const card = document.querySelector(`#hand .card[data-key="${k}"]`);
      (bid || card)?.click();
      ev.preventDefault();
    } else if (k === "h") $("hint-btn").click();
    else if (k === "l") $("last-btn").click();
    else if (k === "g") $("log-btn").click();
    else if (k === "/") { $("chat-input").focus(); ev.preventDefault(); }
  });
}

wire();
showMe($("me"));
start();
