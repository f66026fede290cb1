"""Runs on an object store (``s3://``, moto's real S3 server on loopback): the commit
protocol of docs/deploy.md. A part is put once under its final key; the ``units`` part
commits the unit; a reader ignores a unit without it; a retried unit writes the same
keys (its data parts with the same bytes) and leaves one copy of each row; a unit of a
cancelled drive lands nothing, even when the cancel comes while it is landing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from s3_server import s3_store

from pokerarena.platform.planner import plan
from pokerarena.platform.query import connect
from pokerarena.platform.spec import parse_spec
from pokerarena.platform.storage import RunStore, list_runs, scan_parts
from pokerarena.workers import fsys
from pokerarena.workers.fsys import LocationError, data_location
from pokerarena.workers.landing import UnitNotWanted
from pokerarena.workers.parts import land_part, part_key, stage_part
from pokerarena.workers.records import DATA_TABLES, play_unit
from pokerarena.workers.table import execute_unit
from pokerarena.workers.unit import Unit

SPEC = {"kind": "tournament", "name": "s3", "seed": 3, "bots": ["random", "call"],
        "seats": 2, "hands": 20, "unit_hands": 10,
        "games": [{"variant": "holdem", "betting": "pot_limit"}]}


@pytest.fixture(scope="module")
def bucket() -> Iterator[str]:
    with s3_store("protocol") as uri:
        yield uri


def _store(bucket: str, name: str) -> tuple[RunStore, list[Unit]]:
    store = RunStore(f"{bucket}/{name}", name)
    store.create(parse_spec(SPEC))
    return store, plan(parse_spec(SPEC), name).units


def _objects(store: RunStore) -> list[str]:
    """The run's part objects (every table), as keys below the run."""
    base = fsys.resolve(str(store.location))[1]
    return [i.path[len(base) + 1:] for i in fsys.listing(str(store.location), True)
            if i.path.endswith(".parquet")]


def test_a_location_is_a_path_a_file_uri_or_an_s3_uri() -> None:
    """``file://`` is the local path it names; ``s3://`` keeps its URI (normalized)."""
    from pathlib import Path

    assert data_location("file:///tmp/x") == Path("/tmp/x")
    assert data_location("rel/dir") == Path("rel/dir")
    assert data_location("s3://b/p/q/") == "s3://b/p/q"
    with pytest.raises(LocationError, match="unknown scheme 'gs'"):
        data_location("gs://b/p")
    with pytest.raises(LocationError, match="no bucket"):
        data_location("s3:///p")


def test_a_bucket_that_is_not_there_is_one_clear_error(bucket: str) -> None:
    from pokerarena.platform.spec import SpecError

    store = RunStore(bucket.replace("protocol", "no-such-bucket") + "/x", "r")
    with pytest.raises(SpecError, match="cannot write the run there: .*bucket"):
        store.create(parse_spec(SPEC))


def test_a_retried_unit_after_a_crash_mid_write_leaves_one_copy(bucket: str) -> None:
    store, units = _store(bucket, "retry")
    unit = units[0]
    loc = str(store.location)
    # attempt 1 dies after landing two data parts and before its commit (units part)
    tables = play_unit(unit).tables
    first = {}
    for name in DATA_TABLES[:2]:
        tmp, final, _ = stage_part(tables[name], loc, name, unit.unit_id)
        land_part(tmp, final)
        first[name] = fsys.read_bytes(str(final))
    assert scan_parts(store.data_location, "retry").parts["hands"] == []  # not committed
    assert store.reconcile() == []  # nothing to record either
    con = connect(store.data_location, "retry")
    assert con.execute("SELECT count(*) FROM hands").fetchone() == (0,)
    con.close()
    # attempt 2 plays the unit again: same keys, the data parts with the same bytes
    execute_unit(unit, loc, attempt=2)
    for name, data in first.items():
        assert fsys.read_bytes(str(part_key(loc, name, unit.unit_id))) == data
    assert sorted(_objects(store)) == sorted(
        f"{t}/unit={unit.unit_id}/part-0.parquet" for t in [*DATA_TABLES, "units"])
    con = connect(store.data_location, "retry")
    hands = con.execute("SELECT count(*), count(DISTINCT (match, hand)) FROM hands").fetchone()
    attempt = con.execute("SELECT attempt FROM units").fetchall()
    con.close()
    assert hands == (unit.hands, unit.hands)  # every hand exactly once
    assert attempt == [(2,)]
    # the driver's end-of-drive reconcile records the landed unit, once
    assert store.reconcile() == [unit.unit_id]
    assert list(store.done_units()) == [unit.unit_id]
    assert store.reconcile() == []


def test_a_cancelled_drive_lands_nothing_even_mid_landing(bucket: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    store, units = _store(bucket, "cancel")
    loc = str(store.location)
    with store.lock():
        assert store.is_driven()
        session = store.open_session()
        # a unit finishing after the cancel is not even written
        store.close_session(session)
        with pytest.raises(UnitNotWanted, match="cancelled or has ended"):
            execute_unit(replace(units[0], session=session), loc)
        assert _objects(store) == []
        # the cancel comes while a unit is landing: its data parts are put, then the
        # session closes just before its commit; the unit takes back what it put
        session = store.open_session()
        put = fsys.write_bytes

        def put_and_cancel(uri: str, data: object) -> None:
            if "/units/unit=" in uri:
                store.close_session(session)
            put(uri, data)

        monkeypatch.setattr(fsys, "write_bytes", put_and_cancel)
        with pytest.raises(UnitNotWanted, match="cancelled or has ended"):
            execute_unit(replace(units[1], session=session), loc)
        monkeypatch.setattr(fsys, "write_bytes", put)
        assert _objects(store) == []
        # an open session of a live driver lands its unit
        session = store.open_session()
        execute_unit(replace(units[1], session=session), loc)
        assert len(_objects(store)) == len(DATA_TABLES) + 1
    assert not store.is_driven()  # the heartbeat says released


def test_the_manifest_and_run_state_live_on_the_store(bucket: str) -> None:
    store, _units = _store(bucket, "state")
    store.append({"event": "start", "units": 2, "hands": 20})
    store.append_many([{"event": "retry", "unit": "x"}, {"event": "end",
                                                         "status": "finished"}])
    again = RunStore(f"{bucket}/state", "state")  # another process's view of the run
    assert [e["event"] for e in again.events()] == ["start", "retry", "end"]
    info = again.info()
    assert (info.status, info.units_total, info.retries) == ("finished", 2, 1)
    assert [i.run_id for i in list_runs(f"{bucket}/state")] == ["state"]
    with pytest.raises(Exception, match="being driven by another process"), store.lock(), \
            again.lock(wait=0.3):
        pass


SWISS = {"kind": "tournament", "format": "swiss", "rounds": 2, "name": "swiss-s3",
         "seed": 11, "bots": ["random", "call", "maniac", "rock"], "seats": 2,
         "hands": 20, "unit_hands": 20,
         "games": [{"variant": "holdem", "betting": "fixed_limit"}]}


def test_a_swiss_run_pairs_its_rounds_from_the_rows_on_the_store(
        bucket: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The schedule reads each landed unit's rows where they are (the bucket), so the
    second round is paired as on a local path; its summary is put beside the parts."""
    from pokerarena.platform.api.testing import played, table_rows

    uri = f"{bucket}/swiss"
    played(uri, SWISS, "sw")
    played(tmp_path, SWISS, "sw")
    for table in ("hands", "seats"):
        assert table_rows(uri, "sw", table) == table_rows(tmp_path, "sw", table)
    summary = fsys.read_bytes(fsys.join(uri, "runs", "sw", "tournament.json"))
    assert summary == (tmp_path / "runs" / "sw" / "tournament.json").read_bytes()
    # another machine's `pokerarena show` finds it there (not in its own local folder)
    from pokerarena.commands.runs import show_data

    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("POKERARENA_CACHE", str(elsewhere))
    shown = show_data(uri, "sw")["swiss"]
    assert shown and shown == show_data(tmp_path, "sw")["swiss"]


def test_standings_are_put_beside_the_parts(bucket: str) -> None:
    """``write_standings`` (after a run, ``leaderboard --write``, the API) puts the
    tables on the store, where every reader's views find them."""
    from pokerarena.platform.api.testing import played
    from pokerarena.platform.standings import write_standings

    uri = f"{bucket}/standings"
    played(uri, SPEC, "st")
    written = write_standings(uri, "st")
    assert fsys.exists(fsys.join(uri, "runs", "st", "standings", "ranking.parquet"))
    con = connect(uri, "st")
    ranked = con.execute("SELECT bot FROM ranking ORDER BY bot").fetchall()
    con.close()
    assert ranked == [("call",), ("random",)] and written["tables"]["ranking"] == 2


def test_a_late_unit_of_an_old_drive_keeps_a_newer_drives_landed_retry(
        bucket: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The old drive's worker puts its parts while a newer drive's retry of the same
    unit lands under the same keys; finding itself replaced, it must not delete them."""
    store, units = _store(bucket, "replaced")
    loc = str(store.location)
    with store.lock():
        old = store.open_session()
        put = fsys.write_bytes

        def put_then_resume(uri: str, data: object) -> None:
            put(uri, data)
            if "/units/unit=" in uri:  # old's commit is put: a newer drive lands the retry
                monkeypatch.setattr(fsys, "write_bytes", put)
                new = store.open_session()
                execute_unit(replace(units[0], session=new), loc)

        monkeypatch.setattr(fsys, "write_bytes", put_then_resume)
        with pytest.raises(UnitNotWanted, match="newer session"):
            execute_unit(replace(units[0], session=old), loc)
        assert len(_objects(store)) == len(DATA_TABLES) + 1  # the retry's unit stays
