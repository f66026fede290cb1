"""Storage: atomic parts, the manifest, views that show only complete units, the schema
document."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pokerarena.platform import query as query_mod
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor
from pokerarena.platform.query import QueryError, query
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore
from pokerarena.workers import parts
from pokerarena.workers.rows import SCHEMAS

ROOT = Path(__file__).resolve().parents[2]


def small_table(values: list[int]) -> pa.Table:
    return pa.table({"x": pa.array(values, pa.int64())})


def test_part_is_renamed_into_place_and_replaced_whole(tmp_path: Path) -> None:
    parts.write_part(small_table([1, 2, 3]), tmp_path, "hands", "m00000s00000")
    final = parts.part_path(tmp_path, "hands", "m00000s00000")
    assert final.name == "part-0.parquet" and final.parent.name == "unit=m00000s00000"
    assert pq.read_table(final).column("x").to_pylist() == [1, 2, 3]
    # a retry writes the same name: the rows are replaced, never added
    parts.write_part(small_table([4, 5]), tmp_path, "hands", "m00000s00000")
    assert pq.read_table(final).column("x").to_pylist() == [4, 5]
    assert [p.name for p in final.parent.iterdir()] == ["part-0.parquet"]


def test_a_writer_dying_mid_write_leaves_the_old_part_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts.write_part(small_table([1]), tmp_path, "seats", "u")
    final = parts.part_path(tmp_path, "seats", "u")

    def half_then_die(table: pa.Table, where: Path, **kwargs) -> None:
        Path(where).write_bytes(b"PAR1 half a file")
        raise OSError("disk full")

    monkeypatch.setattr(parts.pq, "write_table", half_then_die)
    with pytest.raises(OSError, match="disk full"):
        parts.write_part(small_table([7, 8, 9]), tmp_path, "seats", "u")
    assert pq.read_table(final).column("x").to_pylist() == [1]
    assert [p.name for p in final.parent.iterdir()] == ["part-0.parquet"]


def test_temporaries_are_hidden_from_readers_and_cleaned(tmp_path: Path) -> None:
    final = parts.part_path(tmp_path, "hands", "u")
    final.parent.mkdir(parents=True)
    stale = final.parent / ".part-0.parquet.123.abcd.tmp"
    stale.write_bytes(b"garbage from a killed writer")
    _, out = query(tmp_path, "SELECT count(*) FROM hands")  # no part yet: empty view
    assert out == [(0,)]
    assert parts.remove_stale_temporaries(tmp_path) == 1 and not stale.exists()


def test_views_show_only_complete_units(tmp_path: Path) -> None:
    spec = parse_spec({"kind": "match", "seed": 1, "bots": ["call", "random"], "hands": 6,
                       "unit_hands": 3, "games": [{"variant": "omaha", "betting": "pot_limit"}]})
    driver = RunDriver.create(spec, tmp_path, LocalExecutor(), run_id="r")
    driver.run()
    _, out = query(tmp_path, "SELECT count(*) FROM hands", "r")
    assert out == [(6,)]
    # a unit whose `units` row is missing (its writer died before the end) is not shown
    parts.part_path(tmp_path / "runs" / "r", "units", "m00000s00001").unlink()
    _, out = query(tmp_path, "SELECT count(*), min(hand), max(hand) FROM hands", "r")
    assert out == [(3, 0, 2)]
    _, out = query(tmp_path, "SELECT count(*) FROM seats", "r")
    assert out == [(6,)]
    # ...and the manifest no longer counts it as done, so a resume plays it again
    assert set(RunStore(tmp_path, "r").done_units()) == {"m00000s00000"}
    final = RunDriver.resume(tmp_path, "r", LocalExecutor()).run()
    assert final.units_skipped == 1 and final.status == "finished"
    _, out = query(tmp_path, "SELECT count(*), count(DISTINCT hand) FROM hands", "r")
    assert out == [(6, 6)]


def test_manifest_ignores_a_torn_last_line(tmp_path: Path) -> None:
    spec = parse_spec({"kind": "match", "bots": ["call", "call"], "hands": 2,
                       "games": [{"variant": "holdem"}]})
    store = RunStore(tmp_path, "torn")
    store.create(spec)
    store.append({"event": "start", "units": 1, "hands": 2})
    with open(store.manifest_path, "a") as f:
        f.write('{"event": "unit", "unit": "m000')  # the driver died mid-line
    assert [e["event"] for e in store.events()] == ["start"]
    assert store.info().status == "interrupted"
    assert store.load_spec() == spec


def test_sql_errors_carry_duckdbs_message(tmp_path: Path) -> None:
    with pytest.raises(QueryError, match="Parser Error"):
        query(tmp_path, "SELECT FROM WHERE")
    with pytest.raises(QueryError, match="no run 'zz'"):
        query_mod.connect(tmp_path, "zz")


def test_schema_document_lists_every_column() -> None:
    doc = (ROOT / "docs" / "schema.md").read_text()
    for table, schema in SCHEMAS.items():
        section = re.search(rf"^## `{table}`\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
        assert section, f"docs/schema.md has no section for {table}"
        documented = set(re.findall(r"^\| `(\w+)` \|", section.group(1), re.M))
        assert documented == set(schema.names) | {"unit"}, table


def test_status_probes_never_turn_a_driver_away_but_a_driver_does(tmp_path: Path) -> None:
    import fcntl
    import os
    import threading

    from pokerarena.platform.spec import SpecError

    spec = parse_spec({"kind": "match", "bots": ["call", "call"], "hands": 2,
                       "games": [{"variant": "holdem"}]})
    store = RunStore(tmp_path, "locked")
    store.create(spec)
    assert not store.is_driven()
    # a probe holding its (shared) lock while the driver starts: the driver waits it out
    fd = os.open(store.run_dir / ".driver.lock", os.O_RDONLY | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_SH)
    threading.Timer(0.2, lambda: (fcntl.flock(fd, fcntl.LOCK_UN), os.close(fd))).start()
    with store.lock():
        assert store.is_driven()
        other = RunStore(tmp_path, "locked")
        with pytest.raises(SpecError, match="being driven by another process"), \
                other.lock(wait=0.1):
            pass
    assert not store.is_driven()
