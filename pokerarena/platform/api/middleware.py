"""The service's own ASGI middleware: request body limit, request metrics.

(The Host check and the relative paths are in :mod:`pokerarena.platform.api.security`.)
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from pokerarena.platform.api.context import error_response
from pokerarena.platform.metrics import ServiceMetrics

DRAIN_BYTES = 1 << 20
DRAIN_SECONDS = 2.0


async def _drain(receive: Callable, budget: int) -> None:
    """Read and drop what is left of a refused body, ``budget`` bytes and
    :data:`DRAIN_SECONDS` at most. A server that closes the connection with unread bytes
    makes the kernel reset it, and the client may then lose the 413 it was sent; past
    these bounds (a hostile client) it may."""
    async def read() -> None:
        left = budget
        while left > 0:
            message = await receive()
            if message["type"] != "http.request":
                return
            left -= len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(read(), DRAIN_SECONDS)


class BodyLimitMiddleware:
    """Answers 413 to request bodies over ``max_bytes`` (declared or streamed), after
    reading the rest of a body of at most :data:`DRAIN_BYTES`."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_large = error_response(413, f"the request body is over {self.max_bytes} bytes")
        if declared is not None:
            try:
                n = int(declared)
            except ValueError:
                await error_response(400, "bad Content-Length")(scope, receive, send)
                return
            if n > self.max_bytes:
                if n <= DRAIN_BYTES:
                    await _drain(receive, n)
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
                    if message.get("more_body", False):
                        await _drain(receive, DRAIN_BYTES - seen)
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
