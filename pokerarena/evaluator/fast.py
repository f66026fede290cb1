"""Lookup-table kernels for high hands of 5, 6 and 7 cards and for Omaha.

A hand's 64-bit key is the sum of its cards' keys (:func:`tables.card_keys`): the low
word identifies the rank multiset, the high word counts suits in nibbles that start at
3, so a nibble reaching 8 means five cards of that suit. Non-flush hands cost one
perfect-hash lookup; flushes (about 3% of 7-card hands) one more pass over the cards.
The pieces are :mod:`pokerarena.evaluator.kernels`' (shared with the bots' Monte Carlo).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.evaluator import tables as tbl
from pokerarena.evaluator.kernels import (
    BOARD_BIAS,
    SUIT_BIAS,
    SUIT_FLAGS,
    U32,
    Tables,
    flush_suit,
    hash_slot,
    suit_ranks,
)
from pokerarena.evaluator.lookup import (  # noqa: F401 - single-hand lookups, re-exported
    PyTables,
    high_one,
    high_with_board,
    omaha_one,
)
from pokerarena.evaluator.rankings import Ranking

# the tables by ranking parameters (a few MB each): a ranking's tables do not depend
# on the game, only on the ranking, so a sweep of games shares them; bounded all the
# same (the oldest is forgotten) since wild cards and decks make new rankings
_LOADED: dict[bytes, Tables] = {}
LOADED_LIMIT = 16


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
            raw["omaha"], raw["omaha_values"], raw["omaha_board"],
            tbl.pair_index().reshape(-1),
            ranking.ranks_only,
        )
        while len(_LOADED) >= LOADED_LIMIT:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = found
    return found


# The batch kernels index a flattened view of the hands (slicing a row per hand costs
# more than the evaluation), take the tables' arrays one by one (reading an array out of
# a tuple inside the loop costs a reference count each time) and call the shared
# helpers of kernels.py (which cost nothing: measured there).
@njit(cache=True)
def _batch7(flat, ck, flush, shift, offsets, values, ranks_only, out):  # pragma: no cover
    for i in range(out.shape[0]):
        b = i * 7
        key = (ck[flat[b]] + ck[flat[b + 1]] + ck[flat[b + 2]] + ck[flat[b + 3]]
               + ck[flat[b + 4]] + ck[flat[b + 5]] + ck[flat[b + 6]])
        s = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
        if s >= 0:
            out[i] = flush[suit_ranks(flat, b, 7, s)]
        else:
            out[i] = values[hash_slot(key, shift, offsets)]


@njit(cache=True)
def _batch_k(flat, k, ck, flush, shift, offsets, values, ranks_only,
             out):  # pragma: no cover - jit
    for i in range(out.shape[0]):
        b = i * k
        key = np.uint64(0)
        for j in range(k):
            key += ck[flat[b + j]]
        s = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
        if s >= 0:
            out[i] = flush[suit_ranks(flat, b, k, s)]
        else:
            out[i] = values[hash_slot(key, shift, offsets)]


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
        t.pair_index.tolist(), t.ranks_only,
    )


def py_tables_for(ranking: Ranking) -> PyTables:
    """The Python-list tables of a table-friendly ranking, kept on the ranking object."""
    found = ranking.__dict__.get("_py_tables")
    if found is None:
        found = py_tables(tables_for(ranking))
        ranking.__dict__["_py_tables"] = found  # a cache, not part of the frozen value
    return found


# The Omaha batch keeps its board classification and its pairs written out here rather
# than call kernels.omaha_board / omaha_hole_value as the bots' Monte Carlo does: those
# take a dozen table arrays, and an array argument per hand costs its reference count
# (measured: 1.2 M hands/s through the helpers against 6.7 M written out, see kernels.py).
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
    for i in range(out.shape[0]):
        bb = i * 5
        key = (ck[board[bb]] + ck[board[bb + 1]] + ck[board[bb + 2]] + ck[board[bb + 3]]
               + ck[board[bb + 4]])
        base = np.int64(omaha_board[hash_slot(key, shift5, offsets5)]) * 91
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
        flags = ((key >> U32) + BOARD_BIAS) & SUIT_FLAGS
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
