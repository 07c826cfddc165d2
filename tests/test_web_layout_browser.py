"""The place's layout, measured in a real headless Chromium at a desktop's 1280 px and a
phone's 390 px: long names never push numbers out of their panel or widen the page, numbered
lists show their numbers whole, a played card never covers a seat's label, the game-over box
stays on the felt, and every page's top bar has the same links."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from test_web_browser import browser, click_a_choice, hand_no, server, watch_errors
from test_web_waiting_browser import with_settings
from webtools import LiveServer

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

__all__ = ["browser", "server"]  # the browser tests' fixtures, shared

Page = Any
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The longest names a player may take: one without a space, one with.
LONG = ("WWWWWWWWWWWWWWWWWWWWWWWW", "Maximiliana Wolfeschlegl")


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return dict(b)


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


def page_fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def play_now(page: Page, base: str, name: str) -> None:
    """``name`` takes a seat with the home page's Play now."""
    page.goto(f"{base}/")
    page.fill("#name", name)
    page.click("#play-now")
    page.wait_for_url("**/t/**")


def test_long_names_keep_the_scores_in_their_panel(browser: Any, server: LiveServer) -> None:
    """Two people with the longest names Play now at one table: on a desktop and a phone
    each side's name and points stay inside the score panel, side by side, the page no
    wider than the screen."""
    pages = []
    for name in LONG:
        ctx = browser.new_context(viewport=PHONE)
        page = ctx.new_page()
        play_now(page, server.base, name)
        pages.append(page)
    page = pages[1]
    errors = watch_errors(page)
    page.wait_for_function(
        f"() => document.getElementById('score').innerText.includes({LONG[0]!r})")
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)
        page.screenshot(path=f"/tmp/layout-score-{viewport['width']}.png")
        panel = box(page, "#score")
        rows = page.locator("#score .score-row")
        assert rows.count() == 2
        names = rows.locator(".side").all_inner_texts()
        assert any(LONG[0] in n for n in names), names  # the other's (this one is "You")
        for i in range(2):
            side, points = rows.nth(i).locator(".side"), rows.nth(i).locator(".points")
            s, p = side.bounding_box(), points.bounding_box()
            assert inside(s, panel) and inside(p, panel), (viewport, names[i], s, p, panel)
            assert not overlap(s, p), (viewport, names[i])
            assert points.inner_text().strip().isdigit()
        page_fits(page)
        # on the felt the name may be cut with "…": the whole of it is its title
        seat = page.locator(".seat .name", has_text=LONG[0][:6])
        assert seat.get_attribute("title") == LONG[0]
    assert errors == []
    for p in pages:
        p.context.close()


def test_long_names_in_finished_games_never_widen_the_phones_home_page(
        browser: Any, server: LiveServer) -> None:
    """The finished games' list, with the longest names in it: at 390 px its table stays
    inside its panel and the page scrolls only up and down."""
    finished = {"tables": [
        {"id": f"game{i}", "finished_at": time.time() - 60 * i, "scores": [10, 3],
         "names": [LONG[0], LONG[1], "South (club)", "West (club)"]} for i in range(3)]}
    for viewport in (PHONE, DESKTOP):
        page = browser.new_page(viewport=viewport)
        page.route("**/api/tables/finished", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(finished)))
        page.goto(f"{server.base}/")
        page.wait_for_selector(f"#finished td >> text={LONG[0]}")
        page.screenshot(path=f"/tmp/layout-home-{viewport['width']}.png", full_page=True)
        assert inside(box(page, "#finished"), box(page, "#finished >> xpath=.."))
        page_fits(page)
        page.close()


def test_a_long_name_never_widens_a_phones_profile_or_account_page(browser: Any,
                                                                  server: LiveServer) -> None:
    """A guest named with 24 letters and no space: their profile's heading and the account
    page's "Playing as the guest …" break the name rather than widen a 390 px page."""
    page = browser.new_page(viewport=PHONE)
    play_now(page, server.base, LONG[0])
    for path in (f"/players/{LONG[0]}", "/account"):
        page.goto(server.base + path)
        page.wait_for_selector(f"main >> text={LONG[0][:12]}")
        page.screenshot(path=f"/tmp/layout-{path.split('/')[1]}-390.png")
        assert inside(box(page, "main h1"), box(page, "main")), path
        page_fits(page)
    page.close()


def marker_fits(page: Page, selector: str) -> list[str]:
    """The numbers of ``selector``'s items (an ``ol``) that its left padding cuts: each
    number as Chromium draws it ("12. "), measured in the list's own font."""
    cut: list[str] = page.evaluate("""(sel) => {
        const ol = document.querySelector(sel);
        const css = getComputedStyle(ol);
        const pad = parseFloat(css.paddingLeft);
        const ctx = document.createElement("canvas").getContext("2d");
        ctx.font = `${css.fontSize} ${css.fontFamily}`;
        const cut = [];
        [...ol.children].forEach((li, i) => {
          const n = `${ol.start + i}. `;
          if (ctx.measureText(n).width > pad) cut.push(n);
        });
        return cut; }""", selector)
    return cut


def test_while_you_were_away_numbers_moves_from_their_true_place(sqlite_url: str,
                                                               browser: Any) -> None:
    """A person away for more moves than they are told comes back: the moves left out are a
    line of their own, the first move shown carries its true number, and two-digit numbers
    are whole, desktop and phone."""
    from euchre.web.messages import COVERED_MAX

    with LiveServer(db_url=sqlite_url, away_timeout=0.2) as srv:
        t = srv.create(my_seat=-1, rules={"target": 50},
                       seats=[{"kind": "human", "level": "rule"}] + [{"kind": "computer"}] * 3)
        spec = srv.connect(t["id"])
        spec.until_state(lambda s: s["seats"][0]["stand_in"], timeout=20)
        table = srv.app.state.server.tables[t["id"]]
        deadline = time.monotonic() + 60
        while len(table.seats[0].covered) <= COVERED_MAX + 5:
            assert time.monotonic() < deadline, "the stand-in played too few moves"
            time.sleep(0.1)
        token = table.seats[0].token
        spec.close()
        page = browser.new_page(viewport=PHONE)
        errors = watch_errors(page)
        page.goto(f"{srv.base}/t/{t['id']}?fast#token={token}")
        page.wait_for_selector("#covered:not([hidden]) li")
        page.screenshot(path="/tmp/layout-covered-390.png")
        items = page.locator("#covered ol > li").all_inner_texts()
        assert len(items) == COVERED_MAX
        assert not any("earlier" in x for x in items), items[:2]
        earlier = int(page.locator("#covered").inner_text().split("… ")[1].split()[0])
        assert earlier > 0
        assert page.evaluate("document.querySelector('#covered ol').start") == earlier + 1
        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            assert marker_fits(page, "#covered ol") == []
        assert errors == []
        page.close()


def test_the_hand_logs_numbers_are_whole(browser: Any, server: LiveServer) -> None:
    """Through a hand's tricks the hand log grows past nine lines: its numbers are whole. Each
    hand's result waits for Continue (the hold setting), so a whole hand's log stays there to
    be looked at however slowly a loaded machine draws (a check between clicks could miss the
    moment before the next deal); a hand of fewer lines (trump made in two bids) is passed."""
    page = with_settings(browser, server, {"hold": True, "speed": "fast"})
    page.set_viewport_size(PHONE)
    errors = watch_errors(page)
    t = server.create(rules={"target": 50})  # no game over before such a hand
    page.goto(f"{server.base}/t/{t['id']}#token={t['token']}")
    page.wait_for_selector("#hand .card")
    page.click("#log-btn")
    rng = random.Random(3)
    result = page.locator("#banner .hand-result")
    deadline = time.monotonic() + 120
    while not (result.is_visible() and page.locator("#log ol > li").count() >= 10):
        assert time.monotonic() < deadline, "no hand's log reached ten lines"
        if result.is_visible():
            page.locator("#banner .continue").click()
            result.wait_for(state="hidden")
        elif not click_a_choice(page, rng, 2000):
            page.wait_for_timeout(50)
    page.screenshot(path="/tmp/layout-log-390.png")
    assert marker_fits(page, "#log ol") == []
    assert errors == []
    page.close()


def test_on_a_phone_a_played_card_never_covers_a_seats_label(browser: Any,
                                                             server: LiveServer) -> None:
    """At Play now's table on a phone, each seat shows its name and "free · computer plays":
    through a whole hand at the table's own pace, no card (lying there, sliding in from its
    seat, or gathered to the trick's winner) is ever drawn over a seat's name or tags."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    play_now(page, server.base, "Ann")
    page.wait_for_selector("#hand .card")
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    crossed = 0  # the moments a card's box met a label's: the label was on top each time
    while hand_no(page) < 2:
        assert time.monotonic() < deadline, "the hand did not finish"
        for _ in range(6):
            met = page.evaluate("""() => {
                const boxes = (sel) => [...document.querySelectorAll(sel)]
                  .filter((e) => e.offsetParent !== null)
                  .map((e) => [e, e.getBoundingClientRect()]);
                const labels = boxes(".seat .seat-head, .seat .seat-sub > *");
                const met = [];
                for (const [card, c] of boxes(".slot .card")) for (const [label, l] of labels) {
                  const x0 = Math.max(c.left, l.left), x1 = Math.min(c.right, l.right);
                  const y0 = Math.max(c.top, l.top), y1 = Math.min(c.bottom, l.bottom);
                  if (x1 - x0 < 1 || y1 - y0 < 1) continue;
                  const top = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
                  met.push([label.innerText, card.contains(top)]);
                }
                return met; }""")
            crossed += len(met)
            covered = [label for label, on_top in met if on_top]
            if covered:
                page.screenshot(path="/tmp/layout-overlap-390.png")
            assert covered == [], covered
            page.wait_for_timeout(60)
        click_a_choice(page, rng, 2000)
    page.screenshot(path="/tmp/layout-cards-390.png")
    assert crossed > 0  # cards did pass a label: the check above was put to the test
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_game_over_box_stays_on_the_felt(browser: Any, server: LiveServer,
                                             viewport: dict[str, int]) -> None:
    """A one-point game played to its end: the game-over box lies inside the felt and leaves
    the status line under it uncovered."""
    page = browser.new_page(viewport=viewport)
    t = server.create(rules={"target": 1})
    page.goto(f"{server.base}/t/{t['id']}?fast#token={t['token']}")
    page.wait_for_selector("#hand .card")
    rng = random.Random(7)
    deadline = time.monotonic() + 90
    over = page.locator("#banner.gameover:not([hidden]), #banner:not([hidden]) .gameover")
    while not over.count():
        assert time.monotonic() < deadline, "the game did not end"
        if not click_a_choice(page, rng, 2000):
            page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    page.screenshot(path=f"/tmp/layout-gameover-{viewport['width']}.png", full_page=True)
    banner = box(page, "#banner")
    assert inside(banner, box(page, ".felt")), (banner, box(page, ".felt"))
    assert not overlap(banner, box(page, "#status")), (banner, box(page, "#status"))
    page_fits(page)
    page.close()


@pytest.mark.parametrize("path", ["/replay/x", "/review/x", "/puzzles/x", "/train-bids",
                                  "/leaderboard"])
def test_every_pages_top_bar_links_to_sign_in_and_the_leaderboard(
        browser: Any, server: LiveServer, path: str) -> None:
    """The replay, the analysis, the puzzles and the trainer have the top bar's links the
    other pages have, desktop and phone, and the bar stays on the screen."""
    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        page.goto(server.base + path)
        bar = page.locator("header.topbar")
        bar.get_by_role("link", name="sign in").wait_for()
        assert bar.get_by_role("link", name="sign in").get_attribute("href") == "/account"
        assert bar.get_by_role("link", name="leaderboard").get_attribute("href") == "/leaderboard"
        page.screenshot(path=f"/tmp/layout-bar{path.replace('/', '-')}-{viewport['width']}.png")
        assert inside(box(page, "header.topbar nav"), box(page, "header.topbar"))
        page_fits(page)
        page.close()
