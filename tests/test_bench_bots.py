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
