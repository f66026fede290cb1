"""Census: evaluate every k-card hand of a deck and count categories and classes."""

from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit

from pokerarena.cards import CardError, deck
from pokerarena.evaluator import fast, generic
from pokerarena.evaluator.kernels import SUIT_BIAS, flush_suit, hash_slot, suit_ranks
from pokerarena.evaluator.rankings import CATEGORY_NAMES, KIND_A5, KIND_HIGH, Ranking
from pokerarena.evaluator.words import category, qualifies_low

CHUNK = 1 << 20


@njit(cache=True)
def _fast_census7(cards, ck, shift, offsets, ranks_only, slot_hist, flush_hist):
    """Histogram of table slots (non-flush) and suit masks (flush) over all 7-card hands."""
    n = cards.shape[0]
    row = np.zeros(7, np.uint8)
    for a in range(n - 6):
        ka = ck[cards[a]]
        row[0] = cards[a]
        for b in range(a + 1, n - 5):
            kb = ka + ck[cards[b]]
            row[1] = cards[b]
            for c in range(b + 1, n - 4):
                kc = kb + ck[cards[c]]
                row[2] = cards[c]
                for d in range(c + 1, n - 3):
                    kd = kc + ck[cards[d]]
                    row[3] = cards[d]
                    for e in range(d + 1, n - 2):
                        ke = kd + ck[cards[e]]
                        row[4] = cards[e]
                        for f in range(e + 1, n - 1):
                            kf = ke + ck[cards[f]]
                            row[5] = cards[f]
                            for g in range(f + 1, n):
                                key = kf + ck[cards[g]]
                                s = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                                if s >= 0:
                                    row[6] = cards[g]
                                    flush_hist[suit_ranks(row, 0, 7, s)] += 1
                                else:
                                    slot_hist[hash_slot(key, shift, offsets)] += 1


@njit(cache=True)
def _next_chunk(cards, idx, k, params, wild_mask, out):
    """Evaluate up to ``out.size`` combinations from index state ``idx``; returns count."""
    n = cards.shape[0]
    row = np.zeros(k, np.uint8)
    done = 0
    while done < out.shape[0]:
        if idx[0] < 0:
            break
        for i in range(k):
            row[i] = cards[idx[i]]
        out[done] = generic.any_value(row, k, params, wild_mask)
        done += 1
        # advance to the next combination
        i = k - 1
        while i >= 0 and idx[i] == n - k + i:
            i -= 1
        if i < 0:
            idx[0] = -1
            break
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1
    return done


def _value_counts(ranking: Ranking, cards: np.ndarray, k: int) -> Counter:
    """Counter of value -> number of k-card hands."""
    totals: Counter = Counter()
    if ranking.table_friendly and k == 7 and cards.max() < 52:
        t = fast.tables_for(ranking)
        slot_hist = np.zeros(t.values7.size, np.int64)
        flush_hist = np.zeros(8192, np.int64)
        _fast_census7(cards, t.card_keys, t.shift7, t.offsets7, t.ranks_only, slot_hist,
                      flush_hist)
        for hist, values in ((slot_hist, t.values7), (flush_hist, t.flush)):
            nz = np.nonzero(hist)[0]
            vals, inverse = np.unique(values[nz], return_inverse=True)
            sums = np.bincount(inverse, weights=hist[nz]).astype(np.int64)
            for v, c in zip(vals.tolist(), sums.tolist(), strict=True):
                totals[v] += c
        return totals
    idx = np.arange(k, dtype=np.int64)
    out = np.empty(CHUNK, np.int32)
    wild = np.uint64(ranking.wild_mask)
    while idx[0] >= 0:
        done = _next_chunk(cards, idx, k, ranking.params, wild, out)
        vals, counts = np.unique(out[:done], return_counts=True)
        for v, c in zip(vals.tolist(), counts.tolist(), strict=True):
            totals[v] += c
    return totals


def census(k: int, deck_name: str = "standard", ranking: Ranking | None = None) -> dict:
    """Counts of every k-card hand of a deck: ``{"hands", "counts", "distinct", ...}``."""
    from pokerarena.evaluator.rankings import HIGH

    ranking = ranking or HIGH
    cards = deck(deck_name)
    if not 1 <= k <= min(9, cards.size):
        raise CardError(f"--cards must be between 1 and {min(9, cards.size)} for this deck")
    totals = _value_counts(ranking, cards, k)
    counts: Counter = Counter()
    distinct: Counter = Counter()
    royal = 0
    qualifying = 0
    for value, n in totals.items():
        name = category(value, ranking)
        counts[name] += n
        distinct[name] += 1
        if name == "straight_flush" and (value >> 19) & 15 == 13:
            royal += n
        if ranking.kind == KIND_A5 and qualifies_low(value, ranking, 8):
            qualifying += n
    if ranking.kind == KIND_HIGH:
        names = [CATEGORY_NAMES[c] for c in reversed(ranking.order)]
    else:
        names = sorted(counts, key=lambda nm: -max(v for v in totals if category(v, ranking) == nm))
    result = {
        "hands": int(sum(totals.values())),
        "counts": {nm: int(counts.get(nm, 0)) for nm in names},
        "distinct": {nm: int(distinct.get(nm, 0)) for nm in names},
        "distinct_total": len(totals),
    }
    if ranking.kind == KIND_HIGH and "straight_flush" in names and ranking.hand_size == 5:
        result["royal_flush"] = royal
    if ranking.kind == KIND_A5:
        result["qualifying_8"] = qualifying
    return result
