"""Players in a real Chromium (Playwright): two people sign up in two browser contexts, play a
rated game with two computers to its end, see their ratings and the computers' move and the
game on both profiles; a third browser cannot act for either of them, by their names or by
replaying their requests."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import click_a_choice, watch_errors
from webtools import CHROMIUM, LiveServer

from euchre.web.accounts import PASSWORD_RULE

playwright_api = pytest.importorskip("playwright.sync_api")

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "img"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def sign_up(page: Any, base: str, name: str, password: str) -> None:
    page.goto(base + "/account")
    page.wait_for_selector("#signup-box:not([hidden])")
    # the rule the server holds a password to is the one the form states, under the field
    assert page.text_content("#su-pass-rule") == PASSWORD_RULE
    assert page.get_attribute("#su-pass", "aria-describedby") == "su-pass-rule"
    page.fill("#su-name", name)
    page.fill("#su-pass", password)
    page.click("#signup button")
    page.wait_for_selector(f"#status >> text=Signed in as {name}")


def ratings(base: str, http: Any) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in http.get(base + "/api/leaderboard").json()["players"]}


def test_two_people_sign_up_play_a_rated_game_and_a_third_cannot_act_for_them(
        browser: Any, sqlite_url: str, tmp_path: Path) -> None:
    import httpx

    with LiveServer(db_url=sqlite_url, away_timeout=60) as srv:
        base = srv.base
        a_ctx, b_ctx, c_ctx = browser.new_context(), browser.new_context(), browser.new_context()
        a, b, c = a_ctx.new_page(), b_ctx.new_page(), c_ctx.new_page()
        errors = watch_errors(a) + watch_errors(b)
        sign_up(a, base, "Ann", "a long secret of mine")
        sign_up(b, base, "Bob", "keeps another secret")
        before = ratings(base, srv.http)
        # every calibrated level is on the board before anyone played it, at its measured
        # rating with the calibration's margin
        from euchre.bots.registry import ladder_ratings

        for level, measured in ladder_ratings().items():
            assert before[level]["kind"] == "computer" and before[level]["rated_games"] == 0
            assert before[level]["rating"] == round(measured.mu), level
            assert before[level]["plus_minus"] == round(1.96 * measured.sigma), level
        # Ann makes a rated table: Bob (a friend) opposite her, two computers at the form's
        # default level, club
        recorded: list[dict[str, Any]] = []
        a.on("request", lambda r: recorded.append(
            {"url": r.url, "headers": r.headers, "body": r.post_data})
            if r.method == "POST" else None)
        a.goto(base + "/")
        a.wait_for_selector('.seat-row[data-seat="0"]')
        assert "Ann" in a.locator("#name-label").inner_text()
        # the registry's ladder, each level with its measured rating, the form's default
        from euchre.bots import player_levels

        menu = a.locator('.seat-row[data-seat="1"] select.level')
        # (the anchor's "± 0" said to be the scale's definition)
        assert menu.locator("option").all_inner_texts() == [
            f"{name} · {round(ladder_ratings()[name].mu)} ± "
            f"{round(ladder_ratings()[name].half_width)}"
            + (" (the scale's fixed anchor)" if name in ("club", "rule") else "")
            for name in player_levels()]
        assert menu.input_value() == "club"
        a.select_option('.seat-row[data-seat="0"] select.kind', "friend")
        a.fill("#opt-target", "3")
        assert a.locator("#rated").is_checked()
        a.click("#create-btn")
        a.wait_for_selector(".invite-url")
        invite = a.locator(".invite-url").input_value()
        table_id = a.url.split("/t/")[1].split("#")[0].split("?")[0]
        assert srv.get(f"/api/tables/{table_id}")[1]["seats"][2]["player"] is True
        b.goto(invite.replace("#", "?fast#"))
        b.wait_for_selector("#join-btn")
        b.click("#join-btn")
        b.wait_for_selector("#hand .card")
        a.goto(f"{base}/t/{table_id}?fast")
        a.wait_for_selector("#hand .card")
        # each sees the other by name, never as "You"
        deadline = time.monotonic() + 10
        while a.locator(".seat.pos-top .name").inner_text() != "Bob":
            assert time.monotonic() < deadline, "Ann never saw Bob take the seat"
            a.wait_for_timeout(50)
        assert b.locator(".seat.pos-top .name").inner_text() == "Ann"

        # --- a third browser: Carl -------------------------------------------------------
        # with Ann's seat link (as if it leaked) he only watches: no hand, no choices
        ann_token = a.evaluate(f"localStorage.getItem('euchre:seat:{table_id}')")
        assert ann_token
        c.goto(f"{base}/t/{table_id}?fast#token={ann_token}")
        c.wait_for_selector("#game:not([hidden])")
        c.wait_for_timeout(1500)
        assert c.locator("#hand .card").count() == 0
        assert c.locator("#actions button").count() == 0
        assert "spectator" in (c.locator("body").get_attribute("class") or "")
        # by her name: the name is hers, as a guest's and as an account's
        c.goto(base + "/account")
        c.wait_for_selector("#signup-box:not([hidden])")
        for copy in ("ann", "\u0410nn"):  # the second with a Cyrillic "А"
            c.fill("#su-name", copy)
            c.fill("#su-pass", "carl's password here")
            c.evaluate("document.getElementById('form-error').textContent = ''")
            c.click("#signup button")
            c.wait_for_selector("#form-error:not(:empty)")
            assert "another player's name" in c.locator("#form-error").inner_text(), copy
        with httpx.Client(base_url=base, headers={"Origin": base}) as carl:
            for copy in ("ANN", "\u0410NN", "A n n"):
                r = carl.post("/api/me/guest", json={"name": copy})
                assert r.status_code == 409, r.text
            # replaying Ann's own requests: her table creation and its CSRF token carry no
            # session without her cookie (HttpOnly: no page script can read it)
            made = next(x for x in recorded if x["url"].endswith("/api/tables"))
            assert made["headers"].get("x-csrf-token")
            r = carl.post("/api/tables", content=made["body"],
                          headers={"Content-Type": "application/json",
                                   "X-CSRF-Token": made["headers"]["x-csrf-token"]})
            assert r.status_code in (201, 400)
            if r.status_code == 201:  # an anonymous table of his own, not Ann's seat
                assert srv.get(f"/api/tables/{r.json()['id']}")[1]["seats"][2]["name"] \
                    != "Ann"
            assert "euchre_session" not in json.dumps(a.evaluate("document.cookie"))
            # Ann's seat by its link, over the websocket, without her cookie
            ws = srv.connect(table_id, ann_token)
            err = ws.until(lambda m: m["type"] == "error")
            assert err["code"] == "not_your_seat"
            ws.close()
            r = carl.post("/api/account/signin", json={"name": "Ann", "password": "guess" * 3})
            assert r.status_code == 401

        # --- Ann and Bob play the game to its end --------------------------------------
        rng = random.Random(11)
        deadline = time.monotonic() + 240
        while not (a.locator("#banner .gameover").count() and
                   b.locator("#banner .gameover").count()):
            assert time.monotonic() < deadline, "the game did not end"
            for page in (a, b):
                click_a_choice(page, rng, 500)
            a.wait_for_timeout(20)
        title = a.locator("#banner .gameover h2").inner_text()
        assert "You" not in b.locator("#banner .gameover h2").inner_text().replace("You &", "")
        ann_won = "Ann" in title or "You" in title.split(" win")[0]
        assert a.locator("#banner .gameover >> text=Your profile").count() == 1

        # --- ratings moved: theirs and the computers' -----------------------------------
        deadline = time.monotonic() + 10
        while "Ann" not in ratings(base, srv.http):
            assert time.monotonic() < deadline, "no rating after the game"
            time.sleep(0.1)
        after = ratings(base, srv.http)
        # club, the scale's anchor, counts the game and stays where the scale is measured
        # from, 1500 ± 0 (a level that moves: test_web_players.py's rated-game test)
        assert after["club"]["mu"] == before["club"]["mu"] == 1500
        assert after["club"]["plus_minus"] == before["club"]["plus_minus"] == 0
        assert after["club"]["rated_games"] == 1
        assert after["Ann"]["rating"] == after["Bob"]["rating"]  # partners, both new
        assert (after["Ann"]["rating"] > 1500) == ann_won
        a.click("#banner .gameover >> text=Leaderboard")
        a.wait_for_selector("#board tbody tr a")
        shown = a.locator("#board").inner_text()
        assert re.search(r"Ann\s+\d{3,4} ± \d+ \(provisional\)", shown), shown
        assert re.search(r"club\s*computer\s+1500 ± 0 \(the scale's fixed anchor\)\s+1\b",
                         shown), shown
        for page, name in ((a, "Ann"), (b, "Bob")):
            page.goto(f"{base}/players/{name}")
            page.wait_for_selector(f"#games a[href='/replay/{table_id}']")
            assert page.locator(f"#games a[href='/review/{table_id}']").count() == 1
            assert page.locator(f"#games a[href^='/puzzles/{table_id}?seat=']").inner_text() \
                == "your mistakes"
            assert page.locator("#chart svg .dot").count() == 1
            assert "provisional" in page.locator("#rating").inner_text()
            # the game's rating change beside the rating it moved to, with that one's margin
            games = page.locator("#games").inner_text()
            assert re.search(r"(won|lost) · [+-]\d+ → \d{3,4} ± \d+ \(provisional\)", games), games
        assert errors == [], errors

        # screenshots for docs/web.md: a profile and the leaderboard, desktop and phone
        shots = tmp_path / "shots"
        shots.mkdir()
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)
        desk = browser.new_context(viewport={"width": 1100, "height": 800})
        for ctx, suffix in ((desk, ""), (phone, "-phone")):
            page = ctx.new_page()
            for path, name in (("/players/Ann", "profile"), ("/leaderboard", "leaderboard")):
                page.goto(base + path)
                page.wait_for_selector("tbody tr td")
                page.wait_for_timeout(200)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= (390 if suffix else 1100), (path, width)
                page.screenshot(path=str(shots / f"{name}{suffix}.png"), full_page=True)
        if SHOTS.is_dir() and __import__("os").environ.get("EUCHRE_SCREENSHOTS"):
            for f in shots.iterdir():
                (SHOTS / f.name).write_bytes(f.read_bytes())
        for ctx in (a_ctx, b_ctx, c_ctx, phone, desk):
            ctx.close()


def test_a_passkey_signs_an_account_in_and_its_answer_cannot_be_replayed(
        browser: Any, sqlite_url: str) -> None:
    """Chromium's virtual authenticator as the device: Pia adds a passkey, signs out, and
    signs in with it alone. Her answer, sent again (its ceremony used), or with a fresh
    ceremony (another challenge), opens nothing; nor does a credential the site never saw,
    nor a passkey ceremony at the site's bare IP address (WebAuthn takes names only)."""
    import httpx

    with LiveServer(db_url=sqlite_url) as srv:
        base = f"http://localhost:{srv.port}"  # a relying party is a name, not an address
        ctx = browser.new_context()
        page = ctx.new_page()
        errors = watch_errors(page)
        cdp = ctx.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
            "hasUserVerification": True, "isUserVerified": True}})
        sign_up(page, base, "Pia", "a long secret of mine")
        page.fill("#pk-pass", "a long secret of mine")
        page.click("#pk-add")
        page.wait_for_selector("#pk-status >> text=this account has 1")
        assert page.locator("#pk-list li").count() == 1
        assert "never used yet" in page.locator("#pk-list").inner_text()
        page.click("#signout")
        page.wait_for_selector("#pk-signin-box:not([hidden])")
        sent: list[dict[str, Any]] = []
        page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}"))
                if r.url.endswith("/api/account/passkey/signin") else None)
        page.click("#pk-signin")
        page.wait_for_selector("#status >> text=Signed in as Pia")
        assert page.evaluate("fetch('/api/me').then(r => r.json())")["player"]["name"] == "Pia"
        assert errors == [], errors
        answer = sent[0]
        with httpx.Client(base_url=base, headers={"Origin": base}, timeout=20) as eve:
            r = eve.post("/api/account/passkey/signin", json=answer)
            assert r.status_code == 400 and "used or expired" in r.json()["error"], r.text
            fresh = eve.post("/api/account/passkey/start", json={}).json()["ceremony"]
            r = eve.post("/api/account/passkey/signin", json={**answer, "ceremony": fresh})
            assert r.status_code == 401 and eve.get("/api/me").json()["player"] is None
            fresh = eve.post("/api/account/passkey/start", json={}).json()["ceremony"]
            stranger = {**answer["credential"], "id": "AAAA", "rawId": "AAAA"}
            r = eve.post("/api/account/passkey/signin", json={"ceremony": fresh,
                                                              "credential": stranger})
            assert r.status_code == 401 and "does not open an account" in r.json()["error"]
        with httpx.Client(base_url=srv.base, headers={"Origin": srv.base}) as by_address:
            r = by_address.post("/api/account/passkey/start", json={})
            assert r.status_code == 400 and "not an IP address" in r.json()["error"], r.text
        ctx.close()


def test_a_guest_signing_out_is_warned_and_offered_to_sign_up_and_nothing_moves_unasked(
        browser: Any, sqlite_url: str, tmp_path: Path) -> None:
    """A guest has no password: "Sign out" first says what they lose (the name, its seats and
    games on this browser) and offers the sign-up that keeps them; only "Sign out and lose
    them" signs out. The sign-in form's box that brings a guest's games along starts unticked
    (nothing moves unless asked: a shared computer's guest may be someone else). At a
    desktop's width and a 390 px phone's, with screenshots."""
    with LiveServer(db_url=sqlite_url) as srv:
        base = srv.base
        for width, suffix in ((1100, "d"), (390, "m")):
            ctx = browser.new_context(viewport={"width": width, "height": 800})
            page = ctx.new_page()
            errors = watch_errors(page)
            page.goto(base + "/account")
            page.wait_for_selector("#signin-box:not([hidden])")
            name = f"Gus{suffix}"
            page.evaluate("n => import('/static/js/me.js').then(m => m.ensurePlayer(n))", name)
            page.goto(base + "/account")
            page.wait_for_selector(f"#status >> text=Playing as the guest {name}")
            assert page.is_visible("#si-guest-box")
            assert not page.is_checked("#si-guest")
            page.click("#signout")
            page.wait_for_selector("#guest-signout:not([hidden])")
            warning = page.inner_text("#guest-signout")
            for words in ("A guest has no password", f"forgets {name} for good",
                          f"cannot come back as {name}", f"{name}'s games",
                          "Sign up to keep the name"):
                assert words in warning, (words, warning)
            page.screenshot(path=str(tmp_path / f"guest-signout-{suffix}.png"), full_page=True)
            # nothing happened yet: still the guest
            me = page.evaluate("fetch('/api/me').then(r => r.json())")
            assert me["player"]["name"] == name, me
            page.click("#signout-stay")
            assert page.is_hidden("#guest-signout")
            page.click("#signout")
            page.click("#signup-instead")
            assert page.is_hidden("#guest-signout")
            assert page.evaluate("document.activeElement.id") == "su-pass"
            assert page.input_value("#su-name") == name
            assert page.evaluate("fetch('/api/me').then(r => r.json())")["player"]["name"] == name
            page.click("#signout")
            page.click("#signout-anyway")
            page.wait_for_selector("#status >> text=You have no player's name yet")
            assert page.evaluate("fetch('/api/me').then(r => r.json())")["player"] is None
            assert page.is_hidden("#guest-signout")
            assert errors == [], errors
            ctx.close()
        # an account signs out at once: it has a password to come back with
        ctx = browser.new_context()
        page = ctx.new_page()
        sign_up(page, base, "Acca", "a long secret of mine")
        page.click("#signout")
        page.wait_for_selector("#status >> text=You have no player's name yet")
        assert page.is_hidden("#guest-signout")
        ctx.close()


def test_a_missing_player_or_game_has_one_screen_saying_so_with_a_next_step(
        browser: Any, sqlite_url: str, tmp_path: Path) -> None:
    """``/players/NAME`` of no such player and ``/replay/ID``, ``/review/ID`` and
    ``/puzzles/ID`` of no such game: one screen saying what is missing, in words, with where to
    go next, in place of the page's empty panels and controls (as ``/t/ID``'s "No table
    here"). The API says what is missing beside its error. A desktop's width and a phone's."""
    with LiveServer(db_url=sqlite_url) as srv:
        base = srv.base
        code, body = srv.get("/api/players/Nobody")
        assert (code, body["missing"]) == (404, "player"), body
        for what in ("replay", "review", "puzzles"):
            code, body = srv.get(f"/api/tables/doesnotexist/{what}")
            assert (code, body["missing"]) == (404, "table"), (what, body)
        pages = [("/players/Nobody", "No player here", "There is no player of that name",
                  ["See the leaderboard", "Start a new table"]),
                 *[(f"/{what}/doesnotexist", "No game here", "There is no game at this address",
                    ["Start a new table", "See the finished games"])
                   for what in ("replay", "review", "puzzles")]]
        for width in (1100, 390):
            ctx = browser.new_context(viewport={"width": width, "height": 800})
            page = ctx.new_page()
            errors = watch_errors(page)
            for path, heading, words, links in pages:
                page.goto(base + path)
                page.wait_for_selector("main .missing h2")
                main = page.locator("main")
                assert main.locator("h2").inner_text() == heading, path
                assert words in main.inner_text(), path
                assert main.locator("a.button").all_inner_texts() == links, path
                # nothing of the page's own: no empty panels, play controls or download link
                assert main.locator("section, button, input, #download").count() == 0, path
                assert page.evaluate("document.documentElement.scrollWidth") <= width, path
                page.screenshot(path=str(tmp_path / f"missing-{path.split('/')[1]}-{width}.png"),
                                full_page=True)
            page.goto(base + "/players/Nobody")
            page.click("main >> text=See the leaderboard")
            page.wait_for_url(base + "/leaderboard")
            assert [e for e in errors if "404" not in e] == [], errors
            ctx.close()
