"""The service's runs: drivers in threads, their state on disk, resume after a restart.

Everything the service must remember lives under the data directory:

- each run's own folder (spec, manifest, parts), written by the platform's driver;
- ``<data>/api/events.jsonl``: which runs were submitted through the service and which
  of them a user cancelled (one JSON line per event, appended and fsynced).

When the service stops it cancels the units in flight and marks its runs
``interrupted`` in their manifests (an ``end`` event). When it starts, every run it had
submitted that is ``interrupted`` (stopped cleanly, or the process died and no driver
holds the run's lock) is resumed (``resume=True``, the default) or explicitly marked
``interrupted`` (``resume=False``); a run is never silently forgotten.

A submitted run is planned in its own thread, never in the request nor under the
manager's lock: ``submit`` writes the run's spec and answers at once (the spec was
validated, its size bounded, by ``parse_spec``); until its plan is made the run reads
``running`` with ``"planning": true`` and the counts of the spec.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerarena.platform.driver import Progress, RunDriver, RunFailed
from pokerarena.platform.metrics import ServiceMetrics
from pokerarena.platform.spec import RunSpec, SpecError
from pokerarena.platform.storage import RunStore, list_runs, new_run_id

log = logging.getLogger("pokerarena.api")

TERMINAL = ("finished", "cancelled", "failed")


class RunNotFound(LookupError):
    """No run with that id."""


class RunConflict(RuntimeError):
    """The run is not in a state that allows the request (e.g. cancelling a finished run)."""


class TooManyRuns(RuntimeError):
    """The service drives as many runs as it may at once."""


@dataclass
class _Active:
    driver: RunDriver | None  # None while the run is being planned
    thread: threading.Thread | None = None
    store: RunStore | None = None
    spec: RunSpec | None = None
    executor: Any = None
    done: threading.Event = field(default_factory=threading.Event)
    failures: int = 0
    retries: int = 0
    cancel_requested: bool = False


class RunManager:
    """Submits, drives, follows and cancels runs under ``data_dir``."""

    def __init__(self, data_dir: str | Path, metrics: ServiceMetrics | None,
                 executor_factory: Callable[[], Any], *, resume: bool = True,
                 max_active: int = 4, prepare: Callable[[], None] | None = None) -> None:
        from pokerarena.platform.storage import data_location, local_folder

        where = data_location(data_dir) if isinstance(data_dir, str) else Path(data_dir)
        self.data_dir: Path | str = where  # a folder, or an object-store URI
        self.metrics = metrics
        self.executor_factory = executor_factory
        self.resume_on_start = resume
        self.max_active = max_active
        self.prepare = prepare
        self._active: dict[str, _Active] = {}
        self._lock = threading.RLock()
        self._stopping = False
        local = local_folder(where) if isinstance(where, str) else where
        self._events_path = local / "api" / "events.jsonl"  # the service's own: local
        self._status_cache: tuple[float, dict[str, int]] = (0.0, {})

    # records of the service -----------------------------------------------------------
    def _record(self, event: dict[str, Any]) -> None:
        self._events_path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"time": time.time(), **event}, sort_keys=True) + "\n"
        with open(self._events_path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def _records(self) -> dict[str, dict[str, Any]]:
        """run_id -> {"submitted": time, "cancelled": bool} of runs this service owns."""
        out: dict[str, dict[str, Any]] = {}
        try:
            text = self._events_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return out
        for line in text.splitlines():
            try:
                e = json.loads(line)
            except json.JSONDecodeError:
                continue
            rid = e.get("run_id")
            if not isinstance(rid, str):
                continue
            if e.get("event") == "submit":
                out[rid] = {"submitted": e.get("time"), "cancelled": False}
            elif e.get("event") == "cancel" and rid in out:
                out[rid]["cancelled"] = True
        return out

    # life cycle -----------------------------------------------------------------------
    def start(self) -> list[dict[str, Any]]:
        """Recover after a (re)start; returns what was done to each run found in flight."""
        actions = []
        for run_id, rec in self._records().items():
            store = RunStore(self.data_dir, run_id)
            if not store.exists():
                continue
            try:
                info = store.info()
            except (OSError, ValueError, KeyError):
                continue
            if info.status in TERMINAL and not (info.status == "cancelled"
                                                and not rec["cancelled"]):
                continue
            if info.status == "running":  # another process drives it
                continue
            if rec["cancelled"]:
                try:  # units that landed before the service died join the record first
                    store.reconcile()
                except (OSError, ValueError) as exc:
                    log.warning("cannot reconcile %s: %s", run_id, exc)
                store.append({"event": "end", "status": "cancelled",
                              "error": "cancelled while the service was down"})
                actions.append({"run_id": run_id, "action": "cancelled"})
                continue
            if self.resume_on_start:
                try:
                    self._launch(RunDriver.resume, self.data_dir, run_id, resumed=True)
                    actions.append({"run_id": run_id, "action": "resumed"})
                    continue
                except (SpecError, OSError, ValueError) as exc:
                    log.warning("cannot resume %s: %s", run_id, exc)
            if info.status != "interrupted" or not self._ended(store):
                store.append({"event": "end", "status": "interrupted",
                              "error": "the service stopped while the run was in flight"})
            actions.append({"run_id": run_id, "action": "marked interrupted"})
        return actions

    @staticmethod
    def _ended(store: RunStore) -> bool:
        events = store.events()
        return bool(events) and events[-1].get("event") == "end"

    def shutdown(self, timeout: float = 30.0) -> None:
        """Stop every run this service drives; they end ``interrupted`` (resumable)."""
        with self._lock:
            self._stopping = True
            active = list(self._active.values())
        for a in active:
            if a.driver is not None:
                a.driver.cancel()
        for a in active:
            if a.thread is not None:
                a.thread.join(timeout)

    # runs -----------------------------------------------------------------------------
    def submit(self, spec: RunSpec) -> str:
        """Create a run from a validated spec and start driving it; returns its id.

        Only the slot is taken under the lock; the spec is written and the executor made
        outside it, and the plan is made in the run's thread (see the module docstring).
        """
        store = RunStore(self.data_dir, new_run_id(spec))
        active = _Active(driver=None, store=store, spec=spec)
        with self._lock:
            if self._stopping:
                raise TooManyRuns("the service is stopping")
            if len(self._active) >= self.max_active:
                raise TooManyRuns(f"{len(self._active)} runs are in flight (at most "
                                  f"{self.max_active}); try again when one ends")
            if store.run_id in self._active:
                raise RunConflict(f"run {store.run_id} already exists")
            self._active[store.run_id] = active  # the slot; the run is not on disk yet
        try:
            if self.prepare is not None:
                self.prepare()
            active.executor = self.executor_factory()
            if store.exists():
                raise RunConflict(f"run {store.run_id} already exists")
            store.create(spec)
            self._record({"event": "submit", "run_id": store.run_id})
        except BaseException:
            with self._lock:
                self._active.pop(store.run_id, None)
            raise
        self._start_thread(active)
        return store.run_id

    def _launch(self, make: Callable[..., RunDriver], *args: Any, start: bool = True,
                resumed: bool = False) -> RunDriver:
        if self.prepare is not None:
            self.prepare()
        executor = self.executor_factory()
        active = _Active(driver=None)

        def on_progress(p: Progress) -> None:
            self._on_progress(active, p)

        def on_unit(result: dict[str, Any]) -> None:
            if self.metrics is not None:
                self.metrics.observe_unit(result)

        driver = make(*args, executor, on_progress=on_progress, on_unit=on_unit)
        active.driver = driver
        with self._lock:
            self._active[driver.run_id] = active
        if start:
            self._start_thread(active)
        return driver

    @staticmethod
    def _run_id(active: _Active) -> str:
        if active.driver is not None:
            return active.driver.run_id
        assert active.store is not None
        return active.store.run_id

    def _make_driver(self, active: _Active) -> RunDriver | None:
        """Plan a submitted run (in its thread); None when it is not to be driven (the
        service stops, or planning failed: the run then ends ``failed``)."""
        assert active.store is not None and active.spec is not None

        def on_progress(p: Progress) -> None:
            self._on_progress(active, p)

        def on_unit(result: dict[str, Any]) -> None:
            if self.metrics is not None:
                self.metrics.observe_unit(result)

        store = active.store
        try:
            driver = RunDriver(store, active.spec, active.executor, on_progress=on_progress,
                               on_unit=on_unit)
        except Exception as exc:  # noqa: BLE001 - recorded as the run's end
            log.exception("run %s could not be planned", store.run_id)
            with contextlib.suppress(OSError):
                store.append({"event": "end", "status": "failed",
                              "error": f"planning failed: {type(exc).__name__}: {exc}"})
            return None
        with self._lock:
            active.driver = driver
            if active.cancel_requested:
                driver.cancel()  # it ends ``cancelled`` at once
            elif self._stopping:
                with contextlib.suppress(OSError):
                    store.append({"event": "end", "status": "interrupted",
                                  "error": "the service stopped"})
                return None
        return driver

    def _start_thread(self, active: _Active) -> None:
        t = threading.Thread(target=self._drive, args=(active,), daemon=True,
                             name=f"run-{self._run_id(active)}")
        active.thread = t
        t.start()

    def _on_progress(self, active: _Active, p: Progress) -> None:
        if self.metrics is None:
            return
        with self._lock:
            df, dr = p.failures - active.failures, p.retries - active.retries
            active.failures, active.retries = p.failures, p.retries
        self.metrics.observe_failures(df, dr)

    def _drive(self, active: _Active) -> None:
        driver = active.driver
        if driver is None:
            driver = self._make_driver(active)
            if driver is None:
                with self._lock:
                    self._active.pop(self._run_id(active), None)
                active.done.set()
                return
        try:
            self._run_with_lock_retries(driver)
            self._write_standings(driver)
        except RunFailed as exc:
            log.warning("run %s failed: %s", driver.run_id, exc)
        except SpecError as exc:  # e.g. another process holds the run's lock
            log.warning("run %s not driven: %s", driver.run_id, exc)
        except Exception:  # noqa: BLE001 - the driver wrote its end event
            log.exception("run %s stopped", driver.run_id)
        finally:
            self._on_progress(active, driver.progress())
            with self._lock:
                stopping = self._stopping and not active.cancel_requested
            if stopping:
                with contextlib.suppress(OSError):
                    driver.store.append({"event": "end", "status": "interrupted",
                                         "error": "the service stopped"})
            with self._lock:
                self._active.pop(driver.run_id, None)
            active.done.set()

    def _write_standings(self, driver: RunDriver) -> None:
        """A finished tournament's standings as Parquet beside it (a failure is logged:
        the run itself finished)."""
        from pokerarena.platform.standings import write_after_run

        try:
            write_after_run(self.data_dir, driver.run_id, driver.spec.kind,
                            driver.progress().status)
        except Exception:  # noqa: BLE001 - leaderboard --write can write them again
            log.exception("run %s: standings not written", driver.run_id)

    @staticmethod
    def _run_with_lock_retries(driver: RunDriver, tries: int = 50) -> None:
        """``driver.run()``, retried briefly when the run's lock is refused.

        A status read (``RunStore.is_driven``) probes the driver lock; storage now makes
        the driver wait such probes out, and this retry stays as a guard against any
        probe that still wins the race. A real other driver keeps refusing: give up then.
        """
        for attempt in range(tries):
            try:
                driver.run()
                return
            except SpecError as exc:
                if "being driven" not in str(exc) or attempt == tries - 1:
                    raise
                time.sleep(0.02)

    def cancel(self, run_id: str) -> dict[str, Any]:
        """Cancel a run: its units stop; what was written stays consistent."""
        store = self.store(run_id)
        with self._lock:
            active = self._active.get(run_id)
            if active is not None:
                active.cancel_requested = True
                self._record({"event": "cancel", "run_id": run_id})
                if active.driver is not None:
                    active.driver.cancel()
                return {"run_id": run_id, "status": "cancelling"}
        info = store.info()
        if info.status in TERMINAL:
            raise RunConflict(f"run {run_id} is already {info.status}")
        if info.status == "running":
            raise RunConflict(f"run {run_id} is driven by another process; stop it there")
        self._record({"event": "cancel", "run_id": run_id})
        store.append({"event": "end", "status": "cancelled"})
        return {"run_id": run_id, "status": "cancelled"}

    def wait(self, run_id: str, timeout: float | None = None) -> bool:
        """Block until the service's driver of ``run_id`` ends (True if it did)."""
        with self._lock:
            active = self._active.get(run_id)
        return True if active is None else active.done.wait(timeout)

    def store(self, run_id: str) -> RunStore:
        """The run's store on disk (:class:`RunNotFound` for an unknown or invalid id)."""
        try:
            store = RunStore(self.data_dir, run_id)
        except SpecError:
            raise RunNotFound(f"no run {run_id!r}") from None
        if not store.exists():
            raise RunNotFound(f"no run {run_id!r}")
        return store

    def get(self, run_id: str) -> dict[str, Any]:
        """A run's state from disk, with the live progress of its driver if it has one."""
        store = self.store(run_id)
        info = store.info()
        out = info.as_dict()
        out["spec"] = store.spec_doc().get("spec")
        with self._lock:
            active = self._active.get(run_id)
            planning = active is not None and active.driver is None
        if planning:
            assert active is not None and active.spec is not None
            _, units, hands = active.spec.plan_size()
            out["status"] = "cancelling" if active.cancel_requested else "running"
            out["planning"] = True
            out["units_total"], out["hands_total"] = units, hands
            out["hands_per_s"], out["units_in_flight"], out["eta_s"] = 0.0, 0, None
        elif active is not None:
            assert active.driver is not None
            p = active.driver.progress()
            live = p.as_dict()
            out["live"] = live
            if p.status in ("running", "created"):
                out["status"] = "cancelling" if active.cancel_requested else "running"
            for key in ("units_done", "hands_done", "rows", "bytes"):
                out[key] = max(out[key], live[key])
            out["units_total"] = live["units_total"]
            out["hands_total"] = live["hands_total"]
            out["hands_per_s"] = round(p.hands_per_s, 1)
            out["units_in_flight"] = p.units_in_flight
            out["eta_s"] = None if p.eta_s is None else round(p.eta_s, 1)
        else:
            secs = out.get("seconds")
            out["hands_per_s"] = round(info.hands_done / secs, 1) if secs else 0.0
            out["units_in_flight"] = 0
            out["eta_s"] = None
        total = out["hands_total"] or 0
        out["fraction"] = round(out["hands_done"] / total, 4) if total else 0.0
        return out

    def list(self) -> list[dict[str, Any]]:
        """Every run under the data directory, newest first, with live progress."""
        out = []
        for info in reversed(list_runs(self.data_dir)):
            with self._lock:
                active = self._active.get(info.run_id)
                driver = None if active is None else active.driver
            d = info.as_dict()
            if active is not None and driver is None:
                assert active.spec is not None
                _, d["units_total"], d["hands_total"] = active.spec.plan_size()
                d["status"] = "cancelling" if active.cancel_requested else "running"
                d["planning"] = True
                d["hands_per_s"] = 0.0
            elif active is not None and driver is not None:
                p = driver.progress()
                if p.status in ("running", "created"):
                    d["status"] = "cancelling" if active.cancel_requested else "running"
                d["units_done"] = max(d["units_done"], p.units_done)
                d["hands_done"] = max(d["hands_done"], p.hands_done)
                d["units_total"], d["hands_total"] = p.units_total, p.hands_total
                d["hands_per_s"] = round(p.hands_per_s, 1)
            else:
                secs = d.get("seconds")
                d["hands_per_s"] = round(info.hands_done / secs, 1) if secs else 0.0
            total = d["hands_total"] or 0
            d["fraction"] = round(d["hands_done"] / total, 4) if total else 0.0
            out.append(d)
        return out

    # for metrics ----------------------------------------------------------------------
    def runs_by_status(self) -> dict[str, int]:
        """Run counts by status (cached for a second: it reads every manifest)."""
        now = time.monotonic()
        t, cached = self._status_cache
        if now - t < 1.0:
            return dict(cached)
        counts: dict[str, int] = {}
        for d in self.list():
            counts[d["status"]] = counts.get(d["status"], 0) + 1
        self._status_cache = (now, counts)
        return dict(counts)

    def live(self) -> tuple[int, float]:
        """(units in flight, hands per second) over the runs being driven."""
        with self._lock:
            drivers = [a.driver for a in self._active.values() if a.driver is not None]
        in_flight, rate = 0, 0.0
        for d in drivers:
            p = d.progress()
            if p.status == "running":
                in_flight += p.units_in_flight
                rate += p.hands_per_s
        return in_flight, rate
