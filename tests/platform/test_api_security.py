"""Security of the service: the token, specs over HTTP, the sandboxed query endpoint and
body limits, each tried with a hostile request over real HTTP."""

from __future__ import annotations

import os
import socket
import stat
import time

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


@pytest.mark.parametrize("streamed", [False, True])
def test_an_oversized_body_gets_its_413_not_a_reset(service, streamed):
    """A refused body is read (up to DRAIN_BYTES) before the 413 goes out: a server
    that closes with unread bytes makes the kernel reset the connection, and the client
    loses the answer (httpx.ReadError, seen under load). 900 kB is more than the socket
    buffers hold, so a client still sending when the server closes is likely."""
    client, _data, _run = service
    body = b" " * 900_000

    def chunks():
        for i in range(0, len(body), 10_000):
            yield body[i:i + 10_000]

    for _ in range(15):
        r = client.post("/api/query", content=chunks() if streamed else body,
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 413


def _raw_post(client: httpx.Client, declared: int, timeout: float) -> tuple[bytes, float]:
    """POST /api/query declaring ``declared`` bytes and sending none of them: (the
    status line, the seconds until it came)."""
    url = httpx.URL(str(client.base_url))
    with socket.create_connection((url.host, url.port), timeout=timeout) as sock:
        t0 = time.perf_counter()
        sock.sendall(b"POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n"
                     + f"Content-Length: {declared}\r\n\r\n".encode())
        first = sock.recv(4096).split(b"\r\n", 1)[0]
        return first, time.perf_counter() - t0


def test_a_refused_body_is_read_within_bounds(service):
    """The rest of a refused body is read within bounds: a declared body past
    DRAIN_BYTES is refused at once, unread; one that never comes holds the answer
    DRAIN_SECONDS at most, not forever."""
    from pokerarena.platform.api.middleware import DRAIN_BYTES, DRAIN_SECONDS

    client, _data, _run = service
    status, seconds = _raw_post(client, 50 * DRAIN_BYTES, timeout=10)
    assert status.startswith(b"HTTP/1.1 413") and seconds < DRAIN_SECONDS
    status, seconds = _raw_post(client, DRAIN_BYTES // 2, timeout=10)
    assert status.startswith(b"HTTP/1.1 413")
    assert DRAIN_SECONDS * 0.9 <= seconds < DRAIN_SECONDS + 3
    assert client.get("/api/runs").status_code == 200  # the service still serves


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
