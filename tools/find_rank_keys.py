"""Greedy search for rank keys whose sums identify every rank multiset.

Finds 13 non-negative integers k_0 < k_1 < ... such that for every card count
n <= 7, two multisets of n ranks (each rank at most four times) have equal key
sums only if they are equal. The high-hand evaluator hashes these sums. Run once;
the result is written into pokerarena/evaluator/tables.py.
"""

import numba
import numpy as np

MAX_CARDS = 7
LIMIT = 1 << 26


@numba.njit(cache=False)
def _try(k, sums, counts, stamp, token):
    for n in range(MAX_CARDS, 0, -1):
        token += 1
        for m in range(min(4, n), -1, -1):
            base = n - m
            for j in range(counts[base]):
                v = sums[base, j] + m * k
                if v >= LIMIT or stamp[v] == token:
                    return False, token
                stamp[v] = token
    return True, token


@numba.njit(cache=False)
def _search(nranks):
    cap = 200000
    sums = np.zeros((MAX_CARDS + 1, cap), np.int64)
    counts = np.zeros(MAX_CARDS + 1, np.int64)
    counts[0] = 1
    stamp = np.zeros(LIMIT, np.int32)
    token = 0
    keys = np.zeros(nranks, np.int64)
    k = 0
    for r in range(nranks):
        while True:
            ok, token = _try(k, sums, counts, stamp, token)
            if ok:
                break
            k += 1
        keys[r] = k
        new = np.zeros_like(sums)
        newc = np.zeros_like(counts)
        for n in range(MAX_CARDS + 1):
            for m in range(min(4, n) + 1):
                base = n - m
                for j in range(counts[base]):
                    new[n, newc[n]] = sums[base, j] + m * k
                    newc[n] += 1
        sums[:] = new
        counts[:] = newc
        k += 1
    return keys


if __name__ == "__main__":
    keys = _search(13)
    print([int(x) for x in keys], "max sum", int(keys[-1]) * 4 + int(keys[-2]) * 3)
