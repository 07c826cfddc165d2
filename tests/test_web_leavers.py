"""Leaving a rated game does not escape its result: everyone who held a seat in it is rated with
its side's final result, for their share of the seat's decisions (``euchre.web.results``), and
who held each seat from when to when is stored (``stints``), so it holds across a restart and
across the server processes of a cluster."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from test_web_lobby import guest, play_now_as
from webtools import Client, LiveServer, PgCluster

from euchre.tournament.ratings import Rating, rate_game
from euchre.web.names import computer_name
from euchre.web.results import game_result
from euchre.web.store import ResultRow, SeatData, Stint, Store, TableData, TableRow
from euchre.web.table import Table


def play(clients: dict[int, Client], watcher: Client, enough: dict[int, int]) -> None:
    """The seats of ``clients`` play their turns (the first legal action) until each seat
    ``s`` has made ``enough[s]`` decisions (the others are computers'; 10,000 each: to the
    game's end)."""
    made = dict.fromkeys(enough, 0)
    seq = -1
    while any(made[s] < enough[s] for s in enough):
        def moving(m: dict[str, Any], after: int = seq) -> bool:
            return (m["seq"] > after and m["turn"] in clients) or bool(m["finished"])

        s = watcher.until_state(moving, timeout=30)
        if s["finished"] and all(n >= 10_000 for n in enough.values()):
            return  # played to the end
        assert not s["finished"], "the game ended first"
        seat, seq = s["turn"], s["seq"]

        def now(m: dict[str, Any], at: int = seq) -> bool:
            return bool(m["seq"] == at)

        mine = clients[seat].until_state(now)
        clients[seat].send({"type": "act", "action": mine["legal"][0]["id"], "seq": seq})
        made[seat] += 1


def results(url: str, table_id: str, timeout: float = 30) -> list[Any]:
    """The game's results as stored, once written."""
    store = Store(url)
    try:
        deadline = time.monotonic() + timeout
        while True:
            with store.engine.connect() as conn:
                rows = conn.execute(sa.select(ResultRow).where(ResultRow.table_id == table_id)
                                    .order_by(ResultRow.seat, ResultRow.share.desc())).all()
            if rows or time.monotonic() > deadline:
                return list(rows)
            time.sleep(0.1)
    finally:
        store.close()


def both_leave(srv: LiveServer, bobs: LiveServer | None = None) -> tuple[str, dict[str, Any]]:
    """Ann (seat 0) and Bob (seat 1), guests, at a rated open table (Bob through ``bobs``,
    another server process, if given): Bob leaves after a few decisions (about to lose, say),
    then Ann, and the computers play the game out. Returns the table's id and the guests'
    sessions."""
    bobs = bobs or srv
    ann_http, bob_http = guest(srv.base, "Ann"), guest(bobs.base, "Bob")
    ann, bob = play_now_as(ann_http), play_now_as(bob_http)
    assert (bob["id"], bob["seat"]) == (ann["id"], 1)
    b = bobs.connect(bob["id"], bob["token"], cookies=bob_http.cookies)
    a = srv.connect(ann["id"], ann["token"], cookies=ann_http.cookies)
    play({0: a, 1: b}, a, {0: 2, 1: 2})
    b.send({"type": "leave"})
    # told they left, whichever process holds their page (not that their link was replaced)
    said = b.until(lambda m: m["type"] == "error")
    assert said["code"] == "left" and "you left this seat" in said["message"], said
    a.until_state(lambda s: not s["seats"][1]["claimed"])
    play({0: a}, a, {0: 1})
    a.send({"type": "leave"})  # and then nobody: the computers play it out
    a.until(lambda m: m["type"] == "error")
    a.close()
    b.close()
    return ann["id"], {"Ann": ann_http, "Bob": bob_http}


def check_rated_leavers(rows: list[Any]) -> None:
    """Both leavers rated with their sides' results for their shares; the computers that
    played the rest of their seats counted, not rated; the others rated as before."""
    by_seat: dict[int, list[Any]] = {}
    for r in rows:
        by_seat.setdefault(r.seat, []).append(r)
    assert sorted(by_seat) == [0, 1, 2, 3]
    club = by_seat[2][0].player_id  # the computers' level, rated as one player
    for seat in (0, 1):  # the person's part and the computer's
        person, computer = sorted(by_seat[seat], key=lambda r: r.player_id == club)
        assert computer.player_id == club != person.player_id
        assert 0 < person.share < 1
        assert abs(person.share + computer.share - 1) < 1e-9
        assert person.rated and person.mu_after is not None
        assert (person.mu_after > person.mu_before) == person.won
        assert not computer.rated and computer.mu_after is None  # it stood in for nobody
    for seat in (2, 3):  # computers the whole game: rated as before
        (computer,) = by_seat[seat]
        assert computer.share == 1 and computer.rated


def test_a_player_who_leaves_a_rated_game_is_rated_with_its_result(db_url: str) -> None:
    """Leaving (Bob, then Ann) does not escape the game's result: both are rated with their
    sides' results, each for the share of their seat's decisions made while they held it; the
    computers that played the rest of those seats count towards their sides and are not
    rated for it."""
    with LiveServer(db_url=db_url, leave_grace=0.3) as srv:
        table_id, sessions = both_leave(srv)
        rows = results(db_url, table_id)
        players = {n: srv.get(f"/api/players/{n}")[1] for n in ("Ann", "Bob")}
        home = srv.get("/api/tables/finished")[1]["tables"]
        for client in sessions.values():
            client.close()
    check_rated_leavers(rows)
    # one list of who played, wherever the game is shown: each seat names everyone who held
    # a part of it, its players first, then the computer that played the rest
    (listed,) = [t["names"] for t in home if t["id"] == table_id]
    level = listed[2].split(" (")[1].rstrip(")")
    assert listed == ["Ann / " + computer_name(0, 4, level), "Bob / " + computer_name(1, 4, level),
                      computer_name(2, 4, level), computer_name(3, 4, level)], listed
    assert players["Ann"]["games"][0]["names"] == listed == players["Bob"]["games"][0]["names"]
    for name, seat in (("Ann", 0), ("Bob", 1)):
        prof = players[name]
        assert prof["rated_games"] == 1, name
        assert prof["games"][0]["rated"] and prof["games"][0]["rating_change"] != 0
        # the change is read beside the rating it moved to, with its margin
        assert prof["games"][0]["rating_after"] == prof["rating_text"], prof
        assert 0 < prof["games"][0]["shares"][0] < 1
        won = next(r.won for r in rows if r.seat == seat and r.player_id != rows[-1].player_id)
        assert prof["games"][0]["won"] == won
        # their own game names them at their seat (which the seat's computer held last), and
        # reads with their side's points first
        game = prof["games"][0]
        assert game["names"][seat].startswith(name + " / ")
        assert not game["names"][1 - seat].startswith(name)
        assert game["score"] == [game["scores"][seat % 2], game["scores"][1 - seat % 2]]
        assert (game["score"][0] > game["score"][1]) == won


def test_who_held_each_seat_is_stored_and_read_back_by_the_process_that_rates_the_game(
        db_url: str) -> None:
    """The process that played the game stops before writing its results; the next one
    (a restart, or another process of a cluster) writes them from the database alone, where
    the seats' holders and their stints are: the leavers are rated just the same."""
    with LiveServer(db_url=db_url, leave_grace=0.3) as srv:
        srv.app.state.server.moves.game_over = lambda _table: None  # it never writes them
        table_id, sessions = both_leave(srv)
        store = Store(db_url)
        deadline = time.monotonic() + 30
        while True:
            with store.engine.connect() as conn:
                if conn.execute(sa.select(TableRow.finished_at)
                                .where(TableRow.id == table_id)).scalar() is not None:
                    break
            assert time.monotonic() < deadline, "the computers never finished the game"
            time.sleep(0.1)
        store.close()
        for client in sessions.values():
            client.close()
    assert results(db_url, table_id, timeout=0) == []
    with LiveServer(db_url=db_url):  # writes the results nobody wrote, at its start
        rows = results(db_url, table_id)
    check_rated_leavers(rows)


def test_a_stranger_without_a_players_name_cannot_make_a_rated_game_unrated(
        sqlite_url: str) -> None:
    """Zed takes the free seat beside Ann through the API without a player's name (the pages
    always make a guest first) and plays to the end: the game stays rated for Ann (before, a
    seat held by nobody with a name made the whole game unrated: for the side about to lose,
    a friend sitting down was a way out). Zed's part counts as the seat's computer's, which
    is not rated for it."""
    rules = {"target": 5}
    with LiveServer(db_url=sqlite_url) as srv:
        ann_http = guest(srv.base, "Ann")
        ann = play_now_as(ann_http, rules=rules)
        status, zed = srv.post("/api/play", {"name": "Zed", "rules": rules})
        assert status == 200 and (zed["id"], zed["seat"]) == (ann["id"], 1)
        z = srv.connect(zed["id"], zed["token"])
        a = srv.connect(ann["id"], ann["token"], cookies=ann_http.cookies)
        play({0: a, 1: z}, a, {0: 10_000, 1: 10_000})
        rows = results(sqlite_url, ann["id"])
        prof = srv.get("/api/players/Ann")[1]
        a.close()
        z.close()
        ann_http.close()
    assert prof["rated_games"] == 1 and prof["games"][0]["rated"]
    (seat1,) = [r for r in rows if r.seat == 1]
    club = next(r.player_id for r in rows if r.seat == 3)
    assert seat1.player_id == club and seat1.share == 1 and not seat1.rated
    assert seat1.mu_after is None  # the computer's rating does not move for Zed's play


def test_a_player_who_leaves_through_another_server_process_is_rated_too(
        pg_cluster: PgCluster) -> None:
    """Bob plays and leaves through the process that does not own the table (his taking the
    seat and his leaving are relayed to its owner, which stores them): he is rated all the
    same, as the owner writes the game's results."""
    url = pg_cluster.new_database()
    with LiveServer(db_url=url, cluster=True, leave_grace=0.3) as a, \
            LiveServer(db_url=url, cluster=True, leave_grace=0.3) as b:
        table_id, sessions = both_leave(a, b)
        assert not b.app.state.server.cluster.owns(table_id)
        rows = results(url, table_id)
        for client in sessions.values():
            client.close()
    check_rated_leavers(rows)


def test_a_database_of_the_release_before_migrates_its_results_and_open_seats(
        db_url: str) -> None:
    """Every stored result was a whole game's (share 1); a player holding a seat of an open
    table being played when the database is migrated holds it from the first move."""
    from euchre.web.store import make_engine, migrate, normalise_url

    engine = make_engine(normalise_url(db_url))
    migrate(engine, "0010")
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO players (id, name, key, kind, created_at, seen_at, rated_games) "
            "VALUES (1, 'Ann', 'ann', 'guest', 0, 0, 1)"))
        for t, public, finished in (("done", False, 1.0), ("open", True, None)):
            conn.execute(sa.text(
                "INSERT INTO tables (id, created_at, rules, seed, invite, finished_at, rated, "
                "public, bots) VALUES (:t, 0, '{}', 1, :t, :f, true, :p, false)"),
                {"t": t, "f": finished, "p": public})
            conn.execute(sa.text(
                "INSERT INTO seats (table_id, seat, token, kind, level, name, claimed, "
                "player_id) VALUES (:t, 0, :tok, 'human', 'club', 'Ann', true, 1), "
                "(:t, 1, :tok2, 'human', 'club', 'East (club)', false, NULL)"),
                {"t": t, "tok": t + "0", "tok2": t + "1"})
        conn.execute(sa.text(
            "INSERT INTO results (table_id, seat, player_id, finished_at, won, hands, made, "
            "euchred, euchres, lone, lone_made, lone_marches, lone_euchred, rated) VALUES "
            "('done', 0, 1, 1, true, 3, 1, 0, 0, 0, 0, 0, 0, true)"))
    engine.dispose()
    store = Store(db_url)  # migrates to the newest revision
    try:
        with store.engine.connect() as conn:
            (row,) = conn.execute(sa.select(ResultRow)).all()
            assert (row.table_id, row.player_id, row.share, row.hands) == ("done", 1, 1.0, 3)
        held = store.load_table("open")
        assert held is not None and held.stints == [Stint(0, 1, "human", 0)]
        done = store.load_table("done")
        assert done is not None and done.stints == []
    finally:
        store.close()


def seats(kinds: list[str]) -> list[SeatData]:
    return [SeatData(i, f"t{i}", k, "club", f"p{i}", k != "computer",
                     player_id=10 + i if k != "computer" else None)
            for i, k in enumerate(kinds)]


def played(stints: list[Stint], moves: int) -> Table:
    """An open rated table whose computers played ``moves`` moves (their own, seeded), with
    these stints."""
    data = TableData("x", 0, {"target": 5}, 7, "i", seats(["human", "human", "human",
                                                            "computer"]),
                     [], None, [], rated=True, public=True, stints=stints)
    t = Table(data)
    from euchre.bots.registry import make_bot

    bot = make_bot("rule")
    while not t.match.is_terminal() and t.seq < moves:
        seat = t.match.current_player
        t.apply(seat, bot.choose(t.view(seat)))
    return t


def test_each_holder_of_a_seat_has_the_share_of_its_decisions_made_while_they_held_it() -> None:
    """Seat 1 held by player 11 for the first 30 moves of the log, nobody (its computer) for
    the next 10, player 21 to the end; seat 0 by player 10 throughout; seat 2 taken by
    player 12 who left before its turn came: no part."""
    t = played([Stint(0, 10, "human", 0), Stint(1, 11, "human", 0, 30),
                Stint(1, 21, "human", 40), Stint(2, 12, "human", 3, 3)], 10_000)
    game = game_result(t)
    assert game is not None and game.public
    decided = [sum(1 for s, _ in t.log[lo:hi] if s == 1) for lo, hi in
               ((0, 30), (30, 40), (40, t.seq))]
    parts = {(r.seat, r.player): r for r in game.seats}
    assert parts[(0, 10)].share == 1
    assert [parts[(1, p)].share for p in (11, None, 21)] == \
        [n / sum(decided) for n in decided]
    assert (2, 12) not in parts and parts[(2, None)].share == 1  # never had a turn
    assert parts[(1, 11)].won == parts[(1, 21)].won == (game.winner == 1)
    # each hand belongs to whoever held the seat when it ended
    assert sum(r.hands for r in game.seats if r.seat == 1) == parts[(0, 10)].hands


def test_an_open_game_stored_before_the_seats_holders_were_is_rated_as_it_was() -> None:
    """A game of an open table that ended before the stints were kept (its results unwritten
    when the database was migrated) has none: each seat is its last holder's, the whole
    game, and a free seat its computer's, as the results were written then."""
    t = played([], 10_000)
    t.seats[2].claimed, t.seats[2].player = False, None  # left: free, its computer's
    game = game_result(t)
    assert game is not None
    assert [(r.seat, r.kind, r.player, r.share) for r in game.seats] == [
        (0, "human", 10, 1.0), (1, "human", 11, 1.0), (2, "computer", None, 1.0),
        (3, "computer", None, 1.0)]


def test_a_partial_players_rating_moves_by_its_share_of_a_whole_games() -> None:
    """Shares of 1 change nothing; a quarter of a game moves a rating by about a quarter of
    what the whole game moves it; two holders of one seat at the same rating, half each,
    make the same side as one player there."""
    r = {k: Rating(1500, 200) for k in "abcdxy"}
    whole = rate_game([["a", "b"], ["c", "d"]], r, 0)
    assert rate_game([["a", "b"], ["c", "d"]], r, 0, shares=[[1, 1], [1, 1]]) == whole
    part = rate_game([["a", "b", "x"], ["c", "d"]], r, 0, shares=[[1, 0.75, 0.25], [1, 1]])
    gain = whole["b"].mu - 1500
    assert 0 < part["x"].mu - 1500 < 0.3 * gain and 0.6 * gain < part["b"].mu - 1500 < gain
    halves = rate_game([["a", "x", "y"], ["c", "d"]], r, 0, shares=[[1, 0.5, 0.5], [1, 1]])
    assert abs(halves["c"].mu - whole["c"].mu) < 0.5 * abs(whole["c"].mu - 1500)
    bads: list[list[list[float]]] = [[[1, 0], [1, 1]], [[1, 1.5], [1, 1]], [[1], [1, 1]]]
    for bad in bads:
        try:
            rate_game([["a", "b"], ["c", "d"]], r, 0, shares=bad)
        except ValueError as exc:
            assert "shares" in str(exc)
        else:
            raise AssertionError(f"{bad} was taken")


def test_a_guest_and_the_account_it_signs_in_to_who_held_one_seat_in_turn_have_one_result(
        sqlite_url: str) -> None:
    """Ann left seat 0 as a guest and took it back signed in to her account: when the guest's
    games become the account's, the two results of that seat are one, their shares and hands
    added, and her rating is rated again with the whole seat's share (no error for the two
    rows of one seat, which once could not exist)."""
    from euchre.web import players as P
    from euchre.web.results import GameResult, SeatResult, write_results

    store = Store(sqlite_url)
    try:
        g, a = P.create_guest(store, "Ann").id, P.create_guest(store, "Annie").id
        a = P.make_account(store, a, "Annie", "not-a-real-hash").id
        bob, cy, di = (P.create_guest(store, n).id for n in ("Bob", "Cy", "Di"))
        with store.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO tables (id, created_at, rules, seed, invite, "
                                 "finished_at, winner, scores, rated, public) VALUES ('g', 0, "
                                 "'{}', 0, 'i', 1, 0, '[10, 4]', true, true)"))

        def part(seat: int, player: int, share: float, hands: int) -> SeatResult:
            return SeatResult(seat, "human", player, "club", seat % 2 == 0, hands, 1, 0, 0,
                              0, 0, 0, 0, share)

        assert write_results(store, GameResult("g", True, 4, 0, [
            part(0, g, 0.25, 2), part(0, a, 0.75, 5), part(1, bob, 1, 7), part(2, cy, 1, 7),
            part(3, di, 1, 7)], public=True))
        assert P.merge_guest(store, g, a)
        with store.engine.connect() as conn:
            rows = conn.execute(sa.select(ResultRow).where(ResultRow.seat == 0)).all()
        assert [(r.player_id, r.share, r.hands, r.made) for r in rows] == [(a, 1.0, 7, 2)]
        annie = P.player_by_id(store, a)
        whole = rate_game([[a, cy], [bob, di]], {}, 0)[a]
        assert annie is not None and annie.mu is not None
        assert abs(annie.mu - whole.mu) < 1e-6 and annie.rated_games == 1
    finally:
        store.close()
