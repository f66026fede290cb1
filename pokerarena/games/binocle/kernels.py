"""The exact expectation of a game of binocle from a position where no stake is pending,
as a numba kernel.

Only the order in which the ranks still needed first turn up matters (a rank already
covered asks nothing more without ``restake``), and that order is a draw without
replacement weighted by each rank's cards left in the stock: ignoring the cards of ranks
already seen, the next new rank is rank ``r`` with probability ``cnt[r] / Σ cnt`` over
the unseen ranks. So the game is a walk over the subsets of the ``m ≤ 13`` relevant
ranks, each subset holding the same stakes whatever the order it was reached in, and the
expectation is exact in ``O(2^m · m · players)``.

Inputs: ``cnt[m]`` cards of each relevant rank left in the stock; for each player still
in, in staking order, ``need[p]`` (the bitmask of his uncovered relevant ranks),
``dead[p]`` (he holds a rank with no card left: he can never be covered) and
``stakes[p, r]`` (his chips on rank ``r``); ``pot0`` the chips on the table; ``me`` the
player whose expectation is wanted (-1: not in any more) and ``mine0`` his chips on the
table; ``split`` the tie rule (a shared pot in whole chips, the odd ones to the first
winners in staking order); ``keeper``: 1 when the stakes of a game nobody wins go to
``me`` (he deals and ``unclaimed = dealer``), 0 when they return, -1 when they go to
another.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def expected_delta(cnt: np.ndarray, need: np.ndarray, dead: np.ndarray, stakes: np.ndarray,
                   pot0: float, me: int, mine0: float, split: bool, keeper: int) -> float:
    """``me``'s expected chips won at the end of the game (see the module docstring)."""
    m = cnt.shape[0]
    n = need.shape[0]
    size = 1 << m
    prob = np.zeros(size)
    pot = np.zeros(size)
    mine = np.zeros(size)
    col = np.zeros(m)
    for r in range(m):
        for q in range(n):
            col[r] += stakes[q, r]
    prob[0] = 1.0
    pot[0] = pot0
    mine[0] = mine0
    value = 0.0
    for s in range(size):
        if s > 0:  # the pot of a subset: that of the subset without its lowest rank
            low = s & -s
            r = 0
            while (1 << r) != low:
                r += 1
            pot[s] = pot[s ^ low] + col[r]
            mine[s] = mine[s ^ low] + (stakes[me, r] if me >= 0 else 0.0)
        p_s = prob[s]
        if p_s == 0.0:
            continue
        tot = 0.0
        for r in range(m):
            if not (s >> r) & 1:
                tot += cnt[r]
        if tot == 0.0:  # the stock holds nothing anyone needs: nobody is ever covered
            if keeper == 1:
                value += p_s * (pot[s] - mine[s])
            elif keeper == -1:
                value -= p_s * mine[s]
            continue
        for r in range(m):
            if (s >> r) & 1 or cnt[r] == 0:
                continue
            p = p_s * cnt[r] / tot
            t = s | (1 << r)
            pw = pot[s]
            mw = mine[s]
            won = 0
            my_place = -1  # among the winners, in staking order (the odd chips' order)
            for q in range(n):
                if stakes[q, r] > 0:
                    pw += stakes[q, r]
                    if q == me:
                        mw += stakes[q, r]
                if not dead[q] and (need[q] >> r) & 1 and (need[q] & ~t) == 0:
                    if q == me:
                        my_place = won
                    won += 1
                    if not split:
                        break
            if won == 0:
                prob[t] += p
            else:
                got = 0.0
                if my_place >= 0:
                    got = np.floor(pw / won) + (1.0 if my_place < pw - np.floor(pw / won) * won
                                                else 0.0)
                value += p * (got - mw)
    return value
