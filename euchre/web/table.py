"""One live table: a :class:`~euchre.Match` rebuilt from its action log, its seats, and the
messages each connection may receive.

Nothing here decides a rule: an action is handed to ``Match.apply_action`` and the engine's own
refusal text is what the player reads. What this module adds is who may see what: a seat's
message is built from that seat's :class:`~euchre.SeatView` only, and a spectator's from the
public acts only (no hand, no kitty, no discard, no farmer's swap), so no connection is ever sent
a card it could not see at a real table.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from euchre import actions as A
from euchre.actions import action_label, action_to_str
from euchre.cards import NO_TRUMP, SUIT_LETTERS, card_str, sort_hand
from euchre.match import Match
from euchre.record import match_to_record
from euchre.rules import Rules
from euchre.state import (
    DECLARE,
    MISDEAL_REDEAL,
    PHASE_NAMES,
    PLAY,
    UPCARD_STATUS_NAMES,
    HandState,
    seat_name,
)
from euchre.view import HIDDEN_DISCARD, HIDDEN_SWAP, SeatView, public_history
from euchre.web.store import SeatData, TableData

SPECTATOR = -1

#: Seat names shown before anyone picks a display name.
DEFAULT_COMPUTER_NAMES = ("South", "West", "North", "East")


@dataclass
class Seat:
    """A seat: a person (creator or friend) or a computer at ``level``.

    A person's seat is played by a computer at ``level`` while ``stand_in`` is set: after nobody
    has been connected to it for the table's away timeout while it was that seat's turn. The
    person takes it back simply by connecting with the seat's token."""

    seat: int
    token: str
    kind: str
    level: str
    name: str
    claimed: bool
    connections: int = 0
    away_since: float = field(default_factory=time.monotonic)
    stand_in: bool = False
    left_at: float | None = None
    """What the database holds as the moment the seat became empty (wall clock)."""

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.stand_in

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level,
                "claimed": self.claimed, "connected": self.connections > 0,
                "stand_in": self.stand_in}


class TurnError(Exception):
    """An act the engine never sees: not this connection's turn, a stale picture, no seat."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def card_list(cards: Any) -> list[str]:
    return [card_str(c) for c in cards]


def trick_json(trick: tuple[int, tuple[tuple[int, int], ...], int]) -> dict[str, Any]:
    leader, cards, winner = trick
    return {"leader": leader, "cards": [[s, card_str(c)] for s, c in cards], "winner": winner}


def event_json(seat: int, action: int, viewer: int, phase: int) -> dict[str, Any]:
    """One act as ``viewer`` may see it: another player's discard or farmer's swap has no
    cards, and a declined declaration (a silent pass before bidding) is not shown at all."""
    if 0 <= action <= 32:
        return {"seat": seat, "kind": "play", "card": card_str(action),
                "text": action_label(action)}
    if action == HIDDEN_DISCARD or (A.is_discard(action) and viewer != seat):
        return {"seat": seat, "kind": "discard", "text": "discards a card face down"}
    if A.is_discard(action):
        return {"seat": seat, "kind": "discard", "card": card_str(action - A.DISCARD_BASE),
                "text": "discard " + action_label(action - A.DISCARD_BASE).split()[-1]}
    if action == HIDDEN_SWAP or (action >= A.SWAP_BASE and viewer != seat):
        return {"seat": seat, "kind": "swap", "text": "swaps three low cards with the kitty"}
    if phase == DECLARE and action == A.PASS and viewer != seat:
        return {"seat": seat, "kind": "quiet", "text": ""}
    return {"seat": seat, "kind": "bid", "text": action_label(action)}


def spectator_history(h: HandState) -> list[tuple[int, int]]:
    """The acts of this hand anyone at the table sees: no declined declaration, no discarded or
    swapped card (the same rules as ``make_view``, for a seat that holds no cards)."""
    n_decl = len(h.history) if h.phase == DECLARE or h.outcome == MISDEAL_REDEAL else h.bid_start
    decl = [(w, a if a < A.SWAP_BASE else HIDDEN_SWAP)
            for w, a in h.history[:n_decl] if a != A.PASS]
    return decl + list(public_history(h.history[n_decl:], SPECTATOR))


def rows_json(h: HandState) -> list[list[dict[str, Any]]]:
    """Two-handed with rows: each seat's four columns as anyone at the table sees them: the
    card lying face up in it (``None`` once both were played) and whether a card still lies face
    down under it. The face-down card itself is never named: nobody may see it, its owner
    included. Empty in every other game."""
    if not h.columns:
        return []
    out = []
    for seat, cols in enumerate(h.columns):
        held = h.hands[seat]
        row: list[dict[str, Any]] = []
        for top, under in cols:
            if held >> top & 1:
                row.append({"card": card_str(top), "face_down": True})
            elif held >> under & 1:
                row.append({"card": card_str(under), "face_down": False})
            else:
                row.append({"card": None, "face_down": False})
        out.append(row)
    return out


def replay_rows(h: HandState) -> list[list[dict[str, Any]]]:
    """The replay's rows: as :func:`rows_json`, and (the game being over) the card still face
    down under each column too."""
    out = rows_json(h)
    for seat, row in enumerate(out):
        for col, (_, under) in zip(row, h.columns[seat], strict=True):
            if col["face_down"]:
                col["under"] = card_str(under)
    return out


def hand_summary(h: HandState, scores_after: tuple[int, ...]) -> dict[str, Any]:
    """A finished hand's public result (never its deal: unplayed cards stay hidden)."""
    return {
        "dealer": h.dealer,
        "trump": SUIT_LETTERS[h.trump] if h.trump != NO_TRUMP else None,
        "maker": h.maker,
        "alone": h.alone,
        "tricks": [trick_json(t) for t in h.tricks],
        "tricks_won": list(h.tricks_won),
        "outcome": h.outcome,
        "points": list(h.points),
        "contract": h.contract,
        "scores_after": list(scores_after),
    }


class Table:
    """A match and its seats. Callers hold ``lock`` (in ``app``) around every change."""

    def __init__(self, data: TableData) -> None:
        self.id = data.id
        self.created_at = data.created_at
        self.rules = Rules.from_dict(data.rules)
        self.rules_dict = self.rules.to_dict()
        self.seed = data.seed
        self.invite = data.invite
        wall, mono = time.time(), time.monotonic()
        # A seat empty since a stored moment has been away since then (a restart does not
        # start its away timer again); one held when the server stopped, since now.
        self.seats = [Seat(s.seat, s.token, s.kind, s.level, s.name, s.claimed,
                           away_since=mono if s.left_at is None
                           else mono - max(0.0, wall - s.left_at), left_at=s.left_at)
                      for s in data.seats]
        self.match = Match(self.rules, seed=data.seed)
        self.log: list[tuple[int, int]] = []
        self.last_hand: dict[str, Any] | None = None
        self.last_event: tuple[int, int, int] | None = None
        """(seat, action, phase the act was made in) of the latest act."""
        for seat, action in data.actions:
            self.apply(seat, action)
        self.chat: list[dict[str, Any]] = list(data.chat)

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def seq(self) -> int:
        """How many actions the log holds: the version of the table clients act against."""
        return len(self.log)

    @property
    def finished(self) -> bool:
        return self.match.is_terminal()

    def seat_by_token(self, token: str) -> Seat | None:
        for s in self.seats:
            if s.token == token:
                return s
        return None

    def check_turn(self, seat: int, seq: int | None) -> None:
        """Refuse an act the engine should not even be asked about."""
        if self.finished:
            raise TurnError("over", "the game is over: no more moves")
        if seq is not None and seq != self.seq:
            raise TurnError("stale", "the table has moved on since that move was chosen; "
                            "look again and choose")
        cur = self.match.current_player
        if cur != seat:
            raise TurnError("not_your_turn",
                            f"it is {self.seats[cur].name}'s turn, not yours")

    def apply(self, seat: int, action: int) -> None:
        """Apply through the engine (an illegal action raises and changes nothing)."""
        if self.match.current_player != seat:
            raise TurnError("not_your_turn", "not this seat's turn")
        before = self.match.hand
        phase = before.phase
        self.match.apply_action(action)
        self.log.append((seat, action))
        self.last_event = (seat, action, phase)
        if self.match.hand is not before or self.match.is_terminal():
            self.last_hand = hand_summary(before, tuple(self.match.scores))

    def undo(self, count: int) -> None:
        """Rebuild without the newest ``count`` actions (their commit failed): the log is the
        truth."""
        if count <= 0:
            return
        log = self.log[:-count]
        self.match = Match(self.rules, seed=self.seed)
        self.log, self.last_hand, self.last_event = [], None, None
        for seat, action in log:
            self.apply(seat, action)

    def finished_result(self) -> tuple[int, list[int]] | None:
        if not self.finished:
            return None
        w = self.match.winner
        return (-1 if w is None else w, list(self.match.scores))

    def view(self, seat: int) -> SeatView:
        return self.match.view(seat)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    # messages ---------------------------------------------------------------------------------

    def state_message(self, viewer: int) -> dict[str, Any]:
        """The whole table as ``viewer`` (a seat, or SPECTATOR) may see it."""
        h = self.match.hand
        m = self.match
        if viewer == SPECTATOR:
            hand: list[str] = []
            history = spectator_history(h)
            legal: list[dict[str, Any]] = []
            discard = None
            swapped: list[str] = []
            trump = h.trump
        else:
            v = self.view(viewer)
            table = set(h.face_up(viewer))  # rows: the face-up cards are drawn in the row
            hand = card_list(sort_hand([c for c in v.hand if c not in table], v.trump))
            history = list(v.history)
            legal = [self.legal_json(a) for a in v.legal_actions] if not m.is_terminal() else []
            discard = card_str(v.discard) if v.discard >= 0 else None
            swapped = card_list(v.swapped_out)
            trump = v.trump
        # Declined declarations of others are already left out of ``history`` (make_view and
        # spectator_history), so every entry here is one the viewer saw.
        events = [event_json(who, a, viewer, PLAY) for who, a in history if not 0 <= a <= 32]
        last = None
        if self.last_event is not None:
            s, a, phase = self.last_event
            last = event_json(s, a, viewer, phase)
        cur = m.current_player
        return {
            "type": "state",
            "table": self.id,
            "seq": self.seq,
            "you": viewer,
            "players": self.n,
            "seats": [s.public() for s in self.seats],
            "seat_names": [seat_name(i, self.n) for i in range(self.n)],
            "rules": self.rules_dict,
            "target": self.rules.target,
            "hand_no": len(m.finished) + (0 if m.is_terminal() else 1),
            "dealer": h.dealer,
            "phase": "over" if m.is_terminal() else PHASE_NAMES[h.phase],
            "turn": cur if cur >= 0 else None,
            "hand": hand,
            "upcard": card_str(h.upcard) if h.upcard >= 0 else None,
            "upcard_status": UPCARD_STATUS_NAMES[h.up_status],
            "trump": SUIT_LETTERS[trump] if trump != NO_TRUMP else None,
            "maker": h.maker,
            "alone": h.alone,
            "lone_defender": h.lone_defender,
            "active": list(h.active),
            "bids": events,
            "trick": [[s, card_str(c)] for s, c in h.trick] if h.phase == PLAY else [],
            "tricks": [trick_json(t) for t in h.tricks],
            "tricks_won": list(h.tricks_won),
            "hand_sizes": [x.bit_count() - len(h.face_up(i)) for i, x in enumerate(h.hands)],
            "rows": rows_json(h),
            "contract": h.contract,
            "discard": discard,
            "swapped_out": swapped,
            "legal": legal,
            "scores": list(m.scores),
            "last": last,
            "last_hand": self.last_hand,
            "finished": m.is_terminal(),
            "winner": m.winner,
        }

    @staticmethod
    def legal_json(a: int) -> dict[str, Any]:
        out: dict[str, Any] = {"id": a, "text": action_label(a), "code": action_to_str(a)}
        if 0 <= a <= 32:
            out["card"] = card_str(a)
            out["kind"] = "play"
        elif A.is_discard(a):
            out["card"] = card_str(a - A.DISCARD_BASE)
            out["kind"] = "discard"
        else:
            out["kind"] = "bid"
        return out

    def record(self) -> dict[str, Any]:
        """The game as a record ``euchre replay`` reads (finished games only: a record holds
        every deck, so it would give away hands in progress)."""
        return match_to_record(self.match, players=self.names())

    def seat_data(self) -> list[SeatData]:
        return [SeatData(s.seat, s.token, s.kind, s.level, s.name, s.claimed, s.left_at)
                for s in self.seats]


def replay_frames(rules: Rules, seed: int, log: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Every step of a finished game with all hands face up, for the step-by-step replay."""
    match = Match(rules, seed=seed)
    frames = []

    def frame(event: dict[str, Any] | None, h: HandState, hand_no: int) -> dict[str, Any]:
        trick = h.trick if h.phase == PLAY else ()
        if not trick and event is not None and event["kind"] == "play" and h.tricks:
            trick = h.tricks[-1][1]  # show the trick just completed before it is gathered
        return {
            "hand_no": hand_no,
            "dealer": h.dealer,
            "hands": [card_list(sort_hand([c for c in _cards(x) if c not in h.face_up(i)],
                                          h.trump)) for i, x in enumerate(h.hands)],
            "upcard": card_str(h.upcard) if h.upcard >= 0 else None,
            "upcard_status": UPCARD_STATUS_NAMES[h.up_status],
            "rows": replay_rows(h),
            "trump": SUIT_LETTERS[h.trump] if h.trump != NO_TRUMP else None,
            "maker": h.maker,
            "alone": h.alone,
            "trick": [[s, card_str(c)] for s, c in trick],
            "tricks_won": list(h.tricks_won),
            "scores": list(match.scores),
            "event": event,
            "outcome": h.outcome,
        }

    frames.append(frame(None, match.hand, 1))
    for seat, action in log:
        h = match.hand
        hand_no = len(match.finished) + 1
        match.apply_action(action)
        ev = event_json(seat, action, seat, h.phase)
        ev["text"] = action_label(action)
        frames.append(frame(ev, h, hand_no))
    return frames


def _cards(mask: int) -> list[int]:
    from euchre.cards import cards_of

    return list(cards_of(mask))
