"""Helpers shared by the service's tests (HTTP client, waiting, external binaries)."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def small_spec(hands: int = 200, unit_hands: int = 50, bots: tuple[str, ...] = ("random",
               "call"), name: str = "t", seed: int = 1) -> dict[str, Any]:
    """A small heads-up hold'em match spec (JSON-ready)."""
    return {"kind": "match", "name": name, "seed": seed, "bots": list(bots), "hands": hands,
            "unit_hands": unit_hands,
            "games": [{"variant": "holdem", "betting": "no_limit",
                       "options": {"blinds": [1, 2]}}]}


def wait_for(predicate: Callable[[], Any], timeout: float = 60.0, every: float = 0.1,
             what: str = "condition") -> Any:
    """Poll ``predicate`` until it returns something truthy; raise after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)


INSTALL = "sudo apt-get update && sudo apt-get install -y chromium prometheus"


def require_binary(path: str) -> str:
    """The path of an external program the test needs (a Debian package it drives); a
    missing one fails the test, never skips it, with the command that installs it
    (``make test`` and ``.ci/run`` run it themselves as root)."""
    import pytest

    found = path if os.path.isabs(path) and os.access(path, os.X_OK) else shutil.which(path)
    if found:
        return found
    pytest.fail(f"{path} is not installed (a Debian package this test drives); install it "
                f"with:  {INSTALL}")
    raise AssertionError("unreachable")


def played(data: Any, spec: dict[str, Any], run_id: str | None = None,
           executor: Any = None) -> Any:
    """``spec`` driven to its end under ``data`` (in this process unless ``executor``
    says otherwise); the driver, after checking the run finished."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.platform.spec import parse_spec

    driver = RunDriver.create(parse_spec(spec), data, executor or LocalExecutor(),
                              run_id=run_id)
    status = driver.run().status
    if status != "finished":
        raise AssertionError(f"run {driver.run_id} ended {status}")
    return driver


def table_rows(data: Any, run_id: str, table: str) -> list[tuple]:
    """Every row of ``table`` of a run without its run id, in a stable order (to compare
    two runs of the same plan)."""
    from pokerarena.platform.query import query

    _, out = query(data, f"SELECT * EXCLUDE (run_id) FROM {table} ORDER BY ALL", run_id)
    return out


@contextmanager
def json_bot_server(answer: Callable[[str, dict[str, Any]], Any],
                    seen: list[dict[str, Any]] | None = None) -> Iterator[str]:
    """A real HTTP bot on 127.0.0.1 for the tests of external bots: every JSON document
    POSTed to it is appended to ``seen`` and answered with ``answer(path, doc)`` as JSON;
    yields its base URL (a bot is the URL plus a path the answer reads)."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            doc = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if seen is not None:
                seen.append(doc)
            body = json.dumps(answer(self.path, doc)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def served_runs(data: Any, specs: list[dict[str, Any]], token: str = "test-token",
                timeout: float = 300.0) -> Iterator[tuple[str, Any, list[str]]]:
    """A service on a free port of 127.0.0.1 over ``data`` (one Ray actor per run, on
    the cluster the process has joined), with each of ``specs`` submitted and played to
    the end: ``(url, client, run_ids)``, the client an ``httpx.Client`` on the service."""
    import httpx

    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.executors import MeteredRayExecutor
    from pokerarena.platform.api.server import ServedApp

    app = create_app(data, token=token, executor_factory=lambda: MeteredRayExecutor(1))
    auth = {"Authorization": f"Bearer {token}"}
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=120) as client:
        ids = []
        for body in specs:
            r = client.post("/api/runs", json=body, headers=auth)
            assert r.status_code == 201, r.text
            ids.append(r.json()["run_id"])
        def all_finished() -> bool:
            return all(client.get(f"/api/runs/{run_id}").json()["status"] == "finished"
                       for run_id in ids)

        wait_for(all_finished, timeout=timeout, every=0.5, what="the runs to finish")
        yield served.url, client, ids
