"""Executors whose units report metrics (:func:`pokerarena.platform.metrics.measured_unit`).

They are the platform's executors with one change: a unit is played through
``measured_unit`` instead of ``execute_unit``, so its result carries
``result["metrics"]`` (decision latency per bot, faults by kind, evaluations) back to
the driver. Everything else (capacity, retries, abandon, shutdown) is theirs.
"""

from __future__ import annotations

from typing import Any

from pokerarena.platform.executors import Finished, LocalExecutor, RayExecutor, UnitFailure
from pokerarena.workers.actor import TableWorker
from pokerarena.workers.unit import Unit


class MeteredLocalExecutor(LocalExecutor):
    """:class:`LocalExecutor` playing units through ``measured_unit``."""

    def wait(self, timeout: float) -> list[Finished]:
        """Run the oldest queued unit to completion."""
        from pokerarena.platform.metrics import measured_unit

        if not self._queue:
            return []
        ticket, unit, run_dir, attempt = self._queue.popleft()
        try:
            return [(ticket, measured_unit(unit, run_dir, attempt, self.cache), None)]
        except Exception as exc:  # noqa: BLE001 - reported to the driver as a failure
            return [(ticket, None, UnitFailure(f"{type(exc).__name__}: {exc}"))]


class MeteredTableWorker(TableWorker):
    """The Ray actor of :class:`MeteredRayExecutor`: the workers' actor, metered."""

    def run_unit(self, unit: Unit, run_dir: str, attempt: int = 1) -> dict[str, Any]:
        """Play one unit, write its parts, return its result with metrics."""
        from pokerarena.platform.metrics import measured_unit

        # through the actor's _play: the orphan watchdog and the landing refusal apply
        return self._play(unit, run_dir, attempt, measured_unit)


_remote: Any = None


def _remote_worker() -> Any:
    global _remote
    if _remote is None:
        import ray

        _remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(
            MeteredTableWorker)
    return _remote


class MeteredRayExecutor(RayExecutor):
    """:class:`RayExecutor` whose actors play units through ``measured_unit``."""

    def _new_actor(self) -> Any:
        return _remote_worker().remote()
