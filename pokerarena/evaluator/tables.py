"""Lookup tables of the fast high-hand kernels, built once and cached on disk.

Each rank gets a key (``RANK_KEYS``, found by ``tools/find_rank_keys.py``) such that
for every card count up to seven the key sum identifies the multiset of ranks. A
row-displacement perfect hash maps the sums of 5, 6 and 7 cards into small tables of
values; a 13-bit suit mask indexes the flush table; an Omaha table holds, for every
five-card board and every pair of hole ranks, the best non-flush value.

The cache key of a ranking's tables is its parameters and a digest of the source of the
code that builds them (:func:`builder_digest`), so an edited builder never reads tables
an older one left on disk.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numba import njit

from pokerarena.evaluator import generic, rankings
from pokerarena.evaluator.generic import any_value, high_value
from pokerarena.evaluator.rankings import KIND_A5, P_KIND

RANK_KEYS = np.array([0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345,
                      1479181], dtype=np.int64)
SUIT_SHIFT = 32
HASH_SIZES = (5, 6, 7)
# The code that builds the tables: a digest of its source is part of every cache key, so
# an edited builder (or ranking function) never reads tables an older one built.
BUILDER_MODULES: tuple[ModuleType | None, ...] = (None, generic, rankings)  # None: this one


def card_keys() -> np.ndarray:
    """Per-card 64-bit keys: rank key in the low word, a suit counter nibble above."""
    keys = np.zeros(52, dtype=np.uint64)
    for c in range(52):
        suit_bit = np.uint64(1) << np.uint64(SUIT_SHIFT + 4 * (c & 3))
        keys[c] = np.uint64(RANK_KEYS[c >> 2]) + suit_bit
    return keys


def rank_multisets(n: int) -> np.ndarray:
    """Every multiset of ``n`` ranks (each at most 4 times) as rows of 13 counts."""
    out: list[list[int]] = []
    counts = [0] * 13

    def rec(r: int, left: int) -> None:
        if r == 13:
            if left == 0:
                out.append(counts.copy())
            return
        for c in range(min(4, left) + 1):
            counts[r] = c
            rec(r + 1, left - c)
        counts[r] = 0

    rec(0, n)
    return np.array(out, dtype=np.int64)


@njit(cache=True)
def _multiset_values(multisets, params, n):
    """Key sums and values (without a flush) of each multiset row."""
    m = multisets.shape[0]
    keys = np.zeros(m, np.int64)
    values = np.zeros(m, np.int32)
    cards = np.zeros(n, np.uint8)
    rank_keys = np.array([0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345,
                          1479181], np.int64)
    for i in range(m):
        k = 0
        key = 0
        for r in range(13):
            for _ in range(multisets[i, r]):
                cards[k] = r * 4 + (k & 3)  # consecutive suits: never five of one suit
                k += 1
                key += rank_keys[r]
        keys[i] = key
        values[i] = any_value(cards, n, params, np.uint64(0))
    return keys, values


@njit(cache=True)
def _flush_values(params):
    """Best straight flush or flush of each 13-bit rank mask of one suit."""
    table = np.zeros(8192, np.int32)
    cards = np.zeros(13, np.uint8)
    for mask in range(8192):
        k = 0
        for r in range(13):
            if (mask >> r) & 1:
                cards[k] = r * 4
                k += 1
        if k >= 5:
            table[mask] = high_value(cards, k, params, np.uint64(0))
    return table


@njit(cache=True)
def _displace(keys, shift):
    """Row-displacement perfect hash: per-row offsets so keys land in distinct slots."""
    mask = (1 << shift) - 1
    nrows = (keys.max() >> shift) + 1
    rows = keys >> shift
    pop = np.zeros(nrows, np.int64)
    for r in rows:
        pop[r] += 1
    order = np.argsort(-pop, kind="mergesort")
    by_row = np.argsort(rows, kind="mergesort")
    start = np.zeros(nrows + 1, np.int64)
    for r in range(nrows):
        start[r + 1] = start[r] + pop[r]
    used = np.zeros(keys.shape[0] * 4 + (1 << shift) + 1, np.bool_)
    offsets = np.zeros(nrows, np.int32)
    size = 0
    free = 0  # every slot below ``free`` is taken
    for r in order:
        if pop[r] == 0:
            break
        # An offset that puts the row's lowest key below ``free`` collides: skip those.
        low = mask
        for j in range(start[r], start[r + 1]):
            low = min(low, keys[by_row[j]] & mask)
        o = free - low if free > low else 0
        while True:
            ok = True
            for j in range(start[r], start[r + 1]):
                if used[o + (keys[by_row[j]] & mask)]:
                    ok = False
                    break
            if ok:
                break
            o += 1
        offsets[r] = o
        for j in range(start[r], start[r + 1]):
            slot = o + (keys[by_row[j]] & mask)
            used[slot] = True
            size = max(size, slot + 1)
        while used[free]:
            free += 1
    return offsets, size


_LAYOUTS: dict[bytes, tuple[int, np.ndarray, int]] = {}


def _layout(keys: np.ndarray, cached: bool = True) -> tuple[int, np.ndarray, int]:
    """Smallest (shift, offsets, size) over a few row widths. It depends on the keys
    only (the same for every ranking), so it is searched once per process and cached on
    disk next to the tables (``cached=False``: searched afresh)."""
    tag = hashlib.sha1(keys.tobytes()).digest()
    found = _LAYOUTS.get(tag) if cached else None
    if found is not None:
        return found
    name = f"layout-{builder_digest()}-{tag.hex()[:16]}.npz"
    if cached:
        try:
            with np.load(cached_path(name)) as data:
                found = (int(data["shift"][0]), data["offsets"], int(data["size"][0]))
        except (OSError, ValueError, KeyError, IndexError):
            found = None
    if found is None:
        best = None
        for shift in range(7, 13):
            offsets, size = _displace(keys, shift)
            cost = size * 4 + offsets.size * 4
            if best is None or cost < best[0]:
                best = (cost, shift, offsets, size)
        assert best is not None
        found = (best[1], best[2], int(best[3]))
        _save(cache_dir() / name, shift=np.array([found[0]], dtype=np.int64),
              offsets=found[1], size=np.array([found[2]], dtype=np.int64))
    _LAYOUTS[tag] = found
    return found


def _perfect_hash(keys: np.ndarray, values: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(shift, offsets, table) of the smallest layout over a few row widths."""
    for cached in (True, False):
        shift, offsets, size = _layout(keys, cached)
        rows = keys >> shift
        if rows.max() >= offsets.size:
            continue  # a damaged cached layout: search afresh
        slots = offsets[rows].astype(np.int64) + (keys & ((1 << shift) - 1))
        if slots.min() >= 0 and slots.max() < size and np.unique(slots).size == slots.size:
            break
    else:
        raise RuntimeError("perfect hash collision")
    table = np.zeros(size, dtype=np.int32)
    table[slots] = values
    return shift, offsets, table


@njit(cache=True)
def _omaha_table(ms5, keys5, shift5, offsets5, table5, size5):
    """Best non-flush value for (five-card board multiset, hole-rank pair).

    Returns the table indexed by ``board id * 91 + pair id`` and the board id of each
    slot of the five-card perfect hash.
    """
    rank_keys = np.array([0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345,
                          1479181], np.int64)
    out = np.zeros(ms5.shape[0] * 91, np.int32)
    dense = np.zeros(size5, np.int32)
    board = np.zeros(5, np.int64)
    mask5 = (1 << shift5) - 1
    for i in range(ms5.shape[0]):
        k = 0
        for r in range(13):
            for _ in range(ms5[i, r]):
                board[k] = r
                k += 1
        dense[offsets5[keys5[i] >> shift5] + (keys5[i] & mask5)] = i
        pid = 0
        for a in range(13):
            for b in range(a, 13):
                best = 0
                for x in range(5):
                    for y in range(x + 1, 5):
                        for z in range(y + 1, 5):
                            ok = True
                            # at most four cards of a rank
                            for r in (a, b, board[x], board[y], board[z]):
                                cnt = ((a == r) + (b == r) + (board[x] == r) + (board[y] == r)
                                       + (board[z] == r))
                                if cnt > 4:
                                    ok = False
                            if not ok:
                                continue
                            key = (rank_keys[a] + rank_keys[b] + rank_keys[board[x]]
                                   + rank_keys[board[y]] + rank_keys[board[z]])
                            v = table5[offsets5[key >> shift5] + (key & mask5)]
                            if v > best:
                                best = v
                out[i * 91 + pid] = best
                pid += 1
    return out, dense


def pair_index() -> np.ndarray:
    """13x13 table of the index (0..90) of an unordered pair of ranks."""
    idx = np.zeros((13, 13), dtype=np.int64)
    pid = 0
    for a in range(13):
        for b in range(a, 13):
            idx[a, b] = idx[b, a] = pid
            pid += 1
    return idx


def cache_dir() -> Path:
    """Where tables are cached: ``$POKERARENA_CACHE`` or ``~/.cache/pokerarena``."""
    base = os.environ.get("POKERARENA_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "pokerarena")
    return Path(base)


SHIPPED = Path(__file__).resolve().parent / "shipped"
"""The standard high ranking's tables and the hash layouts, shipped with the package
(``tools/ship_tables.py`` writes them): read when the disk cache has none, so that a
fresh machine's first game loads them instead of compiling their builders (about 40 s
here). Their names carry the builder's digest: tables of an edited builder are never
read, and ``tests/evaluator/test_shipped_tables.py`` says when to write them again."""


def cached_path(name: str) -> Path:
    """Where to read the cache file ``name``: the disk cache's copy, else the one shipped
    with the package, else the disk cache's path (none exists yet)."""
    path = cache_dir() / name
    if not path.exists() and (SHIPPED / name).exists():
        return SHIPPED / name
    return path


_DIGEST: list[str] = []


def builder_digest() -> str:
    """SHA-256 (16 hex digits) of the source of the code that builds the tables."""
    if not _DIGEST:
        h = hashlib.sha256()
        for mod in BUILDER_MODULES:
            src = Path(__file__ if mod is None else str(mod.__file__))
            h.update(src.name.encode())
            h.update(src.read_bytes())
        _DIGEST.append(h.hexdigest()[:16])
    return _DIGEST[0]


def cache_key(params: np.ndarray) -> str:
    """The cache key of the tables of ``params``: the parameters and the builder's code."""
    return hashlib.sha256(params.tobytes() + builder_digest().encode()).hexdigest()[:16]


def _save(path: Path, **arrays: np.ndarray) -> None:
    """Write ``arrays`` to ``path`` atomically; an unwritable cache is only a rebuild."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        savez: Any = np.savez  # numpy's stub reads **arrays as its allow_pickle flag
        savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass


def build(params: np.ndarray) -> dict[str, np.ndarray]:
    """Build every table for a table-friendly ranking's parameter array."""
    ranks_only = params[P_KIND] == KIND_A5
    flush = np.zeros(8192, np.int32) if ranks_only else _flush_values(params)
    out: dict[str, np.ndarray] = {"flush": flush}
    for n in HASH_SIZES:
        ms = rank_multisets(n)
        keys, values = _multiset_values(ms, params, n)
        shift, offsets, table = _perfect_hash(keys, values)
        out[f"shift{n}"] = np.array([shift], dtype=np.int64)
        out[f"offsets{n}"] = offsets
        out[f"values{n}"] = table
        if n == 5:
            best, dense = _omaha_table(ms, keys, shift, offsets, table, table.size)
            # Store class numbers (uint16) rather than values: the table then fits in
            # about 1 MB, and the largest class number is the largest value.
            classes, codes = np.unique(best, return_inverse=True)
            out["omaha"] = codes.astype(np.uint16)
            out["omaha_values"] = classes.astype(np.int32)
            out["omaha_board"] = dense
    return out


def load(params: np.ndarray) -> dict[str, np.ndarray]:
    """Tables for ``params`` from the disk cache, building and saving them if missing."""
    name = f"high-{cache_key(params)}.npz"
    path = cached_path(name)
    if path.exists():
        try:
            with np.load(path) as data:
                return {k: data[k] for k in data.files}
        except (OSError, ValueError):
            pass  # a damaged cache file is rebuilt below
    tables = build(params)
    _save(cache_dir() / name, **tables)
    return tables
