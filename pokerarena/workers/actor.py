"""The Ray actor that plays work units.

One actor per worker slot; it keeps games and lookup tables warm across units. Actors
are created with ``max_restarts=0``: when the process dies the driver sees
``RayActorError`` on its pending calls, starts a new actor and retries those units.
"""

from __future__ import annotations

import os
from typing import Any

import ray

from pokerarena.workers.records import GameCache
from pokerarena.workers.table import execute_unit


class TableWorker:
    """Plays units and writes their parts (``run_unit``); ``pid`` for tests and ops."""

    def __init__(self) -> None:
        self.cache = GameCache()

    def ready(self) -> int:
        """Return the worker's pid once it is up (imports done)."""
        import pokerarena.engine  # noqa: F401 - warm the imports before the first unit

        return os.getpid()

    def pid(self) -> int:
        """The worker process id."""
        return os.getpid()

    def run_unit(self, unit: dict[str, Any], run_dir: str, attempt: int = 1) -> dict[str, Any]:
        """Play one unit and write its parts; see :func:`execute_unit`."""
        return execute_unit(unit, run_dir, attempt, self.cache)


RemoteTableWorker = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(TableWorker)
