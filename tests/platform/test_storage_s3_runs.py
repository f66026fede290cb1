"""Whole runs with ``--data s3://bucket/prefix`` (moto's real S3 server on loopback; the
session's Ray cluster): a tournament and a study played by Ray actors land their parts,
manifest and standings in the bucket, the run list, ``query`` and ``report`` read them
there, and the rows are those of the same runs on a local path."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from s3_server import s3_store

from pokerarena.platform.api.testing import played, table_rows
from pokerarena.platform.storage import list_runs

TOURNAMENT = {"kind": "tournament", "name": "s3-tour", "seed": 21,
              "bots": ["random", "call", "maniac"], "seats": 2, "hands": 240,
              "unit_hands": 60, "duplicate": True,
              "games": [{"variant": "holdem", "betting": ["fixed_limit"]}]}
STUDY = {"kind": "study", "name": "s3-study", "seed": 8,
         "bots": ["call", "random", "call"], "hands": 240, "unit_hands": 60,
         "games": [{"variant": "holdem", "betting": ["fixed_limit", "pot_limit"]}]}
TABLES = ("hands", "seats", "actions", "units")


@pytest.fixture(scope="module")
def bucket() -> Iterator[str]:
    with s3_store("runs") as uri:
        yield uri


def _cli(cli: list[str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    cwd.mkdir(exist_ok=True)
    out = subprocess.run([*cli, *args], cwd=cwd, capture_output=True, text=True,
                         timeout=300, env=os.environ.copy())
    assert out.returncode == 0, out.stderr[-3000:]
    return out


def _same_rows(uri: str, local: Path, run_id: str) -> None:
    for table in TABLES[:3]:
        remote = table_rows(uri, run_id, table)
        assert remote and remote == table_rows(local, run_id, table), table


def test_a_tournament_on_s3_lands_in_the_bucket_with_the_rows_of_a_local_run(
        ray_cluster: str, pokerarena_cli: list[str], bucket: str, tmp_path: Path) -> None:
    uri = f"{bucket}/tour"
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(TOURNAMENT))
    cwd = tmp_path / "cwd"
    out = _cli(pokerarena_cli, cwd, "run", str(spec), "--address", ray_cluster,
               "--workers", "2", "--data", uri, "--run-id", "t1", "--json")
    assert json.loads(out.stdout.splitlines()[-1])["status"] == "finished"
    assert not (cwd / "data").exists()  # nothing went to a local folder
    local = tmp_path / "local"
    played(local, TOURNAMENT, "t1")
    _same_rows(uri, local, "t1")
    runs = list_runs(uri)  # what `pokerarena runs --data s3://...` lists
    assert [(r.run_id, r.status, r.units_done) for r in runs] == [("t1", "finished", 12)]
    # the standings were written and put beside the parts: the query reads them there
    q = _cli(pokerarena_cli, cwd, "query", "--data", uri, "--json",
             "SELECT (SELECT count(*) FROM hands) AS hands, "
             "(SELECT count(DISTINCT worker) FROM units) AS workers, "
             "(SELECT string_agg(bot, ',' ORDER BY bot) FROM ranking) AS ranked")
    assert json.loads(q.stdout) == [{"hands": len(table_rows(local, "t1", "hands")),
                                     "workers": 2,
                                     "ranked": "call,maniac,random"}]


def test_a_study_on_s3_reads_back_and_reports(
        ray_cluster: str, pokerarena_cli: list[str], bucket: str, tmp_path: Path) -> None:
    uri = f"{bucket}/study"
    spec = tmp_path / "study.json"
    spec.write_text(json.dumps(STUDY))
    cwd = tmp_path / "cwd"
    out = _cli(pokerarena_cli, cwd, "study", str(spec), "--address", ray_cluster,
               "--workers", "2", "--data", uri)
    run_id = out.stdout.split()[-1]
    local = tmp_path / "local"
    played(local, STUDY, run_id)
    _same_rows(uri, local, run_id)
    report = _cli(pokerarena_cli, cwd, "report", run_id, "--data", uri, "--out",
                  str(tmp_path / "report"), "--no-exact")
    page = Path(report.stdout.strip())
    assert page.is_file() and run_id in page.read_text()
