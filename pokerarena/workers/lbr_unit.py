"""Local Best Response on Ray actors (``pokerarena exploit --workers N``): the units of
pairs of :func:`pokerarena.solvers.lbr.lbr_value`, run in parallel on the cluster the
platform uses (a local one, or the one ``--address`` names).

Unit ``k`` plays pairs ``[k·U, (k+1)·U)``. A pair's result is a function of the run's seed
and the pair's number only (its deal, a bot built afresh from the spec with the pair's
seed, LBR's own generator: :class:`~pokerarena.solvers.lbr.PairPlayer`), so a unit is
the same wherever it runs. A unit goes to whichever actor is idle; the driver puts the
units back in order, and the estimate and its interval are those of the run in one
process. When an actor dies (its node lost), its unit is played again by another actor
with the same result, and the run goes on with the actors left.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import ray

from pokerarena.errors import UserError
from pokerarena.solvers.lbr import LbrJob, PairPlayer, PairRunner, PairsResult
from pokerarena.workers.actor_pool import ActorPool, Pooled


class LbrClusterError(UserError):
    """The cluster cannot run the units: too few CPUs, or every actor lost."""


class LbrWorker:
    """One actor: the run's game, bot spec and seed, kept between units."""

    def __init__(self, job: LbrJob) -> None:
        self.job = job
        self.player = PairPlayer.of(job)

    def ready(self) -> dict[str, Any]:
        """Load the compiled kernels and tables before any unit is timed (one pair of
        another seed: pairs share nothing, so it moves no result); where this actor runs."""
        PairPlayer.of(replace(self.job, seed=self.job.seed + 1)).run(0, 1)
        return {"pid": os.getpid(), "node": ray.get_runtime_context().get_node_id()}

    def run(self, start: int, stop: int) -> PairsResult:
        """Pairs ``start`` to ``stop - 1``."""
        return self.player.run(start, stop)


class RayPairs(Pooled, PairRunner):
    """A :class:`~pokerarena.solvers.lbr.PairRunner` on ``workers`` Ray actors of one
    CPU each (Ray must be initialised by the caller: the command joins the platform's
    cluster). ``nodes`` and ``pids``: where the actors ran; ``replayed``: units played
    again after their actor was lost."""

    def __init__(self, workers: int) -> None:
        self.pool = ActorPool(workers, LbrClusterError, "LBR")

    def start(self, job: LbrJob) -> None:
        """Start the actors and wait until each is warm."""
        self.pool.start(LbrWorker, job)

    def run(self, job: LbrJob, units: Sequence[tuple[int, int]],
            done: Callable[[int], None]) -> list[PairsResult]:
        """Each unit on the next idle actor; a unit whose actor died goes to another. A
        unit that fails for a user's reason (the bot plays an illegal action) stops the
        run with that error."""
        return self.pool.run(units, lambda actor, unit: actor.run.remote(*unit),
                             lambda unit: done(unit[1] - unit[0]))


def lbr_on_ray(workers: int, variant: Any, options: dict[str, Any] | None, bot: str,
               hands: int, seed: int = 0, **kwargs: Any) -> tuple[dict[str, Any],
                                                                   dict[str, Any]]:
    """:func:`~pokerarena.solvers.lbr.lbr_value` on ``workers`` actors; returns its
    report and where it ran (the actors, the nodes they ran on)."""
    from pokerarena.solvers.lbr import lbr_value

    runner = RayPairs(workers)
    report = lbr_value(variant, options, bot, hands, seed, runner=runner, **kwargs)
    return report, {"workers": workers, "nodes": len(runner.nodes)}
