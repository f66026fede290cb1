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
"""

from __future__ import annotations

import os
import secrets
import stat
import struct
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

PART_NAME = "part-0.parquet"
COMPRESSION = "zstd"
MAGIC = b"PAR1"


def part_path(run_dir: str | Path, table: str, unit_id: str) -> Path:
    """Where the part of ``table`` written by unit ``unit_id`` lives."""
    return Path(run_dir) / table / f"unit={unit_id}" / PART_NAME


# the footer check ---------------------------------------------------------------------

_checked: dict[tuple[str, int, int, int, int], str | None] = {}
_checked_lock = threading.Lock()
_CACHE_MAX = 200_000


def _footer_problem(path: Path, size: int, deep: bool = True) -> str | None:
    if size < 12:
        return f"{size} bytes: too short for a Parquet file"
    with open(path, "rb") as f:
        head = f.read(4)
        f.seek(size - 8)
        tail = f.read(8)
    if head != MAGIC:
        return "does not start with the Parquet magic (PAR1)"
    if len(tail) != 8 or tail[4:] != MAGIC:
        return "does not end with the Parquet magic (PAR1): truncated or overwritten"
    (footer_len,) = struct.unpack("<I", tail[:4])
    data_end = size - 8 - footer_len
    if footer_len == 0 or data_end < 4:
        return f"footer length {footer_len} does not fit a file of {size} bytes"
    if not deep:
        return None
    try:
        meta = pq.read_metadata(path)
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


def check_part(path: str | Path, deep: bool = True) -> str | None:
    """None when ``path`` is a sound Parquet file, else why it is not (missing, not a
    regular file, truncated, bad footer). Results are cached per (path, inode, size,
    mtime), so checking an unchanged part again costs one ``stat``. ``deep=False``
    checks the file's frame only (both magics, a footer length that fits: what a
    truncation or an overwrite breaks) without parsing the footer: the driver's check
    of a part its worker checked deeply just before landing it (a thousand workers
    land hundreds of parts a second)."""
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


def stage_part(table: pa.Table, run_dir: str | Path, name: str, unit_id: str
               ) -> tuple[Path, Path, int]:
    """Write ``table`` under a temporary name next to the unit's part of table ``name``
    and check it; returns ``(temporary, final, bytes)``. Land it with :func:`land_part`
    or drop it with :func:`drop_staged`."""
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


def land_part(tmp: Path, final: Path) -> None:
    """Rename a staged part over its final name (atomic)."""
    try:
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def drop_staged(staged: list[tuple[Path, Path, int]]) -> None:
    """Delete staged parts that will not land."""
    for tmp, _final, _size in staged:
        tmp.unlink(missing_ok=True)


def write_part(table: pa.Table, run_dir: str | Path, name: str, unit_id: str) -> int:
    """Write ``table`` as the unit's part of table ``name``; returns the bytes written."""
    tmp, final, size = stage_part(table, run_dir, name, unit_id)
    land_part(tmp, final)
    return size


def remove_stale_temporaries(run_dir: str | Path) -> int:
    """Delete temporaries left by killed writers (call when no writer is running)."""
    count = 0
    for p in Path(run_dir).glob(f"*/unit=*/.{PART_NAME}.*.tmp"):
        p.unlink(missing_ok=True)
        count += 1
    return count
