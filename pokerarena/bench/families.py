"""``bench families``: a game family's units in this process against the same units on Ray.

Issue 29 asks that a family's units on Ray play at no less than 80% of the rate of the
same units played in process. For each family, one match of its built-in bots (``rule``
by default, in every seat) is cut into units of the size a spec gives by default
(``unit_hands``, 1,000 games), and played:

* in process: :func:`~pokerarena.workers.table.execute_unit`, the function a Ray actor
  calls, on every unit in turn, after one throwaway game has warmed this process (its
  imports and kernels), so the figure is the best a warm core does with the same work,
  parts written included;
* on a local Ray cluster (or ``--address``) with each worker count, through the real
  driver, on a cluster started for that run as ``pokerarena run`` starts one: actor
  start, the actors' first units (imports, kernel compilation, warm-up), Parquet parts,
  landing and the driver's round trips all count.

The ratio is Ray's games per second per worker over the in-process rate, from the
executor's start to the last unit landed (``ratio``); the end of the run (actor
shutdown and the compaction of its parts, once per run) is reported apart and in
``ratio_with_end``. ``cpu_ratio`` is the same per CPU second, each actor process's
whole life (its start included, from ``/proc``) and the driver's against this
process's: it moves less with the machine's load than the wall-clock figures.
``units_per_worker_for_80pct`` is the run size from which that CPU ratio reaches 0.8,
from the measured fixed CPU per actor and CPU per unit. The seconds per unit spent
outside play are split into actor start (amortised over the units), the first unit's
extra play per actor (imports, kernels, warm-up), the writing and landing of parts,
and the rest (the driver's round trips and the actors' idle time). The load average is
printed beside the figures.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from typing import Any

DEFAULT_SEATS = {"durak": 4}
"""Seats where the family's least is not the usual table (durak: four, issue 18's study)."""


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def process_stat(pid: int) -> tuple[float, int] | None:
    """User + system CPU seconds and the niceness of process ``pid`` on this machine
    (None where it cannot be read: another node, no ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), int(fields[16])
    except (OSError, IndexError, ValueError):
        return None


def family_spec(fam_id: str, bot: str, seats: int, units: int, unit_hands: int,
                options: dict[str, Any] | None = None) -> Any:
    """A match of ``seats`` copies of ``bot`` (``rule#2`` … past the first) over
    ``units`` units of ``unit_hands`` games of family ``fam_id``."""
    from pokerarena.platform.spec import parse_spec

    bots = [bot] + [f"{bot}#{i + 1}" for i in range(1, seats)]
    return parse_spec({"kind": "match", "name": f"bench-{fam_id}", "seed": 2029,
                       "bots": bots, "hands": units * unit_hands, "unit_hands": unit_hands,
                       "games": [{"variant": fam_id, "options": options or {}}]})


def in_process(spec: Any, tmp: str) -> dict[str, Any]:
    """Every unit of ``spec`` played by ``execute_unit`` here, one after another (after
    a one-game warm-up unit, thrown away)."""
    from pokerarena.platform.planner import plan
    from pokerarena.workers.table import execute_unit

    units = plan(spec, "bench-inproc").units
    execute_unit(replace(units[0], hands=1), os.path.join(tmp, "warm"))
    run_dir = os.path.join(tmp, "inproc")
    cpu0, t0 = time.process_time(), time.perf_counter()
    results = [execute_unit(u, run_dir) for u in units]
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    games = sum(r["hands"] for r in results)
    play = sum(r["play_seconds"] for r in results)
    return {"games": games, "units": len(units), "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3), "games_per_s": round(games / wall, 1),
            "games_per_cpu_s": round(games / cpu, 1) if cpu else None,
            "play_s_per_unit": round(play / len(units), 4),
            "write_s_per_unit": round(sum(r["write_seconds"] for r in results) / len(units), 4),
            "outside_play_s_per_unit": round((wall - play) / len(units), 4),
            "niceness": os.getpriority(os.PRIO_PROCESS, 0)}


def _parallel_child(spec_json: str, run_dir: str, part: int, parts: int, start_at: float,
                    out: Any) -> None:
    """One of :func:`in_parallel`'s processes: warm up, wait for the common start,
    play every ``parts``-th unit from ``part``; report games, seconds and CPU."""
    import json

    from pokerarena.platform.planner import plan
    from pokerarena.platform.spec import parse_spec
    from pokerarena.workers.table import execute_unit

    units = plan(parse_spec(json.loads(spec_json)), "bench-par").units[part::parts]
    execute_unit(replace(units[0], hands=1), os.path.join(run_dir, f"warm{part}"))
    while time.time() < start_at:
        time.sleep(0.005)
    cpu0, t0 = time.process_time(), time.perf_counter()
    games = sum(execute_unit(u, run_dir)["hands"] for u in units)
    out.put((games, time.perf_counter() - t0, time.process_time() - cpu0))


def in_parallel(spec: Any, tmp: str, processes: int) -> dict[str, Any]:
    """The same units split over ``processes`` plain processes started together, no
    Ray: what the machine gives that many processes now (the peer of ``processes``
    Ray workers; on a shared machine the cores are not all free)."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    start_at = time.time() + 3.0 + 2.0 * processes  # after every child has warmed up
    run_dir = os.path.join(tmp, f"parallel{processes}")
    procs = [ctx.Process(target=_parallel_child, args=(spec.model_dump_json(), run_dir, i,
                                                       processes, start_at, out))
             for i in range(min(processes, spec.plan_size()[1]))]
    for proc in procs:
        proc.start()
    got = [out.get(timeout=3600) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
    games = sum(g for g, _, _ in got)
    wall, cpu = max(w for _, w, _ in got), sum(c for _, _, c in got)
    return {"processes": len(procs), "games": games, "seconds": round(wall, 3),
            "games_per_s": round(games / wall, 1),
            "games_per_cpu_s": round(games / cpu, 1) if cpu else None}


def on_ray(spec: Any, tmp: str, workers: int, address: str | None) -> dict[str, Any]:
    """``spec`` driven on ``workers`` fresh Ray actors; its timings (module docstring)."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import RayExecutor

    landed: list[tuple[float, dict[str, Any]]] = []
    ex = RayExecutor(workers, address)
    t0 = time.perf_counter()
    ex.start()
    started = time.perf_counter()
    driver = RunDriver.create(spec, tmp, ex, run_id=f"bench-ray{workers}-{os.getpid()}",
                              manage_executor=False,
                              on_unit=lambda r: landed.append((time.perf_counter(), r)))
    cpu0 = time.process_time()
    try:
        p = driver.run()
        returned = time.perf_counter()
        stats = [process_stat(pid) for pid in ex.pids()]
    finally:
        ex.shutdown()
    ended = time.perf_counter()
    games = p.hands_done
    results = [r for _, r in landed]
    last = max(t for t, _ in landed)
    n = len(results)
    play = sum(r["play_seconds"] for r in results)
    write = sum(r["write_seconds"] for r in results)
    by_worker: dict[str, list[float]] = {}
    for r in results:  # in landing order, so each worker's first unit comes first
        by_worker.setdefault(r["worker"], []).append(r["play_seconds"])
    first_extra = sum(max(0.0, ps[0] - statistics.median(ps[1:]))
                      for ps in by_worker.values() if len(ps) > 1)
    start_s = started - t0
    span = last - t0
    busy = workers * span  # worker-seconds from the executor's start to the last landing
    driver_cpu = time.process_time() - cpu0
    unit_cpu = sum(r.get("cpu_seconds", 0.0) for r in results)
    cpu = None if None in stats else sum(x[0] for x in stats if x is not None)
    nice = sorted({x[1] for x in stats if x is not None})
    return {
        "workers": workers, "games": games, "units": n,
        "actor_start_s": round(start_s, 3),
        "seconds_to_last_unit": round(span, 3),
        "end_s": round(ended - last, 3),  # driver's end, compaction, actor shutdown
        "driver_end_s": round(returned - last, 3),
        "games_per_s": round(games / span, 1),
        "games_per_s_with_end": round(games / (ended - t0), 1),
        # CPU: the units' own, each actor process's whole life (its start included;
        # None on another node) and the driver's; games per CPU second of all of it
        "unit_cpu_s": round(unit_cpu, 3),
        "actor_cpu_s": None if cpu is None else round(cpu, 3),
        "actor_niceness": nice,
        "driver_cpu_s": round(driver_cpu, 3),
        "games_per_cpu_s": None if cpu is None else round(games / (cpu + driver_cpu), 1),
        "play_s_per_unit": round((play - first_extra) / n, 4),
        "outside_play_s_per_unit": round((busy - play + first_extra) / n, 4),
        "split_s_per_unit": {
            "actor_start": round(workers * start_s / n, 4),
            "first_unit_extra": round(first_extra / n, 4),
            "write_and_land": round(write / n, 4),
            "driver_and_idle": round((busy - workers * start_s - play - write) / n, 4),
        },
    }


def _units_for(target: float, ray_row: dict[str, Any], ip: dict[str, Any],
               workers: int) -> int | None:
    """The units per worker from which Ray's games per CPU second reach ``target`` of
    the in-process rate, from this run's CPU: each actor's fixed CPU (its whole life,
    and its share of the driver's, less its units') against the units' own, at the
    in-process CPU per unit (None: the per-unit CPU alone is above the target's)."""
    if ray_row["actor_cpu_s"] is None or not ip["cpu_seconds"]:
        return None
    units = ray_row["units"]
    fixed = (ray_row["actor_cpu_s"] + ray_row["driver_cpu_s"] - ray_row["unit_cpu_s"]) / workers
    per_unit, base = ray_row["unit_cpu_s"] / units, ip["cpu_seconds"] / ip["units"]
    margin = base - target * per_unit
    if margin <= 0:
        return None
    return max(1, math.ceil(target * max(fixed, 0.0) / margin))


def bench_families(families: list[str], *, bot: str = "rule", seats: int | None = None,
                   units: int = 4, unit_hands: int | None = None,
                   workers: tuple[int, ...] = (1, 2), address: str | None = None,
                   data: str | None = None) -> dict[str, Any]:
    """Each family in process and on Ray with each worker count (module docstring)."""
    from pokerarena.games import family
    from pokerarena.platform.executors import init_ray
    from pokerarena.platform.spec import RunSpec

    default_unit = RunSpec.model_fields["unit_hands"].default
    out: dict[str, Any] = {"benchmark": "families", "bot": bot, "cpus": os.cpu_count(),
                           "load_avg_before": _load(), "families": {}}
    cpus = max(max(workers), os.cpu_count() or 1)
    for fam_id in families:
        fam = family(fam_id)
        n = seats or max(fam.players[0], min(DEFAULT_SEATS.get(fam_id, 0), fam.players[1]))
        size = unit_hands or default_unit
        spec = family_spec(fam_id, bot, n, units, size)
        tmp = tempfile.mkdtemp(prefix=f"pokerarena-bench-{fam_id}-", dir=data)
        try:
            row: dict[str, Any] = {"seats": n, "unit_hands": size, "units": units,
                                   "load_avg": _load(), "in_process": in_process(spec, tmp)}
            ip = row["in_process"]
            for w in workers:
                # a cluster of its own for each run, as `pokerarena run` starts one: its
                # prestarted worker processes are there for this run's actors
                owns = init_ray(address, num_cpus=cpus)
                try:
                    r = on_ray(spec, tmp, w, address)
                finally:
                    if owns:
                        import ray

                        ray.shutdown()
                r["ratio"] = round(r["games_per_s"] / (w * ip["games_per_s"]), 3)
                if w > 1:  # against w plain processes at once, what the machine gives now
                    par = in_parallel(spec, tmp, w)
                    r["in_processes"] = par
                    r["ratio_to_processes"] = round(r["games_per_s"] / par["games_per_s"], 3)
                r["ratio_with_end"] = round(r["games_per_s_with_end"]
                                            / (w * ip["games_per_s"]), 3)
                r["cpu_ratio"] = (round(r["games_per_cpu_s"] / ip["games_per_cpu_s"], 3)
                                  if r["games_per_cpu_s"] and ip["games_per_cpu_s"] else None)
                r["units_per_worker_for_80pct"] = _units_for(0.8, r, ip, w)
                row[f"ray_{w}"] = r
            row["load_avg_after"] = _load()
            out["families"][fam_id] = row
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    out["load_avg_after"] = _load()
    return out


def register_bench(sub: argparse._SubParsersAction) -> None:
    """Add ``bench families``."""
    p = sub.add_parser(
        "families", help="a game family's units in process against the same units on "
        "Ray with 1, 2, ... workers: games/s, ratio, per-unit overhead",
        description="For each game family, one match of its built-in bots in units of "
        "the spec's default size is played in this process (execute_unit, warm) and on a "
        "local Ray cluster with each worker count; prints games/s, the ratio per worker "
        "and the seconds per unit outside play, split (see pokerarena/bench/families.py).")
    p.add_argument("--family", action="append", metavar="NAME",
                   help="a game family (repeatable; default every family)")
    p.add_argument("--bot", default="rule", help="the built-in bot in every seat "
                   "(default rule)")
    p.add_argument("--seats", type=int, default=None, help="seats (default the family's "
                   "least, durak 4)")
    p.add_argument("--units", type=int, default=4, help="units per run (default 4)")
    p.add_argument("--unit-hands", type=int, default=None, metavar="N",
                   help="games per unit (default the spec's unit_hands, 1,000)")
    p.add_argument("--workers", default="1,2", help="comma-separated worker counts "
                   "(default 1,2)")
    p.add_argument("--address", default=None, help="Ray cluster to join (default: "
                   "$RAY_ADDRESS, else a local one)")
    p.add_argument("--data", metavar="DIR", default=None, help="where the runs are "
                   "written (a temporary folder under DIR, removed afterwards)")
    p.add_argument("--json", action="store_true", help="print one JSON line")
    p.set_defaults(func=run_families_bench)


def run_families_bench(args: argparse.Namespace) -> int:
    """Handler of ``pokerarena bench families``."""
    import json

    from pokerarena.errors import UserError
    from pokerarena.games import family, family_ids
    from pokerarena.platform.spec import family_bot_problem

    names = args.family or list(family_ids())
    for name in names:
        family(name)  # an unknown family: one clear error
        problem = family_bot_problem(name, args.bot)
        if problem is not None:
            raise UserError(f"--bot: {problem}")
        fam = family(name)
        if args.seats is not None and not fam.players[0] <= args.seats <= fam.players[1]:
            raise UserError(f"--seats: {name} plays {fam.players[0]} to {fam.players[1]} "
                            f"players, got {args.seats}")
    try:
        workers = tuple(int(x) for x in args.workers.split(",") if x.strip())
    except ValueError:
        raise UserError(f"--workers: expected numbers like 1,2, got {args.workers!r}") from None
    if not workers or min(workers) < 1 or max(workers) > 1024:
        raise UserError("--workers: worker counts must be 1 to 1024")
    if not 1 <= args.units <= 10_000:
        raise UserError(f"--units must be 1 to 10,000, got {args.units}")
    if args.unit_hands is not None and not 1 <= args.unit_hands <= 10**6:
        raise UserError(f"--unit-hands must be 1 to 1,000,000, got {args.unit_hands}")
    if args.data is not None and not os.path.isdir(args.data):
        raise UserError(f"--data {args.data}: not a folder")
    r = bench_families(names, bot=args.bot, seats=args.seats, units=args.units,
                       unit_hands=args.unit_hands, workers=workers, address=args.address,
                       data=args.data)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"game families, {r['bot']} bots; load average {r['load_avg_before']} -> "
          f"{r['load_avg_after']} on {r['cpus']} CPUs")
    for fam_id, row in r["families"].items():
        ip = row["in_process"]
        print(f"{fam_id}: {row['units']} units of {row['unit_hands']:,} games, "
              f"{row['seats']} seats; in process {ip['games_per_s']:,.1f} games/s "
              f"({ip['outside_play_s_per_unit']:.3f} s per unit outside play)")
        for w in workers:
            x = row[f"ray_{w}"]
            s = x["split_s_per_unit"]
            if "in_processes" in x:
                print(f"  {w} plain processes at once: {x['in_processes']['games_per_s']:,.1f}"
                      f" games/s; ray x{w} over them {x['ratio_to_processes']:.2f}")
            print(f"  ray x{w}: {x['games_per_s']:,.1f} games/s, ratio per worker "
                  f"{x['ratio']:.2f} ({x['ratio_with_end']:.2f} with the run's end; per CPU "
                  f"second {x['cpu_ratio']}, reaching 0.8 from "
                  f"{x['units_per_worker_for_80pct']} units per worker; niceness "
                  f"{x['actor_niceness']}); "
                  f"outside play {x['outside_play_s_per_unit']:.3f} s per unit = actor start "
                  f"{s['actor_start']:.3f} + first unit {s['first_unit_extra']:.3f} + write "
                  f"{s['write_and_land']:.3f} + driver/idle {s['driver_and_idle']:.3f}")
    return 0
