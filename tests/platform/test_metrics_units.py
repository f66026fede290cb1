"""What workers measure per unit agrees with the unit's own Parquet rows, and the
service's registry aggregates it into the exposition text."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from pokerarena.platform.api.testing import small_spec
from pokerarena.platform.metrics import LATENCY_BUCKETS, ServiceMetrics, measured_unit
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore


def _samples(metrics: ServiceMetrics) -> dict[tuple[str, tuple], float]:
    body, _ = metrics.render()
    out = {}
    for fam in text_string_to_metric_families(body.decode()):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_measured_unit_counts_every_decision_and_evaluation(tmp_path):
    spec = parse_spec(small_spec(hands=80, unit_hands=80, bots=("tag", "random")))
    store = RunStore(tmp_path, "m1")
    store.create(spec)
    unit = plan(spec, "m1").units[0]
    result = measured_unit(unit, str(store.run_dir))
    m = result["metrics"]
    assert (m["variant"], m["betting"]) == ("holdem", "no_limit")
    assert set(m["latency"]) == {"tag", "random"}
    for d in m["latency"].values():
        assert len(d["buckets"]) == len(LATENCY_BUCKETS) + 1
        assert sum(d["buckets"]) == d["count"] > 0 and d["sum"] > 0
    store.append({"event": "unit", "unit": unit.unit_id, "hands": unit.hands})
    _, rows = query(tmp_path, "SELECT sum(decisions) FROM hands", "m1")
    assert sum(d["count"] for d in m["latency"].values()) == rows[0][0]
    _, rows = query(tmp_path, "SELECT count(high_category) + count(low_category) FROM seats "
                    "WHERE showdown", "m1")
    assert m["evaluations"] == rows[0][0] > 0
    assert m["faults"] == {}

    metrics = ServiceMetrics()
    metrics.observe_unit(result)
    metrics.observe_unit(result)
    s = _samples(metrics)
    labels = (("betting", "no_limit"), ("variant", "holdem"))
    assert s[("pokerarena_hands_total", labels)] == 160
    assert s[("pokerarena_units_done_total", ())] == 2
    tag = m["latency"]["tag"]["count"]
    assert s[("pokerarena_bot_decision_seconds_count", (("bot", "tag"),))] == 2 * tag
    assert s[("pokerarena_bot_decision_seconds_bucket", (("bot", "tag"), ("le", "+Inf")))] \
        == 2 * tag


def test_faults_failures_and_http_are_counted():
    metrics = ServiceMetrics(runs_by_status=lambda: {"running": 2}, live=lambda: (3, 12.5))
    metrics.observe_unit({"hands": 10, "rows": {"hands": 10, "actions": 40}, "bytes": 99,
                          "metrics": {"variant": "razz", "betting": "fixed_limit",
                                      "faults": {"slowbot\ttimeout": 2,
                                                 "slowbot\tillegal": 1},
                                      "evaluations": 7, "latency": {}}})
    metrics.observe_failures(2, 1)
    metrics.observe_failures(0, 0)
    metrics.bind_routes(lambda: ["/api/runs"])   # the route templates (create_app binds them)
    metrics.observe_http("GET", "/api/runs", 200, 0.003)
    s = _samples(metrics)
    # "slowbot" is no registered name: its label is "external" (a bounded set)
    assert s[("pokerarena_bot_faults_total", (("bot", "external"), ("kind", "timeout")))] == 2
    assert s[("pokerarena_bot_faults_total", (("bot", "external"), ("kind", "illegal")))] == 1
    assert s[("pokerarena_evaluator_evaluations_total", (("variant", "razz"),))] == 7
    assert s[("pokerarena_units_failed_total", ())] == 2
    assert s[("pokerarena_units_retried_total", ())] == 1
    assert s[("pokerarena_parquet_bytes_total", ())] == 99
    assert s[("pokerarena_runs", (("status", "running"),))] == 2
    assert s[("pokerarena_runs", (("status", "failed"),))] == 0
    assert s[("pokerarena_units_in_flight", ())] == 3
    assert s[("pokerarena_hands_per_second", ())] == 12.5
    key = (("method", "GET"), ("route", "/api/runs"), ("status", "200"))
    assert s[("pokerarena_http_requests_total", key)] == 1


def test_real_faults_reach_the_unit_metrics(tmp_path):
    """A bot that raises: the unit's faults table and its metrics agree, by kind."""
    spec = parse_spec(small_spec(hands=30, unit_hands=30,
                                 bots=("faulty_bots:RaisingBot", "call")))
    store = RunStore(tmp_path, "f1")
    store.create(spec)
    unit = plan(spec, "f1").units[0]
    result = measured_unit(unit, str(store.run_dir))
    faults = result["metrics"]["faults"]
    assert faults and all(key.endswith("\texception") for key in faults)
    store.append({"event": "unit", "unit": unit.unit_id, "hands": unit.hands})
    _, rows = query(tmp_path, "SELECT count(*) FROM faults WHERE kind = 'exception'", "f1")
    assert sum(faults.values()) == rows[0][0] > 0
    metrics = ServiceMetrics()
    metrics.observe_unit(result)
    s = _samples(metrics)
    (key,) = faults
    assert key.split("\t")[0] == "faulty_bots:RaisingBot"   # the unit's own figures
    # the label: a Python path counts as "python" (labels take a fixed set of values)
    assert s[("pokerarena_bot_faults_total", (("bot", "python"), ("kind", "exception")))] \
        == rows[0][0]


def test_bot_labels_stay_bounded_whatever_the_specs_name():
    metrics = ServiceMetrics()

    def series() -> int:
        return sum(1 for name, _ in _samples(metrics)
                   if name.startswith(("pokerarena_bot_faults", "pokerarena_bot_decision")))

    latency = {"buckets": [1] + [0] * len(LATENCY_BUCKETS), "sum": 0.001, "count": 1}
    metrics.observe_unit({"hands": 1, "rows": {}, "metrics": {
        "variant": "holdem", "betting": "no_limit", "faults": {"tag\ttimeout": 1},
        "latency": {"tag": latency}}})
    before = series()
    after_one = 0
    for i in range(50):
        bots = [f"http://127.0.0.1:{9000 + i}/bot", f"pkg{i}.mod:Bot{i}", f"weird-{i}",
                f"tag#{i}"]
        metrics.observe_unit({"hands": 1, "rows": {}, "metrics": {
            "variant": "holdem", "betting": "no_limit",
            "faults": {f"{b}\t{kind}": 1 for b in bots for kind in ("timeout", f"new{i}")},
            "latency": {b: latency for b in bots}}})
        after_one = after_one or series()
    s = _samples(metrics)
    bots = {dict(labels)["bot"] for name, labels in s if name.startswith("pokerarena_bot_")}
    assert bots == {"tag", "http", "python", "external"}
    kinds = {dict(labels)["kind"] for name, labels in s
             if name == "pokerarena_bot_faults_total"}
    assert kinds == {"timeout", "other"}
    # the first round of new names added a few series (3 bot labels: faults of 2 kinds,
    # latency buckets, sum and count); the 49 rounds of other new names after it none
    assert after_one - before == 4 * 2 - 1 + 3 * (len(LATENCY_BUCKETS) + 3)
    assert series() == after_one
    assert s[("pokerarena_bot_faults_total", (("bot", "tag"), ("kind", "timeout")))] == 51
