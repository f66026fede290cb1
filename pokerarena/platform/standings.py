"""A run's standings from its stored rows: the deals as blocks, read with DuckDB, and
the tournament statistics over them (:mod:`pokerarena.tournaments.standings`), with
the bots' profiles. The CLI (``pokerarena leaderboard``) and the API
(``/api/runs/{id}/standings``) both use it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokerarena.errors import UserError
from pokerarena.tournaments.estimates import Reduction
from pokerarena.tournaments.profiles import PROFILE_COLUMNS
from pokerarena.tournaments.standings import Block, standings

BLOCKS_SQL = """
SELECT s.match, coalesce(h.deal, h.hand) AS deal, s.bot, sum(s.net / h.bb) AS bbs,
       count(*) AS hands, any_value(u.bots) AS lineup
FROM seats s JOIN hands h USING (run_id, match, hand)
     JOIN units u ON u.run_id = s.run_id AND u.unit = s.unit
GROUP BY s.match, coalesce(h.deal, h.hand), s.bot
ORDER BY 1, 2, 3
"""
REDUCTION_SQL = """
WITH b AS (
    SELECT h.variant, h.betting, s.match, coalesce(h.deal, h.hand) AS deal, s.bot,
           count(*) AS n, sum(s.net / h.bb) AS raw, sum({equity} / h.bb) AS eq,
           sum((s.net - {baseline}) / h.bb) AS base
    FROM seats s JOIN hands h USING (run_id, match, hand) GROUP BY ALL)
SELECT variant, betting, count(*) AS blocks, stddev_samp(raw / n) AS sd_raw,
       stddev_samp(eq / n) AS sd_equity, stddev_samp(base / n) AS sd_baseline
FROM b GROUP BY 1, 2 ORDER BY 1, 2
"""
PROFILES_SQL = (f"SELECT {', '.join(PROFILE_COLUMNS)} FROM bot_profiles "
                "ORDER BY bot, variant, betting")


class NoStandings(UserError):
    """A run without finished hands has no standings yet."""


def reduction_sql(columns: set[str]) -> str:
    """:data:`REDUCTION_SQL` for a ``seats`` view with ``columns`` (runs written before
    ``equity_net`` and ``baseline_net`` existed read as without them)."""
    return REDUCTION_SQL.format(
        equity="s.equity_net" if "equity_net" in columns else "s.net",
        baseline="s.baseline_net" if "baseline_net" in columns else "NULL")


def _reductions(rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """Per game: the standard deviation of the per-hand block results raw, with all-in
    runouts settled by equity, and net of the baseline bot; each reduction as the
    ratio of standard deviations and the share of hands it needs for the same interval."""
    out = []
    for variant, betting, blocks, raw, eq, base in rows:
        d: dict[str, Any] = {"variant": variant, "betting": betting, "blocks": blocks,
                             "sd_raw": None if raw is None else round(raw, 4)}
        for name, sd in (("equity", eq), ("baseline", base)):
            red = Reduction(raw, sd) if sd is not None and raw else None
            d[f"sd_{name}"] = None if sd is None else round(sd, 4)
            d[f"{name}_sd_ratio"] = None if red is None else round(red.sd_ratio, 4)
            d[f"{name}_hands_ratio"] = None if red is None else round(red.hands_ratio, 4)
        out.append(d)
    return out


def from_rows(run_id: str, blocks: Sequence[Sequence[Any]],
              profiles: Sequence[dict[str, Any]],
              reductions: Sequence[Sequence[Any]] = ()) -> dict[str, Any]:
    """The standings of ``run_id`` from the rows of :data:`BLOCKS_SQL`,
    :data:`PROFILES_SQL` and :func:`reduction_sql`."""
    if not blocks:
        raise NoStandings(f"run {run_id!r} has no finished hands yet")
    parsed = [Block(int(m), int(d), str(b), float(x), int(n), tuple(str(lineup).split(",")))
              for m, d, b, x, n, lineup in blocks]
    return {"run_id": run_id, **standings(parsed), "profiles": list(profiles),
            "variance_reduction": _reductions(reductions)}


def run_standings(data: str | Path, run_id: str) -> dict[str, Any]:
    """The standings of run ``run_id`` under ``data`` (DuckDB in this process)."""
    from pokerarena.platform.query import connect, run_query

    con = connect(data, run_id)
    try:
        _, rows = run_query(con, BLOCKS_SQL)
        cols, prof = run_query(con, PROFILES_SQL)
        seat_cols = {r[0] for r in con.execute("DESCRIBE seats").fetchall()}
        _, red = run_query(con, reduction_sql(seat_cols))
    finally:
        con.close()
    return from_rows(run_id, rows, [dict(zip(cols, r, strict=True)) for r in prof], red)
