"""``bench driver``: can one run driver keep a thousand workers busy?

No Ray and no play: :class:`SimulatedExecutor` stands in for ``workers`` workers whose
units take ``unit_seconds`` (a log-normal spread around it, as real units vary) of real
time, and lands each unit's parts when it "finishes" (hard links to one real unit's
parts, so the driver's checks read real Parquet footers). Everything else is the real
driver: the schedule, the manifest, the damage checks, progress. The figures:

- the workers' utilisation (busy worker-seconds over workers x wall time, start-up and
  the last units' tail included), and the share of worker time lost waiting for the
  driver (a worker idle between its unit's end and its next unit's arrival);
- the driver's CPU per unit: the process's CPU time less the simulated executor's own
  bookkeeping (measured apart), over the units recorded;
- the most workers one driver feeds at 95% of a core: ``0.95 x unit_seconds /
  cpu_per_unit`` (each worker asks for a unit every ``unit_seconds``).
"""

from __future__ import annotations

import heapq
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import part_path
from pokerarena.workers.rows import unit_tables
from pokerarena.workers.unit import Unit


class SimulatedExecutor:
    """``workers`` simulated workers, ``depth`` units queued on each (like Ray's)."""

    name = "simulated"

    def __init__(self, workers: int, unit_seconds: float, template: Path,
                 depth: int = 2, seed: int = 0) -> None:
        self.workers = workers
        self.depth = depth
        self.capacity = workers * depth
        self.unit_seconds = unit_seconds
        self.template = template  # a run dir holding one real unit's parts
        self.template_unit = ""
        self.rng = np.random.default_rng(seed)
        self._free_at = [0.0] * workers  # when each worker's queue empties
        self._load = [0] * workers
        self._heap: list[tuple[float, int, int, Unit, str, int]] = []
        self._tickets = 0
        self.busy = 0.0  # simulated worker-seconds of play
        self.starved = 0.0  # worker-seconds idle between a unit's end and the next's send
        self.own_cpu = 0.0  # this executor's bookkeeping (not the driver's)

    def start(self) -> None:
        self.t0 = time.monotonic()

    def shutdown(self) -> None:
        self.wall = time.monotonic() - self.t0

    def has_idle_worker(self) -> bool:
        return any(n == 0 for n in self._load)

    def submit(self, unit: Unit, run_dir: str, attempt: int) -> int:
        c0 = time.process_time()
        slot = min(range(self.workers), key=self._load.__getitem__) if self.workers < 64 \
            else int(np.argmin(self._load))
        now = time.monotonic()
        took = float(self.unit_seconds * self.rng.lognormal(0.0, 0.25))
        if 0 < self._free_at[slot] < now:  # the worker waited for the driver
            self.starved += now - self._free_at[slot]
        begin = max(now, self._free_at[slot])
        self._free_at[slot] = end = begin + took
        self.busy += took
        self._load[slot] += 1
        self._tickets += 1
        heapq.heappush(self._heap, (end, self._tickets, slot, unit, run_dir, attempt))
        self.own_cpu += time.process_time() - c0
        return self._tickets

    def _land(self, unit: Unit, run_dir: str) -> None:
        for table in (*unit_tables(unit.variant), "units"):  # a poker unit's tables
            src = part_path(self.template, table, self.template_unit)
            dst = part_path(run_dir, table, unit.unit_id)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if not dst.exists():
                os.link(src, dst)

    def wait(self, timeout: float) -> list[tuple[int, Any, Any]]:
        out: list[tuple[int, Any, Any]] = []
        c0 = time.process_time()
        now = time.monotonic()
        if self._heap and self._heap[0][0] > now:
            self.own_cpu += time.process_time() - c0
            time.sleep(min(timeout, self._heap[0][0] - now))
            c0 = time.process_time()
            now = time.monotonic()
        while self._heap and self._heap[0][0] <= now:
            _, ticket, slot, unit, run_dir, attempt = heapq.heappop(self._heap)
            self._load[slot] -= 1
            self._land(unit, run_dir)
            out.append((ticket, {"unit_id": unit.unit_id, "hands": unit.hands,
                                 "rows": {t: 1 for t in unit_tables(unit.variant)},
                                 "bytes": 1, "play_seconds": self.unit_seconds,
                                 "write_seconds": 0.0, "cpu_seconds": 0.0,
                                 "worker": f"sim:{slot}", "attempt": attempt}, None))
        self.own_cpu += time.process_time() - c0
        return out

    def abandon(self, ticket: int) -> None:  # pragma: no cover - units never stall here
        pass


def _template(root: Path) -> tuple[Path, str]:
    """One real unit's parts (a tiny match played for real), to hard-link from."""
    from pokerarena.platform.executors import LocalExecutor

    spec = parse_spec({"kind": "match", "name": "template", "seed": 1,
                       "bots": ["call", "call"], "hands": 2, "unit_hands": 2,
                       "games": [{"variant": "holdem"}]})
    driver = RunDriver.create(spec, root, LocalExecutor(), run_id="template")
    driver.run()
    return driver.store.run_dir, driver.plan.units[0].unit_id


def bench_driver(workers: int = 1000, unit_seconds: float = 5.0, seconds: float = 30.0,
                 seed: int = 0) -> dict[str, Any]:
    """Drive a run of simulated units for about ``seconds`` and report the figures."""
    root = Path(tempfile.mkdtemp(prefix="pokerarena-driver-bench-"))
    try:
        template, template_unit = _template(root)
        per_worker = max(1, round(seconds / unit_seconds))
        units = workers * per_worker
        spec = parse_spec({"kind": "simulation", "name": "sim", "seed": seed,
                           "bots": ["call", "call"], "hands": units, "unit_hands": 1,
                           "games": [{"variant": "holdem"}]})
        ex = SimulatedExecutor(workers, unit_seconds, template, seed=seed)
        ex.template_unit = template_unit
        driver = RunDriver.create(spec, root, ex, run_id="sim")
        c0 = time.process_time()
        t0 = time.monotonic()
        progress = driver.run()
        wall = time.monotonic() - t0
        cpu = time.process_time() - c0 - ex.own_cpu
        per_unit = cpu / max(1, progress.units_done)
        ideal = per_worker * unit_seconds  # the wall time with every worker always busy
        return {"workers": workers, "unit_seconds": unit_seconds, "units": units,
                "units_done": progress.units_done, "wall_seconds": wall,
                "ideal_seconds": ideal, "utilization": ex.busy / (workers * wall),
                "starved_fraction": ex.starved / (workers * wall),
                "driver_cpu_seconds": cpu, "driver_cpu_ms_per_unit": 1000 * per_unit,
                "executor_cpu_seconds": ex.own_cpu,
                "max_workers_at_95pct": int(0.95 * unit_seconds / per_unit)
                if per_unit > 0 else None}
    finally:
        shutil.rmtree(root, ignore_errors=True)
