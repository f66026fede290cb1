"""Serve an app with uvicorn in a background thread (tests, demos, notebooks).

``with ServedApp(app) as s: httpx.get(s.url + "/api/health")`` listens on 127.0.0.1 on a
free port, waits until uvicorn is up, and on exit runs the app's shutdown (the run
manager stops its runs) and joins the thread.
"""

from __future__ import annotations

import threading
import time
from typing import Any


class ServedApp:
    """An ASGI app served by uvicorn on ``host`` (a free port unless ``port``)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0,
                 start_timeout: float = 60.0) -> None:
        import uvicorn

        self.app = app
        self.host = host
        self.start_timeout = start_timeout
        config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True,
                                       name="uvicorn")
        self.port = port

    @property
    def url(self) -> str:
        """``http://host:port``."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> ServedApp:
        """Start serving; returns once the socket listens."""
        self.thread.start()
        deadline = time.monotonic() + self.start_timeout
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("uvicorn stopped before it started")
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start in time")
            time.sleep(0.02)
        sock = self.server.servers[0].sockets[0]
        self.port = sock.getsockname()[1]
        return self

    def stop(self, timeout: float = 60.0) -> None:
        """Shut down (lifespan shutdown included) and join the thread."""
        self.server.should_exit = True
        self.thread.join(timeout)

    def __enter__(self) -> ServedApp:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
