"""The end of a fast hold'em hand (:mod:`.rules`): the engine's settlement
(:mod:`pokerarena.engine.hand.pots`) in numba: the uncalled bet returned, the main and
side pots, the hands compared with the evaluator's tables, splits and odd chips."""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerarena.engine.fastholdem.layout import MAXN
from pokerarena.engine.fastholdem.params import P_ANTE_TRIM, P_N, P_ODD_CALLED, P_STACKS
from pokerarena.evaluator.kernels import SUIT_BIAS, flush_suit, hash_slot


@njit(cache=True, inline="always")
def high7(c0, c1, board, ck, flush, sh7, off7, val7):  # pragma: no cover - jit
    """The evaluator's value of two hole cards and a five-card board (the tables'
    lookup, as :func:`pokerarena.evaluator.lookup.high_with_board`)."""
    key = ck[c0] + ck[c1]
    for j in range(5):
        key += ck[board[j]]
    su = flush_suit(key, SUIT_BIAS)
    if su >= 0:
        m = 0
        if (c0 & 3) == su:
            m |= 1 << (c0 >> 2)
        if (c1 & 3) == su:
            m |= 1 << (c1 >> 2)
        for j in range(5):
            c = board[j]
            if (c & 3) == su:
                m |= 1 << (c >> 2)
        return np.int64(flush[m])
    return np.int64(val7[hash_slot(key, sh7, off7)])


@njit(cache=True, inline="always")
def build_pots(n, contrib, folded, dead, amounts, elig, levels):  # pragma: no cover - jit
    """The engine's ``build_pots``: the main pot and the side pots (``amounts[k]``,
    ``elig[k, p]``) from what each position put in; returns how many (``levels``:
    scratch)."""
    nlev = 0
    prev = -1
    while True:  # the distinct contributions of the players still in, ascending
        b = -1
        for p in range(n):
            if not folded[p] and contrib[p] > prev and (b < 0 or contrib[p] < b):
                b = contrib[p]
        if b < 0:
            break
        levels[nlev] = b
        nlev += 1
        prev = b
    npots = 0
    total = 0
    for p in range(n):
        total += contrib[p]
    if nlev == 1:
        if total + dead:
            amounts[0] = total + dead
            for p in range(n):
                elig[0, p] = not folded[p]
            npots = 1
        nlev = 0
    prev = 0
    for i in range(nlev):
        level = levels[i]
        amount = 0
        for p in range(n):
            amount += min(contrib[p], level) - min(contrib[p], prev)
            if i == nlev - 1 and contrib[p] > level:
                amount += contrib[p] - level
        if i == 0:
            amount += dead
        prev = level
        if amount:
            amounts[npots] = amount
            for p in range(n):
                elig[npots, p] = not folded[p] and contrib[p] >= level
            npots += 1
    if npots == 0 and dead:
        amounts[0] = dead
        for p in range(n):
            elig[0, p] = not folded[p]
        npots = 1
    return npots


@njit(cache=True)
def settle(h, P, called, seat_of, stack, committed, antes, folded, hole, board, work,
           ck, flush, sh7, off7, val7, o_pot, o_showdown, o_deltas, o_stacks, o_won,
           o_folded, o_in_showdown, o_high, o_npots, o_pot_amount, o_pot_eligible,
           o_pot_won):  # pragma: no cover - jit
    """The engine's ``_settle`` (``_contributions``, ``build_pots``, ``_split``): the
    uncalled bet back, the pots, the hands compared where a pot has two claimants or
    more, splits with the odd chips by priority; fills hand ``h``'s result fields
    (``work``: scratch, int64[4 + MAXN, MAXN]). It is long because the pots, the values
    and the shares are one pass over small arrays."""
    n = P[P_N]
    contrib, amounts, levels, value = work[0], work[1], work[2], work[3]
    elig = work[4:]
    for p in range(n):
        contrib[p] = committed[p]
        value[p] = -1
    for k in range(MAXN):
        amounts[k] = 0
        for p in range(n):
            elig[k, p] = 0
    dead = 0
    if not P[P_ANTE_TRIM]:
        for p in range(n):
            contrib[p] -= antes[p]
            dead += antes[p]
    pmax = 0
    for p in range(n):
        if contrib[p] > contrib[pmax]:
            pmax = p
    second = 0
    for p in range(n):
        if p != pmax and contrib[p] > second:
            second = contrib[p]
    if contrib[pmax] > second:  # the uncalled bet goes back
        stack[pmax] += contrib[pmax] - second
        contrib[pmax] = second
    npots = build_pots(n, contrib, folded, dead, amounts, elig, levels)
    alive = 0
    for p in range(n):
        if not folded[p]:
            alive += 1
    total = 0
    for k in range(npots):
        amount = amounts[k]
        total += amount
        best = -1
        claim = 0
        for p in range(n):
            if elig[k, p]:
                claim += 1
                o_pot_eligible[h, k, seat_of[p]] = True
        if claim > 1:
            for p in range(n):
                if elig[k, p]:
                    if value[p] < 0:
                        value[p] = high7(hole[p, 0], hole[p, 1], board, ck, flush, sh7,
                                         off7, val7)
                    if value[p] > best:
                        best = value[p]
        winners = 0
        for p in range(n):
            if elig[k, p] and (claim == 1 or value[p] == best):
                winners += 1
        share = amount // winners
        rem = amount - share * winners
        i = 0
        first = called if (P[P_ODD_CALLED] and called >= 0) else -1
        for j in range(n):  # the odd-chip priority: the called player, then by position
            p = j if first < 0 else (first if j == 0 else (j - 1 if j - 1 < first else j))
            if elig[k, p] and (claim == 1 or value[p] == best):
                got = share + (1 if i < rem else 0)
                i += 1
                stack[p] += got
                o_pot_won[h, k, seat_of[p]] = got
                o_won[h, seat_of[p]] += got
        o_pot_amount[h, k] = amount
    o_npots[h] = npots
    o_pot[h] = total
    o_showdown[h] = alive > 1  # every round was played: a showdown
    for p in range(n):
        s = seat_of[p]
        o_stacks[h, s] = stack[p]
        o_deltas[h, s] = stack[p] - P[P_STACKS + s]
        o_folded[h, s] = folded[p]
        o_in_showdown[h, s] = value[p] >= 0
        o_high[h, s] = value[p]
