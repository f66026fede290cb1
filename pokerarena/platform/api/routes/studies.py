"""Studies: a study run's report (a study is submitted to ``POST /api/runs`` like any
run)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from pokerarena.platform.api.context import ApiError, Context, RunId

router = APIRouter(tags=["studies"])


@router.get("/api/runs/{run_id}/report", response_class=HTMLResponse)
async def report(run_id: RunId, ctx: Context, exact: bool = True) -> HTMLResponse:
    """The study's report as one self-contained HTML page (plots embedded), written
    with its Parquet tables under ``runs/{id}/report/`` on the way: the summary of what
    differs significantly from the baseline, a section per question, every metric with
    its 95% interval, the corrected comparisons and the exact tables (``exact=false``
    leaves those out). 409 for a run that is not a study or has no finished hands."""
    from fastapi.concurrency import run_in_threadpool

    from pokerarena.platform.study_report import NotAStudy, write_report

    ctx.manager_call(lambda: ctx.manager.get(run_id))  # 404 for an unknown run
    try:
        path = await run_in_threadpool(write_report, ctx.data_dir, run_id, None, exact=exact)
    except NotAStudy as exc:
        raise ApiError(409, str(exc)) from None
    return HTMLResponse(path.read_text(encoding="utf-8"))
