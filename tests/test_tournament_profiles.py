"""Bot profiles from the stored action logs of a real run (Parquet read by DuckDB),
checked against what the built-in bots are known to do."""

from __future__ import annotations

import subprocess

import pytest

SPEC = """
kind = "tournament"
name = "profiles"
seed = 3
bots = ["call", "maniac", "random"]
seats = 2
hands = 200
unit_hands = 200
[[games]]
variant = "holdem"
betting = "fixed_limit"
"""


@pytest.fixture(scope="module")
def profiles(tmp_path_factory, pokerarena_cli):
    from pokerarena.platform.query import connect
    from pokerarena.tournaments.profiles import PROFILE_COLUMNS, PROFILES_VIEW_SQL

    root = tmp_path_factory.mktemp("profiles")
    spec = root / "spec.toml"
    spec.write_text(SPEC)
    out = subprocess.run([*pokerarena_cli, "run", str(spec), "--local", "--data",
                          str(root / "data")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    con = connect(root / "data")
    con.execute(PROFILES_VIEW_SQL)
    rows = con.execute(f"SELECT {', '.join(PROFILE_COLUMNS)} FROM bot_profiles").fetchall()
    return {r[0]: dict(zip(PROFILE_COLUMNS, r, strict=True)) for r in rows}


def test_the_call_bot_never_raises_or_folds(profiles):
    call = profiles["call"]
    assert call["hands"] == 400  # two pairings of 200 hands
    assert call["pfr"] == 0 and call["fold_to_bet"] == 0
    assert call["aggression"] == 0
    assert 0.5 < call["vpip"] < 1  # the big blind checks when the small blind limps


def test_the_maniac_raises_most_and_every_rate_is_a_share(profiles):
    assert profiles["maniac"]["pfr"] > 0.5
    assert profiles["maniac"]["aggression"] > profiles["random"]["aggression"] > 0
    for p in profiles.values():
        assert p["vpip"] >= p["pfr"]
        for key in ("vpip", "pfr", "wtsd", "wsd", "fold_to_bet"):
            assert 0 <= p[key] <= 1, (p["bot"], key)
    assert profiles["random"]["fold_to_bet"] > 0
