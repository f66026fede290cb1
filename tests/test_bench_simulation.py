"""``pokerarena bench simulation``: its JSON (figures are not asserted, only that they
are there and that the rows it measured are the unit's), and its one-line errors."""

from __future__ import annotations

import json
import subprocess

from pokerarena.bench.simulation import bench_simulation


def test_bench_reports_both_levels_and_the_split() -> None:
    r = bench_simulation(hands=30, repeats=1)
    assert r["benchmark"] == "simulation" and r["players"] == 6
    assert r["bots"] == ["tag", "lag", "rock", "equity", "tag", "lag"]
    assert set(r["records"]) == {"full", "hands"}
    for level in r["records"].values():
        assert level["hands_per_cpu_s"] > 0
        split = level["split_cpu_s_per_1000_hands"]
        assert split["engine_and_bots"] == r["bare"]["cpu_s_per_1000_hands"]
        assert abs(split["engine_and_bots"] + split["recording"]
                   - level["cpu_s_per_1000_hands"]) < 1e-3
        assert split["recording_per_hand_least"] > 0
        assert level["rows"]["hands"] == 30 and level["rows"]["seats"] == 180
    assert r["records"]["full"]["rows"]["actions"] > 30 * 6
    assert r["records"]["hands"]["rows"]["actions"] == 0
    assert r["fast_table"] == "plays this unit"
    for level in r["records"].values():
        fast = level["fast_table"]
        assert fast["rows"] == level["rows"] and fast["rows_equal"]
        assert fast["hands_per_cpu_s"] > 0 and fast["speedup"] > 0


def test_bench_names_why_the_fast_table_does_not_play_a_lineup() -> None:
    r = bench_simulation(hands=10, repeats=1, bots=("tag", "random"), records=("hands",))
    assert "random" in r["fast_table"]
    assert "fast_table" not in r["records"]["hands"]


def test_cli_json_and_bad_input(pokerarena_cli: list[str]) -> None:
    out = subprocess.run([*pokerarena_cli, "bench", "simulation", "--hands", "12",
                          "--repeats", "1", "--record", "hands", "--bots", "call,tag,rock",
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert list(r["records"]) == ["hands"] and r["players"] == 3
    for bad in (["--bots", "tag,nobody"], ["--hands", "0"], ["--bots", "tag"]):
        out = subprocess.run([*pokerarena_cli, "bench", "simulation", *bad],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 2 and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
