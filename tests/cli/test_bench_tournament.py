"""``pokerarena bench tournament`` on a tiny round robin: the JSON's shape, and figures
that agree with each other (every way played the same hands and won the same chips,
rates positive, overheads computed from the ways' own figures); no timing asserted."""

from __future__ import annotations

import json

import pytest

from pokerarena.bench.tournament import bench_tournament
from pokerarena.cli import main

WAYS = ("bare", "layer", "rows", "written")


def _check_way(w: dict, hands: int) -> None:
    assert w["hands"] == hands
    assert w["cpu_s"] > 0 and w["wall_s"] > 0
    assert w["hands_per_cpu_s"] == pytest.approx(hands / w["cpu_s"], rel=1e-2)
    assert w["hands_per_s"] == pytest.approx(hands / w["wall_s"], rel=1e-2)


def _per_hand(w: dict) -> float:
    return w["cpu_s"] / w["hands"]


def test_bench_tournament_in_process_and_on_ray(ray_cluster):
    r = bench_tournament(bots=["random", "call", "maniac"],
                         games=["holdem:no_limit", "stud7:fixed_limit"], hands=8,
                         unit_hands=4, workers=2, repeats=1)
    assert r["benchmark"] == "tournament"
    assert r["pairings"] == 3 and r["units"] == 3 * 2 * 2
    assert r["hands"] == 3 * 2 * 8
    assert r["same_results"] is True  # bare matches and play_unit played the same poker
    assert set(r["ways"]) == {*WAYS, "ray"}
    for w in r["ways"].values():
        _check_way(w, r["hands"])
    ray = r["ways"]["ray"]
    assert ray["workers"] == 2 and ray["rows"] > 0 and ray["bytes"] > 0
    assert ray["cpu_s"] == pytest.approx(ray["driver_cpu_s"] + ray["units_cpu_s"], abs=1e-3)
    o = r["overhead_pct"]
    ways = r["ways"]
    assert o["layer_vs_bare"] == pytest.approx(
        100 * (_per_hand(ways["layer"]) / _per_hand(ways["bare"]) - 1), abs=0.5)
    assert o["writing_vs_rows"] == pytest.approx(
        100 * (_per_hand(ways["written"]) / _per_hand(ways["rows"]) - 1), abs=0.5)
    assert set(o) == {"layer_vs_bare", "rows_vs_layer", "writing_vs_rows", "written_vs_bare",
                      "ray_vs_written", "ray_vs_bare"}
    assert "process_time" in r["timing"]


def test_bench_tournament_cli_json_without_ray(capsys):
    rc = main(["bench", "tournament", "--bots", "random,call", "--games", "holdem:fixed_limit",
               "--hands", "6", "--unit-hands", "6", "--repeats", "2", "--no-ray", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert set(out["ways"]) == set(WAYS) and out["repeats"] == 2
    assert out["hands"] == 6 and out["same_results"] is True
    for w in out["ways"].values():
        _check_way(w, 6)
    assert "ray_vs_bare" not in out["overhead_pct"]


def test_bench_tournament_bad_input_is_one_line(capsys):
    assert main(["bench", "tournament", "--bots", "random,nosuchbot", "--hands", "4",
                 "--no-ray"]) == 2
    err = capsys.readouterr().err
    assert "nosuchbot" in err and "Traceback" not in err
    assert main(["bench", "tournament", "--hands", "0", "--no-ray"]) == 2
    assert "--hands" in capsys.readouterr().err
