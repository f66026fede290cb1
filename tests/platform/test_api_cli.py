"""``pokerarena serve`` as a user runs it: a subprocess joining the shared Ray cluster,
printing a generated token on first start, serving on loopback, stopping cleanly."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess

import httpx

from pokerarena.platform.api.testing import small_spec, wait_for


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_prints_a_token_and_plays_runs_on_ray(pokerarena_cli, ray_cluster, tmp_path):
    port = _free_port()
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items()
           if k not in ("POKERARENA_API_TOKEN", "POKERARENA_API_TOKEN_FILE", "RAY_ADDRESS")}
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [*pokerarena_cli, "serve", "--port", str(port), "--data", str(data),
             "--address", ray_cluster, "--workers", "1"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            if proc.poll() is not None:
                raise AssertionError("serve exited:\n" + log_path.read_text())
            try:
                return httpx.get(base + "/api/health", timeout=2).status_code == 200
            except httpx.TransportError:
                return False

        wait_for(up, 120, what="pokerarena serve listening")
        text = log_path.read_text()
        m = re.search(r"generated an API token \(saved in (.+?)\):\n\s+(\S+)", text)
        assert m, text
        assert m.group(1) == str(data / ".api-token")
        token = m.group(2)
        assert (data / ".api-token").read_text().strip() == token
        r = httpx.post(base + "/api/runs", json=small_spec(hands=100, unit_hands=50),
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert r.status_code == 201, r.text
        run_id = r.json()["run_id"]
        try:
            run = wait_for(lambda: (x := httpx.get(f"{base}/api/runs/{run_id}").json())[
                "status"] == "finished" and x, 300, what="run finished")
        except AssertionError:
            raise AssertionError(f"{httpx.get(f'{base}/api/runs/{run_id}').json()}\n"
                                 + log_path.read_text()) from None
        assert run["hands_done"] == 100
        assert "pokerarena_units_done_total 2.0" in httpx.get(base + "/metrics").text
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, log_path.read_text()


def test_serve_rejects_bad_arguments(pokerarena_cli, tmp_path):
    r = subprocess.run([*pokerarena_cli, "serve", "--port", "0", "--data", str(tmp_path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--port" in r.stderr and "Traceback" not in r.stderr
    for flag in ("--query-workers", "--query-memory-mb"):
        r = subprocess.run([*pokerarena_cli, "serve", flag, "0", "--data", str(tmp_path),
                            "--local"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and flag in r.stderr and "Traceback" not in r.stderr
