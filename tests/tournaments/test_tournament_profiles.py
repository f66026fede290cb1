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
def run_dir(tmp_path_factory, pokerarena_cli):
    """A real three-bot heads-up round robin, played in process, stored as Parquet."""
    root = tmp_path_factory.mktemp("profiles")
    spec = root / "spec.toml"
    spec.write_text(SPEC)
    out = subprocess.run([*pokerarena_cli, "run", str(spec), "--local", "--data",
                          str(root / "data")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    run_id = next((root / "data" / "runs").iterdir()).name
    return root / "data", run_id


@pytest.fixture(scope="module")
def profiles(run_dir):
    from pokerarena.platform.query import connect
    from pokerarena.tournaments.profiles import PROFILE_COLUMNS

    con = connect(run_dir[0])  # the query views include bot_profiles
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


def test_leaderboard_command_agrees_with_the_stored_chips(run_dir, pokerarena_cli):
    """``pokerarena leaderboard RUN --json``: each bot's rate is its stored chips over
    its hands (checked with DuckDB directly), inside its own interval; the cross table
    is antisymmetric heads-up; both rankings and both ratings name every bot."""
    import json

    from pokerarena.platform.query import connect

    data, run_id = run_dir
    out = subprocess.run([*pokerarena_cli, "leaderboard", run_id, "--data", str(data),
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    board = json.loads(out.stdout)
    con = connect(data)
    truth = dict(con.execute("SELECT s.bot, 1000 * sum(s.net / h.bb) / count(*) FROM seats s "
                             "JOIN hands h USING (run_id, match, hand) GROUP BY 1").fetchall())
    bots = {r["bot"]: r for r in board["bots"]}
    assert set(bots) == set(truth) == {"call", "maniac", "random"}
    for bot, r in bots.items():
        assert r["value"] == pytest.approx(truth[bot], abs=0.06)
        assert r["lo"] <= r["value"] <= r["hi"] and r["blocks"] > 0
    m = board["cross"]["mbb_per_hand"]
    for i in range(3):
        for j in range(3):
            if i != j:
                assert m[i][j] == pytest.approx(-m[j][i], abs=0.2)
    assert sorted(board["instant_runoff"]) == sorted(truth)
    assert sorted(r["bot"] for r in board["bradley_terry"]) == sorted(truth)
    assert len(board["openskill_history"]) > 1
    text = subprocess.run([*pokerarena_cli, "leaderboard", run_id, "--data", str(data)],
                          capture_output=True, text=True, timeout=300)
    assert "instant run-off" in text.stdout and "Bradley-Terry" in text.stdout
    bad = subprocess.run([*pokerarena_cli, "leaderboard", "nope", "--data", str(data)],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
