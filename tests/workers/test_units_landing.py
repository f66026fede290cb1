"""A unit lands only while its run wants it: a unit finishing after its run was
cancelled, after its drive ended or after its driver died leaves no part and no manifest
entry; units that landed unrecorded are recorded; orphaned workers stop."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor, UnitFailure
from pokerarena.platform.planner import plan
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import TABLES, RunStore, scan_parts
from pokerarena.workers.landing import UnitNotWanted, close_session, open_session
from pokerarena.workers.rows import FAMILY_TABLES  # written by family units only
from pokerarena.workers.table import execute_unit
from pokerarena.workers.unit import Unit

SPEC = {"kind": "tournament", "name": "l", "seed": 3, "bots": ["random", "call"],
        "seats": 2, "hands": 20, "unit_hands": 10,
        "games": [{"variant": "holdem", "betting": "pot_limit"}]}


class SlowExecutor:
    """Each unit plays in its own thread once ``gate`` opens; ``abandon`` does not stop
    it (like a worker that goes on after its driver gave up on it)."""

    name = "slow"
    capacity = 1
    workers = 1

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.finished: list = []
        self.errors: list[BaseException] = []
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        pass

    def has_idle_worker(self) -> bool:
        return True

    def submit(self, unit, run_dir, attempt) -> int:
        ticket = len(self.threads)

        def work() -> None:
            self.started.set()
            self.gate.wait(60)
            try:
                self.finished.append((ticket, execute_unit(unit, run_dir, attempt), None))
            except Exception as exc:  # noqa: BLE001
                self.errors.append(exc)
                self.finished.append((ticket, None, UnitFailure(str(exc))))

        t = threading.Thread(target=work, daemon=True)
        self.threads.append(t)  # before it starts: a waiter on ``started`` may look at once
        t.start()
        return ticket

    def wait(self, timeout: float):
        time.sleep(0.01)
        out, self.finished = self.finished, []
        return out

    def abandon(self, ticket: int) -> None:
        pass

    def shutdown(self) -> None:
        pass


def unit_parts(run_dir: Path) -> list[Path]:
    return sorted(run_dir.glob("*/unit=*/*"))


def test_a_unit_finishing_after_cancel_does_not_land(tmp_path: Path) -> None:
    ex = SlowExecutor()
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, ex)
    t = threading.Thread(target=driver.run)
    t.start()
    assert ex.started.wait(30)
    driver.cancel()
    ex.gate.set()  # the unit finishes now, after the cancel
    ex.threads[0].join(60)
    t.join(60)
    assert len(ex.errors) == 1 and isinstance(ex.errors[0], UnitNotWanted)
    assert "cancelled" in str(ex.errors[0])
    store = RunStore(tmp_path, driver.run_id)
    assert unit_parts(store.run_dir) == []  # not even a temporary
    events = store.events()
    assert [e["event"] for e in events] == ["start", "end"]
    assert events[-1]["status"] == "cancelled"
    info = store.info()
    assert (info.status, info.units_done) == ("cancelled", 0)
    # the run resumes and lands its units then
    assert RunDriver.resume(tmp_path, driver.run_id, LocalExecutor()).run().status == \
        "finished"
    assert store.info().units_done == 2 and len(scan_parts(tmp_path).parts["units"]) == 2


def _unit(run_id: str, session: str | None) -> Unit:
    return replace(plan(parse_spec(SPEC), run_id).units[0], session=session)


def test_a_unit_of_a_dead_driver_does_not_land(tmp_path: Path) -> None:
    store = RunStore(tmp_path, "dead")
    store.create(parse_spec(SPEC))
    session = open_session(store.run_dir)  # opened, but no driver holds the lock: dead
    with pytest.raises(UnitNotWanted, match="driver is gone") as err:
        execute_unit(_unit("dead", session), str(store.run_dir))
    assert err.value.orphaned
    assert unit_parts(store.run_dir) == []
    # with the driver lock held, the same unit lands
    with store.lock():
        execute_unit(_unit("dead", session), str(store.run_dir))
    assert len(unit_parts(store.run_dir)) == len(TABLES) - len(FAMILY_TABLES)  # one per table


def test_a_unit_of_an_old_or_closed_session_does_not_land(tmp_path: Path) -> None:
    store = RunStore(tmp_path, "old")
    store.create(parse_spec(SPEC))
    with store.lock():
        old = open_session(store.run_dir)
        new = open_session(store.run_dir)
        with pytest.raises(UnitNotWanted, match="newer session"):
            execute_unit(_unit("old", old), str(store.run_dir))
        close_session(store.run_dir, new)
        with pytest.raises(UnitNotWanted, match="cancelled or has ended"):
            execute_unit(_unit("old", new), str(store.run_dir))
    assert unit_parts(store.run_dir) == []


def test_units_that_landed_unrecorded_are_recorded_not_replayed(tmp_path: Path) -> None:
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, LocalExecutor())
    store = driver.store
    # a driver died between the landing and the record: the part is there, no entry
    unit = plan(parse_spec(SPEC), driver.run_id).units[1]
    execute_unit(unit, str(store.run_dir))
    progress = driver.run()
    assert progress.status == "finished" and driver.recovered == [unit.unit_id]
    assert progress.units_skipped == 1
    units = [e for e in store.events() if e["event"] == "unit"]
    assert sorted(e["unit"] for e in units) == ["m00000s00000", "m00000s00001"]
    assert [e.get("recovered", False) for e in units if e["unit"] == unit.unit_id] == [True]
    assert store.info().hands_done == 20


def test_an_orphaned_worker_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerarena.workers.actor import TableWorker

    store = RunStore(tmp_path, "orphan")
    store.create(parse_spec(SPEC))
    session = open_session(store.run_dir)
    worker = TableWorker(watch_seconds=0.02)
    exits: list[str] = []
    monkeypatch.setattr(worker, "_exit", lambda: exits.append("exit"))
    # refused at landing because the driver is gone: the worker ends itself
    with pytest.raises(UnitNotWanted):
        worker.run_unit(_unit("orphan", session), str(store.run_dir))
    assert exits and unit_parts(store.run_dir) == []
    # the watchdog ends it while a unit plays
    exits.clear()
    worker._current = (str(store.run_dir), session)
    deadline = time.monotonic() + 30
    while not exits and time.monotonic() < deadline:
        time.sleep(0.02)
    assert exits
    # a worker whose driver lives goes on
    worker._current = None
    with store.lock():
        worker.run_unit(_unit("orphan", session), str(store.run_dir))
    assert len(unit_parts(store.run_dir)) == len(TABLES) - len(FAMILY_TABLES)  # one per table
