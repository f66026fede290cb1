"""Where a fresh machine's first ``make demo`` spends its warm-up: prints JSON.

Runs the demo's warm-up (``pokerarena.demo._warm_up``: the chosen games' kernels and
tables, in parallel processes) in a child process whose caches are a directory of their
own (``NUMBA_CACHE_DIR`` for numba's compiled kernels, ``POKERARENA_CACHE`` for the
tables), first empty (cold), then again on what the first run left (warm). Every numba
compilation (its own time, without the kernels it compiled on the way) and every table
build is recorded, in whichever warm-up process it happened.

Usage: ``python benchmarks/cold_start.py [--cache DIR] [--keep] [--prepared]``.
``--cache DIR`` uses (and keeps) DIR instead of a fresh temporary directory;
``--prepared`` first runs ``tools/prepare.py`` (the install-time step, here without the
native build) into the empty cache and reports its time apart: the demo's warm-up then
starts on what it left.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, os, sys, time
from functools import wraps
sys.path.insert(0, sys.argv[1])
log_path = sys.argv[2]

def log(**row):
    row["pid"] = os.getpid()
    with open(log_path, "a") as f:
        f.write(json.dumps(row) + "\n")

from numba.core import event

class Compiles(event.Listener):
    stack = []
    def on_start(self, ev):
        self.stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        start, inner = self.stack.pop()
        total = time.process_time() - start
        if self.stack:
            self.stack[-1][1] += total
        d = ev.data["dispatcher"]
        log(kind="compile", name=f"{d.py_func.__module__}.{d.py_func.__qualname__}",
            sig=str(ev.data["args"]), seconds=total - inner)

event.register("numba:compile", Compiles())

import pokerarena.bots.strength.preflop as preflop
import pokerarena.bots.strength.preflop_omaha as preflop_omaha
import pokerarena.evaluator.tables as tables

def timed(module, name, label):
    fn = getattr(module, name)
    @wraps(fn)
    def wrapper(*a, **k):
        t0 = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            log(kind="table", name=label, seconds=time.process_time() - t0)
    setattr(module, name, wrapper)

timed(tables, "build", "evaluator tables (tables.build)")
timed(tables, "_perfect_hash", "evaluator perfect hash (tables._perfect_hash)")
timed(preflop, "build", "hold'em pre-flop table (preflop.build)")
timed(preflop, "build_narrowed", "hold'em narrowed pre-flop table")
timed(preflop_omaha, "build", "Omaha pre-flop table (preflop_omaha.build)")

mode = sys.argv[3]
t0 = time.perf_counter()
from pokerarena import demo
spec = demo._spec(demo._bots())
log(kind="phase", name="imports and spec", seconds=time.perf_counter() - t0)
tell = demo._tell
current = {}

def told(job, done, total, what):
    if current.get(os.getpid()) != job:  # which job a warm-up process works for
        current[os.getpid()] = job
        log(kind="job", name=job)
    log(kind="step", name=job, what=what, cpu=time.process_time())
    tell(job, done, total, what)

demo._tell = told
if mode == "prepare":  # tools/prepare.py, its shared part timed apart
    import importlib.util
    where = os.path.join(sys.argv[1], "tools", "prepare.py")
    spec_ = importlib.util.spec_from_file_location("prepare_tool", where)
    tool = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(tool)
    shared = tool._shared

    def timed_shared(*a):
        w0, c0 = time.perf_counter(), time.process_time()
        shared(*a)
        log(kind="phase", name="prepare: shared part (wall)", seconds=time.perf_counter() - w0)
        log(kind="phase", name="prepare: shared part (CPU)", seconds=time.process_time() - c0)

    tool._shared = timed_shared
    t1 = time.perf_counter()
    tool.main([])
    log(kind="phase", name="prepare (tools/prepare.py)", seconds=time.perf_counter() - t1)
else:
    seconds = demo._warm_up(spec)
    log(kind="phase", name="warm-up (demo._warm_up)", seconds=seconds)
import resource
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
log(kind="phase", name="warm-up processes' CPU", seconds=ru.ru_utime + ru.ru_stime)
"""


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    compiles: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    tables: dict[str, float] = defaultdict(float)
    by_job: dict[str, float] = defaultdict(float)
    job_of: dict[int, str] = {}
    last_cpu: dict[int, float] = {}
    for r in rows:
        if r["kind"] == "step":
            last_cpu[r["pid"]] = max(last_cpu.get(r["pid"], 0.0), r["cpu"])
        if r["kind"] == "job":
            job_of[r["pid"]] = r["name"]
        elif r["kind"] == "compile":
            compiles[r["name"]] += r["seconds"]
            counts[r["name"]] += 1
            by_job[job_of.get(r["pid"], "?")] += r["seconds"]
        elif r["kind"] == "table":
            tables[r["name"]] += r["seconds"]
    top = sorted(compiles.items(), key=lambda kv: -kv[1])
    return {
        "phases": {r["name"]: round(r["seconds"], 2) for r in rows if r["kind"] == "phase"},
        "compile_seconds_total": round(sum(compiles.values()), 2),
        "compilations": sum(counts.values()),
        "compile_seconds_by_job": {k: round(v, 2) for k, v in by_job.items()},
        # each warm-up process's CPU when it began its last step: the critical path
        "cpu_at_last_step_by_process": sorted(round(v, 1) for v in last_cpu.values()),
        "kernels_by_compile_seconds": [
            {"kernel": k, "signatures": counts[k], "seconds": round(v, 2)} for k, v in top],
        "tables_seconds": {k: round(v, 2) for k, v in tables.items()},
    }


def _warm_up(cache: Path, log: Path, mode: str = "demo") -> tuple[dict[str, Any], float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache / "numba"),
               POKERARENA_CACHE=str(cache / "tables"), POKERARENA_PURE="1")
    log.unlink(missing_ok=True)
    t0, cpu0 = time.perf_counter(), _children_cpu()
    out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(log), mode], env=env,
                         capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    if out.returncode != 0:
        raise SystemExit(out.stdout + out.stderr)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    return {"cpu_seconds": round(cpu, 2), **_summary(rows)}, wall


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--prepared", action="store_true")
    args = parser.parse_args()
    cache = args.cache or Path(tempfile.mkdtemp(prefix="pokerarena-cold-"))
    try:
        result: dict[str, Any] = {"benchmark": "cold_start", "cpus": os.cpu_count(),
                                  "cache": str(cache)}
        if args.prepared:
            summary, wall = _warm_up(cache, cache / "prepare.jsonl", "prepare")
            result["prepare"] = {"wall_seconds": round(wall, 2), **summary}
        for run in ("after_prepare" if args.prepared else "cold", "warm"):
            summary, wall = _warm_up(cache, cache / f"{run}.jsonl")
            result[run] = {"wall_seconds": round(wall, 2), **summary}
        print(json.dumps(result, indent=1))
    finally:
        if args.cache is None and not args.keep:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
