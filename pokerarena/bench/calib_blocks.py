"""Calibration of the leaderboard's intervals (issue 25, findings 1 and 4).

- ``blocks.shared_deals``: four copies of ``tag`` play a heads-up round robin of
  no-limit hold'em with common deals (the default), no duplicate: each copy keeps its
  lineup position, so it replays the same cards in all its matches. The truth is 0 for
  every bot, every pairing and every rating. Each replication goes the users' way: the
  units planned from a tournament spec, played by the recorder, their rows read by
  DuckDB with the leaderboard's own SQL (``BLOCKS_SQL``) and turned into standings.
- ``blocks.odd_block``: 50 duplicate pairs of ``tag`` against itself and one deal cut
  short (one seating of 101 hands): spiky pairs, most of them exactly zero, and one
  block of another size, which used to switch the interval to a percentile bootstrap.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from pokerarena.bench.calibration import Case, Coverage

COPIES = ("A", "B", "C", "D")  # four copies of one bot, told apart by lineup position
BOT = "tag"


def _spec(seed: int, hands: int, duplicate: bool, bots: Sequence[str]) -> Any:
    from pokerarena.platform.spec import parse_spec

    return parse_spec({"kind": "tournament", "seed": seed, "bots": list(bots), "seats": 2,
                       "hands": hands, "unit_hands": hands, "duplicate": duplicate,
                       "games": [{"variant": "holdem", "betting": "no_limit"}],
                       "stack": 200, "record": "hands"})


def round_robin_rows(seed: int, hands: int) -> dict[str, pa.Table]:
    """The ``hands``, ``seats`` and ``units`` rows of one round robin of the copies:
    planned as a tournament of four bots (its lineups, rotations and common deals),
    every seat played by ``tag``, each seat's rows labelled with the copy the plan put
    there."""
    from pokerarena.platform.planner import plan
    from pokerarena.workers.records import play_unit

    # the plan of four distinct names, so its lineups and deal keys are a real run's
    spec = _spec(seed, hands, False, ("call", "lag", "rock", "tag"))
    names = dict(zip(("call", "lag", "rock", "tag"), COPIES, strict=True))
    out: dict[str, list[pa.Table]] = {"hands": [], "seats": [], "units": []}
    for unit in plan(spec, "calib").units:
        played = play_unit(dataclasses.replace(unit, bots=(BOT,) * len(unit.bots)))
        lineup = [names[b] for b in unit.bots]
        seats = played.tables["seats"]
        label = pa.array([lineup[s] for s in seats.column("seat").to_pylist()])
        seats = seats.set_column(seats.schema.get_field_index("bot"), "bot", label)
        seats = seats.append_column("unit", pa.array([unit.unit_id] * seats.num_rows))
        out["seats"].append(seats)
        out["hands"].append(played.tables["hands"])
        out["units"].append(pa.table({"run_id": ["calib"], "unit": [unit.unit_id],
                                      "bots": [",".join(lineup)]}))
    return {k: pa.concat_tables(v) for k, v in out.items()}


def standings_of(tables: dict[str, pa.Table]) -> dict[str, Any]:
    """The standings of the rows, as ``pokerarena leaderboard`` computes them."""
    import duckdb

    from pokerarena.platform.standings import BLOCKS_SQL, from_rows

    con = duckdb.connect()
    try:
        for name, table in tables.items():
            con.register(name, table)
        rows = con.execute(BLOCKS_SQL).fetchall()
    finally:
        con.close()
    return from_rows("calib", rows, [])


def _shared_deals(reps: int, seed: int) -> list[Coverage]:
    from pokerarena.tournaments.estimates import block_rate

    hits = dict.fromkeys(COPIES, 0)
    unclustered = dict.fromkeys(COPIES, 0)
    cross = bt = bt_reps = 0
    for r in range(reps):
        tables = round_robin_rows(seed * 100_003 + r, 200)
        out = standings_of(tables)
        for row in out["bots"]:
            hits[row["bot"]] += row["lo"] <= 0 <= row["hi"]
        grid = zip(out["cross"]["mbb_per_hand"], out["cross"]["ci95"], strict=True)
        cross += sum(abs(x) <= ci for i, (xs, cis) in enumerate(grid)
                     for j, (x, ci) in enumerate(zip(xs, cis, strict=True))
                     if x is not None and i < j)
        ratings = out.get("bradley_terry", [])
        shown = [x for x in ratings if x["lo"] is not None]
        bt_reps += len(shown)
        bt += sum(x["lo"] <= 0 <= x["hi"] for x in shown)
        seats = tables["seats"].to_pydict()
        for bot in COPIES:  # the old way: every (match, deal) a block of its own
            per: dict[tuple[int, int], float] = {}
            for m, h, b, net in zip(seats["match"], seats["hand"], seats["bot"],
                                    seats["net"], strict=True):
                if b == bot:
                    per[(m, h)] = net / 2.0  # bb = 2 chips
            est = block_rate(list(per.values()), [1] * len(per))
            unclustered[bot] += est.lo <= 0 <= est.hi
    name = "blocks.shared_deals"
    what = ("four copies of tag, heads-up round robin of no-limit hold'em on common "
            "deals, 200 hands a match: the leaderboard's 95% interval covers 0")
    out_cov = [Coverage(f"{name}.{bot}", 1, f"{what} (copy {bot})", "coverage", 0.95,
                        hits[bot], reps,
                        extra={"blocks_unclustered_coverage": unclustered[bot] / reps})
               for bot in COPIES]
    out_cov.append(Coverage(f"{name}.cross_table", 1, "each pairing's interval in the "
                            "cross table covers 0 (pooled over the six pairings)",
                            "coverage", 0.95, cross, 6 * reps))
    out_cov.append(Coverage(f"{name}.bradley_terry", 1, "Bradley-Terry intervals cover 0 "
                            "(each bot's, where shown, pooled over the four)", "coverage",
                            0.95, bt, bt_reps))
    return out_cov


def odd_block_rates(seed: int, pairs: int = 50) -> tuple[list[float], list[int]]:
    """Per deal, what the first seat's ``tag`` won (big blinds) and its hands, over
    ``pairs`` duplicate pairs of ``tag`` against itself and one deal cut short."""
    from pokerarena.platform.planner import plan
    from pokerarena.workers.records import play_unit

    unit = plan(_spec(seed, 2 * pairs + 2, True, ("call", "tag")), "calib").units[0]
    played = play_unit(dataclasses.replace(unit, bots=(BOT, BOT)))
    last = 2 * pairs  # the last deal's second seating is cut: its rows left out
    seats, hands = played.tables["seats"].to_pydict(), played.tables["hands"].to_pydict()
    deal_of = dict(zip(hands["hand"], hands["deal"], strict=True))
    rotations = 2  # entrant 0 sits seat 0 on a deal's first hand, seat 1 on its second
    totals: dict[int, float] = {}
    sizes: dict[int, int] = {}
    for h, seat, net in zip(seats["hand"], seats["seat"], seats["net"], strict=True):
        d = deal_of[h]
        if seat == (h % rotations) and h <= last:
            totals[d] = totals.get(d, 0.0) + net / 2.0
            sizes[d] = sizes.get(d, 0) + 1
    keys = sorted(totals)
    return [totals[k] for k in keys], [sizes[k] for k in keys]


def _percentile_bootstrap_covers(totals: Sequence[float], sizes: Sequence[int],
                                 seed: int, resamples: int = 1000) -> bool:
    """Whether the interval used before issue 25 (a percentile bootstrap over blocks)
    covers 0: the "before" figure beside the estimator's."""
    t, s = np.asarray(totals), np.asarray(sizes)
    idx = np.random.default_rng(seed).integers(0, len(t), size=(resamples, len(t)))
    lo, hi = np.quantile(t[idx].sum(axis=1) / s[idx].sum(axis=1), [0.025, 0.975])
    return bool(lo <= 0 <= hi)


def _odd_block(reps: int, seed: int) -> list[Coverage]:
    from pokerarena.tournaments.estimates import block_rate

    hits = zeros = boot = 0
    methods: set[str] = set()
    for r in range(reps):
        totals, sizes = odd_block_rates(seed * 100_003 + r)
        est = block_rate(totals, sizes)
        methods.add(est.method)
        hits += est.covers(0.0)
        zeros += int(np.sum(np.asarray(totals) == 0))
        boot += _percentile_bootstrap_covers(totals, sizes, seed * 100_003 + r)
    return [Coverage("blocks.odd_block", 4, "50 duplicate pairs of tag against itself "
                     "(no-limit hold'em) and one deal cut short: the 95% interval covers 0",
                     "coverage", 0.95, hits, reps,
                     extra={"methods": sorted(methods),
                            "percentile_bootstrap_coverage": boot / reps,
                            "zero_blocks_share": round(zeros / (51 * reps), 3)})]


CASES: list[Case] = [
    Case("blocks.shared_deals", 1, _shared_deals, default_reps=300, quick_reps=3),
    Case("blocks.odd_block", 4, _odd_block, default_reps=400, quick_reps=5),
]
