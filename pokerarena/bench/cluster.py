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


def _ceiling_child(start_at: float, seconds: float, out: Any) -> None:
    """Play random vs call hold'em in a plain process for ``seconds``; report hands/s."""
    from pokerarena.arena.match import play_match
    from pokerarena.bots.registry import make_bot
    from pokerarena.engine import Game

    game = Game("holdem", {"betting": "no_limit"})
    bots = [make_bot("random", 1), make_bot("call", 2)]
    play_match(game, bots, 100, 0)  # warm caches before the clock starts
    while time.time() < start_at:
        time.sleep(0.002)
    hands = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        play_match(game, bots, 200, hands)
        hands += 200
    out.put(hands / (time.perf_counter() - t0))


def machine_rate(processes: int, seconds: float = 3.0) -> float:
    """Hands/s of ``processes`` plain processes playing at once, no Ray: the ceiling the
    machine itself allows (on a shared or virtual machine the second core may be slower)."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start_at = time.time() + 4.0  # after every child has imported and warmed up
    procs = [ctx.Process(target=_ceiling_child, args=(start_at, seconds, out))
             for _ in range(processes)]
    for proc in procs:
        proc.start()
    rates = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
    return sum(rates)


def _unit_events(data: str, run_id: str) -> list[dict[str, Any]]:
    return [e for e in RunStore(data, run_id).events() if e.get("event") == "unit"]


def _run_row(workers: int, progress: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """One worker count's figures, from the run's progress and its units' events."""
    w, p = workers, progress
    rows = sum(sum(e["rows"].values()) for e in events)
    write_s = sum(e["write_seconds"] for e in events)
    play_s = sum(e["play_seconds"] for e in events)
    cpu_s = sum(e.get("cpu_seconds", 0.0) for e in events)
    return {"workers": w, "hands": p.hands_done, "units": p.units_done,
            "seconds": round(p.elapsed_s, 3),
            "hands_per_s": round(p.hands_per_s, 1),
            "rows": rows, "bytes": p.bytes,
            "rows_written_per_s_per_worker": round(rows / write_s, 0),
            "write_share_of_unit_time": round(write_s / (write_s + play_s), 4),
            "hands_per_s_per_worker_busy": round(p.hands_done / play_s, 1),
            # share of the workers' wall time spent inside units
            "worker_utilization": round((play_s + write_s) / (w * p.elapsed_s), 4),
            # unit CPU time / unit wall time: below 1 when other processes
            # take the cores (the efficiency then measures the machine)
            "cpu_share_in_units": round(cpu_s / (play_s + write_s), 4),
            "hands_per_cpu_s": round(p.hands_done / cpu_s, 1) if cpu_s else None}


def _add_efficiencies(runs: list[dict[str, Any]], ceiling: dict[int, float]) -> float:
    """Each run's efficiency against one worker's rate (returned: hands/s per worker)."""
    one = next((r for r in runs if r["workers"] == 1), runs[0])
    base = float(one["hands_per_s"] / one["workers"])
    cpu_base = one["hands_per_cpu_s"]
    for r in runs:
        r["efficiency"] = round(r["hands_per_s"] / (r["workers"] * base), 4)
        # the same with the cores other processes took out of the picture
        if cpu_base and r["hands_per_cpu_s"]:
            r["cpu_efficiency"] = round(r["hands_per_cpu_s"] / cpu_base
                                        * r["worker_utilization"]
                                        / one["worker_utilization"], 4)
        # The machine's own parallel efficiency just before this run (plain processes,
        # no Ray), and the platform's share: efficiency over what the machine allowed.
        if ceiling.get(1) and r["workers"] in ceiling:
            machine = ceiling[r["workers"]] / (r["workers"] * ceiling[1])
            r["machine_efficiency"] = round(machine, 4)
            r["platform_efficiency"] = round(r["efficiency"] / machine, 4)
    return base


def _unit_overhead(tmp: str, address: str | None, units: int, base: float,
                   unit_hands: int) -> dict[str, Any]:
    """Per-unit overhead: many one-hand units through one worker."""
    tiny = parse_spec({"kind": "match", "name": "bench-overhead", "seed": 7,
                       "bots": ["random", "call"], "hands": units,
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
    return {
        "units": p.units_done,
        "pipeline_ms_per_unit": round(pipeline_ms, 3),
        "driver_cpu_ms_per_unit": round(driver_cpu_ms, 3),
        "worker_fixed_ms_per_unit": round(max(0.0, worker_ms - hand_ms), 3),
        "hand_ms": round(hand_ms, 4),
        "unit_ms": round(unit_ms, 1),
        "overhead_fraction": round(max(0.0, pipeline_ms - hand_ms) / unit_ms, 5),
        "max_workers_per_driver": int(unit_ms / driver_cpu_ms) if driver_cpu_ms else None,
    }


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
        ceiling: dict[int, float] = {}
        for w in counts:
            if owns:  # our own local cluster: measure what the machine allows right now
                ceiling[w] = machine_rate(w)
            driver = RunDriver.create(spec, tmp, RayExecutor(w, address))
            p = driver.run()
            runs.append(_run_row(w, p, _unit_events(tmp, driver.run_id)))
        base = _add_efficiencies(runs, ceiling)
        overhead = _unit_overhead(tmp, address, overhead_units, base, unit_hands)
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
