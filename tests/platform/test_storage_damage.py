"""A damaged part damages nothing else: the footer check, the scan the views read
through, the driver's check when a unit lands, and the replay of a damaged unit."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import LocalExecutor
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import (
    RunStore,
    check_part,
    damaged_units,
    part_path,
    readable_parts,
    scan_parts,
)
from pokerarena.workers import parts

SPEC = {"kind": "tournament", "name": "d", "seed": 5, "bots": ["random", "call"],
        "seats": 2, "hands": 24, "unit_hands": 8,
        "games": [{"variant": "holdem", "betting": "pot_limit"}]}


def local_run(data: Path, seed: int = 5) -> str:
    driver = RunDriver.create(parse_spec(dict(SPEC, seed=seed)), data, LocalExecutor())
    assert driver.run().status == "finished"
    return driver.run_id


def truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def read_all(paths: list[Path]) -> list[tuple]:
    con = duckdb.connect()
    files = "[" + ", ".join(f"'{p}'" for p in paths) + "]"
    return sorted(con.execute(f"SELECT * FROM read_parquet({files})").fetchall())


def test_footer_check(tmp_path: Path) -> None:
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"x": list(range(1000))}), good)
    assert check_part(good) is None
    empty = tmp_path / "empty.parquet"
    pq.write_table(pa.table({"x": pa.array([], pa.int64())}), empty)
    assert check_part(empty) is None
    for keep in (0.0, 0.1, 0.5, 0.99):
        bad = tmp_path / f"cut{keep}.parquet"
        bad.write_bytes(good.read_bytes()[: int(good.stat().st_size * keep)])
        assert check_part(bad) is not None, keep
    # the footer kept but data cut out of the middle: chunks lie outside the data
    raw = good.read_bytes()
    spliced = tmp_path / "spliced.parquet"
    spliced.write_bytes(raw[:4] + raw[len(raw) // 2:])
    assert check_part(spliced) is not None
    assert check_part(tmp_path / "nope.parquet") == "missing"
    link = tmp_path / "link.parquet"
    link.symlink_to(good)
    assert "link" in check_part(link)
    # the cache never hides a change to the file
    truncate(good)
    assert check_part(good) is not None


def test_a_truncated_part_is_reported_and_left_out_other_runs_unaffected(
        tmp_path: Path) -> None:
    run_a, run_b = local_run(tmp_path, 5), local_run(tmp_path, 6)
    before_b = read_all(readable_parts(tmp_path, "hands", run_b))
    unit = "m00000s00001"
    truncate(part_path(tmp_path / "runs" / run_a, "hands", unit))

    scan = scan_parts(tmp_path)
    assert [(d.run_id, d.unit, d.table) for d in scan.damaged] == [(run_a, unit, "hands")]
    assert "PAR1" in scan.damaged[0].reason
    assert scan.damaged_units() == [{"run_id": run_a, "unit": unit,
                                     "tables": {"hands": scan.damaged[0].reason}}]
    assert damaged_units(tmp_path / "runs" / run_a) == {unit: {"hands":
                                                              scan.damaged[0].reason}}
    assert damaged_units(tmp_path / "runs" / run_b) == {}
    # the whole unit is left out, of every table (never half a unit)
    for table in ("hands", "seats", "actions", "faults", "units"):
        units = {p.parent.name for p in scan.parts[table] if run_a in str(p)}
        assert units == {"unit=m00000s00000", "unit=m00000s00002"}, table
    # everything readable reads; the glob over the damaged run does not
    assert len(read_all(scan.parts["seats"])) == 2 * (24 + 16)
    assert read_all(readable_parts(tmp_path, "hands", run_b)) == before_b
    with pytest.raises(duckdb.Error):
        duckdb.connect().execute(
            f"SELECT count(*) FROM read_parquet('{tmp_path}/runs/*/hands/*/*.parquet')"
        ).fetchall()


def test_a_damaged_unit_is_marked_and_played_again_on_resume(tmp_path: Path) -> None:
    run = local_run(tmp_path)
    store = RunStore(tmp_path, run)
    unit = "m00000s00002"
    path = part_path(store.run_dir, "seats", unit)
    original = pq.read_table(path)
    truncate(path, 0.7)
    resumed = RunDriver.resume(tmp_path, run, LocalExecutor())
    progress = resumed.run()
    assert progress.status == "finished" and resumed.damaged == [unit]
    assert progress.units_skipped == 2  # the two sound units were not played again
    events = store.events()
    assert [e["unit"] for e in events if e["event"] == "damaged"] == [unit]
    assert events[-3]["event"] == "start" and events[-3]["damaged"] == [unit]
    assert check_part(path) is None and pq.read_table(path).equals(original)  # same seed
    info = store.info()
    assert (info.units_done, info.hands_done, info.damaged) == (3, 24, [])
    assert scan_parts(tmp_path).damaged == []


def test_the_record_of_a_damaged_unit_says_so_until_it_is_replayed(tmp_path: Path) -> None:
    run = local_run(tmp_path)
    store = RunStore(tmp_path, run)
    truncate(part_path(store.run_dir, "units", "m00000s00000"))
    marked = store.mark_damaged(store.damaged_units())
    assert marked == ["m00000s00000"]
    info = store.info()
    assert info.damaged == ["m00000s00000"] and info.units_done == 2
    assert info.as_dict()["damaged"] == ["m00000s00000"]
    assert "m00000s00000" not in store.done_units()
    assert store.mark_damaged(store.damaged_units()) == []  # recorded once


def test_a_part_damaged_when_it_lands_is_retried(tmp_path: Path) -> None:
    class Damaging(LocalExecutor):
        damaged = 0

        def wait(self, timeout: float):
            out = super().wait(timeout)
            for _ticket, result, _failure in out:
                if result and result["unit_id"] == "m00000s00001" and not self.damaged:
                    self.damaged += 1
                    truncate(part_path(self._run_dir, "actions", result["unit_id"]))
            return out

        def submit(self, unit, run_dir, attempt):
            self._run_dir = run_dir
            return super().submit(unit, run_dir, attempt)

    ex = Damaging()
    driver = RunDriver.create(parse_spec(SPEC), tmp_path, ex)
    assert driver.run().status == "finished" and ex.damaged == 1
    events = RunStore(tmp_path, driver.run_id).events()
    retries = [e for e in events if e["event"] == "retry"]
    assert len(retries) == 1 and "damaged part actions/unit=m00000s00001" in retries[0]["error"]
    assert scan_parts(tmp_path).damaged == []
    assert len(readable_parts(tmp_path, "units")) == 3


def test_the_writer_checks_each_part_before_it_lands(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    real = parts.pq.write_table

    def short_write(table, where, **kwargs):
        real(table, where, **kwargs)
        truncate(Path(where), 0.8)

    monkeypatch.setattr(parts.pq, "write_table", short_write)
    with pytest.raises(parts.DamagedPart, match="just written"):
        parts.write_part(pa.table({"x": [1, 2, 3]}), tmp_path, "hands", "u")
    assert list(part_path(tmp_path, "hands", "u").parent.iterdir()) == []
