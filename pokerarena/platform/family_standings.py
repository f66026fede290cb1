"""Standings, study metrics and score sheets of game-family runs (painted poker, ...).

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
from pathlib import Path
from typing import Any

from pokerarena.errors import UserError

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


# the score sheet ------------------------------------------------------------------------

class NoSheet(UserError):
    """A run, unit or game without a score sheet."""


def sheet_sql(record: str) -> str:
    """The query that prints a game's score sheet: per deal, each seat's bid, tricks,
    points and running total (``?`` parameters: unit, game)."""
    return (f"SELECT deal, kind, cards, dealer, trump, seat, bid, tricks, points, total "
            f"FROM {record} WHERE unit = ? AND game = ? ORDER BY deal, seat")


def sheet_data(data: str | Path, run_id: str, unit: str | None = None,
               game: int | None = None) -> dict[str, Any]:
    """One game's score sheet of a family run as data: ``columns`` and ``rows`` of the
    family's record (painted poker's deals: a row per deal and seat, with the running
    ``total``), the seats' ``bots``, ``painted`` (the record is the document's sheet),
    and which ``unit`` and ``game`` (default: the run's first game)."""
    from pokerarena.platform.query import connect
    from pokerarena.platform.spec import parse_spec, run_family
    from pokerarena.platform.storage import RunStore

    store = RunStore(data, run_id)
    if not store.exists():
        raise NoSheet(f"no run {run_id!r} under {data}")
    from pokerarena.games import family

    fam = run_family(parse_spec(store.spec_doc()["spec"]))
    rec = None if fam is None else family(fam).record
    if fam is None or rec is None:
        raise NoSheet(f"run {run_id!r} has no score sheet (a game family's run has one)")
    painted = set(SHEET_COLUMNS) <= {c[0] for c in rec.columns}
    columns = list(SHEET_COLUMNS) if painted else [c[0] for c in rec.columns]
    con = connect(data, run_id)
    try:
        index = sheet_index(store, con, rec.name)
        first = index["first"]
        if first is None:
            raise NoSheet(f"run {run_id!r} has no finished games yet")
        if unit is None and game is not None:  # the first unit that played that game
            found = con.execute(f"SELECT unit FROM {rec.name} WHERE game = ? ORDER BY unit "
                                "LIMIT 1", [game]).fetchone()
            unit = str(found[0]) if found else str(first[0])
        unit = unit or str(first[0])
        game = first[1] if game is None else game
        rows = con.execute(sheet_sql(rec.name) if painted else
                           f"SELECT {', '.join(columns)} FROM {rec.name} WHERE unit = ? "
                           "AND game = ? ORDER BY ALL", [unit, game]).fetchall()
        bots = [r[0] for r in con.execute(
            "SELECT bot FROM seats WHERE unit = ? AND hand = ? ORDER BY seat",
            [unit, game]).fetchall()]
    finally:
        con.close()
    if not rows:
        raise NoSheet(f"run {run_id!r}: no game {game} in unit {unit!r}")
    return {"run_id": run_id, "family": fam, "unit": unit, "game": int(game),
            "games": index["games"], "bots": bots, "painted": painted,
            "columns": columns, "rows": [list(r) for r in rows]}


def remember_sheet_index(data: str | Path, run_id: str) -> bool:
    """Keep a finished family run's :func:`sheet_index` (when its run ends, beside the
    other page summaries); False for a run without a score sheet."""
    from pokerarena.games import family
    from pokerarena.platform.query import connect
    from pokerarena.platform.spec import parse_spec, run_family
    from pokerarena.platform.storage import RunStore

    store = RunStore(data, run_id)
    fam = run_family(parse_spec(store.spec_doc()["spec"]))
    rec = None if fam is None else family(fam).record
    if rec is None:
        return False
    con = connect(data, run_id)
    try:
        sheet_index(store, con, rec.name)
    finally:
        con.close()
    return True


SHEET_INDEX = "sheet-index"
"""The page summary of a family run's sheets: its first game and how many it has."""


def sheet_index(store: Any, con: Any, record: str) -> dict[str, Any]:
    """The run's first game (``[unit, game]``, None before any) and its number of
    games: two scans of the whole record, kept as a page summary of the rows they read
    (:mod:`~pokerarena.platform.page_summaries`), so a sheet of a run of millions of
    games reads one game's rows."""
    from pokerarena.platform import page_summaries

    key = page_summaries.rows_key(store)
    kept = page_summaries.read(store, SHEET_INDEX, key)
    if kept is not None:
        return dict(kept)
    first = con.execute(f"SELECT unit, game FROM {record} ORDER BY unit, game LIMIT 1"
                        ).fetchone()
    games = con.execute(f"SELECT count(DISTINCT (unit, game)) FROM {record}").fetchone()
    index = {"first": None if first is None else [str(first[0]), int(first[1])],
             "games": int(games[0]) if games else 0}
    page_summaries.write(store, SHEET_INDEX, key, index)
    return index


def score_sheet(data: str | Path, run_id: str, unit: str | None = None,
                game: int | None = None) -> str:
    """One game's score sheet of a family run as text: a row per deal, a column pair
    (bid/tricks, points) per seat, the totals last (default: the run's first game)."""
    d = sheet_data(data, run_id, unit, game)
    rows = [tuple(r) for r in d["rows"]]
    title = f"{run_id} unit {d['unit']} game {d['game']}"
    if d["painted"]:
        return _sheet_text(rows, d["bots"], title)
    return _record_text(rows, d["columns"], d["bots"], title)


SHEET_COLUMNS = ("deal", "kind", "cards", "dealer", "trump", "seat", "bid", "tricks",
                 "points", "total")
"""A record with these columns is printed as the document's sheet (a column pair per
seat); any other family's record as its table, row by row."""


def _record_text(rows: list[tuple], columns: list[str], bots: list[str], title: str) -> str:
    """The record's rows as an aligned text table (the seats' bots named above it)."""
    cells = [[_cell(v) for v in r] for r in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    lines = [title, "  ".join(f"seat {s}: {b}" for s, b in enumerate(bots)),
             "  ".join(c.rjust(w) for c, w in zip(columns, widths, strict=True))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:+.1f}" if v != int(v) else f"{int(v):+d}"
    return str(v)


def _sheet_text(rows: list[tuple], bots: list[str], title: str) -> str:
    seats = max(r[5] for r in rows) + 1
    names = bots if len(bots) == seats else [f"seat {s}" for s in range(seats)]
    head = f"{'deal':>4} {'kind':<9}{'cards':>5}{'dealer':>7} {'trump':<5}" + "".join(
        f"{f'{s}:{n}'[:18]:>19}" for s, n in enumerate(names))
    lines = [title, head, " " * 32 + "".join(f"{'bid/took   pts':>19}" for _ in names)]
    by_deal: dict[int, list[tuple]] = {}
    for r in rows:
        by_deal.setdefault(r[0], []).append(r)
    totals = [0.0] * seats
    for deal, rs in by_deal.items():
        first = rs[0]
        cells = []
        for r in sorted(rs, key=lambda r: r[5]):
            bid = "-" if r[6] < 0 else str(r[6])
            cells.append(f"{bid:>4}/{r[7]:<3}{r[8]:>+8.1f}")
            totals[r[5]] = r[9]
        lines.append(f"{deal:>4} {first[1]:<9}{first[2]:>5}{first[3]:>7} {first[4]:<5}"
                     + "".join(f"{c:>19}" for c in cells))
    lines.append(f"{'total':<32}" + "".join(f"{t:>19.1f}" for t in totals))
    return "\n".join(lines)


__all__ = ["UNIT", "NoSheet", "deal_table_sql", "dealer_record", "family_of_variants",
           "metric_columns", "score_sheet", "sheet_data", "sheet_sql", "standings_text",
           "with_points"]
