"""One request must not take the service down (issue 12), in the query path: queries run
in a pool of separate processes with an OS memory cap, their answers are bounded in
bytes, a full pool answers 429 while health goes on, and the views' definitions are
cached per part file. Real uvicorn on loopback, real HTTP."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import httpx
import pyarrow.parquet as pq
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.security import QueryLimits
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.query_pool import MIB, PoolLimits
from pokerarena.platform.storage import TABLES
from pokerarena.workers.parts import part_path, write_part

TOKEN = "test-token-query-limits"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
WORKERS, QUEUE = 2, 2
RESPONSE_BYTES = 2 * MIB
SECONDS = 3.0


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """A service with one small finished run and a small query pool."""
    data = tmp_path_factory.mktemp("api-qlim")
    app = create_app(data, token=TOKEN, web_dir=None,
                     query_limits=QueryLimits(seconds=SECONDS),
                     query_pool=PoolLimits(workers=WORKERS, queue=QUEUE,
                                           response_bytes=RESPONSE_BYTES))
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        r = client.post("/api/runs", json=small_spec(hands=60, unit_hands=30), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 60)
        yield client, app, data, run_id, served.url


def _query(client: httpx.Client, sql: str, run_id: str | None = None) -> httpx.Response:
    return client.post("/api/query", json={"sql": sql, "run_id": run_id})


def _status_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(field)


def _reset_peak() -> bool:
    """Reset this process's peak RSS (VmHWM); False where the kernel does not allow it."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


class _RssSampler:
    """The server's (this process's) largest RSS while the block runs: VmHWM after a
    reset where the kernel allows it, else VmRSS sampled every 10 ms."""

    def __enter__(self) -> _RssSampler:
        self.base = _status_kb("VmRSS")
        self.hwm = _reset_peak()
        self.peak = self.base
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, _status_kb("VmRSS"))

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self.hwm:
            self.peak = max(self.peak, _status_kb("VmHWM"))

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.base) / 1024


@pytest.mark.parametrize("sql", [
    "SELECT max(len(l)) FROM (SELECT list_sort(range(100000000)) l)",
    "SELECT sum(len(list_sort(range(100000000)))) AS n",
    "SELECT length(repeat('x', 1500000000))",
])
def test_memory_bombs_get_413_and_the_server_stays_small(service, sql):
    client, _app, _data, _run, _url = service
    with _RssSampler() as rss:
        r = _query(client, sql)
    assert r.status_code == 413, r.text
    assert "MiB of memory" in r.json()["error"]
    assert rss.growth_mb < 300, rss.growth_mb
    print(f"{sql}: 413 in {r.elapsed.total_seconds():.2f} s, server RSS "
          f"+{rss.growth_mb:.0f} MB")
    assert _query(client, "SELECT 1 AS ok").json()["rows"] == [[1]]  # a fresh worker


def test_the_issues_list_bomb_is_bounded(service):
    """The issue's own form: DuckDB answers it (its one row) or stops it; either way the
    server does not grow."""
    client, _app, _data, _run, _url = service
    with _RssSampler() as rss:
        r = _query(client, "SELECT count(*) FROM (SELECT list_sort(range(100000000)) l)")
    assert r.status_code in (200, 413), r.text
    if r.status_code == 200:
        assert r.json()["rows"] == [[1]]
    assert rss.growth_mb < 300, rss.growth_mb


def test_answers_are_bounded_in_bytes(service):
    client, _app, _data, _run, _url = service
    with _RssSampler() as rss:
        r = _query(client, "SELECT repeat('x', 50000) AS s FROM range(10000)")
    assert r.status_code == 200, r.text
    assert len(r.content) <= RESPONSE_BYTES + 1024
    body = r.json()
    assert body["truncated"] is True and body["truncated_by"] == "bytes"
    assert body["byte_limit"] == RESPONSE_BYTES and body["columns"] == ["s"]
    assert 0 < len(body["rows"]) < 10000
    assert all(row == ["x" * 50000] for row in body["rows"])
    assert rss.growth_mb < 300, rss.growth_mb
    print(f"500 MB query: {len(r.content)} bytes, {len(body['rows'])} rows, server RSS "
          f"+{rss.growth_mb:.0f} MB")
    # the row limit still holds for small rows
    small = _query(client, "SELECT * FROM range(100000)").json()
    assert small["truncated"] is True and small["truncated_by"] == "rows"
    assert len(small["rows"]) == small["row_limit"] == 10000


def test_a_full_pool_answers_429_and_health_goes_on(service):
    """Health, the run list and a run's record answer while every query process is busy
    and the queue is full (no wall-clock bound asserted: the pool's own count says the
    slow queries were held while they answered); queries past the queue get 429."""
    client, app, _data, run_id, url = service
    pool = app.state.query_pool
    n = WORKERS + QUEUE + 4
    answers: list[int] = []
    retry: list[str | None] = []
    lock = threading.Lock()
    started = threading.Barrier(n + 1)

    def slow() -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            started.wait()
            r = _query(c, "SELECT max(hash(i)) FROM range(10000000000) t(i)")
            with lock:
                answers.append(r.status_code)
                if r.status_code == 429:
                    retry.append(r.headers.get("retry-after"))

    threads = [threading.Thread(target=slow) for _ in range(n)]
    for t in threads:
        t.start()
    started.wait()
    wait_for(lambda: pool.in_flight == WORKERS + QUEUE, 30, 0.01, "a full pool")
    held: list[tuple[int, int]] = []
    latencies: list[float] = []
    while pool.in_flight == WORKERS + QUEUE:
        t0 = time.monotonic()
        codes = (client.get("/api/health").status_code, client.get("/api/runs").status_code,
                 client.get(f"/api/runs/{run_id}").status_code)
        latencies.append(time.monotonic() - t0)
        held.append((pool.in_flight, codes == (200, 200, 200)))
    for t in threads:
        t.join()
    # answered while the slow queries were still held (the pool full before and after)
    assert (WORKERS + QUEUE, True) in held, held
    assert all(ok for _, ok in held), held
    codes = sorted(answers)
    assert codes.count(429) == n - WORKERS - QUEUE, codes
    assert retry and all(r == "1" for r in retry)   # a busy answer says when to come back
    assert codes.count(408) == WORKERS + QUEUE, codes
    # the figure for the notes, not a test: health + runs + run while the pool is full
    print(f"{n} slow queries: {codes}; health, runs and run answered {len(held)} times "
          f"meanwhile, median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms")
    assert _query(client, "SELECT 1 AS ok").status_code == 200


def test_leaderboard_and_charts_run_in_the_pool(service):
    client, _app, _data, run_id, _url = service
    board = client.get(f"/api/runs/{run_id}/leaderboard")
    assert board.status_code == 200, board.text
    assert {row["bot"] for row in board.json()["leaderboard"]} == {"random", "call"}
    assert board.json()["cross_table"]
    charts = client.get(f"/api/runs/{run_id}/charts").json()
    assert charts["positions"] and charts["categories"]
    assert client.get("/api/runs/nope/leaderboard").status_code == 404


def test_view_definitions_are_cached_until_a_unit_lands(service, monkeypatch):
    client, app, data, run_id, _url = service
    views = app.state.query_pool.views
    footers: list[str] = []  # every footer the server reads (it runs in this process)
    for name in ("read_schema", "read_metadata"):
        real = getattr(pq, name)

        def spy(path, *a, _real=real, **k):
            footers.append(str(path))
            return _real(path, *a, **k)

        monkeypatch.setattr(pq, name, spy)
    sql = "SELECT count(*) AS hands FROM hands"
    first = _query(client, sql, run_id)
    assert first.status_code == 200 and first.json()["rows"] == [[60]]
    reads = views.part_reads
    assert reads > 0
    footers.clear()
    again = _query(client, sql, run_id)
    assert again.json()["rows"] == [[60]]
    assert views.part_reads == reads and footers == []  # no part file read again
    client.get(f"/api/runs/{run_id}/leaderboard")
    assert views.part_reads == reads and footers == []

    # a unit lands: a copy of the first unit under a new id (its hands counted twice)
    run_dir = data / "runs" / run_id
    unit = sorted(p.name for p in (run_dir / "units").iterdir())[0].removeprefix("unit=")
    landed = 0
    for table in [t for t in TABLES if t != "units"] + ["units"]:  # units last, as a run
        src = part_path(run_dir, table, unit)
        if src.exists():
            write_part(pq.read_table(src, partitioning=None), run_dir, table, "extra")
            landed += 1
    after = _query(client, sql, run_id)
    assert after.json()["rows"] == [[60 + 30]]
    assert views.part_reads == reads + landed  # only the new parts were read
    assert _query(client, sql, run_id).json()["rows"] == [[90]]
    assert views.part_reads == reads + landed

    # ...and a part that goes away is gone from the views at once
    shutil.rmtree(run_dir / "units" / "unit=extra")
    assert _query(client, sql, run_id).json()["rows"] == [[60]]
    for table in TABLES:
        shutil.rmtree(run_dir / table / "unit=extra", ignore_errors=True)
