"""Compaction of a run on an object store (moto's real S3 server on loopback): the
compacted files and the marker are put in the bucket, a crash mid-way loses nothing
and the next compaction finishes it, and the views read the generation there."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator

import pytest
from s3_server import s3_store
from test_compaction import RUN, SPEC, _rows

from pokerarena.platform import compacted, compaction
from pokerarena.platform.api.testing import played
from pokerarena.platform.standings import compute_standings, stored_standings
from pokerarena.platform.storage import RunStore
from pokerarena.workers import fsys, landing

SMALL = {**SPEC, "hands": 40}
UNITS = 6


@pytest.fixture(scope="module")
def bucket() -> Iterator[str]:
    with s3_store("compaction") as uri:
        yield uri


def _objects(uri: str) -> list[str]:
    run = fsys.join(uri, "runs", RUN)
    base = fsys.resolve(run)[1]
    return [i.path[len(base) + 1:] for i in fsys.listing(run, True)
            if i.path.endswith(".parquet")]


def test_a_run_on_s3_is_compacted_in_the_bucket_and_survives_a_crash(
        bucket: str, pokerarena_cli: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERARENA_COMPACT_MIN_UNITS", "100000")
    uri = f"{bucket}/one"
    played(uri, SMALL, RUN)
    rows = _rows(uri)
    assert sum("/unit=" in k for k in _objects(uri)) == 6 * UNITS
    out = subprocess.run([*pokerarena_cli, "compact", RUN, "--data", uri], capture_output=True,
                         text=True, timeout=120,
                         env={**os.environ, compaction.CRASH_ENV: "retiring"})
    assert out.returncode == compaction.CRASH_EXIT, out.stderr
    assert _rows(uri) == rows  # half retired: each hand still read once
    run = fsys.join(uri, "runs", RUN)
    beat = {"state": "driving", "time": time.time() - landing.HEARTBEAT_TTL_S - 1}
    fsys.write_bytes(fsys.join(run, landing.HEARTBEAT), json.dumps(beat).encode())
    # the killed process's heartbeat has gone stale (what 30 s of waiting gives)
    out = subprocess.run([*pokerarena_cli, "compact", RUN, "--data", uri, "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["recovered"]["retired"] > 0
    assert _rows(uri) == rows
    objects = _objects(uri)
    assert not any("/unit=" in k for k in objects)
    assert "hands/compacted/g000001-0000.parquet" in objects
    [gen] = compacted.generations(run)
    assert gen.sound and len(gen.units) == UNITS
    store = RunStore(uri, RUN)
    assert len(store.done_units()) == UNITS and store.damaged_units() == {}
    assert stored_standings(store) == json.loads(json.dumps(compute_standings(uri, RUN)))
