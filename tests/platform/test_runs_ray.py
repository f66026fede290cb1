"""Runs on the session's local Ray cluster: determinism over worker counts, a worker
killed mid-unit, a driver killed and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor, RayExecutor
from pokerarena.platform.planner import plan
from pokerarena.platform.query import query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore

pytest.importorskip("ray")

SPEC = {"kind": "tournament", "name": "ray", "seed": 5, "bots": ["random", "call"],
        "seats": 2, "hands": 40, "unit_hands": 10,
        "games": [{"variant": "holdem", "betting": "no_limit"},
                  {"variant": "razz", "betting": "fixed_limit"}]}


def rows(data: Path, run_id: str, table: str) -> list[tuple]:
    _, out = query(data, f"SELECT * EXCLUDE (run_id) FROM {table} ORDER BY ALL", run_id)
    return out


def assert_exactly_once(data: Path, run_id: str, hands: int) -> None:
    _, ((n, distinct),) = query(data, "SELECT count(*), count(DISTINCT (match, hand)) "
                                "FROM hands", run_id)
    assert n == distinct == hands
    _, ((u, du),) = query(data, "SELECT count(*), count(DISTINCT unit) FROM units", run_id)
    assert u == du


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """SPEC played in-process: the rows every Ray run must reproduce."""
    data = tmp_path_factory.mktemp("ref")
    driver = RunDriver.create(parse_spec(SPEC), data, LocalExecutor(), run_id="ref")
    driver.run()
    return data, "ref"


@pytest.mark.parametrize("workers", [1, 2])
def test_ray_rows_equal_in_process_rows(ray_cluster: str, tmp_path: Path, reference,
                                        workers: int) -> None:
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, RayExecutor(workers))
    final = driver.run()
    assert final.status == "finished" and final.workers == workers
    ref_data, ref_id = reference
    for table in ("hands", "seats", "actions", "faults"):
        assert rows(tmp_path, driver.run_id, table) == rows(ref_data, ref_id, table), table
    workers_seen = {e["worker"] for e in RunStore(tmp_path, driver.run_id).events()
                    if e.get("event") == "unit"}
    assert len(workers_seen) == workers
    assert all(not w.endswith(f":{os.getpid()}") for w in workers_seen)


def test_worker_killed_mid_unit_is_retried(ray_cluster: str, tmp_path: Path) -> None:
    # Units of 150 hands take a good fraction of a second: the kill lands inside one.
    spec = parse_spec(dict(SPEC, hands=600, unit_hands=150))
    ref = RunDriver.create(spec, tmp_path / "ref", LocalExecutor())
    ref.run()
    executor = RayExecutor(2)
    executor.start()
    pids = executor.pids()
    killed: list[int] = []

    def kill_once(result: dict) -> None:
        # Both actors have a unit queued (depth 2), so the victim dies inside a unit.
        if not killed:
            victim = pids[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        driver = RunDriver.create(spec, tmp_path, executor, manage_executor=False,
                                  on_unit=kill_once)
        final = driver.run()
    finally:
        executor.shutdown()
    assert killed
    assert final.status == "finished"
    assert final.retries >= 1 and executor.restarts == 1
    events = RunStore(tmp_path, driver.run_id).events()
    retried = [e for e in events if e.get("event") == "retry"]
    assert retried and all(e["worker_died"] for e in retried)
    done = [e["unit"] for e in events if e.get("event") == "unit"]
    assert sorted(done) == sorted(set(done)) and len(done) == final.units_total
    assert any(e["attempt"] >= 2 for e in events if e.get("event") == "unit")
    assert_exactly_once(tmp_path, driver.run_id, spec.hands * 2)
    for table in ("hands", "seats", "actions"):
        assert rows(tmp_path, driver.run_id, table) == rows(tmp_path / "ref", ref.run_id,
                                                            table), table


def test_dead_actor_is_replaced_once_for_all_its_queued_units(ray_cluster: str,
                                                               tmp_path: Path) -> None:
    # Both units queued on the one actor fail when it dies; the second failure must not
    # kill the replacement (that cascaded into a unit failing all its attempts).
    spec = parse_spec(dict(SPEC, hands=600, unit_hands=300))
    units = plan(spec, "dead").units[:3]
    run_dir = str(tmp_path / "dead")
    executor = RayExecutor(1, depth=2)
    executor.start()
    try:
        (victim,) = executor.pids()
        tickets = {executor.submit(u, run_dir, 1) for u in units[:2]}
        os.kill(victim, signal.SIGKILL)
        failures = []
        deadline = time.monotonic() + 60
        while tickets and time.monotonic() < deadline:
            for ticket, _result, error in executor.wait(1.0):
                tickets.discard(ticket)
                failures.append(error)
        assert not tickets and all(f is not None and f.worker_died for f in failures)
        assert executor.restarts == 1
        (successor,) = executor.pids()
        assert successor != victim
        ticket = executor.submit(units[2], run_dir, 1)
        finished = []
        while not finished and time.monotonic() < deadline + 60:
            finished = executor.wait(1.0)
        assert [(t, e) for t, _, e in finished] == [(ticket, None)]
        assert executor.pids() == [successor] and executor.restarts == 1
    finally:
        executor.shutdown()


# Many short units, so that the driver is killed mid-run however fast units are.
LONG = {**SPEC, "name": "ray-long", "hands": 400}


def test_driver_killed_then_resume_without_duplicates(ray_cluster: str, tmp_path: Path,
                                                      pokerarena_cli) -> None:
    units = len(parse_spec(LONG).game_configs()) * LONG["hands"] // LONG["unit_hands"]
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(LONG))
    data = tmp_path / "data"
    cmd = [*pokerarena_cli, "run", str(spec_file), "--address", ray_cluster, "--workers",
           "1", "--data", str(data), "--run-id", "victim"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    store = RunStore(data, "victim")
    try:
        for _ in range(1200):  # up to 120 s: Ray join, actor start, first units
            if proc.poll() is not None:
                break
            if len(store.done_units()) >= 2:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stderr.close()
    before = set(store.done_units())
    assert 2 <= len(before) < units
    assert store.info().status == "interrupted"

    r = subprocess.run([*pokerarena_cli, "run", "--resume", "victim", "--address",
                        ray_cluster, "--workers", "2", "--data", str(data), "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    final = json.loads(r.stdout)
    # A unit that landed just before the kill, before the driver recorded it, is
    # recovered on resume (recorded, not played again): skipped along with the others.
    assert final["status"] == "finished" and final["units_skipped"] >= len(before)
    events = store.events()
    done = [e["unit"] for e in events if e.get("event") == "unit"]
    assert len(done) == len(set(done)) == units  # no finished unit was played again
    assert_exactly_once(data, "victim", 2 * LONG["hands"])
    ref_data = tmp_path / "ref"
    RunDriver.create(parse_spec(LONG), ref_data, LocalExecutor(), run_id="ref").run()
    for table in ("hands", "seats", "actions"):
        assert rows(data, "victim", table) == rows(ref_data, "ref", table), table
    assert store.info().status == "finished"


def test_cancel_on_ray_then_resume_in_process(ray_cluster: str, tmp_path: Path,
                                              reference) -> None:
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, RayExecutor(2), run_id="c")
    driver.on_unit = lambda result: driver.cancel()
    final = driver.run()
    assert final.status == "cancelled" and 1 <= final.units_done < final.units_total
    assert RunStore(tmp_path, "c").info().status == "cancelled"
    # what was written is consistent: only complete units are visible
    _, ((units, hands),) = query(tmp_path, "SELECT count(*), sum(hands) FROM units", "c")
    _, ((shown,),) = query(tmp_path, "SELECT count(*) FROM hands", "c")
    assert shown == hands and units >= final.units_done
    resumed = RunDriver.resume(tmp_path, "c", LocalExecutor()).run()
    assert resumed.status == "finished"
    ref_data, ref_id = reference
    for table in ("hands", "seats", "actions"):
        assert rows(tmp_path, "c", table) == rows(ref_data, ref_id, table), table


def test_bench_scaling_reports_what_docs_scaling_uses(ray_cluster: str, tmp_path: Path) -> None:
    from pokerarena.bench.cluster import bench_scaling

    r = bench_scaling([1, 2], hands=160, unit_hands=20, overhead_units=6, data=str(tmp_path))
    assert [x["workers"] for x in r["runs"]] == [1, 2]
    assert all(x["hands"] == 160 and x["units"] == 8 for x in r["runs"])
    assert r["runs"][0]["efficiency"] == 1.0
    for key in ("efficiency", "cpu_efficiency", "worker_utilization",
                "rows_written_per_s_per_worker", "write_share_of_unit_time"):
        assert all(x[key] > 0 for x in r["runs"]), key
    o = r["overhead"]
    assert o["units"] == 6 and o["driver_cpu_ms_per_unit"] > 0
    assert o["max_workers_per_driver"] >= 1 and o["overhead_fraction"] >= 0
    import ray

    assert ray.is_initialized()  # the bench joined the session's cluster and left it up


def test_unit_over_its_time_limit_is_abandoned_and_retried_then_fails(
        ray_cluster: str, tmp_path: Path) -> None:
    from pokerarena.platform.driver import RunFailed

    # 3000 hands of tag take far longer than 10 ms: every attempt runs out of time.
    spec = parse_spec(dict(SPEC, bots=["tag", "call"], hands=3000, unit_hands=3000,
                           games=[SPEC["games"][0]],
                           limits={"unit_seconds": 0.01, "max_attempts": 2}))
    executor = RayExecutor(1)
    driver = RunDriver.create(spec, tmp_path, executor, run_id="slow")
    with pytest.raises(RunFailed, match="m00000s00000 failed 2 times"):
        driver.run()
    assert executor.restarts >= 2  # the actor running the unit was killed each time
    info = RunStore(tmp_path, "slow").info()
    assert info.status == "failed" and "failed 2 times" in info.error
    retries = [e for e in RunStore(tmp_path, "slow").events() if e.get("event") == "retry"]
    assert [e["attempt"] for e in retries] == [1, 2]
    _, out = query(tmp_path, "SELECT count(*) FROM hands", "slow")
    assert out == [(0,)]


def test_machine_rate_measures_plain_processes() -> None:
    from pokerarena.bench.cluster import machine_rate

    assert machine_rate(1, seconds=0.3) > 0
