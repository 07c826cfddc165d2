"""One live table: a :class:`~euchre.Match` rebuilt from its action log, its seats, and the
picture of it each connection may receive.

Nothing here decides a rule: an action is handed to ``Match.apply_action`` and the engine's own
refusal text is what the player reads. Nothing here decides who may see what either: a seat's
message is built from that seat's :class:`~euchre.SeatView` and a spectator's from the public
view (:mod:`euchre.public_view`), by the builders of :mod:`euchre.web.messages`.
"""

from __future__ import annotations

import hmac
import statistics
import time
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import euchre.seats
from euchre.match import Match
from euchre.public_view import NO_SEAT, public_view
from euchre.record import match_to_record
from euchre.rules import Rules, rules_summary
from euchre.state import PHASES, HandState, seat_name
from euchre.view import SeatView
from euchre.web import messages as M
from euchre.web.store import BOT as BOT  # a seat's kinds, named with the seats' rows
from euchre.web.store import COMPUTER as COMPUTER
from euchre.web.store import HUMAN as HUMAN
from euchre.web.store import PLAYER_KINDS as PLAYER_KINDS
from euchre.web.store import Stint, TableData
from euchre.words import YOU, Moment, action_words

SPECTATOR = NO_SEAT
#: The finished hands a table keeps to tell a bot how each ended (a bot's connection catches
#: up at once, so a few are plenty).
ENDED_KEPT = 32

#: The turn clock follows the table's pace: a turn has ``PACE_FACTOR`` times the median of
#: the people's last ``PACE_WINDOW`` decisions there (each counted at most at its own turn's
#: length, so a turn that ran out counts as long as it had), never under ``CLOCK_LEAST``
#: seconds nor over the table's clock (``--turn-clock``, 15: its most, and what a turn has
#: until the table has seen ``PACE_SEEN`` decisions). Three times the median leaves a
#: player who is slower than the table's middle room, and 6 s is the least any turn
#: has (a regular's quick table), as Trickster Cards' 6-15 s.
CLOCK_LEAST = 6.0
PACE_FACTOR = 3.0
PACE_WINDOW = 12
PACE_SEEN = 4
#: The lobby's pace of a table (``TableRow.pace``) is written again when the turn clock moves
#: this many seconds from it: it follows the pace without a write at every move.
PACE_SHOWN_STEP = 1.0

#: Why nobody moves at a table in its waiting room.
WAITING = ("the game has not started: it deals once every seat is taken, or when a player "
           "at the table starts it (computers take the empty seats)")


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand's public result: who made trump, alone or not, and what it scored."""

    outcome: str
    maker: euchre.seats.Seat
    alone: bool
    points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    end: int = 0
    """The log's length once it ended: it belongs to whoever held a seat then."""


@dataclass
class Seat:
    """A seat: a person (creator or friend), a computer at ``level`` or a bot account.

    A person's seat is played by a computer at ``level`` while ``stand_in`` is set: after nobody
    has been connected to it for the table's away timeout while it was that seat's turn. The
    person takes it back simply by connecting with the seat's token. A bot's seat likewise,
    after its program has not been there for a moment on its turn; it takes the seat back by
    connecting with its token (``euchre.web.botlinks``)."""

    seat: euchre.seats.Seat
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
    remote: int = 0
    """Connections holding the seat in other server processes (several processes on one
    database; ``connections`` counts this process's)."""
    covered: list[str] = field(default_factory=list)
    """What the seat's computer did while standing in for its absent person, in words for the
    person ("You pick it up"): told to them when they come back (``messages.Covered``), and
    to no one else."""
    player: int | None = None
    """The player (guest or account) whose seat this is: only their signed-in browser opens
    it. None: the seat's link alone opens it."""
    from_hand: int = 0
    """At an open table: the hand from which the person who took this seat plays it (a seat
    taken during a hand is its computer's until the hand is over)."""
    timeouts: int = 0
    """Turns in a row the turn clock ran out on the person here (their computer moved)."""
    idle: bool = False
    """The computer plays this seat because its person let the clock run out too often:
    until they say they are back."""

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.stand_in

    @property
    def present(self) -> int:
        """Connections holding the seat, in every server process."""
        return self.connections + self.remote

    def public(self) -> M.SeatInfo:
        return M.SeatInfo(self.name, self.kind, self.level, self.claimed, self.present > 0,
                          self.stand_in, self.player is not None)


def away_since(left_at: float | None) -> float:
    """A seat empty since a stored moment has been away since then (a restart or another
    process taking the table over does not start its away timer again); one held when the
    last owner stopped, since now."""
    if left_at is None:
        return time.monotonic()
    return time.monotonic() - max(0.0, time.time() - left_at)


class TurnError(Exception):
    """An act the engine never sees: not this connection's turn, a stale picture, no seat."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Table:
    """A match and its seats. Callers hold ``lock`` (in ``app``) around every change."""

    def __init__(self, data: TableData) -> None:
        self.id = data.id
        self.created_at = data.created_at
        self.rules = Rules.from_dict(data.rules)
        self.rules_dict = self.rules.to_dict()
        self.seed = data.seed
        self.invite = data.invite
        self.seats = [Seat(s.seat, s.token, s.kind, s.level, s.name, s.claimed,
                           away_since=away_since(s.left_at), left_at=s.left_at,
                           player=s.player_id)
                      for s in data.seats]
        self.public = data.public
        """Open to anyone: listed in the lobby, seated by Play now; a seat nobody holds is
        played by its computer (``stand_in``) until a person takes it, from the next hand."""
        self.clock = data.clock
        """Seconds a person has for each turn (None: no clock): then their computer moves."""
        self.bots = data.bots
        """An open table whose host lets bot accounts take its free seats (where the operator
        allows bots); a bot seated there keeps its seat if the host changes this."""
        self.turn_since = time.monotonic()
        """When the seat to move got its turn (for the turn clock)."""
        self.pace_shown = data.pace if data.pace is not None else data.clock
        """The turn clock the lobby shows for this table (``TableRow.pace``): written again
        when the pace moves a second or more from it (``pace_due``)."""
        self.decisions: deque[float] = deque(maxlen=PACE_WINDOW)
        """Seconds the people's last decisions here took, as this process saw them made
        (``pace_clock``); a process that reads the table from the database starts afresh."""
        for s in self.seats:
            if self.public and s.kind == "human" and not s.claimed:
                s.stand_in = True
        self.stints: list[Stint] = list(data.stints)
        """Who held each seat of an open table, from when to when (``store.Stint``): all of
        them share its result (``results.game_result``)."""
        self.rated = data.rated
        """Created to be rated (rated when it ends if every seat is then a player or a
        computer at a rated level)."""
        self.away_timeout: float | None = None
        """Seconds a person's seat may be empty on its turn before its computer plays it
        (the server's ``--away-timeout``, given by ``Rooms.add``; None: no computer steps in
        for an absent person)."""
        self.elsewhere = 0
        """Connections to this table in other server processes (seats and spectators)."""
        self.watched_here = 0
        """Connections to this table in this process (kept by the server)."""
        self.match = Match(self.rules, seed=data.seed)
        self.log: list[tuple[int, int]] = []
        self.last_hand: M.HandSummary | None = None
        self.last_event: tuple[int, Moment] | None = None
        """The latest act and where it was made (its seat, the phase, the hand's dealer)."""
        self.hand_results: list[HandResult] = []
        """Each finished hand's public result, in order (for the players' statistics)."""
        self.ended: deque[tuple[int, HandState, tuple[int, ...]]] = deque(maxlen=ENDED_KEPT)
        """The latest finished hands: (the log's length once it ended, the hand, the score
        before it), to tell a bot how each ended (``hand_end``)."""
        for seat, action in data.actions:
            self.apply(seat, action)
        self.started = bool(self.log) or not self.people()
        """Dealt: a person at it started it, or every person's seat was taken and held
        (``ready``). Until then nobody moves, and each connection is sent the waiting room
        (``Waiting``) instead of the table, so no card is played before its people (or, at a
        table its creator only watches, the creator's page) are there to see it. A table of
        computers alone has nobody to wait for: it plays at once (a watcher sees every state
        in order from the start). Kept in memory: a table whose first move was not made yet
        waits again after a restart, which loses no move."""
        self.next_table: str | None = None
        """The table its players went on to ("Play again": the same seats, the same rules)."""
        self.next_tokens: list[str] = []
        """The next table's seat links, by seat: each seat is sent its own only."""
        self.chat: list[M.ChatLine] = [M.ChatLine(**c) for c in data.chat]
        self.closed = data.finished_at is not None and not self.match.is_terminal()
        """Archived unfinished (abandoned): over, with no winner and no more moves."""

    def refresh(self, data: TableData) -> None:
        """Catch up with the database's copy of this table (a replica that missed an
        announcement, or a process taking the table over): the actions it lacks, each seat's
        row, and the chat."""
        for seat, action in data.actions[self.seq:]:
            self.apply(seat, action)
        for s, row in zip(self.seats, data.seats, strict=True):
            s.token, s.name, s.claimed, s.left_at = row.token, row.name, row.claimed, row.left_at
            s.player = row.player_id
            if not s.present:
                s.away_since = away_since(row.left_at)
        self.chat = [M.ChatLine(**c) for c in data.chat]
        self.stints = list(data.stints)
        self.closed = data.finished_at is not None and not self.match.is_terminal()
        self.started = self.started or bool(self.log)

    def people(self) -> list[Seat]:
        """The persons' seats (every other seat is a computer's)."""
        return [s for s in self.seats if s.kind == "human"]

    def ready(self) -> bool:
        """Whether the table deals without a person's word: every person's seat is taken
        and held by a connection (in any server process); or, at a table whose creator only
        watches (no person's seat taken), once its first page is open."""
        people = self.people()
        if self.public:  # its computers fill the seats: dealt once a player is there
            return any(s.claimed and s.present > 0 for s in self.seats
                       if s.kind in PLAYER_KINDS)
        if not any(s.claimed for s in people):
            return self.watched_here > 0 or self.elsewhere > 0
        return all(s.claimed and s.present > 0 for s in people)

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def hand_no(self) -> int:
        """The hand in play (the last one once the game is over), from 1."""
        m = self.match
        return len(m.finished) + (0 if m.is_terminal() else 1)

    def turn_left(self) -> float | None:
        """Seconds the person to move has left on the turn clock (None: no clock runs). A bot
        account's seat runs on the bot's move time instead (``--bot-move-time``: past it the
        bot is cut off and its computer plays), which it cannot answer by saying it is back."""
        if self.clock is None or self.finished or not self.started:
            return None
        seat = self.seats[self.match.current_player]
        if seat.computer_plays or seat.kind == BOT:
            return None
        return max(0.0, self.turn_clock() - (time.monotonic() - self.turn_since))

    def away_left(self) -> float | None:
        """Seconds until a computer plays for the absent person to move (``AwayTimers``), by
        when their seat became empty: shown to whoever waits on them as a countdown on that
        seat. None where no such wait runs: someone holds the seat, a computer plays it
        already, it is a bot account's (which has its own moment to connect) or the game is
        not under way."""
        if self.away_timeout is None or self.finished or not self.started:
            return None
        seat = self.seats[self.match.current_player]
        if seat.kind != "human" or seat.computer_plays or seat.present > 0:
            return None
        return max(0.0, seat.away_since + self.away_timeout - time.monotonic())

    def pace_due(self) -> float | None:
        """The turn clock to show in the lobby now, where it has moved a second or more from
        what it shows (taken as shown), else None: the lobby follows the pace without a
        write at every move."""
        if self.clock is None or not self.public:
            return None
        now = self.turn_clock()
        if self.pace_shown is not None and abs(now - self.pace_shown) < PACE_SHOWN_STEP:
            return None
        self.pace_shown = now
        return now

    def turn_clock(self) -> float:
        """Seconds this turn has on the clock: the table's pace (``pace_clock``)."""
        assert self.clock is not None
        return pace_clock(self.clock, self.decisions)

    @property
    def seq(self) -> int:
        """How many actions the log holds: the version of the table clients act against."""
        return len(self.log)

    def log_index(self, hand: int, index: int) -> int:
        """Where the ``index``-th action of hand ``hand`` (from 1, as a review numbers them)
        stands in the log."""
        return index + (self.hand_results[hand - 2].end if hand > 1 else 0)

    @property
    def finished(self) -> bool:
        return self.closed or self.match.is_terminal()

    def seat_of(self, player: Collection[int]) -> Seat | None:
        """The seat a player holds at this table, if any (``player``: every id the player
        answers to, ``Player.ids``)."""
        return next((s for s in self.seats if s.player in player), None)

    def seat_by_token(self, token: str) -> Seat | None:
        found = None
        for s in self.seats:  # constant time: a guess learns nothing from how long it took
            if hmac.compare_digest(s.token.encode(), token.encode()):
                found = s
        return found

    def check_turn(self, seat: euchre.seats.Seat, seq: int | None) -> None:
        """Refuse an act the engine should not even be asked about."""
        if self.finished:
            raise TurnError("over", "the game is over: no more moves")
        if not self.started:
            raise TurnError("waiting", WAITING)
        if seq is not None and seq != self.seq:
            raise TurnError("stale", "the table has moved on since that move was chosen; "
                            "look again and choose")
        cur = self.match.current_player
        if cur != seat:
            raise TurnError("not_your_turn",
                            f"it is {self.seats[cur].name}'s turn, not yours")
        mine = self.seats[seat]
        if mine.stand_in and mine.from_hand > self.hand_no:
            raise TurnError("next_hand", "you took this seat during the hand: its computer "
                            "plays it to the end of the hand, and you from the next")
        if mine.stand_in:
            raise TurnError("computer_plays", "your seat's computer is playing for you: say "
                            "you are back to play it again")

    def apply(self, seat: euchre.seats.Seat, action: int, live: bool = False) -> None:
        """Apply through the engine (an illegal action raises and changes nothing).
        ``live``: made now (not read from the log), so a person's decision times the table's
        pace."""
        if self.match.current_player != seat:
            raise TurnError("not_your_turn", "not this seat's turn")
        if live and self.clock is not None and self.turn_left() is not None:
            self.decisions.append(min(time.monotonic() - self.turn_since, self.turn_clock()))
        before = self.match.hand
        phase = before.phase
        hand_no = len(self.match.finished) + 1
        self.match.apply_action(action)
        self.log.append((seat, action))
        self.turn_since = time.monotonic()
        at = Moment(PHASES[phase], seat, before.dealer, before.n, before.upcard)
        self.last_event = (action, at)
        mover = self.seats[seat]
        if mover.stand_in and (mover.claimed or not self.public) \
                and mover.from_hand <= hand_no:
            # (not for a seat taken during this hand: its person never had it to be away;
            # nor for a free seat of an open table: its computer's moves were nobody's, where
            # a friends' table's seat is its invited friend's)
            mover.covered.append(action_words(action, at, "done", YOU))
        if self.match.hand is not before or self.match.is_terminal():
            seen = public_view(before)
            self.last_hand = M.hand_summary(seen, list(self.match.scores))
            self.hand_results.append(HandResult(seen.outcome or "", seen.maker, seen.alone,
                                                tuple(seen.points), tuple(seen.tricks_won),
                                                self.seq))
            done = self.match.finished[-1]
            self.ended.append((self.seq, before, tuple(
                after - points for after, points in zip(done.scores_after, done.points,
                                                        strict=True))))
            self.between_hands()

    def took(self, stint: Stint) -> None:
        """A player took a seat of this open table (their stint, as stored, begins)."""
        self.stints.append(stint)

    def left_seat(self, seat: euchre.seats.Seat, at: int) -> None:
        """The player holding ``seat`` left it when the log was ``at`` actions long (their
        stint, as stored, ends)."""
        for h in self.stints:
            if h.seat == seat and h.end is None:
                h.end = at

    def back(self, s: Seat) -> None:
        """A person is at their seat again (a connection, or they said so after the clock
        ran out on them): their computer stops playing it, unless they took it during this
        hand at an open table (then from the next)."""
        s.idle, s.timeouts = False, 0
        if not (self.public and self.started and s.from_hand > self.hand_no):
            s.stand_in = False

    def between_hands(self) -> None:
        """A hand is over: at an open table each person who took a seat during it (and is
        there, and not idle) plays it from now on."""
        if not self.public:
            return
        for s in self.seats:
            if s.claimed and s.stand_in and not s.idle and s.present > 0 \
                    and s.from_hand <= self.hand_no:
                s.stand_in = False

    def undo(self, count: int) -> None:
        """Rebuild without the newest ``count`` actions (their commit failed): the log is the
        truth."""
        if count <= 0:
            return
        log = self.log[:-count]
        self.match = Match(self.rules, seed=self.seed)
        self.log, self.last_hand, self.last_event = [], None, None
        self.hand_results = []
        self.ended.clear()
        for seat, action in log:
            self.apply(seat, action)

    def finished_result(self) -> tuple[int, list[int]] | None:
        if not self.finished:
            return None
        w = self.match.winner
        return (-1 if w is None else w, list(self.match.scores))

    def view(self, seat: euchre.seats.Seat) -> SeatView:
        return self.match.view(seat)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    # messages ---------------------------------------------------------------------------------

    def facts(self) -> M.TableFacts:
        m = self.match
        cur = -1 if self.closed else m.current_player
        return M.TableFacts(
            table=self.id, seq=self.seq, seats=[s.public() for s in self.seats],
            seat_names=[seat_name(i, self.n) for i in range(self.n)], rules=self.rules_dict,
            target=self.rules.target, hand_no=len(m.finished) + (0 if m.is_terminal() else 1),
            turn=cur if cur >= 0 else None, finished=self.finished, winner=m.winner,
            scores=list(m.scores), last_event=self.last_event, last_hand=self.last_hand)

    def seen_by(self, viewer: euchre.seats.Seat) -> SeatView:
        """What ``viewer`` (a seat, or SPECTATOR) may know of the hand in play."""
        if viewer == SPECTATOR:
            return public_view(self.match.hand, tuple(self.match.scores))
        return self.view(viewer)

    def picture(self, viewer: euchre.seats.Seat) -> M.State | M.Waiting:
        """What ``viewer`` (a seat, or SPECTATOR) is sent: the table (``state_message``), or
        before the deal the waiting room."""
        if not self.started:
            mine = viewer != SPECTATOR and self.seats[viewer].kind == "human"
            return M.Waiting(self.id, viewer, self.n, [s.public() for s in self.seats],
                             [seat_name(i, self.n) for i in range(self.n)],
                             rules_summary(self.rules), can_start=mine)
        return self.state_message(viewer)

    def state_message(self, viewer: euchre.seats.Seat) -> M.State:
        """The whole table as ``viewer`` (a seat, or SPECTATOR) may see it."""
        out = M.state(self.facts(), self.seen_by(viewer))
        out.clock = None if self.clock is None else self.turn_clock()
        out.turn_left, out.public = self.turn_left(), self.public
        out.away_left = self.away_left()
        out.bots = self.public and self.bots
        out.rated = self.rated
        if viewer != SPECTATOR and self.seats[viewer].stand_in:
            out.legal = []  # its computer's choices, not the person's
            out.next_hand = self.seats[viewer].from_hand > self.hand_no
        if self.next_table is not None:
            out.again = f"/t/{self.next_table}" + (
                f"#token={self.next_tokens[viewer]}" if viewer != SPECTATOR else "")
        return out

    def record(self) -> dict[str, Any]:
        """The game as a record ``euchre replay`` reads (finished games only: a record holds
        every deck, so it would give away hands in progress)."""
        return match_to_record(self.match, players=self.names())


def pace_clock(most: float, decisions: Collection[float]) -> float:
    """A turn's seconds at a table whose clock is at most ``most`` and whose people's recent
    decisions took ``decisions`` seconds: ``PACE_FACTOR`` times their median, between
    ``CLOCK_LEAST`` (or ``most``, if that is less) and ``most``; ``most`` until ``PACE_SEEN``
    decisions."""
    if len(decisions) < PACE_SEEN:
        return most
    return min(most, max(min(CLOCK_LEAST, most), PACE_FACTOR * statistics.median(decisions)))
