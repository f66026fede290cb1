"""``bench scaling``: one fixed workload with 1, 2, ... workers, and the per-unit overhead.

The workload is a heads-up tournament of the ``random`` and ``call`` bots (always
registered, cheap to decide, so the engine and the platform dominate) over hold'em
no-limit, seven-card stud fixed-limit, five-card draw pot-limit and Omaha pot-limit.
Numbers and the 1,000-core calculation they feed: ``docs/scaling.md``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from typing import Any

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import RayExecutor, init_ray
from pokerarena.platform.spec import RunSpec, parse_spec
from pokerarena.platform.storage import RunStore

GAMES = [{"variant": "holdem", "betting": "no_limit"},
         {"variant": "stud7", "betting": "fixed_limit"},
         {"variant": "draw5", "betting": "pot_limit"},
         {"variant": "omaha", "betting": "pot_limit"}]


def workload_spec(hands: int, unit_hands: int, seed: int = 2026) -> RunSpec:
    """The fixed workload: ``hands`` hands in all, cut into ``unit_hands``-hand units."""
    per_game = max(1, hands // len(GAMES))
    return parse_spec({"kind": "tournament", "name": "bench-scaling", "seed": seed,
                       "bots": ["random", "call"], "seats": 2, "hands": per_game,
                       "unit_hands": min(unit_hands, per_game), "games": GAMES})


def _unit_events(data: str, run_id: str) -> list[dict[str, Any]]:
    return [e for e in RunStore(data, run_id).events() if e.get("event") == "unit"]


def bench_scaling(counts: list[int], hands: int = 48_000, unit_hands: int = 2000,
                  overhead_units: int = 300, address: str | None = None,
                  data: str | None = None) -> dict[str, Any]:
    """Run the workload once per worker count; measure the per-unit overhead."""
    tmp = data or tempfile.mkdtemp(prefix="pokerarena-bench-")
    owns = init_ray(address, num_cpus=max(max(counts), os.cpu_count() or 1))
    try:
        spec = workload_spec(hands, unit_hands)
        # Warm-up: start actors once so numba caches and tables are on disk.
        RunDriver.create(workload_spec(len(GAMES) * 4, 4), tmp, RayExecutor(1, address)).run()
        runs = []
        for w in counts:
            driver = RunDriver.create(spec, tmp, RayExecutor(w, address))
            p = driver.run()
            events = _unit_events(tmp, driver.run_id)
            rows = sum(sum(e["rows"].values()) for e in events)
            write_s = sum(e["write_seconds"] for e in events)
            play_s = sum(e["play_seconds"] for e in events)
            cpu_s = sum(e.get("cpu_seconds", 0.0) for e in events)
            runs.append({"workers": w, "hands": p.hands_done, "units": p.units_done,
                         "seconds": round(p.elapsed_s, 3),
                         "hands_per_s": round(p.hands_per_s, 1),
                         "rows": rows, "bytes": p.bytes,
                         "rows_written_per_s_per_worker": round(rows / write_s, 0),
                         "write_share_of_unit_time": round(write_s / (write_s + play_s), 4),
                         "hands_per_s_per_worker_busy": round(p.hands_done / play_s, 1),
                         # share of the workers' wall time spent inside units
                         "worker_utilization": round((play_s + write_s) / (w * p.elapsed_s),
                                                     4),
                         # unit CPU time / unit wall time: below 1 when other processes
                         # take the cores (the efficiency then measures the machine)
                         "cpu_share_in_units": round(cpu_s / (play_s + write_s), 4),
                         "hands_per_cpu_s": round(p.hands_done / cpu_s, 1) if cpu_s else None})
        one = next((r for r in runs if r["workers"] == 1), runs[0])
        base = one["hands_per_s"] / one["workers"]
        cpu_base = one["hands_per_cpu_s"]
        for r in runs:
            r["efficiency"] = round(r["hands_per_s"] / (r["workers"] * base), 4)
            # the same with the cores other processes took out of the picture
            if cpu_base and r["hands_per_cpu_s"]:
                r["cpu_efficiency"] = round(r["hands_per_cpu_s"] / cpu_base
                                            * r["worker_utilization"]
                                            / one["worker_utilization"], 4)

        # Per-unit overhead: many one-hand units through one worker.
        tiny = parse_spec({"kind": "match", "name": "bench-overhead", "seed": 7,
                           "bots": ["random", "call"], "hands": overhead_units,
                           "unit_hands": 1, "games": [GAMES[0]]})
        driver = RunDriver.create(tiny, tmp, RayExecutor(1, address))
        cpu0 = time.process_time()
        p = driver.run()
        cpu = time.process_time() - cpu0
        events = _unit_events(tmp, driver.run_id)
        worker_ms = 1000 * sum(e["play_seconds"] + e["write_seconds"]
                               for e in events) / len(events)
        pipeline_ms = 1000 * p.elapsed_s / p.units_done
        hand_ms = 1000 / base
        unit_ms = unit_hands * hand_ms
        driver_cpu_ms = 1000 * cpu / p.units_done
        overhead = {
            "units": p.units_done,
            "pipeline_ms_per_unit": round(pipeline_ms, 3),
            "driver_cpu_ms_per_unit": round(driver_cpu_ms, 3),
            "worker_fixed_ms_per_unit": round(max(0.0, worker_ms - hand_ms), 3),
            "hand_ms": round(hand_ms, 4),
            "unit_ms": round(unit_ms, 1),
            "overhead_fraction": round(max(0.0, pipeline_ms - hand_ms) / unit_ms, 5),
            "max_workers_per_driver": int(unit_ms / driver_cpu_ms) if driver_cpu_ms else None,
        }
        return {"benchmark": "scaling", "workload": "random vs call heads-up: holdem NL, "
                "stud7 FL, draw5 PL, omaha PL", "hands": spec.hands * len(GAMES),
                "unit_hands": spec.unit_hands, "cpus": os.cpu_count(), "runs": runs,
                "overhead": overhead}
    finally:
        if owns:
            import ray

            ray.shutdown()
        if data is None:
            shutil.rmtree(tmp, ignore_errors=True)
