"""A worker loads only what the kind of unit it plays needs (issue 29: a game family's
actor pays a fixed start-up of imports before its first unit; issue 28: heavy modules
imported lazily).

The unit is planned here and handed, pickled, to a fresh interpreter that imports only
the executor (what a Ray actor imports) and plays it: a game family's unit must play and
land without the poker engine's game, its evaluator or the poker unit's recorder ever
being imported; a poker unit imports them (the check can tell the two apart)."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from pokerarena.bench.families import family_spec
from pokerarena.platform.planner import plan
from pokerarena.platform.spec import parse_spec

POKER_ONLY = ("pokerarena.engine.game", "pokerarena.evaluator", "pokerarena.workers.records",
              "pokerarena.workers.fasttable")

CHILD = """
import pickle, sys, json
from pokerarena.workers.table import execute_unit
unit = pickle.loads(bytes.fromhex(sys.argv[1]))
got = execute_unit(unit, sys.argv[2])
loaded = [m for m in POKER_ONLY if m in sys.modules]
games = sorted({m.split(".")[2] for m in sys.modules
                if m.startswith("pokerarena.games.") and m.endswith(".game")})
print(json.dumps({"hands": got["hands"], "rows": got["rows"], "loaded": loaded,
                  "games": games}))
""".replace("POKER_ONLY", repr(POKER_ONLY))


def _play_in_fresh_process(unit, run_dir) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, pickle.dumps(unit).hex(), str(run_dir)],
                         capture_output=True, text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("fam_id", ["red_black", "durak"])
def test_a_family_unit_plays_without_the_poker_engine(fam_id, tmp_path):
    unit = plan(family_spec(fam_id, "rule", 2, 1, 20), "imports").units[0]
    got = _play_in_fresh_process(unit, tmp_path)
    assert got["hands"] == 20 and got["rows"]["seats"] == 40
    assert got["loaded"] == []
    assert got["games"] == [fam_id]  # no other family's game (nor its kernels)


def test_a_poker_unit_loads_the_engine(tmp_path):
    spec = parse_spec({"kind": "match", "name": "imports", "seed": 3, "bots": ["call", "random"],
                       "hands": 10, "games": [{"variant": "holdem",
                                                "betting": ["fixed_limit"]}]})
    got = _play_in_fresh_process(plan(spec, "imports").units[0], tmp_path)
    assert got["hands"] == 10
    assert {"pokerarena.engine.game", "pokerarena.workers.records"} <= set(got["loaded"])


def test_each_builtin_family_is_found_by_its_package_name():
    """The registry lists the built-in families without importing them (by package
    name) and imports one on first use: each package's family must carry that name."""
    from pokerarena import games

    names = games._builtin()
    assert set(names) == {"binocle", "boston", "durak", "painted", "red_black", "variety"}
    assert set(names) <= set(games.family_ids())
    for name in names:
        assert games.family(name).id == name
    with pytest.raises(games.GameFamilyError, match="unknown game family 'nope'"):
        games.family("nope")


def test_the_game_module_alone_plays_knock_poker():
    """The engine's package no longer imports the knock family when it is imported: the
    game module does (a Game compiles the family's variants), so a process that imports
    only ``pokerarena.engine.game`` still deals knock poker."""
    code = ("from pokerarena.engine.game import Game; import numpy as np; "
            "h = Game('knock').new_hand(1, 3, [100, 100, 100], 0); "
            "print(type(h).__name__, h.is_over)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True)
    assert out.stdout.split() == ["KnockHand", "False"]


def test_listing_the_storage_tables_imports_no_game():
    """The storage layer lists every family's record tables from the families' light
    ``sheet`` modules: importing it loads no family's game, no poker engine, no numba."""
    code = ("import sys, json; import pokerarena.platform.storage as s; "
            "print(json.dumps({'tables': list(s.TABLES), 'loaded': sorted(m for m in "
            "sys.modules if m == 'numba' or m.endswith('.game') or m.endswith('.entry'))}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["loaded"] == []
    assert {"red_black_bets", "painted_tricks", "durak_bouts"} <= set(got["tables"])


def test_the_light_record_tables_are_the_familys_own():
    """``record_tables`` (read without the game) gives exactly the tables each family's
    ``Family`` declares: its score record, then its tricks."""
    from pokerarena.games import family, family_ids, record_tables

    for name in family_ids():
        fam = family(name)
        want = tuple(r for r in (fam.record, fam.extra.get("tricks")) if r is not None)
        assert record_tables(name) == want and want, name

