"""Lookup-table kernels for high hands of 5, 6 and 7 cards and for Omaha.

A hand's 64-bit key is the sum of its cards' keys (:func:`tables.card_keys`): the low
word identifies the rank multiset, the high word counts suits in nibbles that start at
3, so a nibble reaching 8 means five cards of that suit. Non-flush hands cost one
perfect-hash lookup; flushes (about 3% of 7-card hands) one more pass over the cards.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from pokerarena.evaluator import tables as tbl
from pokerarena.evaluator.lookup import (  # noqa: F401 - single-hand lookups, re-exported
    PyTables,
    high_one,
    high_with_board,
    omaha_one,
)
from pokerarena.evaluator.rankings import Ranking


class Tables(NamedTuple):
    """Everything a fast kernel reads, as numba-friendly arrays."""

    card_keys: np.ndarray
    flush: np.ndarray
    shift5: int
    offsets5: np.ndarray
    values5: np.ndarray
    shift6: int
    offsets6: np.ndarray
    values6: np.ndarray
    shift7: int
    offsets7: np.ndarray
    values7: np.ndarray
    omaha: np.ndarray
    omaha_values: np.ndarray
    omaha_board: np.ndarray
    pair_index: np.ndarray
    ranks_only: bool  # suits never matter (ace-to-five lows): no flush test


_LOADED: dict[bytes, Tables] = {}
SUIT_BIAS = np.uint64(0x3333)
SUIT_FLAGS = np.uint64(0x8888)
LOW_WORD = np.uint64(0xFFFFFFFF)


def tables_for(ranking: Ranking) -> Tables:
    """The tables of a table-friendly ranking, loaded once per process."""
    key = ranking.params.tobytes()
    found = _LOADED.get(key)
    if found is None:
        raw = tbl.load(ranking.params)
        found = Tables(
            tbl.card_keys(), raw["flush"],
            int(raw["shift5"][0]), raw["offsets5"], raw["values5"],
            int(raw["shift6"][0]), raw["offsets6"], raw["values6"],
            int(raw["shift7"][0]), raw["offsets7"], raw["values7"],
            raw["omaha"], raw["omaha_values"], raw["omaha_board"], tbl.pair_index(),
            ranking.ranks_only,
        )
        _LOADED[key] = found
    return found


# The batch kernels index a flattened view of the hands (slicing rows of a 2-D array
# inside the loop costs more than the evaluation) and keep the flush test and the
# perfect-hash lookup written out in the loop body: factored into an inlined helper,
# numba's code ran five times slower.
@njit(cache=True)
def _batch7(flat, ck, flush, shift, offsets, values, ranks_only, out):
    mask = (1 << shift) - 1
    for i in range(out.shape[0]):
        b = i * 7
        key = (ck[flat[b]] + ck[flat[b + 1]] + ck[flat[b + 2]] + ck[flat[b + 3]]
               + ck[flat[b + 4]] + ck[flat[b + 5]] + ck[flat[b + 6]])
        flags = ((key >> np.uint64(32)) + SUIT_BIAS) & SUIT_FLAGS
        if flags and not ranks_only:
            s = 0
            while not (flags >> np.uint64(4 * s + 3)) & np.uint64(1):
                s += 1
            m = 0
            for j in range(7):
                c = flat[b + j]
                if (c & 3) == s:
                    m |= 1 << (c >> 2)
            out[i] = flush[m]
        else:
            rk = np.int64(key & LOW_WORD)
            out[i] = values[offsets[rk >> shift] + (rk & mask)]


@njit(cache=True)
def _batch_k(flat, k, ck, flush, shift, offsets, values, ranks_only, out):
    mask = (1 << shift) - 1
    for i in range(out.shape[0]):
        b = i * k
        key = np.uint64(0)
        for j in range(k):
            key += ck[flat[b + j]]
        flags = ((key >> np.uint64(32)) + SUIT_BIAS) & SUIT_FLAGS
        if flags and not ranks_only:
            s = 0
            while not (flags >> np.uint64(4 * s + 3)) & np.uint64(1):
                s += 1
            m = 0
            for j in range(k):
                c = flat[b + j]
                if (c & 3) == s:
                    m |= 1 << (c >> 2)
            out[i] = flush[m]
        else:
            rk = np.int64(key & LOW_WORD)
            out[i] = values[offsets[rk >> shift] + (rk & mask)]


def high_batch(hands: np.ndarray, t: Tables, out: np.ndarray) -> None:
    """Values of C-contiguous ``uint8[N, k]`` hands, ``k`` in 5..7, into ``out``."""
    k = hands.shape[1]
    flat = hands.reshape(-1)
    if k == 7:
        _batch7(flat, t.card_keys, t.flush, t.shift7, t.offsets7, t.values7, t.ranks_only, out)
    elif k == 6:
        _batch_k(flat, 6, t.card_keys, t.flush, t.shift6, t.offsets6, t.values6, t.ranks_only,
                 out)
    else:
        _batch_k(flat, 5, t.card_keys, t.flush, t.shift5, t.offsets5, t.values5, t.ranks_only,
                 out)


def py_tables(t: Tables) -> PyTables:
    """Python-list copies of ``t`` (cheaper than a numba dispatch for one hand)."""
    return PyTables(
        [int(x) for x in t.card_keys], t.flush.tolist(),
        {5: (t.shift5, t.offsets5.tolist(), t.values5.tolist()),
         6: (t.shift6, t.offsets6.tolist(), t.values6.tolist()),
         7: (t.shift7, t.offsets7.tolist(), t.values7.tolist())},
        t.omaha, t.omaha_values.tolist(), t.omaha_board.tolist(),
        t.pair_index.reshape(-1).tolist(), t.ranks_only,
    )


def py_tables_for(ranking: Ranking) -> PyTables:
    """The Python-list tables of a table-friendly ranking, kept on the ranking object."""
    found = ranking.__dict__.get("_py_tables")
    if found is None:
        found = py_tables(tables_for(ranking))
        ranking.__dict__["_py_tables"] = found  # a cache, not part of the frozen value
    return found


@njit(cache=True)
def _omaha_flush(hole, hb, h, board, bb, s, flush):
    """Best flush of suit ``s`` using exactly two hole and three board cards (0 if none)."""
    bm = 0
    for j in range(5):
        c = board[bb + j]
        if (c & 3) == s:
            bm |= 1 << (c >> 2)
    best = 0
    for a in range(h):
        ca = hole[hb + a]
        if (ca & 3) != s:
            continue
        for b in range(a + 1, h):
            cb = hole[hb + b]
            if (cb & 3) != s:
                continue
            pm = (1 << (ca >> 2)) | (1 << (cb >> 2))
            for x in range(13):
                if not (bm >> x) & 1:
                    continue
                for y in range(x + 1, 13):
                    if not (bm >> y) & 1:
                        continue
                    for z in range(y + 1, 13):
                        if (bm >> z) & 1:
                            v = flush[pm | (1 << x) | (1 << y) | (1 << z)]
                            if v > best:
                                best = v
    return best


@njit(cache=True)
def _omaha(hole, board, h, ck, flush, shift5, offsets5, omaha, omaha_values, omaha_board,
           pair_idx, ranks_only, out):
    mask5 = (1 << shift5) - 1
    for i in range(out.shape[0]):
        bb = i * 5
        key = (ck[board[bb]] + ck[board[bb + 1]] + ck[board[bb + 2]] + ck[board[bb + 3]]
               + ck[board[bb + 4]])
        rk = np.int64(key & LOW_WORD)
        base = np.int64(omaha_board[offsets5[rk >> shift5] + (rk & mask5)]) * 91
        hb = i * h
        cls = 0
        for a in range(h):
            ra = (hole[hb + a] >> 2) * 13
            for b in range(a + 1, h):
                v = omaha[base + pair_idx[ra + (hole[hb + b] >> 2)]]
                if v > cls:
                    cls = v
        best = omaha_values[cls]
        # A flush needs three board cards of a suit (nibble + 5 reaches 8).
        flags = ((key >> np.uint64(32)) + np.uint64(0x5555)) & SUIT_FLAGS
        if flags and not ranks_only:
            for s in range(4):
                if (flags >> np.uint64(4 * s + 3)) & np.uint64(1):
                    v = _omaha_flush(hole, hb, h, board, bb, s, flush)
                    if v > best:
                        best = v
        out[i] = best


def omaha_batch(hole: np.ndarray, board: np.ndarray, t: Tables, out: np.ndarray) -> None:
    """Omaha values for hole ``uint8[N, h]`` and five-card boards ``uint8[N, 5]``."""
    _omaha(hole.reshape(-1), board.reshape(-1), hole.shape[1], t.card_keys, t.flush, t.shift5,
           t.offsets5, t.omaha, t.omaha_values, t.omaha_board, t.pair_index.reshape(-1),
           t.ranks_only, out)
