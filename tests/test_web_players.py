"""Players who are someone: nobody shown to others as "You", and a database left by an older
release migrated with every stored game still replaying."""

from __future__ import annotations

import json
import time
from typing import Any

from webtools import LiveServer

from euchre.bots import make_bot
from euchre.match import Match
from euchre.rules import Rules
from euchre.seats import seat_name


def test_a_creator_who_gives_no_name_is_shown_by_the_seat_never_as_you(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        t = srv.create()  # no name at all
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert seats[2]["name"] == "South"
        assert not [s for s in seats if s["name"].casefold() == "you"]
        t = srv.create(name="  ")  # blank: the same
        assert srv.get(f"/api/tables/{t['id']}")[1]["seats"][2]["name"] == "South"


def test_you_and_me_are_refused_as_names_everywhere(db_url: str) -> None:
    with LiveServer(db_url=db_url) as srv:
        for word in ("You", "you", "ME", "Yourself"):
            status, out = srv.post("/api/tables", {"name": word})
            assert status == 400 and "own seat" in out["error"], out
        t = srv.create(name="Ann", my_seat=2, seats=[{"kind": "human"}, {"kind": "computer"},
                                                     {"kind": "human"}, {"kind": "computer"}])
        invite = t["invite_url"].split("#invite=")[1]
        status, out = srv.post(f"/api/tables/{t['id']}/join", {"invite": invite, "name": "You"})
        assert status == 200
        seats = srv.get(f"/api/tables/{t['id']}")[1]["seats"]
        assert seats[0]["name"] == "North"  # the seat's own name, not "You"
        c = srv.connect(t["id"], t["token"])
        c.until_state(lambda s: True)
        c.send({"type": "name", "name": "you"})
        err = c.until(lambda m: m["type"] == "error")
        assert err["code"] == "name_taken" and "own seat" in err["message"]
        c.close()


# A database as the release before players left it ------------------------------------------


def finished_game(seed: int, players: int = 4) -> tuple[dict[str, Any], list[tuple[int, int]],
                                                          list[int], int]:
    """A whole game between rule bots: (rules, actions, scores, winner)."""
    rules = Rules(players=players, target=5)
    m = Match(rules, seed=seed)
    bots = [make_bot("rule", seed=seed + i) for i in range(players)]
    acts: list[tuple[int, int]] = []
    while not m.is_terminal():
        seat = m.current_player
        a = bots[seat].choose(m.view(seat))
        m.apply_action(a)
        acts.append((seat, a))
    assert m.winner is not None
    return rules.to_dict(), acts, list(m.scores), m.winner


def old_database(url: str, games: int = 3) -> list[dict[str, Any]]:
    """A database at revision 0004 (the schema before players) holding finished games, one
    seat named "You" in each, written with plain SQL as that release wrote them."""
    import sqlalchemy as sa

    from euchre.web.store import make_engine, migrate, normalise_url

    engine = make_engine(normalise_url(url))
    migrate(engine, "0004")
    made = []
    with engine.begin() as conn:
        for g in range(games):
            rules, acts, scores, winner = finished_game(1000 + g, players=4 if g else 2)
            n = rules.get("players", 4)
            tid = f"old{g}"
            now = time.time() - 3600 + g
            conn.execute(sa.text(
                "INSERT INTO tables (id, created_at, rules, seed, invite, finished_at, winner, "
                "scores) VALUES (:id, :c, :r, :seed, :inv, :f, :w, :s)"),
                {"id": tid, "c": now, "r": json.dumps(rules), "seed": 1000 + g, "inv": "i" + tid,
                 "f": now + 60, "w": winner, "s": json.dumps(scores)})
            for seat in range(n):
                mine = seat == (2 if n == 4 else 0)
                conn.execute(sa.text(
                    "INSERT INTO seats (table_id, seat, token, kind, level, name, claimed, "
                    "left_at) VALUES (:t, :s, :tok, :k, 'rule', :name, :cl, NULL)"),
                    {"t": tid, "s": seat, "tok": f"tok{g}{seat}", "k": "human" if mine
                     else "computer", "name": "You" if mine else f"{seat_name(seat, n)} (rule)",
                     "cl": mine})
            conn.execute(sa.text("INSERT INTO actions (table_id, seq, seat, action, at) VALUES "
                                 "(:t, :q, :s, :a, :at)"),
                         [{"t": tid, "q": i, "s": s, "a": a, "at": now + i}
                          for i, (s, a) in enumerate(acts)])
            conn.execute(sa.text("INSERT INTO chat (table_id, seat, name, text, at) VALUES "
                                 "(:t, :s, 'You', 'good game', :at)"),
                         {"t": tid, "s": 2 if n == 4 else 0, "at": now + 30})
            made.append({"id": tid, "scores": scores, "winner": winner, "actions": len(acts),
                         "players": n})
    engine.dispose()
    return made


def test_a_database_of_the_release_before_migrates_and_every_game_still_replays(
        db_url: str) -> None:
    made = old_database(db_url)
    with LiveServer(db_url=db_url) as srv:
        listed = {t["id"]: t for t in srv.get("/api/tables/finished")[1]["tables"]}
        for g in made:
            n = g["players"]
            mine = 2 if n == 4 else 0
            status, rep = srv.get(f"/api/tables/{g['id']}/replay")
            assert status == 200, rep
            assert len(rep["frames"]) == g["actions"] + 1
            assert rep["frames"][-1]["scores"] == g["scores"]
            assert rep["names"][mine] == seat_name(mine, n)  # "You" no more
            assert listed[g["id"]]["names"][mine] == seat_name(mine, n)
            assert listed[g["id"]]["scores"] == g["scores"]
            status, rec = srv.get(f"/api/tables/{g['id']}/record")
            assert status == 200 and rec["players"][mine] == seat_name(mine, n)
        from euchre.web.store import Store

        store = Store(db_url)
        try:
            data = store.load_table("old1")
            assert data is not None and data.chat[0]["name"] == "South"
        finally:
            store.close()


