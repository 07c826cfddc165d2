"""Every message the server sends a browser, as msgspec structs tagged by ``type``, and the
functions that build them.

A table's picture (``State``) is built from one :class:`~euchre.SeatView` only: the receiving
seat's, or for a spectator the public view of :mod:`euchre.public_view`. Table facts that are no
card (seat names, the score, whose turn) come from :class:`TableFacts`. So what a connection is
sent is exactly what its view holds, and the hidden-card audit can run on these builders alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from euchre import actions as A
from euchre.actions import action_to_str
from euchre.cards import NO_TRUMP, SUIT_LETTERS, card_str, sort_hand
from euchre.narrate import staged
from euchre.phases import Phase
from euchre.seats import Seat, side_of
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView, Trick
from euchre.words import (
    YOU,
    Moment,
    Who,
    action_words,
    capital,
    game_over_title,
    hand_result,
    side,
)

# parts ------------------------------------------------------------------------------------------


class SeatInfo(msgspec.Struct):
    name: str
    kind: str
    level: str
    claimed: bool
    connected: bool
    stand_in: bool
    player: bool = False
    """Held by a player with a name of their own (a guest or an account): their profile is
    ``/players/NAME``."""


class Event(msgspec.Struct, omit_defaults=True):
    """One act as the receiver may see it (``card`` only where the receiver saw the card), in
    words (``euchre.words``): ``text`` the sentence for the log ("You pick it up", "West (rule)
    passes"), ``said`` what the seat's bubble shows ("Pick it up"), ``code`` the action's
    notation (none where the receiver did not see which it was)."""

    seat: Seat
    kind: str
    text: str
    said: str = ""
    code: str = ""
    card: str | None = None


class TrickInfo(msgspec.Struct):
    leader: Seat
    cards: list[tuple[int, str]]
    winner: Seat


class RowCard(msgspec.Struct):
    """A column of a row as anyone sees it: the card lying face up in it (``None`` once both
    were played) and whether a card still lies face down under it."""

    card: str | None
    face_down: bool


class LegalAction(msgspec.Struct, omit_defaults=True):
    """A choice of the receiving seat: ``text`` its words as the button or menu offers it
    ("Pick it up alone", "Play J♠"), ``code`` its notation."""

    id: int
    text: str
    code: str
    kind: str
    card: str | None = None


class HandSummary(msgspec.Struct):
    """A finished hand's public result (never its deal: unplayed cards stay hidden)."""

    dealer: Seat
    trump: str | None
    maker: Seat
    alone: bool
    tricks: list[TrickInfo]
    tricks_won: list[int]
    outcome: str | None
    points: list[int]
    contract: int
    scores_after: list[int]


#: The seat of the table's own lines in its chat (who left a seat, who took one): nobody's.
NOTICE = -2


class ChatLine(msgspec.Struct):
    seat: Seat
    """The seat that said it, -1 a spectator, ``NOTICE`` the table itself."""
    name: str
    text: str
    at: float


# messages ---------------------------------------------------------------------------------------


class Welcome(msgspec.Struct, tag="welcome", tag_field="type"):
    you: Seat
    table: str
    chat: list[ChatLine]
    levels: list[str]
    hint_level: str
    rules: list[str] = msgspec.field(default_factory=list)
    """The table's rules in words (``euchre.rules.rules_summary``), for the rules panel."""


class State(msgspec.Struct, tag="state", tag_field="type"):
    """The whole table as one connection may see it."""

    table: str
    seq: int
    you: Seat
    players: int
    seats: list[SeatInfo]
    seat_names: list[str]
    rules: dict[str, Any]
    target: int
    hand_no: int
    dealer: Seat
    phase: Phase
    turn: Seat | None
    hand: list[str]
    upcard: str | None
    upcard_status: str
    trump: str | None
    maker: Seat
    alone: bool
    lone_defender: Seat
    active: list[int]
    bids: list[Event]
    trick: list[tuple[int, str]]
    tricks: list[TrickInfo]
    tricks_won: list[int]
    hand_sizes: list[int]
    rows: list[list[RowCard]]
    contract: int
    tricks_per_hand: int
    """How many tricks a hand has (twelve with rows, else five): the game's, from its variant."""
    bids_tricks: bool
    """Whether the bidding is an auction of tricks whose highest bid is the contract (rows)."""
    discard: str | None
    swapped_out: list[str]
    legal: list[LegalAction]
    scores: list[int]
    last: Event | None
    last_hand: HandSummary | None
    finished: bool
    winner: Seat | None
    sides: list[str]
    """Each scoring side's name as the receiver reads it ("You & North (rule)")."""
    result: list[str]
    """The last hand's result in words for the receiver: what the makers did and what it
    scored, each side's tricks ("" when nobody played for them), the score; empty before the
    first hand ends."""
    title: str
    """The game's end for the receiver ("East (rule) & West (rule) win 10 – 5!"); empty
    while it is played."""
    again: str = ""
    """Once its players chose to play again: the next table's address for the receiver
    (with the receiver's own seat link; a spectator's only watches)."""
    clock: float | None = None
    """Seconds a person has for this turn at this table, its pace (``table.pace_clock``;
    None: no turn clock)."""
    turn_left: float | None = None
    """Seconds the person to move had left when this was sent (None: no clock runs now)."""
    away_left: float | None = None
    """The person to move is away (no connection holds their seat): seconds from when this
    was sent until their computer plays for them, unless they come back (None: they are
    there, or nobody will step in)."""
    public: bool = False
    """Open to anyone (the lobby's): a free seat is played by its computer until a person
    takes it, from the next hand."""
    next_hand: bool = False
    """The receiver took their seat during this hand: its computer plays it to the end of
    the hand, and they from the next."""
    bots: bool = False
    """An open table that lets bot accounts take its free seats (its host's choice, where
    the server allows bots)."""
    rated: bool = False
    """Created to be rated: a player who leaves before the end is rated with its result."""


class Waiting(msgspec.Struct, tag="waiting", tag_field="type"):
    """A table not dealt yet, its waiting room: who sits where, the rules in words, and
    whether the receiver may start it (a person seated there: computers then take the empty
    seats). It holds no card: nothing is dealt to anyone until the game starts."""

    table: str
    you: Seat
    players: int
    seats: list[SeatInfo]
    seat_names: list[str]
    rules: list[str]
    can_start: bool


class Hint(msgspec.Struct, tag="hint", tag_field="type"):
    seq: int
    action: int
    text: str
    why: str
    level: str


class Chat(msgspec.Struct, tag="chat", tag_field="type"):
    seat: Seat
    name: str
    text: str
    at: float


class Link(msgspec.Struct, tag="link", tag_field="type"):
    """The seat's new link (its token), sent only to the connection that asked for it."""

    token: str
    url: str


class Error(msgspec.Struct, tag="error", tag_field="type"):
    code: str
    message: str


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    pass


class Covered(msgspec.Struct, tag="covered", tag_field="type"):
    """Sent to a person coming back to their seat: what the seat's computer (``level``) did
    for them while they were away, in their words ("You pick it up", "You play J♠"), the
    latest ``COVERED_MAX``, and how many earlier ones are left out."""

    level: str
    moves: list[str]
    earlier: int = 0


ServerMessage = Welcome | State | Waiting | Hint | Chat | Link | Error | Pong | Covered

#: The stand-in's moves a person coming back is told at most (the latest).
COVERED_MAX = 40

_encoder = msgspec.json.Encoder()


def encode(msg: ServerMessage) -> str:
    return _encoder.encode(msg).decode()


# builders ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What every connection at a table is told alike, none of it a card."""

    table: str
    seq: int
    seats: list[SeatInfo]
    seat_names: list[str]
    rules: dict[str, Any]
    target: int
    hand_no: int
    turn: Seat | None
    finished: bool
    winner: Seat | None
    scores: list[int]
    last_event: tuple[int, Moment] | None
    """The latest act and where it was made (its seat, phase, dealer), shown to each receiver
    as it may see it."""
    last_hand: HandSummary | None


def card_list(cards: Any) -> list[str]:
    return [card_str(c) for c in cards]


def trick_info(trick: Trick) -> TrickInfo:
    leader, cards, winner = trick
    return TrickInfo(leader, [(s, card_str(c)) for s, c in cards], winner)


Speaker = Callable[[Seat], Who]
"""Each seat as the receiver names it in a sentence: "You" for its own, else its name."""


def speaker(names: list[str], viewer: Seat) -> Speaker:
    """The receiver's names for the seats: its own seat is "You" (a word for each viewer's own
    page, never a name shown to others)."""
    return lambda seat: YOU if seat == viewer else Who(names[seat])


def event(action: int, at: Moment, viewer: Seat, who: Speaker) -> Event:
    """One act as ``viewer`` may see it, in its words: another player's discard or farmer's
    swap has no cards, and a declined declaration (a silent pass before bidding) is shown as
    nothing."""
    seat = at.seat
    kind, card, shown = "bid", None, action
    if A.is_play(action):
        kind, card = "play", card_str(action)
    elif action == HIDDEN_DISCARD or (A.is_discard(action) and viewer != seat):
        kind, shown = "discard", HIDDEN_DISCARD
    elif A.is_discard(action):
        kind, card = "discard", card_str(action - A.DISCARD_BASE)
    elif action == HIDDEN_SWAP or (action >= A.SWAP_BASE and viewer != seat):
        kind, shown = "swap", HIDDEN_SWAP
    elif at.phase == Phase.DECLARE and action == A.PASS and viewer != seat:
        return Event(seat, "quiet", "")
    code = action_to_str(shown) if shown >= 0 else ""
    return Event(seat, kind, action_words(shown, at, "done", who(seat)),
                 capital(action_words(shown, at)), code, card)


def bid_events(view: SeatView, who: Speaker) -> list[Event]:
    """The hand's bidding so far (bids, discards, declarations) as ``view``'s seat saw it, each
    act in the words of the stage it was made in. Declined declarations of others are already
    left out of the view's history, so every entry is one the viewer saw."""
    acts = staged(view.history, view.rules, view.dealer, viewer=view.seat, upcard=view.upcard)
    return [event(x.action, x.moment(view.upcard), view.seat, who) for x in acts
            if x.stage != Phase.PLAY]


def legal_action(a: int, at: Moment) -> LegalAction:
    """A choice, with its words for the seat that has it."""
    text = capital(action_words(a, at))
    if A.is_play(a):
        return LegalAction(a, text, action_to_str(a), "play", card_str(a))
    if A.is_discard(a):
        return LegalAction(a, text, action_to_str(a), "discard", card_str(a - A.DISCARD_BASE))
    return LegalAction(a, text, action_to_str(a), "bid")


def row_cards(view: SeatView) -> list[list[RowCard]]:
    """Two-handed with rows: each seat's four columns as anyone at the table sees them. The
    face-down card itself is never named: nobody may see it, its owner included. Empty in
    every other game."""
    if not view.rows:
        return []
    played = set(view.played_cards())
    out = []
    for cols in view.rows:
        row = []
        for top, under in cols:
            if under == FACE_DOWN:
                row.append(RowCard(card_str(top), True))
            elif under not in played:
                row.append(RowCard(card_str(under), False))
            else:
                row.append(RowCard(None, False))
        out.append(row)
    return out


def suit_letter(trump: int) -> str | None:
    return SUIT_LETTERS[trump] if trump != NO_TRUMP else None


def hand_summary(view: SeatView, scores_after: list[int]) -> HandSummary:
    """A finished hand's result from its public view."""
    return HandSummary(view.dealer, suit_letter(view.trump), view.maker, view.alone,
                       [trick_info(t) for t in view.tricks], list(view.tricks_won),
                       view.outcome, list(view.points), view.contract, scores_after)


def state(facts: TableFacts, view: SeatView) -> State:
    """The table as ``view``'s seat (or, for a public view, a spectator) may see it."""
    viewer = view.seat
    face_up = set(view.face_up(viewer)) if view.rows and viewer >= 0 else set()
    # rows: the face-up cards are drawn in the row, not in the hand
    hand = card_list(sort_hand([c for c in view.hand if c not in face_up], view.trump))
    names = [x.name for x in facts.seats]
    who = speaker(names, viewer)
    sides = side_whos(view.players, who)
    bids = bid_events(view, who)
    last = None
    if facts.last_event is not None:
        a, at = facts.last_event
        last = event(a, at, viewer, who)
    at_now = Moment.of(view)
    return State(
        table=facts.table,
        seq=facts.seq,
        you=viewer,
        players=view.players,
        seats=facts.seats,
        seat_names=facts.seat_names,
        rules=facts.rules,
        target=facts.target,
        hand_no=facts.hand_no,
        dealer=view.dealer,
        phase=Phase.OVER if facts.finished else view.phase,
        turn=facts.turn,
        hand=hand,
        upcard=card_str(view.upcard) if view.upcard >= 0 else None,
        upcard_status=view.upcard_status,
        trump=suit_letter(view.trump),
        maker=view.maker,
        alone=view.alone,
        lone_defender=view.lone_defender,
        active=list(view.active),
        bids=bids,
        trick=[(s, card_str(c)) for s, c in view.current_trick] if view.phase == Phase.PLAY
        else [],
        tricks=[trick_info(t) for t in view.tricks],
        tricks_won=list(view.tricks_won),
        hand_sizes=[n - len(view.face_up(i)) for i, n in enumerate(view.hand_sizes)],
        rows=row_cards(view),
        contract=view.contract,
        tricks_per_hand=view.variant.tricks_per_hand,
        bids_tricks=view.variant.bids_tricks,
        discard=card_str(view.discard) if view.discard >= 0 else None,
        swapped_out=card_list(view.swapped_out),
        legal=[legal_action(a, at_now) for a in view.legal_actions] if not facts.finished
        else [],
        scores=facts.scores,
        last=last,
        last_hand=facts.last_hand,
        finished=facts.finished,
        winner=facts.winner,
        sides=[w.name for w in sides],
        result=result_lines(facts, view, who, sides),
        title=game_title(facts, sides) if facts.finished else "",
    )


def side_whos(players: int, who: Speaker) -> list[Who]:
    """The scoring sides as subjects: partnerships four-handed ("You & North (rule)"), else
    each seat."""
    if players == 4:
        return [side(who(s), who(s + 2)) for s in (0, 1)]
    return [who(s) for s in range(players)]


def result_lines(facts: TableFacts, view: SeatView, who: Speaker, sides: list[Who]
                 ) -> list[str]:
    """The last finished hand's result for the receiver: "You went alone and made it: You &
    North (rule) +4.", each side's tricks, the score."""
    h = facts.last_hand
    if h is None:
        return []
    four = view.players == 4

    def took(side: int) -> int:
        return h.tricks_won[side] + h.tricks_won[side + 2] if four else h.tricks_won[side]

    lines = []
    if h.outcome == "scored" and h.maker >= 0:
        said = hand_result("scored", who(h.maker), alone=h.alone,
                           tricks=took(side_of(h.maker, view.players)), contract=h.contract,
                           tricks_per_hand=view.variant.tricks_per_hand)
        gains = [f"{sides[i].name} +{p}" for i, p in enumerate(h.points) if p]
        lines.append(f"{said}: {', '.join(gains) if gains else 'nobody scores'}.")
        of = f" of {view.variant.tricks_per_hand}" if view.variant.bids_tricks else ""
        lines.append("Tricks: " + ", ".join(f"{w.name} {took(i)}" for i, w in enumerate(sides))
                     + f"{of}.")
    else:
        said = hand_result(h.outcome or "", YOU, alone=False, tricks=0, players=view.players)
        lines += [f"{said}.", ""]
    lines.append(score_line(sides, h.scores_after, facts.target))
    return lines


def score_line(sides: list[Who], scores: list[int], target: int) -> str:
    return ("Score: " + ", ".join(f"{w.name} {v}" for w, v in zip(sides, scores, strict=True))
            + f" (to {target}).")


def game_title(facts: TableFacts, sides: list[Who]) -> str:
    """The game's end, the winner's score first."""
    w = facts.winner
    if w is None or w < 0:
        return game_over_title(None, facts.scores)
    return game_over_title(sides[w], facts.scores, facts.scores[w])


def hint(seq: int, action: int, why: str, level: str, view: SeatView) -> Hint:
    return Hint(seq, action, legal_action(action, Moment.of(view)).text, why, level)


def error(code: str, message: str) -> Error:
    return Error(code, message)
