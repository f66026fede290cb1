"""Compaction: a run's unit parts become a few large files per table.

A query's time grows with the number of files it opens, not with its rows (issue 29:
100,000 hands in 1,000 units are 6,000 files). :func:`compact` rewrites the parts of
every unit no compaction covers yet into a new *generation*: per table, files of at
most :data:`FILE_ROWS` rows in row groups of :data:`ROW_GROUP_ROWS` (what DuckDB scans
in parallel), sorted by unit and hand, with ``unit`` as a column. It runs when a
driven run finishes (past :data:`MIN_UNITS` loose units) and on demand (``pokerarena
compact RUN``), on a local path or an object store, holding the run's driver lock (a
run being driven is refused).

The commit protocol is issue 16's (write under a temporary name, check, then put in
place), in steps a crash may stop between:

1. each file is written to a temporary name, its footer checked and its rows counted
   against the parts', then renamed (on a store: uploaded, whole or not at all) to
   ``<table>/compacted/g<gen>-<n>.parquet``; no reader reads it yet;
2. the marker ``compaction/g<gen>.json`` (units covered, files, rows) is put in one
   rename or PUT: the commit. From here readers read the generation's files and
   ignore the covered units' parts (:mod:`~pokerarena.platform.compacted`);
3. the covered units' parts are deleted (retired), and a ``compacted`` event recorded.

:func:`recover` (at the start of every compaction and every drive) finishes or undoes a
compaction that died: temporaries and files no marker names are deleted (undone before
the commit), parts of units a sound generation covers are deleted (finished after it),
and a damaged generation whose units are all covered by a later one is retired. A crash
at any point loses no hand and shows none twice. Tests kill the process at each step
(:data:`CRASH_ENV`).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pokerarena.errors import UserError
from pokerarena.platform import compacted
from pokerarena.platform.compacted import COMPACTED_DIR, MARKER_DIR, UNIT_COLUMN
from pokerarena.platform.run_kinds import traits
from pokerarena.platform.spec import SpecError
from pokerarena.platform.storage import TABLES, UNIT_DIR_PREFIX, RunStore, scan_parts
from pokerarena.workers import fsys
from pokerarena.workers.parts import COMPRESSION, PART_NAME, check_part

ROW_GROUP_ROWS = 262_144
"""Rows per row group: big enough that DuckDB's per-group overhead vanishes, small
enough that a few cores each get groups of one table to scan."""
FILE_ROWS = 32 * ROW_GROUP_ROWS
"""Rows per compacted file: a table of 10^7 hands' actions is tens of files, not
tens of thousands."""
MIN_UNITS = 32
"""A finished run compacts itself when at least this many units are loose
(``$POKERARENA_COMPACT_MIN_UNITS`` overrides): fewer parts cost a query nothing."""
CRASH_ENV = "POKERARENA_COMPACT_CRASH"
"""Tests only: the step (:data:`STEPS`) at which the process exits at once."""
STEPS = ("written", "files", "committed", "retiring", "retired")
CRASH_EXIT = 70
SORT_KEYS = (UNIT_COLUMN, "match", "hand")
THREADS = 8
"""Threads reading parts and deleting them: each mostly waits on the disk or the store."""


class CompactionError(UserError):
    """A run that cannot be compacted now (unknown, being driven, damaged)."""


def _step(name: str) -> None:
    """The crash point of the tests (:data:`CRASH_ENV`): exit here, with nothing
    flushed or cleaned, as a killed process would."""
    if os.environ.get(CRASH_ENV) == name:
        os._exit(CRASH_EXIT)


# files -----------------------------------------------------------------------------


def _compacted_files(run: str | Path, table: str) -> list[tuple[str, str | Path]]:
    """``(name, path)`` of what lies in ``<table>/compacted/`` (temporaries too)."""
    if fsys.is_uri(run):
        folder = fsys.join(str(run), table, COMPACTED_DIR)
        return [(i.base_name, fsys.uri_of(folder, i.path)) for i in fsys.listing(folder)
                if i.type == pafs.FileType.File]
    local = Path(run) / table / COMPACTED_DIR
    if local.is_symlink() or not local.is_dir():
        return []
    return [(p.name, p) for p in sorted(local.iterdir())]


def _delete(path: str | Path) -> None:
    if fsys.is_uri(path):
        fsys.delete(str(path))
    else:
        Path(path).unlink(missing_ok=True)


def _table_folders(run: str | Path) -> list[str]:
    """The run's table folders (the tables it has)."""
    if fsys.is_uri(run):
        names = set(fsys.child_names(str(run)))
    else:
        names = {p.name for p in Path(run).iterdir()
                 if p.is_dir() and not p.is_symlink()} if Path(run).is_dir() else set()
    return [t for t in TABLES if t in names]


def _unit_parts(run: str | Path) -> dict[str, list[str | Path]]:
    """Every unit's part files on disk, by unit (all tables), sound or not."""
    out: dict[str, list[str | Path]] = {}
    if fsys.is_uri(run):
        base = fsys.resolve(str(run))[1]
        for item in fsys.listing(str(run), recursive=True):
            rel = item.path[len(base) + 1:].split("/")
            if (len(rel) == 3 and rel[0] in TABLES and rel[1].startswith(UNIT_DIR_PREFIX)
                    and item.type == pafs.FileType.File):
                out.setdefault(rel[1][len(UNIT_DIR_PREFIX):], []).append(
                    fsys.uri_of(str(run), item.path))
        return out
    for table in _table_folders(run):
        for udir in sorted((Path(run) / table).glob(f"{UNIT_DIR_PREFIX}*")):
            if udir.is_dir() and not udir.is_symlink():
                out.setdefault(udir.name[len(UNIT_DIR_PREFIX):], []).extend(
                    sorted(udir.iterdir()))
    return out


def _retire(paths: list[str | Path]) -> None:
    """Delete a unit's part files (and their emptied folders)."""
    for path in paths:
        _delete(path)
        if not fsys.is_uri(path):
            with contextlib.suppress(OSError):
                Path(path).parent.rmdir()


def _retire_unit(paths: list[str | Path]) -> None:
    """Retire one unit's parts, its ``units`` part (its commit) last."""
    _retire(sorted(paths, key=lambda p: "/units/" in str(p)))


# recovery --------------------------------------------------------------------------


def recover(store: RunStore) -> dict[str, int]:
    """Finish or undo a compaction that died (see the module docstring); returns what
    was done: ``{"orphans": files deleted, "retired": units' parts deleted,
    "generations": damaged generations retired}``. Call holding the run's lock."""
    run = store.location
    gens = compacted.generations(run)
    named = {(t, e["file"]) for g in gens for t, entries in g.files.items() for e in entries}
    orphans = 0
    for table in _table_folders(run):
        for name, path in _compacted_files(run, table):
            if (table, name) not in named:
                _delete(path)
                orphans += 1
    covered: set[str] = set()
    for g in gens:
        if g.sound and not g.units & covered:
            covered |= g.units
    todo = [paths for unit, paths in sorted(_unit_parts(run).items()) if unit in covered]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(_retire_unit, todo))
    retired = len(todo)
    superseded = 0
    for g in gens:
        if not g.sound and g.units <= covered:
            _delete(g.marker)
            for t, entries in g.files.items():
                for e in entries:
                    _delete(compacted.run_key(run, t, COMPACTED_DIR, e["file"]))
            superseded += 1
    return {"orphans": orphans, "retired": retired, "generations": superseded}


# writing ---------------------------------------------------------------------------


class _Sink:
    """One table's output: files of at most :data:`FILE_ROWS` rows, written under
    temporary local names, each checked and put in place when full."""

    def __init__(self, store: RunStore, table: str, number: int, schema: pa.Schema,
                 scratch: Path) -> None:
        self.store, self.table, self.number, self.schema = store, table, number, schema
        self.scratch = scratch
        self.files: list[dict[str, Any]] = []
        self.staged: list[tuple[Path, str, int]] = []
        self._writer: pq.ParquetWriter | None = None
        self._tmp: Path | None = None
        self._rows = 0
        self._pending: list[pa.Table] = []
        self._pending_rows = 0

    def _folder(self) -> Path:
        if self.store.remote:
            return self.scratch
        folder = Path(self.store.location) / self.table / COMPACTED_DIR
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def write(self, t: pa.Table) -> None:
        self._pending.append(t)
        self._pending_rows += t.num_rows
        while self._pending_rows >= ROW_GROUP_ROWS:
            self._flush_group(ROW_GROUP_ROWS)

    def _flush_group(self, rows: int) -> None:
        whole = pa.concat_tables(self._pending)
        group, rest = whole.slice(0, rows), whole.slice(rows)
        self._pending = [rest] if rest.num_rows else []
        self._pending_rows = rest.num_rows
        if self._writer is None:
            name = compacted.file_name(self.number, len(self.files) + len(self.staged))
            self._tmp = self._folder() / f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            self._writer = pq.ParquetWriter(self._tmp, self.schema, compression=COMPRESSION)
            self._name = name
        self._writer.write_table(group, row_group_size=ROW_GROUP_ROWS)
        self._rows += group.num_rows
        if self._rows >= FILE_ROWS:
            self._close_file()

    def _close_file(self) -> None:
        if self._writer is None or self._tmp is None:
            return
        self._writer.close()
        self._writer = None
        problem = check_part(self._tmp)
        rows = pq.read_metadata(self._tmp).num_rows if problem is None else -1
        if problem is None and rows != self._rows:
            problem = f"holds {rows} rows, {self._rows} were written"
        if problem is not None:
            raise OSError(f"{self.table}: the compacted file just written {problem}")
        self.staged.append((self._tmp, self._name, self._rows))
        self._tmp, self._rows = None, 0

    def finish(self) -> None:
        if self._pending_rows:
            self._flush_group(self._pending_rows)
        self._close_file()

    def put_in_place(self) -> None:
        """Rename (or upload) each checked file to its final name (step 1's end)."""
        for tmp, name, rows in self.staged:
            final = compacted.run_key(self.store.location, self.table, COMPACTED_DIR, name)
            if isinstance(final, str):
                fs, key = fsys.resolve(final)
                with open(tmp, "rb") as src, fs.open_output_stream(key) as dst:
                    shutil.copyfileobj(src, dst, 8 * 1024 * 1024)
                tmp.unlink()
                problem = check_part(final)
                if problem is not None:
                    raise OSError(f"{final}: the uploaded compacted file {problem}")
            else:
                os.replace(tmp, final)
            self.files.append({"file": name, "rows": rows})
        self.staged = []

    def drop(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        for tmp in [self._tmp, *(s[0] for s in self.staged)]:
            if tmp is not None:
                tmp.unlink(missing_ok=True)


def _read(path: str | Path) -> pa.Table:
    if isinstance(path, str):
        fs, key = fsys.resolve(path)
        return pq.read_table(key, filesystem=fs)
    return pq.read_table(path)


def _schema(path: str | Path) -> pa.Schema:
    if isinstance(path, str):
        fs, key = fsys.resolve(path)
        with fs.open_input_file(key) as f:
            return pq.read_schema(f)
    return pq.read_schema(path)


def _conform(t: pa.Table, unit: str, schema: pa.Schema) -> pa.Table:
    """A part's rows in the generation's schema: missing columns null, ``unit`` added."""
    t = t.append_column(UNIT_COLUMN, pa.array([unit] * t.num_rows, pa.string()))
    cols = [t.column(f.name).cast(f.type) if f.name in t.column_names
            else pa.nulls(t.num_rows, f.type) for f in schema]
    return pa.Table.from_arrays(cols, schema=schema)


def _compact_table(sink: _Sink, parts: list[tuple[str, str | Path]], pool: ThreadPoolExecutor,
                   batch: int = 64) -> int:
    """Stream ``parts`` (sorted by unit) into ``sink``; returns the rows written."""
    rows = 0
    keys = [k for k in SORT_KEYS if k in sink.schema.names]
    for i in range(0, len(parts), batch):
        chunk = parts[i:i + batch]
        tables = list(pool.map(lambda up: _conform(_read(up[1]), up[0], sink.schema), chunk))
        t = pa.concat_tables(tables)
        t = t.sort_by([(k, "ascending") for k in keys])  # a stable sort
        rows += t.num_rows
        sink.write(t)
    sink.finish()
    return rows


def _part_rows(paths: list[str | Path], pool: ThreadPoolExecutor) -> int:
    def rows(p: str | Path) -> int:
        return compacted.file_rows(p)
    return sum(pool.map(rows, paths))


def _write_marker(store: RunStore, number: int, doc: dict[str, Any]) -> None:
    data = (json.dumps(doc, sort_keys=True, indent=1) + "\n").encode()
    key = compacted.run_key(store.location, MARKER_DIR, compacted.marker_name(number))
    if isinstance(key, str):
        fsys.write_bytes(key, data)
        return
    key.parent.mkdir(exist_ok=True)
    tmp = key.parent / f".{key.name}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, key)
    fd = os.open(key.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def file_counts(run: str | Path) -> dict[str, int]:
    """Parquet files per table a reader of the run opens (parts and compacted)."""
    out = {t: 0 for t in _table_folders(run)}
    for unit_paths in _unit_parts(run).values():
        for p in unit_paths:
            name = str(p).rsplit("/", 2)
            if name[-1] == PART_NAME and name[-3].rsplit("/", 1)[-1] in out:
                out[name[-3].rsplit("/", 1)[-1]] += 1
    for g in compacted.generations(run, check=False):
        for t, entries in g.files.items():
            out[t] = out.get(t, 0) + len(entries)
    return out


@contextmanager
def _held(store: RunStore, held: bool) -> Iterator[None]:
    if held:
        yield
        return
    try:
        with store.lock(wait=0.5):
            yield
    except SpecError:
        raise CompactionError(f"run {store.run_id} is still running (a driver holds it): "
                              "it is compacted when it finishes") from None


def compact(data: str | Path, run_id: str, *, held: bool = False) -> dict[str, Any]:
    """Compact run ``run_id``'s loose units into a new generation (see the module
    docstring); returns a summary. ``held``: the caller holds the run's lock (the
    driver at the end of a run). Raises :class:`CompactionError` for an unknown run,
    one being driven, or one with damaged units (resume it first: they are played
    again); nothing is changed then."""
    try:
        store = RunStore(data, run_id)
    except SpecError as exc:
        raise CompactionError(str(exc)) from None
    if not store.exists():
        raise CompactionError(f"no run {run_id!r} under {store.data_location}")
    t0 = time.perf_counter()
    with _held(store, held):
        before = file_counts(store.location)
        recovered = recover(store)
        scan = scan_parts(store.data_location, run_id)
        if scan.damaged:
            bad = scan.damaged_units()
            raise CompactionError(
                f"run {run_id} has {len(bad)} damaged unit(s) ("
                + ", ".join(f"{u['unit']}: " + "; ".join(f"{t} {why}" for t, why in
                                                        sorted(u["tables"].items()))
                            for u in bad[:3])
                + (", ..." if len(bad) > 3 else "")
                + f"): play them again with `pokerarena run --resume {run_id}`, then compact")
        loose: dict[str, list[tuple[str, str | Path]]] = {}
        for table, paths in scan.parts.items():
            for p in paths:
                folder = str(p).rsplit("/", 2)[-2]
                if folder.startswith(UNIT_DIR_PREFIX):
                    loose.setdefault(table, []).append((folder[len(UNIT_DIR_PREFIX):], p))
        units = sorted({u for u, _ in loose.get("units", [])})
        gens = compacted.generations(store.location, check=False)
        summary: dict[str, Any] = {"run_id": run_id, "recovered": recovered,
                                   "files_before": before, "units": len(units),
                                   "generation": None}
        if not units:
            summary.update(files_after=before, seconds=round(time.perf_counter() - t0, 3))
            return summary
        number = max((g.number for g in gens), default=0) + 1
        files, rows = _write_generation(store, number, loose, units)
        doc = {"generation": number, "run_id": run_id, "created": time.time(),
               "units": units, "tables": files}
        _write_marker(store, number, doc)  # the commit
        _step("committed")
        by_unit = _unit_parts(store.location)
        todo = [by_unit[u] for u in units if u in by_unit]
        half = len(todo) // 2
        with ThreadPoolExecutor(max_workers=THREADS) as pool:  # deletes wait on the disk
            list(pool.map(_retire_unit, todo[:half]))
            _step("retiring")
            list(pool.map(_retire_unit, todo[half:]))
        _step("retired")
        recover(store)  # a damaged generation this one supersedes goes now
        store.append({"event": "compacted", "generation": number, "units": len(units),
                      "files": {t: len(v) for t, v in files.items()}, "rows": rows})
        summary.update(generation=number, rows=rows, files_after=file_counts(store.location),
                       seconds=round(time.perf_counter() - t0, 3))
        return summary


def _write_generation(store: RunStore, number: int,
                      loose: dict[str, list[tuple[str, str | Path]]], units: list[str]
                      ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, int]]:
    """Step 1: every table's files written, checked and put in place (no marker yet)."""
    keep = set(units)
    files: dict[str, list[dict[str, Any]]] = {}
    rows: dict[str, int] = {}
    sinks: list[_Sink] = []
    scratch = Path(tempfile.mkdtemp(prefix="pokerarena-compact-"))
    try:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            for table in TABLES:
                parts = sorted((u, p) for u, p in loose.get(table, []) if u in keep)
                if not parts:
                    continue
                schemas = list(pool.map(lambda up: _schema(up[1]), parts))
                schema = pa.unify_schemas([s.remove_metadata() for s in schemas],
                                          promote_options="permissive")
                schema = schema.append(pa.field(UNIT_COLUMN, pa.string()))
                sink = _Sink(store, table, number, schema, scratch)
                sinks.append(sink)
                written = _compact_table(sink, parts, pool)
                expected = _part_rows([p for _, p in parts], pool)
                if written != expected:
                    raise OSError(f"{table}: {written} rows compacted, the parts hold "
                                  f"{expected}")
                _step("written")
                rows[table] = written
            for sink in sinks:
                sink.put_in_place()
                files[sink.table] = sink.files
        _step("files")
        return files, rows
    except BaseException:
        for sink in sinks:
            sink.drop()
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def min_units() -> int:
    """:data:`MIN_UNITS`, or ``$POKERARENA_COMPACT_MIN_UNITS``."""
    try:
        return int(os.environ.get("POKERARENA_COMPACT_MIN_UNITS", MIN_UNITS))
    except ValueError:
        return MIN_UNITS


def compact_after_run(store: RunStore) -> dict[str, Any] | None:
    """The driver's end of a finished run (holding its lock): compact when
    :func:`min_units` units are loose. A failure is recorded (``compaction_failed``)
    and the run keeps its parts: it stays readable, and ``pokerarena compact`` tries
    again."""
    try:
        loose = len({u for u in _unit_parts(store.location)})
        if loose < max(1, min_units()):
            return None
        out = compact(store.data_location, store.run_id, held=True)
    except Exception as exc:  # noqa: BLE001 - the run is finished and readable anyway
        with contextlib.suppress(Exception):
            store.append({"event": "compaction_failed", "error": f"{type(exc).__name__}: "
                          f"{exc}"})
        return None
    from pokerarena.platform.standings import remember_standings

    # a tournament's or match's standings are what its pages and leaderboard read; a
    # simulation or a study of millions of hands would pay their statistics for nothing
    kind = store.spec_doc()["spec"].get("kind")
    out["standings"] = traits(kind).keeps_standings and \
        remember_standings(store.data_location, store.run_id)
    from pokerarena.platform.page_summaries import write_all

    # the dashboard's answers (leaderboard, charts, games, the hands finder's first
    # pages), so that no page of a run this big reads every hand (issue 31)
    began = time.time()
    try:
        out["summaries"] = write_all(store.data_location, store.run_id)
        from pokerarena.platform.score_sheets import remember_sheet_index

        if remember_sheet_index(store.data_location, store.run_id):
            out["summaries"].append("sheet-index")
    except Exception as exc:  # noqa: BLE001 - the pages compute them on first request
        out["summaries"] = f"{type(exc).__name__}: {exc}"
    out["summaries_s"] = round(time.time() - began, 2)
    return out
