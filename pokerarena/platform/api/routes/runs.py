"""Runs: submit (token), list, follow, cancel (token)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from pokerarena.platform.api.context import AUTH, ApiError, Context, RunId
from pokerarena.platform.api.security import PolicyError, check_http_spec

router = APIRouter(tags=["runs"])

EXAMPLE_SPEC = {"kind": "match", "name": "demo", "seed": 1, "bots": ["random", "call"],
                "hands": 1000, "unit_hands": 250,
                "games": [{"variant": "holdem", "betting": "no_limit",
                           "options": {"blinds": [1, 2]}}]}


@router.get("/api/runs")
def list_runs(ctx: Context) -> list[dict[str, Any]]:
    """Every run, newest first, with status and progress."""
    runs: list[dict[str, Any]] = ctx.manager.list()
    return runs


@router.post("/api/runs", status_code=201, dependencies=AUTH)
def submit_run(spec: Annotated[dict[str, Any], Body(examples=[EXAMPLE_SPEC],
                                                    description="a run spec (the same "
                                                    "fields as a TOML spec file)")],
               ctx: Context) -> dict[str, Any]:
    """Submit a run; it starts at once. Bots must be registered names (or allowed
    adapter URLs), variants shipped identifiers."""
    from pokerarena.platform.spec import SpecError, parse_spec

    try:
        check_http_spec(spec, ctx.allowed_adapter_urls)
        parsed = parse_spec(spec)
    except (PolicyError, SpecError) as exc:
        raise ApiError(422, str(exc)) from None
    run_id = ctx.manager_call(lambda: ctx.manager.submit(parsed))
    run: dict[str, Any] = ctx.manager_call(lambda: ctx.manager.get(run_id))
    return run


@router.get("/api/runs/{run_id}")
def get_run(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """One run: status, live progress (units, hands, hands/s, ETA), spec."""
    run: dict[str, Any] = ctx.manager_call(lambda: ctx.manager.get(run_id))
    return run


@router.post("/api/runs/{run_id}/cancel", status_code=202, dependencies=AUTH)
def cancel_run(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """Cancel a run: units in flight stop; finished units stay, consistent."""
    run: dict[str, Any] = ctx.manager_call(lambda: ctx.manager.cancel(run_id))
    return run


@router.post("/api/runs/{run_id}/standings/write", dependencies=AUTH)
def write_standings(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """Write the run's standings as Parquet under ``runs/{id}/standings/`` (a finished
    tournament has them already; this writes them again, or for any other ended run):
    the same tables as ``GET .../standings``, read back by the query views of their
    names. 409 while the run is running or without finished hands."""
    from pokerarena.platform.standings import NoStandings, RunStillRunning
    from pokerarena.platform.standings import write_standings as write

    run = ctx.manager_call(lambda: ctx.manager.get(run_id))
    if run["status"] in ("running", "cancelling"):
        raise ApiError(409, f"run {run_id} is still {run['status']}; its standings are "
                       "written when it ends (GET /api/runs/{id}/standings reads them live)")
    try:
        written: dict[str, Any] = write(ctx.data_dir, run_id)
    except (NoStandings, RunStillRunning) as exc:
        raise ApiError(409, str(exc)) from None
    return written
