"""A real two-node Ray cluster on this machine: work spreads to both nodes, and losing a
node mid-run loses nothing.

A head (``ray start --head`` on 127.0.0.1, one CPU) and a second node (``ray start
--address``, one CPU of its own) make a cluster where a run's two actors must sit on
different nodes. ``pokerarena run --address`` plays a tournament, and then a study,
across both; the second node's raylet and its workers are killed while they play.
The run must finish with every hand exactly once and rows identical to an undisturbed
run with the same seed (played in-process here: a unit's rows are a function of the
unit alone). Which node played a unit is read from the units' worker processes: the
second node's workers are the children of its raylet.

The cluster gets a home directory of its own (``HOME``): a ``~/.ray/auth_token`` left by
another tool would otherwise make the second node's join fail its authentication. Each
node has its own ``HOME`` and working directory besides, and none of the object store's
AWS variables: with ``--data s3://...`` (moto's real S3 server on loopback) the driver
hands those to its actors, and every part of a run played on both nodes lands in the
one bucket, none in either node's folders.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from s3_server import s3_store

REPO = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).parent / "ray"

TOURNAMENT = {"kind": "tournament", "name": "two-nodes", "seed": 11,
              "bots": ["random", "call", "maniac"], "seats": 2, "hands": 2000,
              "unit_hands": 250, "duplicate": True,
              "games": [{"variant": "holdem", "betting": ["fixed_limit"]}]}
STUDY = {"kind": "study", "name": "two-nodes-study", "seed": 5,
         "bots": ["call", "random", "call"], "hands": 1500, "unit_hands": 250,
         "games": [{"variant": "holdem", "betting": ["fixed_limit", "pot_limit"]}]}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process (from /proc)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out[int(entry.name)] = (ppid, cmd)
    return out


def _tree(roots: set[int], procs: dict[int, tuple[int, str]]) -> set[int]:
    """``roots`` and all their descendants."""
    found = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in procs.items():
            if ppid in found and pid not in found:
                found.add(pid)
                grew = True
    return found


def _kill(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


class Cluster:
    """The two nodes: ``address``, and how to find, kill and restart the second one."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.home.mkdir()
        # short: Ray's socket paths under it must fit AF_UNIX's 107 bytes
        self.temp = Path(tempfile.mkdtemp(prefix="pa2n-", dir="/tmp"))
        self.port = _free_port()
        self.node_port = _free_port()
        self.object_port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        # the cluster's own settings only: a Ray process of this test session exports
        # RAY_* variables (its address, token authentication) that must not leak in
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        self.env = {**env, "HOME": str(self.home), "RAY_USAGE_STATS_ENABLED": "0",
                    "RAY_AUTH_MODE": "disabled"}

    def node_dir(self, node: str) -> Path:
        """The node's own folder: its working directory, with its ``HOME`` inside."""
        return self.root / node

    def _ray(self, node: str, *args: str) -> None:
        where = self.node_dir(node)
        (where / "home").mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in self.env.items() if not k.startswith("AWS_")}
        env["HOME"] = str(where / "home")
        out = subprocess.run([str(RAY), "start", *args, "--node-ip-address=127.0.0.1",
                              "--disable-usage-stats"], env=env, cwd=where,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]

    def start_head(self) -> None:
        self._ray("head", "--head", f"--port={self.port}", "--num-cpus=1",
                  "--include-dashboard=false", f"--temp-dir={self.temp}")

    def start_second(self) -> None:
        self._ray("second", f"--address={self.address}", "--num-cpus=1",
                  f"--node-manager-port={self.node_port}",
                  f"--object-manager-port={self.object_port}")

    def second_raylet(self) -> int | None:
        for pid, (_, cmd) in _processes().items():
            if "raylet" in cmd and f"--node_manager_port={self.node_port}" in cmd:
                return pid
        return None

    def second_node_pids(self) -> set[int]:
        """The second node's raylet and every process under it (its workers)."""
        raylet = self.second_raylet()
        return _tree({raylet}, _processes()) if raylet else set()

    def kill_second(self) -> set[int]:
        pids = self.second_node_pids()
        _kill(pids)
        return pids

    def stop(self) -> None:
        procs = _processes()
        roots = {pid for pid, (_, cmd) in procs.items()
                 if str(self.temp) in cmd or f"--node_manager_port={self.node_port}" in cmd
                 or f"127.0.0.1:{self.port}" in cmd}
        _kill(_tree(roots, procs))
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("two-nodes"))
    try:
        c.start_head()
        c.start_second()
        yield c
    finally:
        c.stop()


def _manifest(data: Path, run_id: str) -> list[dict[str, Any]]:
    path = data / "runs" / run_id / "manifest.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _pid(event: dict[str, Any]) -> int:
    return int(str(event["worker"]).rsplit(":", 1)[1].split("@")[0])


def _rows(data: Path, run_id: str) -> dict[str, list[tuple]]:
    """Every hand and seat row of a run, without the run id, in a stable order."""
    from pokerarena.platform.query import connect

    con = connect(data, run_id)
    try:
        return {
            "hands": con.execute("SELECT * EXCLUDE (run_id) FROM hands "
                                 "ORDER BY match, hand").fetchall(),
            "seats": con.execute("SELECT * EXCLUDE (run_id) FROM seats "
                                 "ORDER BY match, hand, seat").fetchall(),
            "actions": con.execute("SELECT match, hand, count(*), sum(amount) FROM actions "
                                   "GROUP BY ALL ORDER BY 1, 2").fetchall(),
            "twice": con.execute("SELECT match, hand FROM hands GROUP BY ALL "
                                 "HAVING count(*) > 1").fetchall()}
    finally:
        con.close()


def _undisturbed(spec: dict[str, Any], data: Path, run_id: str) -> dict[str, list[tuple]]:
    from pokerarena.platform.driver import RunDriver
    from pokerarena.platform.executors import LocalExecutor
    from pokerarena.platform.spec import parse_spec

    RunDriver.create(parse_spec(spec), data, LocalExecutor(), run_id=run_id).run()
    return _rows(data, run_id)


def _run_and_kill(cluster: Cluster, spec: dict[str, Any], tmp_path: Path,
                  pokerarena_cli: list[str]) -> tuple[Path, list[dict[str, Any]], set[int]]:
    """Play ``spec`` across both nodes, kill the second node once it has finished a
    unit and is playing another; return the data dir, the manifest and the pids that
    were the second node's."""
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    data = tmp_path / "data"
    run_id = spec["name"]
    proc = subprocess.Popen([*pokerarena_cli, "run", str(path), "--address", cluster.address,
                             "--workers", "2", "--data", str(data), "--run-id", run_id,
                             "--json"], env=cluster.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    second: set[int] = set()
    killed: set[int] = set()
    deadline = time.monotonic() + 240
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            second |= cluster.second_node_pids()
            done = [e for e in _manifest(data, run_id) if e.get("event") == "unit"]
            if any(_pid(e) in second for e in done):
                killed = cluster.kill_second()
                break
            time.sleep(0.2)
        assert killed, "the second node never finished a unit (work did not spread)"
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["status"] == "finished"
    return data, _manifest(data, run_id), second | killed


def _check_run(cluster: Cluster, spec: dict[str, Any], tmp_path: Path,
               pokerarena_cli: list[str]) -> None:
    data, manifest, second = _run_and_kill(cluster, spec, tmp_path, pokerarena_cli)
    units = [e for e in manifest if e.get("event") == "unit"]
    on_second = {e["unit"] for e in units if _pid(e) in second}
    on_head = {e["unit"] for e in units if _pid(e) not in second}
    assert on_second and on_head, "work did not spread to both nodes"
    from pokerarena.platform.planner import plan
    from pokerarena.platform.spec import parse_spec

    planned = plan(parse_spec(spec)).units
    assert sorted({e["unit"] for e in units}) == sorted(u.unit_id for u in planned)
    # after the kill the head's workers play the rest, the lost units among them
    late = units[[i for i, e in enumerate(units) if _pid(e) in second][-1] + 1:]
    assert late and all(_pid(e) not in second for e in late)
    rows = _rows(data, spec["name"])
    assert len(rows["hands"]) == sum(u.hands for u in planned)
    assert rows["twice"] == [], "a hand was recorded twice"
    assert rows == _undisturbed(spec, tmp_path / "undisturbed", spec["name"])


def test_mccfr_on_two_nodes_writes_the_in_process_file(
        cluster: Cluster, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    """``solve holdem --workers 2 --address`` on a head and a second node of one CPU
    each (so the two actors sit on different nodes): the same bytes as the rounds run
    in this process with the command's own (default-calibrated) abstraction."""
    from pokerarena.solvers.holdem_abstraction import calibrate
    from pokerarena.solvers.holdem_mccfr import train_rounds, write_holdem

    root = tmp_path
    out = root / "two-nodes.json"
    argv = [*pokerarena_cli, "solve", "holdem", "--algorithm", "mccfr", "--buckets",
            "2,2,2,2", "--iterations", "1200", "--slices", "4", "--slice-iterations", "100",
            "--seed", "5", "--out", str(out), "--json"]
    if cluster.second_raylet() is None:
        cluster.start_second()
    done = subprocess.run([*argv, "--workers", "2", "--address", cluster.address],
                          env=cluster.env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    doc = json.loads(done.stdout.strip().splitlines()[-1])
    assert (doc["workers"], doc["nodes"], doc["iterations"]) == (2, 2, 1200)
    assert doc["schedule"] == {"kind": "rounds", "slices": 4, "slice_iterations": 100}
    local = train_rounds(seed=5, abstraction=calibrate((2, 2, 2, 2)), iterations=1200,
                         slices=4, slice_iterations=100)
    write_holdem(root / "local.json", local)
    assert (root / "local.json").read_bytes() == out.read_bytes()


def test_tournament_across_two_nodes_survives_losing_one(
        cluster: Cluster, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    _check_run(cluster, TOURNAMENT, tmp_path, pokerarena_cli)


def test_study_across_two_nodes_survives_losing_one(
        cluster: Cluster, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    if cluster.second_raylet() is None:
        cluster.start_second()  # the node the tournament lost joins again
    _check_run(cluster, STUDY, tmp_path, pokerarena_cli)


S3_TOURNAMENT = {**TOURNAMENT, "name": "two-nodes-s3", "hands": 1000}


def test_two_nodes_with_folders_of_their_own_land_every_part_in_one_bucket(
        cluster: Cluster, tmp_path: Path, pokerarena_cli: list[str]) -> None:
    from pokerarena.platform.planner import plan
    from pokerarena.platform.spec import parse_spec
    from pokerarena.platform.storage import RunStore, scan_parts

    if cluster.second_raylet() is None:
        cluster.start_second()
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(S3_TOURNAMENT))
    run_id = S3_TOURNAMENT["name"]
    driver_dir = tmp_path / "driver"
    driver_dir.mkdir()
    with s3_store("two-nodes") as bucket:
        uri = f"{bucket}/shared"
        aws = {k: v for k, v in os.environ.items() if k.startswith("AWS_")}
        proc = subprocess.Popen([*pokerarena_cli, "run", str(path), "--address",
                                 cluster.address, "--workers", "2", "--data", uri,
                                 "--run-id", run_id, "--json"], cwd=driver_dir,
                                env={**cluster.env, **aws}, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        second: set[int] = set()
        try:
            while proc.poll() is None:
                second |= cluster.second_node_pids()
                time.sleep(0.2)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 0, err[-3000:]
        assert json.loads(out.strip().splitlines()[-1])["status"] == "finished"
        units = [e for e in RunStore(uri, run_id).events() if e.get("event") == "unit"]
        assert {_pid(e) in second for e in units} == {True, False}, "work did not spread"
        planned = sorted(u.unit_id for u in plan(parse_spec(S3_TOURNAMENT)).units)
        landed = scan_parts(uri, run_id)
        assert landed.damaged == []
        for table in ("hands", "seats", "actions", "units"):
            assert sorted(p.rsplit("/", 2)[-2][len("unit="):] for p in landed.parts[table]) \
                == planned, table
        rows = _rows(uri, run_id)  # type: ignore[arg-type]
    for where in (cluster.node_dir("head"), cluster.node_dir("second"), driver_dir):
        assert list(where.rglob("unit=*")) == [], f"a part landed under {where}"
    assert rows["twice"] == []
    assert rows == _undisturbed(S3_TOURNAMENT, tmp_path / "local", run_id)
