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
    pair_index: np.ndarray


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
            raw["omaha"], tbl.pair_index(),
        )
        _LOADED[key] = found
    return found


@njit(cache=True, inline="always")
def _finish(key, row, k, flush, shift, offsets, values):
    """Value of a hand from its key sum; rescans the cards only for a flush."""
    flags = ((key >> np.uint64(32)) + SUIT_BIAS) & SUIT_FLAGS
    if flags:
        if flags & np.uint64(0x8):
            s = 0
        elif flags & np.uint64(0x80):
            s = 1
        elif flags & np.uint64(0x800):
            s = 2
        else:
            s = 3
        m = 0
        for i in range(k):
            c = row[i]
            if (c & 3) == s:
                m |= 1 << (c >> 2)
        return flush[m]
    rk = np.int64(key & LOW_WORD)
    return values[offsets[rk >> shift] + (rk & ((1 << shift) - 1))]


@njit(cache=True)
def _batch7(hands, ck, flush, shift, offsets, values, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        key = (ck[h[0]] + ck[h[1]] + ck[h[2]] + ck[h[3]] + ck[h[4]] + ck[h[5]] + ck[h[6]])
        out[i] = _finish(key, h, 7, flush, shift, offsets, values)


@njit(cache=True)
def _batch6(hands, ck, flush, shift, offsets, values, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        key = ck[h[0]] + ck[h[1]] + ck[h[2]] + ck[h[3]] + ck[h[4]] + ck[h[5]]
        out[i] = _finish(key, h, 6, flush, shift, offsets, values)


@njit(cache=True)
def _batch5(hands, ck, flush, shift, offsets, values, out):
    for i in range(hands.shape[0]):
        h = hands[i]
        key = ck[h[0]] + ck[h[1]] + ck[h[2]] + ck[h[3]] + ck[h[4]]
        out[i] = _finish(key, h, 5, flush, shift, offsets, values)


def high_batch(hands: np.ndarray, t: Tables, out: np.ndarray) -> None:
    """Values of ``uint8[N, k]`` hands, ``k`` in 5..7, into ``out``."""
    k = hands.shape[1]
    if k == 7:
        _batch7(hands, t.card_keys, t.flush, t.shift7, t.offsets7, t.values7, out)
    elif k == 6:
        _batch6(hands, t.card_keys, t.flush, t.shift6, t.offsets6, t.values6, out)
    else:
        _batch5(hands, t.card_keys, t.flush, t.shift5, t.offsets5, t.values5, out)


@njit(cache=True)
def _one(row, k, ck, flush, shift, offsets, values):
    key = np.uint64(0)
    for i in range(k):
        key += ck[row[i]]
    return _finish(key, row, k, flush, shift, offsets, values)


def high_one(codes: np.ndarray, k: int, t: Tables) -> int:
    """Value of one hand of 5..7 cards."""
    if k == 7:
        return _one(codes, 7, t.card_keys, t.flush, t.shift7, t.offsets7, t.values7)
    if k == 6:
        return _one(codes, 6, t.card_keys, t.flush, t.shift6, t.offsets6, t.values6)
    return _one(codes, 5, t.card_keys, t.flush, t.shift5, t.offsets5, t.values5)


@njit(cache=True)
def _omaha_flush(hole, board, s, flush):
    """Best flush of suit ``s`` using exactly two hole and three board cards (0 if none)."""
    bm = 0
    for c in board:
        if (c & 3) == s:
            bm |= 1 << (c >> 2)
    best = 0
    h = hole.shape[0]
    for a in range(h):
        if (hole[a] & 3) != s:
            continue
        for b in range(a + 1, h):
            if (hole[b] & 3) != s:
                continue
            pm = (1 << (hole[a] >> 2)) | (1 << (hole[b] >> 2))
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
def _omaha(hole, board, ck, flush, shift5, offsets5, omaha, pair_idx, out):
    h = hole.shape[1]
    for i in range(hole.shape[0]):
        bd = board[i]
        key = ck[bd[0]] + ck[bd[1]] + ck[bd[2]] + ck[bd[3]] + ck[bd[4]]
        rk = np.int64(key & LOW_WORD)
        base = (offsets5[rk >> shift5] + (rk & ((1 << shift5) - 1))) * 91
        hr = hole[i]
        best = 0
        for a in range(h):
            ra = hr[a] >> 2
            for b in range(a + 1, h):
                v = omaha[base + pair_idx[ra, hr[b] >> 2]]
                if v > best:
                    best = v
        # A flush needs three board cards of a suit (nibble + 5 reaches 8).
        flags = ((key >> np.uint64(32)) + np.uint64(0x5555)) & SUIT_FLAGS
        if flags:
            for s in range(4):
                if (flags >> np.uint64(4 * s + 3)) & np.uint64(1):
                    v = _omaha_flush(hr, bd, s, flush)
                    if v > best:
                        best = v
        out[i] = best


def omaha_batch(hole: np.ndarray, board: np.ndarray, t: Tables, out: np.ndarray) -> None:
    """Omaha values for hole ``uint8[N, h]`` and five-card boards ``uint8[N, 5]``."""
    _omaha(hole, board, t.card_keys, t.flush, t.shift5, t.offsets5, t.omaha, t.pair_index, out)
