"""``pokerarena bench driver``: the real driver feeding simulated workers. The figures are
the benchmark's output (no timing asserted); what is checked is that every unit is
driven and recorded once, the parts the driver checks are real, and the accounting of
the simulation adds up."""

from __future__ import annotations

import json
import subprocess

from pokerarena.bench.driver_scale import bench_driver


def test_every_simulated_unit_is_driven_and_recorded_once() -> None:
    r = bench_driver(workers=40, unit_seconds=0.1, seconds=0.5)
    assert r["units"] == 40 * 5 and r["units_done"] == r["units"]
    assert r["wall_seconds"] >= r["ideal_seconds"] * 0.7  # units take real time
    assert 0 < r["utilization"] <= 1.0 and 0 <= r["starved_fraction"] < 1.0
    assert r["driver_cpu_ms_per_unit"] > 0 and r["max_workers_at_95pct"] > 0


def test_cli_prints_json_and_refuses_bad_sizes(pokerarena_cli: list[str]) -> None:
    p = subprocess.run([*pokerarena_cli, "bench", "driver", "--workers", "20",
                        "--unit-seconds", "0.05", "--seconds", "0.2", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["units_done"] == 20 * 4
    for bad in (["--workers", "0"], ["--unit-seconds", "0"],
                ["--workers", "100000", "--unit-seconds", "0.1", "--seconds", "10"]):
        q = subprocess.run([*pokerarena_cli, "bench", "driver", *bad], capture_output=True,
                           text=True, timeout=120)
        assert q.returncode == 2 and "Traceback" not in q.stderr, q.stderr
        assert len(q.stderr.strip().splitlines()) == 1
