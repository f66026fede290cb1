"""Prometheus metrics of the service, and what workers measure for them.

Two halves:

- **Worker side** (:func:`measured_unit`): runs a unit through the workers' own
  :func:`~pokerarena.workers.table.execute_unit` with an observer
  (:class:`UnitMetrics`, :mod:`pokerarena.workers.hooks`) that puts every bot decision's
  time (as the table's fault guard measured it) into fixed histogram buckets and counts
  the unit's faults by kind and its showdown evaluations. The numbers travel back to
  the driver inside the unit's result (``result["metrics"]``), as plain data. No
  prometheus-client state lives in a Ray worker.
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
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pokerarena.workers.hooks import UnitObserver
from pokerarena.workers.unit import Unit

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
EXTERNAL_BOTS: tuple[str, ...] = ("http", "python", "external")
"""The ``bot`` label of a bot that is not a registered name (a spec may name any number
of adapter URLs and Python paths: each would be a new series for ever)."""


def bot_label(bot: str) -> str:
    """A bounded ``bot`` label: a registered name as it is (``tag#1``, a second ``tag``
    at the table, counts as ``tag``), an HTTP adapter ``http``, a Python path
    ``python``, anything else ``external``."""
    from pokerarena.workers.bots import bot_names

    base = bot.rsplit("#", 1)[0] if "#" in bot else bot
    if base in bot_names():
        return base
    low = base.lower()
    if low.startswith(("http://", "https://")):
        return "http"
    if ":" in base and "/" not in base:
        return "python"
    return "external"


def fault_kind_label(kind: str) -> str:
    """A bounded ``kind`` label: one of the table's fault kinds, else ``other``."""
    from pokerarena.arena.faults import FAULT_KINDS

    return kind if kind in FAULT_KINDS else OTHER

# ------------------------------------------------------------------------------------
# worker side
# ------------------------------------------------------------------------------------


class DecisionTimer:
    """Per-bot decision latency histograms (bucket counts, sum, count) as plain data."""

    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}

    def observe(self, bot: str, seconds: float, count: int = 1) -> None:
        """Count ``count`` decisions of ``bot`` that took ``seconds`` each."""
        d = self.data.get(bot)
        if d is None:
            d = self.data[bot] = {"buckets": [0] * (len(LATENCY_BUCKETS) + 1), "sum": 0.0,
                                  "count": 0}
        d["buckets"][bisect.bisect_left(LATENCY_BUCKETS, seconds)] += count
        d["sum"] += seconds * count
        d["count"] += count


class UnitMetrics(UnitObserver):
    """What a unit's observer collects for the service: decision latency per bot, faults
    per (bot label, kind), showdown evaluations (see :mod:`pokerarena.workers.hooks`)."""

    def __init__(self) -> None:
        self.timer = DecisionTimer()
        self.faults: dict[str, int] = {}
        self.evaluations = 0

    def on_decision(self, bot: str, seconds: float) -> None:
        self.timer.observe(bot, seconds)

    def on_decisions(self, bot: str, count: int, seconds: float) -> None:
        self.timer.observe(bot, seconds, count)

    def on_hand(self, hand: int, evaluations: int) -> None:
        self.evaluations += evaluations

    def on_fault(self, bot: str, kind: str) -> None:
        key = f"{bot}\t{kind}"
        self.faults[key] = self.faults.get(key, 0) + 1


def measured_unit(unit: Unit, run_dir: str, attempt: int = 1,
                  cache: Any = None) -> dict[str, Any]:
    """:func:`execute_unit` plus ``result["metrics"]``: decision latency per bot, faults
    per (bot, kind), showdown evaluations, and the unit's variant and betting system,
    heard through the unit's observer hooks."""
    from pokerarena.workers.table import execute_unit

    observer = UnitMetrics()
    result = execute_unit(unit, run_dir, attempt, cache, observer)
    result["metrics"] = {"variant": unit.variant, "betting": unit.betting,
                         "latency": observer.timer.data, "faults": observer.faults,
                         "evaluations": observer.evaluations}
    return result


# ------------------------------------------------------------------------------------
# service side
# ------------------------------------------------------------------------------------


class ServiceMetrics:
    """The service's Prometheus registry and the instruments in it."""

    def __init__(self, runs_by_status: Callable[[], dict[str, int]] | None = None,
                 live: Callable[[], tuple[int, float]] | None = None,
                 bench: Callable[[], list[dict[str, Any]]] | None = None) -> None:
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
        self._bench = bench or (lambda: [])
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
            self.faults.labels(bot_label(bot), fault_kind_label(kind)).inc(int(n))
        self.evaluations.labels(variant).inc(int(m.get("evaluations", 0)))
        with self._lock:
            for name, d in (m.get("latency") or {}).items():
                bot = bot_label(name)
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


class LatestBench:
    """The rows of the newest evaluator cluster benchmark under ``<data>/bench/evaluator/``
    (``pokerarena bench evaluator --cluster``), read again only when a newer file lands."""

    def __init__(self, data_dir: str | Path) -> None:
        self.folder = Path(data_dir) / "bench" / "evaluator"
        self._seen: tuple[str, float] | None = None
        self._rows: list[dict[str, Any]] = []

    def __call__(self) -> list[dict[str, Any]]:
        try:
            files = sorted(self.folder.glob("*.parquet"))
            if not files:
                return []
            key = (files[-1].name, files[-1].stat().st_mtime)
            if key != self._seen:
                import pyarrow.parquet as pq

                self._rows = pq.read_table(files[-1]).to_pylist()
                self._seen = key
        except (OSError, ValueError):  # a damaged or vanished file: no gauges, no error
            return []
        return self._rows


def _bench_gauges(rows: list[dict[str, Any]]) -> Iterable[Any]:
    """Gauges of a benchmark's rows: the cluster's rate per node, one core's rate, and the
    scaling efficiency, by kernel and access."""
    from prometheus_client.core import GaugeMetricFamily

    rate = GaugeMetricFamily("pokerarena_bench_evaluator_evals_per_second", "Hand "
                             "evaluations per second of the latest cluster benchmark, all "
                             "actors at once, by node", labels=["kernel", "access", "node"])
    one = GaugeMetricFamily("pokerarena_bench_evaluator_one_core_evals_per_second",
                            "The same, one actor alone", labels=["kernel", "access"])
    eff = GaugeMetricFamily("pokerarena_bench_evaluator_efficiency", "Scaling efficiency: "
                            "the cluster's rate over actors x one core's",
                            labels=["kernel", "access"])
    by_node: dict[tuple[str, str, str], float] = {}
    actors: dict[tuple[str, str], int] = {}
    alone: dict[tuple[str, str], float] = {}
    for r in rows:
        k = (str(r["kernel"]), str(r["access"]))
        if r["phase"] == "alone":
            alone[k] = float(r["evals_per_sec"])
        else:
            by_node[(*k, str(r["node"]))] = by_node.get((*k, str(r["node"])), 0.0) + float(
                r["evals_per_sec"])
            actors[k] = actors.get(k, 0) + 1
    for (kernel, access, node), v in sorted(by_node.items()):
        rate.add_metric([kernel, access, node[:12]], v)
    for k, v in sorted(alone.items()):
        one.add_metric(list(k), v)
        total = sum(x for (a, b, _), x in by_node.items() if (a, b) == k)
        if v and actors.get(k):
            eff.add_metric(list(k), total / (actors[k] * v))
    yield from (rate, one, eff)


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
    "pokerarena_bench_evaluator_evals_per_second",
    "pokerarena_bench_evaluator_one_core_evals_per_second",
    "pokerarena_bench_evaluator_efficiency",
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
        yield from _bench_gauges(self.m._bench())
