"""The home page's Play now, in a real headless Chromium: "Bots may play at my table" beside it,
as in the lobby, named for a screen reader and worked from the keyboard."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_browser import browser, server, watch_errors
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
