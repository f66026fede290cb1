"""SQL text built from values: the one quoting rule every query that embeds a value uses."""

from __future__ import annotations


def sql_str(text: str) -> str:
    """``text`` as a SQL string literal: quotes doubled, the only character DuckDB's
    literals treat specially, so no value can end the literal early."""
    return "'" + text.replace("'", "''") + "'"


def one_line(sql: str) -> str:
    """``sql`` with every run of whitespace made one space (statements kept readable in
    the source, sent and shown on one line)."""
    return " ".join(sql.split())
