"""Prometheus metrics of the service, and what workers measure for them.

Two halves:

- **Worker side** (:func:`measured_unit`): runs a unit through the workers' own
  :func:`~pokerarena.workers.table.execute_unit` while timing every bot decision into
  fixed histogram buckets, then counts the unit's faults by kind and its showdown
  evaluations from the parts it just wrote. The numbers travel back to the driver inside
  the unit's result (``result["metrics"]``), as plain data. No prometheus-client state
  lives in a Ray worker.
- **Service side** (:class:`ServiceMetrics`): one registry per app; the run manager
  feeds it each finished unit's result (:meth:`ServiceMetrics.observe_unit`) and each
  progress snapshot; the API middleware feeds it HTTP requests. ``/metrics`` renders it.

Why aggregate through the driver instead of Ray's own metrics export: the driver already
receives every unit's result exactly once (retries of a unit replace, not add: a unit
is counted when the driver records it), so the counters agree with the manifest and the
Parquet rows; it needs no extra port per worker and no Ray dashboard/agent scraping, and
it works the same with the in-process executor. See ``docs/metrics.md``.
"""

from __future__ import annotations

import bisect
import contextlib
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

# Bucket upper bounds (seconds) of the bot decision latency histogram.
LATENCY_BUCKETS: tuple[float, ...] = (0.000001, 0.000003, 0.00001, 0.00003, 0.0001, 0.0003,
                                      0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
HTTP_BUCKETS: tuple[float, ...] = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                   1.0, 2.5, 5.0, 10.0)
# Label values of the HTTP instruments come from fixed sets: a client chooses the method
# and the path of its request, and every new label value is a new series for ever.
HTTP_METHODS: frozenset[str] = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE",
                                          "OPTIONS"})
FIXED_ROUTES: frozenset[str] = frozenset({"/static", "unmatched"})
OTHER = "other"
"""The label value of a method or route outside the fixed sets."""
MAX_ROUTES = 100
"""Route labels at most, whatever the app declares (the rest count as ``other``)."""

# ------------------------------------------------------------------------------------
# worker side
# ------------------------------------------------------------------------------------


class DecisionTimer:
    """Per-bot decision latency histograms (bucket counts, sum, count) as plain data."""

    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}

    def observe(self, bot: str, seconds: float) -> None:
        """Count one decision of ``bot`` that took ``seconds``."""
        d = self.data.get(bot)
        if d is None:
            d = self.data[bot] = {"buckets": [0] * (len(LATENCY_BUCKETS) + 1), "sum": 0.0,
                                  "count": 0}
        d["buckets"][bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
        d["sum"] += seconds
        d["count"] += 1

    def wrap(self, bot: Any, name: str) -> Any:
        """Time ``bot.act`` (the instance's attribute: the bot's class is unchanged, so
        the fault policy treats it exactly as before)."""
        inner = getattr(bot, "act", None)
        if not callable(inner):
            return bot
        perf = time.perf_counter

        def act(view: Any) -> Any:
            t0 = perf()
            try:
                return inner(view)
            finally:
                self.observe(name, perf() - t0)

        with contextlib.suppress(AttributeError, TypeError):  # __slots__, read-only
            bot.act = act
        return bot


_local = threading.local()
_patch_lock = threading.Lock()


def _install_bot_hook() -> None:
    """Route the workers' ``new_bot`` through the current thread's timer.

    Checked at every unit (cheap): if someone replaced ``records.new_bot`` since (a test's
    monkeypatch, say), the hook wraps whatever is there now.
    """
    from pokerarena.workers import records

    with _patch_lock:
        current: Callable[[str, int], Any] = records.new_bot
        if getattr(current, "_pokerarena_metered", False):
            return

        def new_bot(name: str, seed: int) -> Any:
            bot = current(name, seed)
            timer = getattr(_local, "timer", None)
            return timer.wrap(bot, name) if timer is not None else bot

        new_bot._pokerarena_metered = True  # type: ignore[attr-defined]
        records.new_bot = new_bot


def measured_unit(unit: dict[str, Any], run_dir: str, attempt: int = 1,
                  cache: Any = None) -> dict[str, Any]:
    """:func:`execute_unit` plus ``result["metrics"]``: decision latency per bot, faults
    per (bot, kind), showdown evaluations, and the unit's variant and betting system."""
    from pokerarena.workers.table import execute_unit

    _install_bot_hook()
    timer = DecisionTimer()
    _local.timer = timer
    try:
        result = execute_unit(unit, run_dir, attempt, cache)
    finally:
        _local.timer = None
    result["metrics"] = {"variant": unit["variant"], "betting": unit["betting"],
                         "latency": timer.data, **_part_counts(run_dir, unit["unit_id"])}
    return result


def _part_counts(run_dir: str, unit_id: str) -> dict[str, Any]:
    """Faults by (bot, kind) and evaluated showdown hands, read back from the parts."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from pokerarena.workers.parts import part_path

    faults: dict[str, int] = {}
    evaluations = 0
    try:
        t = pq.read_table(part_path(run_dir, "faults", unit_id), columns=["bot", "kind"])
        for bot, kind in zip(t.column("bot").to_pylist(), t.column("kind").to_pylist(),
                             strict=True):
            key = f"{bot}\t{kind}"
            faults[key] = faults.get(key, 0) + 1
    except (OSError, KeyError):
        pass
    try:
        t = pq.read_table(part_path(run_dir, "seats", unit_id),
                          columns=["showdown", "high_category", "low_category"])
        sd = t.column("showdown")
        # one evaluation per ranking a seat was scored on at showdown
        high = pc.sum(pc.and_(sd, pc.is_valid(t.column("high_category")))).as_py() or 0
        low = pc.sum(pc.and_(sd, pc.is_valid(t.column("low_category")))).as_py() or 0
        evaluations = int(high) + int(low)
    except (OSError, KeyError):
        pass
    return {"faults": faults, "evaluations": evaluations}


# ------------------------------------------------------------------------------------
# service side
# ------------------------------------------------------------------------------------


class ServiceMetrics:
    """The service's Prometheus registry and the instruments in it."""

    def __init__(self, runs_by_status: Callable[[], dict[str, int]] | None = None,
                 live: Callable[[], tuple[int, float]] | None = None) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics

        disable_created_metrics()  # no *_created series: dashboards never use them
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.hands = Counter("pokerarena_hands", "Hands played, by variant and betting "
                             "system", ["variant", "betting"], registry=r)
        self.actions = Counter("pokerarena_actions", "Actions (log entries) played, by "
                               "variant and betting system", ["variant", "betting"], registry=r)
        self.units_done = Counter("pokerarena_units_done", "Work units finished", registry=r)
        self.units_failed = Counter("pokerarena_units_failed", "Work unit attempts that "
                                    "failed (worker died, error, timeout)", registry=r)
        self.units_retried = Counter("pokerarena_units_retried", "Work units sent again after "
                                     "a failure", registry=r)
        self.faults = Counter("pokerarena_bot_faults", "Bot faults, by bot and kind",
                              ["bot", "kind"], registry=r)
        self.evaluations = Counter("pokerarena_evaluator_evaluations", "Hand evaluations at "
                                   "showdowns (one per seat and ranking)", ["variant"],
                                   registry=r)
        self.parquet_rows = Counter("pokerarena_parquet_rows", "Rows written to Parquet, by "
                                    "table", ["table"], registry=r)
        self.parquet_bytes = Counter("pokerarena_parquet_bytes", "Bytes of Parquet written",
                                     registry=r)
        self.http_requests = Counter("pokerarena_http_requests", "HTTP requests, by method, "
                                     "route and status", ["method", "route", "status"],
                                     registry=r)
        self.http_seconds = Histogram("pokerarena_http_request_duration_seconds", "HTTP "
                                      "request latency, by method and route",
                                      ["method", "route"], buckets=HTTP_BUCKETS, registry=r)
        self._lock = threading.Lock()
        self._latency: dict[str, dict[str, Any]] = {}
        self._runs_by_status = runs_by_status or (lambda: {})
        self._live = live or (lambda: (0, 0.0))
        self._route_source: Callable[[], Iterable[str]] | None = None
        self._routes: frozenset[str] | None = None
        r.register(_Collector(self))

    def bind_routes(self, routes: Callable[[], Iterable[str]]) -> None:
        """Name where the route templates come from (``lambda: [r.path for r in
        app.routes]``); read at the first request, once the app has all its routes. A
        route label is one of them or of :data:`FIXED_ROUTES`, else ``other``."""
        self._route_source = routes
        self._routes = None

    def _route_label(self, route: str) -> str:
        if route in FIXED_ROUTES:
            return route
        if self._routes is None:
            source = self._route_source() if self._route_source is not None else ()
            self._routes = frozenset(sorted(r for r in source if r)[:MAX_ROUTES])
        return route if route in self._routes else OTHER

    # feeding --------------------------------------------------------------------------
    def observe_unit(self, result: dict[str, Any], unit: dict[str, Any] | None = None) -> None:
        """Count a finished unit (its result as the driver received it)."""
        m = result.get("metrics") or {}
        variant = m.get("variant") or (unit or {}).get("variant", "?")
        betting = m.get("betting") or (unit or {}).get("betting", "?")
        rows = result.get("rows", {})
        self.units_done.inc()
        self.hands.labels(variant, betting).inc(int(result.get("hands", 0)))
        self.actions.labels(variant, betting).inc(int(rows.get("actions", 0)))
        for table, n in rows.items():
            self.parquet_rows.labels(table).inc(int(n))
        self.parquet_rows.labels("units").inc(1)
        self.parquet_bytes.inc(int(result.get("bytes", 0)))
        for key, n in (m.get("faults") or {}).items():
            bot, _, kind = key.partition("\t")
            self.faults.labels(bot, kind).inc(int(n))
        self.evaluations.labels(variant).inc(int(m.get("evaluations", 0)))
        with self._lock:
            for bot, d in (m.get("latency") or {}).items():
                agg = self._latency.get(bot)
                if agg is None:
                    agg = self._latency[bot] = {"buckets": [0] * (len(LATENCY_BUCKETS) + 1),
                                                "sum": 0.0, "count": 0}
                for i, c in enumerate(d["buckets"]):
                    agg["buckets"][i] += int(c)
                agg["sum"] += float(d["sum"])
                agg["count"] += int(d["count"])

    def observe_failures(self, failed: int, retried: int) -> None:
        """Add unit failures and retries (deltas)."""
        if failed > 0:
            self.units_failed.inc(failed)
        if retried > 0:
            self.units_retried.inc(retried)

    def observe_http(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one HTTP request. The labels take fixed sets of values: a method outside
        :data:`HTTP_METHODS` and a route that is not a template of the app (see
        :meth:`bind_routes`) count as ``other``, a status outside 100-599 as 0."""
        method = method.upper() if method.upper() in HTTP_METHODS else OTHER
        route = self._route_label(route)
        status = status if 100 <= status <= 599 else 0
        self.http_requests.labels(method, route, str(status)).inc()
        self.http_seconds.labels(method, route).observe(seconds)

    def render(self) -> tuple[bytes, str]:
        """The exposition text and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def latency_snapshot(self) -> dict[str, dict[str, Any]]:
        """A copy of the aggregated decision latency histograms."""
        with self._lock:
            return {b: {"buckets": list(d["buckets"]), "sum": d["sum"], "count": d["count"]}
                    for b, d in self._latency.items()}


METRIC_NAMES = (
    "pokerarena_hands_total", "pokerarena_actions_total", "pokerarena_hands_per_second",
    "pokerarena_units_in_flight", "pokerarena_units_done_total",
    "pokerarena_units_failed_total", "pokerarena_units_retried_total",
    "pokerarena_bot_decision_seconds_bucket", "pokerarena_bot_decision_seconds_sum",
    "pokerarena_bot_decision_seconds_count", "pokerarena_bot_faults_total",
    "pokerarena_evaluator_evaluations_total", "pokerarena_runs",
    "pokerarena_parquet_rows_total", "pokerarena_parquet_bytes_total",
    "pokerarena_http_requests_total", "pokerarena_http_request_duration_seconds_bucket",
    "pokerarena_http_request_duration_seconds_sum",
    "pokerarena_http_request_duration_seconds_count",
)
"""Every sample name ``/metrics`` exposes (what dashboards may name)."""


class _Collector:
    """Gauges computed at scrape time, and the decision latency histogram."""

    def __init__(self, metrics: ServiceMetrics) -> None:
        self.m = metrics

    def describe(self) -> Iterable[Any]:
        return []

    def collect(self) -> Iterable[Any]:
        from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily

        runs = GaugeMetricFamily("pokerarena_runs", "Runs by status", labels=["status"])
        counts = self.m._runs_by_status()
        for status in ("created", "running", "finished", "cancelled", "failed",
                       "interrupted"):
            counts.setdefault(status, 0)
        for status, n in sorted(counts.items()):
            runs.add_metric([status], n)
        yield runs
        in_flight, rate = self.m._live()
        yield GaugeMetricFamily("pokerarena_units_in_flight", "Work units being played now",
                                value=in_flight)
        yield GaugeMetricFamily("pokerarena_hands_per_second", "Hands per second over the "
                                "runs being driven (each run's rate since it started)",
                                value=rate)
        hist = HistogramMetricFamily("pokerarena_bot_decision_seconds", "Bot decision "
                                     "latency, by bot (timed in the workers)", labels=["bot"])
        for bot, d in sorted(self.m.latency_snapshot().items()):
            cum, acc = [], 0
            for bound, c in zip((*LATENCY_BUCKETS, float("inf")), d["buckets"], strict=True):
                acc += c
                cum.append(("+Inf" if bound == float("inf") else repr(bound), acc))
            hist.add_metric([bot], cum, d["sum"])
        yield hist
