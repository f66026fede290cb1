"""Liveness and the Prometheus exposition."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from pokerarena.platform.api.context import Context

router = APIRouter(tags=["service"])


@router.get("/api/health")
def health() -> dict[str, Any]:
    """Liveness: the service answers."""
    return {"ok": True}


@router.get("/metrics", response_class=Response)
def prometheus_metrics(ctx: Context) -> Response:
    """Prometheus text exposition (see docs/metrics.md)."""
    body, ctype = ctx.metrics.render()
    return Response(body, media_type=ctype)
