"""Take the README's screenshots of the browser table with Debian's headless Chromium.

Starts ``euchre serve`` on a free loopback port with a throw-away database, plays random legal
moves as South until a trick is half played, and writes docs/img/table.png (desktop) and
docs/img/table-phone.png (390 px). Usage: .venv/bin/python scripts/screenshot_table.py
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent


def play_to_mid_trick(page: Page, rng: random.Random, cards_in_middle: int) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if (page.locator("#center .slot .card").count() >= cards_in_middle
                and page.locator("#trump-badge strong").count()
                and page.locator("#hand .card.playable").count()):
            return
        bids = page.locator("#actions button")
        cards = page.locator("#hand .card.playable")
        try:
            if bids.count():
                labels = [b.inner_text() for b in bids.all()]
                pick = next((i for i, t in enumerate(labels) if "Order up" in t
                             or "Pick it up" in t or "♥" in t or "♠" in t), 0)
                bids.nth(pick).click(timeout=1000)
            elif cards.count() and page.locator("#center .slot .card").count() < cards_in_middle:
                cards.nth(rng.randrange(cards.count())).click(timeout=1000)
        except Exception:
            pass
        page.wait_for_timeout(150)
    raise SystemExit("no half-played trick within 90 s")


def main() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = tempfile.mkdtemp(prefix="euchre-shot-")
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp}/db.sqlite3"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/api/options", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or
                                        "/usr/bin/chromium", args=["--no-sandbox"])
            for name, size, seed in (("table.png", (1200, 820), 3),
                                     ("table-phone.png", (390, 844), 5)):
                t = httpx.post(base + "/api/tables", json={"name": "Ann"}, timeout=10).json()
                ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                          device_scale_factor=1)
                page = ctx.new_page()
                page.goto(f"{base}/t/{t['id']}#token={t['token']}")
                page.wait_for_selector("#hand .card")
                play_to_mid_trick(page, random.Random(seed), 2)
                page.wait_for_timeout(700)
                page.screenshot(path=str(ROOT / "docs" / "img" / name))
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
