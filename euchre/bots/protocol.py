"""The Euchre bot protocol: a computer player in any language, as a child process.

One JSON object per line on the program's stdin and stdout (UTF-8, ``\\n``-terminated), every
object with a ``type``. Version :data:`PROTOCOL_VERSION`. The whole protocol with an example
session is docs/writing-a-bot.md; a JSON Schema per message ships in ``euchre/bots/schemas``.

Host to bot::

    {"type": "hello", "protocol": 1, "host": "euchre 0.1.0"}
    {"type": "new_game", "seat": 2, "seed": 7, "rules": {...every Rules field...}}
    {"type": "decide", "id": 1, "view": {...the seat's view...}}
    {"type": "hand_end", "view": {...}, "outcome": "scored", "points": [0, 2], "scores": [...]}
    {"type": "game_end", "scores": [10, 6], "winner": 0}
    {"type": "quit"}

Bot to host: one ``hello`` answering the host's (``{"type": "hello", "protocol": 1, "name":
"mybot"}``, optionally ``"author"`` and ``"deterministic": true``), and one ``action`` for each
``decide`` (``{"type": "action", "action": "order alone", "explanation": "..."}``) in the
project's action notation (:mod:`euchre.actions`). Nothing else is ever read from it.

Every view the program receives is built by :func:`view_to_json` from that seat's
:class:`~euchre.view.SeatView` and nothing else, so it holds no card the seat cannot know.

Faults never hang or crash the host: a program that exits, is silent past its move time, sends
a line that is not JSON or not the expected message, answers an illegal action or floods its
output is stopped, and :class:`BotFault` says in one line what it sent and what was expected.
Its stderr goes to a log file (:func:`log_path`), never to the screen.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any, BinaryIO, NoReturn, Protocol

from euchre import TERMINAL
from euchre import actions as A
from euchre.bots.base import Bot
from euchre.cards import NO_CARD, NO_TRUMP, NUM_CARD_IDS, card_str, parse_card, parse_suit, suit_str
from euchre.errors import NotationError
from euchre.phases import Phase
from euchre.rules import Rules
from euchre.seats import Seat
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView

PROTOCOL_VERSION = 1
#: Seconds a program may think about one decision unless ``move_time`` says otherwise.
DEFAULT_MOVE_TIME = 10.0
#: Seconds a program has to start and answer the hello (an interpreter may start slowly).
HELLO_TIME = 20.0
#: The longest line a program may send: a view-sized answer is a few dozen bytes.
MAX_LINE = 64 * 1024
#: The longest explanation a program may give with an action (a sentence a table shows).
MAX_EXPLANATION = 300
#: The most a program's stderr log file grows to: past it, the rest of what the program writes
#: there is read and dropped (a line in the log says so), and the next start of a program of the
#: same command moves the full file to ``NAME.log.1`` and begins a new one. So the logs of one
#: command never hold more than twice this, however long a run or chatty a bot.
MAX_LOG = 1024 * 1024
#: Seconds without a decision after which a program that a long-lived host keeps (the browser
#: table's ``euchre serve --bot``) is stopped; a later decision starts it again.
DEFAULT_IDLE = 60.0
#: Where the stderr logs go unless ``log`` names a file.
LOG_DIR_ENV = "EUCHRE_BOT_LOG_DIR"
SCHEMA_DIR = Path(__file__).with_name("schemas")
#: One file per message (``host-hello`` and ``bot-hello`` for the two hellos, the ``type``
#: for the others) and ``view``, which ``decide`` and ``hand_end`` refer to; the last four are
#: online only: a bot account's requests for a seat and the server's answers to them.
SCHEMAS: tuple[str, ...] = (
    "host-hello", "new_game", "decide", "hand_end", "game_end", "quit", "bot-hello", "action",
    "view", "play_now", "join", "seated", "refused",
)
#: One encoder for every line: ``json.dumps`` with options builds a new one per call.
_ENCODE = json.JSONEncoder(separators=(",", ":")).encode
HIDDEN_DISCARD_TEXT = "hidden discard"
HIDDEN_SWAP_TEXT = "hidden swap"


class BotFault(Exception):
    """A protocol bot broke the protocol; the message is the one-line diagnosis. ``kind`` says
    which way (:data:`FAULT_KINDS`), for hosts that treat some faults differently (``euchre
    check-bot`` stops at the first hang rather than wait out every remaining decision)."""

    def __init__(self, message: str, kind: str = "protocol") -> None:
        super().__init__(message)
        self.kind = kind


#: The ways a program fails: ``start`` (cannot be started), ``exit`` (exited or closed its
#: input), ``timeout`` (silent past its time), ``protocol`` (any answer that is not the expected
#: message, an illegal action included).
FAULT_KINDS = ("start", "exit", "timeout", "protocol")


# ---------------------------------------------------------------------------------------------
# Views as JSON


def _texts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    acts = []
    for a in range(A.NUM_ACTIONS):
        try:
            acts.append(A.action_to_str(a))
        except NotationError:
            acts.append("")  # ids between the ranges mean nothing
    return tuple(card_str(c) for c in range(NUM_CARD_IDS)), tuple(acts)


# Looked up, not formatted, per decision: the protocol's cost is mostly this text.
_CARD_TEXT, _ACTION_TEXT = _texts()
_CARD_ID = {t: c for c, t in enumerate(_CARD_TEXT)}
_ACTION_ID = {t: a for a, t in enumerate(_ACTION_TEXT) if t}


def _card(c: int) -> str | None:
    return None if c == NO_CARD else _CARD_TEXT[c]


def _seat(s: int) -> int | None:
    return None if s < 0 else s


def _act(a: int) -> str:
    if a == HIDDEN_DISCARD:
        return HIDDEN_DISCARD_TEXT
    if a == HIDDEN_SWAP:
        return HIDDEN_SWAP_TEXT
    return _ACTION_TEXT[a]


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every rules field with its value (not only those that differ from a default), so a
    program never has to know the defaults."""
    out = {f.name: getattr(rules, f.name) for f in fields(rules)}
    out["scoring"] = asdict(rules.scoring)
    return out


def view_to_json(view: SeatView) -> dict[str, Any]:
    """Every field of ``view`` but ``rules`` (sent once, in ``new_game``), in the protocol's
    notation: cards as ``"JH"``, suits as ``"H"``, actions as ``"order alone"``, and ``null``
    for "none" (no up-card, no trump yet, no maker, no lone defender, no swapper)."""
    cards = _CARD_TEXT
    return {
        "seat": view.seat,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "current_player": _seat(view.current_player),
        "hand": [cards[c] for c in view.hand],
        "upcard": _card(view.upcard),
        "upcard_status": view.upcard_status,
        "trump": None if view.trump == NO_TRUMP else suit_str(view.trump),
        "maker": _seat(view.maker),
        "alone": view.alone,
        "lone_defender": _seat(view.lone_defender),
        "active": list(view.active),
        "history": [[w, _act(a)] for w, a in view.history],
        "tricks": [{"leader": lead, "cards": [[w, cards[c]] for w, c in played],
                    "winner": win} for lead, played, win in view.tricks],
        "current_trick": [[w, cards[c]] for w, c in view.current_trick],
        "tricks_won": list(view.tricks_won),
        "hand_sizes": list(view.hand_sizes),
        "discard": _card(view.discard),
        "swapped_out": [cards[c] for c in view.swapped_out],
        "swapper": _seat(view.swapper),
        "legal_actions": [_ACTION_TEXT[a] for a in view.legal_actions],
        "outcome": view.outcome,
        "points": list(view.points),
        "scores": list(view.scores),
        "rows": [[[cards[top], None if under == FACE_DOWN else cards[under]]
                  for top, under in seat_rows] for seat_rows in view.rows],
    }


def _parse_card(t: str) -> int:
    c = _CARD_ID.get(t)
    return parse_card(t) if c is None else c


def parse_action(text: str) -> int:
    """An action id from its text, canonical (fast) or any alias :mod:`euchre.actions`
    reads; raises NotationError."""
    a = _ACTION_ID.get(text) if isinstance(text, str) else None
    return A.action_from_str(text) if a is None else a


def _uncard(t: str | None) -> int:
    return NO_CARD if t is None else _parse_card(t)


def _unseat(s: int | None) -> int:
    return -1 if s is None else s


def _unact(t: str) -> int:
    if t == HIDDEN_DISCARD_TEXT:
        return HIDDEN_DISCARD
    if t == HIDDEN_SWAP_TEXT:
        return HIDDEN_SWAP
    return parse_action(t)


def view_from_json(data: Mapping[str, Any], rules: Rules) -> SeatView:
    """The :class:`SeatView` a ``decide`` message carries (the inverse of
    :func:`view_to_json`), for programs written in Python."""
    return SeatView(
        rules=rules,
        seat=data["seat"],
        dealer=data["dealer"],
        phase=Phase.of(data["phase"]),
        current_player=TERMINAL if data["current_player"] is None else data["current_player"],
        hand=tuple(_parse_card(c) for c in data["hand"]),
        upcard=_uncard(data["upcard"]),
        upcard_status=data["upcard_status"],
        trump=NO_TRUMP if data["trump"] is None else parse_suit(data["trump"]),
        maker=_unseat(data["maker"]),
        alone=data["alone"],
        lone_defender=_unseat(data["lone_defender"]),
        active=tuple(data["active"]),
        history=tuple((w, _unact(a)) for w, a in data["history"]),
        tricks=tuple((t["leader"], tuple((w, _parse_card(c)) for w, c in t["cards"]),
                      t["winner"]) for t in data["tricks"]),
        current_trick=tuple((w, _parse_card(c)) for w, c in data["current_trick"]),
        tricks_won=tuple(data["tricks_won"]),
        hand_sizes=tuple(data["hand_sizes"]),
        discard=_uncard(data["discard"]),
        swapped_out=tuple(_parse_card(c) for c in data["swapped_out"]),
        swapper=_unseat(data["swapper"]),
        legal_actions=tuple(parse_action(a) for a in data["legal_actions"]),
        outcome=data["outcome"],
        points=tuple(data["points"]),
        scores=tuple(data["scores"]),
        rows=tuple(tuple((_parse_card(top), FACE_DOWN if under is None else _parse_card(under))
                         for top, under in seat_rows) for seat_rows in data["rows"]),
    )


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one message (see :data:`SCHEMAS`)."""
    if name not in SCHEMAS:
        raise ValueError(f"no schema {name!r}; the messages are {', '.join(SCHEMAS)}")
    data: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def schema_for(message: Mapping[str, Any], sender: str) -> str:
    """The schema name of a message sent by ``"host"`` or ``"bot"``."""
    kind = message.get("type")
    if kind == "hello":
        return f"{sender}-hello"
    return str(kind)


# ---------------------------------------------------------------------------------------------
# The messages, whatever carries them
#
# A host's half of the conversation, as pure functions: the child process below (``cmd:``
# bots, one message a line on a pipe) and the browser table's websocket (bot accounts online,
# one message a frame, ``euchre.web.botlinks``) build every message and judge every answer
# here, so the two transports cannot drift apart. A transport adds only its framing (a line
# end, a frame), its clock, and what it does with a fault (stop the process, close the
# connection).


class ProtocolError(Exception):
    """What a program did wrong, in words that follow its name ("answered ..., which is not
    legal ..."): the transport says who the program is and what it did about it. ``kind``:
    see :data:`FAULT_KINDS`."""

    def __init__(self, what: str, kind: str = "protocol") -> None:
        super().__init__(what)
        self.kind = kind


HELLO_EXPECTED = '{"type": "hello", "protocol": 1, "name": ...}'
QUIT_LINE = '{"type":"quit"}'


def host_hello(move_time: float | None = None) -> dict[str, Any]:
    """The host's first message (with the seconds a decision may take, when it says)."""
    out: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION, "host": _host_name()}
    if move_time is not None:
        out["move_time"] = move_time
    return out


def check_hello(hello: Mapping[str, Any]) -> tuple[str | None, bool]:
    """The program's name (None if it gave none) and whether it says it is deterministic,
    from its answer to the hello; raises :class:`ProtocolError`."""
    if hello.get("type") != "hello":
        raise ProtocolError(f"answered the hello with {_shown(json.dumps(hello))}; expected "
                            f"{HELLO_EXPECTED}")
    version = hello.get("protocol")
    if version != PROTOCOL_VERSION:
        raise ProtocolError(f"speaks protocol {version!r}; this host speaks {PROTOCOL_VERSION}")
    name = hello.get("name")
    shown = name.strip()[:40] if isinstance(name, str) and name.strip() else None
    return shown, hello.get("deterministic") is True


def new_game(seat: Seat, seed: int | None, rules: Rules, **extra: Any) -> dict[str, Any]:
    """A new game for the program (``extra``: what a transport adds, such as the online
    table's id)."""
    return {"type": "new_game", "seat": seat, "seed": seed, "rules": rules_to_json(rules),
            **extra}


def decide_line(decision: int, view: SeatView) -> str:
    """The ``decide`` message for ``view`` as one line of JSON (no line end)."""
    return f'{{"type":"decide","id":{decision},"view":{_ENCODE(view_to_json(view))}}}'


def expected_answer(view: SeatView) -> str:
    """What a decision's answer should be, for a diagnosis."""
    return ('{"type": "action", "action": ...} with one of: '
            + ", ".join(A.action_to_str(a) for a in view.legal_actions[:8])
            + (", ..." if len(view.legal_actions) > 8 else ""))


def check_answer(answer: Mapping[str, Any], decision: int, view: SeatView) -> tuple[int, str]:
    """The action (and the explanation, "" for none) a program answered decision number
    ``decision`` about ``view`` with; raises :class:`ProtocolError` saying what is wrong."""
    if answer.get("type") != "action" or not isinstance(answer.get("action"), str):
        raise ProtocolError(f"answered a decision with {_shown(json.dumps(answer))}; expected "
                            f"{expected_answer(view)}")
    if "id" in answer and answer["id"] != decision:
        raise ProtocolError(f"answered decision {answer['id']!r} when asked decision {decision}")
    text = answer["action"]
    try:
        action = parse_action(text)
    except NotationError as exc:
        raise ProtocolError(f"answered {_shown(text)}, which is not an action ({exc})") from None
    if action not in view.legal_actions:
        raise ProtocolError(
            f"answered {_shown(text)}, which is not legal in phase {view.phase}; expected one "
            f"of: {', '.join(map(A.action_to_str, view.legal_actions))}")
    why = answer.get("explanation")
    if why is not None and not isinstance(why, str):
        raise ProtocolError(f"sent an explanation that is not text ({_shown(json.dumps(why))})")
    if why is not None and len(why) > MAX_EXPLANATION:
        raise ProtocolError(f"sent an explanation of {len(why)} characters, starting "
                            f"{_shown(why)}; one is at most {MAX_EXPLANATION}")
    return action, why.strip() if why is not None else ""


def hand_end(view: SeatView) -> dict[str, Any]:
    """How a hand ended: the seat's final view, with the score before it."""
    return {"type": "hand_end", "view": view_to_json(view), "outcome": view.outcome,
            "points": list(view.points), "scores": list(view.scores)}


def game_end(scores: tuple[int, ...] | list[int], winner: Seat | None) -> dict[str, Any]:
    """The game is over (``winner``: a side, or None)."""
    return {"type": "game_end", "scores": list(scores),
            "winner": None if winner is None or winner < 0 else winner}


def parse_message(data: bytes | str, expecting: Callable[[], str]) -> dict[str, Any]:
    """One message (a line without its end, or a frame) as a JSON object; raises
    :class:`ProtocolError` for one over :data:`MAX_LINE`, not JSON, or not an object."""
    if len(data) > MAX_LINE:
        raise ProtocolError(f"flooded its output: a message of {len(data)} bytes, starting "
                            f"{_shown(data)}; expected {expecting()}")
    try:
        message = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"sent {_shown(data)}, which is not JSON; expected "
                            f"{expecting()}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"sent {_shown(data)}, not a JSON object; expected {expecting()}")
    return message


# ---------------------------------------------------------------------------------------------
# The child process


def command_words(command: str) -> list[str]:
    """A ``cmd:`` spec's command line as program and arguments (shell quoting, no shell);
    raises ValueError for an empty or badly quoted one."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cmd:{command}: {exc} (quote as in a shell)") from None
    if not words:
        raise ValueError("cmd: needs a command line, e.g. cmd:node examples/bot.js")
    return words


def log_path(command: str, log: str | None = None) -> Path:
    """The file a program's stderr is appended to: ``log``, else one per command in
    ``$EUCHRE_BOT_LOG_DIR`` (or the system's temporary directory)."""
    if log:
        return Path(log)
    base = Path(os.environ.get(LOG_DIR_ENV) or Path(tempfile.gettempdir()) / "euchre-bots")
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", command).strip("-")[:60] or "bot"
    return base / f"{slug}.log"


def _shown(data: bytes | str, limit: int = 80) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.rstrip("\n")
    text = text if len(text) <= limit else text[:limit - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


class BotProcess:
    """One running program: its pipes, a line reader with a deadline, and a clean stop."""

    def __init__(self, command: str, log: str | None = None) -> None:
        self.command = command
        self.words = command_words(command)
        self.log = log_path(command, log)
        self.name = self.words[0]
        self.deterministic = False
        self.session: tuple[Any, ...] | None = None
        """(rules, seat, seed) of the last ``new_game`` sent."""
        self._buf = b""
        self.proc: subprocess.Popen[bytes] | None = None
        self._drain: threading.Thread | None = None
        self.busy = False
        """A decision or notice is under way (the idle reaper leaves it alone)."""
        self.last_used = time.monotonic()

    def label(self) -> str:
        return f"bot {self.name!r} (cmd:{self.command})"

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        _rotate_full_log(self.log)
        _append_log(self.log, f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} cmd:{self.command}\n"
                    .encode())
        try:
            self.proc = subprocess.Popen(
                self.words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, start_new_session=True, close_fds=True)
        except OSError as exc:
            raise BotFault(f"cmd:{self.command}: cannot start {self.words[0]!r}: "
                           f"{exc.strerror or exc}", "start") from None
        assert self.proc.stderr is not None
        # Read by a thread of its own, so a program that writes more than a pipe holds never
        # waits on us, and what it writes past MAX_LOG is dropped rather than kept.
        self._drain = threading.Thread(target=_drain_stderr, args=(self.proc.stderr, self.log),
                                       daemon=True, name="euchre-bot-stderr")
        self._drain.start()
        self.send(host_hello())
        hello = self.read(HELLO_TIME, "its hello", limit="the hello time")
        try:
            name, self.deterministic = check_hello(hello)
        except ProtocolError as exc:
            self.fail(str(exc), exc.kind)
        self.name = name or self.name

    @property
    def alive(self) -> bool:
        """Running, as far as a check without a system call can tell (a program that died
        since is found out by the next write or read, and diagnosed)."""
        return self.proc is not None and self.proc.returncode is None

    def still_running(self) -> bool:
        """Running, asked of the system (at the start of a game, not per decision)."""
        return self.proc is not None and self.proc.poll() is None

    def fail(self, what: str, kind: str = "protocol") -> NoReturn:
        """Stop the program and raise the diagnosis (``kind``: see :data:`FAULT_KINDS`)."""
        self.stop(polite=False)
        raise BotFault(f"{self.label()} {what}; stopped (its stderr: {self.log})", kind)

    def send(self, message: Mapping[str, Any]) -> None:
        self.send_line(_ENCODE(message))

    def send_line(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        data = (line + "\n").encode()
        try:
            fd = self.proc.stdin.fileno()
            while data:
                data = data[os.write(fd, data):]
        except (BrokenPipeError, ValueError, OSError):
            self.fail(self._exit_text("before reading what was sent"), "exit")

    def _exit_text(self, when: str) -> str:
        assert self.proc is not None
        try:
            code = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return f"closed its input {when}"
        how = f"killed by signal {-code}" if code < 0 else f"status {code}"
        return f"exited ({how}) {when}"

    def read(self, timeout: float, expecting: str | Callable[[], str],
             limit: str = "the move time") -> dict[str, Any]:
        """The next line as a JSON object, within ``timeout`` seconds; ``expecting`` says
        what was expected, in a diagnosis (a callable: built only when one is needed), and
        ``limit`` what the timeout is called there."""
        if callable(expecting):
            return self._read(timeout, expecting, limit)
        text = expecting
        return self._read(timeout, lambda: text, limit)

    def _read(self, timeout: float, expecting: Callable[[], str],
              limit: str) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            if len(self._buf) > MAX_LINE:
                self.fail(f"flooded its output: more than {MAX_LINE} bytes without a line "
                          f"end, starting {_shown(self._buf)}; expected {expecting()}")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self.fail(f"sent nothing for {timeout:g} s ({limit}); expected "
                          f"{expecting()}", "timeout")
            chunk = os.read(fd, 65536)
            if not chunk:
                self.fail(self._exit_text(f"while the host waited for {expecting()}"), "exit")
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        if self._buf.strip() and len(line) <= MAX_LINE:
            self.fail(f"sent a second line, {_shown(self._buf)}, after {_shown(line)}; one "
                      f"line was expected: {expecting()}")
        try:
            return parse_message(line, expecting)
        except ProtocolError as exc:
            self.fail(str(exc), exc.kind)

    def stop(self, polite: bool = True) -> None:
        """Ask it to quit (when ``polite``), then kill what is left of it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if polite and proc.poll() is None and proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                os.write(proc.stdin.fileno(), QUIT_LINE.encode() + b"\n")
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.2 if polite else 0)
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: children go with it
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(2)
        if self._drain is not None:
            self._drain.join(2)  # the last of its stderr is in the log before anyone reads it


_LOG_CUT = (b"\n--- this log reached %d bytes: the rest of this program's stderr is dropped "
            b"(the next start of the command begins a new log, keeping this one as .log.1)\n"
            % MAX_LOG)


def _append_log(path: Path, data: bytes) -> None:
    """Append to a program's log, up to :data:`MAX_LOG`; the write that reaches it ends with a
    line saying so, the writes after it are dropped. Locked, because every worker process of a
    tournament appends to the same file."""
    with open(path, "ab") as out:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX)
        try:
            room = MAX_LOG - os.fstat(out.fileno()).st_size
            if room <= 0:
                return
            out.write(data if len(data) < room else data[:room] + _LOG_CUT)
        finally:
            fcntl.flock(out.fileno(), fcntl.LOCK_UN)


def _rotate_full_log(path: Path) -> None:
    """A log that reached :data:`MAX_LOG` becomes ``NAME.log.1`` (replacing an older one), so
    a new start writes to a fresh file and the command's logs stay within twice the limit."""
    with contextlib.suppress(OSError), open(path, "ab") as out:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX)
        try:
            mine = os.fstat(out.fileno())
            # The same file still: another process may have just moved it aside.
            if mine.st_size >= MAX_LOG and os.stat(path).st_ino == mine.st_ino:
                os.replace(path, path.with_name(path.name + ".1"))
        finally:
            fcntl.flock(out.fileno(), fcntl.LOCK_UN)


def _drain_stderr(stream: BinaryIO, path: Path) -> None:
    """Copy a program's stderr into its log until the program closes it (exits or is
    stopped), dropping what goes past the limit but reading on, so the program never blocks."""
    fd = stream.fileno()
    try:
        while chunk := os.read(fd, 65536):
            with contextlib.suppress(OSError):
                _append_log(path, chunk)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()


def _host_name() -> str:
    try:
        from importlib.metadata import version

        return f"euchre {version('euchre')}"
    except Exception:  # pragma: no cover - run from a source tree without metadata
        return "euchre"


#: Running programs of this process by (command, log, seat, thread): started once per
#: seat-player and kept for the whole run (each worker process of a tournament has its own, and
#: each thread of a thread pool, so two decisions never share one program's pipes).
_PROCESSES: dict[tuple[str, str | None, int, int], BotProcess] = {}


#: Guards the table against the idle reaper: a program is taken out of it (or marked busy)
#: under this lock, so the reaper never stops one that a decision is using.
_LOCK = threading.Lock()
_reaper: threading.Thread | None = None
_idle_limit = DEFAULT_IDLE


def running_pids() -> list[int]:
    """Process ids of the programs this process keeps running (for measurements)."""
    with _LOCK:
        return [p.proc.pid for p in _PROCESSES.values() if p.proc is not None]


def stop_all() -> None:
    """Stop every program this process started (at exit, and for tests)."""
    while True:
        with _LOCK:
            if not _PROCESSES:
                return
            _, proc = _PROCESSES.popitem()
        proc.stop()


def stop_idle(seconds: float) -> int:
    """Stop the programs that have had no decision or notice for ``seconds``; how many."""
    now = time.monotonic()
    with _LOCK:
        idle = [k for k, p in _PROCESSES.items() if not p.busy and now - p.last_used >= seconds]
        procs = [_PROCESSES.pop(k) for k in idle]
    for proc in procs:
        proc.stop()
    return len(procs)


def stop_when_idle(seconds: float = DEFAULT_IDLE) -> None:
    """In a long-lived host (the browser table's worker processes), stop every program that
    has been idle for ``seconds``: a finished or abandoned table's programs do not live on until
    the server stops. A table that goes on starts its program again (with a ``new_game``) at
    its next decision. Starts one daemon thread per process; a second call can only shorten
    the limit."""
    global _reaper, _idle_limit
    if not seconds > 0:
        raise ValueError(f"an idle limit is a positive number of seconds, not {seconds!r}")
    with _LOCK:
        _idle_limit = min(_idle_limit, seconds) if _reaper is not None else seconds
        if _reaper is not None:
            return
        _reaper = threading.Thread(target=_reap, daemon=True, name="euchre-bot-reaper")
    _reaper.start()


def _reap() -> None:
    while True:
        time.sleep(min(5.0, _idle_limit / 4))
        stop_idle(_idle_limit)


atexit.register(stop_all)

FaultHandler = Callable[[str, SeatView], Bot | None]
_fault_handler: FaultHandler | None = None


def set_fault_handler(handler: FaultHandler | None) -> None:
    """What a protocol bot does after a fault: ``handler(diagnosis, view)`` returns the bot
    that takes the seat over (``euchre play``: the default computer, with a message), or None
    to raise :class:`BotFault` (the tournament scores the deal as a forfeit)."""
    global _fault_handler
    _fault_handler = handler


class ProtocolBot:
    """A :class:`~euchre.bots.base.Bot` whose decisions come from a program (``cmd:`` specs).

    Each instance is one game to the program (``new_game`` on its first decision); the program
    itself is shared by every instance of the same command and seat in this process."""

    def __init__(self, command: str, seed: int | None = None, *, move_time: float | None = None,
                 log: str | None = None) -> None:
        command_words(command)  # a bad command line is refused before anything starts
        if move_time is not None and not 0 < move_time <= 3600:
            raise ValueError(f"move_time must be 0 to 3600 seconds, not {move_time!r}")
        self.command = command
        self.seed = seed
        self.move_time = move_time or DEFAULT_MOVE_TIME
        self.log = log
        self.name = f"cmd:{command}"
        self.deterministic = False
        self.explanation = ""
        self.replacement: Bot | None = None
        self._started: set[int] = set()
        self._ids = 0
        self._last: tuple[int, SeatView] | None = None

    def _key(self, seat: Seat) -> tuple[str, str | None, int, int]:
        return (self.command, self.log, seat, threading.get_ident())

    def _process(self, seat: Seat) -> BotProcess:
        """This seat's program, started if need be, marked busy until :meth:`_release`."""
        key = self._key(seat)
        with _LOCK:
            proc = _PROCESSES.get(key)
            if proc is not None and not (proc.alive if self._ids else proc.still_running()):
                del _PROCESSES[key]
                proc = None
            if proc is not None:
                proc.busy = True
        if proc is None:
            proc = BotProcess(self.command, self.log)
            proc.busy = True
            proc.start()
            with _LOCK:
                _PROCESSES[key] = proc
        self.deterministic = proc.deterministic
        return proc

    @staticmethod
    def _release(proc: BotProcess) -> None:
        proc.last_used = time.monotonic()
        proc.busy = False

    def _drop(self, seat: Seat) -> None:
        with _LOCK:
            proc = _PROCESSES.pop(self._key(seat), None)
        if proc is not None:
            proc.stop(polite=False)

    def _begin(self, proc: BotProcess, view: SeatView) -> None:
        session = (view.rules, view.seat, self.seed, id(self))
        if proc.session != session:
            proc.send(new_game(view.seat, self.seed, view.rules))
            proc.session = session

    def choose(self, view: SeatView) -> int:
        if self.replacement is not None:
            return self.replacement.choose(view)
        try:
            return self._ask(view)
        except BotFault as fault:
            self._drop(view.seat)
            handler = _fault_handler
            taker = handler(str(fault), view) if handler is not None else None
            if taker is None:
                raise
            self.replacement = taker
            return taker.choose(view)

    def _ask(self, view: SeatView) -> int:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has nothing to decide: it is not its turn "
                             f"(phase {view.phase})")
        proc = self._process(view.seat)
        try:
            return self._decide(proc, view)
        finally:
            self._release(proc)

    def _decide(self, proc: BotProcess, view: SeatView) -> int:
        self._begin(proc, view)
        self._ids += 1
        proc.send_line(decide_line(self._ids, view))
        answer = proc.read(self.move_time, lambda: expected_answer(view))
        try:
            action, self.explanation = check_answer(answer, self._ids, view)
        except ProtocolError as exc:
            proc.fail(str(exc), exc.kind)
        self._last = (action, view)
        return action

    def explain(self, view: SeatView) -> str:
        if self.replacement is not None:
            return self.replacement.explain(view)
        if self._last is None or self._last[1] != view:
            self.choose(view)
        return self.explanation or f"{self.name} chose this."

    def _notify(self, seat: Seat, message: dict[str, Any], view: SeatView | None = None) -> None:
        """Send a notice (no answer is read). With a ``view``, a program that has not decided
        yet in this game is started and told of the game first, so it hears of every hand."""
        if self.replacement is not None:
            return
        try:
            if view is not None:
                proc = self._process(seat)
            else:
                with _LOCK:
                    found = _PROCESSES.get(self._key(seat))
                    if found is None or not found.alive or found.session is None \
                            or found.session[3] != id(self):
                        return
                    found.busy = True
                proc = found
            try:
                if view is not None:
                    self._begin(proc, view)
                proc.send(message)
            finally:
                self._release(proc)
        except BotFault:
            self._drop(seat)

    def hand_over(self, view: SeatView) -> None:
        """Tell the program how a hand ended (its seat's final view, with the score)."""
        self._notify(view.seat, hand_end(view), view)

    def game_over(self, seat: Seat, scores: tuple[int, ...], winner: Seat | None) -> None:
        """Tell the program the game is over and who won (a side, or null)."""
        self._notify(seat, game_end(scores, winner))


def tell_hand_over(bot: object, view: SeatView) -> None:
    """Tell a bot that takes notices (a protocol bot does) how a hand ended."""
    notify = getattr(bot, "hand_over", None)
    if callable(notify):
        notify(view)


def tell_game_over(bot: object, seat: Seat, scores: tuple[int, ...], winner: Seat | None) -> None:
    """Tell a bot that takes notices that its game is over."""
    notify = getattr(bot, "game_over", None)
    if callable(notify):
        notify(seat, scores, winner)


# ---------------------------------------------------------------------------------------------
# The program side, for bots written in Python


class Lines(Protocol):
    """What carries a program's messages (its side of a transport): ``recv`` the host's next
    message (None once it is gone), ``send`` one of the program's."""

    def recv(self) -> str | bytes | None: ...

    def send(self, text: str) -> None: ...


class PipeLines:
    """One message a line, on a pair of byte streams (stdin and stdout)."""

    def __init__(self, inp: BinaryIO, out: BinaryIO) -> None:
        self.inp, self.out = inp, out

    def recv(self) -> bytes | None:
        return self.inp.readline() or None

    def send(self, text: str) -> None:
        self.out.write(text.encode() + b"\n")
        self.out.flush()


def serve(make: Callable[[int | None], Bot], name: str, *, stdin: BinaryIO | None = None,
          stdout: BinaryIO | None = None, deterministic: bool = False,
          lines: Lines | None = None) -> int:
    """Speak the protocol with bots from ``make(seed)``: on stdin/stdout (the reference
    program, ``python -m euchre.bots.host LEVEL``, and what ``euchre bench bot-protocol``
    times), or on ``lines`` (``euchre connect``: a websocket to a server). Each ``new_game``
    makes a new bot; ``hand_end`` and ``game_end`` reach a bot that takes notices."""
    channel = lines or PipeLines(stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
    rules = Rules()
    bot: Bot | None = None
    seat = 0
    while (line := channel.recv()) is not None:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "decide":
            if bot is None:
                bot = make(None)
            action = bot.choose(view_from_json(message["view"], rules))
            channel.send(f'{{"type":"action","id":{int(message["id"])},'
                         f'"action":"{_ACTION_TEXT[action]}"}}')
        elif kind == "hello":
            channel.send(_ENCODE({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name,
                                  "deterministic": deterministic}))
        elif kind == "new_game":
            rules = Rules.from_dict(message["rules"])
            seat = message["seat"]
            bot = make(message.get("seed"))
        elif kind == "hand_end" and bot is not None:
            tell_hand_over(bot, view_from_json(message["view"], rules))
        elif kind == "game_end" and bot is not None:
            tell_game_over(bot, seat, tuple(message["scores"]), message["winner"])
        elif kind == "quit":
            break
    return 0
