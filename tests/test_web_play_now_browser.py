"""The home page's Play now, in a real headless Chromium: "Bots may play at my table" beside it,
as in the lobby, named for a screen reader and worked from the keyboard."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import browser, names_cut, play_until, server, watch_errors
from webtools import LiveServer

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

__all__ = ["browser", "server"]  # the browser tests' fixtures, shared

BOTS = "Bots may play at my table"


def test_the_home_pages_play_now_asks_whether_bots_may_play(browser: Any,
                                                            sqlite_url: str) -> None:
    """Where the server seats bots by themselves, the home page offers the choice beside
    Play now; unchecked from the keyboard, the table made for Ann takes no bot, and the
    lobby remembers her choice."""
    with LiveServer(db_url=sqlite_url, bots="allowed") as srv:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors = watch_errors(page)
        page.goto(f"{srv.base}/")
        box = page.get_by_role("checkbox", name=BOTS)
        box.wait_for()
        assert box.is_checked()
        page.fill("#name", "Ann")
        page.focus("#play-now")
        page.keyboard.press("Tab")  # the lobby's link
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.type") == "checkbox"
        page.keyboard.press("Space")
        assert not box.is_checked()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")  # Play now
        page.wait_for_url("**/t/**")
        (t,) = srv.get("/api/lobby")[1]["tables"]
        assert t["bots_welcome"] is False and t["seats"][0]["name"] == "Ann"
        page.goto(f"{srv.base}/lobby")
        page.get_by_role("checkbox", name=BOTS).wait_for()
        assert not page.get_by_role("checkbox", name=BOTS).is_checked()
        assert errors == []
        page.close()


def test_no_bots_choice_where_bots_sit_only_when_invited(browser: Any,
                                                        server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{server.base}/")
    page.wait_for_selector("#preset option", state="attached")  # the options were read
    assert page.get_by_role("checkbox", name=BOTS).count() == 0
    assert page.locator("#play-bots").is_hidden()
    page.close()


def test_leaving_a_rated_game_asks_first_and_says_it_still_counts(browser: Any,
                                                                 server: LiveServer) -> None:
    """Leave the table at a rated game asks first, saying the game still counts for the
    player (a button's title is never seen on a phone): dismissed, nothing happens;
    accepted, the seat is left."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = watch_errors(page)
    page.goto(f"{server.base}/")
    page.fill("#name", "Ann")
    page.click("#play-now")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#leave-btn:visible")
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.click("#leave-btn")
    page.wait_for_timeout(500)
    assert len(asked) == 1 and "rated" in asked[0] and "still counts" in asked[0]
    (t,) = server.get("/api/lobby")[1]["tables"]
    assert t["rated"] and t["people"] == 1 and "/t/" in page.url  # still seated
    page.once("dialog", lambda d: answer(d, True))
    page.click("#leave-btn")
    page.wait_for_url("**/lobby")
    assert len(asked) == 2
    assert errors == []
    page.close()


@pytest.mark.parametrize("width", [1200, 900, 390])
def test_the_game_over_screen_shows_whole_names_no_stale_tags_and_even_buttons(
        browser: Any, sqlite_url: str, tmp_path: Path, width: int) -> None:
    """Once a Play now game is over: no seat says who plays it now (its free seats' "free ·
    computer plays" is stale: nobody does), every seat's name is shown whole (900 px: the
    felt beside the side panel, where the columns are narrowest), and Play again is as tall
    as the buttons beside it."""
    with LiveServer(db_url=sqlite_url) as srv:
        t = srv.post("/api/play", {"name": "Ann", "rules": {"target": 1}})[1]
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors = watch_errors(page)
        page.goto(f"{srv.base}/t/{t['id']}?fast#token={t['token']}")
        page.wait_for_selector("#hand .card")
        tags = ".seat:not([hidden]) .tag.away"
        assert page.locator(tags).all_inner_texts() == ["free · computer plays"] * 3
        play_until(page, lambda: page.locator("#banner .gameover").count() > 0,
                   random.Random(3))
        page.screenshot(path=str(tmp_path / f"game-over-{width}.png"))
        assert page.locator(tags).count() == 0
        assert sorted(page.locator(".seat:not([hidden]) .name").all_inner_texts()) == \
            ["East (club)", "South (club)", "West (club)", "You"]
        assert names_cut(page) == []
        heights = page.evaluate("""[...document.querySelectorAll(
            '#banner .gameover .links > *')].map(e => e.getBoundingClientRect().height)""")
        assert len(heights) == 5 and max(heights) - min(heights) < 0.5, heights
        assert errors == []
        page.close()
