"""Take docs/web.md's screenshots of the lobby, the waiting room, a hand's result held for
Continue, and the computer analysis, each on a desktop (1200x820), a phone (390x844) and a
phone on its side (844x390), with Debian's headless Chromium.

Starts ``euchre serve`` on a free loopback port with a throw-away database. Usage:
.venv/bin/python scripts/screenshot_lobby.py
"""

from __future__ import annotations

import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
SIZES = {"": (1200, 820), "-phone": (390, 844), "-landscape": (844, 390)}


def click_until(page: Page, done: Any, rng: random.Random, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("the table did not get there in time")
        bids = page.locator("#actions button")
        cards = page.locator("#hand .card.playable")
        try:
            if n := bids.count():
                bids.nth(rng.randrange(n)).click(timeout=500)
            elif n := cards.count():
                cards.nth(rng.randrange(n)).click(timeout=500)
            else:
                page.wait_for_timeout(40)
        except Exception:
            pass


def shoot(browser: Browser, url: str, name: str, ready: str, settings: dict[str, Any] | None,
          sizes: dict[str, tuple[int, int]], before: Any = None) -> None:
    for suffix, (w, h) in sizes.items():
        ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
        if settings is not None:
            ctx.add_init_script("localStorage.setItem('euchre:settings', "
                                f"{json.dumps(json.dumps(settings))})")
        page = ctx.new_page()
        page.goto(url() if callable(url) else url)
        if before is not None:
            before(page)
        page.wait_for_selector(ready, timeout=60000)
        page.wait_for_timeout(400)
        page.screenshot(path=str(IMG / f"{name}{suffix}.png"))
        ctx.close()


def quick_decisions(port: int, seated: dict[str, Any], n: int = 4) -> Any:
    """The seated person decides at once ``n`` times (the first legal action each turn);
    returns their connection, to keep them at the table (a table everyone left is played
    out by its computers at once, and leaves the lobby)."""
    from websockets.sync.client import connect

    ws = connect(f"ws://127.0.0.1:{port}/ws/{seated['id']}?token={seated['token']}",
                 max_size=2**22, max_queue=None).__enter__()
    made = 0
    deadline = time.monotonic() + 60
    while made < n and time.monotonic() < deadline:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "state" and msg["legal"]:
            ws.send(json.dumps({"type": "act", "action": msg["legal"][0]["id"],
                                "seq": msg["seq"]}))
            made += 1
    time.sleep(1.5)  # the owner writes the pace, the lobby reads it (once a second)
    return ws


def main() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = tempfile.mkdtemp(prefix="euchre-shot-")
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp}/db.sqlite3", "--turn-clock", "60"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    http = httpx.Client(base_url=base, timeout=30)
    try:
        for _ in range(200):
            try:
                http.get("/api/options", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        # the lobby: open tables of three rule sets, some seats taken; at one of them a
        # person has decided at once a few times, so its clock shows that table's pace
        seated = [http.post("/api/play", json={"name": name, "preset": preset}).json()
                  for name, preset in (("Ann", "standard"), ("Bob", "standard"),
                                       ("Cy", "tournament"), ("Di", "joker"),
                                       ("Ed", "tournament"), ("Flo", "standard"))]
        di = quick_decisions(port, seated[3])  # Di, alone at the joker table
        done = http.post("/api/tables", json={"my_seat": -1, "rules": {"target": 3}, "seats": [
            {"kind": "computer", "level": "club"}] * 4}).json()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or
                                        "/usr/bin/chromium", args=["--no-sandbox"])
            shoot(browser, base + "/lobby", "lobby", "#lobby tbody tr", None, SIZES)
            di.close()

            def friends_table() -> str:
                t = http.post("/api/tables", json={
                    "name": "Ann", "my_seat": 2, "rules": {"stick_the_dealer": True},
                    "seats": [{"kind": "human"}, {"kind": "computer", "level": "club"},
                              {"kind": "human"}, {"kind": "computer", "level": "expert"}]}
                ).json()
                made.update(t)
                return f"{base}/t/{t['id']}#token={t['token']}"

            def keep_invite(page: Page) -> None:  # as the home page keeps it for its creator
                invite = made["invite_url"].split("#invite=")[1]
                page.evaluate(f"localStorage.setItem('euchre:invite:{made['id']}', '{invite}')")
                page.reload()

            made: dict[str, Any] = {}
            shoot(browser, friends_table, "waiting", "#waiting-room:not([hidden])", None,
                  SIZES, keep_invite)

            def to_result(page: Page) -> None:
                page.wait_for_selector("#hand .card")
                click_until(page, lambda: page.locator("#banner .hand-result").is_visible(),
                            random.Random(4))

            def new_table() -> str:
                t = http.post("/api/tables", json={"name": "Ann"}).json()
                return f"{base}/t/{t['id']}#token={t['token']}"

            shoot(browser, new_table, "hand-result", "#banner .continue",
                  {"hold": True, "speed": "fast"}, SIZES, to_result)
            deadline = time.monotonic() + 120
            while not http.get(f"/api/tables/{done['id']}").json()["finished"]:
                if time.monotonic() > deadline:
                    raise SystemExit("the computers' game did not end")
                time.sleep(0.5)
            shoot(browser, f"{base}/review/{done['id']}", "review", ".total-row",
                  None, {"-phone": SIZES["-phone"]})
            browser.close()
    finally:
        http.close()
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
