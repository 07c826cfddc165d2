"""What the site shows of a player: a profile (their games, hands and rating over time) and the
leaderboard of people and computers on one rating scale."""

from __future__ import annotations

import json
from typing import Any, Literal
from urllib.parse import urlencode

from sqlalchemy import Integer, cast, func, select

from euchre.bots.registry import ladder_rating
from euchre.tournament.ratings import PROVISIONAL_SIGMA
from euchre.web import players as P
from euchre.web import ratings as R
from euchre.web.store import PlayerRow, ResultRow, Store, TableRow, seat_holders

#: The most finished games a profile lists (the newest first).
PROFILE_GAMES = 100

Kind = Literal["all", "people", "computers", "bots"]
#: The players' kinds a person is: a guest or an account (a bot account is a program).
PEOPLE = ("guest", "account")


def rating_of(mu: float | None, sigma: float | None,
              name: str | None = None) -> dict[str, object] | None:
    if mu is None or sigma is None:
        return None
    return R.shown(R.Rating(mu, sigma), name)


#: The hand counts only the seat that made trump can have: summed over a player's seats.
MAKER_COUNTS = ("made", "euchred", "lone", "lone_made", "lone_marches", "lone_euchred")


def _stats(conn: Any, player_id: int) -> dict[str, int]:
    """A player's games and hands, each game counted once however many seats they held (a
    computer level holds several at one table): a game is won when every seat they held
    won it (a level on both sides neither won nor lost it), each hand is counted once, the
    maker's counts are the maker seat's, and a euchre by a partnership the player held both
    seats of is one euchre (the most of its two seats: each counts the side's euchres)."""
    mine = ResultRow.player_id == player_id
    per_table = select(ResultRow.table_id,
                       func.min(cast(ResultRow.won, Integer)).label("won"),
                       func.max(ResultRow.hands).label("hands"),
                       *[func.sum(getattr(ResultRow, c)).label(c) for c in MAKER_COUNTS]
                       ).where(mine).group_by(ResultRow.table_id).subquery()
    per_side = select(func.max(ResultRow.euchres).label("euchres")).where(mine) \
        .group_by(ResultRow.table_id, ResultRow.seat % 2).subquery()
    totals = conn.execute(select(
        func.count(), func.coalesce(func.sum(per_table.c.won), 0),
        func.coalesce(func.sum(per_table.c.hands), 0),
        *[func.coalesce(func.sum(per_table.c[c]), 0) for c in MAKER_COUNTS])).one()
    euchres = conn.execute(select(func.coalesce(func.sum(per_side.c.euchres), 0))).scalar()
    stats = dict(zip(("games", "won", "hands", *MAKER_COUNTS), (int(x) for x in totals),
                     strict=True))
    return {**stats, "euchres": int(euchres or 0)}


def profile(store: Store, name: str) -> dict[str, Any] | None:
    """The player named ``name`` (or whose name reads so; a computer level also by a name it
    plays under, ``rule`` for ``club``) with their statistics, rating history and finished
    games; None if there is none."""
    who = P.player_by_name(store, name)
    if who is None and (level := R.rated_name(name)) is not None:
        who = P.player_by_name(store, level)
    if who is None:
        return None
    with store.engine.connect() as conn:
        stats = _stats(conn, who.id)
        history = conn.execute(
            select(func.min(ResultRow.finished_at).label("finished_at"),
                   func.max(ResultRow.mu_after).label("mu_after"),
                   func.max(ResultRow.sigma_after).label("sigma_after"), ResultRow.table_id)
            .where(ResultRow.player_id == who.id, ResultRow.rated.is_(True))
            .group_by(ResultRow.table_id)
            .order_by(func.min(ResultRow.finished_at), ResultRow.table_id)).all()
        newest = select(ResultRow.table_id).where(ResultRow.player_id == who.id) \
            .group_by(ResultRow.table_id) \
            .order_by(func.max(ResultRow.finished_at).desc(), ResultRow.table_id) \
            .limit(PROFILE_GAMES).subquery()
        rows = conn.execute(
            select(ResultRow, TableRow.scores, TableRow.winner)
            .join(TableRow, TableRow.id == ResultRow.table_id)
            .where(ResultRow.player_id == who.id,
                   ResultRow.table_id.in_(select(newest.c.table_id)))
            .order_by(ResultRow.finished_at.desc(), ResultRow.table_id, ResultRow.seat)).all()
        names = seat_holders(conn, sorted({r.table_id for r in rows}))
    games: list[dict[str, Any]] = []
    for r in rows:  # one entry a game, however many of its seats the player held
        if games and games[-1]["id"] == r.table_id:
            game = games[-1]
            game["seats"].append(r.seat)
            game["shares"].append(r.share)
            if game["won"] is not None and game["won"] != r.won:
                game["won"] = None  # on both sides
            continue
        change, after = None, None
        if r.rated and r.mu_before is not None and r.mu_after is not None:
            # the exact move of the rating's centre, read beside the rating it moved to, with
            # that rating's margin (a change of -101 to 1399 ± 301 is no certain -101 points
            # of strength)
            change = round(r.mu_after - r.mu_before)
            if r.sigma_after is not None:
                after = R.rating_text(R.Rating(r.mu_after, r.sigma_after), who.name)
        # the seats named as every list of finished games names them (everyone who held a
        # part of each), and the score with this player's side's points first
        scores = json.loads(r.scores or "[]")
        mine = r.seat % 2
        games.append({"id": r.table_id, "finished_at": r.finished_at, "seat": r.seat,
                      "seats": [r.seat], "won": r.won, "rated": r.rated,
                      "score": [scores[mine], scores[1 - mine]] if len(scores) == 2 else scores,
                      # the part of each seat's decisions made while they held it (1: all)
                      "shares": [r.share],
                      "rating_change": change, "rating_after": after,
                      "scores": scores, "names": names.get(r.table_id, []),
                      "replay": f"/replay/{r.table_id}", "analysis": f"/review/{r.table_id}",
                      # the player's own clear mistakes of that game, posed again as puzzles
                      # (theirs alone where the seat had other holders too)
                      "puzzles": f"/puzzles/{r.table_id}?"
                                 f"{urlencode({'seat': r.seat, 'player': who.name})}"})
    measured = ladder_rating(who.name) if who.kind == "computer" else None
    owner: dict[str, object] | None = None
    if who.kind == "bot":
        from euchre.web.bots import by_name

        bot = by_name(store, who.name)
        owner = {"owner": None if bot is None else bot.owner}
    return {
        "name": who.name, "kind": who.kind, **(owner or {}),
        "rating": rating_of(who.mu, who.sigma, who.name), "rated_games": who.rated_games,
        "rating_text": R.rating_text(None if who.mu is None or who.sigma is None
                                     else R.Rating(who.mu, who.sigma), who.name),
        # where a computer level's rating started: the calibration run's games and rating
        "calibration": None if measured is None else {
            "games": measured.games,
            **R.shown(R.Rating(measured.mu, measured.sigma), who.name)},
        "stats": stats,
        "history": [{"at": h.finished_at, "table": h.table_id,
                     **(rating_of(h.mu_after, h.sigma_after) or {})} for h in history],
        "games": games,
    }


def leaderboard(store: Store, kind: Kind = "all", settled: bool = False,
                limit: int = 100) -> list[dict[str, Any]]:
    """Rated players, the highest rating first: people (guests and accounts), computer
    levels, bot accounts, or all of them; ``settled`` leaves out the provisional ratings.
    Only settled ratings are ranked: a provisional one is listed where its rating puts it,
    without a rank (its rating could be hundreds of points either way)."""
    q = select(PlayerRow).where(PlayerRow.mu.is_not(None), PlayerRow.sigma.is_not(None),
                                PlayerRow.merged_into.is_(None))
    if kind == "people":
        q = q.where(PlayerRow.kind.in_(PEOPLE), PlayerRow.rated_games > 0)
    elif kind == "computers":
        q = q.where(PlayerRow.kind == "computer")
    elif kind == "bots":
        q = q.where(PlayerRow.kind == "bot", PlayerRow.rated_games > 0)
    else:
        q = q.where((PlayerRow.kind == "computer") | (PlayerRow.rated_games > 0))
    if settled:
        q = q.where(PlayerRow.sigma <= PROVISIONAL_SIGMA)
    with store.engine.connect() as conn:
        rows = conn.execute(q.order_by(PlayerRow.mu.desc(), PlayerRow.id).limit(limit)).all()
    out: list[dict[str, Any]] = []
    ranked = 0
    for r in rows:
        shown = R.shown(R.Rating(r.mu, r.sigma), r.name if r.kind == "computer" else None)
        if not shown["provisional"]:
            ranked += 1
        out.append({"rank": None if shown["provisional"] else ranked, "name": r.name,
                    "kind": r.kind, "rated_games": r.rated_games, **shown})
    return out
