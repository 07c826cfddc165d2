"""The computer analysis of a finished game in the browser: the review API (a finished game's
review with every option's value and error; an unfinished game, an unknown table and a bad
budget refused), the bound on reviews at once with the rest queued, and the review page in
headless Chromium (the chart, the worst decisions, a click showing the table and the
options with their error)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from webtools import CHROMIUM, LiveServer

from euchre.analysis.review import Review
from euchre.analysis.values import Objective
from euchre.bots import make_bot
from euchre.match import Match
from euchre.rules import Rules
from euchre.web.limits import LimitError
from euchre.web.reviews import Game, Reviews, hand_job
from euchre.web.store import SeatData, Store

#: A short game between rule players (to 3 points, two hands) whose worst decision, at 16
#: deals a decision judged by points, is a clear mistake: a bid.
SEED, TARGET, DEALS = 9, 3, 16
NAMES = ["Ann", "Bo", "Cy", "Di"]


def played(seed: int = SEED, target: int = TARGET) -> Match:
    m = Match(Rules(target=target), seed=seed)
    bots = [make_bot("rule", seed * 10 + i) for i in range(4)]
    while not m.is_terminal():
        p = m.current_player
        m.apply_action(bots[p].choose(m.view(p)))
    return m


def log_of(m: Match, seed: int = SEED) -> list[tuple[int, int]]:
    """(seat, action) of every move of ``m``, dealt from ``seed``."""
    replay = Match(m.rules, seed=seed)
    out = []
    for f in m.finished:
        for a in f.actions:
            out.append((replay.current_player, a))
            replay.apply_action(a)
    return out


def store_game(db_url: str, table_id: str, m: Match, finished: bool = True,
               seed: int = SEED) -> None:
    """A game as the server would have stored it, with its seed (so its review is known);
    an unfinished one has people's seats, so that nobody plays it on."""
    store = Store(db_url)
    try:
        store.create_table(table_id, m.rules.to_dict(), seed, f"inv-{table_id}",
                           [SeatData(i, f"{table_id}-tok{i}",
                                     "computer" if finished else "human", "rule", NAMES[i],
                                     False) for i in range(4)])
        log = log_of(m, seed)
        if not finished:
            log = log[:5]
        result = (m.winner if m.winner is not None else -1, list(m.scores))
        store.append_actions([(table_id, k, s, a, result if finished and k == len(log) - 1
                               else None) for k, (s, a) in enumerate(log)])
    finally:
        store.close()


@pytest.fixture(scope="module")
def game() -> Match:
    return played()


@pytest.fixture
def server(sqlite_url: str, game: Match) -> Iterator[LiveServer]:
    store_game(sqlite_url, "done1", game)
    store_game(sqlite_url, "going1", game, finished=False)
    with LiveServer(db_url=sqlite_url) as srv:
        yield srv


def reviewed(srv: LiveServer, table: str, query: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status, body = srv.get(f"/api/tables/{table}/review{query}")
        if status != 202:
            assert status == 200 and isinstance(body, dict), body
            return body
        assert body["state"] in ("queued", "running")
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_with_every_option_valued(server: LiveServer) -> None:
    body = reviewed(server, "done1", f"?deals={DEALS}&objective=points")
    assert body["state"] == "done" and body["deals"] == DEALS and body["seconds"] > 0
    rev = body["review"]
    assert rev["objective"] == "points" and rev["objective_words"] == "points this hand"
    assert rev["names"] == NAMES and rev["target"] == TARGET
    decisions = rev["decisions"]
    assert len(decisions) == body["decisions"] == body["decisions_done"] > 10
    assert body["hands"] == body["hands_done"] == 2
    for d in decisions:
        # every option valued on the picking deals; the loss measured on the budget's fresh
        # deals wherever the pick is not the choice
        assert d["deals"] == (DEALS if d["best"] != d["choice"] else 0)
        assert d["pick_deals"] >= 48 and d["choice"] in {o["action"] for o in d["options"]}
        assert all(isinstance(o["ci95"], float) and o["label"] for o in d["options"])
        assert len(d["options"]) >= 2
        # the chance to win the game (the score is known) carries its error too
        assert all(0 <= o["win"] <= 1 and o["win_ci95"] >= 0 for o in d["options"])
        # the table as the deciding seat saw it: its own hand, the others' only counted
        m = d["moment"]
        assert [isinstance(h, list) for h in m["hands"]] == [s == d["seat"]
                                                            for s in range(4)]
        assert sorted(m["hands"][d["seat"]]) == sorted(d["hand_cards"])
    worst = decisions[0]
    assert worst["clear"] and worst["loss"] > worst["ci95"] > 0
    assert worst["choice"] != worst["best"]
    assert [d["loss"] for d in decisions] == sorted((d["loss"] for d in decisions),
                                                    reverse=True)
    totals = rev["seat_totals"]
    assert [t["seat"] for t in totals] == [0, 1, 2, 3]
    assert sum(t["decisions"] for t in totals) == len(decisions)
    assert all(t["loss_ci95"] >= 0 for t in totals) and max(t["loss_ci95"] for t in totals) > 0
    # the same budget again: the first review's result, not a second run
    reviews = server.app.state.server.reviews
    runs = len(reviews.runs)
    started = time.monotonic()
    status, again = server.get(f"/api/tables/done1/review?objective=points&deals={DEALS}")
    assert status == 200 and again == body and len(reviews.runs) == runs
    assert time.monotonic() - started < 1


def test_only_a_finished_game_is_reviewed_and_the_budget_is_checked(
        server: LiveServer) -> None:
    status, body = server.get("/api/tables/going1/review")
    assert status == 409 and "still being played" in body["error"]
    assert "review" not in body and "decisions" not in body
    status, body = server.get("/api/tables/nosuchtable/review")
    assert status == 404 and "no table" in body["error"]
    for query, words in [("deals=3", "from 8 to 400"), ("deals=lots", "whole number"),
                         ("deals=401", "from 8 to 400"), ("objective=fun", "one of win, points"),
                         ("budget=9", "unknown parameter 'budget'")]:
        status, body = server.get(f"/api/tables/done1/review?{query}")
        assert status == 400 and words in body["error"], (query, body)
    assert not server.app.state.server.reviews.runs  # nothing was started
    # the review page itself is served for any address; it shows what the API says
    status, page = server.get("/review/going1")
    assert status == 200 and "review.js" in page


gate = threading.Event()


def held_hand_job(game: Game, hand_no: int, deals: int,
                  objective: Objective | None) -> Review:
    """A hand's review that waits until the test lets it go."""
    assert gate.wait(20)
    return hand_job(game, hand_no, deals, objective)


def test_at_most_the_bound_of_reviews_run_at_once_and_the_rest_queue(game: Match) -> None:
    """Two reviews at once at most: the third waits, shown queued with its place, a fourth
    beyond the waiting room is refused, and the same request joins the run it asked for."""
    g: Game = (game.rules.to_dict(), SEED, log_of(game), NAMES)
    from euchre.web.reviews import Budget

    async def scenario() -> None:
        pool = ThreadPoolExecutor(4)
        reviews = Reviews(pool, at_once=2, waiting_max=1, work=held_hand_job)
        runs = [reviews.request(t, g, Budget(8, "points")) for t in ("a", "b", "c")]
        await asyncio.sleep(0.3)
        assert [r.state for r in runs] == ["running", "running", "queued"]
        assert reviews.position(runs[2]) == 1 and b'"position":1' in reviews.status(runs[2])
        assert reviews.request("a", g, Budget(8, "points")) is runs[0]
        with pytest.raises(LimitError, match="wait their turn"):
            reviews.request("d", g, Budget(8, "points"))
        gate.set()
        for _ in range(400):
            if all(r.state == "done" for r in runs):
                break
            await asyncio.sleep(0.05)
        assert [r.state for r in runs] == ["done"] * 3
        assert reviews.most_running == 2
        assert all(r.result and r.decisions_done == r.decisions > 0 for r in runs)
        reviews.stop()

    gate.clear()
    try:
        asyncio.run(scenario())
    finally:
        gate.set()


playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.mark.browser
def test_the_review_page_shows_the_chart_the_worst_decisions_and_one_at_the_table(
        server: LiveServer) -> None:
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # from the list of finished games on the home page
        page.goto(server.base + "/")
        page.wait_for_selector("a[href='/review/done1']")
        page.goto(server.base + f"/review/done1?deals={DEALS}&objective=points")
        page.wait_for_selector("#result:not([hidden])", timeout=60000)
        assert "Judged by points this hand" in page.locator("#summary").inner_text()
        n = len(reviewed(server, "done1", f"?deals={DEALS}&objective=points")
                ["review"]["decisions"])
        assert page.locator("#chart svg .decision").count() == n
        assert page.locator("#totals .total-row").count() == 4
        assert "±" in page.locator("#totals").inner_text()
        first = page.locator("#worst .worst-item").first
        assert "clear mistake" in first.inner_text()
        page.locator("#chart svg .decision .hit").first.click()  # another one, then the worst
        assert page.locator("#chart svg .decision").first.get_attribute("class") \
            == "decision selected"
        first.click()
        detail = page.locator("#detail")
        assert "±" in page.locator("#options").inner_text()
        assert page.locator("#options tr.chosen").count() == 1
        assert page.locator("#options tr.best").count() == 1
        assert page.locator("#options tr.chosen .badge.chosen").count() == 1
        assert "clear mistake" in page.locator("#verdict").inner_text()
        assert "Up-card" in page.locator("#detail-facts").inner_text()
        assert detail.locator("#board .rseat.deciding .card[data-card]").count() == 5
        assert detail.locator("#board .card.back").count() == 15  # the others' hands unseen
        assert page.locator("#chart svg .decision.selected").count() == 1
        assert not errors
        # an unfinished game's page says why there is nothing to show
        page.goto(server.base + "/review/going1")
        page.wait_for_selector("#error:not([hidden])")
        assert "still being played" in page.locator("#error").inner_text()
        assert page.locator("#result").is_hidden()
        browser.close()


def test_the_review_workers_warm_up_on_a_game_that_ends() -> None:
    """What each review worker runs at start-up, before any review, finishes."""
    from euchre.web.reviews import warm_job

    started = time.monotonic()
    warm_job()
    assert time.monotonic() - started < 20


def test_review_workers_run_below_the_players_priority() -> None:
    """The review pool's processes are started ``nice`` steps down, so that the tables'
    computer players (in their own pool, at the server's priority) come first."""
    import os

    from euchre.web.runner import make_pool
    from euchre.web.server import REVIEW_NICE

    base = os.nice(0)
    pool = make_pool("process", 1, "test-review", nice=REVIEW_NICE)
    try:
        assert pool.submit(os.nice, 0).result(timeout=30) == min(19, base + REVIEW_NICE)
    finally:
        pool.shutdown()
    players = make_pool("process", 1, "test-bot")
    try:
        assert players.submit(os.nice, 0).result(timeout=30) == base
    finally:
        players.shutdown()


def test_a_game_the_review_cannot_analyse_or_judge_so_is_refused_with_why() -> None:
    """Two-handed with rows (the solver plays five-card hands) and the chance to win the game
    where there is none (one hand to play) are refused, saying why, and start nothing."""
    from euchre.rules import PRESETS
    from euchre.web.store import TableData
    from euchre.web.table import Table

    def table(rules: Rules) -> Table:
        seats = [SeatData(i, f"t{i}", "computer", "rule", f"S{i}", False)
                 for i in range(rules.players)]
        return Table(TableData("x", 0.0, rules.to_dict(), 1, "inv", seats, [], 1.0, []))

    async def scenario() -> None:
        reviews = Reviews(ThreadPoolExecutor(1), at_once=1, waiting_max=1)
        status, raw = reviews.answer(table(PRESETS["two-handed-rows"]), {})
        assert status == 400 and b"two-handed with rows" in raw
        status, raw = reviews.answer(table(Rules(single_hand=True)), {"objective": "win"})
        assert status == 400 and b"judged by points" in raw
        assert not reviews.runs and not reviews.tasks
        reviews.stop()

    asyncio.run(scenario())


def test_hands_reviewed_apart_and_put_together_are_the_whole_review(game: Match) -> None:
    """What lets the server review a game's hands side by side: each decision is valued the
    same alone as with its game, so the totals and the order are the whole review's."""
    from euchre.analysis.review import combine, review_match

    whole = review_match(game, 8, 8, objective="points")
    parts = [review_match(game, 8, 8, objective="points", hands={h})
             for h in range(1, len(game.finished) + 1)]
    assert all(p.decisions for p in parts)
    together = combine(parts)
    key = [(d.hand, d.index, d.choice, d.best, d.estimate, d.se) for d in whole.decisions]
    assert [(d.hand, d.index, d.choice, d.best, d.estimate, d.se)
            for d in together.decisions] == key
    assert together.seat_totals() == whole.seat_totals()


def test_the_review_page_fits_a_phone_at_every_decision(server: LiveServer) -> None:
    """390 px wide, judged by the chance to win (the widest table of options: two columns of
    values with their errors, and the marks): nothing widens the page at any decision (it was
    411 px at one, the options table's numbers kept on one line)."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(server.base + f"/review/done1?deals={DEALS}&objective=win")
        page.wait_for_selector("#result:not([hidden])", timeout=60000)
        assert "Chance to win" in page.locator("#options").inner_text()
        n = page.locator("#chart svg .decision").count()
        widths = []
        page.locator("#chart svg .decision .hit").first.click()
        for _ in range(n):
            widths.append(page.evaluate("document.documentElement.scrollWidth"))
            page.keyboard.press("ArrowRight")
        assert n > 10 and max(widths) <= 390, widths
        browser.close()
