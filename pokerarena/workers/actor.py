"""The Ray actor that plays work units.

One actor per worker slot; it keeps games and lookup tables warm across units. Actors
are created with ``max_restarts=0``: when the process dies the driver sees
``RayActorError`` on its pending calls, starts a new actor and retries those units.

An actor whose driver is gone (the service was killed) is an orphan: its unit would not
land anyway (:mod:`~pokerarena.workers.landing`), so a watchdog thread ends the process
as soon as it sees the run's driver lock free while a unit plays, and a unit refused at
landing for that reason ends it too.

Ray starts its worker processes at niceness 15 (its ``worker_niceness``), so on a machine
where anything else runs, an actor gets a small share of a core: a game family's units
ran ten times below the same units in process on the loaded 2-core machine (issue 29).
A local cluster started by :func:`~pokerarena.platform.executors.init_ray` runs its
workers at niceness 0; an actor on any other cluster lowers its own niceness to
``$RAY_worker_niceness`` (default 0) where the system allows it (:func:`unnice`).
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any

import ray

from pokerarena.workers.landing import UnitNotWanted, unwanted_reason
from pokerarena.workers.played import GameCache
from pokerarena.workers.table import execute_unit
from pokerarena.workers.unit import Unit

WATCH_SECONDS = 2.0

NICENESS_ENV = "RAY_worker_niceness"
"""Ray's niceness of its worker processes (15 unless set); a local cluster that
:func:`~pokerarena.platform.executors.init_ray` starts sets 0."""


def worker_niceness() -> int:
    """The niceness table workers run at: ``$RAY_worker_niceness``, else 0."""
    try:
        return int(os.environ.get(NICENESS_ENV, "0"))
    except ValueError:
        return 0


def unnice(target: int | None = None) -> int:
    """Lower this process's niceness to ``target`` (default :func:`worker_niceness`)
    where it is higher and the system allows it; the niceness it runs at now."""
    want = worker_niceness() if target is None else target
    now = os.getpriority(os.PRIO_PROCESS, 0)
    if now > want:
        with contextlib.suppress(OSError):  # lowering needs the privilege: best effort
            os.setpriority(os.PRIO_PROCESS, 0, want)
            now = os.getpriority(os.PRIO_PROCESS, 0)
    return now


def orphaned(run_dir: str, session: str | None) -> bool:
    """True when the unit's run has no live driver any more (see the module docstring)."""
    why = unwanted_reason(run_dir, session)
    return why is not None and why[1]


class TableWorker:
    """Plays units and writes their parts (``run_unit``); ``pid`` for tests and ops."""

    def __init__(self, watch_seconds: float = WATCH_SECONDS) -> None:
        if ray.is_initialized() and ray.get_runtime_context().get_actor_id() is not None:
            unnice()  # a cluster that niced its workers (see the module docstring)
        self.cache = GameCache()
        self.watch_seconds = watch_seconds
        self._current: tuple[str, str] | None = None
        self._watchdog: threading.Thread | None = None
        self._stop = threading.Event()

    def ready(self) -> int:
        """Return the worker's pid once it is up (its module imported; the first unit
        imports what its kind plays: :func:`~pokerarena.workers.table.play_kind`)."""
        return os.getpid()

    def pid(self) -> int:
        """The worker process id."""
        return os.getpid()

    def _exit(self) -> None:
        """End this process (an orphan: nobody will read what it returns)."""
        os._exit(0)

    def _watch(self) -> None:
        while not self._stop.wait(self.watch_seconds):
            current = self._current
            if current is not None and orphaned(*current):
                self._exit()

    def _play(self, unit: Unit, run_dir: str, attempt: int,
              play: Any) -> dict[str, Any]:
        session = unit.session
        if session and self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch, daemon=True,
                                              name="orphan-watchdog")
            self._watchdog.start()
        self._current = (run_dir, session) if session else None
        try:
            return play(unit, run_dir, attempt, self.cache)
        except UnitNotWanted as exc:
            if exc.orphaned:
                self._exit()
            raise
        finally:
            self._current = None

    def run_unit(self, unit: Unit, run_dir: str, attempt: int = 1) -> dict[str, Any]:
        """Play one unit and write its parts; see :func:`execute_unit`."""
        return self._play(unit, run_dir, attempt, execute_unit)


RemoteTableWorker = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(TableWorker)
