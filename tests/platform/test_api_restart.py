"""Run state survives a restart of the service: runs in flight are resumed (or marked
interrupted), none is forgotten, and resumed runs hold no duplicate rows."""

from __future__ import annotations

import httpx

from pokerarena.platform.api import create_app
from pokerarena.platform.api.manager import RunManager
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.query import query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore

TOKEN = "test-token-restart"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _app(data, **kw):
    return create_app(data, token=TOKEN, web_dir=None, **kw)


def test_stop_mid_run_then_restart_resumes_it(tmp_path):
    spec = small_spec(hands=3000, unit_hands=100, name="restart")
    with ServedApp(_app(tmp_path)) as served, httpx.Client(base_url=served.url) as client:
        run_id = client.post("/api/runs", json=spec, headers=AUTH).json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["units_done"] >= 2, 60)
    # the service stopped: the run is marked interrupted on disk, part-way through
    info = RunStore(tmp_path, run_id).info()
    assert info.status == "interrupted"
    assert 2 <= info.units_done < info.units_total == 30
    app = _app(tmp_path)
    with ServedApp(app) as served, httpx.Client(base_url=served.url) as client:
        assert {"run_id": run_id, "action": "resumed"} in app.state.recovered
        run = wait_for(lambda: (r := client.get(f"/api/runs/{run_id}").json())["status"]
                       == "finished" and r, 300, what="resumed run finished")
        assert run["hands_done"] == 3000 and run["units_done"] == 30
    _, rows = query(tmp_path, "SELECT count(*), count(DISTINCT hand) FROM hands", run_id)
    assert rows == [(3000, 3000)]


def _crashed_run(data, name: str) -> str:
    """A run as a service that died mid-run leaves it: started, no end, no driver."""
    from pokerarena.platform.storage import new_run_id

    spec = parse_spec(small_spec(hands=100, unit_hands=50, name=name))
    store = RunStore(data, new_run_id(spec))
    store.create(spec)
    store.append({"event": "start", "units": 2, "hands": 100, "skipped": 0})
    RunManager(data, None, lambda: None)._record({"event": "submit", "run_id": store.run_id})
    return store.run_id


def test_restart_without_resume_marks_runs_interrupted(tmp_path):
    crashed = _crashed_run(tmp_path, "crashed")
    app = _app(tmp_path, resume=False)
    with ServedApp(app) as served, httpx.Client(base_url=served.url) as client:
        assert app.state.recovered == [{"run_id": crashed, "action": "marked interrupted"}]
        run = client.get(f"/api/runs/{crashed}").json()
        assert run["status"] == "interrupted"
        assert "service stopped" in run["error"]
        assert [r["run_id"] for r in client.get("/api/runs").json()] == [crashed]
    events = RunStore(tmp_path, crashed).events()
    assert events[-1]["event"] == "end" and events[-1]["status"] == "interrupted"


def test_restart_resumes_a_crashed_run_and_keeps_cancelled_ones(tmp_path):
    crashed = _crashed_run(tmp_path, "crashed")
    cancelled = _crashed_run(tmp_path, "cancelled")
    with ServedApp(_app(tmp_path, resume=False)) as served, \
            httpx.Client(base_url=served.url) as client:
        r = client.post(f"/api/runs/{cancelled}/cancel", headers=AUTH)
        assert r.status_code == 202 and r.json()["status"] == "cancelled"
    app = _app(tmp_path)
    with ServedApp(app) as served, httpx.Client(base_url=served.url) as client:
        assert app.state.recovered == [{"run_id": crashed, "action": "resumed"}]
        wait_for(lambda: client.get(f"/api/runs/{crashed}").json()["status"] == "finished",
                 60, what="crashed run finished")
        assert client.get(f"/api/runs/{cancelled}").json()["status"] == "cancelled"
