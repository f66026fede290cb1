"""A run's standings from its stored rows: the deals as blocks, read with DuckDB, and
the tournament statistics over them (:mod:`pokerarena.tournaments.standings`), with
the bots' profiles (a game family's run: also in points per game,
:func:`~pokerarena.platform.family_standings.with_points`). The CLI (``pokerarena
leaderboard``) and the API (``/api/runs/{id}/standings``) both use it.

:func:`write_standings` also keeps them as Parquet beside the run
(``<run>/standings/<table>.parquet``, :data:`~pokerarena.platform.query.STANDINGS_TABLES`),
each file written to a temporary name and renamed, never touching the run's parts: a
tournament run does it when it finishes, ``leaderboard --write`` and ``POST
/api/runs/{id}/standings/write`` on demand. The query views read them by their names.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from pokerarena.errors import UserError
from pokerarena.platform.family_standings import with_points
from pokerarena.platform.freezeout_standings import is_freezeout_run
from pokerarena.platform.query import STANDINGS_DIR, STANDINGS_TABLES
from pokerarena.platform.run_kinds import traits
from pokerarena.platform.storage import RunStore
from pokerarena.tournaments.estimates import Reduction, block_rate
from pokerarena.tournaments.profiles import PROFILE_COLUMNS
from pokerarena.tournaments.standings import Block, standings
from pokerarena.workers import fsys

BLOCKS_SQL = """
SELECT s.match, coalesce(h.deal, h.hand) AS deal, s.bot, sum(s.net / h.bb) AS bbs,
       count(*) AS hands, any_value(u.bots) AS lineup
FROM seats s JOIN hands h USING (run_id, match, hand)
     JOIN units u ON u.run_id = s.run_id AND u.unit = s.unit
GROUP BY s.match, coalesce(h.deal, h.hand), s.bot
ORDER BY 1, 2, 3
"""
REDUCTION_SQL = """
WITH lineups AS (
    SELECT run_id, match,
           array_to_string(list_sort(list_distinct(flatten(list(string_split(bots, ','))))),
                           ',') AS pairing
    FROM units GROUP BY run_id, match),
b AS (
    SELECT h.variant, h.betting, l.pairing, s.match, coalesce(h.deal, h.hand) AS deal,
           s.bot, count(*) AS n, sum(s.net / h.bb) AS raw, sum({equity} / h.bb) AS eq,
           sum((s.net - {baseline}) / h.bb) AS base, sum({aivat} / h.bb) AS av
    FROM seats s JOIN hands h USING (run_id, match, hand)
         JOIN lineups l ON l.run_id = s.run_id AND l.match = s.match
    GROUP BY ALL)
SELECT variant, betting, pairing, count(*) AS blocks, stddev_samp(raw / n) AS sd_raw,
       stddev_samp(eq / n) AS sd_equity, stddev_samp(base / n) AS sd_baseline,
       stddev_samp(av / n) AS sd_aivat
FROM b GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
"""
"""Each reduction per game and pairing (the bots of a match, sorted): pooled over the
pairings of a game, one pairing's gain hid another's loss (issue 25: tag v lag and
maniac v call settled by equity under duplicate, ×1.09 and ×5.36, published as one
ratio)."""
ESTIMATORS_SQL = """
SELECT s.match, coalesce(h.deal, h.hand) AS deal, s.bot, count(*) AS hands,
       sum(s.net / h.bb) AS raw, sum({equity} / h.bb) AS allin,
       sum(s.aivat_net / h.bb) AS aivat, count(s.aivat_net) AS corrected
FROM seats s JOIN hands h USING (run_id, match, hand)
GROUP BY s.match, coalesce(h.deal, h.hand), s.bot
HAVING count(s.aivat_net) > 0
ORDER BY 1, 2, 3
"""
"""Per bot and deal of a match, the three estimators side by side (a run without
``aivat = true`` has no rows: it has no AIVAT to put beside the others)."""
ESTIMATORS = ("raw", "allin", "aivat")
PROFILES_SQL = (f"SELECT {', '.join(PROFILE_COLUMNS)} FROM bot_profiles "
                "ORDER BY bot, variant, betting")


class NoStandings(UserError):
    """A run without finished hands has no standings yet."""


class RunStillRunning(UserError):
    """A run being driven gets its standings written when it ends, not before."""


def reduction_sql(columns: set[str]) -> str:
    """:data:`REDUCTION_SQL` for a ``seats`` view with ``columns`` (runs written before
    ``equity_net`` and ``baseline_net`` existed read as without them)."""
    return REDUCTION_SQL.format(
        equity="s.equity_net" if "equity_net" in columns else "s.net",
        baseline="s.baseline_net" if "baseline_net" in columns else "NULL",
        aivat="s.aivat_net" if "aivat_net" in columns else "NULL")


def estimators_sql(columns: set[str]) -> str | None:
    """:data:`ESTIMATORS_SQL` for a ``seats`` view with ``columns`` (None: the run's rows
    predate ``aivat_net``, so it has no AIVAT)."""
    if "aivat_net" not in columns:
        return None
    return ESTIMATORS_SQL.format(
        equity="s.equity_net" if "equity_net" in columns else "s.net")


def _estimators(rows: Sequence[Sequence[Any]]) -> dict[str, dict[str, Any]]:
    """Per bot, ``{"raw", "allin", "aivat"}`` each ``{"mbb_per_hand", "ci95": [lo, hi],
    "sd", "blocks", "sd_ratio"}`` (the shape of ``pokerarena match --json``), all three
    over the same blocks: the deals (clustered over matches, as the ranking's) whose
    every hand has an ``aivat_net``, so the ratios compare like with like. ``sd``: of
    the deals' mbb/hand; ``sd_ratio``: over raw's."""
    totals: dict[str, dict[int, list[float]]] = {}
    for _match, deal, bot, hands, raw, allin, aivat, corrected in rows:
        if corrected != hands:
            continue  # a hand the estimator could not correct: the deal is left out
        acc = totals.setdefault(str(bot), {}).setdefault(int(deal), [0.0, 0.0, 0.0, 0.0])
        for k, x in enumerate((raw, allin, aivat, hands)):
            acc[k] += float(x)
    out: dict[str, dict[str, Any]] = {}
    for bot, deals in totals.items():
        cols = np.asarray([deals[d] for d in sorted(deals)])
        sizes = cols[:, 3]
        sds = {name: float((cols[:, k] / sizes).std(ddof=1)) * 1000.0 if len(sizes) > 1
               else None for k, name in enumerate(ESTIMATORS)}
        out[bot] = {}
        for k, name in enumerate(ESTIMATORS):
            est = block_rate(cols[:, k], sizes)
            sd, base = sds[name], sds["raw"]
            out[bot][name] = {
                "mbb_per_hand": round(est.value * 1000.0, 2),
                "ci95": [round(est.lo * 1000.0, 2), round(est.hi * 1000.0, 2)],
                "sd": None if sd is None else round(sd, 4), "blocks": est.blocks,
                "sd_ratio": round(sd / base, 4) if sd is not None and base else None}
    return out


def _reductions(rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
    """Per game and pairing: the standard deviation of the per-hand block results raw,
    with all-in runouts settled by equity, and net of the baseline bot; each reduction
    as the ratio of standard deviations and the share of hands it needs for the same
    interval."""
    out = []
    for variant, betting, pairing, blocks, raw, eq, base, *more in rows:
        av = more[0] if more else None  # rows without sd_aivat: an older caller
        d: dict[str, Any] = {"variant": variant, "betting": betting, "pairing": pairing,
                             "blocks": blocks,
                             "sd_raw": None if raw is None else round(raw, 4)}
        for name, sd in (("equity", eq), ("baseline", base), ("aivat", av)):
            red = Reduction(raw, sd) if sd is not None and raw else None
            d[f"sd_{name}"] = None if sd is None else round(sd, 4)
            d[f"{name}_sd_ratio"] = None if red is None else round(red.sd_ratio, 4)
            d[f"{name}_hands_ratio"] = None if red is None else round(red.hands_ratio, 4)
        out.append(d)
    return out


def from_rows(run_id: str, blocks: Sequence[Sequence[Any]],
              profiles: Sequence[dict[str, Any]],
              reductions: Sequence[Sequence[Any]] = (),
              estimators: Sequence[Sequence[Any]] = ()) -> dict[str, Any]:
    """The standings of ``run_id`` from the rows of :data:`BLOCKS_SQL`,
    :data:`PROFILES_SQL`, :func:`reduction_sql` and :func:`estimators_sql` (a run with
    AIVAT: each bot's entry gains ``"estimators"``)."""
    if not blocks:
        raise NoStandings(f"run {run_id!r} has no finished hands yet")
    parsed = [Block(int(m), int(d), str(b), float(x), int(n), tuple(str(lineup).split(",")))
              for m, d, b, x, n, lineup in blocks]
    out = {"run_id": run_id, **standings(parsed), "profiles": list(profiles),
           "variance_reduction": _reductions(reductions)}
    by_bot = _estimators(estimators)
    for row in out["bots"]:
        if row["bot"] in by_bot:
            row["estimators"] = by_bot[row["bot"]]
    return with_points(out, reductions)  # a game family's run: points per game too


SUMMARY_NAME = "summary.json"
"""The standings of :func:`run_standings` as JSON (``<run>/standings/summary.json``),
with the key of the rows they were computed from (:func:`rows_key`)."""


def rows_key(store: RunStore) -> str:
    """What a run's standings depend on, as a digest: the readable units (their parts,
    or the compacted generation covering them) and the damaged ones. A unit that lands,
    is retired into a generation or is damaged changes it; a compaction does not (the
    same units, the same rows)."""
    import hashlib

    from pokerarena.platform import compacted
    from pokerarena.platform.storage import UNIT_DIR_PREFIX, scan_parts

    scan = scan_parts(store.data_location, store.run_id)
    units = set()
    for p in scan.parts.get("units", []):
        folder = str(p).rsplit("/", 2)[-2]
        if folder.startswith(UNIT_DIR_PREFIX):
            units.add(folder[len(UNIT_DIR_PREFIX):])
    for gen in compacted.generations(store.location):
        if gen.sound:
            units |= gen.units
    doc = {"units": sorted(units), "damaged": scan.damaged_units()}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def stored_standings(store: RunStore) -> dict[str, Any] | None:
    """The run's stored standings when they are those of its rows now (the run is not
    being driven and :func:`rows_key` is unchanged); None otherwise."""
    try:
        if store.remote:
            data = fsys.read_bytes(fsys.join(str(store.location), STANDINGS_DIR,
                                             SUMMARY_NAME))
        else:
            data = (store.run_dir / STANDINGS_DIR / SUMMARY_NAME).read_bytes()
        doc = json.loads(data)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or store.is_driven() or doc.get("key") != rows_key(store):
        return None
    out = doc.get("standings")
    return out if isinstance(out, dict) else None


def store_standings(store: RunStore, out: dict[str, Any], key: str | None = None) -> None:
    """Keep ``out`` as the run's stored standings (a temporary name, then a rename; on
    an object store, put beside the parts)."""
    folder = store.run_dir / STANDINGS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{SUMMARY_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    tmp.write_text(json.dumps({"key": key or rows_key(store), "standings": out}))
    os.replace(tmp, folder / SUMMARY_NAME)
    store.publish(f"{STANDINGS_DIR}/{SUMMARY_NAME}")


def remember_standings(data: str | Path, run_id: str) -> bool:
    """Compute and store a finished run's standings (after its compaction), so that
    each later request reads them instead of every hand; False when the run has none
    (no hands, a freeze-out) or they cannot be stored."""
    try:
        if is_freezeout_run(data, run_id):
            return False
        store = RunStore(data, run_id)
        key = rows_key(store)
        store_standings(store, compute_standings(data, run_id), key)
        return True
    except (UserError, OSError, ValueError):
        return False


def run_standings(data: str | Path, run_id: str) -> dict[str, Any]:
    """The standings of run ``run_id`` under ``data``: the stored ones where they are
    those of its rows now (:func:`stored_standings`), else computed from every hand and,
    when no driver is playing the run, kept for the next reader (a study or simulation
    stores none at its end: its first leaderboard pays for them once)."""
    try:
        store = RunStore(data, run_id)
        stored = stored_standings(store)
    except (UserError, OSError):
        return compute_standings(data, run_id)
    if stored is not None:
        return stored
    key = None if store.is_driven() else rows_key(store)
    out = compute_standings(data, run_id)
    if key is not None and not store.is_driven():
        with contextlib.suppress(OSError):
            store_standings(store, out, key)
    return out


def compute_standings(data: str | Path, run_id: str) -> dict[str, Any]:
    """The standings of run ``run_id`` under ``data`` (DuckDB in this process)."""
    from pokerarena.platform.query import connect, run_query

    con = connect(data, run_id)
    try:
        _, rows = run_query(con, BLOCKS_SQL)
        cols, prof = run_query(con, PROFILES_SQL)
        seat_cols = {r[0] for r in con.execute("DESCRIBE seats").fetchall()}
        _, red = run_query(con, reduction_sql(seat_cols))
        sql = estimators_sql(seat_cols)
        est = run_query(con, sql)[1] if sql is not None else []
    finally:
        con.close()
    return from_rows(run_id, rows, [dict(zip(cols, r, strict=True)) for r in prof], red,
                     est)


# the standings as Parquet ------------------------------------------------------------

_S, _F, _I = pa.string(), pa.float64(), pa.int64()
SCHEMAS: dict[str, pa.Schema] = {name: pa.schema([("run_id", _S), *cols]) for name, cols in {
    "ranking": [("rank", _I), ("bot", _S), ("mbb_per_hand", _F), ("lo", _F), ("hi", _F),
                ("ci95", _F), ("blocks", _I), ("hands", _I), ("method", _S),
                ("total_bankroll_mbb", _F), ("total_bankroll_rank", _I),
                ("instant_runoff_rank", _I)],
    "cross_table": [("bot", _S), ("opponent", _S), ("mbb_per_hand", _F), ("ci95", _F)],
    "ratings": [("bot", _S), ("bt_rating", _F), ("bt_lo", _F), ("bt_hi", _F),
                ("openskill_mu", _F), ("openskill_sigma", _F), ("openskill_lo", _F),
                ("openskill_hi", _F)],
    "rating_history": [("point", _I), ("bot", _S), ("mu", _F)],
    "cumulative": [("bot", _S), ("point", _I), ("hands", _I), ("bb", _F), ("band", _F)],
    "profiles": [(c, _S if c in ("bot", "variant", "betting") else _I if c == "hands" else _F)
                 for c in PROFILE_COLUMNS],
    "variance_reduction": [("variant", _S), ("betting", _S), ("pairing", _S), ("blocks", _I),
                           *((c, _F) for c in ("sd_raw", "sd_equity", "equity_sd_ratio",
                                               "equity_hands_ratio", "sd_baseline",
                                               "baseline_sd_ratio", "baseline_hands_ratio",
                                               "sd_aivat", "aivat_sd_ratio",
                                               "aivat_hands_ratio"))],
    "estimators": [("bot", _S), ("estimator", _S), ("mbb_per_hand", _F), ("lo", _F),
                   ("hi", _F), ("sd", _F), ("blocks", _I), ("sd_ratio", _F)],
}.items()}
"""The columns of each standings table (every one starts with ``run_id``)."""
assert tuple(SCHEMAS) == STANDINGS_TABLES


def _ranking_rows(out: dict[str, Any]) -> list[dict[str, Any]]:
    bankroll = {r["bot"]: (k + 1, r["mbb_per_hand"]) for k, r in enumerate(out["total_bankroll"])}
    runoff = {b: k + 1 for k, b in enumerate(out["instant_runoff"])}
    return [{"rank": k + 1, "bot": r["bot"], "mbb_per_hand": r["value"], "lo": r["lo"],
             "hi": r["hi"], "ci95": r["ci95"], "blocks": r["blocks"], "hands": r["hands"],
             "method": r["method"], "total_bankroll_mbb": bankroll[r["bot"]][1],
             "total_bankroll_rank": bankroll[r["bot"]][0],
             "instant_runoff_rank": runoff[r["bot"]]} for k, r in enumerate(out["bots"])]


def _rating_rows(out: dict[str, Any]) -> list[dict[str, Any]]:
    bt = {r["bot"]: r for r in out.get("bradley_terry", [])}
    rows = []
    for r in out["openskill"]:
        b = bt.get(r["bot"], {})
        rows.append({"bot": r["bot"], "bt_rating": b.get("rating"), "bt_lo": b.get("lo"),
                     "bt_hi": b.get("hi"), "openskill_mu": r["rating"],
                     "openskill_sigma": round((r["hi"] - r["lo"]) / 4, 2),
                     "openskill_lo": r["lo"], "openskill_hi": r["hi"]})
    return rows


def standings_tables(out: dict[str, Any]) -> dict[str, pa.Table]:
    """The standings of :func:`from_rows` as one Arrow table per
    :data:`~pokerarena.platform.query.STANDINGS_TABLES` name: the same numbers as the
    JSON, one row per bot (per pair, per point, per game)."""
    cross = out["cross"]
    bots = cross["bots"]
    rows: dict[str, list[dict[str, Any]]] = {
        "ranking": _ranking_rows(out),
        "cross_table": [{"bot": a, "opponent": c, "mbb_per_hand": x, "ci95": ci}
                        for a, mrow, crow in zip(bots, cross["mbb_per_hand"], cross["ci95"],
                                                 strict=True)
                        for c, x, ci in zip(bots, mrow, crow, strict=True) if x is not None],
        "ratings": _rating_rows(out),
        "rating_history": [{"point": k, "bot": b, "mu": mu}
                           for k, h in enumerate(out["openskill_history"])
                           for b, mu in zip(bots, h, strict=True)],
        "cumulative": [{"bot": b, "point": k, "hands": h, "bb": x, "band": w}
                       for b, c in out["cumulative"].items()
                       for k, (h, x, w) in enumerate(zip(c["hands"], c["bb"], c["band"],
                                                         strict=True))],
        "profiles": list(out["profiles"]),
        "variance_reduction": list(out["variance_reduction"]),
        # each bot's rate by raw, all-in and AIVAT (runs with ``aivat = true``), side by side
        "estimators": [{"bot": b["bot"], "estimator": name, "mbb_per_hand": e["mbb_per_hand"],
                        "lo": e["ci95"][0], "hi": e["ci95"][1], "sd": e["sd"],
                        "blocks": e["blocks"], "sd_ratio": e.get("sd_ratio")}
                       for b in out["bots"] for name, e in (b.get("estimators") or {}).items()],
    }
    run_id = out["run_id"]
    return {name: pa.Table.from_pylist([{"run_id": run_id, **r} for r in rows[name]],
                                       schema=schema) for name, schema in SCHEMAS.items()}


def write_tables(folder: Path, tables: dict[str, pa.Table], meta: dict[str, Any]) -> None:
    """Write each table to ``folder/<name>.parquet``: all to temporary names first, then
    each renamed over its final name (a reader sees the old file or the new, never half
    of one). ``meta`` goes into each file's key-value metadata."""
    folder.mkdir(exist_ok=True)
    tag = f"{os.getpid()}.{secrets.token_hex(4)}"
    staged: list[tuple[Path, Path]] = []
    try:
        for name, table in tables.items():
            tmp = folder / f".{name}.parquet.{tag}.tmp"
            staged.append((tmp, folder / f"{name}.parquet"))
            table = table.replace_schema_metadata(
                {"pokerarena.standings": json.dumps(meta, sort_keys=True)})
            pq.write_table(table, tmp, compression="zstd")
        for tmp, final in staged:
            os.replace(tmp, final)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)


def writable(data: str | Path, run_id: str) -> tuple[RunStore, Any]:
    """The run's store and state, when its standings may be written now: it exists and
    no driver is playing it (else :class:`RunStillRunning`)."""
    store = RunStore(data, run_id)
    if not store.exists():
        raise UserError(f"no run {run_id!r} under {data}")
    if is_freezeout_run(data, run_id):
        raise NoStandings(f"run {run_id!r} is a freeze-out: its standings are its places "
                          "(the places view, `pokerarena leaderboard`), not mbb/hand tables")
    info = store.info()
    if info.status == "running":  # a driver holds the run (info() probes its lock)
        raise RunStillRunning(f"run {run_id!r} is still running; its standings are written "
                              "when it ends (read them live with `pokerarena leaderboard`)")
    return store, info


def write_standings(data: str | Path, run_id: str,
                    out: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write run ``run_id``'s standings (``out``, else :func:`run_standings`) under
    ``<run>/standings/``; returns where, and the rows of each table. Refuses a run that
    is still being driven (:class:`RunStillRunning`) or has no finished hands
    (:class:`NoStandings`). Idempotent: the same rows give the same files."""
    store, info = writable(data, run_id)
    result = out if out is not None else run_standings(data, run_id)
    tables = standings_tables(result)
    folder = store.run_dir / STANDINGS_DIR
    store.run_dir.mkdir(parents=True, exist_ok=True)  # an object store's: a local folder
    write_tables(folder, tables, {"run_id": run_id, "status": info.status,
                                  "units_done": info.units_done, "hands": info.hands_done})
    with contextlib.suppress(OSError, ValueError):  # what later requests read
        store_standings(store, result)
    store.publish(STANDINGS_DIR)  # beside the parts, on an object store
    return {"run_id": run_id, "status": info.status, "path": f"runs/{run_id}/{STANDINGS_DIR}",
            "tables": {name: t.num_rows for name, t in tables.items()}}


def write_after_run(data: str | Path, run_id: str, kind: str, status: str
                    ) -> dict[str, Any] | None:
    """What a driven run does when it ends: a ``tournament`` that ``finished`` gets its
    standings written (None otherwise, and for a run without hands)."""
    if not traits(kind).ranked or status != "finished" or is_freezeout_run(data, run_id):
        return None  # a freeze-out's standings are its places (freezeout_standings)
    try:
        return write_standings(data, run_id)
    except NoStandings:
        return None
