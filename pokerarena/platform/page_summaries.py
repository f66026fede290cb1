"""The dashboard's answers kept beside the run, so its pages read summaries, not every
hand (issue 31, "Live, and light"; issue 23).

Each answer a page asks for a run (its leaderboard and cross table, charts, games, the
hands finder's first pages; a family run's sheet index, kept by
:func:`~pokerarena.platform.score_sheets.sheet_index`) is the JSON the route
computed from every hand once, stored as ``<run>/page_summaries/<name>.json`` with the
*key* of the rows it was computed from
(:func:`~pokerarena.platform.standings.rows_key`: the run's landed units, sound
generations included, and its damaged ones). A request whose key is the stored one reads
the file; any other (a unit landed later, a resumed run, damage found) computes the
answer again and replaces it. So a summary never answers for rows it did not see.

They are written when a run ends (:func:`write_all`, from the driver's end of a run
beside the stored standings), or on the first request. ``POKERARENA_PAGE_SUMMARIES=off``
turns them off (the routes then read every hand, as ``bench dashboard``'s peer does).

The values are what the query pool returns (:func:`~pokerarena.platform.query_pool.records`
of the same statements, each cell through the same
:func:`~pokerarena.platform.query_pool.json_cell`), so a stored answer is the JSON the
route would compute.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from pokerarena.platform.storage import RunStore
from pokerarena.workers import fsys

SUMMARY_DIR = "page_summaries"
SWITCH = "POKERARENA_PAGE_SUMMARIES"
VERSION = 1
"""Bumped when a stored answer's shape changes: older files then read as absent."""

HANDS_KEPT = 200
"""Rows of each order's unfiltered hands query kept (the finder's ``MAX_LIMIT``): a
page at ``offset + limit <= HANDS_KEPT`` is read from them."""


def enabled() -> bool:
    """False when ``$POKERARENA_PAGE_SUMMARIES`` is ``off`` (or 0, false, no)."""
    return os.environ.get(SWITCH, "").strip().lower() not in ("off", "0", "false", "no")


def rows_key(store: RunStore) -> str | None:
    """The key of the run's rows now; None when summaries are off."""
    if not enabled():
        return None
    from pokerarena.platform.standings import rows_key as key

    return key(store)


def _name(name: str) -> str:
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"bad summary name {name!r}")
    return f"{name}.json"


def read(store: RunStore, name: str, key: str | None) -> Any | None:
    """The stored answer ``name`` when it was computed from the rows of ``key``; None
    otherwise (absent, another key, unreadable, or summaries off)."""
    if key is None:
        return None
    try:
        if store.remote:
            data = fsys.read_bytes(fsys.join(str(store.location), SUMMARY_DIR, _name(name)))
        else:
            data = (store.run_dir / SUMMARY_DIR / _name(name)).read_bytes()
        doc = json.loads(data)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("version") != VERSION or doc.get("key") != key:
        return None
    return doc.get("value")


def write(store: RunStore, name: str, key: str | None, value: Any) -> None:
    """Keep ``value`` as the answer ``name`` of the rows of ``key`` (a temporary name,
    then a rename; published beside the parts on an object store). Best effort: a run
    folder that cannot be written, or an answer that is not plain JSON, keeps being
    computed."""
    if key is None:
        return
    try:
        folder = store.run_dir / SUMMARY_DIR
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{_name(name)}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        tmp.write_text(json.dumps({"version": VERSION, "key": key, "value": value}))
        os.replace(tmp, folder / _name(name))
        store.publish(f"{SUMMARY_DIR}/{_name(name)}")
    except (OSError, TypeError, ValueError):  # not JSON: answered, never kept
        return


def hands_name(order: str, bot: str | None, showdown: bool | None) -> str:
    """The summary of one order of the hands finder (a bot's: its name's hash)."""
    import hashlib

    who = "all" if bot is None else hashlib.sha256(bot.encode()).hexdigest()[:16]
    sd = {None: "any", True: "sd", False: "nosd"}[showdown]
    return f"hands-{order}-{who}-{sd}"


def _records(con: Any, sql: str) -> list[dict[str, Any]]:
    """``sql``'s rows as the query pool returns them (each cell JSON-encoded the same)."""
    from pokerarena.platform.query_pool import json_cell

    cur = con.execute(sql)
    cols = [d[0] for d in cur.description or []]
    text = json.dumps([[json_cell(v) for v in row] for row in cur.fetchall()],
                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return [dict(zip(cols, row, strict=True)) for row in json.loads(text)]


def statements(columns: set[str]) -> dict[str, dict[str, str]]:
    """Per summary, the statements the route runs (their names are the route's)."""
    from pokerarena.platform.games_view import GAMES_SQL
    from pokerarena.platform.hands_finder import ORDERS, hands_sql
    from pokerarena.platform.query import (
        CATEGORIES_SQL,
        CROSS_TABLE_SQL,
        POSITIONS_SQL,
        leaderboard_sql,
    )
    from pokerarena.platform.sql import one_line

    out = {"leaderboard": {"leaderboard": leaderboard_sql(), "cross_table": CROSS_TABLE_SQL},
           "charts": {"positions": POSITIONS_SQL, "categories": CATEGORIES_SQL},
           "games": {"games": one_line(GAMES_SQL)}}
    for order in ORDERS:
        if order == "aivat" and "aivat_net" not in columns:
            continue
        out[hands_name(order, None, None)] = {
            "hands": hands_sql(order, None, None, None, None, HANDS_KEPT, 0)}
    return out


def write_all(data: str | Path, run_id: str) -> list[str]:
    """Compute and store every page summary of a finished run (one connection over its
    views, in this process); returns the names written. Best effort: a failure leaves
    the pages computing on their first request."""
    import duckdb

    from pokerarena.platform.query import connect

    store = RunStore(data, run_id)
    key = rows_key(store)
    if key is None:
        return []
    written = []
    con = connect(data, run_id)
    try:
        columns = {r[0] for r in con.execute("DESCRIBE seats").fetchall()}
        for name, stmts in statements(columns).items():
            try:
                value = {k: _records(con, sql) for k, sql in stmts.items()}
            except (duckdb.Error, ValueError):
                continue
            write(store, name, key, value)
            written.append(name)
    finally:
        con.close()
    return written
