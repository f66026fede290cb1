"""One-call Monte-Carlo kernels for the strength bots.

:func:`deal_values` samples the unseen cards of every player and of the board and looks
each final hand up in the evaluator's fast tables (:func:`pokerarena.evaluator.fast.
tables_for`) in a single numba call, instead of building arrays with ``hstack``/``tile``
and calling the batch evaluator once per player. The cards are drawn exactly as
:func:`pokerarena.bots.strength._sample` draws them (a partial Fisher-Yates shuffle
per row from the same seed), so the estimates are the same deal for deal.

It applies to table-friendly high rankings (no wild cards) whose final hands hold five,
six or seven cards, every card counting (not Omaha); the caller falls back to the
general path otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerarena.evaluator.fast import tables_for

_SUIT_BIAS = np.uint64(0x3333)
_SUIT_FLAGS = np.uint64(0x8888)
_LOW_WORD = np.uint64(0xFFFFFFFF)


@njit(cache=True)
def _deal_values_kernel(remaining, k, seed, total, fixed, fixed_len, need, board, need_board,
                        ck, flush, shift, offsets, values, ranks_only,
                        drawn, vals):  # pragma: no cover - jit
    """Fill ``drawn[total, k]`` (player 0's cards, the board's, then each other
    player's, as :func:`strength._sample` orders them) and ``vals[total, players]``."""
    np.random.seed(seed)
    buf = remaining.copy()
    n = buf.size
    players = fixed.shape[0]
    mask = (1 << shift) - 1
    hand = np.empty(8, dtype=np.uint8)
    nb = board.size
    # where each player's drawn cards start in a row
    start = np.empty(players, dtype=np.int64)
    pos = need[0] + need_board
    start[0] = 0
    for p in range(1, players):
        start[p] = pos
        pos += need[p]
    bstart = need[0]
    for s in range(total):
        for j in range(k):
            r = j + np.random.randint(n - j)
            tmp = buf[j]
            buf[j] = buf[r]
            buf[r] = tmp
            drawn[s, j] = buf[j]
        for p in range(players):
            m = 0
            for j in range(fixed_len[p]):
                hand[m] = fixed[p, j]
                m += 1
            for j in range(need[p]):
                hand[m] = drawn[s, start[p] + j]
                m += 1
            for j in range(nb):
                hand[m] = board[j]
                m += 1
            for j in range(need_board):
                hand[m] = drawn[s, bstart + j]
                m += 1
            key = np.uint64(0)
            for j in range(m):
                key += ck[hand[j]]
            flags = ((key >> np.uint64(32)) + _SUIT_BIAS) & _SUIT_FLAGS
            if flags and not ranks_only:
                su = 0
                while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
                    su += 1
                fm = 0
                for j in range(m):
                    c = hand[j]
                    if (c & 3) == su:
                        fm |= 1 << (c >> 2)
                vals[s, p] = flush[fm]
            else:
                rk = np.int64(key & _LOW_WORD)
                vals[s, p] = values[offsets[rk >> shift] + (rk & mask)]


@njit(cache=True)
def share_mean(vals, mask):  # pragma: no cover - jit
    """Mean pot share of player 0 over the rows where ``mask`` is set (ties split)."""
    total = 0.0
    rows = 0
    for s in range(vals.shape[0]):
        if not mask[s]:
            continue
        rows += 1
        me = vals[s, 0]
        best = me
        ties = 1
        for p in range(1, vals.shape[1]):
            v = vals[s, p]
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
        if me == best:
            total += 1.0 / ties
    return total / rows if rows else 0.0


def supported(rk: Any, hand_cards: int, omaha: bool) -> bool:
    """True when :func:`deal_values` can evaluate final hands of ``hand_cards`` cards."""
    return (rk is not None and not omaha and rk.table_friendly and 5 <= hand_cards <= 7)


def deal_values(rk: Any, remaining: np.ndarray, seed: int, total: int,
                fixed: list[list[int]], need: list[int], board: list[int] | tuple,
                need_board: int) -> tuple[np.ndarray, np.ndarray]:
    """``(drawn, vals)``: ``total`` deals of the unseen cards and each player's hand value.

    Player ``p`` holds ``fixed[p]`` plus ``need[p]`` drawn cards, with the ``board`` plus
    ``need_board`` drawn cards; player 0 is the seat whose equity is wanted. Every final
    hand must hold the same number of cards (5, 6 or 7)."""
    t = tables_for(rk)
    players = len(fixed)
    width = max(1, max(len(f) for f in fixed))
    fx = np.zeros((players, width), dtype=np.uint8)
    for p, f in enumerate(fixed):
        fx[p, :len(f)] = f
    fl = np.asarray([len(f) for f in fixed], dtype=np.int64)
    nd = np.asarray(need, dtype=np.int64)
    size = len(fixed[0]) + need[0] + len(board) + need_board
    if size == 7:
        shift, offsets, values = t.shift7, t.offsets7, t.values7
    elif size == 6:
        shift, offsets, values = t.shift6, t.offsets6, t.values6
    else:
        shift, offsets, values = t.shift5, t.offsets5, t.values5
    k = int(nd.sum()) + need_board
    drawn = np.empty((total, k), dtype=np.uint8)
    vals = np.empty((total, players), dtype=np.int32)
    _deal_values_kernel(np.ascontiguousarray(remaining, dtype=np.uint8), k, seed, total, fx,
                        fl, nd, np.asarray(board, dtype=np.uint8), need_board,
                        t.card_keys, t.flush, shift, offsets, values, t.ranks_only,
                        drawn, vals)
    return drawn, vals
