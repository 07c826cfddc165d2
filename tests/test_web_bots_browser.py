"""A bot online against a person in a real Chromium (Playwright): a person signs up, seats the
Node example bot by its name on the home form, and plays a rated game to its end against it
and two computers, while the bot's program plays over the bot websocket (``euchre connect``);
the bot is shown as a bot at the table, on the leaderboard and on its profile, and rated."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import click_a_choice, hand_no, watch_errors
from test_web_players_browser import ratings, sign_up
from webtools import CHROMIUM, LiveServer

from euchre.web import bots as B
from euchre.web.store import Store

playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
EUCHRE = str(Path(sys.executable).parent / "euchre")
NODE_BOT = f"cmd:node {ROOT / 'examples/node_bot.js'}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def test_a_person_plays_a_rated_game_against_the_node_bot_online(
        browser: Any, sqlite_url: str, tmp_path: Path) -> None:
    store = Store(sqlite_url)
    try:
        token = B.create(store, "NodeBot", None)[1]
    finally:
        store.close()
    with LiveServer(db_url=sqlite_url, away_timeout=60) as srv:
        base = srv.base
        ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        page = ctx.new_page()
        errors = watch_errors(page)
        sign_up(page, base, "Ann", "a long secret of mine")
        before = ratings(base, srv.http)
        assert "NodeBot" not in before  # not rated before its first game
        # the bot's program, online: the Node example through euchre connect
        log = (tmp_path / "connect.log").open("w")
        bot = subprocess.Popen([EUCHRE, "connect", NODE_BOT, "--server", base,
                                "--max-games", "1"], stdout=log, stderr=subprocess.STDOUT,
                               env={**os.environ, "EUCHRE_BOT_TOKEN": token})
        try:
            # Ann (South, the form's seat for her) seats the bot by its name at East
            page.goto(base + "/")
            page.wait_for_selector('.seat-row[data-seat="1"]')
            page.select_option('.seat-row[data-seat="1"] select.kind', "bot")
            page.fill('.seat-row[data-seat="1"] input.bot-name', "NodeBot")
            page.fill("#opt-target", "3")
            assert page.locator("#rated").is_checked()
            page.click("#create-btn")
            page.wait_for_selector("#hand .card")
            table_id = page.url.split("/t/")[1].split("#")[0].split("?")[0]
            seats = srv.get(f"/api/tables/{table_id}")[1]["seats"]
            assert seats[1]["name"] == "NodeBot" and seats[1]["kind"] == "bot"
            # the table shows it as a bot, by its name
            east = page.locator(".seat.pos-right")
            assert east.locator(".name").inner_text() == "NodeBot"
            assert east.locator(".tag.bot").inner_text() == "bot"
            shots = tmp_path / "shots"
            shots.mkdir()
            page.screenshot(path=str(shots / "table-with-bot.png"))
            rng = random.Random(5)
            deadline = time.monotonic() + 240
            while not page.locator("#banner .gameover").count():
                assert time.monotonic() < deadline, "the game did not end"
                assert bot.poll() is None or bot.returncode == 0, \
                    (tmp_path / "connect.log").read_text()
                click_a_choice(page, rng, 500)
                page.wait_for_timeout(20)
            assert bot.wait(30) == 0, (tmp_path / "connect.log").read_text()
        finally:
            if bot.poll() is None:
                bot.terminate()
                bot.wait(10)
            log.close()
        said = (tmp_path / "connect.log").read_text()
        assert f"playing table {table_id}, seat 1" in said and "played 1 game(s)" in said, said
        # the bot made every move of its seat itself: its computer never stood in
        seats = srv.get(f"/api/tables/{table_id}")[1]["seats"]
        assert not seats[1]["stand_in"]
        deadline = time.monotonic() + 10
        while "NodeBot" not in ratings(base, srv.http):
            assert time.monotonic() < deadline, "no rating for the bot after the game"
            time.sleep(0.1)
        after = ratings(base, srv.http)
        assert after["NodeBot"]["kind"] == "bot" and after["NodeBot"]["rated_games"] == 1
        assert after["Ann"]["rated_games"] == 1
        # Ann (South) and the bot (East) were opponents: one won, the other lost
        assert (after["Ann"]["rating"] > 1500) != (after["NodeBot"]["rating"] > 1500)
        bots_only = srv.http.get(base + "/api/leaderboard?kind=bots").json()["players"]
        assert [p["name"] for p in bots_only] == ["NodeBot"]
        # the leaderboard and the profile mark it as a bot
        page.goto(base + "/leaderboard")
        page.wait_for_selector("#board tbody tr a")
        shown = page.locator("#board").inner_text()
        assert re.search(r"NodeBot\s*bot\s+\d{3,4} ± \d+ \(provisional\)\s+1\b", shown), shown
        page.screenshot(path=str(shots / "leaderboard-with-bot.png"))
        page.goto(f"{base}/players/NodeBot")
        page.wait_for_selector(f"#games a[href='/replay/{table_id}']")
        assert page.locator("#who").inner_text() == "NodeBot (bot)"
        # who keeps it, in a sentence that reads right (the operator's: no owner account)
        assert "A bot: a program that plays here with an account of its own, kept by the " \
            "site's operator." in page.locator("main").inner_text()
        assert errors == [], errors
        # on a 390 px phone the table with the bot fits
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)
        p = phone.new_page()
        p.goto(f"{base}/t/{table_id}")
        p.wait_for_selector(".seat .tag.bot")
        assert p.evaluate("document.documentElement.scrollWidth") <= 390
        p.screenshot(path=str(shots / "table-with-bot-phone.png"))
        phone.close()
        ctx.close()


def test_a_person_who_plays_now_with_bots_welcome_plays_a_bot_seated_by_play_now(
        browser: Any, sqlite_url: str, tmp_path: Path) -> None:
    """Where the operator lets bots seat themselves: Ann presses Play now on the home page
    (bots welcome, as it is ticked there), and a registered bot's program, online the way
    docs/writing-a-bot.md says (``euchre connect rule --play-now``), is seated at her table
    by its own Play now. Her table shows the bot's seat by its name, marked a bot, and she
    plays hands through the page against it: from the hand after the one it sat down in, the
    bot makes its seat's moves itself (its computer no longer stands in)."""
    store = Store(sqlite_url)
    try:
        token = B.create(store, "Robo", None)[1]
    finally:
        store.close()
    with LiveServer(db_url=sqlite_url, bots="allowed") as srv:
        shots = tmp_path / "shots"
        shots.mkdir()
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        errors = watch_errors(page)
        page.goto(srv.base + "/")
        assert page.get_by_role("checkbox", name="Bots may play at my table").is_checked()
        page.fill("#name", "Ann")
        page.click("#play-now")
        page.wait_for_selector("#hand .card")
        table_id = page.url.split("/t/")[1].split("#")[0].split("?")[0]
        log = (tmp_path / "connect.log").open("w")
        bot = subprocess.Popen([EUCHRE, "connect", "rule", "--server", srv.base, "--play-now"],
                               stdout=log, stderr=subprocess.STDOUT,
                               env={**os.environ, "EUCHRE_BOT_TOKEN": token})
        try:
            robo = page.locator(".seat", has=page.locator(".name", has_text="Robo"))
            robo.locator(".tag.bot").wait_for(timeout=30000)
            assert robo.locator(".name").inner_text() == "Robo"
            assert robo.locator(".tag.bot").inner_text() == "bot"
            seat = int(robo.get_attribute("data-seat") or "-1")
            assert seat > 0  # Ann's is seat 0
            page.screenshot(path=str(shots / "ann-plays-robo.png"))
            rng = random.Random(7)
            start = hand_no(page)
            deadline = time.monotonic() + 180
            while hand_no(page) < start + 2:  # the hand it sat down in, and one more
                assert time.monotonic() < deadline, "the hands did not end"
                assert bot.poll() is None, (tmp_path / "connect.log").read_text()
                click_a_choice(page, rng, 500)
                page.wait_for_timeout(20)
                if hand_no(page) > start:  # a hand the bot plays from its start
                    seats = srv.get(f"/api/tables/{table_id}")[1]["seats"]
                    assert seats[seat]["kind"] == "bot" and not seats[seat]["stand_in"]
            said = (tmp_path / "connect.log").read_text()
            assert f"seated at /t/{table_id} (seat {seat})" in said, said
            assert f"playing table {table_id}, seat {seat}" in said, said
            assert robo.locator(".tag.bot").inner_text() == "bot"
            assert not robo.locator(".tag.away").count()  # nobody stands in for it
            assert errors == [], errors
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto(f"{srv.base}/t/{table_id}")  # watching, on a phone
            phone.locator(".seat .tag.bot").wait_for()
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
            phone.screenshot(path=str(shots / "robo-phone.png"))
            phone.close()
        finally:
            bot.terminate()
            bot.wait(10)
            log.close()
        page.close()
