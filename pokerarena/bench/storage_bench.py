"""``bench storage``: does a finished run read fast whatever its number of units?

For each size, a finished run of ``units`` units of 6-max no-limit hold'em is made and
measured before and after :func:`~pokerarena.platform.compaction.compact`: the
Parquet files per table, the leaderboard (``pokerarena leaderboard``'s standings:
computed from every hand, and read from what the run stored) and ``SELECT count(*),
avg(pot) FROM hands``, each timed in this process (no process start) with the
process's caches of part footers and schemas emptied first, as a fresh CLI process
has them (the operating system's page cache stays warm).

The runs are *synthesised*, not played: one unit is played for real (the fast table,
real rows in the real schema, written by the real part writer), and its tables are
written again as every other unit with that unit's match number, the run's manifest
recorded as a driver records it. Hours of play are not what is measured here. The
figures of the sizes not measured are projected from the measured ones: a straight
line in hands through the largest two (none from one size).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the benchmark's parser is built without the platform (`--help`)
    import pyarrow as pa

    from pokerarena.platform.spec import RunSpec
    from pokerarena.platform.storage import RunStore

QUERY = "SELECT count(*), avg(pot) FROM hands"
BOTS = ["random", "call", "random", "call", "random", "call"]
TARGETS = {"leaderboard_s": 1.0, "query_s": 0.3}


def _spec(units: int, unit_hands: int, seed: int) -> RunSpec:
    from pokerarena.platform.spec import parse_spec

    return parse_spec({"kind": "match", "name": "storage-bench", "seed": seed, "bots": BOTS,
                       "hands": units * unit_hands, "unit_hands": unit_hands,
                       "games": [{"variant": "holdem", "betting": ["no_limit"]}]})


def _template(root: Path, unit_hands: int, seed: int) -> dict[str, pa.Table]:
    """One unit of ``unit_hands`` hands played for real: its tables."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.workers import parts as parts_mod

    saved = os.environ.get("POKERARENA_COMPACT_MIN_UNITS")
    os.environ["POKERARENA_COMPACT_MIN_UNITS"] = str(10**9)
    try:
        driver = RunDriver.create(_spec(1, unit_hands, seed), root, LocalExecutor(),
                                  run_id="template")
        driver.run()
    finally:
        if saved is None:
            os.environ.pop("POKERARENA_COMPACT_MIN_UNITS", None)
        else:
            os.environ["POKERARENA_COMPACT_MIN_UNITS"] = saved
    unit = driver.plan.units[0].unit_id
    run_dir = driver.store.run_dir
    return {t.name: parts_mod.read_part(run_dir, t.name, unit)
            for t in sorted(run_dir.iterdir()) if t.is_dir() and (t / f"unit={unit}").is_dir()}


def _with(t: pa.Table, name: str, value: Any) -> pa.Table:
    import pyarrow as pa

    if name not in t.column_names:
        return t
    i = t.schema.get_field_index(name)
    return t.set_column(i, t.schema.field(i), pa.array([value] * t.num_rows,
                                                       t.schema.field(i).type))


def synthesise(data: Path, run_id: str, units: int, unit_hands: int,
               template: dict[str, pa.Table], seed: int = 29) -> RunStore:
    """A finished run of ``units`` units, each the template's tables with its own match
    number, written by the part writer and recorded in the manifest."""
    from pokerarena.platform.storage import RunStore
    from pokerarena.workers import parts as parts_mod

    store = RunStore(data, run_id)
    store.create(_spec(units, unit_hands, seed))
    hands = template["hands"].num_rows

    def write(i: int) -> dict[str, Any]:
        unit_id = f"m{i:05d}s00000"  # the planner's form
        nbytes = 0
        for name, t in template.items():
            t = _with(_with(t, "run_id", run_id), "match", i)
            nbytes += parts_mod.write_part(t, store.run_dir, name, unit_id)
        return {"event": "unit", "unit": unit_id, "hands": hands, "bytes": nbytes,
                "rows": {t: template[t].num_rows for t in ("hands", "seats", "actions",
                                                           "faults") if t in template},
                "attempt": 1, "worker": "synthesised", "play_seconds": 0.0,
                "write_seconds": 0.0}

    with ThreadPoolExecutor(max_workers=4) as pool:
        events = list(pool.map(write, range(units)))
    store.append({"event": "start", "units": units, "hands": units * hands})
    store.append_many(events)
    store.append({"event": "end", "status": "finished"})
    return store


def _cold() -> None:
    """Empty this process's caches of footers, schemas and row counts (a fresh CLI)."""
    from pokerarena.platform import compacted
    from pokerarena.platform import query as query_mod
    from pokerarena.workers import parts as parts_mod

    with parts_mod._checked_lock:
        parts_mod._checked.clear()
    with compacted._rows_lock:
        compacted._rows_cache.clear()
    query_mod.VIEW_CACHE = query_mod.ViewCache()


def _timed(fn: Callable[[], Any]) -> float:
    _cold()
    t0 = time.perf_counter()
    fn()
    return round(time.perf_counter() - t0, 4)


def _bytes(run_dir: Path) -> int:
    return sum(p.stat().st_size for p in run_dir.rglob("*.parquet"))


def measure(root: Path, units: int, hands: int, before: bool = True,
            seed: int = 29) -> dict[str, Any]:
    """One size: synthesise, measure, compact, measure again."""
    from pokerarena.platform import compaction
    from pokerarena.platform import query as query_mod
    from pokerarena.platform.standings import compute_standings, remember_standings, run_standings

    unit_hands = max(1, hands // units)
    data = root / f"u{units}-h{hands}"
    t0 = time.perf_counter()
    template = _template(data / "template", unit_hands, seed)
    store = synthesise(data, "bench", units, unit_hands, template, seed)
    made = time.perf_counter() - t0
    run_dir = store.run_dir
    out: dict[str, Any] = {"units": units, "hands": units * template["hands"].num_rows,
                           "unit_hands": unit_hands, "synthesise_s": round(made, 2),
                           "files_before": compaction.file_counts(run_dir),
                           "bytes_before": _bytes(run_dir)}
    if before:
        out["query_s_before"] = _timed(lambda: query_mod.query(data, QUERY, "bench"))
        out["leaderboard_s_before"] = _timed(lambda: compute_standings(data, "bench"))
    t0 = time.perf_counter()
    summary = compaction.compact(data, "bench")
    out["compact_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    remember_standings(data, "bench")
    out["store_standings_s"] = round(time.perf_counter() - t0, 2)
    out["files_after"] = summary["files_after"]
    out["bytes_after"] = _bytes(run_dir)
    out["query_s"] = _timed(lambda: query_mod.query(data, QUERY, "bench"))
    out["leaderboard_s_computed"] = _timed(lambda: compute_standings(data, "bench"))
    out["leaderboard_s"] = _timed(lambda: run_standings(data, "bench"))
    _, [(n, _avg)] = query_mod.query(data, QUERY, "bench")
    out["hands_read"] = int(n)
    shutil.rmtree(data, ignore_errors=True)
    return out


def _project(points: list[dict[str, Any]], key: str, hands: int) -> float | None:
    """``key`` at ``hands``: a straight line through the two largest measured sizes."""
    pts = sorted((p["hands"], p[key]) for p in points if p.get(key) is not None)
    if len(pts) < 2 or pts[-1][0] == pts[-2][0]:
        return None  # one size says nothing of the growth: measure two
    (h1, t1), (h2, t2) = pts[-2], pts[-1]
    slope = max(0.0, (t2 - t1) / (h2 - h1))
    return round(t2 + slope * (hands - h2), 3)


def bench_storage(units: int = 1000, hands: list[int] | None = None,
                  project: list[int] | None = None, before: bool = True,
                  root: Path | None = None) -> dict[str, Any]:
    """Measure each size of ``hands`` at ``units`` units; project to ``project``."""
    hands = hands or [100_000]
    project = project or [10_000_000]
    own = root is None
    base = root or Path(tempfile.mkdtemp(prefix="pokerarena-storage-bench-"))
    try:
        sizes = [measure(base, units, h, before) for h in hands]
    finally:
        if own:
            shutil.rmtree(base, ignore_errors=True)
    keys = ("query_s", "leaderboard_s", "leaderboard_s_computed", "compact_s",
            "query_s_before", "leaderboard_s_before")
    projected = [{"hands": h, "units": units, "projected": True,
                  **{k: _project(sizes, k, h) for k in keys}}
                 for h in project if h > max(p["hands"] for p in sizes)]
    largest = sizes[-1]
    return {"benchmark": "storage", "synthesised": True,
            "note": "runs synthesised from one unit played for real (real schema, real part "
                    "writer), not played; timings in process, caches of footers and schemas "
                    "emptied before each, the OS page cache warm",
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                        "system": platform.platform()},
            "query": QUERY, "targets": TARGETS, "units": units, "sizes": sizes,
            "projected": projected,
            "meets_targets": all(s["leaderboard_s"] < TARGETS["leaderboard_s"]
                                 and s["query_s"] < TARGETS["query_s"] for s in sizes),
            "files_per_table_after": max(largest["files_after"].values())}


def _counts(text: str, what: str) -> list[int]:
    from pokerarena.errors import UserError

    try:
        out = [int(float(x)) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"{what}: comma-separated counts (1e5,1e6), got {text!r}") from None
    if not out or min(out) < 1:
        raise UserError(f"{what}: counts of at least 1, got {text!r}")
    return out


def add_size_arguments(p: argparse.ArgumentParser, units: int, hands_help: str,
                       project_help: str) -> None:
    """The options of a benchmark over synthesised runs of growing size (``bench
    storage``, ``bench dashboard``): ``--units``, ``--hands``, ``--project``, ``--json``."""
    p.add_argument("--units", type=int, default=units, help=f"units per run (default {units})")
    p.add_argument("--hands", default="1e5,1e6", metavar="N[,N...]", help=hands_help)
    p.add_argument("--project", default="1e7", metavar="N[,N...]", help=project_help)
    p.add_argument("--json", action="store_true", help="print one JSON line")


def sizes(args: argparse.Namespace) -> tuple[int, list[int], list[int]]:
    """``(units, hands, projected)`` of :func:`add_size_arguments`'s options, checked."""
    from pokerarena.errors import UserError

    if args.units < 1:
        raise UserError(f"--units must be at least 1, got {args.units}")
    return args.units, _counts(args.hands, "--hands"), _counts(args.project, "--project")


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench storage``."""
    p = sub.add_parser(
        "storage", help="leaderboard and query time, and files per table, of a finished "
        "run before and after compaction, as it grows",
        description="Synthesises finished runs (one unit played for real, written again as "
        "every unit) of --units units and each --hands total, and measures the files per "
        "table, the leaderboard (computed, and read from the stored standings) and "
        f"'{QUERY}' before and after `pokerarena compact`, in process; projects the "
        "sizes past the largest measured one.")
    add_size_arguments(p, 1000, "total hands of each measured run (default 1e5,1e6)",
                       "total hands to project to (default 1e7)")
    p.add_argument("--no-before", action="store_true",
                   help="skip the timings before compaction (minutes at 10,000 units)")
    p.set_defaults(func=run_storage_bench)


def run_storage_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench storage``."""
    import json

    units, hands, projected = sizes(args)
    r = bench_storage(units, hands, projected, before=not args.no_before)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"storage, {r['units']:,} units (synthesised runs; {r['note']})")
    for s in r["sizes"] + r["projected"]:
        tag = "projected" if s.get("projected") else "measured"
        print(f"  {s['hands']:>12,} hands ({tag}): leaderboard {s['leaderboard_s']} s "
              f"(computed {s['leaderboard_s_computed']} s, before compaction "
              f"{s.get('leaderboard_s_before')} s); query {s['query_s']} s (before "
              f"{s.get('query_s_before')} s)"
              + (f"; files per table {max(s['files_before'].values())} -> "
                 f"{max(s['files_after'].values())}" if "files_after" in s else ""))
    return 0
