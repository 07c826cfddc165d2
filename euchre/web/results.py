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

from sqlalchemy import insert, select, update

from euchre.seats import side_of
from euchre.state import SCORED
from euchre.web import ratings as R
from euchre.web.names import name_key
from euchre.web.store import PlayerRow, ResultRow, Store, TableRow
from euchre.web.table import HandResult, Table


@dataclass(frozen=True)
class SeatResult:
    seat: int
    kind: str
    """"human" or "computer"."""
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
    winner: int
    """The winning side (-1: none)."""
    seats: list[SeatResult]


def seat_counts(hands: list[HandResult], seat: int, n: int) -> dict[str, int]:
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
    seats = [SeatResult(s.seat, s.kind, s.player, s.level,
                        w >= 0 and side_of(s.seat, table.n) == w,
                        **seat_counts(table.hand_results, s.seat, table.n))
             for s in table.seats]
    return GameResult(table.id, table.rated, table.n, w, seats)


def counts_rated(game: GameResult) -> bool:
    """Whether the game is rated: created so, four-handed with a winner, each person's seat a
    player's (each player once) and each computer at a rated level."""
    if not game.rated or game.players != 4 or game.winner < 0:
        return False
    people = [s.player for s in game.seats if s.kind == "human"]
    if None in people or len(set(people)) != len(people):
        return False
    levels = set(R.rated_levels())
    return all(s.level in levels for s in game.seats if s.kind == "computer")


def computer_players(store: Store, levels: list[str]) -> dict[str, int]:
    """The players' rows of these computer levels, made (at their seed ratings) where
    missing."""
    seeds = R.seed_ratings()
    with store.engine.begin() as conn:
        have = {r.name: r.id for r in conn.execute(
            select(PlayerRow.name, PlayerRow.id).where(PlayerRow.kind == "computer",
                                                       PlayerRow.name.in_(levels)))}
        now = time.time()
        for level in levels:
            if level not in have:
                seed = seeds.get(level, R.new_rating())
                have[level] = conn.execute(insert(PlayerRow).values(
                    name=level, key=name_key(level), kind="computer", created_at=now,
                    seen_at=now, mu=seed.mu, sigma=seed.sigma, rated_games=0)
                    .returning(PlayerRow.id)).scalar_one()
    return have


def write_results(store: Store, game: GameResult) -> bool:
    """Write the game's results (and, if rated, every player's new rating) in one
    transaction; False if they were written already."""
    rated = counts_rated(game)
    levels = sorted({s.level for s in game.seats if s.kind == "computer"})
    computers = computer_players(store, levels) if levels else {}
    who = {s.seat: s.player if s.kind == "human" else computers[s.level] for s in game.seats}
    now = time.time()
    with store.engine.begin() as conn:
        claimed = conn.execute(update(TableRow).where(TableRow.id == game.table_id,
                                                      TableRow.results_at.is_(None))
                               .values(results_at=now)).rowcount
        if claimed != 1:
            return False
        ids = sorted({p for p in who.values() if p is not None})
        rows = {r.id: r for r in conn.execute(
            select(PlayerRow).where(PlayerRow.id.in_(ids)).order_by(PlayerRow.id)
            .with_for_update())}
        before = {pid: R.Rating(r.mu if r.mu is not None else R.MU,
                                r.sigma if r.sigma is not None else R.SIGMA)
                  for pid, r in rows.items()}
        after: dict[int, R.Rating] = {}
        if rated:
            after = new_ratings(game, who, before)
            for pid, r in after.items():
                conn.execute(update(PlayerRow).where(PlayerRow.id == pid).values(
                    mu=r.mu, sigma=r.sigma, rated_games=PlayerRow.rated_games + 1))
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


def new_ratings(game: GameResult, who: dict[int, int | None],
                before: dict[int, R.Rating]) -> dict[int, R.Rating]:
    """Each player's rating after the game. A computer level at two seats is rated at each,
    and takes the mean of the two changes."""
    sides = [[s for s in game.seats if side_of(s.seat, game.players) == side]
             for side in range(2)]
    teams = [[before[who[s.seat] or 0] for s in side] for side in sides]
    ranks = [0 if side == game.winner else 1 for side in range(2)]
    rated = R.rate(teams, ranks)
    moves: dict[int, list[tuple[float, float]]] = {}
    for side, team in zip(sides, rated, strict=True):
        for s, r in zip(side, team, strict=True):
            pid = who[s.seat] or 0
            moves.setdefault(pid, []).append((r.mu - before[pid].mu, r.sigma))
    return {pid: R.Rating(before[pid].mu + sum(d for d, _ in m) / len(m),
                          sum(sg for _, sg in m) / len(m))
            for pid, m in moves.items()}
