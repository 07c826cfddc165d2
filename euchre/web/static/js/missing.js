// The one screen of a page whose player or game does not exist (a mistyped or cut-short link):
// what is missing, in words, and where to go next, in place of the page's empty panels and
// controls (as the table page's "No table here").

// What each kind of missing thing is called, and the next steps offered for it.
const MISSING = {
  table: {
    heading: "No game here",
    text: "There is no game at this address: the link may be mistyped or cut short.",
    next: [["/", "Start a new table", true], ["/#finished", "See the finished games", false]],
  },
  player: {
    heading: "No player here",
    text: "There is no player of that name: it may be mistyped, or the player may have changed their name.",
    next: [["/leaderboard", "See the leaderboard", true], ["/", "Start a new table", false]],
  },
};

// Whether the API's answer ``res``/``body`` says the page's table or player is missing; if so
// the page's main area becomes the missing screen (the top bar stays) and true is returned.
export function showMissing(res, body) {
  const what = res && res.status === 404 && body && MISSING[body.missing];
  if (!what) return false;
  const box = document.createElement("div");
  box.className = "panel join missing";
  box.setAttribute("role", "alert");
  const h = document.createElement("h2");
  h.textContent = what.heading;
  const p = document.createElement("p");
  p.textContent = what.text;
  const links = document.createElement("p");
  for (const [href, label, primary] of what.next) {
    const a = document.createElement("a");
    a.className = primary ? "button primary" : "button";
    a.href = href;
    a.textContent = label;
    links.append(a, " ");
  }
  box.append(h, p, links);
  document.title = `${what.heading} · Euchre`;
  document.querySelector("main").replaceChildren(box);
  return true;
}
