"""A game family's score sheets (issue 18's «таблица», issue 31's sheet page): one
game's record as data (``/api/runs/{id}/sheet``, the hand viewer) or as text
(``pokerarena sheet``), and the sheet index kept as a page summary.

Apart from :mod:`~pokerarena.platform.family_standings` (which the standings import):
the sheet index is a page summary, whose key comes from the standings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerarena.errors import UserError


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


__all__ = ["SHEET_COLUMNS", "SHEET_INDEX", "NoSheet", "remember_sheet_index", "score_sheet",
           "sheet_data", "sheet_index", "sheet_sql"]
