"""A run's games side by side (the dashboard's simulation page, issue 31): per game (a
variant, its betting system and options) how many hands, the mean pot in big blinds,
how often a hand reached a showdown or passed unopened, and the decisions per hand,
each estimate with its 95% interval; and the comparison of two runs' bots."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from pokerarena.studies.metrics import Z95, wilson

GAMES_SQL = """
SELECT variant, betting, options, count(*) AS hands,
       avg(pot / bb) AS pot_bb, stddev_samp(pot / bb) AS pot_sd,
       count(*) FILTER (WHERE showdown) AS showdowns,
       count(*) FILTER (WHERE passed) AS passes,
       avg(decisions) AS decisions, stddev_samp(decisions) AS decisions_sd
FROM hands GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
"""
"""One row per game. Each hand is its own deal here, so the intervals treat hands as
independent (with carried stacks they are nearly so)."""


def _mean(mean: float | None, sd: float | None, n: int) -> dict[str, Any]:
    if mean is None:
        return {"value": None, "ci95": [None, None]}
    half = Z95 * sd / math.sqrt(n) if sd is not None and n > 1 else math.inf
    lo, hi = mean - half, mean + half
    return {"value": round(mean, 4), "ci95": [round(lo, 4) if math.isfinite(lo) else None,
                                              round(hi, 4) if math.isfinite(hi) else None]}


def _share(k: int, n: int) -> dict[str, Any]:
    iv = wilson(int(k), int(n))
    return {"value": round(iv.value, 4), "ci95": [round(iv.lo, 4), round(iv.hi, 4)]}


def games_from_rows(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows of :data:`GAMES_SQL` as the page's entries (options parsed, each rate
    with its interval: means by the normal approximation, shares by Wilson's)."""
    out = []
    for r in rows:
        n = int(r["hands"])
        options = json.loads(r["options"]) if r.get("options") else {}
        options.pop("betting", None)
        out.append({"variant": r["variant"], "betting": r["betting"], "options": options,
                    "hands": n, "pot_bb": _mean(r["pot_bb"], r["pot_sd"], n),
                    "showdown_rate": _share(r["showdowns"], n),
                    "passed_rate": _share(r["passes"], n),
                    "decisions_per_hand": _mean(r["decisions"], r["decisions_sd"], n)})
    return out


def compare_bots(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each bot of both standings (``bots`` entries with ``value`` and ``ci95``, mbb/hand)
    with run b's rate minus run a's and its 95% interval. The runs are independent
    samples, so the variances add: each interval's half-width is read back as 1.96
    standard errors (a slightly wide answer where a run's own interval used Student's
    quantile)."""
    ra = {x["bot"]: x for x in a.get("bots") or []}
    rb = {x["bot"]: x for x in b.get("bots") or []}
    out = []
    for bot in [x for x in ra if x in rb]:
        x, y = ra[bot], rb[bot]
        ok = all(v.get("ci95") is not None and math.isfinite(v["ci95"]) for v in (x, y))
        diff = y["value"] - x["value"]
        half = math.hypot(x["ci95"], y["ci95"]) if ok else math.inf
        out.append({"bot": bot, "a": {k: x.get(k) for k in ("value", "lo", "hi", "hands")},
                    "b": {k: y.get(k) for k in ("value", "lo", "hi", "hands")},
                    "difference": round(diff, 1),
                    "ci95": [round(diff - half, 1), round(diff + half, 1)] if ok else None})
    return out
