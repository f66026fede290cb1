"""A run's standings from its stored rows: the deals as blocks, read with DuckDB, and
the tournament statistics over them (:mod:`pokerarena.tournaments.standings`), with
the bots' profiles. The CLI (``pokerarena leaderboard``) and the API
(``/api/runs/{id}/standings``) both use it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokerarena.errors import UserError
from pokerarena.tournaments.profiles import PROFILE_COLUMNS
from pokerarena.tournaments.standings import Block, standings

BLOCKS_SQL = """
SELECT s.match, coalesce(h.deal, h.hand) AS deal, s.bot, sum(s.net / h.bb) AS bbs,
       count(*) AS hands, any_value(u.bots) AS lineup
FROM seats s JOIN hands h USING (run_id, match, hand)
     JOIN units u ON u.run_id = s.run_id AND u.unit = s.unit
GROUP BY s.match, coalesce(h.deal, h.hand), s.bot
ORDER BY 1, 2, 3
"""
PROFILES_SQL = (f"SELECT {', '.join(PROFILE_COLUMNS)} FROM bot_profiles "
                "ORDER BY bot, variant, betting")


class NoStandings(UserError):
    """A run without finished hands has no standings yet."""


def from_rows(run_id: str, blocks: Sequence[Sequence[Any]],
              profiles: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The standings of ``run_id`` from the rows of :data:`BLOCKS_SQL` and
    :data:`PROFILES_SQL`."""
    if not blocks:
        raise NoStandings(f"run {run_id!r} has no finished hands yet")
    parsed = [Block(int(m), int(d), str(b), float(x), int(n), tuple(str(lineup).split(",")))
              for m, d, b, x, n, lineup in blocks]
    return {"run_id": run_id, **standings(parsed), "profiles": list(profiles)}


def run_standings(data: str | Path, run_id: str) -> dict[str, Any]:
    """The standings of run ``run_id`` under ``data`` (DuckDB in this process)."""
    from pokerarena.platform.query import connect, run_query

    con = connect(data, run_id)
    try:
        _, rows = run_query(con, BLOCKS_SQL)
        cols, prof = run_query(con, PROFILES_SQL)
    finally:
        con.close()
    return from_rows(run_id, rows, [dict(zip(cols, r, strict=True)) for r in prof])
