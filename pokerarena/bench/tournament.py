"""``bench tournament``: what the tournament layer costs per hand over bare matches.

One duplicate round robin (``bots`` heads-up, every ``games``, ``hands`` per pairing and
game) is planned once; its units are then played several ways, on the same games,
lineups, hands and seeds (each unit's table seed, bots' seeds and shared deals, as
:func:`~pokerarena.workers.records.play_unit` draws them), so each way does the same
poker and the differences are the layer's:

- ``bare``: :func:`~pokerarena.arena.match.play_match` on each unit's game, in process,
  nothing recorded (the baseline);
- ``layer``: the same through the unit's own set-up (the plan, the game cache, the
  fault policy from the spec's limits), still without rows;
- ``rows``: :func:`~pokerarena.workers.records.play_unit`, every hand, seat and action
  built into Arrow tables;
- ``written``: the run driver with the local executor (parts written, checked and
  landed, the manifest kept);
- ``ray``: the run driver with ``workers`` Ray actors.

The in-process ways are timed in CPU seconds of this process (``time.process_time``:
on a shared machine wall time measures the neighbours), ``bare``, ``layer`` and
``rows`` unit by unit in turn (a change of load falls on all three), each repeated and
the best kept; the Ray way adds the workers' CPU seconds per unit (from the manifest) to the
driver's, and reports its wall rate beside. Overheads are per hand, against ``bare``.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pokerarena import native

if TYPE_CHECKING:  # the platform is imported when the benchmark runs, not by the CLI
    from pokerarena.platform.planner import Plan, Unit
    from pokerarena.platform.spec import RunSpec

BOTS = ("random", "call", "rock", "tag", "lag", "equity", "maniac")
GAMES = ("holdem:no_limit", "stud7:fixed_limit")
IN_PROCESS = ("bare", "layer", "rows", "written")


def tournament_spec(bots: Sequence[str], games: Sequence[str], hands: int,
                    unit_hands: int, seed: int = 2026, name: str = "bench-tournament"
                    ) -> RunSpec:
    """The benchmark's round robin: ``games`` as ``variant[:betting]``."""
    from pokerarena.platform.spec import parse_spec

    configs = []
    for g in games:
        variant, _, betting = g.partition(":")
        configs.append({"variant": variant, **({"betting": betting} if betting else {})})
    return parse_spec({"kind": "tournament", "name": name, "seed": seed, "seats": 2,
                       "bots": list(bots), "hands": hands, "unit_hands": unit_hands,
                       "duplicate": True, "games": configs})


Played = tuple[int, list[str], list[float]]  # hands, and each entrant's name and chips


def _bare(u: Unit, game: Any) -> Played:
    """A unit as a bare match: the unit's game, seeds and deals, the default rules."""
    from pokerarena.arena.match import play_match
    from pokerarena.workers.records import _entrants  # the very seeding of play_unit

    table_seed, entrants = _entrants(u)
    r = play_match(game, entrants, u.hands, table_seed, duplicate=u.duplicate,
                   stack=u.stack, deal_seed=u.deal_seed())
    return r.hands, list(u.bots), [e.net for e in r.entrants]


def _layer(u: Unit, cache: Any) -> Played:
    """A unit set up as play_unit sets it up (the game cache, the unit's seeds, the fault
    policy of the spec's limits, its stack), without rows."""
    from pokerarena.arena.faults import FaultPolicy
    from pokerarena.arena.match import play_match
    from pokerarena.workers.records import _entrants

    game = cache.get(u.variant, u.options)
    table_seed, entrants = _entrants(u)
    lim = u.limits
    policy = FaultPolicy(decision_time=lim.decision_seconds, hand_time=lim.hand_seconds,
                         on_fault=lim.on_fault, max_faults=lim.max_faults)
    r = play_match(game, entrants, u.hands, table_seed, policy=policy,
                   duplicate=u.duplicate, stack=int(u.stack or game.variant.stakes.stack),
                   match_no=u.match, deal_seed=u.deal_seed())
    return r.hands, list(u.bots), [e.net for e in r.entrants]


def _rows(u: Unit, cache: Any) -> Played:
    """A unit through play_unit: its rows built (and dropped)."""
    from pokerarena.workers.records import play_unit

    seats = play_unit(u, cache).tables["seats"]
    return (u.hands, seats.column("bot").to_pylist(),
            [float(x) for x in seats.column("net").to_pylist()])


def _interleaved(spec: RunSpec, games: dict[str, Any], repeats: int
                 ) -> tuple[dict[str, dict[str, Any]], bool]:
    """``bare``, ``layer`` and ``rows`` unit by unit, the order turning from one unit to
    the next, so that a change of the machine's load falls on the three alike; per
    repeat each way's CPU summed (``layer`` and ``rows`` pay for a plan each), the least
    kept. Also: whether bare and rows won the same chips (the same poker was played)."""
    from pokerarena.platform.planner import plan
    from pokerarena.workers.records import GameCache

    best: dict[str, dict[str, Any]] = {}
    names = ("bare", "layer", "rows")
    tally: dict[str, dict[str, float]] = {}
    for k in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        units = plan(spec, f"bench-{k}").units
        cache = GameCache()
        planned = (time.process_time() - c0, time.perf_counter() - t0)
        ways: dict[str, Callable[[Unit], Played]] = {
            "bare": lambda u: _bare(u, games[u.unit_id]),
            "layer": functools.partial(_layer, cache=cache),
            "rows": functools.partial(_rows, cache=cache)}
        cpu = {n: 0.0 if n == "bare" else planned[0] for n in names}
        wall = {n: 0.0 if n == "bare" else planned[1] for n in names}
        hands = dict.fromkeys(names, 0)
        tally = {n: defaultdict(float) for n in names}
        for i, u in enumerate(units):
            for name in names[i % 3:] + names[:i % 3]:
                c0, t0 = time.process_time(), time.perf_counter()
                n, bots, nets = ways[name](u)
                cpu[name] += time.process_time() - c0
                wall[name] += time.perf_counter() - t0
                hands[name] += n
                for bot, x in zip(bots, nets, strict=True):
                    tally[name][bot] += x
        for name in names:
            r = _rate(hands[name], cpu[name], wall[name])
            if name not in best or r["cpu_s"] < best[name]["cpu_s"]:
                best[name] = r
    same = set(tally["bare"]) == set(tally["rows"]) and all(
        abs(tally["bare"][b] - tally["rows"][b]) < 1e-6 for b in tally["bare"])
    return best, same


def _rate(hands: int, cpu: float, wall: float) -> dict[str, Any]:
    return {"hands": hands, "cpu_s": round(cpu, 6), "wall_s": round(wall, 6),
            "hands_per_cpu_s": round(hands / cpu, 1) if cpu > 0 else None,
            "hands_per_s": round(hands / wall, 1) if wall > 0 else None}


def _drive(spec: RunSpec, data: str, executor: Any) -> tuple[int, dict[str, Any]]:
    """Drive ``spec`` to its end; (hands, the run's figures: driver CPU, units' CPU)."""
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.storage import RunStore

    driver = RunDriver.create(spec, data, executor, manage_executor=False)
    c0 = time.process_time()
    p = driver.run()
    driver_cpu = time.process_time() - c0
    if p.status != "finished":
        raise RuntimeError(f"benchmark run {driver.run_id} ended {p.status}")
    units = [e for e in RunStore(data, driver.run_id).events() if e.get("event") == "unit"]
    return p.hands_done, {"driver_cpu_s": driver_cpu, "elapsed_s": p.elapsed_s,
                          "units_cpu_s": sum(e.get("cpu_seconds", 0.0) for e in units),
                          "bytes": p.bytes, "rows": p.rows}


def _in_process(spec: RunSpec, units: Plan, data: str, repeats: int
                ) -> tuple[dict[str, dict[str, Any]], bool]:
    """The in-process ways, ``repeats`` times each, the least CPU kept (see
    :func:`_interleaved`; ``written`` drives whole runs with the local executor)."""
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.workers.records import GameCache

    cache = GameCache()
    games = {u.unit_id: cache.get(u.variant, u.options) for u in units.units}
    best, same = _interleaved(spec, games, repeats)
    local = LocalExecutor()
    for k in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        hands, _ = _drive(spec.model_copy(update={"name": f"written-{k}"}), data, local)
        r = _rate(hands, time.process_time() - c0, time.perf_counter() - t0)
        if "written" not in best or r["cpu_s"] < best["written"]["cpu_s"]:
            best["written"] = r
    return best, same


def _on_ray(spec: RunSpec, warm: RunSpec, data: str, workers: int, address: str | None
            ) -> dict[str, Any]:
    """The run on ``workers`` Ray actors, warmed by the small run ``warm`` first (actor
    start, imports, compiled kernels): CPU of the driver and of the units, and the wall
    rate."""
    from pokerarena.platform.executors import RayExecutor, init_ray

    owns = init_ray(address)
    ex = RayExecutor(workers, address)
    try:
        ex.start()
        _drive(warm, data, ex)
        hands, f = _drive(spec.model_copy(update={"name": "on-ray"}), data, ex)
    finally:
        ex.shutdown()
        if owns:
            import ray

            ray.shutdown()
    cpu = f["driver_cpu_s"] + f["units_cpu_s"]
    out = _rate(hands, cpu, f["elapsed_s"])
    out.update(workers=workers, driver_cpu_s=round(f["driver_cpu_s"], 6),
               units_cpu_s=round(f["units_cpu_s"], 6), rows=f["rows"], bytes=f["bytes"])
    return out


def _overhead(a: dict[str, Any], b: dict[str, Any]) -> float | None:
    """Per-hand CPU of ``a`` over ``b``, in percent."""
    if not a["cpu_s"] or not b["cpu_s"]:
        return None
    return round(100.0 * ((a["cpu_s"] / a["hands"]) / (b["cpu_s"] / b["hands"]) - 1.0), 2)


def bench_tournament(bots: Sequence[str] = BOTS, games: Sequence[str] = GAMES,
                     hands: int = 400, unit_hands: int = 200, workers: int = 2,
                     repeats: int = 2, address: str | None = None, ray: bool = True,
                     data: str | None = None, seed: int = 2026) -> dict[str, Any]:
    """Play the round robin every way; the figures as JSON-ready data (module docstring)."""
    from pokerarena.platform.planner import plan

    spec = tournament_spec(bots, games, hands, min(unit_hands, hands), seed)
    units = plan(spec, "bare")
    tmp = data or tempfile.mkdtemp(prefix="pokerarena-bench-tournament-")
    try:
        warm = tournament_spec(bots, games, 2, 2, seed, name="warm-up")
        _in_process(warm, plan(warm, "warm"), tmp, 1)  # kernels, tables, caches
        ways, same = _in_process(spec, units, tmp, max(1, repeats))
        if ray:
            ways["ray"] = _on_ray(spec, warm.model_copy(update={"name": "warm-up-ray"}),
                                  tmp, workers, address)
    finally:
        if data is None:
            shutil.rmtree(tmp, ignore_errors=True)
    bare = ways["bare"]
    overhead = {"layer_vs_bare": _overhead(ways["layer"], bare),
                "rows_vs_layer": _overhead(ways["rows"], ways["layer"]),
                "writing_vs_rows": _overhead(ways["written"], ways["rows"]),
                "written_vs_bare": _overhead(ways["written"], bare)}
    if "ray" in ways:
        overhead["ray_vs_written"] = _overhead(ways["ray"], ways["written"])
        overhead["ray_vs_bare"] = _overhead(ways["ray"], bare)
        ways["ray"]["wall_efficiency_vs_bare"] = round(
            ways["ray"]["hands_per_s"] / (workers * bare["hands_per_s"]), 4)
    return {"benchmark": "tournament", "bots": list(bots), "games": list(games),
            "pairings": len(spec.lineups()), "hands_per_pairing_and_game": spec.hands,
            "unit_hands": spec.unit_hands, "units": len(units.units),
            "hands": units.hands, "repeats": max(1, repeats), "same_results": same,
            "native": native.compiled(),
            "timing": "CPU seconds (time.process_time) of this process, best of the "
            "repeats; ray: the driver's CPU plus the units' CPU on the workers "
            "(wall_s and hands_per_s beside, for its wall rate)",
            "ways": ways, "overhead_pct": overhead}
