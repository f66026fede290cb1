"""DuckDB over the Parquet parts, behind named views.

:func:`connect` opens an in-memory DuckDB with the views ``hands``, ``seats``,
``actions``, ``units`` (every run, or one), a ``runs`` table (state of each run) and
a ``leaderboard`` view (per run and bot, with each bot's decisions per second from the
units' ``bot_decisions`` and ``bot_think_seconds``). The data views show only *complete* units
(those whose ``units`` row exists; it is written last), so a query never mixes in
half of a unit that is still being played, retried or was cancelled.
"""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from pokerarena.platform.storage import TABLES, RunStore, list_runs
from pokerarena.workers.parts import PART_NAME
from pokerarena.workers.records import SCHEMAS


class QueryError(ValueError):
    """SQL that DuckDB rejected; the message is DuckDB's."""


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _glob(data_dir: Path, table: str, run_id: str | None) -> str:
    run = run_id if run_id else "*"
    return str(data_dir / "runs" / run / table / "unit=*" / PART_NAME)


LEADERBOARD_SQL = """
CREATE VIEW leaderboard AS
WITH per_deal AS (
    SELECT s.run_id, s.bot, s.match, coalesce(h.deal, h.hand) AS deal, count(*) AS n,
           sum(s.net / h.bb) AS bbs,
           sum(s.net) AS net, sum(CASE WHEN s.net > 0 THEN 1 ELSE 0 END) AS won,
           sum(CASE WHEN s.showdown THEN 1 ELSE 0 END) AS shown, sum(s.faults) AS faults
    FROM seats s JOIN hands h USING (run_id, match, hand)
    GROUP BY s.run_id, s.bot, s.match, coalesce(h.deal, h.hand)),
results AS (
SELECT run_id, bot,
       sum(n) AS hands,
       sum(net) AS net,
       round(1000.0 * sum(bbs) / sum(n), 1) AS mbb_per_hand,
       round(1000.0 * 1.96 * coalesce(stddev_samp(bbs / n), 0) / sqrt(count(*)), 1)
           AS ci95_mbb,
       round(sum(won) / sum(n), 4) AS won_rate,
       round(sum(shown) / sum(n), 4) AS showdown_rate,
       sum(faults) AS faults
FROM per_deal
GROUP BY run_id, bot)
SELECT r.*, t.decisions, round(t.think_seconds, 4) AS think_seconds,
       round(t.decisions / nullif(t.think_seconds, 0)) AS decisions_per_s
FROM results r LEFT JOIN bot_time t USING (run_id, bot)
"""

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


def connect(data_dir: str | Path, run_id: str | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the views over ``data_dir`` (one run or all)."""
    data_dir = Path(data_dir)
    if run_id is not None and not RunStore(data_dir, run_id).exists():
        raise QueryError(f"no run {run_id!r} under {data_dir}")
    con = duckdb.connect(":memory:")
    for table in TABLES:
        pattern = _glob(data_dir, table, run_id)
        raw = f"_raw_{table}"
        if glob.glob(pattern):
            con.execute(
                f"CREATE VIEW {raw} AS SELECT * FROM read_parquet({_sql_str(pattern)}, "
                "hive_partitioning = true, union_by_name = true, "
                "hive_types = {'unit': VARCHAR})")
        else:
            empty = SCHEMAS[table].empty_table().append_column("unit", pa.array([], pa.string()))
            con.register(f"_empty_{table}", empty)
            con.execute(f"CREATE VIEW {raw} AS SELECT * FROM _empty_{table}")
    con.execute("CREATE VIEW units AS SELECT * FROM _raw_units")
    for table in ("hands", "seats", "actions", "faults"):
        con.execute(f"CREATE VIEW {table} AS SELECT t.* FROM _raw_{table} t "
                    "SEMI JOIN _raw_units u ON t.run_id = u.run_id AND t.unit = u.unit")
    columns = {r[0] for r in con.execute("DESCRIBE _raw_units").fetchall()}
    con.execute(BOT_TIME_SQL if "bot_decisions" in columns else NO_BOT_TIME_SQL)
    con.execute(LEADERBOARD_SQL)
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


def bots_think_share(con: duckdb.DuckDBPyConnection, run_id: str | None = None) -> float | None:
    """The bots' thinking over the workers' play time (the rest is the engine's and the
    records'), over one run or every run the connection sees; None without figures."""
    where = f" WHERE run_id = {_sql_str(run_id)}" if run_id else ""
    think, play = con.execute(
        f"SELECT (SELECT sum(think_seconds) FROM bot_time{where}), "
        f"(SELECT sum(play_seconds) FROM units{where})").fetchone()
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
