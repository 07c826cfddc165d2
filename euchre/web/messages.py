"""Every message the server sends a browser, as msgspec structs tagged by ``type``, and the
functions that build them.

A table's picture (``State``) is built from one :class:`~euchre.SeatView` only: the receiving
seat's, or for a spectator the public view of :mod:`euchre.public_view`. Table facts that are no
card (seat names, the score, whose turn) come from :class:`TableFacts`. So what a connection is
sent is exactly what its view holds, and the hidden-card audit can run on these builders alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from euchre import actions as A
from euchre.actions import action_label, action_to_str
from euchre.cards import NO_TRUMP, SUIT_LETTERS, card_str, sort_hand
from euchre.phases import Phase
from euchre.seats import Seat
from euchre.view import FACE_DOWN, HIDDEN_DISCARD, HIDDEN_SWAP, SeatView, Trick

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
    """One act as the receiver may see it (``card`` only where the receiver saw the card)."""

    seat: Seat
    kind: str
    text: str
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


class ChatLine(msgspec.Struct):
    seat: Seat
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


ServerMessage = Welcome | State | Hint | Chat | Link | Error | Pong

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
    last_event: tuple[int, int, Phase] | None
    """(seat, action, phase) of the latest act, shown to each receiver as it may see it."""
    last_hand: HandSummary | None


def card_list(cards: Any) -> list[str]:
    return [card_str(c) for c in cards]


def trick_info(trick: Trick) -> TrickInfo:
    leader, cards, winner = trick
    return TrickInfo(leader, [(s, card_str(c)) for s, c in cards], winner)


def event(seat: Seat, action: int, viewer: Seat, phase: Phase) -> Event:
    """One act as ``viewer`` may see it: another player's discard or farmer's swap has no
    cards, and a declined declaration (a silent pass before bidding) is shown as nothing."""
    if 0 <= action <= 32:
        return Event(seat, "play", action_label(action), card_str(action))
    if action == HIDDEN_DISCARD or (A.is_discard(action) and viewer != seat):
        return Event(seat, "discard", "discards a card face down")
    if A.is_discard(action):
        card = action - A.DISCARD_BASE
        return Event(seat, "discard", "discard " + action_label(card).split()[-1],
                     card_str(card))
    if action == HIDDEN_SWAP or (action >= A.SWAP_BASE and viewer != seat):
        return Event(seat, "swap", "swaps three low cards with the kitty")
    if phase == Phase.DECLARE and action == A.PASS and viewer != seat:
        return Event(seat, "quiet", "")
    return Event(seat, "bid", action_label(action))


def bid_events(view: SeatView) -> list[Event]:
    """The hand's bidding so far (bids, discards, declarations) as ``view``'s seat saw it.
    Declined declarations of others are already left out of the view's history, so every
    entry is one the viewer saw."""
    return [event(who, a, view.seat, Phase.PLAY) for who, a in view.history if not 0 <= a <= 32]


def legal_action(a: int) -> LegalAction:
    if 0 <= a <= 32:
        return LegalAction(a, action_label(a), action_to_str(a), "play", card_str(a))
    if A.is_discard(a):
        return LegalAction(a, action_label(a), action_to_str(a), "discard",
                           card_str(a - A.DISCARD_BASE))
    return LegalAction(a, action_label(a), action_to_str(a), "bid")


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
    bids = bid_events(view)
    last = None
    if facts.last_event is not None:
        s, a, phase = facts.last_event
        last = event(s, a, viewer, phase)
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
        legal=[legal_action(a) for a in view.legal_actions] if not facts.finished else [],
        scores=facts.scores,
        last=last,
        last_hand=facts.last_hand,
        finished=facts.finished,
        winner=facts.winner,
    )


def hint(seq: int, action: int, why: str, level: str) -> Hint:
    return Hint(seq, action, legal_action(action).text, why, level)


def error(code: str, message: str) -> Error:
    return Error(code, message)
