"""A damaged part damages nothing else (issue 12): the run's leaderboard over real HTTP
and ``pokerarena show`` still answer, and say which units they could not read."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx

from pokerarena.platform.api import create_app
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.storage import RunStore, part_path

TOKEN = "test-token-damage"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_leaderboard_and_show_answer_and_name_the_damaged_unit(tmp_path):
    app = create_app(tmp_path, token=TOKEN, web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        r = client.post("/api/runs", json=small_spec(hands=60, unit_hands=30), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 60)
        whole = client.get(f"/api/runs/{run_id}/leaderboard").json()
        assert whole["unreadable_units"] == []
        hands = sum(row["hands"] for row in whole["leaderboard"])
        store = RunStore(tmp_path, run_id)
        unit = sorted(store.done_units())[0]
        part = part_path(store.run_dir, "hands", unit)
        part.write_bytes(part.read_bytes()[:100])          # truncated: no footer
        r = client.get(f"/api/runs/{run_id}/leaderboard")
        assert r.status_code == 200, r.text
        body = r.json()
        assert [u["unit"] for u in body["unreadable_units"]] == [unit]
        assert "hands" in body["unreadable_units"][0]["tables"]
        assert 0 < sum(row["hands"] for row in body["leaderboard"]) < hands
        q = client.post("/api/query", json={"sql": "SELECT count(*) FROM hands"})
        assert q.status_code == 200, q.text                # queries without a run filter too
    out = subprocess.run([sys.executable, "-m", "pokerarena.cli", "show", run_id, "--data",
                          str(tmp_path), "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert list(json.loads(out.stdout)["unreadable_units"]) == [unit]
    text = subprocess.run([sys.executable, "-m", "pokerarena.cli", "show", run_id, "--data",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and "left out, a part damaged" in text.stdout
