"""A finished game's results: each seat's hands made, euchred and alone, and, for a rated game,
every player's new rating, written in one transaction.

The transaction first marks the game's results as written (``tables.results_at``) where they
were not yet: a second writer of the same game (a process taking the table over, a restart)
finds it marked and writes nothing. On PostgreSQL it then locks the players' rows in one order
(``FOR UPDATE``), so two processes finishing games of one player at once each read the other's
update before making their own, and neither is lost.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from euchre.seats import Seat, side_of
from euchre.state import SCORED
from euchre.tournament.ratings import rate_game
from euchre.web import ratings as R
from euchre.web.names import name_key
from euchre.web.store import PlayerRow, ResultRow, Store, TableRow
from euchre.web.table import COMPUTER, HUMAN, PLAYER_KINDS, HandResult, Table


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


@dataclass(frozen=True)
class GameResult:
    table_id: str
    rated: bool
    """The table was created to be rated."""
    players: int
    winner: Seat
    """The winning side (-1: none)."""
    seats: list[SeatResult]


def seat_counts(hands: list[HandResult], seat: Seat, n: int) -> dict[str, int]:
    """One seat's hands: scored, made and euchred as maker, euchres as defender, and its lone
    hands with how they ended."""
    mine = side_of(seat, n)
    out = dict.fromkeys(("hands", "made", "euchred", "euchres", "lone", "lone_made",
                         "lone_marches", "lone_euchred"), 0)
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


def game_result(table: Table) -> GameResult | None:
    """The finished game's results, from the table's hands (None: not over, or closed
    unfinished)."""
    if not table.match.is_terminal():
        return None
    winner = table.match.winner
    w = -1 if winner is None else winner
    # at an open table a free seat (nobody took it, or its player left it) was its
    # computer's: rated as that computer
    seats = [SeatResult(s.seat, COMPUTER if table.public and s.kind == HUMAN and not s.claimed
                        else s.kind, s.player, s.level,
                        w >= 0 and side_of(s.seat, table.n) == w,
                        **seat_counts(table.hand_results, s.seat, table.n))
             for s in table.seats]
    return GameResult(table.id, table.rated, table.n, w, seats)


def counts_rated(game: GameResult, people: list[int | None] | None = None) -> bool:
    """Whether the game is rated: created so, four-handed with a winner, each person's or
    bot's seat a player's (each player once: ``people``, their player ids if not the seats')
    and each computer at a rated level."""
    if not game.rated or game.players != 4 or game.winner < 0:
        return False
    if people is None:
        people = [s.player for s in game.seats if s.kind in PLAYER_KINDS]
    if None in people or len(set(people)) != len(people):
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
    account."""
    level_of = {s.seat: R.rated_name(s.level) for s in game.seats if s.kind == "computer"}
    computers = computer_players(store, sorted({n for n in level_of.values() if n}))
    who = {s.seat: s.player if s.kind in PLAYER_KINDS
           else computers.get(level_of[s.seat] or "") for s in game.seats}
    now = time.time()
    with store.engine.begin() as conn:
        claimed = conn.execute(update(TableRow).where(TableRow.id == game.table_id,
                                                      TableRow.results_at.is_(None))
                               .values(results_at=now)).rowcount
        if claimed != 1:
            return False
        rows: dict[int, Any] = {}
        while True:  # a guest merged since the game began: its account's row, locked too
            ids = sorted({p for p in who.values() if p is not None})
            rows = {r.id: r for r in conn.execute(
                select(PlayerRow).where(PlayerRow.id.in_(ids)).order_by(PlayerRow.id)
                .with_for_update())}
            moved = {pid: r.merged_into for pid, r in rows.items() if r.merged_into is not None}
            if not moved:
                break
            who = {seat: moved.get(p, p) if p is not None else None for seat, p in who.items()}
        rated = counts_rated(game, [who[s.seat] for s in game.seats
                                    if s.kind in PLAYER_KINDS])
        before = {pid: R.Rating() if r.mu is None or r.sigma is None
                  else R.Rating(r.mu, r.sigma, r.rated_games) for pid, r in rows.items()}
        after: dict[int, R.Rating] = {}
        if rated:
            # The partnerships' players, a level seated twice appearing twice: the rating
            # module adds up what each appearance learned (see ``rate_game``), and counts
            # the game once in each player's games.
            sides = [[who[s.seat] or 0 for s in game.seats
                      if side_of(s.seat, game.players) == side] for side in range(2)]
            after = rate_game(sides, before, game.winner)
            for pid, r in after.items():
                conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(
                    mu=r.mu, sigma=r.sigma, rated_games=r.games))
        results = []
        for s in game.seats:
            holder = who[s.seat]
            if holder is None:
                continue
            b, a = before.get(holder), after.get(holder)
            results.append({
                "table_id": game.table_id, "seat": s.seat, "player_id": holder,
                "finished_at": now, "won": s.won, "hands": s.hands, "made": s.made,
                "euchred": s.euchred, "euchres": s.euchres, "lone": s.lone,
                "lone_made": s.lone_made, "lone_marches": s.lone_marches,
                "lone_euchred": s.lone_euchred, "rated": rated,
                "mu_before": b.mu if rated and b else None,
                "sigma_before": b.sigma if rated and b else None,
                "mu_after": a.mu if a else None, "sigma_after": a.sigma if a else None})
        if results:
            conn.execute(insert(ResultRow), results)
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
        winner = next(side_of(r.seat, 4) for r in seats if r.won)
        current = rate_game(sides, ratings, winner)[player]
        conn.execute(update(ResultRow).where(ResultRow.table_id == table_id,
                                             ResultRow.player_id == player).values(
            mu_before=start.mu, sigma_before=start.sigma, mu_after=current.mu,
            sigma_after=current.sigma))
    return current
