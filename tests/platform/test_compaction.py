"""Compaction (issue 29): a run's unit parts become a few large files per table, under
the commit protocol of issue 16, read by the same views; a crash at each step of it
loses no hand and shows none twice; damage of a compacted file is found and played
again; a finished run's standings are read from what it stored."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pokerarena.platform import compacted, compaction
from pokerarena.platform.api.testing import played, table_rows
from pokerarena.platform.driver import RunDriver
from pokerarena.platform.executors import RayExecutor
from pokerarena.platform.query import query
from pokerarena.platform.standings import compute_standings, stored_standings
from pokerarena.platform.storage import RunStore, read_part

SPEC = {"kind": "tournament", "name": "cmp", "seed": 29, "bots": ["random", "call", "maniac"],
        "seats": 2, "hands": 120, "unit_hands": 20, "duplicate": True,
        "games": [{"variant": "holdem", "betting": ["fixed_limit"]}]}
RUN = "c1"
TABLES = ("hands", "seats", "actions", "units")
UNITS = 18


@pytest.fixture(scope="module")
def base(ray_cluster: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Path, dict[str, list[tuple]]]]:
    """One run played on Ray and left uncompacted, with its rows (each test copies it)."""
    data = tmp_path_factory.mktemp("compaction") / "data"
    saved = os.environ.get("POKERARENA_COMPACT_MIN_UNITS")
    os.environ["POKERARENA_COMPACT_MIN_UNITS"] = "100000"
    try:
        played(data, SPEC, RUN, executor=RayExecutor(2))
    finally:
        if saved is None:
            os.environ.pop("POKERARENA_COMPACT_MIN_UNITS")
        else:
            os.environ["POKERARENA_COMPACT_MIN_UNITS"] = saved
    yield data, _rows(data)


@pytest.fixture
def run(base: tuple[Path, dict[str, list[tuple]]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, list[tuple]]]:
    monkeypatch.setenv("POKERARENA_COMPACT_MIN_UNITS", "100000")
    data = tmp_path / "data"
    shutil.copytree(base[0], data)
    return data, base[1]


def _cli(cli: list[str], *args: str, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess:
    return subprocess.run([*cli, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


UNIT_COLUMNS = "unit, match, shard, hands, first_hand, seed, rows_hands, rows_actions"


def _rows(data: Path | str) -> dict[str, list[tuple]]:
    """Each table's rows (of ``units`` the columns a replay does not change)."""
    out = {t: table_rows(data, RUN, t) for t in TABLES if t != "units"}
    out["units"] = query(data, f"SELECT {UNIT_COLUMNS} FROM units ORDER BY ALL", RUN)[1]
    return out


def _exactly_once(data: Path | str, rows: dict[str, list[tuple]]) -> None:
    """Every row of the run, each once (the rows of the run as played)."""
    assert _rows(data) == rows
    _, [(n, distinct)] = query(data, "SELECT count(*), count(DISTINCT (match, hand)) "
                                     "FROM hands", RUN)
    assert n == distinct == len(rows["hands"])


def _parts(data: Path) -> list[Path]:
    return sorted((data / "runs" / RUN).glob("*/unit=*/*"))


def test_compact_writes_few_sorted_files_with_every_row(
        run: tuple[Path, dict[str, list[tuple]]], pokerarena_cli: list[str]) -> None:
    data, rows = run
    assert len(_parts(data)) == 6 * UNITS
    store = RunStore(data, RUN)
    unit = store.landed_units()[3]
    seats = read_part(store.location, "seats", unit)
    out = _cli(pokerarena_cli, "compact", RUN, "--data", str(data), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["generation"] == 1 and summary["units"] == UNITS
    assert summary["files_before"]["hands"] == UNITS
    assert all(n <= 1 for n in summary["files_after"].values())
    assert _parts(data) == []  # every unit part retired
    _exactly_once(data, rows)
    hands = pq.ParquetFile(next((data / "runs" / RUN / "hands" / "compacted").glob("*.parquet")))
    t = hands.read(columns=["unit", "match", "hand"]).to_pylist()
    assert t == sorted(t, key=lambda r: (r["unit"], r["match"], r["hand"]))
    assert hands.metadata.num_row_groups == 1  # 360 rows: one group (<= ROW_GROUP_ROWS)
    assert read_part(store.location, "seats", unit) == seats  # a stage's read of a unit
    assert len(store.done_units()) == UNITS and store.damaged_units() == {}
    again = _cli(pokerarena_cli, "compact", RUN, "--data", str(data), "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["generation"] is None
    assert stored_standings(store) == json.loads(json.dumps(compute_standings(data, RUN)))


@pytest.mark.parametrize("step", compaction.STEPS)
def test_a_crash_at_each_step_loses_nothing_and_is_finished_next_time(
        run: tuple[Path, dict[str, list[tuple]]], pokerarena_cli: list[str],
        step: str) -> None:
    data, rows = run
    out = _cli(pokerarena_cli, "compact", RUN, "--data", str(data),
               env={compaction.CRASH_ENV: step})
    assert out.returncode == compaction.CRASH_EXIT, out.stderr
    _exactly_once(data, rows)  # at the moment of the crash
    committed = compacted.generations(data / "runs" / RUN)
    assert len(committed) == (1 if step in ("committed", "retiring", "retired") else 0)
    if step == "retiring":  # the next drive of the run finishes it
        RunDriver.resume(data, RUN, RayExecutor(2)).run()
    else:
        summary = compaction.compact(data, RUN)
        assert summary["generation"] == (None if committed else 1)
    _exactly_once(data, rows)
    assert _parts(data) == []
    run_dir = data / "runs" / RUN
    left = sorted(str(p.relative_to(run_dir)) for p in run_dir.glob("*/compacted/*"))
    [gen] = compacted.generations(run_dir)
    assert gen.sound and left == sorted(f"{t}/compacted/{e['file']}"
                                        for t, v in gen.files.items() for e in v)
    assert "hands/compacted/g000001-0000.parquet" in left  # and no temporaries


def test_units_landing_after_compaction_are_read_beside_it_and_compacted_next(
        run: tuple[Path, dict[str, list[tuple]]]) -> None:
    data, rows = run
    run_dir = data / "runs" / RUN
    late = sorted(p.name for p in (run_dir / "units").glob("unit=*"))[-3:]
    for folder in run_dir.glob("*/unit=*"):
        if folder.name in late:  # not landed yet: the resume plays them
            shutil.rmtree(folder)
    assert compaction.compact(data, RUN)["units"] == UNITS - 3
    RunDriver.resume(data, RUN, RayExecutor(2)).run()
    assert len(_parts(data)) == 3 * 6  # three units landed beside the generation
    _exactly_once(data, rows)
    assert compaction.compact(data, RUN)["generation"] == 2
    _exactly_once(data, rows)
    assert compaction.file_counts(run_dir)["hands"] == 2 and _parts(data) == []


def test_a_damaged_compacted_file_is_found_and_its_units_played_again(
        run: tuple[Path, dict[str, list[tuple]]], pokerarena_cli: list[str]) -> None:
    data, rows = run
    compaction.compact(data, RUN)
    run_dir = data / "runs" / RUN
    [packed] = (run_dir / "seats" / "compacted").glob("*.parquet")
    packed.write_bytes(packed.read_bytes()[:-100])  # truncated
    store = RunStore(data, RUN)
    damaged = store.damaged_units()
    assert len(damaged) == UNITS
    assert all("compacted file" in why for d in damaged.values() for why in d.values())
    _, [(n,)] = query(data, "SELECT count(*) FROM hands", RUN)
    assert n == 0  # its units are left out, and said to be, never read half
    out = _cli(pokerarena_cli, "compact", RUN, "--data", str(data))
    assert out.returncode == 2 and "damaged" in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    RunDriver.resume(data, RUN, RayExecutor(2)).run()  # plays them again from their seeds
    _exactly_once(data, rows)
    assert compaction.compact(data, RUN)["generation"] == 2
    _exactly_once(data, rows)
    assert [g.number for g in compacted.generations(run_dir)] == [2]  # the damaged one went
    assert store.damaged_units() == {}


def test_bad_input_is_one_clear_error_and_nothing_changes(
        run: tuple[Path, dict[str, list[tuple]]], pokerarena_cli: list[str]) -> None:
    data, rows = run
    out = _cli(pokerarena_cli, "compact", "nope", "--data", str(data))
    assert out.returncode == 2 and "no run 'nope'" in out.stderr and "Traceback" not in out.stderr
    store = RunStore(data, RUN)
    with store.lock():  # a driver holds the run
        out = _cli(pokerarena_cli, "compact", RUN, "--data", str(data))
    assert out.returncode == 2 and "still running" in out.stderr, out.stderr
    part = sorted((data / "runs" / RUN / "hands").glob("unit=*/part-0.parquet"))[0]
    part.write_bytes(part.read_bytes()[:50])
    out = _cli(pokerarena_cli, "compact", RUN, "--data", str(data))
    assert out.returncode == 2 and "damaged unit" in out.stderr, out.stderr
    assert len(_parts(data)) == 6 * UNITS and compacted.generations(data / "runs" / RUN) == []


def test_a_finished_run_compacts_itself_and_its_leaderboard_reads_what_it_stored(
        ray_cluster: str, tmp_path: Path, pokerarena_cli: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("POKERARENA_COMPACT_MIN_UNITS", "4")
    data = tmp_path / "data"
    driver = played(data, SPEC, RUN, executor=RayExecutor(2))
    assert driver.compaction is not None and driver.compaction["standings"] is True
    assert _parts(data) == []
    store = RunStore(data, RUN)
    assert [e["event"] for e in store.events()][-2:] == ["end", "compacted"]
    computed = json.loads(json.dumps(compute_standings(data, RUN)))
    assert stored_standings(store) == computed
    out = _cli(pokerarena_cli, "leaderboard", RUN, "--data", str(data), "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == computed
    # the stored standings say which rows they are of: other rows, no stored standings
    summary = data / "runs" / RUN / "standings" / "summary.json"
    doc = json.loads(summary.read_text())
    doc["standings"]["bots"][0]["hands"] = -1
    summary.write_text(json.dumps(doc))
    assert stored_standings(store)["bots"][0]["hands"] == -1  # read, not recomputed
    [packed] = (data / "runs" / RUN / "hands" / "compacted").glob("*.parquet")
    packed.write_bytes(b"PAR1" + packed.read_bytes()[4:-8] + b"XXXXXXXX")  # damaged
    assert stored_standings(store) is None


def test_a_run_without_stored_standings_keeps_those_its_first_leaderboard_computed(
        run: tuple[Path, dict[str, list[tuple]]]) -> None:
    """A run that stored no standings at its end (too few units to compact, or a study):
    the first leaderboard computes them from every hand and keeps them, keyed by the
    rows, so the next one reads them; a unit landing later makes them stale."""
    from pokerarena.platform.standings import run_standings

    data, _ = run
    store = RunStore(data, RUN)
    assert stored_standings(store) is None
    first = json.loads(json.dumps(run_standings(data, RUN)))
    assert first == json.loads(json.dumps(compute_standings(data, RUN)))
    assert stored_standings(store) == first
    summary = data / "runs" / RUN / "standings" / "summary.json"
    doc = json.loads(summary.read_text())
    doc["standings"]["bots"][0]["hands"] = -1
    summary.write_text(json.dumps(doc))
    assert run_standings(data, RUN)["bots"][0]["hands"] == -1  # read back, not recomputed
    doc["key"] = "rows that are not these"
    summary.write_text(json.dumps(doc))
    assert run_standings(data, RUN) == first
