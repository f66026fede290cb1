"""DuckDB over the Parquet parts, behind named views.

:func:`connect` opens an in-memory DuckDB with the views ``hands``, ``seats``,
``actions``, ``units`` (every run, or one), a ``runs`` table (state of each run) and
a ``leaderboard`` view (per run and bot, with each bot's decisions per second from the
units' ``bot_decisions`` and ``bot_think_seconds``), and the written standings of the
runs that have them (:data:`STANDINGS_TABLES`). The data views show only *complete* units
(those whose ``units`` row exists; it is written last), so a query never mixes in
half of a unit that is still being played, retried or was cancelled.

The views name their part files explicitly, grouped by schema (each group read without
``union_by_name``, the groups combined ``UNION ALL BY NAME``), so building them reads no
part file but the first of each group. Which files there are, and each file's schema, is
a :class:`ViewDefs` from :meth:`ViewCache.definitions`: it lists the folders each time (a
unit that lands, or a part that goes, shows at once) but reads a part's schema only once
per ``(path, mtime, size)``. The service keeps one cache and hands the definitions to
its query processes (:mod:`pokerarena.platform.query_pool`).

On an object store (``s3://``) the views read the same part files through
``pyarrow.fs``: each group of parts is a :func:`pyarrow.dataset.dataset` (the ``unit``
column from the hive folder name, as DuckDB's ``hive_partitioning`` gives it) registered
on the connection, which DuckDB scans lazily with its projections and filters pushed
down. DuckDB's own ``httpfs`` extension is not used: it is downloaded on first use,
which an offline machine cannot do, while ``pyarrow.fs`` ships in the wheel already used
to write the parts and reads the same AWS variables.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from pokerarena.errors import UserError
from pokerarena.platform.compacted import COMPACTED_DIR
from pokerarena.platform.sql import one_line, sql_str
from pokerarena.platform.storage import (
    TABLES,
    RunStore,
    data_location,
    is_uri,
    list_runs,
    runs_root,
    scan_parts,
)
from pokerarena.tournaments.estimates import t95_sql
from pokerarena.tournaments.profiles import PROFILES_VIEW_SQL
from pokerarena.workers import fsys
from pokerarena.workers.parts import check_part
from pokerarena.workers.rows import TABLES as ROW_TABLES

STANDINGS_DIR = "standings"
STANDINGS_TABLES = ("ranking", "cross_table", "ratings", "rating_history", "cumulative",
                    "profiles", "variance_reduction", "estimators")
"""The standings tables a run may hold (``<run>/standings/<name>.parquet``, written by
:mod:`pokerarena.platform.standings`), each behind a view of its name once written."""


class QueryError(ValueError, UserError):
    """SQL that DuckDB rejected; the message is DuckDB's."""




@dataclass(frozen=True)
class ViewDefs:
    """What the views read: per table, groups of part files that share one schema
    (plain data: it is pickled to the query processes), from the readable parts of
    :func:`~pokerarena.platform.storage.scan_parts` (complete units whose every part
    passes the footer check); ``damaged`` are the units left out, as that scan reports
    them."""

    tables: dict[str, list[list[str]]]
    damaged: list[dict[str, Any]] = field(default_factory=list)
    standings: dict[str, list[str]] = field(default_factory=dict)


def standings_files(data_dir: str | Path, run_id: str | None = None) -> dict[str, list[str]]:
    """The sound standings files of each table (one run or all); links never followed."""
    out: dict[str, list[str]] = {t: [] for t in STANDINGS_TABLES}
    if is_uri(data_dir):
        base = fsys.join(str(data_dir), "runs")
        ids = [run_id] if run_id is not None else [
            n for n in fsys.child_names(base) if not n.startswith(".")]
        for rid in ids:
            for t in STANDINGS_TABLES:
                key = fsys.join(base, rid, STANDINGS_DIR, f"{t}.parquet")
                if check_part(key) is None:
                    out[t].append(key)
        return out
    root = runs_root(data_dir)
    runs = [root / run_id] if run_id is not None else sorted(root.glob("[!.]*"))
    for run in runs:
        folder = run / STANDINGS_DIR
        if run.is_symlink() or folder.is_symlink() or not folder.is_dir():
            continue
        for t in STANDINGS_TABLES:
            path = folder / f"{t}.parquet"
            if check_part(path) is None:
                out[t].append(str(path))
    return out


class ViewCache:
    """Each part file's schema, read once per ``(path, mtime_ns, size)``; thread-safe.

    ``part_reads`` counts the schemas read (tests and metrics)."""

    def __init__(self) -> None:
        self._schemas: dict[str, tuple[tuple[int, int], str]] = {}
        self._lock = threading.Lock()
        self.part_reads = 0

    def _signature(self, path: str, stamp: tuple[int, int] | None = None) -> str | None:
        """The part's schema as text; None when it went away or cannot be read.
        ``stamp``: its ``(mtime_ns, size)`` when a listing gave them (an object store's)."""
        try:
            if stamp is not None:
                key = stamp
            elif is_uri(path):
                found = fsys.info(path)
                key = (int(found.mtime_ns or 0), int(found.size or 0))
            else:
                st = os.stat(path)
                key = (st.st_mtime_ns, st.st_size)
        except OSError:
            return None
        with self._lock:
            hit = self._schemas.get(path)
        if hit is not None and hit[0] == key:
            return hit[1]
        import pyarrow.parquet as pq

        with self._lock:
            self.part_reads += 1
        try:
            if is_uri(path):
                fs, key_path = fsys.resolve(path)
                with fs.open_input_file(key_path) as f:
                    sig = pq.read_schema(f).remove_metadata().to_string()
            else:
                sig = pq.read_schema(path).remove_metadata().to_string()
        except (OSError, ValueError, pa.ArrowException):
            return None
        with self._lock:
            self._schemas[path] = (key, sig)
        return sig

    def definitions(self, data_dir: str | Path, run_id: str | None = None) -> ViewDefs:
        """The readable part files of ``data_dir`` (one run or all), grouped by schema.
        Lists the folders every time (so a unit that lands or goes shows at once); reads
        only parts it has not seen with this mtime and size."""
        scan = scan_parts(data_dir, run_id)
        tables: dict[str, list[list[str]]] = {}
        seen: set[str] = set()
        for table in TABLES:
            groups: dict[str, list[str]] = {}
            for path in sorted(str(p) for p in scan.parts.get(table, [])):
                seen.add(path)
                sig = self._signature(path, scan.stamps.get(path))
                if sig is not None:
                    groups.setdefault(sig, []).append(path)
            tables[table] = list(groups.values())
        if run_id is None:  # a listing of every run: forget the files that went away
            with self._lock:
                for path in [p for p in self._schemas if p not in seen]:
                    del self._schemas[path]
        return ViewDefs(tables, [d.as_dict() for d in scan.damaged],
                        standings_files(data_dir, run_id))


VIEW_CACHE = ViewCache()
"""The process's cache (the CLI's, and the service's unless it is given another)."""

_GIVEN: contextvars.ContextVar[ViewDefs | None] = contextvars.ContextVar("views",
                                                                        default=None)


@contextmanager
def given_views(views: ViewDefs) -> Iterator[None]:
    """Within the block, :func:`connect` builds its views from ``views`` (a query process
    gets them from the service instead of listing and reading the parts itself)."""
    token = _GIVEN.set(views)
    try:
        yield
    finally:
        _GIVEN.reset(token)


def _files_sql(files: list[str]) -> str:
    return "[" + ", ".join(sql_str(f) for f in files) + "]"


LEADERBOARD_VIEW_SQL = f"""
CREATE VIEW leaderboard AS
WITH per_deal AS (
    SELECT s.run_id, s.bot, coalesce(h.deal, h.hand) AS deal, count(*) AS n,
           sum(s.net / h.bb) AS bbs,
           sum(s.net) AS net, sum(CASE WHEN s.net > 0 THEN 1 ELSE 0 END) AS won,
           sum(CASE WHEN s.showdown THEN 1 ELSE 0 END) AS shown, sum(s.faults) AS faults
    FROM seats s JOIN hands h USING (run_id, match, hand)
    GROUP BY s.run_id, s.bot, coalesce(h.deal, h.hand)),
rated AS (
    SELECT *, sum(bbs) OVER w / sum(n) OVER w AS rate, count(*) OVER w AS k,
           avg(n) OVER w AS mean_n
    FROM per_deal WINDOW w AS (PARTITION BY run_id, bot)),
results AS (
SELECT run_id, bot,
       sum(n) AS hands,
       sum(net) AS net,
       round(1000.0 * sum(bbs) / sum(n), 1) AS mbb_per_hand,
       round(CASE WHEN any_value(k) < 2 THEN NULL ELSE
             1000.0 * {t95_sql("any_value(k) - 1")}
             * sqrt(sum((bbs - rate * n) ^ 2) / (any_value(k) * (any_value(k) - 1)))
             / any_value(mean_n) END, 1) AS ci95_mbb,
       round(sum(won) / sum(n), 4) AS won_rate,
       round(sum(shown) / sum(n), 4) AS showdown_rate,
       sum(faults) AS faults
FROM rated
GROUP BY run_id, bot)
SELECT r.*, t.decisions, round(t.think_seconds, 4) AS think_seconds,
       round(t.decisions / nullif(t.think_seconds, 0)) AS decisions_per_s
FROM results r LEFT JOIN bot_time t USING (run_id, bot)
"""
"""Per run and bot; the interval is :func:`~pokerarena.tournaments.estimates.block_rate`'s
with a deal as the block across matches (common deals give every match of a game the
same cards, so a bot's results on one deal are correlated across its matches:
:mod:`pokerarena.tournaments.standings`)."""

LEADERBOARD_COLUMNS = ("bot", "hands", "net", "mbb_per_hand", "ci95_mbb", "won_rate",
                       "showdown_rate", "faults", "decisions", "decisions_per_s")
"""The columns of :func:`leaderboard_sql`, in order."""


PAIRWISE_MBB = """round(1000.0 * avg(CASE WHEN h.players = 2 THEN a.net
                                         ELSE (a.net - b.net) / 2.0 END / h.bb), 1)"""
"""A cross table cell over seats ``a`` and ``b`` of the same hands ``h``: heads-up what
``a`` won, at tables of three or more half the difference of the two results (the
pairwise part; ``a``'s own result would repeat in every column). The standings' cross
table (``tournaments.standings``) computes the same from blocks, with intervals."""


# The dashboard's results: a cross table cell per pair of bots, win rate by position,
# showdowns by hand category (the routes and the page summaries run these).
CROSS_TABLE_SQL = one_line("""
SELECT a.bot AS bot, b.bot AS opponent, count(*) AS hands,
       """ + PAIRWISE_MBB + """ AS mbb_per_hand
FROM seats a
JOIN seats b ON a.run_id = b.run_id AND a.match = b.match AND a.hand = b.hand
     AND a.seat <> b.seat
JOIN hands h ON h.run_id = a.run_id AND h.match = a.match AND h.hand = a.hand
WHERE a.bot <> b.bot
GROUP BY 1, 2 ORDER BY 1, 2
""")

POSITIONS_SQL = one_line("""
SELECT s.position, count(*) AS hands,
       round(avg(CASE WHEN s.net > 0 THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(1000.0 * avg(s.net / h.bb), 1) AS mbb_per_hand
FROM seats s JOIN hands h USING (run_id, match, hand)
GROUP BY 1 ORDER BY 1
""")

CATEGORIES_SQL = one_line("""
SELECT coalesce(high_category, low_category, 'unranked') AS category, count(*) AS hands,
       round(avg(CASE WHEN pot_won > 0 THEN 1.0 ELSE 0.0 END), 4) AS won_rate
FROM seats WHERE showdown
GROUP BY 1 ORDER BY hands DESC, category
""")


def leaderboard_sql(run_id: str | None = None) -> str:
    """The one leaderboard query (the API, ``pokerarena show`` and the demo all use it):
    :data:`LEADERBOARD_COLUMNS` of the ``leaderboard`` view, best first; ``run_id``
    restricts it to one run (a connection over every run)."""
    where = f" WHERE run_id = {sql_str(run_id)}" if run_id is not None else ""
    return (f"SELECT {', '.join(LEADERBOARD_COLUMNS)} FROM leaderboard{where} "
            "ORDER BY mbb_per_hand DESC, bot")


# Each bot's decisions and thinking time, from the units' per-entrant lists (units
# written before these columns existed have none: NULL).
BOT_TIME_SQL = """
CREATE VIEW bot_time AS
SELECT run_id, bot, sum(d) AS decisions, sum(t) AS think_seconds
FROM (SELECT run_id, unnest(string_split(bots, ',')) AS bot,
             unnest(bot_decisions) AS d, unnest(bot_think_seconds) AS t
      FROM units WHERE bot_decisions IS NOT NULL)
GROUP BY run_id, bot
"""
NO_BOT_TIME_SQL = """
CREATE VIEW bot_time AS
SELECT NULL::VARCHAR AS run_id, NULL::VARCHAR AS bot, NULL::BIGINT AS decisions,
       NULL::DOUBLE AS think_seconds WHERE false
"""


def connect(data_dir: str | Path, run_id: str | None = None, *,
            views: ViewDefs | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the views over ``data_dir`` (one run or all),
    built from ``views`` (default: those of :func:`given_views`, else
    :data:`VIEW_CACHE`'s). ``data_dir`` may be an object-store URI."""
    data_dir = data_location(data_dir) if isinstance(data_dir, str) else data_dir
    if run_id is not None and not RunStore(data_dir, run_id).exists():
        raise QueryError(f"no run {run_id!r} under {data_dir}")
    views = views or _GIVEN.get() or VIEW_CACHE.definitions(data_dir, run_id)
    con = duckdb.connect(":memory:")
    for table in TABLES:
        raw = f"_raw_{table}"
        groups = views.tables.get(table) or []
        if groups:
            con.execute(f"CREATE VIEW {raw} AS " + " UNION ALL BY NAME ".join(
                _group_sql(con, f"{raw}_{i}", files) for i, files in enumerate(groups)))
        else:
            con.execute(f"CREATE VIEW {raw} AS {ROW_TABLES[table].empty_sql()}")
    con.execute("CREATE VIEW units AS SELECT * FROM _raw_units")
    for table in [t for t in TABLES if t != "units"]:  # places, the families' records, ...
        con.execute(f"CREATE VIEW {table} AS SELECT t.* FROM _raw_{table} t "
                    "SEMI JOIN _raw_units u ON t.run_id = u.run_id AND t.unit = u.unit")
    columns = {r[0] for r in con.execute("DESCRIBE _raw_units").fetchall()}
    con.execute(BOT_TIME_SQL if "bot_decisions" in columns else NO_BOT_TIME_SQL)
    con.execute(LEADERBOARD_VIEW_SQL)
    con.execute(PROFILES_VIEW_SQL)
    for name, files in views.standings.items():
        if files and is_uri(files[0]):
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM "
                        f"{_register_objects(con, f'_std_{name}', files, hive=False)}")
        elif files:
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet("
                        f"{_files_sql(files)}, union_by_name = true)")
    con.execute("CREATE TABLE runs (run_id VARCHAR, kind VARCHAR, name VARCHAR, "
                "status VARCHAR, units_total INTEGER, units_done INTEGER, "
                "hands_total BIGINT, hands_done BIGINT, retries INTEGER, "
                "created TIMESTAMPTZ, started TIMESTAMPTZ, ended TIMESTAMPTZ)")
    infos = [i for i in list_runs(data_dir) if run_id is None or i.run_id == run_id]
    if infos:
        con.executemany(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, to_timestamp(?), "
            "to_timestamp(?), to_timestamp(?))",
            [[i.run_id, i.kind, i.name, i.status, i.units_total, i.units_done,
              i.hands_total, i.hands_done, i.retries, i.created, i.started, i.ended]
             for i in infos])
    return con


def _register_objects(con: duckdb.DuckDBPyConnection, name: str, files: list[str],
                      hive: bool = True) -> str:
    """Register the object-store parts ``files`` on ``con`` as the Arrow dataset
    ``name`` (with the hive ``unit`` column when ``hive``); returns the name."""
    import pyarrow.dataset as ds

    fs, first = fsys.resolve(files[0])
    paths = [fsys.resolve(f)[1] for f in files]
    if hive:
        # the folders above the parts are runs/<run>/<table>/unit=<id>: only unit= parses
        base = first.rsplit("/", 4)[0]
        dataset = ds.dataset(paths, filesystem=fs, format="parquet",
                             partitioning=ds.HivePartitioning(pa.schema([("unit", pa.string())])),
                             partition_base_dir=base)
    else:
        dataset = ds.dataset(paths, filesystem=fs, format="parquet")
    con.register(name, dataset)
    return name


def _group_sql(con: duckdb.DuckDBPyConnection, name: str, files: list[str]) -> str:
    """The SELECT of one group of parts sharing a schema (local files or objects).
    Compacted files (:mod:`~pokerarena.platform.compacted`) hold ``unit`` as a column:
    no Hive partitioning for them."""
    packed = f"/{COMPACTED_DIR}/" in files[0]
    if is_uri(files[0]):
        return f"SELECT * FROM {_register_objects(con, name, files, hive=not packed)}"
    if packed:
        return f"SELECT * FROM read_parquet({_files_sql(files)})"
    return (f"SELECT * FROM read_parquet({_files_sql(files)}, "
            "hive_partitioning = true, hive_types = {'unit': VARCHAR})")


def bots_think_share(con: duckdb.DuckDBPyConnection, run_id: str | None = None) -> float | None:
    """The bots' thinking over the workers' play time (the rest is the engine's and the
    records'), over one run or every run the connection sees; None without figures."""
    where = f" WHERE run_id = {sql_str(run_id)}" if run_id else ""
    row = con.execute(
        f"SELECT (SELECT sum(think_seconds) FROM bot_time{where}), "
        f"(SELECT sum(play_seconds) FROM units{where})").fetchone()
    think, play = row if row is not None else (None, None)
    return round(think / play, 4) if think and play else None


def run_query(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[list[str], list[tuple]]:
    """Execute ``sql``; returns ``(column names, rows)``; DuckDB errors become
    :class:`QueryError` carrying DuckDB's message."""
    try:
        cur = con.execute(sql)
        if cur.description is None:
            return [], []
        columns = [d[0] for d in cur.description]
        return columns, cur.fetchall()
    except duckdb.Error as exc:
        raise QueryError(str(exc)) from None


def query(data_dir: str | Path, sql: str, run_id: str | None = None
          ) -> tuple[list[str], list[tuple]]:
    """Open the views over ``data_dir`` and run ``sql`` (see :func:`run_query`)."""
    con = connect(data_dir, run_id)
    try:
        return run_query(con, sql)
    finally:
        con.close()


def as_records(columns: list[str], rows: list[tuple]) -> list[dict[str, Any]]:
    """Rows as dicts."""
    return [dict(zip(columns, r, strict=True)) for r in rows]
