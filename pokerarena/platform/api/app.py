"""The FastAPI app: REST under ``/api``, ``/metrics``, the web dashboard at ``/``.

``create_app(data_dir, ...)`` builds an app around a :class:`RunManager`; ``pokerarena
serve`` runs it with uvicorn. See ``docs/api.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from pokerarena.platform.api.manager import RunConflict, RunManager, RunNotFound, TooManyRuns
from pokerarena.platform.api.security import (
    PolicyError,
    QueryLimits,
    QueryTimeout,
    check_http_spec,
    load_or_create_token,
    token_matches,
)
from pokerarena.platform.metrics import ServiceMetrics
from pokerarena.platform.query_pool import (
    PoolClosed,
    PoolLimits,
    QueryBusy,
    QueryKilled,
    QueryMemoryError,
    QueryPool,
    records,
)

log = logging.getLogger("pokerarena.api")

WEB_DIR = Path(__file__).resolve().parents[3] / "dashboards" / "web"
MAX_BODY_BYTES = 256 * 1024
RUN_ID = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"

RunId = Annotated[str, PathParam(pattern=RUN_ID, description="a run id")]

EXAMPLE_SPEC = {"kind": "match", "name": "demo", "seed": 1, "bots": ["random", "call"],
                "hands": 1000, "unit_hands": 250,
                "games": [{"variant": "holdem", "betting": "no_limit",
                           "options": {"blinds": [1, 2]}}]}


class ApiError(Exception):
    """An error answered as JSON ``{"error": message, "status": code}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class QueryRequest(BaseModel):
    """A read-only SQL query over the DuckDB views."""

    sql: str = Field(min_length=1, max_length=20_000, description="one SELECT statement")
    run_id: str | None = Field(None, pattern=RUN_ID, description="only this run's rows")


RETRY_AFTER_S = 1  # what a 429 (busy) or 503 (stopping) answer asks a client to wait


def _error(status: int, message: str) -> JSONResponse:
    headers = {"Retry-After": str(RETRY_AFTER_S)} if status in (429, 503) else None
    return JSONResponse({"error": message, "status": status}, status_code=status,
                        headers=headers)


class BodyLimitMiddleware:
    """Answers 413 to request bodies over ``max_bytes`` (declared or streamed)."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_large = _error(413, f"the request body is over {self.max_bytes} bytes")
        if declared is not None:
            try:
                n = int(declared)
            except ValueError:
                await _error(400, "bad Content-Length")(scope, receive, send)
                return
            if n > self.max_bytes:
                await too_large(scope, receive, send)
                return
        seen = 0
        started = False
        answered = False

        async def limited_receive() -> dict:
            nonlocal seen, answered
            if answered:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes and not started:
                    # Answer now; the app sees a client that went away.
                    answered = True
                    await too_large(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def tracking_send(message: dict) -> None:
            nonlocal started
            if answered:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except Exception:
            if not answered:
                raise


class MetricsMiddleware:
    """Counts requests and their latency by method, route template and status."""

    def __init__(self, app: Any, metrics: ServiceMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = [500]

        async def tracking_send(message: dict) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", None) or None
            if path is None:
                path = "/static" if status[0] < 400 else "unmatched"
            self.metrics.observe_http(scope.get("method", "?"), path, status[0],
                                      time.perf_counter() - t0)


def _runs_sql(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


CROSS_TABLE_SQL = _runs_sql("""
SELECT a.bot AS bot, b.bot AS opponent, count(*) AS hands,
       round(1000.0 * avg(a.net / h.bb), 1) AS mbb_per_hand
FROM seats a
JOIN seats b ON a.run_id = b.run_id AND a.match = b.match AND a.hand = b.hand
     AND a.seat <> b.seat
JOIN hands h ON h.run_id = a.run_id AND h.match = a.match AND h.hand = a.hand
WHERE a.bot <> b.bot
GROUP BY 1, 2 ORDER BY 1, 2
""")

POSITIONS_SQL = _runs_sql("""
SELECT s.position, count(*) AS hands,
       round(avg(CASE WHEN s.net > 0 THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(1000.0 * avg(s.net / h.bb), 1) AS mbb_per_hand
FROM seats s JOIN hands h USING (run_id, match, hand)
GROUP BY 1 ORDER BY 1
""")

CATEGORIES_SQL = _runs_sql("""
SELECT coalesce(high_category, low_category, 'unranked') AS category, count(*) AS hands,
       round(avg(CASE WHEN pot_won > 0 THEN 1.0 ELSE 0.0 END), 4) AS won_rate
FROM seats WHERE showdown
GROUP BY 1 ORDER BY hands DESC, category
""")

LEADERBOARD_SQL = ("SELECT bot, hands, net, mbb_per_hand, ci95_mbb, won_rate, showdown_rate, "
                   "faults, decisions, decisions_per_s FROM leaderboard "
                   "ORDER BY mbb_per_hand DESC, bot")


async def _pooled(pool: QueryPool, statements: dict[str, str], run_id: str | None,
                  limits: QueryLimits) -> dict[str, Any]:
    """Run ``statements`` in the query pool without holding a server thread; the pool's
    refusals and limits become :class:`ApiError` (see docs/api.md, Queries)."""
    from pokerarena.platform.query import QueryError

    try:
        future = pool.submit(statements, run_id, limits)
    except QueryBusy as exc:
        raise ApiError(429, str(exc)) from None
    except PoolClosed as exc:
        raise ApiError(503, str(exc)) from None
    try:
        return await asyncio.wrap_future(future)
    except (QueryTimeout, QueryKilled) as exc:
        raise ApiError(408, str(exc)) from None
    except QueryMemoryError as exc:
        raise ApiError(413, str(exc)) from None
    except (PolicyError, QueryError) as exc:
        raise ApiError(400, str(exc).splitlines()[0]) from None
    except PoolClosed as exc:
        raise ApiError(503, str(exc)) from None


def create_app(data_dir: str | Path, *, token: str | None = None,
               token_file: str | Path | None = None,
               executor_factory: Callable[[], Any] | None = None,
               prepare: Callable[[], None] | None = None, resume: bool = True,
               max_active: int = 4, allowed_adapter_urls: tuple[str, ...] = (),
               query_limits: QueryLimits | None = None, max_body_bytes: int = MAX_BODY_BYTES,
               web_dir: str | Path | None = WEB_DIR,
               query_pool: PoolLimits | None = None,
               on_token_created: Callable[[str, Path], None] | None = None,
               bind_host: str | None = None, allowed_hosts: tuple[str, ...] = ()) -> FastAPI:
    """The service over ``data_dir``.

    ``executor_factory()`` gives each run its executor (default: a metered in-process
    one; ``pokerarena serve`` gives metered Ray executors). ``prepare()`` runs before a
    run is driven (``serve``: start or join Ray once). ``token`` defaults to
    :func:`load_or_create_token`; ``on_token_created(token, path)`` is called when a new
    one is generated (``serve`` prints it). Requests must name in their ``Host`` header
    ``bind_host``, a local name or one of ``allowed_hosts`` (see
    :func:`~pokerarena.platform.api.security.allowed_hosts`), else they get 421.
    """
    from pokerarena.platform.api.executors import MeteredLocalExecutor

    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    if token is None:
        token, path, created = load_or_create_token(data_dir, token_file)
        if created and path is not None and on_token_created is not None:
            on_token_created(token, path)
    limits = query_limits or QueryLimits()
    holder: dict[str, RunManager] = {}
    metrics = ServiceMetrics(runs_by_status=lambda: holder["m"].runs_by_status(),
                             live=lambda: holder["m"].live())
    manager = RunManager(data_dir, metrics, executor_factory or MeteredLocalExecutor,
                         resume=resume, max_active=max_active, prepare=prepare)
    holder["m"] = manager
    pool = QueryPool(data_dir, query_pool)

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202 - FastAPI's lifespan protocol
        actions = manager.start()
        for a in actions:
            log.warning("run %s: %s after a restart", a["run_id"], a["action"])
        app.state.recovered = actions
        pool.start()
        yield
        pool.close()
        manager.shutdown()

    app = FastAPI(title="pokerarena", version="0.1.0", lifespan=lifespan, docs_url=None,
                  description="Submit, follow and cancel runs of poker bots; query results. "
                  "Mutating endpoints need `Authorization: Bearer <token>`.")
    app.state.manager = manager
    app.state.metrics = metrics
    app.state.data_dir = data_dir
    app.state.query_pool = pool

    # errors ---------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = "no such endpoint"
        return _error(exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return _error(422, "; ".join(parts) or "invalid request")

    # auth -----------------------------------------------------------------------------
    def require_token(request: Request) -> None:
        if not token_matches(request.headers.get("authorization"), token):
            raise ApiError(401, "this endpoint needs 'Authorization: Bearer <token>' with "
                           "the service's token")

    auth = [Depends(require_token)]

    def _manager_call(fn: Callable[[], Any]) -> Any:
        try:
            return fn()
        except RunNotFound as exc:
            raise ApiError(404, str(exc)) from None
        except RunConflict as exc:
            raise ApiError(409, str(exc)) from None
        except TooManyRuns as exc:
            raise ApiError(429, str(exc)) from None

    # endpoints ------------------------------------------------------------------------
    @app.get("/api/health", tags=["service"])
    def health() -> dict[str, Any]:
        """Liveness: the service answers."""
        return {"ok": True}

    @app.get("/api/variants", tags=["catalogue"])
    def variants() -> list[dict[str, Any]]:
        """Every shipped variant: id, name, player range, betting systems."""
        from pokerarena.rules import all_variants

        return [{"id": v.id, "name": v.name, "players": list(v.players),
                 "betting": list(v.betting), "source": v.source} for v in all_variants()]

    @app.get("/api/bots", tags=["catalogue"])
    def bots() -> list[dict[str, Any]]:
        """Registered bots (the names a spec submitted here may use)."""
        from pokerarena.platform.spec import registered_bots

        try:
            from pokerarena.bots.registry import REGISTRY
        except ImportError:  # pragma: no cover
            REGISTRY = {}  # noqa: N806
        out = []
        for name in registered_bots():
            entry = REGISTRY.get(name)
            desc = entry[1] if isinstance(entry, tuple) and len(entry) > 1 else ""
            out.append({"name": name, "description": desc})
        return out

    @app.get("/api/runs", tags=["runs"])
    def list_runs() -> list[dict[str, Any]]:
        """Every run, newest first, with status and progress."""
        return manager.list()

    @app.post("/api/runs", tags=["runs"], status_code=201, dependencies=auth)
    def submit_run(spec: Annotated[dict[str, Any], Body(examples=[EXAMPLE_SPEC],
                                                        description="a run spec (the same "
                                                        "fields as a TOML spec file)")]
                   ) -> dict[str, Any]:
        """Submit a run; it starts at once. Bots must be registered names (or allowed
        adapter URLs), variants shipped identifiers."""
        from pokerarena.platform.spec import SpecError, parse_spec

        try:
            check_http_spec(spec, allowed_adapter_urls)
            parsed = parse_spec(spec)
        except (PolicyError, SpecError) as exc:
            raise ApiError(422, str(exc)) from None
        run_id = _manager_call(lambda: manager.submit(parsed))
        return _manager_call(lambda: manager.get(run_id))

    @app.get("/api/runs/{run_id}", tags=["runs"])
    def get_run(run_id: RunId) -> dict[str, Any]:
        """One run: status, live progress (units, hands, hands/s, ETA), spec."""
        return _manager_call(lambda: manager.get(run_id))

    @app.post("/api/runs/{run_id}/cancel", tags=["runs"], status_code=202, dependencies=auth)
    def cancel_run(run_id: RunId) -> dict[str, Any]:
        """Cancel a run: units in flight stop; finished units stay, consistent."""
        return _manager_call(lambda: manager.cancel(run_id))

    async def _run_records(run_id: str, statements: dict[str, str]) -> dict[str, Any]:
        _manager_call(lambda: manager._store(run_id))
        out = await _pooled(pool, statements, run_id, limits)
        return {"run_id": run_id, **{name: records(r) for name, r in out.items()}}

    @app.get("/api/runs/{run_id}/leaderboard", tags=["results"])
    async def leaderboard(run_id: RunId) -> dict[str, Any]:
        """Per bot: hands, net chips, mbb/hand with 95% CI, won rate, faults; and the cross
        table (each bot's mbb/hand at tables with each other bot); ``unreadable_units``:
        the units left out because a part of theirs is damaged. Runs in the query pool
        (429 when it is full)."""
        out = await _run_records(run_id, {"leaderboard": LEADERBOARD_SQL,
                                          "cross_table": CROSS_TABLE_SQL})
        # The units whose parts fail the footer check are left out of the views: say so.
        store = _manager_call(lambda: manager._store(run_id))
        out["unreadable_units"] = [{"unit": unit, "tables": tables} for unit, tables
                                   in sorted(store.damaged_units().items())]
        return out

    @app.get("/api/runs/{run_id}/charts", tags=["results"])
    async def charts(run_id: RunId) -> dict[str, Any]:
        """Win rate by position (0 = first after the button) and hand categories at
        showdown. Runs in the query pool (429 when it is full)."""
        return await _run_records(run_id, {"positions": POSITIONS_SQL,
                                           "categories": CATEGORIES_SQL})

    @app.post("/api/query", tags=["results"], response_class=Response,
              responses={200: {"content": {"application/json": {}},
                               "description": "`columns`, `rows`, `truncated`, "
                               "`truncated_by`, `row_limit`, `byte_limit`"}})
    async def query(req: QueryRequest) -> Response:
        """One read-only SELECT over the views ``hands``, ``seats``, ``actions``,
        ``faults``, ``units``, ``leaderboard`` and the table ``runs``, in a query process
        of its own: limited in time (408), memory (413), rows and bytes (``truncated``),
        queries at once (429); no file access outside the runs, no
        ATTACH/INSTALL/LOAD/SET/COPY."""
        if req.run_id is not None:
            _manager_call(lambda: manager._store(req.run_id))
        out = (await _pooled(pool, {"q": req.sql}, req.run_id, limits))["q"]
        # The worker encoded the rows (at most response_bytes of them): pass them through.
        head = json.dumps({"columns": out["columns"]})[:-1]
        tail = json.dumps({"truncated": out["truncated"] is not None,
                           "truncated_by": out["truncated"], "row_limit": limits.rows,
                           "byte_limit": pool.limits.response_bytes})[1:]
        body = f'{head}, "rows": {out["rows_json"]}, {tail}'
        return Response(body.encode(), media_type="application/json")

    @app.get("/metrics", tags=["service"], response_class=Response)
    def prometheus_metrics() -> Response:
        """Prometheus text exposition (see docs/metrics.md)."""
        body, ctype = metrics.render()
        return Response(body, media_type=ctype)

    # Swagger UI from the swagger-ui-bundle package, not a CDN: /docs works offline.
    app.mount("/docs-assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> Response:
        return get_swagger_ui_html(openapi_url=app.openapi_url, title="pokerarena API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon-32x32.png")

    if web_dir is not None and Path(web_dir).is_dir():
        app.mount("/", StaticFiles(directory=str(web_dir), html=True), name="web")

    from pokerarena.platform.api.security import (
        HostCheckMiddleware,
        RelativePathsMiddleware,
        public_path_roots,
    )
    from pokerarena.platform.api.security import allowed_hosts as hosts_for

    metrics.bind_routes(lambda: [getattr(r, "path", "") for r in app.routes])
    app.add_middleware(RelativePathsMiddleware, roots=public_path_roots(data_dir))
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.add_middleware(BodyLimitMiddleware, max_bytes=max_body_bytes)
    app.add_middleware(HostCheckMiddleware, allowed=hosts_for(bind_host, allowed_hosts))
    return app
