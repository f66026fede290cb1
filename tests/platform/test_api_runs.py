"""The service over real HTTP (uvicorn on loopback) driving runs on the shared Ray cluster:
submit, follow, leaderboard, cancel, list; Parquet and DuckDB behind it."""

from __future__ import annotations

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.executors import MeteredRayExecutor
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.query import query
from pokerarena.platform.storage import RunStore

TOKEN = "test-token-runs"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def service(ray_cluster, tmp_path_factory):
    data = tmp_path_factory.mktemp("api-runs")
    app = create_app(data, token=TOKEN, executor_factory=lambda: MeteredRayExecutor(1),
                     web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        yield client, app, data


def _finished(client: httpx.Client, run_id: str) -> dict | None:
    run = client.get(f"/api/runs/{run_id}").json()
    return run if run["status"] not in ("created", "running", "cancelling") else None


def test_submit_follow_and_read_results(service):
    client, _app, data = service
    r = client.post("/api/runs", json=small_spec(hands=120, unit_hands=40, name="follow"),
                    headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    assert r.json()["hands_total"] == 120
    seen_fractions = []

    def done():
        run = client.get(f"/api/runs/{run_id}").json()
        seen_fractions.append(run["fraction"])
        return run if run["status"] == "finished" else None

    run = wait_for(done, 300, what="run finished")
    assert run["units_done"] == run["units_total"] == 3
    assert run["hands_done"] == 120 and run["fraction"] == 1.0
    assert seen_fractions == sorted(seen_fractions)  # progress never goes back
    listed = {x["run_id"]: x for x in client.get("/api/runs").json()}
    assert listed[run_id]["status"] == "finished"

    board = client.get(f"/api/runs/{run_id}/leaderboard").json()
    by_bot = {row["bot"]: row for row in board["leaderboard"]}
    assert set(by_bot) == {"random", "call"}
    assert by_bot["random"]["hands"] == by_bot["call"]["hands"] == 120
    assert by_bot["random"]["net"] == -by_bot["call"]["net"]  # heads-up, no rake
    cross = {(c["bot"], c["opponent"]): c for c in board["cross_table"]}
    assert cross[("random", "call")]["mbb_per_hand"] == -cross[("call", "random")][
        "mbb_per_hand"]
    # the API's numbers are DuckDB's over the Parquet parts
    cols, rows = query(data, "SELECT sum(net) FROM seats WHERE bot = 'random'", run_id)
    assert rows[0][0] == by_bot["random"]["net"]

    charts = client.get(f"/api/runs/{run_id}/charts").json()
    assert sorted(p["position"] for p in charts["positions"]) == [0, 1]
    assert sum(p["hands"] for p in charts["positions"]) == 240
    assert charts["categories"] and all(c["hands"] > 0 for c in charts["categories"])

    q = client.post("/api/query", json={"sql": "SELECT count(*) AS n FROM hands",
                                        "run_id": run_id}).json()
    assert q["columns"] == ["n"] and q["rows"] == [[120]]


def test_cancel_stops_units_and_keeps_what_was_written(service):
    client, _app, data = service
    r = client.post("/api/runs", json=small_spec(hands=20_000, unit_hands=100, name="cancel"),
                    headers=AUTH)
    run_id = r.json()["run_id"]
    wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["units_done"] >= 2, 300,
             what="two units done")
    assert client.post(f"/api/runs/{run_id}/cancel").status_code == 401
    c = client.post(f"/api/runs/{run_id}/cancel", headers=AUTH)
    assert c.status_code == 202, c.text
    run = wait_for(lambda: _finished(client, run_id), 300, what="run cancelled")
    assert run["status"] == "cancelled"
    assert 2 <= run["units_done"] < run["units_total"]
    # consistent on disk: only complete units are visible, and exactly those recorded
    done = RunStore(data, run_id).done_units()
    _, rows = query(data, "SELECT count(*), count(DISTINCT unit) FROM hands", run_id)
    assert rows[0] == (100 * len(done), len(done))
    again = client.post(f"/api/runs/{run_id}/cancel", headers=AUTH)
    assert again.status_code == 409 and "already cancelled" in again.json()["error"]


def test_errors_are_json_with_the_right_status(service):
    client, _app, _data = service
    r = client.get("/api/runs/no-such-run")
    assert r.status_code == 404 and r.json()["error"] == "no run 'no-such-run'"
    assert client.get("/api/runs/..%2Fetc").status_code in (404, 422)
    r = client.post("/api/runs", json={"kind": "match"}, headers=AUTH)
    assert r.status_code == 422 and "bots" in r.json()["error"]
    r = client.post("/api/runs", json=small_spec(bots=("random", "nobody")), headers=AUTH)
    assert r.status_code == 422 and "nobody" in r.json()["error"]
    r = client.post("/api/runs", content=b"{not json", headers={**AUTH,
                                                                 "Content-Type":
                                                                 "application/json"})
    assert r.status_code == 422 and r.json()["status"] == 422
    r = client.post("/api/runs", json=small_spec(), headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401
    r = client.post("/api/query", json={"sql": ""})
    assert r.status_code == 422 and "sql" in r.json()["error"]
    assert client.get("/api/nothing-here").json() == {"error": "no such endpoint",
                                                      "status": 404}
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/docs-assets/swagger-ui-bundle.js" in docs.text
    assert "cdn" not in docs.text.lower()  # served by the service itself: works offline
    assert client.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
    spec = client.get("/openapi.json").json()
    assert {"/api/runs", "/api/runs/{run_id}", "/api/runs/{run_id}/cancel", "/api/query",
            "/api/variants", "/api/bots", "/api/runs/{run_id}/leaderboard"} <= set(
                spec["paths"])


def test_catalogue(service):
    client, _app, _data = service
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    assert "holdem" in variants and "no_limit" in variants["holdem"]["betting"]
    bots = {b["name"] for b in client.get("/api/bots").json()}
    assert {"random", "call", "tag"} <= bots


def test_standings_over_http_equal_the_cli_figures(service):
    """``/api/runs/{id}/standings``: the same standings ``pokerarena leaderboard``
    computes from the data directory (rates with intervals, cross table, rankings,
    ratings, profiles); a run that does not exist is a 404."""
    from pokerarena.platform.standings import run_standings

    client, _app, data = service
    spec = {"kind": "tournament", "name": "standings", "seed": 4, "seats": 2,
            "bots": ["random", "call", "maniac"], "hands": 60, "unit_hands": 60,
            "duplicate": True, "games": [{"variant": "holdem", "betting": "fixed_limit"}]}
    r = client.post("/api/runs", json=spec, headers=AUTH)
    assert r.status_code == 201, r.text
    run_id = r.json()["run_id"]
    wait_for(lambda: _finished(client, run_id), 300, what="tournament finished")
    got = client.get(f"/api/runs/{run_id}/standings")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body == run_standings(data, run_id)
    assert {r["bot"] for r in body["bots"]} == {"random", "call", "maniac"}
    assert all(r["lo"] <= r["value"] <= r["hi"] for r in body["bots"])
    assert sorted(body["instant_runoff"]) == ["call", "maniac", "random"]
    assert {p["bot"] for p in body["profiles"]} == {"random", "call", "maniac"}
    assert client.get("/api/runs/nope-1/standings").status_code == 404
