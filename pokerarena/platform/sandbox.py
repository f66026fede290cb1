"""The read-only, sandboxed SQL of the query endpoint and the query pool: one SELECT over
the views, no file outside the runs, no link followed out of them, limits on time, rows,
memory and threads. It sits below the API because the query pool (a platform part, also
used without the service) runs every query through it."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerarena.platform.sql import sql_str


class PolicyError(ValueError):
    """A request the service refuses (the message says why)."""


# limits ----------------------------------------------------------------------


@dataclass(frozen=True)
class QueryLimits:
    """Limits of one query: wall time, rows returned, memory, threads, SQL length."""

    seconds: float = 10.0
    rows: int = 10_000
    memory: str = "512MB"
    threads: int = 1
    sql_chars: int = 20_000


class QueryTimeout(PolicyError):
    """The query ran past its time limit and was interrupted."""




# paths: links and ".." ----------------------------------------------------------------
# DuckDB's allow-list compares the *text* of a path (after folding "a/.." away), while the
# kernel follows links: "<runs>/<id>/lnk/../x" passes the text check and reads beside
# wherever lnk points. So the sandbox lets DuckDB read exactly the link-free part files
# its views name (allowed_paths), never a whole folder that a link could leave; and the
# SQL a client sends may not name a path through "..", nor one that goes through a link.

_GLOB_CHARS = ("*", "?", "[")


def path_problem(text: str) -> str | None:
    """Why the path ``text`` may not be read, or None: it has a ``..`` component, or it
    is absolute and goes through a symbolic link (its real path differs from its text)."""
    parts = text.replace("\\", "/").split("/")
    if ".." in parts:
        return "it has a '..' component"
    if text.startswith(("/", "~")):
        expanded = os.path.expanduser(text)
        if os.path.realpath(expanded) != os.path.normpath(expanded):
            return "it goes through a symbolic link"
    return None


def _string_literals(con: Any, sql: str) -> list[str]:
    """The string constants of ``sql`` (DuckDB's tokenizer), unquoted."""
    import duckdb

    try:
        tokens = duckdb.tokenize(sql)
    except Exception:  # noqa: BLE001 - the statement check reports bad SQL
        return []
    out = []
    for i, (start, kind) in enumerate(tokens):
        if kind != duckdb.token_type.string_const:
            continue
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(sql)
        raw = sql[start:end].rstrip()
        if raw.startswith("'") and raw.endswith("'") and len(raw) >= 2:
            out.append(raw[1:-1].replace("''", "'"))
    return out


def check_sql_paths(sql: str) -> None:
    """Refuse SQL whose string constants name a path through ``..`` or a link
    (:func:`path_problem`); raises :class:`PolicyError`."""
    for text in _string_literals(None, sql):
        if "/" not in text and "\\" not in text:
            continue
        why = path_problem(text)
        if why is not None:
            raise PolicyError(f"the path {text!r} is refused: {why}")


def links_leaving(root: str | Path) -> list[Path]:
    """Symbolic links below ``root`` (never followed) whose target is not inside it."""
    root = Path(root).resolve()
    out = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p.is_symlink():
                target = Path(os.path.realpath(p))
                if target != root and root not in target.parents:
                    out.append(p)
    return sorted(out)


def view_files(con: Any) -> list[str]:
    """The file names (or patterns) the connection's views read."""
    out = []
    for (sql,) in con.execute("SELECT sql FROM duckdb_views() WHERE NOT internal"
                              ).fetchall():
        out += [t for t in _string_literals(con, sql or "") if t.endswith(".parquet")]
    return sorted(set(out))


def read_allow_list(con: Any, data_dir: str | Path) -> list[str]:
    """The ``SET`` statements that let ``con`` read what its views read, and nothing
    else: ``allowed_paths`` = the link-free part files below ``<data>/runs`` its views
    name. Views built over glob patterns need the folder (``allowed_directories``):
    then a link below ``runs/`` that leaves it makes the sandbox refuse (PolicyError)."""
    runs = (Path(data_dir).resolve() / "runs").resolve()
    names = view_files(con)
    if any(c in n for n in names for c in _GLOB_CHARS):
        leaving = links_leaving(runs) if runs.is_dir() else []
        if leaving:
            raise PolicyError(f"queries are refused: {leaving[0]} is a link that leaves the "
                              "data directory (remove it)")
        return [f"SET allowed_directories = [{sql_str(str(runs) + os.sep)}]"]
    files = [n for n in names if path_problem(n) is None
             and os.path.realpath(n) == os.path.normpath(n) and runs in Path(n).parents]
    listed = ", ".join(sql_str(f) for f in files)
    return [f"SET allowed_paths = [{listed}]"]


def sandboxed_connection(data_dir: str | Path, run_id: str | None, limits: QueryLimits
                         ) -> Any:
    """The platform's views (:func:`pokerarena.platform.query.connect`) on a connection
    that may read only the part files of its views (:func:`read_allow_list`: no link is
    ever followed out of ``<data>/runs``), cannot load extensions, and whose settings are
    locked (``SET`` fails)."""
    from pokerarena.platform.query import connect
    from pokerarena.platform.storage import is_uri

    data_dir = data_dir if is_uri(data_dir) else Path(data_dir).resolve()
    con = connect(data_dir, run_id)
    try:
        for stmt in (
            "SET autoinstall_known_extensions = false",
            "SET autoload_known_extensions = false",
            "SET allow_community_extensions = false",
            "SET python_enable_replacements = false",
            f"SET memory_limit = {sql_str(limits.memory)}",
            f"SET threads = {int(limits.threads)}",
            "SET max_temp_directory_size = '0B'",
            *read_allow_list(con, data_dir),
            "SET enable_external_access = false",
            "SET lock_configuration = true",
        ):
            con.execute(stmt)
    except Exception:
        con.close()
        raise
    return con


def only_select(con: Any, sql: str) -> str:
    """``sql`` if it is one read-only SELECT whose paths may be read (else PolicyError)."""
    import duckdb

    check_sql_paths(sql)
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as exc:
        raise PolicyError(str(exc).splitlines()[0]) from None
    if len(statements) != 1:
        raise PolicyError(f"give exactly one statement, not {len(statements)}")
    st = statements[0]
    if st.type != duckdb.StatementType.SELECT:
        raise PolicyError(f"only SELECT queries are allowed, not {st.type.name}")
    return st.query.strip().rstrip(";")


def run_sandboxed(data_dir: str | Path, sql: str, run_id: str | None = None,
                  limits: QueryLimits | None = None) -> dict[str, Any]:
    """Run one read-only SELECT under ``limits``; returns ``columns``, ``rows`` (at most
    ``limits.rows``) and ``truncated``. Raises :class:`PolicyError` (refused, timed out)
    or :class:`pokerarena.platform.query.QueryError` (DuckDB rejected the SQL)."""
    import duckdb

    from pokerarena.platform.query import QueryError

    limits = limits or QueryLimits()
    if len(sql) > limits.sql_chars:
        raise PolicyError(f"the query is longer than {limits.sql_chars} characters")
    con = sandboxed_connection(data_dir, run_id, limits)
    timed_out = threading.Event()

    def interrupt() -> None:
        timed_out.set()
        con.interrupt()

    timer = threading.Timer(limits.seconds, interrupt)
    try:
        body = only_select(con, sql)
        wrapped = f"SELECT * FROM (\n{body}\n) AS q LIMIT {int(limits.rows) + 1}"
        timer.start()
        try:
            cur = con.execute(wrapped)
            columns = [d[0] for d in cur.description or []]
            rows = cur.fetchall()
        except duckdb.Error as exc:
            if timed_out.is_set():
                raise QueryTimeout(f"the query ran past its limit of {limits.seconds:g} s "
                                   "and was stopped") from None
            raise QueryError(str(exc)) from None
        finally:
            timer.cancel()
    finally:
        con.close()
    truncated = len(rows) > limits.rows
    return {"columns": columns, "rows": [list(r) for r in rows[:limits.rows]],
            "truncated": truncated, "row_limit": limits.rows}
