"""What every route of the API shares: the service's parts, its errors and its checks.

:func:`~pokerarena.platform.api.app.create_app` builds one :class:`ApiContext` and puts
it on ``app.state.ctx``; a route gets it with ``Depends(context)``. No route is a
closure over the app factory's locals, so each lives in a module of its own
(:mod:`pokerarena.platform.api.routes`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from pokerarena.platform.api.manager import RunConflict, RunManager, RunNotFound, TooManyRuns
from pokerarena.platform.api.security import PolicyError, QueryLimits, QueryTimeout, token_matches
from pokerarena.platform.metrics import ServiceMetrics
from pokerarena.platform.query_pool import (
    PoolClosed,
    QueryBusy,
    QueryKilled,
    QueryMemoryError,
    QueryPool,
)

RUN_ID = r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$"
RunId = Annotated[str, PathParam(pattern=RUN_ID, description="a run id")]
RETRY_AFTER_S = 1  # what a 429 (busy) or 503 (stopping) answer asks a client to wait


class ApiError(Exception):
    """An error answered as JSON ``{"error": message, "status": code}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error_response(status: int, message: str) -> JSONResponse:
    """The JSON error answer (with ``Retry-After`` on 429 and 503)."""
    headers = {"Retry-After": str(RETRY_AFTER_S)} if status in (429, 503) else None
    return JSONResponse({"error": message, "status": status}, status_code=status,
                        headers=headers)


@dataclass(frozen=True)
class ApiContext:
    """The parts of one service: its runs, metrics, query pool and limits, token and
    the adapter URLs a spec submitted here may name."""

    data_dir: Path | str  # a local folder, or an object-store URI
    manager: RunManager
    metrics: ServiceMetrics
    pool: QueryPool
    limits: QueryLimits
    token: str
    allowed_adapter_urls: tuple[str, ...] = ()

    def manager_call(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` with the run manager's refusals as :class:`ApiError` (404, 409, 429)."""
        try:
            return fn()
        except RunNotFound as exc:
            raise ApiError(404, str(exc)) from None
        except RunConflict as exc:
            raise ApiError(409, str(exc)) from None
        except TooManyRuns as exc:
            raise ApiError(429, str(exc)) from None

    def store(self, run_id: str) -> Any:
        """The run's :class:`~pokerarena.platform.storage.RunStore` (404 when unknown)."""
        return self.manager_call(lambda: self.manager.store(run_id))

    async def pooled(self, statements: dict[str, str], run_id: str | None) -> dict[str, Any]:
        """Run ``statements`` in the query pool without holding a server thread; the
        pool's refusals and limits become :class:`ApiError` (see docs/api.md, Queries)."""
        from pokerarena.platform.query import QueryError

        try:
            future = self.pool.submit(statements, run_id, self.limits)
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


def context(request: Request) -> ApiContext:
    """The service's context (a FastAPI dependency)."""
    ctx: ApiContext = request.app.state.ctx
    return ctx


Context = Annotated[ApiContext, Depends(context)]


def require_token(request: Request, ctx: Context) -> None:
    """401 unless the request carries the service's token (mutating endpoints)."""
    if not token_matches(request.headers.get("authorization"), ctx.token):
        raise ApiError(401, "this endpoint needs 'Authorization: Bearer <token>' with "
                       "the service's token")


AUTH = [Depends(require_token)]


def install_error_handlers(app: FastAPI) -> None:
    """Every error answers JSON ``{"error", "status"}``: API errors, HTTP errors (404
    says "no such endpoint") and validation errors (422, naming the fields)."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = "no such endpoint"
        return error_response(exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:5]:
            where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return error_response(422, "; ".join(parts) or "invalid request")
