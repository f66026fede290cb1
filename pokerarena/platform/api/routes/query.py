"""Results: a run's leaderboard and charts, and read-only SQL over the views, all run
in the query pool (a process per query with its own memory limit; 429 when full)."""

from __future__ import annotations

import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field

from pokerarena.platform.api.context import RUN_ID, ApiContext, Context, RunId
from pokerarena.platform.freezeout_standings import is_freezeout
from pokerarena.platform.query import (
    CATEGORIES_SQL,
    CROSS_TABLE_SQL,
    POSITIONS_SQL,
    leaderboard_sql,
)
from pokerarena.platform.query_pool import records
from pokerarena.platform.sql import one_line

router = APIRouter(tags=["results"])
RunIdQuery = Annotated[str, Query(pattern=RUN_ID, description="a run id")]


class QueryRequest(BaseModel):
    """A read-only SQL query over the DuckDB views."""

    sql: str = Field(min_length=1, max_length=20_000, description="one SELECT statement")
    run_id: str | None = Field(None, pattern=RUN_ID, description="only this run's rows")


async def _run_records(ctx: ApiContext, run_id: str, statements: dict[str, str],
                       summary: str | None = None) -> dict[str, Any]:
    """The statements' rows; with ``summary``, read from the run's page summary of that
    name when it is of the rows now, else computed in the pool and kept there
    (:mod:`pokerarena.platform.page_summaries`)."""
    from fastapi.concurrency import run_in_threadpool

    from pokerarena.platform import page_summaries as ps

    store = ctx.store(run_id)
    key = await run_in_threadpool(ps.rows_key, store) if summary else None
    kept = ps.read(store, summary, key) if summary else None
    if kept is None:
        out = await ctx.pooled(statements, run_id)
        kept = {name: records(r) for name, r in out.items()}
        if summary:
            await run_in_threadpool(ps.write, store, summary, key, kept)
    return {"run_id": run_id, **kept}


@router.get("/api/runs/{run_id}/leaderboard")
async def leaderboard(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """Per bot: hands, net chips, mbb/hand with 95% CI, won rate, faults; and the cross
    table (each bot's mbb/hand against each other bot: heads-up what it won, at tables of
    three or more half the difference of their results on the same hands, the pairwise
    part; its own overall result would repeat in every column); ``unreadable_units``:
    the units left out because a part of theirs is damaged. Runs in the query pool
    (429 when it is full)."""
    out = await _run_records(ctx, run_id, {"leaderboard": leaderboard_sql(),
                                           "cross_table": CROSS_TABLE_SQL}, "leaderboard")
    # The units whose parts fail the footer check are left out of the views: say so.
    store = ctx.store(run_id)
    out["unreadable_units"] = [{"unit": unit, "tables": tables} for unit, tables
                               in sorted(store.damaged_units().items())]
    return out


@router.get("/api/runs/{run_id}/standings")
async def standings(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """The tournament view of a run: each bot's mbb/hand with its 95% interval over
    deals (bootstrapped when deals differ in size), the cross table with intervals,
    total bankroll and instant run-off, Bradley-Terry (with bootstrap intervals and an
    order-stability check) and OpenSkill ratings with the rating history, and the
    bots' profiles (VPIP, PFR, aggression, WTSD, W$SD, fold to bet). The rows are read
    in the query pool (429 when full); a run too big for one answer gets a 413 (use
    ``pokerarena leaderboard``); a run without finished hands yet answers
    ``{"run_id": ..., "pending": true}``."""
    from fastapi.concurrency import run_in_threadpool

    from pokerarena.platform.api.context import ApiError
    from pokerarena.platform.standings import (
        BLOCKS_SQL,
        PROFILES_SQL,
        NoStandings,
        estimators_sql,
        from_rows,
        reduction_sql,
        stored_standings,
    )

    store = ctx.store(run_id)
    if is_freezeout(store.spec_doc()["spec"]):
        return await _freezeout_standings(run_id, ctx)
    stored = await run_in_threadpool(stored_standings, store)
    if stored is not None:  # a finished run's, as it stored them: no hand read again
        return stored
    from pokerarena.platform import page_summaries as ps

    # an ended run whose standings were not stored at its end (too few units to compact):
    # kept on this first request, keyed by the rows read (issue 31)
    key = await run_in_threadpool(ps.rows_key, store) if not store.is_driven() else None
    described = await ctx.pooled({"cols": "SELECT column_name FROM (DESCRIBE seats)"}, run_id)
    columns = {row["column_name"] for row in records(described["cols"])}
    queries = {"blocks": one_line(BLOCKS_SQL), "profiles": PROFILES_SQL,
               "reduction": one_line(reduction_sql(columns))}
    est_sql = estimators_sql(columns)
    if est_sql is not None:  # a run with aivat_net: the estimators beside each other
        queries["estimators"] = one_line(est_sql)
    out = await ctx.pooled(queries, run_id)
    if any(out[k]["truncated"] is not None for k in ("blocks", "estimators") if k in out):
        raise ApiError(413, "the run has too many deals for one answer; "
                       "use `pokerarena leaderboard` on the data directory")
    blocks = [[row[c] for c in ("match", "deal", "bot", "bbs", "hands", "lineup")]
              for row in records(out["blocks"])]
    try:
        reduction = [[row[c] for c in ("variant", "betting", "pairing", "blocks", "sd_raw",
                                       "sd_equity", "sd_baseline", "sd_aivat")]
                     for row in records(out["reduction"])]
        estimators = [[row[c] for c in ("match", "deal", "bot", "hands", "raw", "allin",
                                        "aivat", "corrected")]
                      for row in records(out["estimators"])] if "estimators" in out else []
        result: dict[str, Any] = await run_in_threadpool(
            from_rows, run_id, blocks, records(out["profiles"]), reduction, estimators)
    except NoStandings:
        return {"run_id": run_id, "pending": True}  # no finished hands yet
    if key is not None and not store.is_driven():
        from pokerarena.platform.standings import store_standings

        with contextlib.suppress(OSError):
            await run_in_threadpool(store_standings, store, result, key)
    return result


async def _freezeout_standings(run_id: str, ctx: ApiContext) -> dict[str, Any]:
    """A freeze-out run's standings (:mod:`pokerarena.platform.freezeout_standings`)."""
    from pokerarena.platform import freezeout_standings as fz
    from pokerarena.platform.api.context import ApiError

    out = await ctx.pooled({"entries": fz.ENTRIES_SQL, "chips": fz.CHIPS_SQL}, run_id)
    if out["entries"]["truncated"] is not None:
        raise ApiError(413, "the run has too many tournaments for one answer; "
                       "use `pokerarena leaderboard` on the data directory")
    try:
        chips = records(out["chips"])
        return fz.from_rows(run_id, records(out["entries"]), chips[0] if chips else None)
    except fz.NoFreezeOutStandings:
        return {"run_id": run_id, "pending": True}  # no finished tournament yet


@router.get("/api/runs/{run_id}/games")
async def games(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """Per game of the run (variant, betting system, options): ``hands``, ``pot_bb``
    (mean pot in big blinds), ``showdown_rate``, ``passed_rate`` and
    ``decisions_per_hand``, each ``{"value", "ci95": [lo, hi]}``: a simulation's own
    figures, side by side. Runs in the query pool."""
    from pokerarena.platform.games_view import GAMES_SQL, games_from_rows

    out = await _run_records(ctx, run_id, {"games": one_line(GAMES_SQL)}, "games")
    return {"run_id": run_id, "games": games_from_rows(out["games"])}


@router.get("/api/compare")
async def compare(a: RunIdQuery, b: RunIdQuery, ctx: Context) -> dict[str, Any]:
    """Two runs of the same bots side by side (for example before and after a change to
    a bot): per bot in both, each run's mbb/hand with its interval and ``difference``
    (b minus a) with its 95% interval, the runs taken as independent samples."""
    from pokerarena.platform.api.context import ApiError
    from pokerarena.platform.games_view import compare_bots

    left, right = await standings(a, ctx), await standings(b, ctx)
    if left.get("pending") or right.get("pending"):
        raise ApiError(409, "a run to compare has no finished hands yet")
    if "bots" not in left or "bots" not in right:
        raise ApiError(409, "only runs with standings per bot can be compared")
    return {"a": a, "b": b, "unit": left.get("unit", "mbb/hand"),
            "bots": compare_bots(left, right)}


@router.get("/api/runs/{run_id}/charts")
async def charts(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """Win rate by position (0 = first after the button) and hand categories at
    showdown. Runs in the query pool (429 when it is full)."""
    return await _run_records(ctx, run_id, {"positions": POSITIONS_SQL,
                                            "categories": CATEGORIES_SQL}, "charts")


@router.post("/api/query", response_class=Response,
             responses={200: {"content": {"application/json": {}},
                              "description": "`columns`, `rows`, `truncated`, "
                              "`truncated_by`, `row_limit`, `byte_limit`"}})
async def query(req: QueryRequest, ctx: Context) -> Response:
    """One read-only SELECT over the views ``hands``, ``seats``, ``actions``,
    ``faults``, ``units``, ``leaderboard`` and the table ``runs``, in a query process
    of its own: limited in time (408), memory (413), rows and bytes (``truncated``),
    queries at once (429); no file access outside the runs, no
    ATTACH/INSTALL/LOAD/SET/COPY."""
    run_id = req.run_id
    if run_id is not None:
        ctx.store(run_id)
    out = (await ctx.pooled({"q": req.sql}, run_id))["q"]
    # The worker encoded the rows (at most response_bytes of them): pass them through.
    head = json.dumps({"columns": out["columns"]})[:-1]
    tail = json.dumps({"truncated": out["truncated"] is not None,
                       "truncated_by": out["truncated"], "row_limit": ctx.limits.rows,
                       "byte_limit": ctx.pool.limits.response_bytes})[1:]
    body = f'{head}, "rows": {out["rows_json"]}, {tail}'
    return Response(body.encode(), media_type="application/json")
