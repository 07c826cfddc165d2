"""Every message a browser may send, as msgspec structs tagged by ``type``.

msgspec decodes and validates in one step (wrong type, unknown tag, missing field, extra field,
out-of-range value all raise ``msgspec.ValidationError`` with a path), so the server never looks
at a message that is not one of these shapes. Server-to-client messages are the structs of
``euchre.web.messages``.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Final

import msgspec

#: Longest chat line and display name, in characters.
CHAT_MAX = 200
NAME_MAX = 24
#: Largest websocket text frame the application reads, in bytes (larger ones are refused with an
#: error event; frames above the protocol limit in ``app`` close the connection).
MESSAGE_MAX_BYTES = 4096



#: The format characters emoji sequences are made of, kept where every other one is dropped:
#: the zero-width joiner (👨‍👩‍👧 is three faces and two joiners, 🏳️‍🌈 a flag, a joiner and a
#: rainbow), the non-joiner the same scripts need beside it, and the tag characters of the
#: subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿 is a black flag and six tags).
EMOJI_JOINERS = frozenset("\u200c\u200d")
TAGS = range(0xE0020, 0xE0080)
#: Where the emoji are (Supplemental Symbols and Pictographs, and the blocks beside it): a code
#: point still unassigned in this Python's Unicode data there is most likely an emoji of a later
#: Unicode version (🫨 is Unicode 15), kept, not dropped as an unknown character.
EMOJI_PLANE = range(0x1F000, 0x1FB00)


def _kept(ch: str) -> bool:
    """Whether a character is text someone meant: not a control, not a direction override or
    isolate (which reorder what everybody else reads: "\u202e" turns "gnp.exe" around), not a
    zero-width space, private-use or surrogate code point; except what emoji need."""
    kind = unicodedata.category(ch)
    if kind[0] != "C" or ch in EMOJI_JOINERS or ord(ch) in TAGS:
        return True
    return kind == "Cn" and ord(ch) in EMOJI_PLANE


def clean_text(text: str, limit: int) -> str:
    """Plain text: whitespace runs (newlines and tabs too) collapsed to one space, control and
    format characters dropped except those emoji sequences need (``EMOJI_JOINERS``, tags).
    Markup is kept as typed (the client shows text with textContent, never as HTML)."""
    spaced = "".join(" " if ch.isspace() else ch for ch in text)
    kept = "".join(ch for ch in spaced if _kept(ch))
    return " ".join(kept.split())[:limit]


ActionId = Annotated[int, msgspec.Meta(ge=0, le=1000)]


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    """Take an action (an engine action id, see ``euchre.actions``) for the connection's seat.

    ``seq`` is the number of actions the client had seen; a stale one (a double click, a move
    made against an old picture of the table) is refused instead of applied to a newer state."""

    action: ActionId
    seq: Annotated[int, msgspec.Meta(ge=0)] | None = None


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=CHAT_MAX)]


class Name(msgspec.Struct, tag="name", forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX)]


class Hint(msgspec.Struct, tag="hint", forbid_unknown_fields=True):
    """Ask a computer player what it would do in the seat's place, and why."""


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


class NewLink(msgspec.Struct, tag="new_link", forbid_unknown_fields=True):
    """Replace the seat's link with a new one: the old link (and every connection opened with
    it) stops working, for a link that was shared by mistake."""


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    """Start a table still waiting for people: computers take its empty seats."""


class PlayAgain(msgspec.Struct, tag="play_again", forbid_unknown_fields=True):
    """After the game: a new table with the same seats and rules (one per finished table;
    everyone who asks gets their own seat's link to it)."""


class Back(msgspec.Struct, tag="back", forbid_unknown_fields=True):
    """The person is back: their computer, which played while the turn clock kept running
    out on them, gives the seat back."""


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True):
    """Leave an open table: its computer takes the seat, which is free for the next person."""


class BotsHere(msgspec.Struct, tag="bots", forbid_unknown_fields=True):
    """The host of an open table lets bot accounts take its free seats, or not (where the
    server allows bots)."""

    allowed: bool


ClientMessage = (Act | Chat | Name | Hint | Ping | NewLink | Start | PlayAgain | Back | Leave
                 | BotsHere)

_decoder = msgspec.json.Decoder(ClientMessage)


#: The deepest nesting a client frame may have. Every message is one flat object, so this is
#: plenty; a deeper frame is refused before decoding, so the answer does not depend on how much
#: of the interpreter's recursion limit (which tests and libraries raise and lower) is left.
MAX_DEPTH: Final = 32


def _too_deep(data: str | bytes) -> bool:
    """Whether ``data`` nests arrays and objects deeper than :data:`MAX_DEPTH` (brackets
    inside strings do not count). Only a frame with that many opening brackets is scanned."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def decode_client(data: str | bytes) -> ClientMessage:
    """Decode one client frame; raises ``msgspec.DecodeError``/``ValidationError``.

    Nesting deeper than :data:`MAX_DEPTH` (or than the decoder can follow) is a decode error
    like any other, not a ``RecursionError`` escaping to the server."""
    if _too_deep(data):
        raise msgspec.DecodeError(f"JSON nested too deeply (a message is one flat object; at "
                                  f"most {MAX_DEPTH} levels)")
    try:
        return _decoder.decode(data)
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply (a message is one flat object)") \
            from None


# a bot account's requests (over ``/ws/bot``, beside the bot protocol's answers) ---------------


class BotPlayNow(msgspec.Struct, tag="play_now", forbid_unknown_fields=True):
    """Seat the bot as Play now seats a person: with the people waiting for these rules, or
    at a new open table whose free seats computers play. No preset and no rules: the rules
    most players are waiting for."""

    preset: str = ""
    rules: dict[str, object] = msgspec.field(default_factory=dict)


class BotJoin(msgspec.Struct, tag="join", forbid_unknown_fields=True):
    """Take a free seat (``seat``: that one) at an open table the lobby lists."""

    table: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=5)] | None = None


BotRequest = BotPlayNow | BotJoin
#: The ``type`` of each request a bot's connection may send while it plays no game.
BOT_REQUESTS = ("play_now", "join")

_bot_decoder = msgspec.json.Decoder(BotRequest)


def decode_bot_request(data: str | bytes) -> BotRequest:
    """One bot request (a flat object; raises ``msgspec.DecodeError``/``ValidationError``)."""
    if _too_deep(data):
        raise msgspec.DecodeError(f"JSON nested too deeply (at most {MAX_DEPTH} levels)")
    return _bot_decoder.decode(data)


# HTTP request bodies --------------------------------------------------------------------------

SeatKind = Annotated[str, msgspec.Meta(pattern="^(human|computer|bot)$")]


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """One seat of a new table: a person (the creator or an invited friend), a computer, or a
    bot account (a program playing online, by its account's name)."""

    kind: SeatKind
    level: str | None = None
    """Computer level (one ``euchre.bots.is_level`` accepts); for a person or a bot, the level
    that stands in when they are away."""
    bot: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    """A bot's seat: the bot account's name."""


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    preset: str = "standard"
    rules: dict[str, object] = msgspec.field(default_factory=dict)
    """Options that differ from the preset (``Rules`` field names)."""
    seats: list[SeatSpec] | None = None
    """One per player, seat 0 first (South in four-handed play). Default: the creator in seat 0,
    computers at the default level elsewhere."""
    my_seat: Annotated[int, msgspec.Meta(ge=-1, le=3)] | None = None
    """The creator's seat (a human seat), or -1 to only watch. Default: South (seat 2) in the
    four-handed game, as at the terminal; seat 0 with two or three players."""
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)] | None = None
    """The creator's name at the table; none (or blank): the seat's own name ("South"). A
    signed-in player (or guest) plays under their player's name instead."""
    rated: bool | None = None
    """Rate the game (every seat a player or a computer at a rated level when it ends);
    default: rated whenever the table can be."""


class PlayNow(msgspec.Struct, forbid_unknown_fields=True):
    """Play with whoever is waiting: a seat at an open table with these rules, or a new one
    whose free seats computers play until people come. No preset and no rules: the rules
    most people are waiting for (else the standard game)."""

    preset: str = ""
    rules: dict[str, object] = msgspec.field(default_factory=dict)
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)] | None = None
    """The name at the table for someone playing without a player's name."""
    bots: bool = True
    """Whether bot accounts may sit beside them (where the server allows bots): false seats
    them only at a table with no bot, and a table made for them takes none."""


class LobbyJoin(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)] | None = None
    """The name at the table for someone playing without a player's name."""


class JoinTable(msgspec.Struct, forbid_unknown_fields=True):
    invite: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    name: Annotated[str, msgspec.Meta(max_length=NAME_MAX)] | None = None
    """The friend's name at the table; none (or blank): the seat's own name ("North")."""
