"""``pokerarena bench simulation``: its JSON (figures are not asserted, only that they
are there and that the rows it measured are the unit's), and its one-line errors."""

from __future__ import annotations

import json
import subprocess

import pytest

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


def test_bench_plays_another_variant_with_the_split() -> None:
    r = bench_simulation(hands=12, repeats=1, variant="draw5", seats=4, records=("full",),
                         options={"wild": "deuces"})
    assert (r["variant"], r["betting"], r["options"]) == ("draw5", "fixed_limit",
                                                          {"wild": "deuces"})
    assert r["bots"] == ["tag", "lag", "rock", "equity"] and r["players"] == 4
    assert "hold'em" in r["fast_table"] and r["bot_faults"] == {}
    full = r["records"]["full"]
    assert "fast_table" not in full
    split = full["split_cpu_s_per_1000_hands"]
    assert abs(split["engine"] + split["bots"] - split["engine_and_bots"]) < 1e-3
    assert split["bots"] > 0 and 0 < r["bare"]["bots_share"] < 1
    assert full["rows"]["hands"] == 12 and full["rows"]["seats"] == 48


def test_bench_defaults_to_the_variants_betting_and_seats() -> None:
    from pokerarena.bench.simulation import game_setup, strength_bots

    assert game_setup("omaha")[:2] == ("pot_limit", 6)
    assert game_setup("knock")[:2] == ("fixed_limit", 5)  # knock seats 3 to 5
    assert strength_bots(7) == ("tag", "lag", "rock", "equity", "tag", "lag", "rock")


def test_bench_says_which_bot_cannot_play_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerarena.bench import simulation
    from pokerarena.workers import records

    unit = simulation.simulation_unit(4, ("tag", "rock", "call"), variant="stud7",
                                      betting="fixed_limit")
    assert simulation._faults(unit, records.GameCache()) == {}  # all three play stud

    class Lost:
        """A bot that cannot play this game: it raises at every decision."""

        def act(self, view: object) -> object:
            raise RuntimeError("no such game for me")

    made = records.new_bot
    monkeypatch.setattr(records, "new_bot",
                        lambda name, seed: Lost() if name == "rock" else made(name, seed))
    found = simulation._faults(unit, records.GameCache())
    assert list(found) == ["rock"] and found["rock"].get("exception", 0) >= 1


def test_cli_variant_options_and_bad_input(pokerarena_cli: list[str]) -> None:
    out = subprocess.run([*pokerarena_cli, "bench", "simulation", "--variant", "stud7",
                          "--seats", "3", "--hands", "5", "--repeats", "1", "--record",
                          "full"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "stud7 fixed_limit, 3 seats, tag, lag, rock" in out.stdout
    assert "fast table: not for this unit" in out.stdout
    for bad in (["--variant", "nope"], ["--variant", "durak"],
                ["--variant", "draw5", "--seats", "9"], ["--options", "{not json"],
                ["--variant", "draw5", "--options", '{"wild": "bogus"}'],
                ["--seats", "3", "--bots", "tag,rock"]):
        out = subprocess.run([*pokerarena_cli, "bench", "simulation", *bad],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 2 and "Traceback" not in out.stderr, (bad, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1, (bad, out.stderr)
