"""The driver: keeps a bounded number of units in flight, retries failed ones, records
finished ones in the manifest, and reports progress.

Usable from a CLI or a service alike::

    driver = RunDriver.create(spec, data_dir, RayExecutor(workers=4))
    threading.Thread(target=driver.run).start()
    driver.progress().as_dict()      # poll from anywhere
    driver.cancel()                  # units stop; what was written stays consistent

``RunDriver.resume(data_dir, run_id, executor)`` continues an interrupted run: units
the manifest records as finished are skipped, the others are played again and their
parts replace any partial ones (same names), so no row is ever duplicated.

Each drive opens a *session* (:mod:`pokerarena.workers.landing`) that its units carry;
a unit lands (its parts renamed into place) only while its session is open and the
driver alive, so a unit finishing after :meth:`RunDriver.cancel`, after the drive ended,
or after the driver's process died leaves nothing behind. When a drive starts, units
whose parts are damaged (:func:`~pokerarena.platform.storage.check_part`) are recorded
``damaged`` and played again from their seed, and units that landed without being
recorded (the previous driver died in between) are recorded; a landed unit is checked
before it is recorded, and a damaged one is retried.

Which units are sent when comes from a :class:`~pokerarena.platform.stages.Schedule`:
the whole plan at once for most runs; Swiss rounds one round at a time, each paired
from the rows of the rounds before, and a match with early stopping (``stop``) one
shard at a time until its sequential test decides (see :mod:`pokerarena.platform.stages`;
its ``stage`` and ``decision`` events go to the manifest, its summary to
``<run>/tournament.json``). The totals a drive reports are honest: the plan's units and
hands (a Swiss run's counted from the spec before its later rounds are paired), less
those that stopped matches will not play.

The data location may be an object store (``s3://bucket/prefix``): the driver gives its
workers the run's URI, they put their parts there, and everything the driver checks and
records goes through the same :class:`~pokerarena.platform.storage.RunStore` calls
(docs/deploy.md has the commit protocol).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from pokerarena.platform import compaction
from pokerarena.platform.executors import UnitFailure
from pokerarena.platform.planner import Plan, Unit
from pokerarena.platform.spec import RunSpec, SpecError
from pokerarena.platform.stages import SUMMARY_NAME, Schedule, write_summary
from pokerarena.platform.storage import (
    RunStore,
    check_part,
    new_run_id,
    part_key,
    remove_stale_temporaries,
)
from pokerarena.workers.rows import unit_tables

DEADLINE_CHECK_S = 0.5  # how often the units in flight are checked against their limit


class RunFailed(RuntimeError):
    """A unit failed ``limits.max_attempts`` times; the run stopped."""


@dataclass
class Progress:
    """A snapshot of a run being driven."""

    run_id: str
    status: str
    executor: str
    workers: int
    units_total: int
    units_done: int
    units_in_flight: int
    units_skipped: int
    failures: int
    retries: int
    hands_total: int
    hands_done: int
    rows: int
    bytes: int
    elapsed_s: float
    hands_per_s: float
    eta_s: float | None
    units_saved: int = 0
    hands_saved: int = 0
    decisions: int = 0
    round: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly form."""
        return asdict(self)


def _may_submit_unit(ex: Any, pending: int, inflight: int) -> bool:
    """Whether to send another unit now.

    While more units wait than there are workers, each actor gets its next unit queued
    behind the running one (hiding the round trip). For the last few units, a unit goes
    only to an idle actor: queued behind a busy one it would keep that actor working
    while another sits idle at the end of the run.
    """
    if inflight >= ex.capacity:
        return False
    workers = getattr(ex, "workers", 0) or ex.capacity
    return pending > workers or ex.has_idle_worker()


class RunDriver:
    """Drives one run to its end (see the module docstring)."""

    def __init__(self, store: RunStore, spec: RunSpec, executor: Any, *,
                 manage_executor: bool = True,
                 on_progress: Callable[[Progress], None] | None = None,
                 on_unit: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.store = store
        self.spec = spec
        self.executor = executor
        self.manage_executor = manage_executor
        self.on_progress = on_progress
        self.on_unit = on_unit
        self.schedule = Schedule(spec, store.run_id, store.location)
        self.plan: Plan = self.schedule.first  # a Swiss run's: its first round
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._status = "created"
        self._done = 0
        self._skipped = 0
        self._hands_done = 0
        self._hands_session = 0
        self._rows = 0
        self._bytes = 0
        self._failures = 0
        self._retries = 0
        self._in_flight = 0
        self._decisions = 0
        self._t0: float | None = None
        self._session: str | None = None
        self._events: list[dict[str, Any]] = []  # recorded, not yet in the manifest
        self.damaged: list[str] = []
        self.recovered: list[str] = []
        self.compaction: dict[str, Any] | None = None  # what the end of the run compacted

    @property
    def run_id(self) -> str:
        """The run's id."""
        return self.store.run_id

    @classmethod
    def create(cls, spec: RunSpec, data_dir: str | Path, executor: Any,
               run_id: str | None = None, **kwargs: Any) -> RunDriver:
        """A new run under ``data_dir`` (spec.json written now)."""
        store = RunStore(data_dir, run_id or new_run_id(spec))
        if store.exists():
            raise SpecError(f"run {store.run_id} already exists; use --resume")
        store.create(spec)
        return cls(store, spec, executor, **kwargs)

    @classmethod
    def resume(cls, data_dir: str | Path, run_id: str, executor: Any,
               **kwargs: Any) -> RunDriver:
        """An existing run, to be continued where it stopped."""
        store = RunStore(data_dir, run_id)
        spec = store.load_spec()
        return cls(store, spec, executor, **kwargs)

    # control --------------------------------------------------------------------------
    def cancel(self) -> None:
        """Ask the run to stop: in-flight units are abandoned, the run ends ``cancelled``.

        From the moment this returns no unit of the run lands, even one whose worker
        goes on playing it (the drive's session is closed)."""
        self._cancel.set()
        session = self._session
        if session is not None:
            self.store.close_session(session)

    def progress(self) -> Progress:
        """A consistent snapshot (thread-safe)."""
        with self._lock:
            elapsed = time.monotonic() - self._t0 if self._t0 is not None else 0.0
            rate = self._hands_session / elapsed if elapsed > 0 else 0.0
            sched = self.schedule
            total = sched.hands_total
            if self.spec.freezeout is not None or (self.spec.study or {}).get("freezeouts"):
                # freeze-outs: limits, not hands; estimate from the units played
                per = self._hands_done / self._done if self._done else self.spec.hands
                total = self._hands_done + round(per * (sched.units_total - self._done))
            left = total - self._hands_done
            eta = left / rate if rate > 0 else None
            return Progress(
                run_id=self.run_id, status=self._status,
                executor=getattr(self.executor, "name", "?"),
                workers=getattr(self.executor, "workers", 1),
                units_total=sched.units_total, units_done=self._done,
                units_in_flight=self._in_flight, units_skipped=self._skipped,
                failures=self._failures, retries=self._retries,
                hands_total=total, hands_done=self._hands_done, rows=self._rows,
                bytes=self._bytes, elapsed_s=elapsed, hands_per_s=rate, eta_s=eta,
                units_saved=sched.saved_units, hands_saved=sched.saved_hands,
                decisions=self._decisions, round=len(sched.rounds) if sched.swiss else None)

    def _emit(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress())

    # the loop -------------------------------------------------------------------------
    def run(self) -> Progress:
        """Drive the run to its end; returns the final progress.

        Raises :class:`RunFailed` when a unit keeps failing; a KeyboardInterrupt ends
        the run ``interrupted`` (resumable) and propagates.
        """
        store = self.store
        if store.remote:  # what the schedule and standings derive locally goes here
            store.run_dir.mkdir(parents=True, exist_ok=True)
        with store.lock():
            remove_stale_temporaries(store.location)
            with contextlib.suppress(OSError):  # a compaction that died: finish or undo it
                compaction.recover(store)
            self._session = store.open_session()
            if self._cancel.is_set():  # cancelled before the drive started
                store.close_session(self._session)
            self.damaged = store.mark_damaged(store.damaged_units())
            self.recovered = store.reconcile()
            todo = self._begin()
            status, error = "finished", None
            try:
                if self.manage_executor:
                    self.executor.start()
                store.append({"event": "start", "units": self.schedule.units_total,
                              "hands": self.schedule.hands_total, "skipped": self._skipped,
                              "digest": self.spec.digest(),
                              "damaged": self.damaged, "recovered": self.recovered,
                              "executor": getattr(self.executor, "name", "?"),
                              "workers": getattr(self.executor, "workers", 1),
                              "host": socket.gethostname(), "pid": os.getpid()})
                with self._lock:
                    self._t0 = time.monotonic()
                status = self._loop(todo)
            except RunFailed as exc:
                status, error = "failed", str(exc)
                raise
            except BaseException as exc:
                status, error = "interrupted", f"{type(exc).__name__}: {exc}"
                raise
            finally:
                with contextlib.suppress(Exception):
                    self._flush()
                # nothing lands from now on; what landed before is recorded
                store.close_session(self._session)
                if self.manage_executor:
                    with contextlib.suppress(Exception):
                        self.executor.shutdown()
                with contextlib.suppress(Exception):
                    self.recovered += store.reconcile()
                if self.schedule.staged:
                    write_summary(store.run_dir, self.schedule.summary())
                    store.publish(SUMMARY_NAME)
                with self._lock:
                    self._status = status
                    self._in_flight = 0
                event: dict[str, Any] = {"event": "end", "status": status}
                if error:
                    event["error"] = error
                store.append(event)
                self._emit()
            if status == "finished":  # a few large files per table instead of the parts
                self.compaction = compaction.compact_after_run(store)
        return self.progress()

    def _begin(self) -> list[Unit]:
        """The schedule started from what landed; its units to send now. A resumed
        run derives its pairings and decisions again from the rows (recording any
        the previous driver took but did not record)."""
        store = self.store
        done = store.done_units()
        todo = self.schedule.begin(done, store.events())
        for event in self.schedule.drain():
            store.append(event)
        counted = self.schedule.counted_done()
        with self._lock:
            self._skipped = self._done = len(counted)
            # a freeze-out's unit plays as many hands as its tournament lasts (its
            # ``hands`` is the round limit): the recorded count where there is one
            self._hands_done = sum(int(done.get(u.unit_id, {}).get("hands", u.hands))
                                   for u in counted)
            self._decisions = sum(1 for m in self.schedule.matches.values() if m.outcome)
            self._status = "running"
            self._t0 = time.monotonic()
        return todo

    def _released_by(self, unit: Unit) -> list[Unit]:
        """Tell the schedule ``unit`` landed; record what it decided; the units it
        releases (a match's next shard, a Swiss round's matches)."""
        sched = self.schedule
        released = sched.landed(unit)
        found = sched.take_found()
        if found:
            with self._lock:
                self._done += len(found)
                self._skipped += len(found)
                self._hands_done += sum(u.hands for u in found)
        events = sched.drain()
        self._events.extend(events)
        if events:
            with self._lock:
                self._decisions += sum(1 for e in events if e["event"] == "decision")
            write_summary(self.store.run_dir, sched.summary())
            self.store.publish(SUMMARY_NAME)
        return released

    def _loop(self, todo: list[Unit]) -> str:
        ex = self.executor
        limits = self.spec.limits
        run_dir = str(self.store.location)  # a folder, or a URI: where workers write
        pending: deque[Unit] = deque(todo)
        attempts: dict[str, int] = {}
        inflight: dict[int, tuple[Unit, int, float]] = {}
        deadline_factor = getattr(ex, "depth", 1)
        last_emit = last_check = 0.0
        while pending or inflight:
            if self._cancel.is_set():
                for ticket in list(inflight):
                    ex.abandon(ticket)
                return "cancelled"
            while pending and _may_submit_unit(ex, len(pending), len(inflight)):
                unit = pending.popleft()
                attempt = attempts.get(unit.unit_id, 0) + 1
                attempts[unit.unit_id] = attempt
                ticket = ex.submit(replace(unit, session=self._session), run_dir, attempt)
                inflight[ticket] = (unit, attempt, time.monotonic())
            with self._lock:
                self._in_flight = len(inflight)
            for ticket, result, failure in ex.wait(0.25):
                entry = inflight.pop(ticket, None)
                if entry is None:
                    continue
                unit, attempt, _ = entry
                if self._cancel.is_set():
                    continue  # cancelled: whatever it did is not wanted (nor landed)
                if failure is None:
                    damage = self._landed_damage(unit)
                    if damage is not None:
                        failure = UnitFailure(damage)
                if failure is not None:
                    self._record_failure(unit, attempt, failure, limits.max_attempts)
                    pending.appendleft(unit)
                    continue
                self._record_unit(unit, result)
                pending.extend(self._released_by(unit))
            self._flush()
            now = time.monotonic()
            if now - last_check > DEADLINE_CHECK_S:
                last_check = now
                for ticket, (unit, _attempt, t0) in list(inflight.items()):
                    if now - t0 > limits.unit_seconds * deadline_factor:
                        ex.abandon(ticket)
                        inflight[ticket] = (unit, _attempt, float("inf"))
            if now - last_emit > 0.2:
                last_emit = now
                with self._lock:
                    self._in_flight = len(inflight)
                self._emit()
        if not self.schedule.complete:  # pragma: no cover - a schedule that stalled
            raise RuntimeError("the run's schedule released no more units before its end")
        return "finished"

    def _flush(self) -> None:
        """Write the events recorded since the last flush (one fsync for a batch)."""
        if self._events:
            events, self._events = self._events, []
            self.store.append_many(events)

    def _landed_damage(self, unit: Unit) -> str | None:
        """Why a unit reported finished is not sound on disk, or None (each part's frame,
        seen from the driver: its worker parsed every footer before landing it). On an
        object store only the commit (the ``units`` part, put last): every part was
        checked in the worker's memory, and an object is there whole or not at all."""
        tables = ("units",) if self.store.remote else (*unit_tables(unit.variant), "units")
        for table in tables:  # a family's unit: + its record
            path = part_key(self.store.location, table, unit.unit_id)
            problem = check_part(path, deep=False)
            if problem is not None:
                return f"damaged part {table}/unit={unit.unit_id}: {problem}"
        return None

    def _record_failure(self, unit: Unit, attempt: int, failure: Any, max_attempts: int) -> None:
        with self._lock:
            self._failures += 1
        self._events.append({"event": "retry", "unit": unit.unit_id, "attempt": attempt,
                             "error": failure.message, "worker_died": failure.worker_died})
        if attempt >= max_attempts:
            self._flush()
            raise RunFailed(f"unit {unit.unit_id} failed {attempt} times; last error: "
                            f"{failure.message}")
        with self._lock:
            self._retries += 1

    def _record_unit(self, unit: Unit, result: dict[str, Any]) -> None:
        hands = int(result.get("hands", unit.hands))  # a freeze-out: the hands it lasted
        self._events.append({"event": "unit", "unit": unit.unit_id, "hands": hands,
                             "rows": result["rows"], "bytes": result["bytes"],
                             "attempt": result["attempt"], "worker": result["worker"],
                             "play_seconds": round(result["play_seconds"], 6),
                             "write_seconds": round(result["write_seconds"], 6),
                             "cpu_seconds": round(result.get("cpu_seconds", 0.0), 6)})
        with self._lock:
            self._done += 1
            self._hands_done += hands
            self._hands_session += hands
            self._rows += sum(result["rows"].values())
            self._bytes += result["bytes"]
        if self.on_unit is not None:
            self.on_unit(result)
