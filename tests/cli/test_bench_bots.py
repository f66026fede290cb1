"""``pokerarena bench bots``: runs, prints sane JSON (no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_bots_json():
    out = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "bots", "--variant", "holdem",
         "--betting", "fixed_limit", "--bots", "tag,equity", "--hands", "30", "--json"],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["variant"] == "holdem" and data["betting"] == "fixed_limit"
    assert [r["bot"] for r in data["bots"]] == ["tag", "equity"]
    for r in data["bots"]:
        assert {"decisions", "decisions_per_sec", "think_seconds", "match_seconds",
                "think_share"} <= set(r)
        assert r["decisions"] >= 30
        assert r["decisions_per_sec"] > 0
        assert 0 < r["think_seconds"] <= r["match_seconds"]
        assert 0 < r["think_share"] <= 1


def test_bench_bots_rejects_a_bad_bot():
    out = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "bots", "--bots", "nosuchbot",
         "--hands", "5"], capture_output=True, text=True, timeout=600)
    assert out.returncode != 0
    assert "nosuchbot" in out.stderr


def test_bench_bots_round_robin_json():
    out = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "bots", "--round-robin",
         "--bots", "call,tag,equity", "--hands", "20", "--json"],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["matches"] == 3  # every pair of three bots
    rows = {r["bot"]: r for r in data["bots"]}
    assert set(rows) == {"call", "tag", "equity"}
    assert all(r["decisions"] >= 20 for r in rows.values())
    total = sum(r["think_seconds"] for r in rows.values())
    assert abs(total - data["think_seconds"]) < 1e-3
    assert 0 < data["think_share"] < 1
    assert abs(sum(r["tournament_share"] for r in rows.values()) - data["think_share"]) < 2e-3


def test_bench_bots_against_another_opponent_and_bad_round_robin():
    out = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "bots", "--bots", "rock",
         "--opponent", "maniac", "--hands", "20", "--json"],
        capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["opponent"] == "maniac" and data["bots"][0]["opponent"] == "maniac"
    bad = subprocess.run(
        [sys.executable, "-m", "pokerarena.cli", "bench", "bots", "--round-robin",
         "--bots", "tag"], capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "at least two" in bad.stderr
    assert "Traceback" not in bad.stderr
