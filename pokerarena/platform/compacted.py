"""What readers see of a compacted run: its committed generations.

A compaction (:mod:`pokerarena.platform.compaction`) turns the unit parts of a run into
a few large files per table, ``<run>/<table>/compacted/g<gen>-<n>.parquet`` (the unit
is a column there, not a folder), and commits them with one small marker,
``<run>/compaction/g<gen>.json``, naming the units it covers and each file with its
rows. The marker is the commit point: files that no committed marker names are not
read (a compaction that died before its commit), and once a marker is there a unit it
covers is read from its files only, whatever parts of that unit are still on disk (a
compaction that died while retiring them). So a reader sees each hand exactly once at
any moment, provided it lists the parts *before* the markers (a marker that appears
in between only hides parts it listed).

A generation whose file is missing, fails the footer check or holds another number of
rows than its marker says is *damaged*: its units are read from their parts where they
have them again (played again after the damage was recorded), and reported as damage
otherwise, so no hand is dropped silently.

This module only reads (it sits below :mod:`pokerarena.platform.storage`, whose scan
uses it); writing is :mod:`pokerarena.platform.compaction`.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pokerarena.workers import fsys
from pokerarena.workers.parts import check_part

MARKER_DIR = "compaction"
COMPACTED_DIR = "compacted"
UNIT_COLUMN = "unit"


@dataclass(frozen=True)
class Generation:
    """One committed compaction: its number, the units it covers, its files (per table,
    names relative to the run) and rows, and what is wrong with it (None: sound)."""

    number: int
    units: frozenset[str]
    files: dict[str, list[dict[str, Any]]]
    marker: str
    problems: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Per table, ``(path, reason)`` of its first bad file."""

    @property
    def sound(self) -> bool:
        """True when every file is there, whole, with the rows its marker says."""
        return not self.problems


def run_key(run: str | Path, *names: str) -> str | Path:
    """A path (local run folder) or URI (object store) below the run."""
    if fsys.is_uri(run):
        return fsys.join(str(run), *names)
    return Path(run).joinpath(*names)


def marker_name(number: int) -> str:
    """``g000001.json``: names sort in commit order."""
    return f"g{number:06d}.json"


def file_name(number: int, index: int) -> str:
    """``g000001-0000.parquet``."""
    return f"g{number:06d}-{index:04d}.parquet"


def _marker_texts(run: str | Path) -> list[tuple[str, bytes]]:
    """The committed markers' ``(path, bytes)``, in name order."""
    out: list[tuple[str, bytes]] = []
    if fsys.is_uri(run):
        folder = fsys.join(str(run), MARKER_DIR)
        for item in fsys.listing(folder):
            if item.base_name.startswith("g") and item.base_name.endswith(".json"):
                uri = fsys.uri_of(folder, item.path)
                try:
                    out.append((uri, fsys.read_bytes(uri)))
                except FileNotFoundError:
                    continue
        return out
    local = Path(run) / MARKER_DIR
    if local.is_symlink() or not local.is_dir():
        return out
    for p in sorted(local.iterdir()):
        if p.name.startswith("g") and p.name.endswith(".json") and not p.is_symlink():
            try:
                out.append((str(p), p.read_bytes()))
            except OSError:
                continue
    return out


_rows_cache: dict[tuple[str, int, int], int] = {}
_rows_lock = threading.Lock()


def file_rows(path: str | Path) -> int:
    """The rows a Parquet file's footer declares (cached per path, size and mtime)."""
    if fsys.is_uri(path):
        found = fsys.info(str(path))
        key = (str(path), int(found.size or 0), int(found.mtime_ns or 0))
    else:
        st = os.stat(path)
        key = (str(path), st.st_size, st.st_mtime_ns)
    with _rows_lock:
        if key in _rows_cache:
            return _rows_cache[key]
    if fsys.is_uri(path):
        fs, p = fsys.resolve(str(path))
        with fs.open_input_file(p) as f:
            rows = pq.read_metadata(f).num_rows
    else:
        rows = pq.read_metadata(path).num_rows
    with _rows_lock:
        _rows_cache[key] = rows
    return rows


def _check(run: str | Path, files: dict[str, list[dict[str, Any]]]
           ) -> dict[str, tuple[str, str]]:
    problems: dict[str, tuple[str, str]] = {}
    for table, entries in files.items():
        for e in entries:
            path = run_key(run, table, COMPACTED_DIR, e["file"])
            why = check_part(path)
            if why is None:
                try:
                    rows = file_rows(path)
                except (OSError, pa.ArrowException) as exc:
                    why = f"cannot be read: {exc}"
                else:
                    if rows != int(e["rows"]):
                        why = f"holds {rows} rows, its marker says {e['rows']}"
            if why is not None:
                problems[table] = (str(path), f"compacted file {e['file']} {why}")
                break
    return problems


def generations(run: str | Path, check: bool = True) -> list[Generation]:
    """The run's committed generations, oldest first (each checked unless not
    ``check``: then every one reads as sound). A marker that does not parse is
    skipped: it was never committed (markers are put whole)."""
    out = []
    for path, data in _marker_texts(run):
        try:
            doc = json.loads(data)
            gen = Generation(int(doc["generation"]), frozenset(map(str, doc["units"])),
                             {str(t): list(v) for t, v in doc["tables"].items()}, path)
        except (ValueError, KeyError, TypeError):
            continue
        if check:
            gen = Generation(gen.number, gen.units, gen.files, path,
                             _check(run, gen.files))
        out.append(gen)
    return out


def covered_units(run: str | Path) -> set[str]:
    """Units that some committed generation covers (sound or not): they landed."""
    return {u for g in generations(run, check=False) for u in g.units}


def read_unit(run: str | Path, table: str, unit_id: str,
              columns: list[str] | None = None) -> pa.Table | None:
    """Unit ``unit_id``'s rows of ``table`` from the sound generation that covers it, in
    the shape of its part (no ``unit`` column); None when none covers it."""
    for gen in generations(run):
        if unit_id not in gen.units or not gen.sound:
            continue
        pieces = []
        for e in gen.files.get(table, []):
            path = run_key(run, table, COMPACTED_DIR, e["file"])
            filt = [(UNIT_COLUMN, "=", unit_id)]
            if isinstance(path, str):
                fs, key = fsys.resolve(path)
                t = pq.read_table(key, filesystem=fs, columns=columns, filters=filt)
            else:
                t = pq.read_table(path, columns=columns, filters=filt)
            pieces.append(t.drop_columns([c for c in t.column_names if c == UNIT_COLUMN]))
        if pieces:
            return pa.concat_tables(pieces)
    return None
