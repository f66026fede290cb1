"""The FastAPI app factory: REST under ``/api``, ``/metrics``, the web dashboard at ``/``.

``create_app(data_dir, ...)`` builds the service's parts (an
:class:`~pokerarena.platform.api.context.ApiContext`: run manager, metrics, query pool),
includes the routers of :mod:`pokerarena.platform.api.routes` and adds the middleware;
``pokerarena serve`` runs it with uvicorn. See ``docs/api.md``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from pokerarena.platform.api.context import (
    RUN_ID,
    ApiContext,
    ApiError,
    install_error_handlers,
)
from pokerarena.platform.api.manager import RunManager
from pokerarena.platform.api.middleware import BodyLimitMiddleware, MetricsMiddleware
from pokerarena.platform.api.routes import (
    catalogue,
    dashboard,
    hands,
    health,
    query,
    runs,
    sequential,
    studies,
)
from pokerarena.platform.api.security import QueryLimits, load_or_create_token
from pokerarena.platform.metrics import LatestBench, ServiceMetrics
from pokerarena.platform.query_pool import PoolLimits, QueryPool

__all__ = ["MAX_BODY_BYTES", "RUN_ID", "WEB_DIR", "ApiError", "create_app"]

log = logging.getLogger("pokerarena.api")

WEB_DIR = Path(__file__).resolve().parents[3] / "dashboards" / "web"
MAX_BODY_BYTES = 256 * 1024


def _context(data_dir: Path | str, local: Path, token: str,
             executor_factory: Callable[[], Any] | None,
             prepare: Callable[[], None] | None, resume: bool, max_active: int,
             allowed_adapter_urls: tuple[str, ...], query_limits: QueryLimits | None,
             query_pool: PoolLimits | None) -> ApiContext:
    """The service's parts: metrics that read the manager's state, the manager, the pool."""
    from pokerarena.platform.api.executors import MeteredLocalExecutor

    holder: dict[str, RunManager] = {}
    metrics = ServiceMetrics(runs_by_status=lambda: holder["m"].runs_by_status(),
                             live=lambda: holder["m"].live(), bench=LatestBench(local))
    manager = RunManager(data_dir, metrics, executor_factory or MeteredLocalExecutor,
                         resume=resume, max_active=max_active, prepare=prepare)
    holder["m"] = manager
    return ApiContext(data_dir, manager, metrics, QueryPool(data_dir, query_pool),
                      query_limits or QueryLimits(), token, allowed_adapter_urls)


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
    from pokerarena.platform.api.security import (
        HostCheckMiddleware,
        RelativePathsMiddleware,
        public_path_roots,
    )
    from pokerarena.platform.api.security import allowed_hosts as hosts_for
    from pokerarena.platform.storage import data_location, local_folder

    # the runs may live on an object store (s3://); the service's own files stay local
    data_dir = data_location(data_dir) if isinstance(data_dir, str) else Path(data_dir)
    local = local_folder(data_dir) if isinstance(data_dir, str) else data_dir
    local.mkdir(parents=True, exist_ok=True)
    if token is None:
        token, path, created = load_or_create_token(local, token_file)
        if created and path is not None and on_token_created is not None:
            on_token_created(token, path)
    ctx = _context(data_dir, local, token, executor_factory, prepare, resume, max_active,
                   allowed_adapter_urls, query_limits, query_pool)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        actions = ctx.manager.start()
        for a in actions:
            log.warning("run %s: %s after a restart", a["run_id"], a["action"])
        app.state.recovered = actions
        ctx.pool.start()
        yield
        ctx.pool.close()
        ctx.manager.shutdown()

    app = FastAPI(title="pokerarena", version="0.1.0", lifespan=lifespan, docs_url=None,
                  description="Submit, follow and cancel runs of poker bots; query results. "
                  "Mutating endpoints need `Authorization: Bearer <token>`.")
    app.state.ctx = ctx
    app.state.manager = ctx.manager
    app.state.metrics = ctx.metrics
    app.state.data_dir = data_dir
    app.state.web_dir = web_dir
    app.state.query_pool = ctx.pool
    install_error_handlers(app)
    routers = [module.router for module in (health, catalogue, runs, query, sequential,
                                            hands, studies, dashboard)]
    for router in routers:
        app.include_router(router)
    dashboard.mount_files(app, web_dir)
    # the route label's templates: the routers' own routes (FastAPI keeps an included
    # router as one entry of app.routes) and the app's (OpenAPI, the mounts)
    ctx.metrics.bind_routes(lambda: [getattr(r, "path", "") for r in
                                     [*app.routes, *(r for rt in routers for r in rt.routes)]])
    app.add_middleware(RelativePathsMiddleware, roots=public_path_roots(local))
    app.add_middleware(MetricsMiddleware, metrics=ctx.metrics)
    app.add_middleware(BodyLimitMiddleware, max_bytes=max_body_bytes)
    app.add_middleware(HostCheckMiddleware, allowed=hosts_for(bind_host, allowed_hosts))
    app.openapi = lambda: _openapi_with_specs(app)  # type: ignore[method-assign]
    return app


def _openapi_with_specs(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with ``POST /api/runs``'s body stated as what it is: a run
    spec, one model per kind chosen by ``kind`` (the route reads the body itself, so
    that a bad spec is one line naming its field, and FastAPI sees only an object)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        from pokerarena.platform.spec import spec_json_schema

        doc = get_openapi(title=app.title, version=app.version, description=app.description,
                          routes=app.routes)
        spec = spec_json_schema("#/components/schemas/{model}")
        doc.setdefault("components", {}).setdefault("schemas", {}).update(
            spec.pop("$defs", {}))
        body = doc["paths"]["/api/runs"]["post"]["requestBody"]["content"]["application/json"]
        kept = body.get("schema", {})   # the route's description and example stay
        body["schema"] = {**spec, **{k: kept[k] for k in ("description", "examples")
                                     if k in kept}}
        app.openapi_schema = doc
    return app.openapi_schema
