"""Standings and study metrics of game-family runs (painted poker, ...); their score
sheets are :mod:`~pokerarena.platform.score_sheets`.

A family unit stores each game's points as ``seats.net / hands.bb``
(:mod:`pokerarena.workers.family_unit`), so the ordinary standings (mbb/hand over
deals) are milli-points per game; :func:`with_points` adds the same figures in
points per game, labelled so (the CLI, the API and the dashboard show those).

For studies, :func:`deal_table_sql` is the family's table of per-deal numerators and
denominators (the study machinery's ``dl``) and :data:`METRIC_COLUMNS` its metrics:
``points`` (each seat's points per game), ``seat_net:P`` (the seat at position ``P``:
``players - 1`` is the first dealer), ``score_spread`` (the standard deviation of the
seats' points within a game) and, for a family whose record table has ``dealer``,
``seat`` and ``points`` columns, ``dealer_edge`` (per deal of the sheet, the dealer's
points minus the mean of the other seats'). :func:`score_sheet` prints one game's
sheet from its record table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

UNIT = "points/game"


def family_of_variants(variants: Sequence[Any]) -> str | None:
    """The game family among ``variants`` (a run's), None for betting poker."""
    from pokerarena.games import family_ids

    found = [v for v in variants if v in family_ids()]
    return str(found[0]) if found else None


def with_points(out: dict[str, Any], reductions: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """``out`` (standings) with ``unit`` and ``points_per_game`` (each bot's points per
    game with its 95% interval, the cross table in points) when the run is a game
    family's (``reductions``: rows of variant, betting, ...); unchanged otherwise."""
    fam = family_of_variants([r[0] for r in reductions])
    if fam is None:
        return out

    def pts(v: Any) -> Any:
        return None if v is None else v / 1000.0

    cross = out["cross"]
    out["family"] = fam
    out["unit"] = UNIT
    out["points_per_game"] = {
        "unit": UNIT,
        "bots": [{"bot": r["bot"], "value": pts(r["value"]), "lo": pts(r["lo"]),
                  "hi": pts(r["hi"]), "ci95": pts(r.get("ci95")), "games": r["hands"]}
                 for r in out["bots"]],
        "cross": {"bots": cross["bots"],
                  "points": [[pts(x) for x in row] for row in cross["mbb_per_hand"]],
                  "ci95": [[pts(x) for x in row] for row in cross["ci95"]]}}
    return out


def standings_text(out: dict[str, Any]) -> str:
    """The points-per-game standings as the CLI prints them."""
    p = out["points_per_game"]
    lines = [f"{out['family']}: points per game, 95% intervals over deals",
             f"{'bot':<14}{UNIT:>12}{'95% interval':>24}{'games':>8}"]
    for r in p["bots"]:
        lines.append(f"{r['bot']:<14}{r['value']:>12.1f}   [{r['lo']:>9.1f}, "
                     f"{r['hi']:>9.1f}]{r['games']:>8,}")
    lines.append(f"\ncross table (row's {UNIT} against column, ±95%)")
    bots = p["cross"]["bots"]
    lines.append(" " * 14 + "".join(f"{b[:12]:>16}" for b in bots))
    for b, row, ci in zip(bots, p["cross"]["points"], p["cross"]["ci95"], strict=True):
        cells = ["" if x is None else f"{x:+.1f}±{c or 0:.1f}" for x, c in
                 zip(row, ci, strict=True)]
        lines.append(f"{b:<14}" + "".join(f"{c:>16}" for c in cells))
    return "\n".join(lines)


# studies ------------------------------------------------------------------------------

def deal_table_sql(positions: int, record: str | None) -> str:
    """The study's ``dl`` table of a family run: per cell (match) and deal, the games
    played, each seat position's points, the seats' summed points and seat count, the
    within-game spread of points, and (``record``: a sheet with dealer, seat and
    points) the dealer's edge summed over the sheet's deals and their count."""
    pos = "".join(f"sum(s.net / h.bb) FILTER (WHERE s.position = {p}) AS pos{p}, "
                  for p in range(positions))
    edge = "0.0 AS edge, 0.0 AS sheet_deals"
    join = ""
    if record:
        edge = "coalesce(sum(e.edge), 0) AS edge, coalesce(sum(e.deals), 0) AS sheet_deals"
        join = f"""LEFT JOIN (
            SELECT match, game AS hand, sum(edge) AS edge, count(*)::DOUBLE AS deals FROM (
                SELECT match, game, deal,
                       sum(points) FILTER (WHERE seat = dealer)
                       - sum(points) FILTER (WHERE seat <> dealer) / (count(*) - 1) AS edge
                FROM {record} GROUP BY match, game, deal) GROUP BY match, game) e
            USING (match, hand)"""
    return f"""
CREATE TEMP TABLE dl AS
WITH g AS (
    SELECT h.match, h.hand, coalesce(h.deal, h.hand) AS deal, {pos}
           sum(s.net / h.bb) AS points, count(*)::DOUBLE AS seats,
           stddev_pop(s.net / h.bb) AS spread
    FROM seats s JOIN hands h USING (match, hand) GROUP BY h.match, h.hand, h.deal)
SELECT g.match, g.deal, count(*)::DOUBLE AS hands,
       {"".join(f"coalesce(sum(g.pos{p}), 0) AS pos{p}, " for p in range(positions))}
       sum(g.points) AS points, sum(g.seats) AS seats, sum(g.spread) AS spread, {edge}
FROM g {join}
GROUP BY g.match, g.deal
"""


def metric_columns(positions: int, record: str | None) -> dict[str, tuple[str, str]]:
    """Each family metric's ``(numerator, denominator)`` columns of ``dl``."""
    cols = {"points": ("points", "seats"), "score_spread": ("spread", "hands")}
    if record:
        cols["dealer_edge"] = ("edge", "sheet_deals")
    cols.update({f"seat_net:{p}": (f"pos{p}", "hands") for p in range(positions)})
    return cols


def dealer_record(fam_id: str) -> str | None:
    """The family's record table when it has the columns ``dealer_edge`` needs."""
    from pokerarena.games import family

    rec = family(fam_id).record
    names = {c[0] for c in rec.columns} if rec else set()
    return rec.name if rec and {"dealer", "seat", "points"} <= names else None


__all__ = ["UNIT", "deal_table_sql", "dealer_record", "family_of_variants", "metric_columns",
           "standings_text", "with_points"]
