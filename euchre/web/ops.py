"""What an operator's tools ask a server process: is it alive (``/healthz``), may it be sent
players (``/readyz``), and its metrics (``/metrics``, Prometheus text format).

Liveness and readiness are apart on purpose: a process whose database is unreachable is alive
(restarting it would not bring the database back) but not ready (a load balancer or an
orchestrator should send new players elsewhere until it is).
"""

from __future__ import annotations

import asyncio

from sqlalchemy import text
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from euchre.web import metrics
from euchre.web.config import ServerConfig
from euchre.web.server import Server
from euchre.web.store import SCHEMA_REVISION, Store

__all__ = ["READY_TIMEOUT", "draining", "metric_counts", "proxy_middleware", "readiness", "routes",
           "schema_revision"]

#: A database that has not answered a readiness check in this long counts as unreachable.
READY_TIMEOUT = 2.0


def schema_revision(store: Store) -> str | None:
    """The Alembic revision the database is at (``None``: never migrated)."""
    with store.engine.connect() as conn:
        row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def metric_counts(server: Server) -> tuple[int, int, int]:
    """(owned tables, followed tables, websocket connections) of one server process."""
    live = [t.id for t in server.rooms.tables.values() if not t.finished]
    conns = sum(len(c) for c in server.rooms.conns.values())
    if server.cluster is None:
        return len(live), 0, conns
    owned = sum(1 for t in live if server.cluster.owns(t))
    return owned, len(live) - owned, conns


def draining(server: Server) -> bool:
    """Letting its tables go to the other processes before it stops."""
    return server.cluster is not None and server.cluster.stopping


async def readiness(server: Server) -> str | None:
    """Why this process should not be sent players now, or ``None`` when it is ready."""
    if draining(server):
        return "draining: this process is handing its tables to the others and stopping"
    if server.store is None:
        return "starting: the database is not open yet"
    try:
        revision = await asyncio.wait_for(server.db.run(schema_revision), READY_TIMEOUT)
    except TimeoutError:
        return f"the database did not answer within {READY_TIMEOUT:g} s"
    except Exception as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        return "the database cannot be reached: " + (reason[0] if reason else type(exc).__name__)
    if revision != SCHEMA_REVISION:
        return (f"the database schema is at revision {revision or 'none'}, this server needs "
                f"{SCHEMA_REVISION}: run the migrations (start one euchre serve on it)")
    return None


def routes(server: Server) -> list[Route]:
    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "alive"})

    async def readyz(request: Request) -> Response:
        reason = await readiness(server)
        if reason is not None:
            return JSONResponse({"status": "not ready", "reason": reason}, status_code=503)
        return JSONResponse({"status": "ready"})

    async def scrape(request: Request) -> Response:
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE_LATEST)

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", scrape)]


def proxy_middleware(config: ServerConfig) -> list[Middleware]:
    """Behind a proxy every request comes from the proxy's address: only from the addresses
    trusted in ``config.trusted_proxies`` is the client's own taken from X-Forwarded-For (the
    rightmost entry that is not itself a trusted proxy, by uvicorn's middleware), so the
    per-client limits count people, not the proxy, and nobody else can claim an address."""
    if not config.trusted_proxies:
        return []
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    return [Middleware(ProxyHeadersMiddleware, trusted_hosts=list(config.trusted_proxies))]
