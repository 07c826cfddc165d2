"""The place's layout, measured in a real headless Chromium at a desktop's 1280 px and a
phone's 390 px: long names never push numbers out of their panel or widen the page, numbered
lists show their numbers whole."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from test_web_browser import browser, click_a_choice, server, watch_errors
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


def test_long_names_keep_the_scores_in_their_panel(browser: Any, server: LiveServer) -> None:
    """Two people with the longest names Play now at one table: on a desktop and a phone
    each side's name and points stay inside the score panel, side by side, the page no
    wider than the screen."""
    pages = []
    for name in LONG:
        ctx = browser.new_context(viewport=PHONE)
        page = ctx.new_page()
        page.goto(f"{server.base}/")
        page.fill("#name", name)
        page.click("#play-now")
        page.wait_for_url("**/t/**")
        pages.append(page)
    page = pages[1]
    errors = watch_errors(page)
    page.wait_for_function(f"document.getElementById('score').innerText.includes({LONG[0]!r})")
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
    """Through a hand's tricks the hand log grows past nine lines: its numbers are whole."""
    page = browser.new_page(viewport=PHONE)
    t = server.create()
    page.goto(f"{server.base}/t/{t['id']}?fast#token={t['token']}")
    page.wait_for_selector("#hand .card")
    page.click("#log-btn")
    rng = random.Random(3)
    deadline = time.monotonic() + 60
    most = 0
    while most < 10:
        assert time.monotonic() < deadline, "the hand log never reached ten lines"
        if not click_a_choice(page, rng, 2000):
            page.wait_for_timeout(50)
        n = page.locator("#log ol > li").count()
        if n >= 10:
            page.screenshot(path="/tmp/layout-log-390.png")
            assert marker_fits(page, "#log ol") == []
        most = max(most, n)
    page.close()
