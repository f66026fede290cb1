"""The service's queries run in a small pool of separate, low-priority processes.

DuckDB's ``memory_limit`` covers its buffer manager, not every allocation (list and
string functions allocate outside it: ``list_sort(range(100000000))`` grew a server by
~7 GB), and a query thread in the server competes with everything else the server does.
So each query of ``/api/query`` (and the leaderboard and charts) runs in a worker
process of its own, started with ``python -m pokerarena.platform.query_pool``:

- **memory**: the worker caps its address space (``RLIMIT_AS``) at its idle size plus
  ``memory_bytes``; an allocation past it fails inside the worker only, which answers
  :class:`QueryMemoryError` (or dies, which reads the same) and is replaced;
- **time**: the worker interrupts DuckDB at the query's time limit; the service kills a
  worker that has not answered ``grace_s`` later and starts another;
- **bytes**: the worker encodes the rows as JSON itself and stops at ``response_bytes``
  (``truncated: true``), so no answer is bigger than that, and the server never holds
  or encodes a big result;
- **concurrency**: ``workers`` queries run at once and ``queue`` more may wait; past that
  :meth:`QueryPool.submit` raises :class:`QueryBusy` at once (HTTP 429). The waiting
  happens on the pool's own threads, never on the web server's, so health, submit and
  cancel stay answered; the workers run at ``nice`` priority so runs keep their speed;
- **views**: the pool's :class:`~pokerarena.platform.query.ViewCache` lists a run's parts
  each time but reads each part's footer once; a worker gets the definitions with the
  job and builds its views from them.

The protocol on the worker's stdin/stdout is pickled dicts (the worker's own stdout
is moved to stderr, so nothing else writes there).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, BinaryIO

MIB = 1024 * 1024


@dataclass(frozen=True)
class PoolLimits:
    """How many query processes, how big each may grow, how much an answer may hold."""

    workers: int = 2
    queue: int = 8
    memory_bytes: int = 1024 * MIB
    response_bytes: int = 8 * MIB
    nice: int = 10
    grace_s: float = 3.0
    start_timeout_s: float = 60.0


class QueryBusy(Exception):
    """Every query process is busy and the queue is full (HTTP 429)."""


class QueryMemoryError(Exception):
    """The query needed more memory than a query process may have (HTTP 413)."""


class QueryKilled(Exception):
    """The query process did not answer in time and was killed (HTTP 408)."""


class PoolClosed(Exception):
    """The pool is shut down (the service is stopping: HTTP 503)."""


# the worker process --------------------------------------------------------------


def json_cell(v: Any) -> Any:
    """A JSON-friendly cell: decimals become floats, times ISO text, NaN and infinities
    null, other objects their text."""
    if v is None or isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    import decimal

    if isinstance(v, decimal.Decimal):
        f = float(v)
        return f if math.isfinite(f) else None
    if hasattr(v, "isoformat"):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return [json_cell(x) for x in v]
    if isinstance(v, dict):
        return {str(k): json_cell(x) for k, x in v.items()}
    return str(v)


def _dump(row: Any) -> str:
    return json.dumps(row, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _execute(con: Any, sql: str, seconds: float, row_limit: int, byte_limit: int,
             wrap: bool) -> dict[str, Any]:
    """Run one statement on a sandboxed connection; rows are JSON text (``rows_json``),
    cut at ``row_limit`` rows or ``byte_limit`` bytes."""
    import duckdb

    from pokerarena.platform.query import QueryError
    from pokerarena.platform.sandbox import QueryTimeout, only_select

    body = only_select(con, sql)
    if wrap:
        body = f"SELECT * FROM (\n{body}\n) AS q LIMIT {int(row_limit) + 1}"
    timed_out = threading.Event()

    def interrupt() -> None:
        timed_out.set()
        con.interrupt()

    timer = threading.Timer(seconds, interrupt)
    parts: list[str] = []
    size = 2
    truncated = None
    n = 0
    timer.start()
    try:
        cur = con.execute(body)
        columns = [d[0] for d in cur.description or []]
        while truncated is None:
            batch = cur.fetchmany(256)
            if not batch:
                break
            for row in batch:
                if n >= row_limit:
                    truncated = "rows"
                    break
                text = _dump([json_cell(v) for v in row])
                if size + len(text.encode()) + 1 > byte_limit:
                    truncated = "bytes"
                    break
                parts.append(text)
                size += len(text.encode()) + 1
                n += 1
    except duckdb.Error as exc:
        if timed_out.is_set():
            raise QueryTimeout(f"the query ran past its limit of {seconds:g} s and was "
                               "stopped") from None
        if isinstance(exc, duckdb.OutOfMemoryException):
            raise MemoryError(str(exc)) from None
        raise QueryError(str(exc)) from None
    finally:
        timer.cancel()
    return {"columns": columns, "rows_json": "[" + ",".join(parts) + "]",
            "truncated": truncated}


def _execute_whole(con: Any, sql: str) -> dict[str, Any]:
    """Run ``sql`` (the local user's, trusted: any statement, every row) and return its
    ``columns`` and ``rows`` as Python values."""
    import duckdb

    from pokerarena.platform.query import QueryError

    try:
        cur = con.execute(sql)
        if cur.description is None:
            return {"columns": [], "rows": []}
        return {"columns": [d[0] for d in cur.description], "rows": cur.fetchall()}
    except duckdb.OutOfMemoryException as exc:
        raise MemoryError(str(exc)) from None
    except duckdb.Error as exc:
        raise QueryError(str(exc)) from None


def _run_job(job: dict[str, Any]) -> dict[str, Any]:
    from pokerarena.platform.query import connect, given_views
    from pokerarena.platform.sandbox import QueryLimits, sandboxed_connection

    limits = QueryLimits(**job["limits"])
    with given_views(job["views"]):
        if job.get("trusted"):
            con = connect(job["data_dir"], job["run_id"])
            # the memory it may use is the cap: no spilling to a temporary folder either
            con.execute(f"SET memory_limit = '{limits.memory}'")
            con.execute("SET max_temp_directory_size = '0B'")
        else:
            con = sandboxed_connection(job["data_dir"], job["run_id"], limits)
    try:
        out = {}
        for name, sql in job["statements"].items():
            out[name] = _execute_whole(con, sql) if job.get("trusted") else _execute(
                con, sql, limits.seconds, limits.rows, job["response_bytes"], job["wrap"])
        return {"ok": out}
    finally:
        con.close()


def _vm_size() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _send(out: BinaryIO, msg: dict[str, Any]) -> None:
    pickle.dump(msg, out, protocol=pickle.HIGHEST_PROTOCOL)
    out.flush()


def worker_main(memory_bytes: int, nice: int) -> None:
    """The worker's loop: read a job, answer, until stdin closes. Exits after a memory
    error (a fresh process replaces it)."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    inp = sys.stdin.buffer
    if nice:
        os.nice(nice)
    import duckdb

    from pokerarena.platform.query import QueryError
    from pokerarena.platform.sandbox import PolicyError

    duckdb.connect(":memory:").execute("SET threads = 1").close()  # map what DuckDB maps
    if memory_bytes > 0:
        import resource

        cap = _vm_size() + memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    _send(out, {"ready": os.getpid()})
    while True:
        try:
            job = pickle.load(inp)
        except EOFError:
            return
        retire = False
        try:
            reply: dict[str, Any] = _run_job(job)
        except MemoryError as exc:
            reply, retire = {"memory": str(exc).splitlines()[0] if str(exc) else ""}, True
        except PolicyError as exc:  # QueryTimeout included
            reply = {"policy": str(exc), "timeout": type(exc).__name__ == "QueryTimeout"}
        except QueryError as exc:
            reply = {"query": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug: answer it, keep the traceback
            import traceback

            traceback.print_exc()
            reply, retire = {"bug": f"{type(exc).__name__}: {exc}"}, True
        try:
            _send(out, reply)
        except MemoryError:
            return
        if retire:
            return


# the service's side ----------------------------------------------------------------


class _Worker:
    def __init__(self, limits: PoolLimits) -> None:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pokerarena.platform.query_pool",
             str(limits.memory_bytes), str(limits.nice)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True)
        self.ready = False

    def read(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None when the process went away or ``timeout`` passed."""
        assert self.proc.stdout is not None
        wait = None if math.isinf(timeout) else max(0.0, timeout)  # inf: until it answers
        ready, _, _ = select.select([self.proc.stdout], [], [], wait)
        if not ready:
            return None
        try:
            return pickle.load(self.proc.stdout)
        except (EOFError, pickle.UnpicklingError, OSError):
            return None

    def send(self, job: dict[str, Any]) -> bool:
        assert self.proc.stdin is not None
        try:
            pickle.dump(job, self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()


class QueryPool:
    """``workers`` query processes and at most ``queue`` waiting queries.

    :meth:`submit` returns a :class:`concurrent.futures.Future` (await it with
    ``asyncio.wrap_future``) or raises :class:`QueryBusy`."""

    def __init__(self, data_dir: str | Path, limits: PoolLimits | None = None) -> None:
        from pokerarena.platform.query import ViewCache
        from pokerarena.platform.storage import data_location, is_uri

        where = data_location(data_dir) if isinstance(data_dir, str) else data_dir
        # an object-store URI is its own absolute name
        self.data_dir: str | Path = where if is_uri(where) else Path(where).resolve()
        self.limits = limits or PoolLimits()
        self.views = ViewCache()
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._admitted = 0
        self._closed = False
        self._threads = ThreadPoolExecutor(self.limits.workers,
                                           thread_name_prefix="query-pool")
        self.stats = {"queries": 0, "busy": 0, "memory": 0, "killed": 0, "restarts": 0}

    @property
    def in_flight(self) -> int:
        """Queries admitted and not finished (running or waiting)."""
        with self._lock:
            return self._admitted

    # workers ----------------------------------------------------------------------
    def start(self) -> QueryPool:
        """Start the worker processes now (else on first use)."""
        with self._lock:
            while len(self._idle) < self.limits.workers:
                self._idle.append(self._spawn())
        return self

    def _spawn(self) -> _Worker:
        worker = _Worker(self.limits)
        self._all.add(worker)
        return worker

    def _take(self) -> _Worker:
        with self._lock:
            if self._closed:
                raise PoolClosed("the query service is shutting down")
            worker = self._idle.pop() if self._idle else self._spawn()
        if worker.proc.poll() is not None:
            self._retire(worker)
            with self._lock:
                worker = self._spawn()
        if not worker.ready:
            msg = worker.read(self.limits.start_timeout_s)
            if not msg or "ready" not in msg:
                self._retire(worker)
                raise RuntimeError("a query process did not start")
            worker.ready = True
        return worker

    def _give_back(self, worker: _Worker, healthy: bool) -> None:
        with self._lock:
            closed = self._closed
            if healthy and not closed:
                self._idle.append(worker)
                return
        self._retire(worker)
        if not closed:
            with self._lock:
                if not self._closed:
                    self.stats["restarts"] += 1
                    # starts now, so that the next query finds it warm
                    self._idle.append(self._spawn())

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._all.discard(worker)

    # queries ----------------------------------------------------------------------
    def submit(self, statements: dict[str, str], run_id: str | None, limits: Any,
               wrap: bool = True, *, trusted: bool = False) -> Future:
        """Run the named ``statements`` (each one SELECT) under ``limits``
        (:class:`~pokerarena.platform.api.security.QueryLimits`); the future's result
        maps each name to ``{"columns", "rows_json", "truncated"}`` (``truncated`` is
        None, ``"rows"`` or ``"bytes"``). ``trusted`` (the local CLI's own query): any
        statement on the plain views, every row, no time limit, the answer
        ``{"columns", "rows"}`` with Python values; the process's memory cap holds all
        the same. It raises :class:`QueryMemoryError`,
        :class:`QueryKilled`, :class:`~pokerarena.platform.api.security.PolicyError`
        (refused, timed out) or :class:`~pokerarena.platform.query.QueryError`."""
        with self._lock:
            if self._closed:
                raise PoolClosed("the query service is shutting down")
            if self._admitted >= self.limits.workers + self.limits.queue:
                self.stats["busy"] += 1
                raise QueryBusy(f"{self._admitted} queries are running or waiting (the "
                                f"limit is {self.limits.workers} running and "
                                f"{self.limits.queue} waiting); try again shortly")
            self._admitted += 1
            self.stats["queries"] += 1
        try:
            return self._threads.submit(self._run, statements, run_id, limits, wrap,
                                        trusted)
        except BaseException:
            with self._lock:
                self._admitted -= 1
            raise

    def _run(self, statements: dict[str, str], run_id: str | None, limits: Any,
             wrap: bool, trusted: bool) -> dict[str, Any]:
        try:
            return self._run_in_worker(statements, run_id, limits, wrap, trusted)
        finally:
            with self._lock:
                self._admitted -= 1

    def _run_in_worker(self, statements: dict[str, str], run_id: str | None, limits: Any,
                       wrap: bool, trusted: bool = False) -> dict[str, Any]:
        from pokerarena.platform.query import QueryError
        from pokerarena.platform.sandbox import PolicyError, QueryTimeout

        if len(statements) > 0 and max(len(s) for s in statements.values()) > limits.sql_chars:
            raise PolicyError(f"the query is longer than {limits.sql_chars} characters")
        job = {"data_dir": str(self.data_dir), "run_id": run_id, "statements": statements,
               "limits": asdict(limits), "wrap": wrap, "trusted": trusted,
               "response_bytes": self.limits.response_bytes,
               "views": self.views.definitions(self.data_dir, run_id)}
        worker = self._take()
        healthy = False
        try:
            if not worker.send(job):
                raise QueryMemoryError(self._memory_message())
            deadline = (math.inf if trusted else time.monotonic() + limits.seconds
                        * len(statements) + self.limits.grace_s)
            reply = worker.read(deadline - time.monotonic())
            if reply is None:
                if self._closed:
                    raise PoolClosed("the query service is shutting down")
                if worker.proc.poll() is None and time.monotonic() >= deadline:
                    self.stats["killed"] += 1
                    raise QueryKilled(f"the query ran past its limit of {limits.seconds:g} s"
                                      " and its process was stopped")
                self.stats["memory"] += 1
                raise QueryMemoryError(self._memory_message())
            if "ok" in reply:
                healthy = True
                return reply["ok"]
            if "memory" in reply:
                self.stats["memory"] += 1
                raise QueryMemoryError(self._memory_message())
            healthy = "bug" not in reply
            if "policy" in reply:
                raise (QueryTimeout if reply["timeout"] else PolicyError)(reply["policy"])
            if "query" in reply:
                raise QueryError(reply["query"])
            raise RuntimeError(f"query process: {reply.get('bug', reply)}")
        finally:
            self._give_back(worker, healthy)

    def _memory_message(self) -> str:
        return (f"the query needed more than the {self.limits.memory_bytes // MIB} MiB of "
                "memory a query may use, and was stopped")

    def close(self) -> None:
        """Stop every worker (queries in flight fail) and the pool's threads."""
        with self._lock:
            self._closed = True
            self._idle = []
            workers, self._all = list(self._all), set()
        for w in workers:
            w.kill()
        self._threads.shutdown(wait=False, cancel_futures=True)


def records(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One statement's answer as a list of dicts."""
    cols = result["columns"]
    return [dict(zip(cols, row, strict=True)) for row in json.loads(result["rows_json"])]


def _main(argv: list[str]) -> None:
    worker_main(int(argv[0]), int(argv[1]))


if __name__ == "__main__":
    _main(sys.argv[1:])

__all__ = ["PoolLimits", "QueryPool", "QueryBusy", "QueryMemoryError", "QueryKilled",
           "PoolClosed", "json_cell", "records", "worker_main"]
