"""Single-hand lookups in the evaluator's tables held as Python lists (``PyTables``):
cheaper than a numba call for one hand, and compiled with mypyc in the native build
(:mod:`pokerarena.native`). The tables come from :func:`pokerarena.evaluator.fast.py_tables`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["PyTables", "high_one", "high_with_board", "omaha_one"]


class PyTables(NamedTuple):
    """The same tables as Python lists, for single hands without a numba call."""

    card_keys: list[int]
    flush: list[int]
    hashes: dict[int, tuple[int, list[int], list[int]]]  # k -> (shift, offsets, values)
    omaha: Any  # a numpy array: as a list it would cost ~20 MB per process
    omaha_values: list[int]
    omaha_board: list[int]
    pair_index: list[int]
    ranks_only: bool


def high_one(codes: Any, t: PyTables) -> int:
    """Value of one hand of 5..7 valid, distinct ordinary cards, in plain Python."""
    ck = t.card_keys
    key = 0
    for c in codes:
        key += ck[c]
    flags = ((key >> 32) + 0x3333) & 0x8888
    if flags and not t.ranks_only:
        s = ((flags & -flags).bit_length() - 4) >> 2
        m = 0
        for c in codes:
            if c & 3 == s:
                m |= 1 << (c >> 2)
        return t.flush[m]
    shift, offsets, values = t.hashes[len(codes)]
    rk = key & 0xFFFFFFFF
    return values[offsets[rk >> shift] + (rk & ((1 << shift) - 1))]


def high_with_board(hole, board_key: int, board, t: PyTables) -> int:
    """``high_one(hole + board)`` with the board's key sum computed once
    (``board_key = sum(t.card_keys[c] for c in board)``) for every player of a showdown."""
    ck = t.card_keys
    key = board_key
    for c in hole:
        key += ck[c]
    flags = ((key >> 32) + 0x3333) & 0x8888
    if flags and not t.ranks_only:
        s = ((flags & -flags).bit_length() - 4) >> 2
        m = 0
        for c in hole:
            if c & 3 == s:
                m |= 1 << (c >> 2)
        for c in board:
            if c & 3 == s:
                m |= 1 << (c >> 2)
        return t.flush[m]
    shift, offsets, values = t.hashes[len(hole) + len(board)]
    rk = key & 0xFFFFFFFF
    return values[offsets[rk >> shift] + (rk & ((1 << shift) - 1))]


def omaha_one(hole: Any, board: Any, t: PyTables) -> int:
    """Omaha value of one hand (2..6 hole cards, five board cards), in plain Python."""
    ck = t.card_keys
    key = ck[board[0]] + ck[board[1]] + ck[board[2]] + ck[board[3]] + ck[board[4]]
    shift, offsets, _ = t.hashes[5]
    rk = key & 0xFFFFFFFF
    base = t.omaha_board[offsets[rk >> shift] + (rk & ((1 << shift) - 1))] * 91
    item = t.omaha.item
    pair_index = t.pair_index
    h = len(hole)
    cls = 0
    for a in range(h):
        ra = (hole[a] >> 2) * 13
        for b in range(a + 1, h):
            v = item(base + pair_index[ra + (hole[b] >> 2)])
            if v > cls:
                cls = v
    best = t.omaha_values[cls]
    flags = 0 if t.ranks_only else ((key >> 32) + 0x5555) & 0x8888
    while flags:  # suits with three or more board cards
        s = ((flags & -flags).bit_length() - 4) >> 2
        flags &= flags - 1
        suited = [c >> 2 for c in hole if c & 3 == s]
        if len(suited) < 2:
            continue
        on_board = [c >> 2 for c in board if c & 3 == s]
        for a in range(len(suited)):
            for b in range(a + 1, len(suited)):
                pm = (1 << suited[a]) | (1 << suited[b])
                for x in range(len(on_board)):
                    for y in range(x + 1, len(on_board)):
                        for z in range(y + 1, len(on_board)):
                            v = t.flush[pm | (1 << on_board[x]) | (1 << on_board[y])
                                        | (1 << on_board[z])]
                            if v > best:
                                best = v
    return best
