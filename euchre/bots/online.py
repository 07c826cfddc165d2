"""A bot online: any bot spec played at a server's tables as a bot account (``euchre connect
SPEC --server URL``), over the server's bot websocket (needs ``websockets``: the ``online``
extra).

The server is the protocol's host, as ``euchre tournament`` is for a child process: it sends
the same messages, one a websocket frame, and judges the answers itself. This is the program's
end of that websocket:

- a level or a plug-in is served in this process by :func:`euchre.bots.protocol.serve`, the
  reference program's loop, over the websocket instead of a pipe;
- a ``cmd:`` program is started for each connection and its lines are passed through
  unchanged both ways (its stderr goes to its log file, as under any host), so the server
  judges the program's own answers and its diagnosis names what the program sent.

A connection lost to the network or to a server restarting is made again (the server gives
the bot its seat back); a fault the server diagnosed, a token it refused or a limit it holds
ends the run with the server's one-line reason.

Where the server's operator allows bots in its lobby, a connection can also ask for its seat
(``request``): Play now (after its hello and after each game) or a free seat at one open
table. The server answers ``seated`` or ``refused``, which are this end's business and never
reach the program: a ``cmd:`` program speaks the pipe protocol alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from euchre.bots import protocol as P
from euchre.bots.registry import CMD_PREFIX, claims_determinism, make_bot
from euchre.seats import Seat, side_name, side_of

#: The server's bot websocket, under its address.
BOT_PATH = "/ws/bot"
#: The environment variable a token is read from when none is given (a command line shows
#: in every process list; the environment does not).
TOKEN_ENV = "EUCHRE_BOT_TOKEN"
#: Close codes after which a connection is made again: the network, a server going away or
#: restarting, an error of the server's.
RECONNECT_CODES = frozenset({1000, 1001, 1005, 1006, 1011, 1012, 1013, 1014})
#: Seconds between tries, doubling from the first to the last.
BACKOFF = (0.5, 15.0)
#: Refusals of a request for a seat that pass, and the seconds after which a connection still
#: free asks again: it plays a game already, another of the bot's connections was being
#: seated or the server could not seat it just then (a moment); a limit of a minute's
#: (the tables one address makes, the bot's requests).
RETRIED = {"busy": 2.0, "server_error": 2.0, "too_many_tables": 60.0, "bot_requests": 60.0}
#: What the websocket's own close codes mean, for the last line.
CLOSE_WORDS = {1008: "a rule of the server's was broken", 1009: "a message over the server's "
               "64 KiB", 1002: "the websocket protocol was broken"}


def bot_url(server: str) -> str:
    """The bot websocket of a server given as it is browsed (``http://host:8000``) or as
    ``ws://``; raises ValueError for anything else."""
    parts = urlsplit(server.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"--server is the server's address, such as http://127.0.0.1:8000 "
                         f"(or https://, ws://, wss://), not {server!r}")
    path = parts.path.rstrip("/")
    if not path.endswith(BOT_PATH):
        path += BOT_PATH
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def play_now_request(preset: str = "", rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play now: with the players waiting for these rules (a preset and changes to it; none:
    the rules most players wait for), or at a new open table computers fill."""
    out: dict[str, Any] = {"type": "play_now"}
    if preset:
        out["preset"] = preset
    if rules:
        out["rules"] = rules
    return out


def join_request(table: str, seat: Seat | None = None) -> dict[str, Any]:
    """A free seat (``seat``: that one) at an open table the server's lobby lists."""
    out: dict[str, Any] = {"type": "join", "table": table}
    if seat is not None:
        out["seat"] = seat
    return out


class Stop(Exception):
    """The run ends: ``status`` to exit with, ``reason`` to print."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class Run:
    """What every connection of one ``euchre connect`` shares."""

    spec: str
    url: str
    token: str
    say: Callable[[str], None]
    max_games: int | None = None
    request: dict[str, Any] | None = None
    """What each free connection asks the server for (``play_now`` or ``join``), if any."""
    games: int = 0
    stopping: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    outcome: Stop | None = None

    def finish(self, stop: Stop) -> None:
        with self.lock:
            if self.outcome is None:
                self.outcome = stop
        self.stopping.set()

    def game_over(self) -> None:
        with self.lock:
            self.games += 1
            done = self.max_games is not None and self.games >= self.max_games
        if done:
            self.finish(Stop(0, f"played {self.games} game(s)"))


def game_end_words(message: dict[str, Any], seat: Seat, players: int) -> str:
    """A game's end as the bot's log says it, from its own seat's view: "game over:
    North-South 6, East-West 10 — your side (East-West) won" (with two or three players each
    seat is its side: "you (Player 2) won")."""
    scores, winner = message.get("scores"), message.get("winner")
    if not isinstance(scores, list) or not all(isinstance(v, int) for v in scores):
        return f"game over (scores not given: {scores!r})"
    said = ", ".join(f"{side_name(s, players)} {v}" for s, v in enumerate(scores))
    if not 0 <= seat < players:
        return f"game over: {said}"
    mine = side_of(seat, players)
    you = f"{'your side' if players == 4 else 'you'} ({side_name(mine, players)})"
    if not isinstance(winner, int) or not 0 <= winner < len(scores):
        return f"game over: {said} — nobody won"
    if winner == mine:
        return f"game over: {said} — {you} won"
    return f"game over: {said} — {you} lost to {side_name(winner, players)}"


class Frames:
    """The program's end of one websocket, as :class:`euchre.bots.protocol.Lines`: frames
    in, frames out; what the server says besides the protocol (an error, the close) is
    kept for the run's last line."""

    def __init__(self, ws: Any, run: Run, label: str) -> None:
        self.ws, self.run, self.label = ws, run, label
        self.error: str | None = None
        self.hello = False
        """The program's hello went: the connection may ask for a seat."""
        self.playing = False
        """A game is under way on this connection (from its new_game to its game_end)."""
        self.seat, self.players = -1, 4
        """The bot's seat in its game and how many play there (from its new_game)."""

    def recv(self) -> str | None:
        from websockets.exceptions import ConnectionClosed

        while not self.run.stopping.is_set():
            try:
                text = self.ws.recv(timeout=0.5)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return None
            if isinstance(text, bytes):
                text = text.decode("utf-8", "replace")
            self._note(text)
            if text.startswith(('{"type":"error"', '{"type":"seated"', '{"type":"refused"')):
                continue
            return str(text)
        return None

    def ask(self) -> None:
        """Ask for a seat, when this run does (the connection is free to play)."""
        if self.run.request is not None and not self.run.stopping.is_set() \
                and not self.playing:
            self.send(json.dumps(self.run.request))

    #: The server's messages this end reads (the rest only pass through to the program).
    NOTED = ("new_game", "game_end", "seated", "refused", "error")

    def _note(self, text: str) -> None:
        """Say what happens, a line a game; keep the server's error."""
        kind = next((k for k in self.NOTED if text.startswith(f'{{"type":"{k}"')), None)
        if kind is None:
            return
        try:
            message = json.loads(text)
        except ValueError:
            return
        say = self.run.say
        if kind == "new_game":
            self.playing = True
            seat, rules = message.get("seat"), message.get("rules")
            players = rules.get("players") if isinstance(rules, dict) else None
            self.seat = seat if isinstance(seat, int) else -1
            self.players = players if isinstance(players, int) else 4
            say(f"{self.label}: playing table {message.get('table', '?')}, seat "
                f"{message.get('seat')}")
        elif kind == "game_end":
            say(f"{self.label}: "
                f"{game_end_words(message, self.seat, self.players)}")
            self.playing = False
            self.run.game_over()
            self.ask()
        elif kind == "seated":
            say(f"{self.label}: seated at {message.get('url')} (seat {message.get('seat')}"
                f"{', a new table' if message.get('new') else ''})")
        elif kind == "refused" and message.get("code") in RETRIED:
            wait = RETRIED[message["code"]]
            if message["code"] != "busy":  # (busy: a game is coming, or a moment's wait)
                say(f"{self.label}: {message.get('message')}: asking again in {wait:g} s")
            timer = threading.Timer(wait, self.ask)
            timer.daemon = True
            timer.start()
        elif kind == "refused":
            self.run.finish(Stop(1, f"the server refused the bot's {message.get('request')}"
                                    f": {message.get('message')}"))
        elif kind == "error":
            self.error = message.get("message")

    def send(self, text: str) -> None:
        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):
            self.ws.send(text)
        if not self.hello:  # the program's first line is its hello: then ask for a seat
            self.hello = True
            self.ask()


def _served(run: Run, frames: Frames) -> None:
    """A level or a plug-in, in this process, on the websocket."""
    spec = run.spec
    probe = make_bot(spec, 0)
    P.serve(lambda seed: make_bot(spec, seed), getattr(probe, "name", spec) or spec,
            lines=frames, deterministic=claims_determinism(spec, probe))


def _relayed(run: Run, frames: Frames) -> None:
    """A ``cmd:`` program, started for this connection, its lines passed through unchanged
    (its stderr to its log file); one that exits ends the run, saying how.

    The server judges every answer, but only the program's end can see two lines written for
    one question (the second may reach the server after its next ``decide``, and read as the
    answer to it): so a line with no question waiting for it stops the run here, as a second
    line stops a program under any host."""
    command = run.spec[len(CMD_PREFIX):]
    words = P.command_words(command)
    log = P.log_path(command)
    log.parent.mkdir(parents=True, exist_ok=True)
    P._rotate_full_log(log)
    P._append_log(log, f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} cmd:{command} (online)\n"
                  .encode())
    try:
        proc = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
    except OSError as exc:
        raise Stop(2, f"cmd:{command}: cannot start {words[0]!r}: "
                      f"{exc.strerror or exc}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    drain = threading.Thread(target=P._drain_stderr, args=(proc.stderr, log), daemon=True)
    drain.start()
    stdout = proc.stdout
    due = [0]  # questions (the hello, each decide) the program has not answered yet
    lock = threading.Lock()
    ended: list[str] = []  # why the program's end stopped first, if it did
    relaying = [True]  # the connection is open: the program has not been asked to quit

    def out() -> None:
        """The program's lines to the server (a line past the longest message goes as it
        is: the server names the flood)."""
        buf, last = b"", b""
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(stdout.fileno(), 65536):
                buf += chunk
                while b"\n" in buf or len(buf) > P.MAX_LINE:
                    line, sep, rest = buf.partition(b"\n")
                    if not sep:
                        line, rest = buf, b""
                    buf = rest
                    with lock:
                        extra = due[0] == 0 and bool(line.strip())
                        due[0] = max(0, due[0] - 1)
                    if extra:
                        ended.append(f"bot (cmd:{command}) sent a second line, "
                                     f"{P._shown(line)}, after {P._shown(last)}; one line was "
                                     f"expected; stopped (its stderr: {log})")
                        with contextlib.suppress(Exception):
                            frames.ws.close(1000)
                        return
                    last = line
                    frames.send(line.decode("utf-8", "replace"))
                    if not sep:  # a line past the longest message: the server ends it here
                        return
        if relaying[0] and not run.stopping.is_set() and frames.error is None:
            ended.append("exited")  # on its own, the connection still open
        with contextlib.suppress(Exception):  # the program is gone: so is this connection
            frames.ws.close(1011 if not run.stopping.is_set() else 1000)

    reader = threading.Thread(target=out, daemon=True)
    reader.start()
    try:
        while (text := frames.recv()) is not None:
            if text.startswith(('{"type":"decide"', '{"type":"hello"')):
                with lock:
                    due[0] += 1
            try:
                os.write(proc.stdin.fileno(), text.encode() + b"\n")
            except OSError:
                break
    finally:
        relaying[0] = False
        with contextlib.suppress(OSError):
            os.write(proc.stdin.fileno(), P.QUIT_LINE.encode() + b"\n")
        with contextlib.suppress(OSError):
            proc.stdin.close()
        try:
            code = proc.wait(0.5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, 9)
            code = proc.wait()
        reader.join(2)
        drain.join(2)
    if ended and ended[0] != "exited":
        raise Stop(1, ended[0])
    if ended and frames.error is None:
        how = f"killed by signal {-code}" if code < 0 else f"status {code}"
        raise Stop(1, f"bot (cmd:{command}) exited ({how}) while playing online; its "
                      f"stderr: {log}")


def connection(run: Run, number: int) -> None:
    """One connection, made again after the network or the server lost it, until the run
    stops."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI
    from websockets.sync.client import connect

    label = f"connection {number}"
    wait = BACKOFF[0]
    while not run.stopping.is_set():
        frames: Frames | None = None
        try:
            with connect(run.url, additional_headers={"Authorization": f"Bearer {run.token}"},
                         open_timeout=10, max_size=2**22) as ws:
                run.say(f"{label}: connected to {run.url}")
                frames = Frames(ws, run, label)
                if run.spec.startswith(CMD_PREFIX):
                    _relayed(run, frames)
                else:
                    _served(run, frames)
                wait = BACKOFF[0]
                code = ws.close_code
        except Stop as stop:
            run.finish(stop)
            return
        except (ConnectionClosed, OSError, InvalidStatus, TimeoutError) as exc:
            code = getattr(getattr(exc, "rcvd", None), "code", None)
            if frames is None:
                run.say(f"{label}: cannot connect to {run.url} ({exc}); trying again in "
                        f"{wait:g} s")
                if run.stopping.wait(wait):
                    return
                wait = min(BACKOFF[1], wait * 2)
                continue
        except InvalidURI as exc:
            run.finish(Stop(2, f"{run.url}: {exc}"))
            return
        if run.stopping.is_set():
            return
        reason = frames.error if frames is not None else None
        if code is not None and code not in RECONNECT_CODES:
            words = CLOSE_WORDS.get(code)
            run.finish(Stop(1 if code == 4400 or code in CLOSE_WORDS else 2, reason or
                            f"the server closed the connection ({code}"
                            f"{': ' + words if words else ''})"))
            return
        run.say(f"{label}: the connection ended ({code}{': ' + reason if reason else ''}); "
                f"connecting again in {wait:g} s")
        if run.stopping.wait(wait):
            return
        wait = min(BACKOFF[1], wait * 2)


def play_online(spec: str, server: str, token: str, *, games: int = 1,
                max_games: int | None = None,
                say: Callable[[str], None] | None = None,
                request: dict[str, Any] | None = None) -> int:
    """Play ``spec`` at ``server``'s tables as the bot account ``token`` opens, on ``games``
    connections at once (a game each), until ``max_games`` games are over (or for ever);
    ``request``: what each free connection asks for (a ``play_now`` or ``join`` message,
    see :func:`play_now_request`); returns the exit status, having said why it stopped."""
    def show(line: str) -> None:
        print(f"euchre connect: {line}", flush=True)

    speak = say or show
    run = Run(spec, bot_url(server), token, speak, max_games, request)
    threads = [threading.Thread(target=connection, args=(run, i + 1), daemon=True)
               for i in range(games)]
    for t in threads:
        t.start()
    try:
        while not run.stopping.wait(0.2):
            pass
    finally:
        run.stopping.set()
        for t in threads:
            t.join(5)
    outcome = run.outcome or Stop(0, "stopped")
    if outcome.status:
        print(f"euchre connect: {outcome}", file=sys.stderr, flush=True)
    else:
        speak(str(outcome))
    return outcome.status
