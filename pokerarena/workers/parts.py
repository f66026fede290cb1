"""Atomic Parquet parts: write under a temporary name, then rename into place.

A unit's part of table ``T`` is ``<run_dir>/T/unit=<unit_id>/part-0.parquet``. It is
first written as a hidden ``.part-0.parquet.<pid>.<random>.tmp`` in the same folder (so
no reader's ``*.parquet`` glob ever matches it) and then renamed over the final name
with :func:`os.replace`, which is atomic on POSIX file systems: a reader sees the whole
old file, the whole new file, or nothing. The name is a function of the unit only, so a
retried unit replaces its earlier parts with identical ones instead of adding rows.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

PART_NAME = "part-0.parquet"
COMPRESSION = "zstd"


def part_path(run_dir: str | Path, table: str, unit_id: str) -> Path:
    """Where the part of ``table`` written by unit ``unit_id`` lives."""
    return Path(run_dir) / table / f"unit={unit_id}" / PART_NAME


def write_part(table: pa.Table, run_dir: str | Path, name: str, unit_id: str) -> int:
    """Write ``table`` as the unit's part of table ``name``; returns the bytes written."""
    final = part_path(run_dir, name, unit_id)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".{PART_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        pq.write_table(table, tmp, compression=COMPRESSION)
        size = tmp.stat().st_size
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return size


def remove_stale_temporaries(run_dir: str | Path) -> int:
    """Delete temporaries left by killed writers (call when no writer is running)."""
    count = 0
    for p in Path(run_dir).glob(f"*/unit=*/.{PART_NAME}.*.tmp"):
        p.unlink(missing_ok=True)
        count += 1
    return count
