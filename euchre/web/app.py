"""The Starlette application: the HTTP routes, and the wiring of the table server
(``euchre.web.server``) to them and to its websocket route."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from euchre.errors import quote
from euchre.rules import PRESETS, Rules
from euchre.state import seat_name
from euchre.web import metrics, ops, profiles
from euchre.web import schemas as S
from euchre.web.accounts import Refused, route
from euchre.web.bots import BotPages
from euchre.web.config import ServerConfig
from euchre.web.guard import BodyLimit, Faults
from euchre.web.levels import default_level, level_info, offered_levels, strongest_level
from euchre.web.limits import LimitError
from euchre.web.lobby import wanted_rules
from euchre.web.passkeys import Passkeys
from euchre.web.players import player_by_name
from euchre.web.replay import replay_frames
from euchre.web.results import decisions_of
from euchre.web.server import Server
from euchre.web.table import COMPUTER, Table
from euchre.web.trainer import Trainer
from euchre.web.transport import WS_PROTOCOL_MAX_BYTES

__all__ = ["WS_PROTOCOL_MAX_BYTES", "ServerConfig", "make_app", "rules_options"]

STATIC = Path(__file__).parent / "static"
T = TypeVar("T")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


def rules_options() -> list[dict[str, Any]]:
    """Every ``Rules`` option as JSON (:meth:`euchre.rules.Option.to_json`): the home page's
    form is built from it, so it offers exactly what the engine accepts."""
    return [o.to_json() for o in Rules.options()]


def server_of(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def body(request: Request, kind: type[T]) -> T:
    """The request's JSON body as ``kind`` (its size was bounded while it streamed:
    ``guard.BodyLimit``)."""
    return msgspec.json.decode(await request.body() or b"{}", type=kind)


def bad(message: str, status: int = 400, missing: str | None = None) -> JSONResponse:
    """An error's answer; ``missing`` ("table", "player") says the address's own table or
    player does not exist, so its page shows the one screen saying so (``missing.js``)."""
    body = {"error": message} if missing is None else {"error": message, "missing": missing}
    return JSONResponse(body, status_code=status)


def as_json(value: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(value), status_code=status,
                    media_type="application/json")


async def options(request: Request) -> Response:
    return JSONResponse({
        "presets": {k: v.to_dict() for k, v in PRESETS.items()},
        "options": rules_options(),
        "levels": offered_levels(),
        "level_info": level_info(),
        "default_level": default_level(),
        "strongest_level": strongest_level(),
        "bots": server_of(request).config.bots,
    })


def refusing(handler: Callable[[Request], Awaitable[Response]]
             ) -> Callable[[Request], Awaitable[Response]]:
    """A handler of a request that changes something: its refusals (forgery, a body that is
    no such request, a limit, a bad value) become JSON answers saying what was wrong."""
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return bad(str(exc), exc.status)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            return bad(f"invalid request: {exc}")
        except LimitError as exc:
            return bad(str(exc), 429)
        except ValueError as exc:
            return bad(str(exc))
    return run


@refusing
async def create(request: Request) -> Response:
    server = server_of(request)
    session = await server.accounts.writer(request)
    req = await body(request, S.CreateTable)
    client = request.client.host if request.client else ""
    player = session.player if session is not None else None
    return JSONResponse(await server.create_table(req, client, player), status_code=201)


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
    server = server_of(request)
    rooms = server.rooms
    t = await rooms.get(request.path_params["table_id"])
    if t is None:
        return bad("there is no table with that address", 404)
    try:
        session = await server.accounts.writer(request)
        req = await body(request, S.JoinTable)
        seat, token = await rooms.join(t, req, session.player if session else None)
    except Refused as exc:
        return bad(str(exc), exc.status)
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


async def finished_table(request: Request,
                         once_over: str = "its record (every deal) is available"
                         ) -> Table | Response:
    t = await server_of(request).rooms.get(request.path_params["table_id"])
    if t is None:
        return bad("there is no table with that address", 404, missing="table")
    if not t.finished:
        return bad(f"the game is still being played: {once_over} once it is over", 409)
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
                         "frames": replay_frames(t.rules, t.seed, t.log, t.names())})


async def review(request: Request) -> Response:
    t = await finished_table(request, "it can be reviewed (every player's hand shown)")
    if isinstance(t, Response):
        return t
    status, raw = server_of(request).reviews.answer(t, request.query_params)
    return Response(raw, status_code=status, media_type="application/json")


async def player(request: Request) -> Response:
    name = request.path_params["name"]
    if len(name) > 200:
        return bad("there is no player of that name", 404, missing="player")
    found = await server_of(request).db.run(lambda store: profiles.profile(store, name))
    if found is None:
        return bad("there is no player of that name", 404, missing="player")
    return as_json(found)


async def leaderboard(request: Request) -> Response:
    kind = request.query_params.get("kind", "all")
    if kind not in ("all", "people", "computers", "bots"):
        return bad("kind: one of all, people, computers, bots")
    settled = request.query_params.get("settled", "0")
    if settled not in ("0", "1"):
        return bad("settled: 1 (leave out provisional ratings) or 0")
    rows = await server_of(request).db.run(
        lambda store: profiles.leaderboard(store, kind, settled == "1"))  # type: ignore[arg-type]
    return as_json({"kind": kind, "players": rows})


async def puzzles(request: Request) -> Response:
    t = await finished_table(request, "its mistakes can be replayed as puzzles")
    if isinstance(t, Response):
        return t
    name = request.query_params.get("player")
    player = None
    if name is not None:
        found = await server_of(request).db.run(lambda store: player_by_name(store, name))
        if found is None:
            return bad(f"there is no player named {quote(name[:40])}: player names whose "
                       "mistakes to pose (or leave it out for the whole seat's)", 404)
        seats = t.seats
        level = found.name if found.kind == COMPUTER else None
        player = (found.name, lambda seat: decisions_of(t, seats[seat], found.ids, level))
    status, raw = server_of(request).reviews.puzzles_answer(t, request.query_params, player)
    return Response(raw, status_code=status, media_type="application/json")


async def train_bids(request: Request) -> Response:
    trainer: Trainer = request.app.state.trainer
    status, raw = await trainer.answer(server_of(request).reviews.pool, request.query_params)
    return Response(raw, status_code=status, media_type="application/json")


async def lobby(request: Request) -> Response:
    server = server_of(request)
    return as_json({"tables": await server.lobby.listed(), "bots": server.config.bots})


@refusing
async def play_now(request: Request) -> Response:
    server = server_of(request)
    session = await server.accounts.writer(request)
    req = await body(request, S.PlayNow)
    rules = wanted_rules(req)
    client = request.client.host if request.client else ""
    seated = await server.lobby.play_now(rules, session.player if session else None,
                                         client, req.name, req.bots)
    return JSONResponse(seated.to_json(), status_code=201 if seated.new else 200)


@refusing
async def lobby_join(request: Request) -> Response:
    server = server_of(request)
    session = await server.accounts.writer(request)
    req = await body(request, S.LobbyJoin)
    seated = await server.lobby.join(request.path_params["table_id"],
                                     session.player if session else None, req.name)
    if seated is None:
        return bad("that table has no free seat now (or is no open table): choose another, "
                   "or Play now", 409)
    return JSONResponse(seated.to_json())


def page(name: str) -> Callable[[Request], Any]:
    async def handler(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Content-Security-Policy": CSP,
                                                    "Cache-Control": "no-cache"})
    return handler


def make_app(config: ServerConfig) -> Starlette:
    server = Server(config)
    sampler = metrics.Sampler(lambda: ops.metric_counts(server))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        sampler.start()
        yield
        await sampler.stop()
        await server.stop()

    accounts = server.accounts
    passkeys = Passkeys(accounts)
    bot_pages = BotPages(accounts, config.bots, server.bot_links.revoked)
    routes = [
        Route("/", page("index.html")),
        Route("/players/{name}", page("player.html")),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/account", page("account.html")),
        Route("/api/me", accounts.get_me),
        Route("/api/me/guest", route(accounts.guest), methods=["POST"]),
        Route("/api/me/name", route(accounts.rename), methods=["POST"]),
        Route("/api/account/signup", route(accounts.sign_up), methods=["POST"]),
        Route("/api/account/signin", route(accounts.sign_in), methods=["POST"]),
        Route("/api/account/signout", route(accounts.sign_out), methods=["POST"]),
        Route("/api/account/password", route(accounts.change_password), methods=["POST"]),
        Route("/api/account/passkeys/new", route(passkeys.new_options), methods=["POST"]),
        Route("/api/account/passkeys", route(passkeys.add), methods=["POST"]),
        Route("/api/account/passkeys", route(passkeys.mine), methods=["GET"]),
        Route("/api/account/passkeys/remove", route(passkeys.forget), methods=["POST"]),
        Route("/api/account/passkey/start", route(passkeys.start), methods=["POST"]),
        Route("/api/account/passkey/signin", route(passkeys.sign_in), methods=["POST"]),
        Route("/api/bots", route(bot_pages.list)),
        Route("/api/bots", route(bot_pages.add), methods=["POST"]),
        Route("/api/bots/{name}/token", route(bot_pages.token), methods=["POST"]),
        Route("/api/bots/{name}/revoke", route(bot_pages.revoke), methods=["POST"]),
        Route("/api/players/{name}", player),
        Route("/api/leaderboard", leaderboard),
        Route("/t/{table_id}", page("table.html")),
        Route("/lobby", page("lobby.html")),
        Route("/api/lobby", lobby),
        Route("/api/lobby/{table_id}/join", lobby_join, methods=["POST"]),
        Route("/api/play", play_now, methods=["POST"]),
        Route("/replay/{table_id}", page("replay.html")),
        Route("/review/{table_id}", page("review.html")),
        Route("/puzzles/{table_id}", page("puzzles.html")),
        Route("/train-bids", page("train-bids.html")),
        Route("/api/options", options),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/finished", finished),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/replay", replay),
        Route("/api/tables/{table_id}/review", review),
        WebSocketRoute("/ws/bot", server.bot_links.websocket),  # before a table's: no id
        Route("/api/tables/{table_id}/puzzles", puzzles),
        Route("/api/train-bids", train_bids),
        WebSocketRoute("/ws/{table_id}", server.websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *ops.routes(server),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Faults),
                                Middleware(BodyLimit, seconds=config.request_timeout),
                                *ops.proxy_middleware(config)])
    app.state.server = server
    app.state.trainer = Trainer()
    return app
