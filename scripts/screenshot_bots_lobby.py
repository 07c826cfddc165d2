"""Take docs/writing-a-bot.md's screenshots of a bot seated through Play now: the lobby as a
person sees it before sitting (desktop and a 390x844 phone) and the table of the person the
bot sat beside (with the host's "Bots may sit here"), with Debian's headless Chromium.

As a bot author would: ``euchre serve --bots allowed`` on a free loopback port with a
throw-away database, ``euchre bots add``, a person presses Play now in the browser, and the
Node example bot connects with ``euchre connect --play-now``. Usage:
.venv/bin/python scripts/screenshot_bots_lobby.py
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
EUCHRE = str(Path(sys.executable).parent / "euchre")


def main() -> None:
    tmp = Path(tempfile.mkdtemp())
    db = f"sqlite:///{tmp}/site.db"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    added = subprocess.run([EUCHRE, "bots", "--db", db, "add", "Nodebot"], check=True,
                           capture_output=True, text=True)
    token = added.stdout.strip().splitlines()[-1]
    server = subprocess.Popen([EUCHRE, "serve", "--port", str(port), "--db", db,
                               "--bots", "allowed"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    bot: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(base + "/api/lobby")
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox"])
            ann = browser.new_context(viewport={"width": 1200, "height": 820}).new_page()
            ann.goto(base + "/lobby")
            ann.wait_for_selector("#play-now")
            ann.fill("#lobby-name", "Ann")
            ann.click("#play-now")
            ann.wait_for_url("**/t/**")
            bot = subprocess.Popen(
                [EUCHRE, "connect", f"cmd:node {ROOT / 'examples/node_bot.js'}", "--server",
                 base, "--play-now"], env=dict(os.environ, EUCHRE_BOT_TOKEN=token),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while not any(t["bots"] for t in httpx.get(base + "/api/lobby").json()["tables"]):
                if time.monotonic() > deadline:
                    raise SystemExit("the bot was not seated")
                time.sleep(0.2)
            for suffix, (w, h) in {"": (1200, 560), "-phone": (390, 844)}.items():
                page = browser.new_context(viewport={"width": w, "height": h}).new_page()
                page.goto(base + "/lobby")
                page.wait_for_selector("#lobby tbody tr")
                page.wait_for_timeout(500)
                page.screenshot(path=str(IMG / f"lobby-bots{suffix}.png"))
            ann.wait_for_selector("#bots-here:not([hidden])")
            ann.wait_for_timeout(800)
            ann.screenshot(path=str(IMG / "table-bot.png"))
            browser.close()
    finally:
        if bot is not None:
            bot.terminate()
            bot.wait(10)
        server.terminate()
        server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)
    print("wrote", ", ".join(f"docs/img/{n}" for n in ("lobby-bots.png",
                                                       "lobby-bots-phone.png", "table-bot.png")))


if __name__ == "__main__":
    main()
