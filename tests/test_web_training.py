"""Learning from one's games in the browser: a seat's clear mistakes as puzzles (by table and
seat, from the game's review) and the bidding trainer (clear positions, every bid valued with
its error), through their APIs and in headless Chromium, desktop and phone."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema
import pytest
from test_web_review import NAMES, log_of, played, store_game
from webtools import CHROMIUM, LiveServer

from euchre import actions as A
from euchre.analysis.puzzles import puzzles_from_json
from euchre.bots import make_bot
from euchre.match import Match
from euchre.rules import Rules
from euchre.web import players as P
from euchre.web.results import computer_players
from euchre.web.store import SeatData, Stint, Store

DEALS = 16
#: A game whose random play makes several clear mistakes at one seat (to share between the
#: seat's holders).
MISTAKEN = 2
#: What the puzzles page adds to each puzzle of the set (the table, the options' labels).
PAGE_FIELDS = {"moment", "when", "choice_label", "answer_label", "choice_action",
               "answer_action", "options", "choices"}


@pytest.fixture
def server(sqlite_url: str) -> Iterator[LiveServer]:
    store_game(sqlite_url, "done1", played())
    store_game(sqlite_url, "going1", played(), finished=False)
    with LiveServer(db_url=sqlite_url) as srv:
        yield srv


def polled(srv: LiveServer, path: str, timeout: float = 90) -> tuple[int, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status, body = srv.get(path)
        if status != 202:
            return status, body
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)


def test_a_seats_clear_mistakes_are_puzzles_by_table_and_seat(server: LiveServer) -> None:
    query = f"deals={DEALS}&objective=points"
    status, review = polled(server, f"/api/tables/done1/review?{query}")
    assert status == 200
    mistakes = {s: [d for d in review["review"]["decisions"] if d["clear"] and d["seat"] == s]
                for s in range(4)}
    assert any(mistakes.values())
    schema = json.loads(resources.files("euchre.analysis").joinpath(
        "schemas/puzzles.schema.json").read_text(encoding="utf-8"))
    for seat in range(4):
        status, body = polled(server, f"/api/tables/done1/puzzles?seat={seat}&{query}")
        assert status == 200, body
        assert body["source"] == {"table": "done1", "seat": seat, "players": NAMES}
        assert len(body["puzzles"]) == len(mistakes[seat])
        plain = {**body, "puzzles": [{k: v for k, v in p.items() if k not in PAGE_FIELDS}
                                     for p in body["puzzles"]]}
        jsonschema.validate(plain, schema)
        ps = puzzles_from_json(plain)  # every position replays to the seat to move
        for p, row, d in zip(ps.puzzles, body["puzzles"],
                             sorted(mistakes[seat], key=lambda d: (d["hand"], d["index"])),
                             strict=True):
            assert (p.hand, p.index, p.seat) == (d["hand"], d["index"], seat)
            assert row["answer_action"] == d["best"] != row["choice_action"] == d["choice"]
            assert p.objective == "points" and p.gap == d["loss"] > 0
            assert row["moment"]["seat"] == seat and len(row["options"]) >= 2
            # asked in the hand's or the bids' order, not best first
            assert sorted(c["action"] for c in row["choices"]) == sorted(
                o["action"] for o in row["options"])
            assert all(o["ci95"] is None or o["ci95"] >= 0 for o in row["options"])
            assert row["options"][0]["behind"] == 0 and all(
                o["behind"] >= 0 and o["behind_ci95"] is not None for o in row["options"])
            # one gap to the best each, the range the pick's verdict rests on: the game's
            # choice was a clear mistake, so firmly behind ("X to Y less", never "more")
            assert row["options"][0]["range"] is None
            assert all(o["range"].endswith("less") for o in row["options"][1:])
            (chosen,) = [o for o in row["options"] if o["action"] == row["choice_action"]]
            assert chosen["firm"] and "more" not in chosen["range"]
    for bad, words in (("seat=9", "seat must be"), ("seat=x", "seat must be"), ("", "seat must"),
                       ("seat=1&deals=2", "deals must be")):
        status, body = server.get(f"/api/tables/done1/puzzles?{bad}")
        assert status == 400 and words in body["error"], (bad, body)
    status, body = server.get("/api/tables/going1/puzzles?seat=0")
    assert status == 409 and "still being played" in body["error"]


def test_a_players_puzzles_are_the_mistakes_they_made_at_a_seat_others_held_too(
        server: LiveServer, sqlite_url: str) -> None:
    """At an open table a seat can pass from one person to its computer and on to another
    mid-game: each player's puzzles (the profile's link names them) are the seat's mistakes
    made while they held it, never another holder's; the three holders' sets make the seat's."""
    query = f"deals={DEALS}&objective=points"
    game = Match(Rules(target=3), seed=MISTAKEN)  # random play: several clear mistakes a seat
    bots = [make_bot("random", MISTAKEN * 10 + i) for i in range(4)]
    while not game.is_terminal():
        game.apply_action(bots[game.current_player].choose(game.view(game.current_player)))
    log = log_of(game, MISTAKEN)
    store_game(sqlite_url, "twin1", game, seed=MISTAKEN)  # the same game at a private table
    whole: dict[int, list[dict[str, Any]]] = {}
    for seat in range(4):
        status, body = polled(server, f"/api/tables/twin1/puzzles?seat={seat}&{query}")
        assert status == 200, body
        whole[seat] = body["puzzles"]
    seat = max(whole, key=lambda s: len(whole[s]))
    assert len(whole[seat]) >= 2
    # where each of the seat's mistakes stands in the game's log (hands end where the match
    # moves on to the next)
    replay, starts = Match(game.rules, seed=MISTAKEN), [0]
    for k, (_, a) in enumerate(log):
        done = len(replay.finished)
        replay.apply_action(a)
        if len(replay.finished) > done:
            starts.append(k + 1)
    at = [starts[p["hand"] - 1] + p["index"] for p in whole[seat]]
    for i, p in zip(at, whole[seat], strict=True):
        assert log[i] == (seat, A.action_from_str(p["choice_action"]))
    ann_leaves, bo_takes = at[0] + 1, at[-1]  # Ann held the first, Bo the last
    store = Store(sqlite_url)
    try:
        ann, bo = (P.create_guest(store, n) for n in ("Ann", "Bo"))
        P.create_guest(store, "Cy")
        computer_players(store, ["rule"])  # the level's player, as a rated game makes it
        store.create_table("open1", game.rules.to_dict(), MISTAKEN, "inv-open1", [
            SeatData(i, f"open1-tok{i}", "human" if i == seat else "computer", "rule",
                     "Ann" if i == seat else NAMES[i], i == seat,
                     player_id=ann.id if i == seat else None) for i in range(4)], public=True)
        store.leave_seat("open1", seat, ann_leaves, claimed=False, player_id=None)
        store.take_seat("open1", Stint(seat, bo.id, "human", bo_takes), claimed=True,
                        player_id=bo.id, name="Bo")
        result = (game.winner if game.winner is not None else -1, list(game.scores))
        store.append_actions([("open1", k, s, a, result if k == len(log) - 1 else None)
                              for k, (s, a) in enumerate(log)])
    finally:
        store.close()
    status, body = polled(server, f"/api/tables/open1/puzzles?seat={seat}&{query}")
    assert status == 200 and "player" not in body["source"]
    assert [(p["hand"], p["index"]) for p in body["puzzles"]] == [
        (p["hand"], p["index"]) for p in whole[seat]]  # the same game: the same mistakes
    held = {"Ann": range(0, ann_leaves), "rule": range(ann_leaves, bo_takes),
            "Bo": range(bo_takes, len(log))}
    parts = {}
    for name, span in held.items():
        status, body = polled(server,
                              f"/api/tables/open1/puzzles?seat={seat}&player={name}&{query}")
        assert status == 200, (name, body)
        assert body["source"]["player"] == name and body["source"]["seat"] == seat
        parts[name] = [(p["hand"], p["index"]) for p in body["puzzles"]]
        assert parts[name] == [(p["hand"], p["index"]) for p, i in zip(whole[seat], at,
                                                                        strict=True)
                               if i in span]
    assert parts["Ann"] and parts["Bo"]  # each their own, none of the other's
    assert sorted(x for part in parts.values() for x in part) == sorted(
        (p["hand"], p["index"]) for p in whole[seat])
    status, body = server.get(f"/api/tables/open1/puzzles?seat={seat}&player=Cy&{query}")
    assert status == 400 and "Cy made no decision at seat" in body["error"], body
    status, body = server.get(f"/api/tables/open1/puzzles?seat={seat}&player=Zed&{query}")
    assert status == 404 and "no player named" in body["error"], body
    # at a private table the seat is its one holder's, whole
    status, body = polled(server, f"/api/tables/twin1/puzzles?seat={seat}&player=rule&{query}")
    assert status == 200 and len(body["puzzles"]) == len(whole[seat])


def test_the_bidding_trainer_deals_a_clear_position_with_every_bids_value(
        server: LiveServer) -> None:
    status, pos = server.get("/api/train-bids?seed=3&round=1")
    assert status == 200, pos
    assert pos["round"] == 1 and pos["seed"] == 3 and pos["preset"] == "standard"
    assert {b["action"] for b in pos["bids"]} == {v["action"] for v in pos["values"]}
    assert pos["answer"] == pos["values"][0]["action"]
    points = [v["points"] for v in pos["values"]]
    assert points == sorted(points, reverse=True)  # judged by points this hand
    # clear: every other bid firmly behind the answer, and by at least 0.25 points
    assert all(v["firm"] and v["behind"] >= 0.25 and v["range"].endswith("less")
               for v in pos["values"][1:])
    assert all(v["ci95"] > 0 for v in pos["values"]) and pos["deals"] >= 48
    assert "Clearly worse: " in pos["words"] and len(pos["hand"]) == 5
    assert server.get("/api/train-bids?seed=3&round=1") == (200, pos)  # the seed's position
    for bad, words in (("seed=-1", "seed must"), ("round=3", "round must"),
                       ("preset=two-handed-rows", "preset must"), ("x=1", "unknown parameter")):
        status, body = server.get(f"/api/train-bids?{bad}")
        assert status == 400 and words in body["error"], (bad, body)


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM, reason="needs Chromium")
@pytest.mark.parametrize("width", [1280, 390])
def test_the_puzzles_and_trainer_pages_pose_and_answer(server: LiveServer, sqlite_url: str,
                                                       width: int) -> None:
    from playwright.sync_api import sync_playwright

    store = Store(sqlite_url)
    try:
        computer_players(store, ["rule"])  # the level's player, as a rated game makes it
    finally:
        store.close()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # the review page links each seat's clear mistakes to its puzzles
        page.goto(server.base + f"/review/done1?deals={DEALS}&objective=points")
        page.wait_for_selector("#result:not([hidden])", timeout=90000)
        link = page.locator("#totals a.puzzle-link").first
        href = link.get_attribute("href") or ""
        assert href.startswith("/puzzles/done1?") and "seat=" in href
        link.click()
        page.wait_for_selector("#puzzle:not([hidden])", timeout=90000)
        assert page.locator("#board .rseat").count() == 4
        choices = page.locator("#choices button")
        assert choices.count() >= 2
        choices.first.click()
        page.wait_for_selector("#answer:not([hidden])")
        verdict = page.locator("#verdict").inner_text()
        assert verdict.startswith(("Right", "Not the best", "A close call")), verdict
        assert "In the game you chose" in verdict
        if not verdict.startswith("Right"):  # one gap, as a range, not a value ± error
            assert re.search(r" brings .*less .*than ", verdict) and "±" not in verdict
        assert "clearly worse" in page.locator("#values").inner_text()
        assert "±" in page.locator("#values").inner_text()
        assert page.locator("#values .badge.best").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # a player's own mistakes (a profile's link): named as theirs, and the review linked
        # is the whole game's
        page.goto(server.base + href + "&player=rule")
        page.wait_for_selector("#puzzle:not([hidden])", timeout=90000)
        assert page.locator("#summary").inner_text().startswith("rule's clear mistakes")
        review = page.locator("#review-link").get_attribute("href") or ""
        assert review.startswith("/review/done1") and "player" not in review \
            and "seat" not in review
        # the trainer
        page.goto(server.base + "/train-bids?seed=5")
        page.wait_for_selector("#choices button", timeout=90000)
        assert page.locator("#board .rseat").count() == 4
        # the hand the bid rests on, at full size, in one row even on a phone
        cards = page.locator("#hand .card")
        assert cards.count() == 5
        tops = {round(cards.nth(i).bounding_box()["y"]) for i in range(5)}  # type: ignore[index]
        assert len(tops) == 1, tops
        page.locator("#choices button").first.click()
        page.wait_for_selector("#answer:not([hidden])")
        assert page.locator("#verdict").inner_text().startswith(("Right", "Not the best"))
        assert "±" in page.locator("#values").inner_text()
        assert "clearly worse" in page.locator("#values").inner_text()
        assert page.locator("#score").inner_text() in ("1 of 1 best", "0 of 1 best")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not errors, errors
        browser.close()
