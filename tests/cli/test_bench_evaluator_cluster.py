"""``pokerarena bench evaluator --cluster`` on the session's Ray cluster: pinned actors on
every node, random and sequential access per kernel, scaling against one core, the
7-card census split across the actors and checked against the exact published counts,
the rows in Parquet, and the service's /metrics showing them as gauges over real HTTP.
No timing is asserted (the figures are the benchmark's output, not a test)."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import httpx
import pyarrow.parquet as pq
import pytest

from pokerarena.bench.evaluator_cluster import (
    ACCESS,
    KERNELS,
    SEVEN_CARD_CENSUS,
    bench_cluster,
    summarize,
)
from pokerarena.evaluator.census import census7_part, census7_split


def test_split_census_parts_add_up_to_the_exact_census() -> None:
    """Every way of cutting adds up to the exact counts, and a missing part is seen."""
    for parts in (1, 3, 46):
        cuts = census7_split(parts)
        assert len(cuts) <= parts and cuts[0][0] == 0 and cuts[-1][1] == 46
        assert all(a[1] == b[0] for a, b in zip(cuts, cuts[1:], strict=False))
    total: Counter = Counter()
    cuts = census7_split(8)
    for cut in cuts:
        total.update(census7_part(cut))
    assert dict(total) == SEVEN_CARD_CENSUS
    assert sum(total.values()) == 133_784_560
    total.subtract(census7_part(cuts[-1]))
    assert dict(+total) != SEVEN_CARD_CENSUS


@pytest.fixture(scope="module")
def result(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    data = tmp_path_factory.mktemp("evbench")
    return bench_cluster(address=ray_cluster, seconds=0.05, data=data, max_actors=2), data


def test_cluster_benchmark_reports_every_kernel_and_the_exact_census(result) -> None:
    out, _ = result
    assert out["actors"] == 2 and out["nodes"] >= 1
    assert out["census_exact"] is True and out["census_hands"] == 133_784_560
    assert set(out["kernels"]) == {f"{k}/{a}" for k in KERNELS for a in ACCESS}
    for name, k in out["kernels"].items():
        assert k["one_core_evals_per_sec"] > 0 and k["total_evals_per_sec"] > 0, name
        assert k["efficiency"] == pytest.approx(
            k["total_evals_per_sec"] / (out["actors"] * k["one_core_evals_per_sec"]))
    per_node = sum(node["high7/random"] for node in out["per_node"].values())
    assert per_node == pytest.approx(out["total_evals_per_sec"])


def test_rows_in_parquet_one_per_actor_kernel_and_access(result) -> None:
    out, _ = result
    rows = pq.read_table(out["rows_file"]).to_pylist()
    together = [r for r in rows if r["phase"] == "all"]
    assert len(together) == out["actors"] * len(KERNELS) * len(ACCESS)
    assert len([r for r in rows if r["phase"] == "alone"]) == len(KERNELS) * len(ACCESS)
    assert len({(r["node"], r["pid"]) for r in together}) == out["actors"]
    assert all(r["evals"] > 0 and r["seconds"] >= 0.05 for r in rows)
    assert summarize(rows)["kernels"] == out["kernels"]


def test_service_metrics_show_the_latest_benchmark(result) -> None:
    from pokerarena.platform.api import create_app
    from pokerarena.platform.api.server import ServedApp

    out, data = result
    app = create_app(data, token="t" * 32, web_dir=None)
    with ServedApp(app) as served:
        text = httpx.get(f"{served.url}/metrics", timeout=30).text
    lines = [ln for ln in text.splitlines()
             if ln.startswith("pokerarena_bench_evaluator_evals_per_second{")]
    assert len(lines) == len(KERNELS) * len(ACCESS) * out["nodes"]
    high7 = [ln for ln in lines if 'kernel="high7"' in ln and 'access="random"' in ln]
    assert sum(float(ln.rsplit(" ", 1)[1]) for ln in high7) == pytest.approx(
        out["total_evals_per_sec"])
    eff = [ln for ln in text.splitlines()
           if ln.startswith('pokerarena_bench_evaluator_efficiency{access="random",'
                            'kernel="high7"}')]
    assert len(eff) == 1
    assert float(eff[0].rsplit(" ", 1)[1]) == pytest.approx(out["efficiency"])


def test_bad_arguments_exit_2_with_one_line(pokerarena_cli: list[str]) -> None:
    for args in (["--seconds", "0"], ["--max-actors", "0"]):
        p = subprocess.run([*pokerarena_cli, "bench", "evaluator", "--cluster", *args],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, p.stderr
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1

