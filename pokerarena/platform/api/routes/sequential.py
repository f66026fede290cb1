"""A tournament's sequential tests, live: each tested match's log-likelihood ratio at
every look, between its bounds, and the decision once taken
(:mod:`pokerarena.platform.sequential_view`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from pokerarena.platform.api.context import Context, RunId

router = APIRouter(tags=["results"])


@router.get("/api/runs/{run_id}/sequential")
async def sequential(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """``stop`` (the run's rule, None when it tests nothing) and ``tests``: per tested
    match its bots and game, ``decision`` (``running`` until taken; ``H1`` with the bot
    ``ahead``, ``H0``, or ``inconclusive`` when the match ran out), ``state`` (pairs,
    hands, ``llr``, ``bounds``, mbb/hand with the interval valid after a stop), and
    ``path``/``mirror_path``: ``[pairs, llr]`` at each look. Rebuilt from the landed
    units, the same figures the driver decides on."""
    from pokerarena.platform.sequential_view import sequential_tests

    store = ctx.store(run_id)
    out: dict[str, Any] = await run_in_threadpool(sequential_tests, store)
    return out
