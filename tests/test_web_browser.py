"""End to end in a real headless Chromium (Debian's ``chromium``, driven by Playwright for
Python): a person plays a whole hand by clicking and with the keyboard, two friends play at one
table from two browser contexts, a reload mid-hand resumes, a phone-sized viewport works, chat
shows markup as text, and a finished game replays."""

from __future__ import annotations

import functools
import random
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from webtools import CHROMIUM, LiveServer

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")
Page = Any


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveServer]:
    with LiveServer(db_url=sqlite_url, away_timeout=60) as srv:
        yield srv


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def hand_no(page: Page) -> int:
    m = re.search(r"hand (\d+)", page.locator("#score h3").inner_text())
    return int(m.group(1)) if m else 0


def next_hand_started(page: Page, current: int) -> bool:
    return hand_no(page) > current


def play_until(page: Page, done: Callable[[], bool], rng: random.Random,
               keyboard: bool = False, timeout: float = 90) -> int:
    """Click (or type) legal choices until ``done()``; returns how many moves were made."""
    moves = 0
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the hand did not finish"
        bids = page.locator("#actions button")
        cards = page.locator("#hand .card.playable")
        try:
            # Count once: the table may be redrawn between two counts (a count of 0 then).
            n_bids = bids.count()
            n_cards = 0 if n_bids else cards.count()
            if n_bids:
                if keyboard:
                    page.keyboard.press(str(rng.randrange(n_bids) + 1))
                else:
                    bids.nth(rng.randrange(n_bids)).click(timeout=1000)
                moves += 1
            elif n_cards:
                if keyboard:
                    page.keyboard.press(cards.nth(0).get_attribute("data-key") or "1")
                else:
                    cards.nth(rng.randrange(n_cards)).click(timeout=1000)
                moves += 1
            else:
                page.wait_for_timeout(30)
        except playwright_api.Error:
            pass  # the table was redrawn under the click: look again
    return moves


def click_a_choice(page: Page, rng: random.Random, timeout: float) -> bool:
    """Click a random bid or playable card if there is one (False if there was none); a
    table redrawn under the click is no error, the caller looks again."""
    bids = page.locator("#actions button")
    cards = page.locator("#hand .card.playable")
    try:
        # Each count is read once: the table may be redrawn between two reads (a computer's
        # bid ends the auction), and a second read of zero is no range to choose from.
        if n_bids := bids.count():
            bids.nth(rng.randrange(n_bids)).click(timeout=timeout)
        elif n_cards := cards.count():
            cards.nth(rng.randrange(n_cards)).click(timeout=timeout)
        else:
            return False
    except playwright_api.Error:
        pass
    return True


def open_table(page: Page, srv: LiveServer, t: dict[str, Any]) -> None:
    page.goto(f"{srv.base}/t/{t['id']}?fast#token={t['token']}")
    page.wait_for_selector("#hand .card")


def test_a_person_plays_a_whole_hand_against_computers_by_clicking(
        browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.fill("#name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")
    assert page.locator(".seat.pos-bottom .name").inner_text() == "You"
    assert "#token" not in page.url  # the seat's secret is not left in the address bar
    page.goto(page.url + "?fast")  # the seat is remembered; no animation delays from here
    page.wait_for_selector("#hand .card")
    rng = random.Random(1)
    # the first choices by keyboard, the rest by clicking
    play_until(page, lambda: bool(page.locator("#trump-badge strong").count()), rng,
               keyboard=True, timeout=60)
    # On to the end of a hand in which the person moved: when the partner goes alone the person
    # sits that hand out, and the next hand starts without a move of theirs.
    moves = 0
    while moves == 0:
        current = hand_no(page)
        assert current < 6, "the person never got a card to play"
        moves = play_until(page, functools.partial(next_hand_started, page, current), rng)
    assert page.locator("#trump-badge").inner_text().startswith(("Trump", "Game over"))
    page.click("#last-btn")
    assert "Won by" in page.locator("#lasttrick").inner_text()
    page.click("#log-btn")
    assert "Dealer:" in page.locator("#log").inner_text()
    assert errors == []
    page.close()


def test_an_illegal_card_says_why_and_a_hint_names_a_move(
        browser: Any, sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A fixed deal (the table's seed) and fixed choices (always pass, play the first playable
    # card; the computers' moves follow from the seed): the same game every run.
    import secrets

    monkeypatch.setattr(secrets, "randbits", lambda bits: 20261201)  # the server's seeds
    with LiveServer(db_url=sqlite_url) as srv:
        page = browser.new_page()
        t = srv.create()
        open_table(page, srv, t)
        illegal = page.locator("#hand .card.illegal")
        deadline = time.monotonic() + 60
        while not illegal.count():
            assert time.monotonic() < deadline and hand_no(page) < 4, \
                "no card in hand was ever unplayable"
            bids = page.locator("#actions button")
            cards = page.locator("#hand .card.playable")
            try:
                if bids.count():
                    bids.first.click(timeout=1000)  # pass (or the only choice)
                elif cards.count():
                    # the render that raised these cards marked the unplayable ones too: look
                    # again before playing, or a turn with an unplayable card slips by
                    if illegal.count():
                        break
                    cards.first.click(timeout=1000)
                else:
                    page.wait_for_timeout(30)
            except playwright_api.Error:
                pass
        legal_before = page.locator("#hand .card.playable").count()
        hand_box = page.locator("#hand").bounding_box()
        illegal.first.click()
        page.wait_for_selector("#error.show")
        assert "Must follow" in page.locator("#error").inner_text()
        assert page.locator("#hand").bounding_box() == hand_box  # the error line moves nothing
        # still my turn, the same cards playable (the error redraws the hand: wait for the
        # redraw to settle rather than count a half-drawn hand)
        playwright_api.expect(page.locator("#hand .card.playable")).to_have_count(legal_before)
        page.keyboard.press("h")
        page.wait_for_selector("#hint:not([hidden])")
        assert len(page.locator("#hint").inner_text()) > 20
        page.close()


def seat_two_friends(a: Page, b: Page, base: str) -> None:
    """Ann (page ``a``) makes a table with a friend as her partner; Bob (``b``) joins by the
    invite; both end at the table, their cards shown."""
    a.goto(base + "/")
    a.fill("#name", "Ann")
    a.select_option('.seat-row[data-seat="0"] select.kind', "friend")  # partner: a friend
    a.click("#create-btn")
    a.wait_for_selector(".invite-url")
    invite = a.locator(".invite-url").input_value()
    assert "#invite=" in invite
    b.goto(invite.replace("#", "?fast#"))
    b.fill("#join-name", "Bob")
    b.click("#join-btn")
    b.wait_for_selector("#hand .card")
    a.goto(a.url.split("#")[0] + "?fast")
    a.wait_for_selector("#hand .card")


def test_two_friends_play_a_hand_at_one_table_from_two_browsers(browser: Any,
                                                                server: LiveServer) -> None:
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors = watch_errors(a) + watch_errors(b)
    seat_two_friends(a, b, server.base)
    deadline = time.monotonic() + 10
    while a.locator(".seat.pos-top .name").inner_text() != "Bob":
        assert time.monotonic() < deadline, "Ann never saw Bob take the seat"
        a.wait_for_timeout(50)
    assert b.locator(".seat.pos-top .name").inner_text() == "Ann"
    rng = random.Random(2)
    deadline = time.monotonic() + 120
    while hand_no(a) < 2 or hand_no(b) < 2:
        assert time.monotonic() < deadline
        for page in (a, b):
            click_a_choice(page, rng, 500)
        a.wait_for_timeout(20)
    assert errors == []
    a_ctx.close()
    b_ctx.close()


def test_a_friend_who_left_has_a_countdown_to_their_computer_on_their_seat(
        browser: Any, server: LiveServer) -> None:
    """Bob closes his page: when his turn comes, Ann sees the seconds until his computer plays
    for him counting down on his seat, and the status line says he is away."""
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors = watch_errors(a)
    seat_two_friends(a, b, server.base)
    a.wait_for_function("() => document.querySelector('.seat.pos-top .name')"
                        ".textContent === 'Bob'", timeout=10000)
    b_ctx.close()
    a.wait_for_selector(".seat.pos-top .tag.away")  # offline
    rng = random.Random(3)
    deadline = time.monotonic() + 30
    while not a.locator(".seat.pos-top.turn").count():
        assert time.monotonic() < deadline, "Bob's turn never came"
        click_a_choice(a, rng, 300)
    clock = a.locator(".seat.pos-top .clock")
    clock.wait_for(state="visible")
    first = int(clock.inner_text().removesuffix(" s"))
    assert 0 < first <= 60, first  # the server's away timeout, from when Bob left
    assert "until a computer plays for this seat" in (clock.get_attribute("aria-label") or "")
    a.wait_for_timeout(2100)
    assert int(clock.inner_text().removesuffix(" s")) < first  # it counts down
    a.screenshot(path="/tmp/away-countdown.png")
    status = a.locator("#status").inner_text()
    assert status.startswith("Waiting for Bob, who is away:"), status
    assert errors == []
    a_ctx.close()


def test_reloading_mid_hand_returns_to_the_same_seat_and_cards(browser: Any,
                                                                server: LiveServer) -> None:
    page = browser.new_page()
    t = server.create()
    open_table(page, server, t)
    rng = random.Random(3)
    play_until(page, lambda: page.locator("#center .slot .card").count() > 0
               and len(page.locator("#hand .card").all()) < 5, rng)
    page.wait_for_timeout(200)
    hand = [c.get_attribute("data-card") for c in page.locator("#hand .card").all()]
    trump = page.locator("#trump-badge").inner_text()
    page.reload()
    page.wait_for_selector("#hand .card")
    page.wait_for_timeout(200)
    assert [c.get_attribute("data-card") for c in page.locator("#hand .card").all()] == hand
    assert page.locator("#trump-badge").inner_text() == trump
    play_until(page, lambda: hand_no(page) >= 2, rng)
    page.close()


def test_a_phone_sized_viewport_fits_and_plays(browser: Any, server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    page = ctx.new_page()
    t = server.create()
    open_table(page, server, t)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    page.wait_for_selector("#hand .card")
    # one snapshot of the hand in the page: a new state redraws it, and a card looked up
    # element by element may be gone by the time its box is asked (None, under load)
    boxes = page.evaluate("[...document.querySelectorAll('#hand .card')]"
                          ".map((c) => { const r = c.getBoundingClientRect();"
                          " return [r.x, r.width]; })")
    assert boxes, "no card in the hand"
    for x, w in boxes:
        assert x >= 0 and x + w <= 390, boxes
    play_until(page, lambda: hand_no(page) >= 2, random.Random(5))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    ctx.close()


def test_chat_shows_markup_and_script_as_plain_text(browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    t = server.create(name="Mallory")
    open_table(page, server, t)
    attacks = ['<img src=x onerror="window.__pwned=1">',
               "<script>window.__pwned=2</script>",
               '"><svg onload="window.__pwned=3">']
    for i, text in enumerate(attacks):
        page.fill("#chat-input", text)
        page.press("#chat-input", "Enter")
        page.locator("#chat-list li").nth(i).wait_for()
    shown = [li.inner_text() for li in page.locator("#chat-list li").all()]
    assert shown == [f"Mallory: {x}" for x in attacks]
    assert page.locator("#chat-list img, #chat-list script, #chat-list svg").count() == 0
    assert page.evaluate("window.__pwned") is None
    page.reload()  # the history comes back as text too
    page.wait_for_selector("#chat-list li")
    assert page.locator("#chat-list img, #chat-list script, #chat-list svg").count() == 0
    assert page.evaluate("window.__pwned") is None
    page.close()


def test_a_finished_game_is_listed_and_replays_step_by_step(browser: Any,
                                                            server: LiveServer) -> None:
    t = server.create(my_seat=-1, rules={"target": 1},
                      seats=[{"kind": "computer"}] * 4)
    c = server.connect(t["id"])
    c.until_state(lambda s: s["finished"], timeout=60)
    c.close()
    page = browser.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector(f"a[href='/replay/{t['id']}']")
    page.click(f"a[href='/replay/{t['id']}']")
    page.wait_for_selector("#board .rhand .card")
    assert page.locator("#event").inner_text() == "The deal."
    assert page.locator("#board .card").count() >= 20  # every hand face up
    page.keyboard.press("ArrowRight")
    first = page.locator("#event").inner_text()
    assert first != "The deal."
    page.keyboard.press("End")
    assert "Score:" in page.locator("#score").inner_text()
    href = page.locator("#download").get_attribute("href")
    assert href == f"/api/tables/{t['id']}/record"
    page.close()


def test_a_two_handed_rows_game_by_clicking_on_a_phone(browser: Any, server: LiveServer) -> None:
    """The rows preset from the home page: both rows drawn, the auction's bids as buttons,
    row cards played by clicking, the result in words, and the replay shows the rows."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.select_option("#preset", "two-handed-rows")
    labels = [x.inner_text() for x in page.locator("#rules label").all()]
    assert labels and not [x for x in labels if "_" in x], labels  # no raw option keys
    assert page.locator("#rules label:not([title])").count() == 0  # each has a tooltip
    assert page.locator("#opt-rows").is_checked()
    page.check("#opt-single_hand")  # one hand is the whole game: the test stays short
    page.click("#create-btn")
    page.wait_for_selector("#hand .row .col")
    page.goto(page.url + "?fast")
    page.wait_for_selector("#hand .row .col")
    assert page.locator(".seat.pos-top .row .col").count() == 4  # the opponent's row, on top
    assert page.locator(".seat.pos-top .row .col .card.back").count() == 4
    assert page.locator("#hand .row .col .card.back").count() == 4  # yours, face down too
    assert page.locator("#hand .row .col .card[data-card]").count() == 4
    assert page.locator(".seat.pos-top .backs .card").count() == 4  # its hand: four backs
    for card in page.locator("#hand .card, .seat.pos-top .row .card").all():
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    bid_labels: set[str] = set()
    row_clicks = 0
    saw_of_12 = False
    deadline = time.monotonic() + 60
    while not page.locator("#banner .gameover").count():
        assert time.monotonic() < deadline, "the hand did not finish"
        try:
            bids = page.locator("#actions button:not([disabled])")
            n = bids.count()
            if n:
                texts = [bids.nth(i).inner_text() for i in range(n)]
                bid_labels.update(texts)
                pick = next((i for i, x in enumerate(texts) if x.endswith("Bid 7 tricks")), 0)
                bids.nth(pick).click(timeout=500)
                continue
            row = page.locator("#hand .row .card.playable:not([disabled])")
            cards = page.locator("#hand .card.playable:not([disabled])")
            if row.count():
                if row_clicks == 0:  # the first by keyboard: a row card has its number key
                    key = row.first.get_attribute("data-key", timeout=500) or "?"
                    played = row.first.get_attribute("data-card", timeout=500)
                    assert key.isdigit(), key
                    page.keyboard.press(key)
                    page.wait_for_selector(f"#hand .card[data-card='{played}']",
                                           state="detached", timeout=5000)
                else:
                    row.first.click(timeout=500)
                row_clicks += 1
            elif cards.count():
                cards.first.click(timeout=500)
            else:
                page.wait_for_timeout(30)
            saw_of_12 = saw_of_12 or "of 12" in page.locator("#score").inner_text()
        except playwright_api.Error:
            pass  # redrawn under the click: look again
    assert any(re.fullmatch(r"\d Bid (7|8|9|10|11|12) tricks|\d Pass", x) for x in bid_labels)
    assert row_clicks >= 1 and saw_of_12
    result = page.locator("#banner .gameover").inner_text()
    assert re.search(r"bid \d+ and took \d+ tricks?", result), result
    page.click("text=Replay step by step")
    page.wait_for_selector("#board .rrow")
    assert page.locator("#board .rrow").count() == 2
    assert page.locator("#board .rrow .card.under").count() == 8  # all face down at the deal
    page.keyboard.press("End")
    assert "Score:" in page.locator("#score").inner_text()
    assert errors == []
    ctx.close()


def test_the_home_form_offers_exactly_the_served_options(browser: Any,
                                                        server: LiveServer) -> None:
    """The form is built from /api/options: one input per option with its range or choices
    (in words), the scoring table's values, and options a player count lacks are disabled at
    their default for that count (going alone follows the player count)."""
    _, spec = server.get("/api/options")
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#opt-players")
    for o in spec["options"]:
        if o["kind"] == "group":
            for f in o["fields"]:
                box = page.locator(f'#scoring input[data-scoring="{f["name"]}"]')
                assert (box.get_attribute("min"), box.get_attribute("max")) == (
                    str(f["min"]), str(f["max"]))
                assert box.input_value() == str(f["default"])
            continue
        el = page.locator(f"#opt-{o['name']}")
        label = page.locator(f"#rules label:has(#opt-{o['name']})")
        assert label.evaluate("l => l.firstChild.textContent") == o["label"]
        assert o["help"] in (label.get_attribute("title") or "")
        if o["kind"] == "int":
            assert (el.get_attribute("min"), el.get_attribute("max")) == (
                str(o["min"]), str(o["max"]))
        elif o["kind"] == "choice":
            shown = el.locator("option").all()
            assert [x.get_attribute("value") for x in shown] == [str(c) for c in o["choices"]]
            assert [x.inner_text() for x in shown] == o["words"]
    names = [x.get_attribute("name") for x in page.locator("#rules [name]").all()]
    assert names == [o["name"] for o in spec["options"] if o["kind"] != "group"]
    going = page.locator("#opt-going_alone")
    assert going.is_checked() and going.is_enabled()
    page.select_option("#opt-players", "3")
    assert not going.is_checked() and not going.is_enabled()
    assert not page.locator("#opt-canadian_loner").is_enabled()
    assert page.locator("#opt-stick_the_dealer").is_enabled()
    page.select_option("#opt-players", "4")
    assert going.is_checked() and going.is_enabled()
    most = next(o for o in spec["options"] if o["name"] == "target")["max"]
    page.fill("#opt-target", str(most))  # the most the engine allows is offered
    page.click("#create-btn")
    page.wait_for_url("**/t/**")
    table_id = page.url.split("/t/")[1].split("#")[0].split("?")[0]
    assert server.get(f"/api/tables/{table_id}")[1]["rules"]["target"] == most
    assert not errors, errors
# ---------------------------------------------------------------------------------------------
# What a player notices: at normal speed (no ``?fast``), as people play


def sent_acts(page: Page) -> list[str]:
    """Every act message the page sends, as it sends it."""
    sent: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(payload)
              if isinstance(payload, str) and '"type":"act"' in payload else None)

    page.on("websocket", on_socket)
    return sent


def test_the_first_click_or_key_on_a_raised_card_always_plays_it(browser: Any,
                                                          server: LiveServer) -> None:
    # At normal speed the cards rise while the last play (or the trick) is still animating;
    # one click, as soon as they rise, must send the move: no second click needed.
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = watch_errors(page)
    sent = sent_acts(page)
    t = server.create(name="Ann")
    page.goto(f"{server.base}/t/{t['id']}#token={t['token']}")
    page.wait_for_selector("#hand .card")
    turns = 0
    deadline = time.monotonic() + 120
    while turns < 4:
        assert time.monotonic() < deadline, f"only {turns} card turns came"
        bids = page.locator("#actions button:not([disabled])")
        cards = page.locator("#hand .card.playable:not([disabled])")
        try:
            if bids.count():
                before = len(sent)
                bids.first.click(timeout=500)  # pass, or the only choice
                deadline_bid = time.monotonic() + 3
                while len(sent) == before and time.monotonic() < deadline_bid:
                    page.wait_for_timeout(20)
            elif cards.count():
                before = len(sent)
                # once, the moment the cards rise: a click, or on every other turn its key
                if turns % 2:
                    page.keyboard.press(cards.first.get_attribute("data-key", timeout=500)
                                        or "?")
                else:
                    cards.first.click(timeout=500)
                page.wait_for_timeout(1000)
                assert len(sent) == before + 1, "the first click or key of a turn did nothing"
                turns += 1
            else:
                page.wait_for_timeout(10)
        except playwright_api.Error:
            pass  # redrawn under the click: look again
    assert errors == []
    page.close()


def test_the_trick_winner_is_named_and_the_hand_result_comes_before_the_next_deal(
        browser: Any, server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = watch_errors(page)
    t = server.create(name="Ann")
    page.goto(f"{server.base}/t/{t['id']}#token={t['token']}")
    page.wait_for_selector("#hand .card")
    rng = random.Random(11)
    named = 0
    result = ""
    deadline = time.monotonic() + 150
    while not result:
        assert time.monotonic() < deadline, "no hand ended"
        won = page.locator("#center .slot .card.won")
        if won.count() and not named:
            # the winning card is marked, its seat says so, and the status line names both
            try:
                pos = won.first.evaluate("c => c.parentElement.dataset.pos")
                name = page.locator(f".seat.pos-{pos} .name").inner_text()
                bubble = page.locator(f".seat.pos-{pos} .bubble.won").inner_text()
                status = page.locator("#status").inner_text()
                card = won.first.get_attribute("aria-label") or ""
            except playwright_api.Error:
                continue  # the trick was gathered while we looked: the next one
            assert "take" in bubble
            who = "You take" if name == "You" else f"{name} takes"
            assert status.startswith(f"{who} the trick with the "), status
            # "ten of clubs, played by West, wins the trick": the card is the one named
            assert card.endswith(", wins the trick"), card
            assert card.split(", ")[0] in status, (card, status)
            named += 1
        banner = page.locator("#banner .hand-result")
        if banner.count() and page.locator("#banner").is_visible():
            try:
                result = banner.inner_text()
                # between hands: the old hand's table, not the new deal under the result
                upcards = page.locator("#middle .upcard").count()
                raised = page.locator("#hand .card.playable").count()
                header = page.locator("#score h3").inner_text()
            except playwright_api.Error:
                result = ""
                continue
            assert upcards == 0 and raised == 0, "the next deal is drawn under the result"
            m = re.search(r"Hand (\d+)", result)
            assert m and f"hand {m.group(1)}" in header, (result, header)
            # The new deal's up-card may stand for one bid only (a computer can order it up at
            # once), too briefly to poll for: a DOM observer notes it appearing after the result.
            page.evaluate("""() => {
                window.upAfterResult = false;
                new MutationObserver(() => {
                    if (document.getElementById("banner").hidden
                        && document.querySelector("#middle .upcard")) window.upAfterResult = true;
                }).observe(document.body, {subtree: true, childList: true, attributes: true});
            }""")
            break
        if not click_a_choice(page, rng, 300):
            page.wait_for_timeout(20)
    assert named, "no trick winner was named on the table"
    if "thrown in" not in result:
        tricks = re.search(r"Tricks: .* (\d), .* (\d)\.", result)
        assert tricks and int(tricks.group(1)) + int(tricks.group(2)) == 5, result
    assert "Score:" in result
    # then the deal: the result goes and the new hand is drawn
    page.wait_for_selector("#banner", state="hidden", timeout=10000)
    page.wait_for_function("() => window.upAfterResult === true", timeout=5000)
    assert errors == []
    page.close()


def names_cut(page: Page) -> list[str]:
    """Seat names drawn shorter than they are (cut off with an ellipsis)."""
    cut: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.seat:not([hidden]) .name')]
               .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)""")
    return cut


def test_on_a_phone_names_are_whole_and_the_rows_auction_shows_your_cards(
        browser: Any, server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    t = server.create(name="Ann")
    open_table(page, server, t)
    assert page.locator(".seat .name").count() == 4
    assert names_cut(page) == []
    t = server.create(name="Ann", rules={"players": 2, "rows": True})
    open_table(page, server, t)
    bids = page.locator("#actions button")
    deadline = time.monotonic() + 30
    while not bids.count():  # the computer may bid first
        assert time.monotonic() < deadline, "never asked to bid"
        page.wait_for_timeout(30)
    assert names_cut(page) == []
    assert page.evaluate("window.scrollY") == 0
    # every card you bid on (your row and your hand) and every bid is on the screen
    for el in [*page.locator("#hand .card").all(), *bids.all()]:
        box = el.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    ctx.close()


def test_spectators_are_told_they_watch_and_may_chat(browser: Any, server: LiveServer) -> None:
    t = server.create(name="Ann")
    ann = browser.new_page()
    open_table(ann, server, t)
    page = browser.new_page()
    page.goto(f"{server.base}/t/{t['id']}")  # no seat: watching
    page.wait_for_selector(".seat .name")
    page.wait_for_function("() => document.body.classList.contains('spectator')")
    assert page.locator("#watching").is_visible()  # told, where they were told nothing
    assert "watching" in page.locator("#watching").inner_text()
    assert not page.locator("#my-name").is_visible()
    assert not page.locator(".keys").is_visible()  # nor keys for moves they cannot make
    assert page.locator("#chat-input").is_visible()  # and they may chat
    page.fill("#chat-input", "hello from the rail")
    page.press("#chat-input", "Enter")
    line = "Spectator (watching): hello from the rail"
    ann.wait_for_function("t => [...document.querySelectorAll('#chat-list li')]"
                          ".some(li => li.textContent === t)", arg=line)
    open_table(page, server, t)  # seated: no longer watching
    assert page.locator("#my-name").is_visible() and page.locator("#chat-input").is_visible()
    assert not page.locator("#watching").is_visible()
    page.close()
    ann.close()


def test_chat_keeps_emoji_sequences_says_when_a_line_is_too_long_and_escape_leaves_it(
        browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    t = server.create(name="Ann")
    open_table(page, server, t)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # three faces, two joiners
    rainbow = "\U0001f3f3\ufe0f\u200d\U0001f308"
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    said = f"{family} {rainbow} {scotland} \U0001f44d\U0001f3fd"
    page.fill("#chat-input", said)
    page.press("#chat-input", "Enter")
    page.locator("#chat-list li").first.wait_for()
    assert page.locator("#chat-list li").first.inner_text() == f"Ann: {said}"
    # 210 characters (270 UTF-16 units): refused in the page, saying so, and kept to shorten
    long = "x" * 150 + "\U0001f44d" * 60
    page.fill("#chat-input", long)
    assert "10 characters too many" in page.locator("#chat-count").inner_text()
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#error.show")
    error = page.locator("#error").inner_text()
    assert "at most 200 characters" in error and "210" in error, error
    assert page.locator("#chat-input").input_value() == long
    page.wait_for_timeout(300)
    assert page.locator("#chat-list li").count() == 1  # nothing was sent
    page.fill("#chat-input", "y" * 170)
    assert page.locator("#chat-count").inner_text() == "30 characters left"
    # Escape leaves the chat box, and the table's keys work again
    page.focus("#chat-input")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") != "chat-input"
    page.keyboard.press("g")
    page.wait_for_selector("#log:not([hidden])")
    page.close()


def test_a_link_to_no_table_says_so(browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    page.goto(f"{server.base}/t/no-such-table")
    page.wait_for_selector("#missing:not([hidden])")
    assert "No table here" in page.locator("#missing").inner_text()
    assert page.locator("#missing a[href='/']").count() == 1
    assert not page.locator("#game").is_visible()
    assert "Trump" not in page.locator("#trump-badge").inner_text()
    page.close()


def until_bids(page: Page, rng: random.Random, timeout: float = 60) -> None:
    """Play cards until the seat is asked to bid (the computers may take the first bids). By
    their number keys, as a player may: a click would scroll the page to the card first (a card
    half hidden under a redraw, on a loaded machine), and the tests measure the page's own
    scrolling."""
    deadline = time.monotonic() + timeout
    while not page.locator("#actions button").count():
        assert time.monotonic() < deadline, "never asked to bid"
        cards = page.locator("#hand .card.playable")
        try:
            if n := cards.count():
                key = cards.nth(rng.randrange(n)).get_attribute("data-key", timeout=500)
                if key:
                    page.keyboard.press(key)
            else:
                page.wait_for_timeout(30)
        except playwright_api.Error:
            pass


def test_a_phone_on_its_side_shows_the_hand_and_whole_names(browser: Any,
                                                             server: LiveServer) -> None:
    """844 x 390: the hand was below the fold and 'West (rule)' was cut to 'West (r...'."""
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    t = server.create(name="Ann")
    open_table(page, server, t)
    until_bids(page, random.Random(21))
    assert names_cut(page) == []
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 844
    for el in [*page.locator("#hand .card").all(), *page.locator("#actions button").all(),
               *page.locator(".seat:not([hidden]) .name").all()]:
        box = el.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 390, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= 844, box
    ctx.close()


@pytest.mark.parametrize("size", [(1200, 900), (390, 844), (844, 390)])
def test_bids_are_touch_targets_of_44_px(browser: Any, server: LiveServer,
                                         size: tuple[int, int]) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    t = server.create(name="Ann")
    open_table(page, server, t)
    until_bids(page, random.Random(22))
    heights = [b.bounding_box()["height"] for b in page.locator("#actions button").all()]
    assert heights and min(heights) >= 44, heights
    ctx.close()


RANK_WORDS = {"7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack",
              "Q": "queen", "K": "king", "A": "ace"}
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_words(code: str) -> str:
    return "the Joker" if code == "JOKER" else \
        f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


def named_cards(page: Page, where: str) -> tuple[list[str], str]:
    """The cards drawn face up in ``where`` and its accessibility tree, read until the two agree
    in time (the table may be redrawn between the two reads)."""
    for _ in range(50):
        before = page.eval_on_selector_all(f"{where} .card[data-card]",
                                           "cs => cs.map(c => c.dataset.card)")
        tree = page.locator(where).aria_snapshot()
        after = page.eval_on_selector_all(f"{where} .card[data-card]",
                                          "cs => cs.map(c => c.dataset.card)")
        if before == after:
            return before, tree
    raise AssertionError("the table never held still")


def test_every_card_on_the_table_is_named_in_the_accessibility_tree(
        browser: Any, server: LiveServer) -> None:
    """The up-card, the trick and the last trick were divs with an aria-label and no role:
    screen readers (and the accessibility tree) left them out."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    t = server.create(name="Ann")
    # At its pace (not ``?fast``): the first deal waits for this page, so its up-card is
    # drawn, and each bid after it shows for a while, where ``?fast`` could take it away
    # (a computer ordering it up) before the tree is read.
    page.goto(f"{server.base}/t/{t['id']}#token={t['token']}")
    rng = random.Random(23)
    deadline = time.monotonic() + 120

    def upcards() -> int:
        n: int = page.locator("#middle .upcard").count()
        return n

    # Under load the page may draw the first deal only after a computer has ordered the
    # up-card up; then it is the next deal's up-card that is read (each deal shows one).
    page.wait_for_selector("#hand .card")
    while True:
        assert time.monotonic() < deadline, "no up-card was ever drawn"
        if upcards():
            up, tree = named_cards(page, "#middle")
            if up and upcards():  # still the auction after the tree was read
                assert f'img "up-card: {card_words(up[0])}"' in tree, tree
                break
        if not click_a_choice(page, rng, 300):
            page.wait_for_timeout(20)
    seen_trick = seen_mark = False
    while not (seen_trick and seen_mark):
        assert time.monotonic() < deadline, (seen_trick, seen_mark)
        # Each look counts only if the table held still around it: no up-card before or after
        # the cards and their tree were read (a redraw in between mixes two pictures).
        if not upcards():
            cards, tree = named_cards(page, "#center")
            if cards and not upcards():
                for code in cards:
                    assert f'img "{card_words(code)}, played by' in tree, (code, tree)
                seen_trick = True
        if page.locator("#middle .trump-mark").count():
            try:
                suit = page.locator("#trump-badge strong").inner_text().strip()
                tree = page.locator("#middle").aria_snapshot()
                still = (page.locator("#middle .trump-mark").count() > 0 and
                         page.locator("#trump-badge strong").inner_text().strip() == suit)
            except playwright_api.Error:
                continue
            if suit and still:
                assert f'img "trump: {suit}"' in tree, tree
                seen_mark = True
        if not click_a_choice(page, rng, 300):
            page.wait_for_timeout(20)
    page.keyboard.press("l")
    while not page.locator("#lasttrick .card").count():  # the first trick may still be open
        assert time.monotonic() < deadline + 60, "no trick was completed"
        if not click_a_choice(page, rng, 300):
            page.wait_for_timeout(20)
    cards, tree = named_cards(page, "#lasttrick")
    assert len(cards) >= 2
    for code in cards:
        assert f'img "{card_words(code)}, played by' in tree, (code, tree)
    page.close()


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css: str) -> tuple[float, float, float]:
    parts = [float(x) for x in re.findall(r"[\d.]+", css)]
    if css.startswith("#"):
        h = css.lstrip("#")
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    assert len(parts) == 3 or parts[3] == 1, f"not an opaque colour: {css}"
    return (parts[0], parts[1], parts[2])


def test_the_trump_mark_in_the_middle_meets_contrast(browser: Any, server: LiveServer) -> None:
    """It was the suit at 35% opacity on the green felt; a graphic needs 3:1 (WCAG 1.4.11)."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    t = server.create(name="Ann")
    open_table(page, server, t)
    rng = random.Random(24)
    deadline = time.monotonic() + 90
    found = None
    while found is None:
        assert time.monotonic() < deadline, "no trump mark was drawn"
        try:
            found = page.evaluate("""() => {
                const m = document.querySelector('#middle .trump-mark');
                if (!m) return null;
                let opacity = 1;
                for (let e = m; e; e = e.parentElement) {
                    opacity *= Number(getComputedStyle(e).opacity);
                }
                return {opacity, back: getComputedStyle(m).backgroundColor,
                        fill: m.querySelector('path').getAttribute('fill')};
            }""")
        except playwright_api.Error:
            found = None
        if found is None and not click_a_choice(page, rng, 300):
            page.wait_for_timeout(20)
    assert found["opacity"] == 1, found
    assert contrast(rgb(found["back"]), rgb(found["fill"])) >= 3, found
    page.close()


def test_the_replay_keeps_the_players_seat_at_the_bottom(browser: Any,
                                                         server: LiveServer) -> None:
    page = browser.new_page()
    t = server.create(name="Ann", rules={"target": 1})  # Ann sits South
    open_table(page, server, t)
    play_until(page, lambda: page.locator("#banner .gameover").count() > 0, random.Random(6))
    # the game-over screen also leads to the game's computer analysis
    review = page.locator("#banner .gameover a", has_text="Computer analysis")
    assert review.get_attribute("href") == f"/review/{t['id']}"
    page.click("text=Replay step by step")
    page.wait_for_selector("#board .rseat")
    bottom = page.locator("#board .rseat").evaluate_all(
        "els => els.filter(e => e.style.gridArea.startsWith('bottom')).map(e => e.textContent)")
    assert len(bottom) == 1 and bottom[0].startswith("Ann"), bottom
    page.close()


def test_opening_the_hand_log_moves_nothing_under_the_table(browser: Any,
                                                            server: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 820})
    t = server.create(name="Ann")
    open_table(page, server, t)
    rng = random.Random(8)
    # a few tricks in, so the log is long, and at a turn of ours, so nothing moves meanwhile
    play_until(page, lambda: 0 < page.locator("#hand .card").count() <= 2
               and page.locator("#hand .card.playable").count() > 0, rng)
    before = [page.locator(x).bounding_box() for x in ("#hand", ".tools", "#log-btn")]
    page.click("#log-btn")
    page.wait_for_selector("#log li")
    after = [page.locator(x).bounding_box() for x in ("#hand", ".tools", "#log-btn")]
    assert after == before
    page.close()


def test_the_home_form_says_a_persons_level_is_the_computer_playing_while_away(
        browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector('.seat-row[data-seat="2"] select.kind')
    mine = page.locator('.seat-row[data-seat="2"]')
    assert "away" in mine.locator(".level-label").inner_text()
    assert "away" in (mine.locator("select.level").get_attribute("aria-label") or "")
    computer = page.locator('.seat-row[data-seat="1"]')
    assert computer.locator(".level-label").inner_text() == "level"
    page.select_option('.seat-row[data-seat="0"] select.kind', "friend")
    assert "away" in page.locator('.seat-row[data-seat="0"] .level-label').inner_text()
    page.select_option('.seat-row[data-seat="1"] select.kind', "me")  # "me" moves: labels follow
    assert page.locator('.seat-row[data-seat="2"] .level-label').inner_text() == "level"
    assert "you" in page.locator('.seat-row[data-seat="1"] .level-label').inner_text()
    page.close()


def test_a_seated_player_replaces_their_seat_link_and_the_old_one_stops_working(
        browser: Any, server: LiveServer) -> None:
    """The seat link's holder asks for a new one: the page shows it and keeps the new token,
    and the old token no longer opens the seat."""
    page = browser.new_page()
    errors = watch_errors(page)
    t = server.create(name="Ann")
    open_table(page, server, t)
    page.click("#link-btn")
    page.wait_for_selector("#error.show")
    shown = page.locator("#error").inner_text()
    assert "new link" in shown and f"/t/{t['id']}" in shown
    key = f"euchre:seat:{t['id']}"
    token = page.evaluate(f"localStorage.getItem({key!r})")
    assert token and token != t["token"] and token in shown
    old = server.connect(t["id"], t["token"])
    assert old.until(lambda m: m["type"] in ("welcome", "error"))["type"] == "error"
    old.close()
    assert not errors, errors


def test_a_name_typed_while_the_home_page_loads_is_kept(browser: Any, server: LiveServer) -> None:
    """The home page fetches the rule options before it builds the form; a name typed in that
    moment is not overwritten by the remembered one."""
    page = browser.new_page()
    errors = watch_errors(page)
    release: list[Any] = []
    page.route("**/api/options", lambda route: release.append(route))
    page.goto(server.base + "/", wait_until="domcontentloaded")
    page.wait_for_selector("#name")
    page.fill("#name", "Ann")
    deadline = time.monotonic() + 10
    while not release:
        assert time.monotonic() < deadline, "the page never asked for its options"
        page.wait_for_timeout(20)
    release[0].continue_()
    page.wait_for_selector('.seat-row[data-seat="0"]')
    assert page.locator("#name").input_value() == "Ann"
    page.click("#create-btn")
    page.wait_for_selector("#hand .card")
    assert page.locator(".seat.pos-bottom .name").inner_text() in ("You", "Ann")
    table_id = page.url.split("/t/")[1].split("#")[0].split("?")[0]
    seats = server.get(f"/api/tables/{table_id}")[1]["seats"]
    assert "Ann" in [s["name"] for s in seats], seats
    assert not errors, errors


def test_a_card_sliding_in_never_widens_the_phone_page(browser: Any, server: LiveServer) -> None:
    """East's card slides in from the right: the page's width, read on every animation frame
    through two hands at two tables, never exceeds the phone's."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    widest: list[int] = []
    for k in range(2):
        page = ctx.new_page()
        t = server.create()
        open_table(page, server, t)
        page.evaluate("""() => { window.__widest = 0; window.__frames = 0;
            const look = () => { window.__frames += 1;
              window.__widest = Math.max(window.__widest, document.documentElement.scrollWidth);
              requestAnimationFrame(look); };
            requestAnimationFrame(look); }""")
        def three_hands(page: Page = page) -> bool:
            return hand_no(page) >= 3

        play_until(page, three_hands, random.Random(k))
        assert page.evaluate("window.__frames") > 30
        widest.append(page.evaluate("window.__widest"))
        page.close()
    ctx.close()
    assert max(widest) <= 390, widest
