"""What the service lets a client do: the bearer token, the specs it accepts over HTTP,
and the read-only, sandboxed SQL of the query endpoint."""

from __future__ import annotations

import hmac
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOKEN_ENV = "POKERARENA_API_TOKEN"
TOKEN_FILE_ENV = "POKERARENA_API_TOKEN_FILE"
TOKEN_FILE_NAME = ".api-token"


class PolicyError(ValueError):
    """A request the service refuses (the message says why)."""


# token ------------------------------------------------------------------------------


def load_or_create_token(data_dir: str | Path, token_file: str | Path | None = None
                         ) -> tuple[str, Path | None, bool]:
    """The API token: ``$POKERARENA_API_TOKEN``, else the token file
    (``token_file``, ``$POKERARENA_API_TOKEN_FILE``, else ``<data>/.api-token``), created
    with a fresh random token (mode 0600) when missing.

    Returns ``(token, file or None, created)``.
    """
    env = os.environ.get(TOKEN_ENV, "").strip()
    if env:
        return env, None, False
    path = Path(token_file or os.environ.get(TOKEN_FILE_ENV) or Path(data_dir) / TOKEN_FILE_NAME)
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token, path, False
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token, path, True


def token_matches(header: str | None, token: str) -> bool:
    """True when ``header`` is ``Bearer <token>`` (constant-time comparison)."""
    if not header:
        return False
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), token.encode())


# specs over HTTP --------------------------------------------------------------------


def check_http_spec(data: Any, allowed_urls: tuple[str, ...] = ()) -> None:
    """Refuse what a spec submitted over HTTP may not name: bots other than registered
    names or allowed adapter URLs (never a Python path: that would run code of the
    client's choosing), and variants other than shipped identifiers (never a file path).

    ``allowed_urls`` are URL prefixes (``http://127.0.0.1:9000/``) an adapter may use.
    """
    from pokerarena.platform.spec import registered_bots
    from pokerarena.rules import variant_ids

    if not isinstance(data, dict):
        raise PolicyError("a run spec is a JSON object")
    bots = data.get("bots")
    if isinstance(bots, list):
        known = registered_bots()
        for i, bot in enumerate(bots):
            if not isinstance(bot, str):
                raise PolicyError(f"bots[{i}]: a bot is a string")
            if bot in known:
                continue
            if bot.startswith(("http://", "https://")):
                if any(bot.startswith(p) for p in allowed_urls):
                    continue
                raise PolicyError(f"bots[{i}]: adapter URL {bot!r} is not allowed by this "
                                  "service")
            raise PolicyError(f"bots[{i}]: {bot!r} is not a registered bot; over HTTP a spec "
                              f"may name only registered bots ({', '.join(known)}) or "
                              "allowed adapter URLs, never Python paths")
    games = data.get("games")
    if isinstance(games, list):
        ids = variant_ids()
        for gi, g in enumerate(games):
            if not isinstance(g, dict):
                continue
            variants = g.get("variant")
            for vi, v in enumerate([variants] if isinstance(variants, str) else
                                   variants if isinstance(variants, list) else []):
                if not isinstance(v, str) or v not in ids:
                    raise PolicyError(f"games[{gi}].variant[{vi}]: {v!r} is not a variant "
                                      "identifier; over HTTP only shipped variants "
                                      f"({', '.join(ids)}) may be named")


# sandboxed SQL ----------------------------------------------------------------------


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


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def sandboxed_connection(data_dir: str | Path, run_id: str | None, limits: QueryLimits
                         ) -> Any:
    """The platform's views (:func:`pokerarena.platform.query.connect`) on a connection
    that may read only ``<data>/runs/``, cannot load extensions, and whose settings are
    locked (``SET`` fails)."""
    from pokerarena.platform.query import connect

    data_dir = Path(data_dir).resolve()
    con = connect(data_dir, run_id)
    runs_dir = str(data_dir / "runs") + os.sep
    try:
        for stmt in (
            "SET autoinstall_known_extensions = false",
            "SET autoload_known_extensions = false",
            "SET allow_community_extensions = false",
            "SET python_enable_replacements = false",
            f"SET memory_limit = {_sql_str(limits.memory)}",
            f"SET threads = {int(limits.threads)}",
            "SET max_temp_directory_size = '0B'",
            f"SET allowed_directories = [{_sql_str(runs_dir)}]",
            "SET enable_external_access = false",
            "SET lock_configuration = true",
        ):
            con.execute(stmt)
    except Exception:
        con.close()
        raise
    return con


def _only_select(con: Any, sql: str) -> str:
    import duckdb

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
        body = _only_select(con, sql)
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
