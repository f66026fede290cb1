"""Studies: a study run's report (a study is submitted to ``POST /api/runs`` like any
run)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from pokerarena.platform.api.context import ApiError, Context, RunId

router = APIRouter(tags=["studies"])


@router.get("/api/runs/{run_id}/report", response_class=HTMLResponse)
async def report(run_id: RunId, ctx: Context, exact: bool = True,
                 download: bool = False) -> HTMLResponse:
    """The study's report as one self-contained HTML page (plots embedded), written
    with its Parquet tables under ``runs/{id}/report/`` on the way: the summary of what
    differs significantly from the baseline, a section per question, every metric with
    its 95% interval, the corrected comparisons and the exact tables (``exact=false``
    leaves those out; ``download=true``: as an attachment, ``<run>-report.html``). 409 for
    a run that is not a study or has no finished hands."""
    from fastapi.concurrency import run_in_threadpool

    from pokerarena.platform.study_report import NotAStudy, write_report

    ctx.manager_call(lambda: ctx.manager.get(run_id))  # 404 for an unknown run
    try:
        path = await run_in_threadpool(write_report, ctx.data_dir, run_id, None, exact=exact)
    except NotAStudy as exc:
        raise ApiError(409, str(exc)) from None
    headers = {"Content-Disposition": f'attachment; filename="{run_id}-report.html"'} \
        if download else None
    return HTMLResponse(path.read_text(encoding="utf-8"), headers=headers)


@router.get("/api/runs/{run_id}/study")
async def study(run_id: RunId, ctx: Context) -> dict[str, Any]:
    """A study's answers as data, what the dashboard shows first: ``title``,
    ``summary`` (the report's summary, a sentence a line), ``questions`` (each with its
    ``answers``, the rule comparisons in words, and ``rows``, its metrics for every cell
    side by side with intervals and the difference from the baseline) and ``cells``.
    409 for a run that is not a study or has no finished hands."""
    from fastapi.concurrency import run_in_threadpool

    from pokerarena.platform import page_summaries as ps
    from pokerarena.platform.study_report import NotAStudy, study_results
    from pokerarena.studies.report import study_page

    ctx.manager_call(lambda: ctx.manager.get(run_id))  # 404 for an unknown run
    store = ctx.store(run_id)
    # an ended study's answer is kept beside it, keyed by its rows (issue 31)
    key = await run_in_threadpool(ps.rows_key, store) if not store.is_driven() else None
    kept = await run_in_threadpool(ps.read, store, "study", key)
    if isinstance(kept, dict):
        return kept
    try:
        results = await run_in_threadpool(study_results, ctx.data_dir, run_id, exact=False)
    except NotAStudy as exc:
        raise ApiError(409, str(exc)) from None
    out: dict[str, Any] = study_page(results)
    if key is not None and not store.is_driven():
        await run_in_threadpool(ps.write, store, "study", key, out)
    return out
