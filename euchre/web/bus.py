"""Every message between server processes (their PostgreSQL notifications, ``cluster``), typed
as the browser's are (``schemas``): msgspec structs tagged by ``k``, each with its fields and
their types, and one decoder that checks a notification against them (its JSON, its kind, a
missing, extra or mistyped field) before anything acts on it. A notification that fails is
refused whole: the process that heard it changes nothing.

The names on the wire are one or two letters (``field(name=...)``): a notification must stay
under PostgreSQL's 8000 bytes, and a table's announced actions are most of the traffic.
"""

from __future__ import annotations

from typing import Annotated, Final, TypeAlias

import msgspec
from msgspec import field

from euchre.rules import PLAYER_COUNTS
from euchre.web.messages import NOTICE

#: The channel every process listens on (announcements); each also listens on BUS_<its id>.
BUS: Final = "euchre_bus"

#: A seat number as the bus carries it (-1: a spectator's connection).
SeatNo: TypeAlias = Annotated[int, msgspec.Meta(ge=-1, lt=max(PLAYER_COUNTS))]
#: A chat line's seat as the bus carries it (-1: a spectator's; ``NOTICE``: the table's own).
ChatSeat: TypeAlias = Annotated[int, msgspec.Meta(ge=NOTICE, lt=max(PLAYER_COUNTS))]
#: A server process's id in the cluster (random, 31 bits: ``Cluster.id``).
Process: TypeAlias = Annotated[int, msgspec.Meta(ge=1, lt=2**31)]
#: A table's id (``rooms.TABLE_ID_MAX`` characters at most).
TableId: TypeAlias = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
#: A request's number, unique among the sender's calls.
CallId: TypeAlias = Annotated[int, msgspec.Meta(ge=1)]
#: A player's id (a person's or a bot account's).
PlayerId: TypeAlias = Annotated[int, msgspec.Meta(ge=1)]
Count: TypeAlias = Annotated[int, msgspec.Meta(ge=0)]


class BusMessage(msgspec.Struct, tag_field="k", forbid_unknown_fields=True):
    """A message on the bus (every kind below)."""


# announcements (every process hears them) ---------------------------------------------------

class Actions(BusMessage, tag="a"):
    """The owner committed these actions of the table (sent from inside the transaction that
    stores them, ``Store.fenced_write``): (seat, action) from move number ``first``."""

    table: TableId = field(name="t")
    first: Count = field(name="s")
    actions: list[tuple[SeatNo, Count]] = field(name="a")


class SeatState(msgspec.Struct, array_like=True, forbid_unknown_fields=True, frozen=True):
    """One seat as the owner sees it, for the replicas."""

    name: str
    claimed: bool
    present: Count
    """Connections holding it, in every process."""
    stand_in: bool
    token: str
    kind: Annotated[str, msgspec.Meta(pattern="^(human|computer|bot)$")]
    player: PlayerId | None
    from_hand: Count
    """At an open table: the hand from which its person plays it."""


class NextTable(msgspec.Struct, array_like=True, forbid_unknown_fields=True, frozen=True):
    """The table its players go on to (Play again), with each seat's link to it."""

    table: TableId
    tokens: list[str]


class Seats(BusMessage, tag="m"):
    """The owner's seats of the table (after any change of them)."""

    table: TableId = field(name="t")
    owner: Process = field(name="p")
    seats: list[SeatState] = field(name="s")
    started: bool = field(name="g")
    next: NextTable | None = field(default=None, name="n")
    keep: tuple[Count, Count] | None = None
    """The connection (process, its number there) whose new link this change is: it keeps
    its seat while every other holder of the old link is sent away."""
    bots: bool = field(default=False, name="b")
    """An open table whose host lets bot accounts take its free seats."""


class ChatLine(msgspec.Struct, array_like=True, forbid_unknown_fields=True, frozen=True):
    seat: ChatSeat
    name: str
    text: str
    at: float


class Said(BusMessage, tag="c"):
    """A chat line the owner stored."""

    table: TableId = field(name="t")
    line: ChatLine = field(name="l")


class Owner(BusMessage, tag="o"):
    """This process took the table over."""

    table: TableId = field(name="t")
    owner: Process = field(name="p")


class Freed(BusMessage, tag="free"):
    """A stopping process let its tables go: take them now."""

    process: Process = field(name="p")


class BotCalled(BusMessage, tag="bot"):
    """A table needs its bot at a seat: a process with a free connection of it brings one."""

    bot: PlayerId = field(name="b")
    table: TableId = field(name="t")
    seat: SeatNo = field(name="s")


class BotFree(BusMessage, tag="botup"):
    """A connection of the bot is free to play: the tables waiting for it call it."""

    bot: PlayerId = field(name="b")


class Revoked(BusMessage, tag="revoked"):
    """The bot's token was revoked or replaced (sent from that change's transaction)."""

    bot: PlayerId = field(name="b")


# requests to a table's owner and its answers (one process's channel) -------------------------

class Forward(BusMessage, tag="fwd"):
    """A connection's message, relayed from the process that holds the connection."""

    table: TableId = field(name="t")
    origin: Process = field(name="o")
    call: CallId = field(name="r")
    conn: Count = field(name="c")
    seat: SeatNo = field(name="s")
    message: str = field(name="m")
    """The browser's message as it arrived (checked again by the owner, ``schemas``)."""


class Who(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A player as the relaying process's session found them (the owner trusts the bus, not
    the browser, for who they are)."""

    id: PlayerId
    name: str
    kind: str
    merged: tuple[PlayerId, ...] = ()


class Join(BusMessage, tag="join"):
    """Claim a seat by the table's invite (a join, or Play now) at its owner."""

    table: TableId = field(name="t")
    origin: Process = field(name="o")
    call: CallId = field(name="r")
    invite: str
    name: str | None = None
    player: Who | None = field(default=None, name="p")
    seat: SeatNo | None = field(default=None, name="s")
    """That seat (a bot's request for one the lobby lists), else the first free one."""


class Answer(BusMessage, tag="ack"):
    """The owner's answer to a request: done (``ok``: a join's seat and link), refused
    (``err``: what kind and why), or not the owner (``moved``; ``retry``: ask the new one)."""

    call: CallId = field(name="r")
    moved: bool = False
    retry: bool = False
    ok: tuple[SeatNo, str] | None = None
    err: tuple[str, str] | None = None


class Out(BusMessage, tag="out"):
    """What the owner sends one relayed connection: a frame, or a hang-up with ``code``."""

    table: TableId = field(name="t")
    conn: Count = field(name="c")
    text: str = field(name="m")
    code: int = 0


class Presence(BusMessage, tag="pres"):
    """How many of a process's connections hold each seat of the table (and in all)."""

    table: TableId = field(name="t")
    origin: Process = field(name="o")
    seats: list[Count] = field(name="n")
    watching: Count = field(name="w")


Message: TypeAlias = (Actions | Seats | Said | Owner | Freed | BotCalled | BotFree | Revoked
                      | Forward | Join | Answer | Out | Presence)
#: The kinds a request to a table's owner is (each carries its sender and call number).
Request: TypeAlias = Forward | Join
#: The bot links' messages (``botlinks.BotLinks.hear``).
BotMessage: TypeAlias = BotCalled | BotFree | Revoked
KINDS: Final = (Actions, Seats, Said, Owner, Freed, BotCalled, BotFree, Revoked, Forward,
                Join, Answer, Out, Presence)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Message)


class BadMessage(ValueError):
    """A notification that is no message of the bus: what was wrong, in one line."""


def encode(msg: Message) -> str:
    return _encoder.encode(msg).decode()


def decode(payload: str | bytes) -> Message:
    """The message of one notification; ``BadMessage`` saying what is wrong with it (its
    JSON, its kind, a field missing, extra or of the wrong type)."""
    try:
        return _decoder.decode(payload)
    except (msgspec.DecodeError, RecursionError) as exc:  # ValidationError is a DecodeError
        raise BadMessage(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) \
            from None
