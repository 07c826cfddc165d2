"""The Starlette application: the HTTP routes, and the wiring of the table server
(``euchre.web.server``) to them and to its websocket route."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import fields
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from euchre.rules import PRESETS, Rules, Scoring
from euchre.state import seat_name
from euchre.web import schemas as S
from euchre.web.config import ServerConfig
from euchre.web.levels import default_level, offered_levels, strongest_level
from euchre.web.limits import LimitError
from euchre.web.replay import replay_frames
from euchre.web.server import Server
from euchre.web.table import Table
from euchre.web.transport import WS_PROTOCOL_MAX_BYTES

__all__ = ["WS_PROTOCOL_MAX_BYTES", "ServerConfig", "make_app", "rules_options"]

STATIC = Path(__file__).parent / "static"
T = TypeVar("T")

#: HTTP request bodies larger than this are refused (a table's options fit in far less).
BODY_MAX_BYTES = 16384

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


#: The home page's label for every ``Rules`` field (a test fails when a field has none, so a
#: new option never shows as its raw key) ...
OPTION_LABELS: dict[str, str] = {
    "players": "Players", "deck": "Deck", "target": "Points to win",
    "stick_the_dealer": "Stick the dealer", "going_alone": "Going alone",
    "defend_alone": "Defend alone", "canadian_loner": "Canadian loner",
    "farmers_hand": "Farmer's hand", "no_ace_no_face": "No ace, no face, no trump misdeal",
    "renege": "Renege", "renege_fix": "A renege may be taken back",
    "renege_penalty": "Renege costs", "misdeal_passes": "Misdeal passes the deal",
    "rows": "Two-handed with rows", "rows_euchre": "Rows: a missed bid is euchred",
    "first_dealer": "First dealer", "alone_timing": "When to go alone",
    "dealer_may_discard_upcard": "Dealer may bury the up-card",
    "defend_alone_vs_partners": "Offer defend alone against partners",
    "single_hand": "One hand is the whole game", "scoring": "Scoring",
}
#: ... and its tooltip: what the option does, in a player's words.
OPTION_HELP: dict[str, str] = {
    "players": "4: two partnerships; 3: cutthroat, each for themself; 2: two-handed",
    "deck": "24 cards 9 to ace; 25 adds the Joker as the highest trump; 32 adds the 7s and 8s",
    "target": "The first side to reach this many points wins the game",
    "stick_the_dealer": "In the second round of bidding the dealer may not pass and must "
                        "name a trump suit",
    "going_alone": "The maker may play without their partner (four players)",
    "defend_alone": "Against a lone maker one defender may also play alone; euchring then "
                    "scores 4",
    "canadian_loner": "In round one the dealer's partner may order up only by going alone",
    "farmers_hand": "redeal: a hand of only 9s and 10s may call a redeal before bidding; swap: "
                    "three 9s and 10s may be swapped for the face-down kitty cards",
    "no_ace_no_face": "A hand with no ace, no face card and no trump may call a misdeal",
    "renege": "prevent: a card that does not follow suit is refused; penalize: it may be "
              "played, and the other side may claim the renege before the hand is scored",
    "renege_fix": "Under renege 'penalize': a player who failed to follow may take the card "
                  "back and play a correct one before the trick is gathered",
    "renege_penalty": "What a proven renege costs: points, the other side scores; deduct, the "
                      "offending side loses those points; tricks, it gives two of its tricks "
                      "to the other side before the hand is scored",
    "misdeal_passes": "After a misdeal (farmer's hand or no ace, no face) the deal passes left "
                      "instead of the same dealer dealing again",
    "rows": "Two players, each with four cards face down in a row, four face up on them and "
            "four in hand; bid 7 to 12 of the twelve tricks, the higher bidder names trump",
    "rows_euchre": "With rows: a maker who takes fewer tricks than it bid is euchred and the "
                   "other player scores (off: a missed bid just scores nothing)",
    "first_dealer": "random, or black jack: deal face up until a black jack appears; that "
                    "player deals first",
    "alone_timing": "with bid: say 'alone' with the bid; after discard: the maker is asked "
                    "after the dealer's discard",
    "dealer_may_discard_upcard": "The dealer who picks up the up-card may bury that same card",
    "defend_alone_vs_partners": "Ask the defenders about defending alone even when the maker "
                                "plays with a partner",
    "single_hand": "The game is a single hand: the match ends after the first scored or "
                   "thrown-in hand",
    "scoring": "Points for each result",
}


def rules_options() -> list[dict[str, Any]]:
    """Every ``Rules`` field with its kind, allowed values and default, so the home page's form
    is generated from the engine and cannot miss an option."""
    hints = get_type_hints(Rules)
    out: list[dict[str, Any]] = []
    base = Rules()
    for f in fields(Rules):
        t = hints[f.name]
        item: dict[str, Any] = {"name": f.name, "label": OPTION_LABELS.get(f.name, f.name),
                                "help": OPTION_HELP.get(f.name, ""),
                                "default": getattr(base, f.name)}
        if f.name == "players":
            item.update(kind="choice", choices=[4, 3, 2])
        elif f.name == "deck":
            item.update(kind="choice", choices=[24, 25, 32])
        elif f.name == "scoring":
            item.update(kind="scoring", default=msgspec.to_builtins(Scoring()),
                        fields=[g.name for g in fields(Scoring)])
        elif get_origin(t) is Literal:
            item.update(kind="choice", choices=list(get_args(t)))
        elif t is int:
            item.update(kind="int", min=1, max=99)
        else:
            item.update(kind="bool")
        out.append(item)
    return out


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def body(request: Request, kind: type[T]) -> T:
    raw = await request.body()
    if len(raw) > BODY_MAX_BYTES:
        raise ValueError(f"request body over {BODY_MAX_BYTES} bytes")
    return msgspec.json.decode(raw or b"{}", type=kind)


def bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def as_json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status,
                    media_type="application/json")


async def options(request: Request) -> Response:
    return JSONResponse({
        "presets": {k: v.to_dict() for k, v in PRESETS.items()},
        "options": rules_options(),
        "levels": offered_levels(),
        "default_level": default_level(),
        "strongest_level": strongest_level(),
    })


async def create(request: Request) -> Response:
    try:
        req = await body(request, S.CreateTable)
        client = request.client.host if request.client else ""
        return JSONResponse(await server_of(request).create_table(req, client),
                            status_code=201)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return bad(f"invalid request: {exc}")
    except LimitError as exc:
        return bad(str(exc), 429)
    except ValueError as exc:
        return bad(str(exc))


async def table_info(request: Request) -> Response:
    t = await server_of(request).rooms.get(request.path_params["table_id"])
    if t is None:
        return bad("there is no table with that address", 404)
    return as_json({
        "id": t.id, "players": t.n, "rules": t.rules.to_dict(),
        "seats": [s.public() for s in t.seats], "finished": t.finished,
        "open_seats": sum(1 for s in t.seats if s.kind == "human" and not s.claimed),
    })


async def join(request: Request) -> Response:
    rooms = server_of(request).rooms
    t = await rooms.get(request.path_params["table_id"])
    if t is None:
        return bad("there is no table with that address", 404)
    try:
        req = await body(request, S.JoinTable)
        seat, token = await rooms.join(t, req)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return bad(f"invalid request: {exc}")
    except ValueError as exc:
        return bad(str(exc))
    except PermissionError as exc:
        return bad(str(exc), 403)
    except LookupError as exc:
        return bad(str(exc), 409)
    return JSONResponse({"seat": seat, "token": token, "url": f"/t/{t.id}#token={token}"})


async def finished(request: Request) -> Response:
    db = server_of(request).db
    return JSONResponse({"tables": await db.run(lambda store: store.list_finished(100))})


async def finished_table(request: Request) -> Table | Response:
    t = await server_of(request).rooms.get(request.path_params["table_id"])
    if t is None:
        return bad("there is no table with that address", 404)
    if not t.finished:
        return bad("the game is still being played: its record (every deal) is "
                   "available once it is over", 409)
    return t


async def record(request: Request) -> Response:
    t = await finished_table(request)
    if isinstance(t, Response):
        return t
    return Response(msgspec.json.format(msgspec.json.encode(t.record()), indent=1),
                    media_type="application/json", headers={
                        "Content-Disposition": f'attachment; filename="euchre-{t.id}.json"'})


async def replay(request: Request) -> Response:
    t = await finished_table(request)
    if isinstance(t, Response):
        return t
    return JSONResponse({"id": t.id, "players": t.n, "names": t.names(),
                         "seat_names": [seat_name(i, t.n) for i in range(t.n)],
                         "rules": t.rules.to_dict(), "target": t.rules.target,
                         "frames": replay_frames(t.rules, t.seed, t.log)})


def page(name: str) -> Callable[[Request], Any]:
    async def handler(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Content-Security-Policy": CSP,
                                                    "Cache-Control": "no-cache"})
    return handler


def make_app(config: ServerConfig) -> Starlette:
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        yield
        await server.stop()

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/replay/{table_id}", page("replay.html")),
        Route("/api/options", options),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/finished", finished),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/replay", replay),
        WebSocketRoute("/ws/{table_id}", server.websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
