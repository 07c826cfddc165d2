"""The server's settings (``euchre serve`` fills them from its flags)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from euchre.bots import make_bot
from euchre.bots.base import Bot

BotFactory = Callable[[str, int], Bot]

#: Levels whose decisions take microseconds (the rule bot ~0.05 ms, profiled under load). They
#: decide on the event loop: handing one to a worker thread cost ~0.2 ms of submit, wake-up and GIL
#: traffic (20% of the server's time at 800 tables, the decision itself 1%), a worker process
#: far more. Every other level, the search player included, runs in the worker pool, where however
#: long it thinks it holds nothing the event loop needs.
INLINE_LEVELS = frozenset({"random", "beginner", "casual", "club", "rule"})


@dataclass
class ServerConfig:
    db_url: str
    workers: int = 2
    pool: Literal["process", "thread"] = "process"
    away_timeout: float = 45.0
    """Seconds a person's seat may stay empty on its turn before a computer plays it."""
    turn_clock: float = 15.0
    """Seconds a person has for each turn at an open table (Play now's): then the seat's
    computer makes that move; after ``moves.CLOCK_STRIKES`` in a row it plays the seat until
    the person is back."""
    leave_grace: float = 20.0
    """Seconds a person's seat at an open table stays theirs after their last page closed
    (a reload keeps it); then it is free for the next person (its computer plays it
    meanwhile, from the moment they left)."""
    bot_factory: BotFactory = make_bot
    hint_level: str | None = None
    freeze_gc: bool = False
    """Freeze the startup objects and time the garbage collector's full passes itself
    (``euchre.web.collector``): for a process that is only the server."""
    inline_levels: frozenset[str] = INLINE_LEVELS
    """Computer levels that decide on the event loop (see ``INLINE_LEVELS``)."""
    hint_workers: int = 1
    """Workers that work out hints, apart from the computer players' (a process each)."""
    review_workers: int = 2
    """Workers that review finished games (a process each, below the players' priority): the
    hands of one game are reviewed side by side."""
    reviews_at_once: int = 1
    """Games reviewed at once; more wait their turn, shown as queued."""
    reviews_waiting: int = 8
    """Reviews that may wait their turn; more are refused until one is done."""
    hint_rate: float = 0.5
    """Hints a second one seat may ask for on average (bursts of three), all its connections
    together."""
    chat_rate: float = 0.5
    """Chat lines a second one seat may send on average (bursts of five), all its connections
    together."""
    seat_connections: int = 4
    """Connections one seat's link may have open at once (a phone and a laptop, say): the
    seat's own places, which no spectator can take."""
    table_spectators: int = 50
    """Spectator connections one table may have open at once (the seats' places apart)."""
    address_spectators: int = 20
    """Spectator connections one client address may have open at once, over every table."""
    client_tables_per_minute: int = 10
    """Tables one client address may create in a minute."""
    tables_per_minute: int = 120
    """Tables the whole server lets be created in a minute."""
    request_timeout: float = 10.0
    """Seconds a client has to send a request's headers (from its connection, or from the
    previous response on a kept-alive one), and then its body (``euchre.web.guard``)."""
    account_signins: int = 10
    """Failed sign-ins to one account in any 10 minutes (each name counted, whether or not an
    account has it)."""
    address_signins: int = 30
    """Failed sign-ins from one client address in any 10 minutes, to any accounts."""
    computer_tables: int = 20
    """Unfinished tables with no person's seat (computers only, to watch) at once."""
    abandon_days: float = 30.0
    """Days after its last move an unfinished table is closed and archived at start-up
    instead of resumed."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``127.0.0.1``, ``10.0.0.0/8``) of the proxies in front: a
    request from one of them is counted against the client address in its X-Forwarded-For.
    Empty: that header is ignored (nobody can claim another address)."""
    cluster: bool = False
    """Share the database (PostgreSQL) with other server processes: each table has one
    owner process, the others relay to it (``euchre.web.cluster``)."""
    accounts: Literal["open", "closed", "off"] = "open"
    """Accounts: "open" (anyone may sign up), "closed" (the existing ones sign in, no new
    ones) or "off" (guests only)."""
    bots: Literal["invited", "allowed", "off"] = "invited"
    """Bot accounts' programs (``euchre.web.botlinks``): "invited" (they play where a table
    seats them by name), "allowed" (also through the lobby and Play now, at the open tables
    whose host lets bots sit) or "off" (no bot connects, no table seats one)."""
    bot_move_time: float = 10.0
    """Seconds a bot's program may take over one decision."""
    bot_grace: float = 2.0
    """Seconds a bot's seat waits on its turn for a connection of the bot before its computer
    plays for it (until the bot is back)."""
    bot_connections: int = 4
    """Connections one bot may have open at once (a game each), on the whole site."""
    bot_rate: float = 10.0
    """Decisions a second one bot is asked for on average (bursts of three times as many), all
    its connections together, on the whole site."""
    rate: float = 10.0
    """Messages a second one connection may send on average (bursts of ``burst``)."""
    burst: float = 30.0
