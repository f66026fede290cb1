"""Executors: where units run. Ray actors (:class:`RayExecutor`) or this process
(:class:`LocalExecutor`, for debugging and tiny runs).

The driver talks to both through the same small interface: ``start()``,
``capacity`` (units it may have in flight), ``submit(unit, run_dir, attempt)`` returning
a ticket, ``wait(timeout)`` returning finished ``(ticket, result, error)`` triples,
``abandon(ticket)`` (kill whatever runs it) and ``shutdown()``. ``error`` is a
:class:`UnitFailure` whose ``worker_died`` says whether the worker process was lost.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from pokerarena.workers.unit import Unit


@dataclass
class UnitFailure:
    """Why a unit attempt did not finish."""

    message: str
    worker_died: bool = False


OBJECT_STORE_BYTES = 256 * 1024 * 1024

Finished = tuple[int, dict[str, Any] | None, UnitFailure | None]


class LocalExecutor:
    """Runs units one at a time in the calling process, in submission order."""

    name = "local"

    def __init__(self) -> None:
        from pokerarena.workers.records import GameCache

        self.cache = GameCache()
        self.capacity = 1
        self.workers = 1
        self._queue: deque[tuple[int, Unit, str, int]] = deque()
        self._tickets = itertools.count()

    def start(self) -> None:
        """Nothing to start."""

    def has_idle_worker(self) -> bool:
        """True when nothing is queued."""
        return not self._queue

    def submit(self, unit: Unit, run_dir: str, attempt: int) -> int:
        """Queue a unit; it runs during the next :meth:`wait`."""
        ticket = next(self._tickets)
        self._queue.append((ticket, unit, run_dir, attempt))
        return ticket

    def wait(self, timeout: float) -> list[Finished]:
        """Run the oldest queued unit to completion."""
        from pokerarena.workers.table import execute_unit

        if not self._queue:
            return []
        ticket, unit, run_dir, attempt = self._queue.popleft()
        try:
            return [(ticket, execute_unit(unit, run_dir, attempt, self.cache), None)]
        except Exception as exc:  # noqa: BLE001 - reported to the driver as a failure
            return [(ticket, None, UnitFailure(f"{type(exc).__name__}: {exc}"))]

    def abandon(self, ticket: int) -> None:
        """Units run synchronously: nothing to abandon."""

    def shutdown(self) -> None:
        """Nothing to stop."""


def ray_address(address: str | None) -> str | None:
    """The cluster to join: ``address``, else ``$RAY_ADDRESS``, else None (start one)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def init_ray(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Start an embedded local cluster, or join ``address``; returns True if this call
    initialised Ray (so the caller should shut it down)."""
    import ray

    if ray.is_initialized():
        return False
    addr = ray_address(address)
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if addr:
        ray.init(address=addr, **kwargs)
    else:
        # Ray would start its workers at niceness 15: beside anything else on the machine
        # they got a small share of a core (issue 29). The raylet started here passes
        # this to every worker; a value already set is kept.
        from pokerarena.workers.actor import NICENESS_ENV

        os.environ.setdefault(NICENESS_ENV, "0")
        # Units travel as small dicts and results as small summaries (parts go straight
        # to disk), so a small object store is plenty and spares the machine's memory.
        ray.init(num_cpus=num_cpus, object_store_memory=OBJECT_STORE_BYTES, **kwargs)
    return True


class RayExecutor:
    """A pool of ``workers`` Ray actors, ``depth`` units queued on each.

    With ``depth=2`` an actor always has its next unit waiting, so the round trip to the
    driver is hidden behind play. A dead actor is replaced by a fresh one; its units come
    back as failures with ``worker_died=True`` and the driver retries them. A fresh actor
    gets units only once it is up: when a node is lost, its replacements wait for room
    in the cluster (for the node to come back, or for another) while the actors left go
    on playing, so the run continues on fewer workers instead of queueing units behind
    actors that cannot start (:attr:`capacity` counts only the actors that are up).
    """

    name = "ray"

    def __init__(self, workers: int | None = 2, address: str | None = None,
                 depth: int = 2) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"--workers must be at least 1, got {workers}")
        self.workers = workers or 0  # 0: one per CPU of the cluster, decided by start()
        self.depth = depth
        self.address = address
        self._owns_ray = False
        self._actors: list[Any] = []
        self._load: list[int] = []
        self._starting: dict[int, Any] = {}  # slot -> ready ref of an actor not yet up
        self._refs: dict[Any, tuple[int, int, Any]] = {}  # ref -> (ticket, slot, actor)
        self._by_ticket: dict[int, Any] = {}
        self._tickets = itertools.count()
        self.restarts = 0

    def start(self) -> None:
        """Start or join Ray, then start the actors and wait until they are up."""
        import ray

        self._owns_ray = init_ray(self.address,
                                  num_cpus=max(self.workers, os.cpu_count() or 1))
        if not self.workers:
            self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._actors = [self._new_actor() for _ in range(self.workers)]
        self._load = [0] * self.workers
        ray.get([a.ready.remote() for a in self._actors])

    def _new_actor(self) -> Any:
        from pokerarena.workers import fasttable
        from pokerarena.workers.actor import RemoteTableWorker
        from pokerarena.workers.fsys import env_settings

        # the object store's AWS variables go with the actor (a node need not have them),
        # and the driver's choice of table (POKERARENA_FAST_TABLE) where it made one
        env = dict(env_settings())
        if os.environ.get(fasttable.ENV):
            env[fasttable.ENV] = os.environ[fasttable.ENV]
        if env:
            return RemoteTableWorker.options(runtime_env={"env_vars": env}).remote()
        return RemoteTableWorker.remote()

    def pids(self) -> list[int]:
        """Process ids of the current actors."""
        import ray

        return ray.get([a.pid.remote() for a in self._actors])

    def _up(self) -> list[int]:
        """The slots whose actor is up (a replacement counts once its ``ready`` answered)."""
        if self._starting:
            import ray

            refs = list(self._starting.values())
            done, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
            for slot, ref in list(self._starting.items()):
                if ref in done:
                    del self._starting[slot]
        return [i for i in range(len(self._actors)) if i not in self._starting]

    @property
    def capacity(self) -> int:
        """How many units may be in flight: ``depth`` per actor that is up."""
        if not self._actors:
            return self.workers * self.depth
        return len(self._up()) * self.depth

    def has_idle_worker(self) -> bool:
        """True when some actor that is up has nothing to do."""
        return any(self._load[i] == 0 for i in self._up())

    def submit(self, unit: Unit, run_dir: str, attempt: int) -> int:
        """Send the unit to the least loaded actor that is up."""
        slot = min(self._up() or range(self.workers), key=lambda i: self._load[i])
        actor = self._actors[slot]
        ref = actor.run_unit.remote(unit, run_dir, attempt)
        ticket = next(self._tickets)
        self._refs[ref] = (ticket, slot, actor)
        self._by_ticket[ticket] = ref
        self._load[slot] += 1
        return ticket

    def _replace(self, slot: int, actor: Any) -> None:
        """Replace ``actor`` by a fresh one, unless it was replaced already: the other
        units queued on a dead actor fail too, and must not kill its successor."""
        import ray

        if self._actors[slot] is actor:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
            self._actors[slot] = fresh = self._new_actor()
            self._starting[slot] = fresh.ready.remote()
            self.restarts += 1

    def wait(self, timeout: float) -> list[Finished]:
        """Units that finished (or failed) within ``timeout`` seconds."""
        import ray
        from ray.exceptions import RayActorError, RayError, RayTaskError, WorkerCrashedError

        if not self._refs:
            time.sleep(min(timeout, 0.05))
            return []
        refs = list(self._refs)
        ready, _ = ray.wait(refs, num_returns=1, timeout=timeout)
        if ready and len(refs) > 1:
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        out: list[Finished] = []
        for ref in ready:
            ticket, slot, actor = self._refs.pop(ref)
            self._by_ticket.pop(ticket, None)
            self._load[slot] -= 1
            try:
                out.append((ticket, ray.get(ref), None))
            except (RayActorError, WorkerCrashedError) as exc:
                self._replace(slot, actor)
                out.append((ticket, None, UnitFailure(f"worker died: {type(exc).__name__}",
                                                      worker_died=True)))
            except RayTaskError as exc:
                # the unit raised; the actor itself is fine
                out.append((ticket, None, UnitFailure(str(exc.cause or exc).splitlines()[0])))
            except RayError as exc:
                # anything else (out of memory, node lost, ...): assume the worker is gone
                self._replace(slot, actor)
                out.append((ticket, None, UnitFailure(f"worker lost: {type(exc).__name__}",
                                                      worker_died=True)))
        return out

    def abandon(self, ticket: int) -> None:
        """Give up on a unit (timeout, cancel): kill the actor running it."""
        ref = self._by_ticket.get(ticket)
        if ref is None:
            return
        _, slot, actor = self._refs[ref]
        self._replace(slot, actor)

    def shutdown(self) -> None:
        """Stop the actors; stop Ray too if this executor started it."""
        import ray

        for a in self._actors:
            with contextlib.suppress(Exception):
                ray.kill(a, no_restart=True)
        self._actors = []
        self._starting.clear()
        self._refs.clear()
        self._by_ticket.clear()
        if self._owns_ray:
            ray.shutdown()
            self._owns_ray = False
