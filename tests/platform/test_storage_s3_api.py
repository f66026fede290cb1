"""The service over an object store (``create_app("s3://...")``, moto's real S3 server on
loopback, real HTTP): a run submitted over the API lands in the bucket, and its state,
leaderboard and a sandboxed query are read from there; the service's own files (its
token, its event log) stay in a local folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from s3_server import s3_store

from pokerarena.platform.api import create_app
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.storage import RunStore, local_folder

TOKEN = "test-token-s3"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def bucket() -> Iterator[str]:
    with s3_store("service") as uri:
        yield uri


def test_the_service_drives_and_reads_runs_on_an_object_store(
        bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERARENA_CACHE", str(tmp_path / "cache"))
    uri = f"{bucket}/api"
    app = create_app(uri, token=TOKEN, web_dir=None)
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=60) as client:
        r = client.post("/api/runs", json=small_spec(hands=60, unit_hands=30), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 90)
        board = client.get(f"/api/runs/{run_id}/leaderboard").json()
        assert board["unreadable_units"] == []
        assert sum(row["hands"] for row in board["leaderboard"]) == 60 * 2  # two seats
        q = client.post("/api/query", json={"sql": "SELECT count(*) AS n FROM hands"})
        assert q.status_code == 200, q.text
        assert q.json()["rows"] == [[60]]
    store = RunStore(uri, run_id)
    assert store.exists() and len(store.done_units()) == 2  # recorded on the store
    assert (local_folder(uri) / "api" / "events.jsonl").is_file()
    assert not (local_folder(uri) / "runs" / run_id / "hands").exists()  # parts: the bucket
