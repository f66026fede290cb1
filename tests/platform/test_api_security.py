"""Security of the service: the token, specs over HTTP, the sandboxed query endpoint and
body limits, each tried with a hostile request over real HTTP."""

from __future__ import annotations

import os
import stat

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.security import (
    TOKEN_ENV,
    PolicyError,
    QueryLimits,
    check_http_spec,
    load_or_create_token,
)
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for

TOKEN = "test-token-security"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """A service with one small finished run (in-process executor: no Ray needed here)."""
    data = tmp_path_factory.mktemp("api-sec")
    (data / "secret.txt").write_text("top secret\n")
    app = create_app(data, token=TOKEN, web_dir=None, max_body_bytes=4096,
                     query_limits=QueryLimits(seconds=1.0, rows=50))
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        r = client.post("/api/runs", json=small_spec(hands=60, unit_hands=30), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 60)
        yield client, data, run_id


def _query(client: httpx.Client, sql: str) -> httpx.Response:
    return client.post("/api/query", json={"sql": sql})


def test_query_reads_the_views(service):
    client, _data, run_id = service
    r = _query(client, "SELECT run_id, count(*) AS hands FROM hands GROUP BY 1")
    assert r.status_code == 200, r.text
    assert r.json()["rows"] == [[run_id, 60]]


@pytest.mark.parametrize("sql", [
    "SELECT * FROM read_csv('/etc/passwd', sep = ':')",
    "SELECT * FROM read_text('/etc/hostname')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_parquet('/etc/*.parquet')",
])
def test_query_cannot_read_files_outside_the_data(service, sql):
    client, _data, _run = service
    r = _query(client, sql)
    assert r.status_code == 400
    assert "Permission" in r.json()["error"] or "disabled" in r.json()["error"]


def test_query_cannot_read_the_token_file_or_other_files_of_the_data_dir(service):
    client, data, _run = service
    for path in (data / "secret.txt", data / ".api-token", data / "runs" / ".." / "secret.txt"):
        r = _query(client, f"SELECT * FROM read_text('{path}')")
        assert r.status_code == 400, (path, r.text)
        assert "top secret" not in r.text


@pytest.mark.parametrize("sql, word", [
    ("ATTACH '/tmp/evil.duckdb' AS evil", "ATTACH"),
    ("INSTALL httpfs", "INSTALL"),
    ("LOAD httpfs", "LOAD"),
    ("SET enable_external_access = true", "SET"),
    ("RESET lock_configuration", "SET"),
    ("COPY (SELECT 1) TO 'out.csv'", "COPY"),
    ("EXPORT DATABASE 'dump'", "EXPORT"),
    ("CREATE TABLE t AS SELECT 1", "CREATE"),
    ("DROP VIEW hands", "DROP"),
    ("PRAGMA version", "PRAGMA"),
    ("SELECT 1; SELECT 2", "exactly one statement"),
])
def test_query_refuses_everything_but_one_select(service, sql, word):
    client, data, _run = service
    r = _query(client, sql)
    assert r.status_code == 400, r.text
    assert word in r.json()["error"] or "SELECT" in r.json()["error"]
    assert not (data / "dump").exists() and not (data / "out.csv").exists()


def test_query_settings_are_locked_even_inside_a_select(service):
    client, _data, _run = service
    r = _query(client, "SELECT current_setting('enable_external_access') AS v")
    assert r.status_code == 200 and r.json()["rows"] == [[False]]


def test_query_has_a_row_limit(service):
    client, _data, _run = service
    r = _query(client, "SELECT * FROM range(100000)")
    assert r.status_code == 200
    body = r.json()
    assert body["truncated"] is True and len(body["rows"]) == 50 == body["row_limit"]


def test_query_has_a_time_limit(service):
    client, _data, _run = service
    r = _query(client, "SELECT count(*) FROM range(100000000000) a")
    assert r.status_code == 408
    assert "limit" in r.json()["error"]
    assert _query(client, "SELECT 1").status_code == 200  # the service is still fine


def test_specs_over_http_name_no_python_paths(service):
    client, data, _run = service
    before = sorted(p.name for p in (data / "runs").iterdir())
    for bot in ("os:system", "pokerarena.bots.strength.tag:TagBot", "subprocess:Popen?args=id",
                "http://127.0.0.1:1/bot"):
        r = client.post("/api/runs", json=small_spec(bots=(bot, "call")), headers=AUTH)
        assert r.status_code == 422, (bot, r.text)
        assert "bots[0]" in r.json()["error"]
    spec = small_spec()
    spec["games"][0]["variant"] = "/etc/passwd.toml"
    r = client.post("/api/runs", json=spec, headers=AUTH)
    assert r.status_code == 422 and "variant" in r.json()["error"]
    assert sorted(p.name for p in (data / "runs").iterdir()) == before  # nothing created


def test_spec_policy_allows_only_listed_adapter_urls():
    spec = small_spec(bots=("http://127.0.0.1:9000/bot", "call"))
    with pytest.raises(PolicyError, match="not allowed"):
        check_http_spec(spec)
    check_http_spec(spec, allowed_urls=("http://127.0.0.1:9000/",))
    with pytest.raises(PolicyError, match="not allowed"):
        check_http_spec(spec, allowed_urls=("http://127.0.0.1:9001/",))
    with pytest.raises(PolicyError, match="Python paths"):
        check_http_spec(small_spec(bots=("mymod:Bot", "call")))


def test_mutating_endpoints_need_the_token(service):
    client, _data, run_id = service
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                    {"Authorization": f"Basic {TOKEN}"}):
        assert client.post("/api/runs", json=small_spec(), headers=headers).status_code == 401
        assert client.post(f"/api/runs/{run_id}/cancel", headers=headers).status_code == 401
    # read-only endpoints are open
    assert client.get("/api/runs").status_code == 200


def test_body_size_limit(service):
    client, _data, _run = service
    big = {"sql": "SELECT 1 -- " + "x" * 10_000}
    r = client.post("/api/query", json=big)
    assert r.status_code == 413 and "4096" in r.json()["error"]

    def chunks():  # no Content-Length: streamed
        for _ in range(10):
            yield b" " * 1000

    r = client.post("/api/query", content=chunks(), headers={"Content-Type":
                                                             "application/json"})
    assert r.status_code == 413


def test_token_generated_once_then_reused(tmp_path, monkeypatch):
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    monkeypatch.delenv("POKERARENA_API_TOKEN_FILE", raising=False)
    token, path, created = load_or_create_token(tmp_path)
    assert created and path == tmp_path / ".api-token" and len(token) >= 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again, _, created2 = load_or_create_token(tmp_path)
    assert again == token and not created2
    monkeypatch.setenv(TOKEN_ENV, "from-env")
    assert load_or_create_token(tmp_path) == ("from-env", None, False)
