"""The standings of a freeze-out run (``format = "freezeout"``), from its ``places`` rows.

000_… «Замороженный вклад»: every entry starts with the same chips and plays until one
holds them all, so a bot's result is where its entries finish and what they win. The
unit of independence is the tournament: an entry's finish depends on the other
entries of its tournament, tournaments do not depend on each other. So each figure is
a mean over tournaments of the bot's entries in it, with a 95% interval over
tournaments (:func:`~pokerarena.tournaments.estimates.block_rate`: Student's interval,
every tournament seating each bot equally often; fewer than two tournaments: none).

Per bot: entries, the average finishing place, the in-the-money rate (a prize above
0), the average prize and the ROI ``(prize - buy_in) / buy_in``; for tournaments stopped
at the round limit, the ICM chip-EV (the prize an entry still in expects from its stack,
its prize for one already out). Over the run: whether the chips were conserved (the
tournaments' own check after every round, and the stored rows: at each round's start
the stacks of all seats over all tables, plus carried pots, are entrants x the starting
stack) and whether each tournament's prizes sum to its prize pool.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokerarena.errors import UserError
from pokerarena.platform.run_kinds import traits
from pokerarena.platform.sql import one_line
from pokerarena.platform.storage import RunStore
from pokerarena.tournaments.estimates import Estimate, block_rate

ENTRIES_SQL = one_line("""
SELECT match, bot, count(*) AS entries, sum(place) AS places,
       sum(CASE WHEN prize > 0 THEN 1 ELSE 0 END) AS itm, sum(prize) AS prize,
       sum(coalesce(icm, prize)) AS icm_ev, bool_and(finished) AS finished,
       bool_and(chips_conserved) AS conserved, any_value(buy_in) AS buy_in,
       any_value(prize_pool) AS prize_pool, any_value(entrants) AS entrants,
       any_value(rounds) AS rounds, any_value(hands) AS hands
FROM places GROUP BY match, bot ORDER BY match, bot
""")
"""Per tournament and bot: its entries and their places, prizes and ICM chip-EV."""

CHIPS_SQL = one_line("""
WITH r AS (
    SELECT h.match, h.deal AS round, sum(h.carry_in) AS carry, any_value(h.stack) AS stack,
           sum(h.players) AS seated
    FROM hands h GROUP BY 1, 2),
s AS (
    SELECT s.match, h.deal AS round, sum(s.start_stack) AS chips
    FROM seats s JOIN hands h USING (run_id, match, hand) GROUP BY 1, 2),
a AS (
    SELECT r.match, r.round, r.seated, s.chips + r.carry AS chips, r.stack,
           count(*) AS entrants,
           count(*) FILTER (WHERE p.out_round IS NULL OR p.out_round >= r.round) AS alive
    FROM r JOIN s USING (match, round) JOIN places p ON p.match = r.match
    GROUP BY ALL)
SELECT count(*) AS rounds, count(*) FILTER (WHERE seated < alive) AS sat_out,
       count(*) FILTER (WHERE seated = alive AND chips <> entrants * stack) AS off
FROM a
""")
"""The chips check over the stored rows: rounds checked; rounds in which an entry
still in sat out (a table of one: its stack is in no hand's row); rounds whose seats
and carried pots do not hold every chip."""


class NoFreezeOutStandings(UserError):
    """A freeze-out run without a finished tournament has no standings yet."""


def is_freezeout(spec: dict[str, Any]) -> bool:
    """Whether a stored spec (``spec.json``'s ``spec``) is a freeze-out run."""
    return traits(spec.get("kind")).ranked and spec.get("format") == "freezeout"


def is_freezeout_run(data: str | Path, run_id: str) -> bool:
    """Whether run ``run_id`` under ``data`` is a freeze-out run."""
    return is_freezeout(RunStore(data, run_id).spec_doc()["spec"])


def _finite(x: float) -> float | None:
    return round(x, 4) if math.isfinite(x) else None


def _interval(e: Estimate, low: float, high: float, scale: float = 1.0,
              shift: float = 0.0) -> dict[str, Any]:
    """An estimate as JSON, ``(x - shift) / scale``, its bounds kept within what the
    figure can be (``low``..``high``: a place, a rate, a prize); no bounds from one
    tournament."""
    value, lo, hi = ((x - shift) / scale for x in (e.value, e.lo, e.hi))
    low, high = (low - shift) / scale, (high - shift) / scale
    return {"value": round(value, 4), "lo": _finite(max(lo, low)),
            "hi": _finite(min(hi, high)), "tournaments": e.blocks, "method": e.method}


def _bot_row(bot: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    entries = [int(r["entries"]) for r in rows]
    buy_in, pool = float(rows[0]["buy_in"]), float(rows[0]["prize_pool"])
    stopped = [r for r in rows if not r["finished"]]
    prize = block_rate([float(r["prize"]) for r in rows], entries)
    places = block_rate([float(r["places"]) for r in rows], entries)
    out = {"bot": bot, "entries": sum(entries), "tournaments": len(rows),
           "place": _interval(places, 1, float(rows[0]["entrants"])),
           "itm": _interval(block_rate([float(r["itm"]) for r in rows], entries), 0, 1),
           "prize": _interval(prize, 0, pool), "roi": _interval(prize, 0, pool, buy_in, buy_in),
           "stopped_entries": sum(int(r["entries"]) for r in stopped), "icm_ev": None}
    if stopped:
        out["icm_ev"] = _interval(block_rate([float(r["icm_ev"]) for r in stopped],
                                             [int(r["entries"]) for r in stopped]), 0, pool)
    return out


def _checks(rows: Sequence[dict[str, Any]], chips: dict[str, Any] | None) -> dict[str, Any]:
    pools: dict[int, list[float]] = {}
    for r in rows:
        pool = pools.setdefault(int(r["match"]), [float(r["prize_pool"]), 0.0])
        pool[1] += float(r["prize"])
    gap = max(abs(paid - pool) for pool, paid in pools.values())
    checked = int((chips or {}).get("rounds") or 0)
    off = int((chips or {}).get("off") or 0)
    return {"chips_conserved": all(r["conserved"] for r in rows) and off == 0,
            "rounds_checked": checked, "rounds_off": off,
            "rounds_sat_out": int((chips or {}).get("sat_out") or 0),
            "payouts_sum_to_pool": gap <= 1e-9 * max(1.0, *(p for p, _ in pools.values())),
            "payout_gap_max": gap}


def from_rows(run_id: str, rows: Sequence[dict[str, Any]],
              chips: dict[str, Any] | None = None) -> dict[str, Any]:
    """The standings from the rows of :data:`ENTRIES_SQL` and the one row of
    :data:`CHIPS_SQL`: the bots best first (by average prize, then place)."""
    if not rows:
        raise NoFreezeOutStandings(f"run {run_id!r} has no finished tournament yet")
    by_bot: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_bot.setdefault(str(r["bot"]), []).append(r)
    bots = sorted((_bot_row(b, rs) for b, rs in by_bot.items()),
                  key=lambda r: (-r["prize"]["value"], r["place"]["value"], r["bot"]))
    matches = {int(r["match"]): r for r in rows}
    first = rows[0]
    return {"run_id": run_id, "format": "freezeout", "tournaments": len(matches),
            "finished": sum(1 for r in matches.values() if r["finished"]),
            "stopped": sum(1 for r in matches.values() if not r["finished"]),
            "entrants": int(first["entrants"]), "buy_in": float(first["buy_in"]),
            "prize_pool": float(first["prize_pool"]),
            "hands": sum(int(r["hands"]) for r in matches.values()),
            "bots": bots, "checks": _checks(rows, chips)}


def run_freezeout_standings(data: str | Path, run_id: str) -> dict[str, Any]:
    """The standings of freeze-out run ``run_id`` under ``data`` (DuckDB in this
    process)."""
    from pokerarena.platform.query import as_records, connect, run_query

    con = connect(data, run_id)
    try:
        rows = as_records(*run_query(con, ENTRIES_SQL))
        chips = as_records(*run_query(con, CHIPS_SQL))
    finally:
        con.close()
    return from_rows(run_id, rows, chips[0] if chips else None)


def standings_text(out: dict[str, Any]) -> str:
    """The standings as text (``pokerarena leaderboard`` of a freeze-out run)."""
    def iv(d: dict[str, Any] | None, fmt: str) -> str:
        if d is None:
            return "-"
        if d["lo"] is None:
            return f"{d['value']:{fmt}} [no interval]"
        return f"{d['value']:{fmt}} [{d['lo']:{fmt}}, {d['hi']:{fmt}}]"

    lines = [f"{out['tournaments']} freeze-outs of {out['entrants']} entries (buy-in "
             f"{out['buy_in']:g}, pool {out['prize_pool']:g}): {out['finished']} played to "
             f"the last chip, {out['stopped']} stopped at the round limit; "
             f"{out['hands']:,} hands. Intervals: 95% over tournaments.",
             f"{'bot':<12}{'entries':>8}  {'place':<22}{'in the money':<22}{'ROI':<24}"
             "ICM chip-EV (stopped)"]
    lines += [f"{r['bot']:<12}{r['entries']:>8}  {iv(r['place'], '.2f'):<22}"
              f"{iv(r['itm'], '.2f'):<22}{iv(r['roi'], '+.2f'):<24}{iv(r['icm_ev'], '.2f')}"
              for r in out["bots"]]
    c = out["checks"]
    lines.append(f"chips conserved: {'yes' if c['chips_conserved'] else 'NO'} "
                 f"({c['rounds_checked']} rounds checked from the rows, {c['rounds_off']} off, "
                 f"{c['rounds_sat_out']} with an entry sitting out); payouts sum to the pool: "
                 f"{'yes' if c['payouts_sum_to_pool'] else 'NO'} (largest gap "
                 f"{c['payout_gap_max']:.3g})")
    return "\n".join(lines)
