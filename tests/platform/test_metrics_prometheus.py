"""/metrics scraped by a real Prometheus (Debian's package) during a small Ray run: the
counters move, and every PromQL expression of the Grafana dashboards parses and names
only metrics the service exposes."""

from __future__ import annotations

import json
import re
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredRayExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import require_binary, small_spec, wait_for
from pokerarena.platform.metrics import METRIC_NAMES

REPO = Path(__file__).resolve().parents[2]
TOKEN = "test-token-metrics"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
NAME = re.compile(r"\bpokerarena_[a-z0-9_]+\b")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




@pytest.fixture(scope="module")
def stack(ray_cluster, tmp_path_factory):
    """The service (Ray executors) and a Prometheus scraping it every second."""
    binary = require_binary("/usr/bin/prometheus")
    tmp = tmp_path_factory.mktemp("prom")
    app = create_app(tmp / "data", token=TOKEN, web_dir=None,
                     executor_factory=lambda: MeteredRayExecutor(1))
    with ServedApp(app) as served:
        config = (REPO / "deploy" / "prometheus.yml").read_text()
        assert "127.0.0.1:8000" in config
        config = config.replace("127.0.0.1:8000", f"127.0.0.1:{served.port}")
        config = config.replace("scrape_interval: 5s", "scrape_interval: 1s")
        (tmp / "prometheus.yml").write_text(config)
        port = _free_port()
        log = open(tmp / "prometheus.log", "wb")  # noqa: SIM115 - closed below
        proc = subprocess.Popen(
            [binary, f"--config.file={tmp / 'prometheus.yml'}",
             f"--storage.tsdb.path={tmp / 'tsdb'}", f"--web.listen-address=127.0.0.1:{port}",
             "--storage.tsdb.retention.time=1h", "--log.level=warn"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        prom = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        api = httpx.Client(base_url=served.url, timeout=30)
        try:
            def ready() -> bool:
                if proc.poll() is not None:
                    raise AssertionError("prometheus exited: "
                                         + (tmp / "prometheus.log").read_text()[-2000:])
                try:
                    return prom.get("/-/ready").status_code == 200
                except httpx.TransportError:
                    return False

            wait_for(ready, 60, what="prometheus ready")
            yield api, prom
        finally:
            prom.close()
            api.close()
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


def _value(prom: httpx.Client, expr: str) -> float | None:
    """The single value of an instant query (None: no series)."""
    body = prom.get("/api/v1/query", params={"query": expr}).json()
    assert body["status"] == "success", body
    result = body["data"]["result"]
    return float(result[0]["value"][1]) if result else None


def test_counters_move_during_a_run(stack):
    api, prom = stack
    wait_for(lambda: _value(prom, 'up{job="pokerarena"}') == 1.0, 60, what="first scrape")
    assert not _value(prom, "sum(pokerarena_hands_total)")  # nothing played yet
    r = api.post("/api/runs", json=small_spec(hands=300, unit_hands=100, bots=("tag", "call")),
                 headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    wait_for(lambda: api.get(f"/api/runs/{run_id}").json()["status"] == "finished", 300,
             what="run finished")
    # after the next scrapes Prometheus holds the run's totals
    wait_for(lambda: _value(prom, "sum(pokerarena_hands_total)") == 300.0, 60,
             what="hands counted by prometheus")
    assert _value(prom, 'pokerarena_hands_total{variant="holdem",betting="no_limit"}') == 300
    assert _value(prom, "sum(pokerarena_units_done_total)") == 3
    assert _value(prom, "sum(pokerarena_actions_total)") > 300
    assert _value(prom, 'sum(pokerarena_bot_decision_seconds_count{bot="tag"})') > 0
    assert _value(prom, 'sum(pokerarena_bot_decision_seconds_count{bot="call"})') > 0
    assert _value(prom, "sum(pokerarena_evaluator_evaluations_total)") > 0
    assert _value(prom, 'sum(pokerarena_parquet_rows_total{table="hands"})') == 300
    assert _value(prom, "sum(pokerarena_parquet_bytes_total)") > 0
    wait_for(lambda: _value(prom, 'pokerarena_runs{status="finished"}') == 1.0, 30,
             what="finished run counted")
    assert _value(prom, 'sum(pokerarena_http_requests_total{route="/api/runs",'
                        'method="POST",status="201"})') == 1
    assert _value(prom, "sum(pokerarena_units_failed_total)") == 0
    # the counters moved while Prometheus watched: scraped at 0 before, higher after
    for counter in ("pokerarena_units_done_total", "pokerarena_parquet_bytes_total"):
        assert _value(prom, f"min_over_time({counter}[10m])") == 0, counter
        assert _value(prom, f"max_over_time({counter}[10m])") > 0, counter
    assert _value(prom, "increase(pokerarena_units_done_total[10m])") > 0


def _exposed_names(api: httpx.Client, prom: httpx.Client) -> set[str]:
    """Sample names the service exposes, from its /metrics as Prometheus scraped it
    (metadata covers families without samples yet, e.g. faults) and from the text."""
    from prometheus_client.parser import text_string_to_metric_families

    names: set[str] = set()
    for family in text_string_to_metric_families(api.get("/metrics").text):
        names.add(family.name)
        names.update(s.name for s in family.samples)
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_sum", "_count"]}
        names.update(family.name + s for s in suffixes.get(family.type, []))
    meta = prom.get("/api/v1/metadata").json()["data"]
    for name, entries in meta.items():
        names.add(name)
        if entries and entries[0]["type"] == "histogram":
            names.update(name + s for s in ("_bucket", "_sum", "_count"))
    return {n for n in names if n.startswith("pokerarena_")}


def _dashboard_exprs() -> list[tuple[str, str]]:
    out = []
    for path in sorted((REPO / "dashboards" / "grafana").glob("*.json")):
        board = json.loads(path.read_text())
        for panel in board["panels"]:
            for target in panel.get("targets", []):
                out.append((f"{path.name}: {panel['title']}", target["expr"]))
    return out


def test_grafana_dashboards_parse_and_name_exposed_metrics(stack):
    api, prom = stack
    exprs = _dashboard_exprs()
    files = {where.split(":")[0] for where, _ in exprs}
    assert {"pokerarena-throughput.json", "pokerarena-units.json", "pokerarena-bots.json",
            "pokerarena-api.json"} <= files
    exposed = _exposed_names(api, prom)
    assert set(METRIC_NAMES) <= exposed  # the documented list is what /metrics has
    assert "pokerarena_not_a_metric_total" not in exposed
    used: set[str] = set()
    for where, expr in exprs:
        r = prom.get("/api/v1/query", params={"query": expr})
        assert r.status_code == 200 and r.json()["status"] == "success", (where, r.text)
        names = set(NAME.findall(expr))
        assert names, (where, expr)
        assert names <= exposed, (where, names - exposed)
        used |= names
    # every area of the issue has a panel
    for needed in ("pokerarena_hands_total", "pokerarena_units_in_flight",
                   "pokerarena_bot_decision_seconds_bucket", "pokerarena_bot_faults_total",
                   "pokerarena_evaluator_evaluations_total", "pokerarena_http_requests_total"):
        assert needed in used
    # a bad expression is reported as such (the check can fail)
    bad = prom.get("/api/v1/query", params={"query": "sum by (bot (rate(x[1m]))"})
    assert bad.status_code == 400 and bad.json()["errorType"] == "bad_data"
