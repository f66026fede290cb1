"""Hold'em MCCFR on Ray actors (``pokerarena solve holdem --workers N``): the slices of
each round of :func:`pokerarena.solvers.holdem_mccfr.train_rounds`, run in parallel on
the cluster the platform uses (a local one, or the one ``--address`` names).

Each actor gets the tree's and the abstraction's arrays once, compiles the kernel once,
and then runs one slice at a time against the round's snapshot of the regrets (put in
the object store once a round). A slice goes to whichever actor is idle, so the actors
finish in any order; the driver adds the deltas in slice order
(:func:`~pokerarena.solvers.holdem_mccfr.merge`), so the result is the same for 1 actor
or 20, on one node or several. A slice is a pure function of the snapshot and its
numbers: when an actor dies (its node lost), its slice is run again by another actor
with the same result, and the run goes on with the actors left.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import ray

from pokerarena.errors import UserError
from pokerarena.solvers.holdem_mccfr import (
    Kernel,
    SliceDelta,
    SliceRunner,
    SliceTask,
    run_slice,
)
from pokerarena.workers.actor_pool import ActorPool, Pooled


class SolveClusterError(UserError):
    """The cluster cannot run the slices: too few CPUs, or every actor lost."""


class SolveWorker:
    """One actor: the kernel and the run's seed, kept between slices."""

    def __init__(self, kernel: Kernel, seed: int) -> None:
        self.kernel = kernel
        self.seed = seed

    def ready(self) -> dict[str, Any]:
        """Compile the kernel (before any slice is timed); where this actor runs."""
        rows = self.kernel.rows
        self.kernel.run(np.zeros((rows, 3)), np.zeros((rows, 3)), np.uint64(1), 0, 0)
        return {"pid": os.getpid(), "node": ray.get_runtime_context().get_node_id()}

    def run(self, regret: np.ndarray, task: SliceTask) -> SliceDelta:
        """One slice against the round's snapshot."""
        return run_slice(self.kernel, regret, self.seed, task)


class RaySlices(Pooled, SliceRunner):
    """A :class:`~pokerarena.solvers.holdem_mccfr.SliceRunner` on ``workers`` Ray
    actors of one CPU each (Ray must be initialised by the caller: the command joins
    the platform's cluster). ``nodes`` and ``pids``: where the actors ran."""

    def __init__(self, workers: int) -> None:
        self.pool = ActorPool(workers, SolveClusterError, "solve")

    def start(self, kernel: Kernel, seed: int) -> None:
        """Start the actors and wait until each has compiled the kernel."""
        self.pool.start(SolveWorker, ray.put(kernel), seed)

    def run(self, regret: np.ndarray, tasks: Sequence[SliceTask],
            done: Callable[[int], None]) -> list[SliceDelta]:
        """The round's slices, each on the next idle actor; a slice whose actor died
        goes to another."""
        snapshot = ray.put(regret)
        return self.pool.run(tasks, lambda actor, task: actor.run.remote(snapshot, task),
                             lambda task: done(task.iterations))


def train_on_ray(workers: int, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """:func:`~pokerarena.solvers.holdem_mccfr.train_rounds` on ``workers`` actors;
    returns the solve and where it ran (the actors, the nodes they ran on)."""
    from pokerarena.solvers.holdem_mccfr import train_rounds

    runner = RaySlices(workers)
    solve = train_rounds(runner=runner, **kwargs)
    return solve, {"workers": workers, "nodes": len(runner.nodes)}
