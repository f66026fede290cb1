"""A hold'em study on the Ray cluster plays on the fast table, and the driver's
``POKERARENA_FAST_TABLE=0`` reaches the workers: the two runs of one spec land the same
rows, and the units rows show which table timed the decisions (the fast table reports
each decision of a unit at the unit's mean, the reference table each at its own time)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import duckdb

SPEC = {"kind": "study", "name": "fast-ray", "seed": 5,
        "bots": ["tag", "equity", "lag", "rock"], "hands": 300, "unit_hands": 100,
        "games": [{"variant": "holdem", "betting": ["no_limit", "fixed_limit"]}],
        "study": {"baseline": 0}}


def _study(cli: list[str], address: str, tmp: Path, fast: str) -> tuple[Path, str]:
    spec = tmp / "spec.json"
    spec.write_text(json.dumps(SPEC))
    data = tmp / f"data-{fast}"
    env = {**os.environ, "POKERARENA_FAST_TABLE": fast}
    r = subprocess.run([*cli, "study", str(spec), "--data", str(data), "--address", address,
                        "--workers", "2"], capture_output=True, text=True, timeout=600,
                       env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    return data, r.stdout.strip().splitlines()[-1]


def _rows(data: Path, run_id: str, sql: str) -> list[tuple]:
    root = data / "runs" / run_id
    con = duckdb.connect()
    for name in ("hands", "seats", "actions", "units"):
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet("
                    f"'{root}/{name}/**/*.parquet', hive_partitioning = true)")
    return con.execute(sql).fetchall()


def test_a_study_plays_on_the_fast_table_and_the_switch_reaches_the_workers(
        ray_cluster: str, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    runs = {fast: _study(pokerarena_cli, ray_cluster, tmp_path, fast) for fast in ("1", "0")}
    cols = {"hands": "match, hand, board, pot, showdown, decisions, winners",
            "seats": "match, hand, seat, bot, cards, net, pot_won, folded, high_category, "
                     "equity_net",
            "actions": "match, hand, seq, street, seat, kind, amount, cards"}
    for table, c in cols.items():
        got = [_rows(*runs[f], f"SELECT {c} FROM {table} ORDER BY ALL") for f in ("1", "0")]
        assert got[0] == got[1] and len(got[0]) > 0, table
    for fast, (data, run_id) in runs.items():
        units = _rows(data, run_id, "SELECT bot_decisions, bot_think_seconds FROM units")
        assert len(units) == 6
        same = [len({round(t / d, 12) for d, t in zip(ds, ts, strict=True) if d}) == 1
                for ds, ts in units]
        # the fast table: one mean per unit; the reference: each bot its own times
        assert all(same) if fast == "1" else not any(same), (fast, units[:2])
