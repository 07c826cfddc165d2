"""Play now in real browsers, on two server processes behind nginx: three people press Play now
and sit at one table with a computer; one leaves and a computer takes the seat; a fourth
person takes it from the next hand; a turn nobody plays in time is played by the seat's
computer. The websocket frames' times give the decision round trip and how soon the other
pages hear of a move (printed, for docs/benchmarks.md)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web_browser import watch_errors
from test_web_proxy import Nginx
from webtools import CHROMIUM, Client, ClusterProcesses, PgCluster

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

#: The turn clock and the grace of a seat left without a word, short enough for a test (the
#: clock long enough for a page that shows each play in turn to show the choice in time).
CLOCK, GRACE = 6.0, 1.0


@pytest.fixture
def lobby_processes(pg_cluster: PgCluster) -> Iterator[ClusterProcesses]:
    with ClusterProcesses(pg_cluster.new_database(), 2, "--turn-clock", str(CLOCK),
                          "--leave-grace", str(GRACE)) as cluster:
        yield cluster


class Frames:
    """Every websocket frame a page sent or received, with when (the test's clock)."""

    def __init__(self, page: Any) -> None:
        self.sent: list[tuple[float, str]] = []
        self.got: list[tuple[float, str]] = []
        page.on("websocket", self.watch)

    def watch(self, ws: Any) -> None:
        ws.on("framesent", lambda f: self.sent.append((time.monotonic(), str(f))))
        ws.on("framereceived", lambda f: self.got.append((time.monotonic(), str(f))))

    def acts(self) -> list[tuple[float, int]]:
        import json

        out = []
        for at, text in self.sent:
            msg = json.loads(text)
            if msg.get("type") == "act" and msg.get("seq") is not None:
                out.append((at, int(msg["seq"])))
        return out

    def first_state_after(self, seq: int, since: float) -> float | None:
        """When the first state past ``seq`` arrived (after ``since``)."""
        import json

        for at, text in self.got:
            if at >= since and '"type":"state"' in text and json.loads(text)["seq"] > seq:
                return at
        return None


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def play_now(page: Any, base: str, name: str) -> str:
    page.goto(base + "/")
    page.fill("#name", name)
    page.click("#play-now")
    page.wait_for_url(lambda url: "/t/" in url, timeout=15000)
    page.wait_for_selector("#felt:visible", timeout=15000)
    return str(page.url.split("/t/")[1].split("?")[0].split("#")[0])


def click_mine(page: Any, rng: random.Random) -> bool:
    bids = page.locator("#actions button")
    cards = page.locator("#hand .card.playable")
    try:
        if n := bids.count():
            bids.nth(rng.randrange(n)).click(timeout=500)
        elif n := cards.count():
            cards.nth(rng.randrange(n)).click(timeout=500)
        else:
            return False
    except playwright_api.Error:
        pass
    return True


def seat_names(page: Any) -> list[str]:
    names: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('.seat:not([hidden]) .name')]"
        ".map(e => e.textContent)")
    return names


def test_play_now_on_two_processes_behind_nginx_with_people_computers_and_the_clock(
        lobby_processes: ClusterProcesses, nginx: Nginx) -> None:
    cluster = lobby_processes
    proxy = nginx([f"127.0.0.1:{port}" for port in cluster.ports])
    http = httpx.Client(base_url=proxy.base, timeout=10)
    rng = random.Random(38)
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        contexts = [browser.new_context(viewport={"width": 1100, "height": 800})
                    for _ in range(4)]
        for c in contexts:  # the fast animation setting: the pages keep up with the clock
            c.add_init_script("localStorage.setItem('euchre:settings', "
                              "JSON.stringify({speed: 'fast'}))")
        pages = [c.new_page() for c in contexts]
        errors: list[str] = []
        for page in pages:
            errors += watch_errors(page)
        frames = [Frames(page) for page in pages]
        ann, bob, cy, di = pages
        tables = [play_now(page, proxy.base, name)
                  for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy"))]
        assert tables[0] == tables[1] == tables[2], "three people at one table"
        tid = tables[0]
        (listed,) = http.get("/api/lobby").json()["tables"]
        assert (listed["id"], listed["people"], listed["computers"], listed["free"]) == \
            (tid, 3, 1, 1)
        watcher = Client(f"ws://127.0.0.1:{proxy.port}/ws/{tid}")  # what everyone sees
        # the three play (Cy never clicks: the clock plays for Cy) until a hand is over and
        # the next is well under way, so Bob and Cy, seated during the first hand, play too
        timed_out = 0
        deadline = time.monotonic() + 150
        last: dict[str, Any] | None = None
        while timed_out == 0 or (last is not None and last["hand_no"] < 2):
            assert time.monotonic() < deadline, ("no turn ran out", last and last["hand_no"])
            for page in (ann, bob):
                click_mine(page, rng)
            watcher.drain(0.05)
            for m in watcher.messages:
                if m["type"] != "state":
                    continue
                cy_seat = 2
                if last is not None and m["seq"] == last["seq"] + 1 and m["last"] \
                        and m["last"]["seat"] == cy_seat \
                        and not last["seats"][cy_seat]["stand_in"]:
                    timed_out += 1  # Cy's own turn, played by the clock's computer
                last = m
            watcher.messages.clear()
        assert last is not None
        # Ann leaves: her seat goes to its computer, then to Di, who plays from the next hand
        # (the game is rated: asked first, she says yes)
        asked: list[str] = []

        def say_yes(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        ann.once("dialog", say_yes)
        ann.click("#leave-btn")
        ann.wait_for_url(lambda url: url.endswith("/lobby"), timeout=10000)
        assert len(asked) == 1 and "still counts" in asked[0], asked
        bob.wait_for_function(
            "() => [...document.querySelectorAll('.seat .name')]"
            ".some(e => /\\(club\\)$/.test(e.textContent) && e.textContent.startsWith('North'))",
            timeout=10000)
        # the seat she left is a free one its computer plays, not a person away
        tags = bob.evaluate(
            "() => [...document.querySelectorAll('.seat:not([hidden])')].filter(e => "
            "/^North/.test(e.querySelector('.name').textContent))"
            ".map(e => e.querySelector('.seat-sub').textContent)")
        assert len(tags) == 1 and tags[0].startswith("free · computer"), tags
        # and Bob is told so in words, in the table's chat (whichever process he is at)
        bob.wait_for_function(
            "() => [...document.querySelectorAll('#chat-list li.notice')].some(li => "
            "li.textContent === 'Ann left the table: North (club) plays the seat until "
            "someone takes it.')", timeout=10000)
        watcher.drain(0.05)
        before = [m for m in watcher.messages if m["type"] == "state"][-1:] or [last]
        hand = before[0]["hand_no"]  # the hand in play as Di asks (or an earlier one)
        watcher.messages.clear()
        assert play_now(di, proxy.base, "Di") == tid, "the seat Ann left, at the other process"
        deadline = time.monotonic() + 150
        while not di.locator("#actions button, #hand .card.playable").count():
            if time.monotonic() > deadline:
                watcher.drain(0.05)
                seen = [m for m in watcher.messages if m["type"] == "state"][-1:]
                raise AssertionError(("Di never got the seat", seen and (
                    seen[0]["hand_no"], seen[0]["finished"], seen[0]["seats"][0]),
                    [t[:200] for _, t in frames[3].got if '"state"' not in t]))
            click_mine(bob, rng)
            di.wait_for_timeout(50)
        watcher.drain(0.05)
        states = [m for m in watcher.messages if m["type"] == "state"]
        hers = [m for m in states if m["seats"][0]["name"] == "Di"
                and not m["seats"][0]["stand_in"]]
        assert hers and hers[0]["hand_no"] > hand, "Di plays from the hand after she sat down"
        assert not any(m["last"] and m["last"]["seat"] == 0 and m["hand_no"] == hand
                       and not m["seats"][0]["stand_in"] for m in states)
        assert "Di" in seat_names(bob)
        hand_di = hers[-1]["hand_no"]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # Bob and Di play that hand out (more timings)
            watcher.drain(0.02)
            states = [m for m in watcher.messages if m["type"] == "state"]
            if states and (states[-1]["finished"] or states[-1]["hand_no"] > hand_di):
                break
            for page in (bob, di):
                click_mine(page, rng)
        # the decision round trip (a click's act frame to that page's next state) and the
        # other pages' update (the same act to their next state), from the frames' times
        trips: list[float] = []
        updates: list[float] = []
        for i, f in enumerate(frames):
            for at, seq in f.acts():
                back = f.first_state_after(seq, at)
                if back is not None:
                    trips.append(back - at)
                for j, other in enumerate(frames):
                    if j != i:
                        heard = other.first_state_after(seq, at)
                        if heard is not None and heard - at < 5:
                            updates.append(heard - at)
        assert len(trips) >= 10 and len(updates) >= 10, (len(trips), len(updates))
        print(f"\ndecision round trip: n={len(trips)} median "
              f"{statistics.median(trips) * 1000:.0f} ms p95 {pct(trips, 0.95) * 1000:.0f} ms; "
              f"other pages' update: n={len(updates)} median "
              f"{statistics.median(updates) * 1000:.0f} ms p95 "
              f"{pct(updates, 0.95) * 1000:.0f} ms; turns played by the clock: {timed_out}")
        assert timed_out >= 1
        assert errors == [], errors
        watcher.close()
        for c in contexts:
            c.close()
        browser.close()
    http.close()
