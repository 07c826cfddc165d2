"""A finished game's results: each seat's hands made, euchred and alone, and, for a rated game,
every player's new rating, written in one transaction.

**Leaving does not escape a result.** At an open table players come and go (Play now, the
lobby, *Leave the table*, a page closed for good); the game's result counts for everyone who
held a seat in it, as on lichess, where abandoning a game counts as playing it out. Each holder
of a seat is rated with that seat's side's final result for their share of the seat's decisions
while they held it (``store.Stint``: from taking the seat to leaving it, every decision there is
theirs, whether they made it or its computer did while they were away or before their first
hand). One who held the seat for the whole game has a share of 1; one who left after a third of
its decisions, 1/3, and whoever took it over the rest (``ratings.rate_game``'s ``shares``: a
partial player's rating moves by their share of what a whole game would move it). The part of a
seat its computer played as nobody's (before anyone took it, or after its player left) counts
towards its side's strength at the computer's rating, which does not move for it; a computer
that played a seat for the whole game is rated as before. A holder whose stint saw none of the
seat's decisions (they left before its turn came) has no part in the game.

The transaction first marks the game's results as written (``tables.results_at``) where they
were not yet: a second writer of the same game (a process taking the table over, a restart)
finds it marked and writes nothing. On PostgreSQL it then locks the players' rows in one order
(``FOR UPDATE``), so two processes finishing games of one player at once each read the other's
update before making their own, and neither is lost.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from euchre.bots.registry import ladder_anchor
from euchre.seats import Seat, side_of
from euchre.state import SCORED
from euchre.tournament.ratings import rate_game
from euchre.web import ratings as R
from euchre.web.names import name_key
from euchre.web.store import PlayerRow, ResultRow, Stint, Store, TableRow
from euchre.web.table import COMPUTER, HUMAN, PLAYER_KINDS, HandResult, Table
from euchre.web.table import Seat as TableSeat

#: Whom ``rate_game`` rates in one game: a player's id, or a computer's part of a seat that
#: someone else held too (("stand-in", its index in the game's results): its rating counts,
#: and does not move).
Key = int | tuple[str, int]


@dataclass(frozen=True)
class SeatResult:
    seat: Seat
    kind: str
    """"human", "computer" or "bot"."""
    player: int | None
    level: str
    won: bool
    hands: int
    made: int
    euchred: int
    euchres: int
    lone: int
    lone_made: int
    lone_marches: int
    lone_euchred: int
    share: float = 1.0
    """The part of the seat's decisions made while this player held it (1: all of them). A
    seat held by several players in turn has a result for each."""
    stand_in: bool = False
    """The seat's computer's part, played for nobody: the computer's while someone else held
    the seat for the rest of the game, or a person's without a player's name at an open
    table. It counts towards its side's strength at the computer's rating, which does not
    move for it."""


@dataclass(frozen=True)
class GameResult:
    table_id: str
    rated: bool
    """The table was created to be rated."""
    players: int
    winner: Seat
    """The winning side (-1: none)."""
    seats: list[SeatResult]
    """Each seat's players' results, in seat order (one a seat, or at an open table one for
    each player who held it and for its computer's part)."""
    public: bool = False
    """An open table (its players came and went: ``store.Stint``)."""


#: A seat's hand counts (``seat_counts``), each a column of its results.
COUNTS = ("hands", "made", "euchred", "euchres", "lone", "lone_made", "lone_marches",
          "lone_euchred")


def seat_counts(hands: list[HandResult], seat: Seat, n: int) -> dict[str, int]:
    """One seat's hands: scored, made and euchred as maker, euchres as defender, and its lone
    hands with how they ended."""
    mine = side_of(seat, n)
    out = dict.fromkeys(COUNTS, 0)
    for h in hands:
        if h.outcome != SCORED or h.maker < 0:
            continue
        out["hands"] += 1
        makers = side_of(h.maker, n)
        made = h.points[makers] > 0
        if h.maker == seat:
            out["made" if made else "euchred"] += 1
            if h.alone:
                out["lone"] += 1
                if made:
                    out["lone_made"] += 1
                    if h.tricks_won[seat] == sum(h.tricks_won):
                        out["lone_marches"] += 1
                else:
                    out["lone_euchred"] += 1
        elif makers != mine and not made:
            out["euchres"] += 1
    return out


@dataclass(frozen=True)
class Part:
    """Who played a seat for which of its decisions and hands: a player (``kind`` a person's
    or a bot's), the seat's computer (``player`` None), or at an open table a person without
    a player's name (``NOBODY``)."""

    kind: str
    player: int | None
    decisions: int
    hands: list[HandResult]


#: The part of a seat of an open table held by a person without a player's name (a client of
#: the API: the pages always make a guest first). Rated for nobody, it counts as its
#: computer's: a stranger sitting down can never make a rated game unrated, which would be a
#: way out of its result for the side about to lose.
NOBODY = "nobody"


def holder_at(held: Sequence[Stint], at: int) -> tuple[str, int | None]:
    """Who held a seat of an open table when its log was ``at`` actions long (``held``: the
    seat's stints), as (kind, player id): the person's or bot's whose stint it was (NOBODY for
    a person without a player's name), else its computer's."""
    for h in held:
        if h.start <= at and (h.end is None or at < h.end):
            return (h.kind, h.player_id) if h.player_id is not None else (NOBODY, None)
    return COMPUTER, None


def decisions_of(table: Table, seat: TableSeat, ids: Collection[int],
                 level: str | None = None) -> set[int]:
    """The decisions of ``seat`` (indices into the table's log) that were a player's (``ids``:
    every id they answer to; ``level``: the computer level's name, for a computer): at an open
    table those made in their stints there (their computer's, while they were away, included:
    the game's result counts them so too), a computer's those no stint held; at a private
    table, or an open one stored before stints were, the whole seat's if it was theirs. A seat
    two people held in turn is two players' mistakes, not one's."""
    decided = [i for i, (s, _) in enumerate(table.log) if s == seat.seat]
    if level is not None and seat.level != level:
        return set()  # (a computer player is a level: this seat's computer is another)
    if not table.public or not table.stints:
        mine = seat.kind == COMPUTER if level is not None else seat.player in ids
        return set(decided) if mine else set()
    held = [h for h in table.stints if h.seat == seat.seat]
    if level is not None:
        return {i for i in decided if holder_at(held, i)[0] == COMPUTER}
    return {i for i in decided if holder_at(held, i)[1] in ids}


def seat_parts(table: Table, seat: TableSeat) -> list[Part]:
    """The parts of a finished game's seat: at a private table its one player's (or
    computer's), the whole game; at an open table each player's who held it (``table.stints``:
    the decisions of the seat from their taking it to their leaving it, and the hands that
    ended then), and its computer's for the rest (a seat nobody held: all of it). A player who
    held the seat twice has one part. (An open table with no stints at all was stored before
    they were: its seats' last holders, the whole game, as then.)"""
    decided = [i for i, (s, _) in enumerate(table.log) if s == seat.seat]
    if not table.public or not decided or not table.stints:
        kind = COMPUTER if table.public and seat.kind == HUMAN and not seat.claimed \
            else seat.kind
        return [Part(kind, seat.player if kind != COMPUTER else None, len(decided),
                     table.hand_results)]
    held = [h for h in table.stints if h.seat == seat.seat]
    count: dict[tuple[str, int | None], int] = {}
    for i in decided:
        key = holder_at(held, i)
        count[key] = count.get(key, 0) + 1
    hands: dict[tuple[str, int | None], list[HandResult]] = {}
    for hand in table.hand_results:
        hands.setdefault(holder_at(held, hand.end - 1), []).append(hand)
    return [Part(kind, player, n, hands.get((kind, player), []))
            for (kind, player), n in count.items()]


def game_result(table: Table) -> GameResult | None:
    """The finished game's results, from the table's hands (None: not over, or closed
    unfinished): each seat's parts (``seat_parts``), each with the side's result."""
    if not table.match.is_terminal():
        return None
    winner = table.match.winner
    w = -1 if winner is None else winner
    seats = []
    for s in table.seats:
        parts = seat_parts(table, s)
        total = sum(p.decisions for p in parts) or 1
        for p in parts:
            share = p.decisions / total if len(parts) > 1 else 1.0
            seats.append(SeatResult(s.seat, COMPUTER if p.kind == NOBODY else p.kind,
                                    p.player, s.level,
                                    w >= 0 and side_of(s.seat, table.n) == w,
                                    **seat_counts(p.hands, s.seat, table.n), share=share,
                                    stand_in=p.kind == NOBODY or (p.kind == COMPUTER
                                                                  and share < 1)))
    return GameResult(table.id, table.rated, table.n, w, seats, table.public)


def counts_rated(game: GameResult, people: list[int | None] | None = None) -> bool:
    """Whether the game is rated: created so, four-handed with a winner, each part of a
    person's or bot's seat a player's (``people``, their player ids if not the seats'), at a
    friends' table each player at one seat only, and each computer at a rated level. (At an
    open table a player may have held two seats in turn: each part is rated; a game made
    unrated by that would be a way out of its result.)"""
    if not game.rated or game.players != 4 or game.winner < 0:
        return False
    if people is None:
        people = [s.player for s in game.seats if s.kind in PLAYER_KINDS]
    if None in people or (not game.public and len(set(people)) != len(people)):
        return False
    return all(R.rated_name(s.level) is not None for s in game.seats if s.kind == "computer")


def computer_players(store: Store, names: list[str]) -> dict[str, int]:
    """The players' rows of these rated computer levels (by ``ratings.rated_name``), made at
    their calibrated ratings where missing. Two processes starting at once may both find one
    missing: the second's insert fails on the unique name and it reads the first's row."""
    have: dict[str, int] = {}
    for name in names:
        for _ in range(2):
            with store.engine.connect() as conn:
                found = conn.execute(select(PlayerRow.id).where(
                    PlayerRow.kind == "computer", PlayerRow.name == name)).scalar_one_or_none()
            if found is not None:
                have[name] = int(found)
                break
            start = R.seed(name)
            now = time.time()
            try:
                with store.engine.begin() as conn:
                    have[name] = conn.execute(insert(PlayerRow).values(
                        name=name, key=name_key(name), kind="computer", created_at=now,
                        seen_at=now, mu=start.mu, sigma=start.sigma, rated_games=0)
                        .returning(PlayerRow.id)).scalar_one()
                break
            except IntegrityError:
                continue
    return have


def write_results(store: Store, game: GameResult) -> bool:
    """Write the game's results (and, if rated, every player's new rating) in one
    transaction; False if they were written already. A computer at a rated level has its
    result under its level's player; one at an unrated level has none. A guest whose games
    went to an account while the game was played (``players.merge_guest``) has it under the
    account. A player with several parts of one seat (after such a merge) has one result
    there, their shares added."""
    parts = game.seats
    level_of = [R.rated_name(p.level) if p.kind == COMPUTER else None for p in parts]
    computers = computer_players(store, sorted({n for n in level_of if n}))
    who = [p.player if p.kind in PLAYER_KINDS else computers.get(level_of[i] or "")
           for i, p in enumerate(parts)]
    now = time.time()
    with store.engine.begin() as conn:
        claimed = conn.execute(update(TableRow).where(TableRow.id == game.table_id,
                                                      TableRow.results_at.is_(None))
                               .values(results_at=now)).rowcount
        if claimed != 1:
            return False
        rows: dict[int, Any] = {}
        while True:  # a guest merged since the game began: its account's row, locked too
            ids = sorted({p for p in who if p is not None})
            rows = {r.id: r for r in conn.execute(
                select(PlayerRow).where(PlayerRow.id.in_(ids)).order_by(PlayerRow.id)
                .with_for_update())}
            moved = {pid: r.merged_into for pid, r in rows.items() if r.merged_into is not None}
            if not moved:
                break
            who = [moved.get(p, p) if p is not None else None for p in who]
        rated = counts_rated(game, [who[i] for i, p in enumerate(parts)
                                    if p.kind in PLAYER_KINDS])
        before = {pid: R.Rating() if r.mu is None or r.sigma is None
                  else R.Rating(r.mu, r.sigma, r.rated_games) for pid, r in rows.items()}
        after: dict[int, R.Rating] = {}
        if rated:
            # The partnerships' players, a level seated twice appearing twice: the rating
            # module adds up what each appearance learned (see ``rate_game``), and counts
            # the game once in each player's games. A computer's part of a seat someone
            # else held too counts at its rating, which does not move (its own key).
            key: list[Key] = [
                ("stand-in", i) if p.stand_in else who[i] or 0 for i, p in enumerate(parts)]
            ratings: dict[Key, R.Rating] = {k: r for k, r in before.items()}
            for i, p in enumerate(parts):
                if p.stand_in:
                    ratings[key[i]] = before[who[i] or 0]
            sides = [[key[i] for i, p in enumerate(parts)
                      if side_of(p.seat, game.players) == side] for side in range(2)]
            shares = [[p.share for p in parts if side_of(p.seat, game.players) == side]
                      for side in range(2)]
            fixed: set[Key] = {k for k in key if isinstance(k, tuple)}
            moved_by = rate_game(sides, ratings, game.winner, shares=shares, fixed=fixed)
            anchor = ladder_anchor()  # the scale's anchor counts the game, never moves
            after = {k: R.Rating(before[k].mu, before[k].sigma, r.games)
                     if rows[k].kind == "computer" and rows[k].name == anchor else r
                     for k, r in moved_by.items() if isinstance(k, int)}
            for pid, r in after.items():
                conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(
                    mu=r.mu, sigma=r.sigma, rated_games=r.games))
        results: dict[tuple[int, int], dict[str, Any]] = {}
        for i, p in enumerate(parts):
            holder = who[i]
            if holder is None:
                continue
            b, a = before.get(holder), None if p.stand_in else after.get(holder)
            counts = {c: getattr(p, c) for c in COUNTS}
            row = results.get((p.seat, holder))
            if row is not None:  # one player's two parts of one seat
                for c in COUNTS:
                    row[c] += counts[c]
                row["share"] += p.share
                continue
            results[(p.seat, holder)] = {
                "table_id": game.table_id, "seat": p.seat, "player_id": holder,
                "finished_at": now, "won": p.won, **counts, "share": p.share,
                "rated": rated and not p.stand_in,
                "mu_before": b.mu if rated and b else None,
                "sigma_before": b.sigma if rated and b else None,
                "mu_after": a.mu if a else None, "sigma_after": a.sigma if a else None}
        if results:
            conn.execute(insert(ResultRow), list(results.values()))
    return True


def rerate_player(conn: Any, player: int) -> R.Rating | None:
    """Rate ``player``'s rated games again, in the order they ended, from a newcomer's
    rating: each game with the other players' ratings as they were before it (their stored
    ``mu_before``) and this player's as the games before it left it. Rewrites this player's
    ratings before and after each game and returns the last (None: no rated games). The
    other players' ratings are history and stay as they were.

    This is how one person's games played under two identities (a guest's, then an
    account's it signed in to) become one rating, as if they had all been played under one
    name."""
    games = conn.execute(
        select(ResultRow.table_id).where(ResultRow.player_id == player,
                                         ResultRow.rated.is_(True))
        .group_by(ResultRow.table_id)
        .order_by(func.min(ResultRow.finished_at), ResultRow.table_id)).scalars().all()
    current: R.Rating | None = None
    for table_id in games:
        seats = conn.execute(select(ResultRow).where(ResultRow.table_id == table_id)
                             .order_by(ResultRow.seat)).all()
        start = current if current is not None else R.Rating()
        ratings = {r.player_id: R.Rating(r.mu_before, r.sigma_before) for r in seats
                   if r.player_id != player and r.mu_before is not None}
        ratings[player] = start
        sides = [[r.player_id for r in seats if side_of(r.seat, 4) == side] for side in (0, 1)]
        shares = [[r.share for r in seats if side_of(r.seat, 4) == side] for side in (0, 1)]
        winner = next(side_of(r.seat, 4) for r in seats if r.won)
        current = rate_game(sides, ratings, winner, shares=shares)[player]
        conn.execute(update(ResultRow).where(ResultRow.table_id == table_id,
                                             ResultRow.player_id == player).values(
            mu_before=start.mu, sigma_before=start.sigma, mu_after=current.mu,
            sigma_after=current.sigma))
    return current
