"""Atomic Parquet parts: write under a temporary name, check it, then rename into place.

A unit's part of table ``T`` is ``<run_dir>/T/unit=<unit_id>/part-0.parquet``. It is
first written as a hidden ``.part-0.parquet.<pid>.<random>.tmp`` in the same folder (so
no reader's ``*.parquet`` glob ever matches it), its footer is checked
(:func:`check_part`), and it is then renamed over the final name with
:func:`os.replace`, which is atomic on POSIX file systems: a reader sees the whole old
file, the whole new file, or nothing. The name is a function of the unit only, so a
retried unit replaces its earlier parts with identical ones instead of adding rows.

:func:`check_part` is the damage check every layer uses (a worker before landing a
part, the driver when it records a unit, the readers before they read one): a Parquet
file starts and ends with the magic ``PAR1``, the 4 bytes before the final magic give
the footer's length, the footer parses, and the column chunks it describes lie inside
the file. A truncated, emptied or overwritten part fails it.

On an object store (a run folder that is an ``s3://`` URI, :mod:`~pokerarena.workers.fsys`)
there is no rename: a part is written to memory and checked there (:func:`stage_part`),
then put under its final key in one PUT (:func:`land_part`), which the store makes
visible whole or not at all. Its name is still a function of the unit only, so a retry
writes the same keys again (the data parts with the same bytes) and never adds rows.
What commits a unit is its ``units`` part, landed last (see
:mod:`~pokerarena.workers.landing` and docs/deploy.md).
"""

from __future__ import annotations

import contextvars
import os
import secrets
import stat
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pokerarena.workers import fsys

PART_NAME = "part-0.parquet"
COMPRESSION = "zstd"
MAGIC = b"PAR1"


def part_path(run_dir: str | Path, table: str, unit_id: str) -> Path:
    """Where the part of ``table`` written by unit ``unit_id`` lives."""
    return Path(run_dir) / table / f"unit={unit_id}" / PART_NAME


def part_key(run_dir: str | Path, table: str, unit_id: str) -> str | Path:
    """:func:`part_path` for any run folder: the URI of the part on an object store."""
    if fsys.is_uri(run_dir):
        return fsys.join(str(run_dir), table, f"unit={unit_id}", PART_NAME)
    return part_path(run_dir, table, unit_id)


def read_part(run_dir: str | Path, table: str, unit_id: str,
              columns: list[str] | None = None) -> pa.Table:
    """The unit's part of ``table`` (of a run folder or an object-store run URI)."""
    key = part_key(run_dir, table, unit_id)
    if isinstance(key, str):
        fs, path = fsys.resolve(key)
        return pq.read_table(path, columns=columns, filesystem=fs)
    return pq.read_table(key, columns=columns)


# the footer check ---------------------------------------------------------------------

_checked: dict[tuple[str, int, int, int, int], str | None] = {}
_checked_lock = threading.Lock()
_CACHE_MAX = 200_000


def _frame_problem(head: bytes, tail: bytes, size: int) -> tuple[str | None, int]:
    """The frame check (both magics, a footer length that fits); ``(problem, data_end)``."""
    if head != MAGIC:
        return "does not start with the Parquet magic (PAR1)", 0
    if len(tail) != 8 or tail[4:] != MAGIC:
        return "does not end with the Parquet magic (PAR1): truncated or overwritten", 0
    (footer_len,) = struct.unpack("<I", tail[:4])
    data_end = size - 8 - footer_len
    if footer_len == 0 or data_end < 4:
        return f"footer length {footer_len} does not fit a file of {size} bytes", 0
    return None, data_end


def _chunks_problem(source: Any, data_end: int) -> str | None:
    """The deep check: the footer parses and every column chunk lies inside the data."""
    try:
        meta = pq.read_metadata(source)
    except Exception as exc:  # noqa: BLE001 - any failure to parse is damage
        return f"footer does not parse: {type(exc).__name__}: {exc}"
    for rg in range(meta.num_row_groups):
        group = meta.row_group(rg)
        if group.num_rows == 0:
            continue  # an empty table's chunks have no pages (offsets are 0)
        for c in range(group.num_columns):
            col = group.column(c)
            start = col.dictionary_page_offset if col.has_dictionary_page else None
            start = col.data_page_offset if start is None else min(start,
                                                                     col.data_page_offset)
            if start < 4 or start + col.total_compressed_size > data_end:
                return (f"row group {rg} column {c} lies outside the file's data "
                        f"(bytes {start}..{start + col.total_compressed_size}, data ends at "
                        f"{data_end})")
    return None


def _footer_problem(path: Path, size: int, deep: bool = True) -> str | None:
    if size < 12:
        return f"{size} bytes: too short for a Parquet file"
    with open(path, "rb") as f:
        head = f.read(4)
        f.seek(size - 8)
        tail = f.read(8)
    problem, data_end = _frame_problem(head, tail, size)
    if problem is not None or not deep:
        return problem
    return _chunks_problem(path, data_end)


def _object_problem(uri: str, size: int, deep: bool) -> str | None:
    """:func:`_footer_problem` of an object (ranged reads of its head and tail)."""
    if size < 12:
        return f"{size} bytes: too short for a Parquet file"
    fs, path = fsys.resolve(uri)
    with fs.open_input_file(path) as f:
        head = f.read_at(4, 0)
        tail = f.read_at(8, size - 8)
        problem, data_end = _frame_problem(bytes(head), bytes(tail), size)
        if problem is not None or not deep:
            return problem
        return _chunks_problem(f, data_end)


def buffer_problem(buf: pa.Buffer) -> str | None:
    """:func:`check_part` of a part still in memory (staged for an object store)."""
    size = buf.size
    if size < 12:
        return f"{size} bytes: too short for a Parquet file"
    problem, data_end = _frame_problem(buf[:4].to_pybytes(), buf[size - 8:].to_pybytes(),
                                       size)
    return problem if problem is not None else _chunks_problem(pa.BufferReader(buf), data_end)


def check_object(uri: str, deep: bool = True, found: pafs.FileInfo | None = None
                 ) -> str | None:
    """:func:`check_part` of an object, given its ``found`` listing entry when the caller
    has one (a scan lists a run's objects with their sizes: no request per part then)."""
    try:
        found = found if found is not None else fsys.info(uri)
    except OSError as exc:
        return f"cannot be read: {exc}"
    if found.type == pafs.FileType.NotFound:
        return "missing"
    if found.type != pafs.FileType.File:
        return "is not a regular file"
    size = int(found.size or 0)
    key = (uri, 0, 0, size, found.mtime_ns or 0)
    if deep:
        with _checked_lock:
            if key in _checked:
                return _checked[key]
    try:
        problem = _object_problem(uri, size, deep)
    except OSError as exc:
        problem = f"cannot be read: {exc}"
    if deep:
        with _checked_lock:
            if len(_checked) >= _CACHE_MAX:
                _checked.clear()
            _checked[key] = problem
    return problem


def check_part(path: str | Path, deep: bool = True) -> str | None:
    """None when ``path`` is a sound Parquet file, else why it is not (missing, not a
    regular file, truncated, bad footer). Results are cached per (path, inode, size,
    mtime), so checking an unchanged part again costs one ``stat``. ``deep=False``
    checks the file's frame only (both magics, a footer length that fits: what a
    truncation or an overwrite breaks) without parsing the footer: the driver's check
    of a part its worker checked deeply just before landing it (a thousand workers
    land hundreds of parts a second). An object-store URI is checked by ranged reads,
    cached per (URI, size, modification time)."""
    if fsys.is_uri(path):
        return check_object(str(path), deep)
    p = Path(path)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        return "is a symbolic link (links are never followed)"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    key = (str(p), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if not deep:
        try:
            return _footer_problem(p, st.st_size, deep=False)
        except OSError as exc:
            return f"cannot be read: {exc.strerror or exc}"
    with _checked_lock:
        if key in _checked:
            return _checked[key]
    try:
        problem = _footer_problem(p, st.st_size)
    except OSError as exc:
        problem = f"cannot be read: {exc.strerror or exc}"
    with _checked_lock:
        if len(_checked) >= _CACHE_MAX:
            _checked.clear()
        _checked[key] = problem
    return problem


class DamagedPart(OSError):
    """A part that fails :func:`check_part` (the message names the file and why)."""


# writing ------------------------------------------------------------------------------


class StagedObject:
    """A part staged in memory, to be put under its final key on an object store."""

    __slots__ = ("buffer",)

    def __init__(self, buffer: pa.Buffer) -> None:
        self.buffer = buffer

    def unlink(self, missing_ok: bool = True) -> None:
        """Nothing to delete: it was never written anywhere."""
        self.buffer = pa.py_buffer(b"")


Staged = tuple[Path | StagedObject, Path | str, int]
"""``(temporary, final, bytes)`` of one staged part."""

_landed: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "landed_objects", default=None)


@contextmanager
def recording_landed() -> Iterator[list[str]]:
    """Within the block, the keys :func:`land_part` puts on an object store are added to
    the yielded list (so a landing that turns out unwanted can take them back)."""
    keys: list[str] = []
    token = _landed.set(keys)
    try:
        yield keys
    finally:
        _landed.reset(token)


def _stage_object(table: pa.Table, run_dir: str, name: str, unit_id: str) -> Staged:
    final = str(part_key(run_dir, name, unit_id))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=COMPRESSION)
    buf = sink.getvalue()
    problem = buffer_problem(buf)
    if problem is not None:
        raise DamagedPart(f"{final}: the part just written {problem}")
    return StagedObject(buf), final, buf.size


def stage_part(table: pa.Table, run_dir: str | Path, name: str, unit_id: str) -> Staged:
    """Write ``table`` under a temporary name next to the unit's part of table ``name``
    and check it; returns ``(temporary, final, bytes)``. Land it with :func:`land_part`
    or drop it with :func:`drop_staged`. On an object store the part is staged in
    memory (:class:`StagedObject`) and ``final`` is its URI."""
    if fsys.is_uri(run_dir):
        return _stage_object(table, str(run_dir), name, unit_id)
    final = part_path(run_dir, name, unit_id)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".{PART_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        pq.write_table(table, tmp, compression=COMPRESSION)
        size = tmp.stat().st_size
        problem = check_part(tmp)
        if problem is not None:
            raise DamagedPart(f"{final}: the part just written {problem}")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp, final, size


def land_part(tmp: Path | StagedObject, final: Path | str) -> None:
    """Rename a staged part over its final name (atomic); on an object store, put it
    under its final key (one PUT: whole or not at all)."""
    if isinstance(tmp, StagedObject):
        fsys.write_bytes(str(final), tmp.buffer)
        keys = _landed.get()
        if keys is not None:
            keys.append(str(final))
        return
    try:
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def drop_staged(staged: list[Staged]) -> None:
    """Delete staged parts that will not land."""
    for tmp, _final, _size in staged:
        tmp.unlink(missing_ok=True)


def write_part(table: pa.Table, run_dir: str | Path, name: str, unit_id: str) -> int:
    """Write ``table`` as the unit's part of table ``name``; returns the bytes written."""
    tmp, final, size = stage_part(table, run_dir, name, unit_id)
    land_part(tmp, final)
    return size


def remove_stale_temporaries(run_dir: str | Path) -> int:
    """Delete temporaries left by killed writers (call when no writer is running); an
    object store has none (parts are staged in the writer's memory)."""
    if fsys.is_uri(run_dir):
        return 0
    count = 0
    for p in Path(run_dir).glob(f"*/unit=*/.{PART_NAME}.*.tmp"):
        p.unlink(missing_ok=True)
        count += 1
    return count
