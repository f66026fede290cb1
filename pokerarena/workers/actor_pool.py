"""A fixed set of Ray actors of one CPU each that work through a list of tasks, each on
the next idle actor, for the commands whose work is a pure function of its task (hold'em
MCCFR's slices, LBR's units of pairs). A task whose actor died (its node lost) goes to
another actor, with the same result; the run goes on with the actors left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ray

from pokerarena.errors import UserError

READY_SECONDS = 300.0


class ActorPool:
    """``workers`` actors of one class; ``error`` is the :class:`UserError` subclass
    that names what went wrong in the command's words. ``nodes`` and ``pids``: where the
    actors ran; ``replayed``: tasks run again after their actor was lost."""

    def __init__(self, workers: int, error: type[UserError], what: str) -> None:
        if workers < 1:
            raise error(f"--workers must be at least 1, got {workers}")
        self.workers, self.error, self.what = workers, error, what
        self.actors: list[Any] = []
        self.nodes: list[str] = []
        self.pids: list[int] = []
        self.replayed = 0

    def start(self, actor_class: type, *args: Any) -> None:
        """Start the actors and wait until each is warm (its ``ready()`` returns its
        ``pid`` and ``node``)."""
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < self.workers:
            raise self.error(f"--workers {self.workers}: the Ray cluster has {cpus} CPUs")
        remote: Any = ray.remote(num_cpus=1, max_restarts=0)(actor_class)
        self.actors = [remote.remote(*args) for _ in range(self.workers)]
        try:
            info = ray.get([a.ready.remote() for a in self.actors], timeout=READY_SECONDS)
        except ray.exceptions.GetTimeoutError:
            self.close()
            raise self.error(f"--workers {self.workers}: the actors did not start within "
                             f"{READY_SECONDS:.0f} s (the cluster's CPUs are busy?)"
                             ) from None
        self.pids = [int(i["pid"]) for i in info]
        self.nodes = sorted({str(i["node"]) for i in info})

    def run(self, tasks: Sequence[Any], submit: Callable[[Any, Any], Any],
            done: Callable[[Any], None]) -> list[Any]:
        """Each task on the next idle actor (``submit(actor, task)`` returns its object
        ref); the results in the order they finished, ``done(task)`` after each. A task
        that fails for a user's reason stops the run with that error."""
        todo = list(tasks)
        idle = list(self.actors)
        pending: dict[Any, tuple[Any, Any]] = {}
        out: list[Any] = []
        while todo or pending:
            while idle and todo:
                actor, task = idle.pop(), todo.pop(0)
                pending[submit(actor, task)] = (actor, task)
            if not pending:
                raise self.error(f"every {self.what} actor was lost")
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                actor, task = pending.pop(ref)
                try:
                    out.append(ray.get(ref))
                except ray.exceptions.RayActorError:
                    self.actors.remove(actor)       # its node is gone: the task again
                    todo.insert(0, task)
                    self.replayed += 1
                    continue
                except ray.exceptions.RayTaskError as exc:
                    if isinstance(exc.cause, UserError):
                        raise exc.cause from None
                    raise
                idle.append(actor)
                done(task)
        return out

    def close(self) -> None:
        """Stop the actors."""
        for actor in self.actors:
            ray.kill(actor)
        self.actors = []


class Pooled:
    """A runner over an :class:`ActorPool` (``self.pool``): where its actors ran, and
    how to stop them."""

    pool: ActorPool

    def close(self) -> None:
        """Stop the actors."""
        self.pool.close()

    @property
    def actors(self) -> list[Any]:
        return self.pool.actors

    @property
    def nodes(self) -> list[str]:
        return self.pool.nodes

    @property
    def pids(self) -> list[int]:
        return self.pool.pids

    @property
    def replayed(self) -> int:
        return self.pool.replayed
