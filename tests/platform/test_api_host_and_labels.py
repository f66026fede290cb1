"""The service over real HTTP against hostile clients: random methods and paths leave the
metrics' label sets fixed, a foreign ``Host`` header is refused (DNS rebinding), and
public answers never show an absolute path of the data directory."""

from __future__ import annotations

import random
import socket
import string

import httpx
import pytest

from pokerarena.platform.api import create_app
from pokerarena.platform.api.security import (
    PolicyError,
    allowed_hosts,
    host_allowed,
    host_name,
    public_path_roots,
    relative_paths,
)
from pokerarena.platform.api.server import ServedApp
from pokerarena.platform.api.testing import small_spec, wait_for
from pokerarena.platform.metrics import OTHER, ServiceMetrics

TOKEN = "test-token-host"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """A service (in-process executor) with one small finished run."""
    data = tmp_path_factory.mktemp("api-host").resolve()
    app = create_app(data, token=TOKEN, allowed_hosts=("arena.example", "*.lab.example"))
    with ServedApp(app) as served, httpx.Client(base_url=served.url, timeout=30) as client:
        r = client.post("/api/runs", json=small_spec(hands=60, unit_hands=30), headers=AUTH)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        wait_for(lambda: client.get(f"/api/runs/{run_id}").json()["status"] == "finished", 60)
        yield served, client, data, run_id


# Host header --------------------------------------------------------------------------


@pytest.mark.parametrize(("header", "name"), [
    ("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:80", "::1"),
    ("example.org.", "example.org"), ("a.b:1", "a.b"), ("", None), ("a b", None),
    ("[::1", None), ("host:port", None), ("[::1]x", None), ("evil.example/x", None),
])
def test_host_name(header, name):
    assert host_name(header) == name


def test_allowed_hosts():
    hosts = allowed_hosts("10.0.0.5", ["Arena.Example", "*.lab.example", "fe80::1"])
    assert {"localhost", "127.0.0.1", "::1", "10.0.0.5", "arena.example", "fe80::1"} <= hosts
    assert "0.0.0.0" not in allowed_hosts("0.0.0.0")
    assert host_allowed("a.lab.example", hosts) and not host_allowed("lab.example.evil", hosts)
    assert not host_allowed("evil.example", hosts)
    assert host_allowed("evil.example", allowed_hosts(None, ["*"]))
    with pytest.raises(PolicyError):
        allowed_hosts(None, ["not a host"])


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "lab.example"])
def test_foreign_host_is_refused(service, host):
    _served, client, _data, _run = service
    for method, path in (("GET", "/api/runs"), ("GET", "/metrics"), ("GET", "/"),
                         ("POST", "/api/runs")):
        r = client.request(method, path, headers={"Host": host, **AUTH}, json=small_spec())
        assert r.status_code == 421, (method, path, r.text)
        assert "--allowed-host" in r.json()["error"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "arena.example",
                                  "x.lab.example:8000"])
def test_known_hosts_are_answered(service, host):
    served, client, _data, _run = service
    r = client.get("/api/health", headers={"Host": host if ":" in host.strip("[]") and
                                           "]" not in host else f"{host}:{served.port}"})
    assert r.status_code == 200, r.text


def _raw(served: ServedApp, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
        s.sendall(request)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def test_missing_or_repeated_host_is_refused(service):
    served, *_ = service
    assert _raw(served, b"GET /api/health HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 400")
    repeated = (b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n"
                b"Connection: close\r\n\r\n")
    assert _raw(served, repeated).split(b"\r\n")[0].split()[1] in (b"400", b"421")


# metrics labels -----------------------------------------------------------------------


def _token(rng: random.Random, n: int = 8) -> str:
    return "".join(rng.choice(string.ascii_uppercase) for _ in range(n))


def _random_requests(client: httpx.Client, rng: random.Random, run_id: str, n: int
                     ) -> list[str]:
    """``n`` requests with made-up methods and paths; returns the made-up words."""
    words = []
    for i in range(n):
        word = _token(rng)
        words.append(word)
        method = ["GET", "POST", "DELETE", word, "PROPFIND", word.lower()][i % 6]
        path = [f"/{word}", f"/api/{word}", f"/api/runs/{word}", f"/api/runs/{run_id}/{word}",
                f"/docs-assets/{word}.js", f"/api/runs/{run_id}"][rng.randrange(6)]
        client.request(method, path, headers=AUTH)
    return words


def _series(text: str) -> set[str]:
    """The HTTP series of an exposition: name and labels, without the value."""
    return {ln[:ln.rindex("}") + 1] for ln in text.splitlines()
            if ln.startswith("pokerarena_http") and "{" in ln}


def test_random_methods_and_paths_leave_label_sets_fixed(service):
    _served, client, _data, run_id = service
    rng = random.Random(12)
    # every kind of request once, so that the series it creates exist before the count
    for _ in range(3):
        _random_requests(client, rng, run_id, 36)
    client.get("/metrics")
    before = client.get("/metrics").text
    words = _random_requests(client, rng, run_id, 50)
    client.get("/metrics")
    after = client.get("/metrics").text
    assert abs(len(after) - len(before)) < 400, (len(before), len(after))
    assert _series(after) == _series(before)
    for w in words:
        assert w not in after and w.lower() not in after
    assert f'method="{OTHER}"' in after
    assert run_id not in after


def test_route_labels_are_templates_or_other():
    m = ServiceMetrics()
    m.bind_routes(lambda: ["/api/runs/{run_id}", "", "/metrics"])
    for method, route in (("get", "/api/runs/{run_id}"), ("BREW", "/api/runs/abc"),
                          ("GET", "unmatched"), ("GET", "/static"), ("GET", "/x/y"),
                          ("OPTIONS", "/metrics")):
        m.observe_http(method, route, 200, 0.001)
    m.observe_http("GET", "/metrics", 999, 0.001)
    text = m.render()[0].decode()
    labels = {ln[ln.index("{") + 1:ln.rindex("}")] for ln in text.splitlines()
              if ln.startswith("pokerarena_http_requests_total{")}
    assert labels == {'method="GET",route="/api/runs/{run_id}",status="200"',
                      'method="other",route="other",status="200"',
                      'method="GET",route="unmatched",status="200"',
                      'method="GET",route="/static",status="200"',
                      'method="GET",route="other",status="200"',
                      'method="OPTIONS",route="/metrics",status="200"',
                      'method="GET",route="/metrics",status="0"'}


# no absolute paths in public answers --------------------------------------------------


def test_relative_paths():
    roots = {"/srv/data": "", "/home/u": "~/"}
    text = ('"/srv/data/runs/r1/hands" /srv/data /srv/database /home/u/v.toml '
            '"/home/u" /srv/data-2')
    assert relative_paths(text, roots) == '"runs/r1/hands" . /srv/database ~/v.toml "~" /srv/data-2'
    assert all(len(r) > 1 for r in public_path_roots("/"))


def test_public_answers_show_no_absolute_data_path(service):
    _served, client, data, run_id = service
    answers = [
        client.get("/api/runs"), client.get(f"/api/runs/{run_id}"),
        client.get(f"/api/runs/{run_id}/leaderboard"), client.get(f"/api/runs/{run_id}/charts"),
        client.get("/api/variants"), client.get("/api/bots"), client.get("/openapi.json"),
        client.get("/api/runs/no-such-run"), client.post("/api/runs/no-such/cancel", headers=AUTH),
        client.post("/api/query", json={"sql": "SELECT * FROM no_such_table"}),
        client.post("/api/query", json={"sql": f"SELECT * FROM read_parquet('{data}/runs/x/"
                                               "*.parquet')"}),
        client.post("/api/query", json={"sql": f"SELECT * FROM read_csv('{data}/.api-token')"}),
        client.post("/api/query", json={"sql": "SELECT filename FROM read_parquet('"
                                               f"{data}/runs/*/hands/*/*.parquet', "
                                               "filename = true) LIMIT 3"}),
        client.post("/api/runs", json={**small_spec(), "games": [{"variant": f"{data}/v.toml",
                                                                  "betting": "no_limit"}]},
                    headers=AUTH),
    ]
    for r in answers:
        assert r.headers["content-type"].startswith("application/json"), r.request.url
        assert str(data) not in r.text, (r.request.url, r.text[:500])
    run = client.get(f"/api/runs/{run_id}").json()
    assert run["path"] == f"runs/{run_id}"
    listing = answers[-2]
    if listing.status_code == 200:   # a glob the sandbox allows: its file names relative
        rows = listing.json()["rows"]
        assert rows and all(row[0].startswith(f"runs/{run_id}/hands/") for row in rows)
    else:                            # the sandbox refuses globs once views name files
        assert listing.status_code == 400, listing.text
