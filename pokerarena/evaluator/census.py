"""Census: evaluate every k-card hand of a deck and count categories and classes.

Wild cards are interchangeable (a wild's own face never counts), so a deck with ``W``
wild cards is counted as ``sum_w C(W, w) x`` (every ``k - w``-card hand of the natural
cards plus ``w`` wilds): the ``w = 0`` part takes the table kernels (it is most of the
hands) and only the hands holding wilds take the general kernel.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from math import comb

import numpy as np
from numba import njit

from pokerarena.cards import CardError, deck
from pokerarena.evaluator import fast, generic
from pokerarena.evaluator.kernels import LOW_WORD, SUIT_BIAS, flush_suit, hash_slot, suit_ranks
from pokerarena.evaluator.rankings import CATEGORY_NAMES, KIND_A5, KIND_HIGH, Ranking
from pokerarena.evaluator.words import category, qualifies_low

CHUNK = 1 << 20
FOUR_BIAS = np.uint64(0x4444)  # flush_suit with it: a suit reached four


@njit(cache=True)
def _fast_census7(cards, ck, shift, offsets, ranks_only, slot_hist, flush_hist, suffix,
                  rank_keys, a_lo=0, a_hi=1 << 30):  # pragma: no cover - jit
    """Histogram of table slots (non-flush) and suit masks (flush) over all 7-card hands
    (those whose first card is ``cards[a]`` for ``a_lo <= a < a_hi``: a part of the
    census, so that machines can share it).

    The flush test is hoisted out of the innermost loop: when the first six cards hold
    no four of a suit, no seventh card can make a flush, and the seventh cards of one
    rank make the same hand: that loop (all but a few percent of them) counts by rank,
    ``suffix[f + 1, r]`` cards of rank ``r`` after index ``f`` (13 lookups instead of
    up to 46, and no histogram cell bumped twice in a row)."""
    n = cards.shape[0]
    row = np.zeros(7, np.uint8)
    for a in range(a_lo, min(a_hi, n - 6)):
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
                            if ranks_only or not flush_suit(kf, FOUR_BIAS) >= 0:
                                for r in range(13):
                                    m = suffix[f + 1, r]
                                    if m:
                                        slot_hist[hash_slot(kf + rank_keys[r], shift,
                                                            offsets)] += m
                                continue
                            for g in range(f + 1, n):
                                key = kf + ck[cards[g]]
                                s = flush_suit(key, SUIT_BIAS)
                                if s >= 0:
                                    row[6] = cards[g]
                                    flush_hist[suit_ranks(row, 0, 7, s)] += 1
                                else:
                                    slot_hist[hash_slot(key, shift, offsets)] += 1


@njit(cache=True, inline="always")
def next_combination(idx, n, k):
    """Advance ``idx`` (k increasing indices below n) to the next combination in
    lexicographic order; returns the first position that changed, -1 after the last."""
    i = k - 1
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return -1
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return i


@njit(cache=True)
def _fast_census_k(cards, k, ck, shift, offsets, ranks_only, slot_hist, flush_hist):
    """As :func:`_fast_census7` for any ``k`` (5 or 6: the tables' sizes), walking the
    combinations with a stack of partial keys instead of nested loops."""
    n = cards.shape[0]
    idx = np.arange(k)
    row = np.zeros(k, np.uint8)
    keys = np.zeros(k + 1, np.uint64)
    for j in range(k):
        row[j] = cards[j]
        keys[j + 1] = keys[j] + ck[row[j]]
    while True:
        key = keys[k]
        s = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
        if s >= 0:
            flush_hist[suit_ranks(row, 0, k, s)] += 1
        else:
            slot_hist[hash_slot(key, shift, offsets)] += 1
        i = next_combination(idx, n, k)
        if i < 0:
            break
        for j in range(i, k):
            row[j] = cards[idx[j]]
            keys[j + 1] = keys[j] + ck[row[j]]


@njit(cache=True)
def _next_chunk(cards, idx, k, fixed, params, wild_mask, out):
    """Evaluate up to ``out.size`` combinations from index state ``idx``, each with the
    cards of ``fixed`` added (the wild cards of a part of the census); returns count."""
    n = cards.shape[0]
    f = fixed.shape[0]
    row = np.zeros(k + f, np.uint8)
    for i in range(f):
        row[k + i] = fixed[i]
    done = 0
    while done < out.shape[0]:
        if idx[0] < 0:
            break
        for i in range(k):
            row[i] = cards[idx[i]]
        out[done] = generic.any_value(row, k + f, params, wild_mask)
        done += 1
        if next_combination(idx, n, k) < 0:
            idx[0] = -1
            break
    return done


def _table_counts(ranking: Ranking, cards: np.ndarray, k: int,
                  first: tuple[int, int] | None = None) -> Counter:
    """Counter of value -> hands by the table kernels (table-friendly, 5..7 cards);
    ``first``: with 7 cards, only the hands whose first card has an index in that
    half-open range (see :func:`census7_part`)."""
    t = fast.tables_for(ranking)
    shift, offsets, values = {5: (t.shift5, t.offsets5, t.values5),
                              6: (t.shift6, t.offsets6, t.values6),
                              7: (t.shift7, t.offsets7, t.values7)}[k]
    slot_hist = np.zeros(values.size, np.int64)
    flush_hist = np.zeros(8192, np.int64)
    if k == 7:
        lo, hi = first or (0, cards.size)
        # suffix[i, r]: cards of rank r from index i on
        onehot = np.zeros((cards.size + 1, 13), np.int64)
        onehot[np.arange(cards.size), cards >> 2] = 1
        suffix = np.cumsum(onehot[::-1], axis=0)[::-1].copy()
        rank_keys = t.card_keys[0:52:4] & LOW_WORD  # the rank part of a card's key
        _fast_census7(cards, t.card_keys, shift, offsets, t.ranks_only, slot_hist, flush_hist,
                      suffix, rank_keys, lo, hi)
    else:
        _fast_census_k(cards, k, t.card_keys, shift, offsets, t.ranks_only, slot_hist,
                       flush_hist)
    totals: Counter = Counter()
    for hist, vals_of in ((slot_hist, values), (flush_hist, t.flush)):
        nz = np.nonzero(hist)[0]
        vals, inverse = np.unique(vals_of[nz], return_inverse=True)
        sums = np.bincount(inverse, weights=hist[nz]).astype(np.int64)
        for v, c in zip(vals.tolist(), sums.tolist(), strict=True):
            totals[v] += c
    return totals


def _generic_counts(ranking: Ranking, cards: np.ndarray, k: int,
                    fixed: np.ndarray) -> Counter:
    """Counter of value -> hands: every ``k``-card hand of ``cards`` plus ``fixed``."""
    totals: Counter = Counter()
    wild = np.uint64(ranking.wild_mask)
    if k == 0:
        out = np.empty(1, np.int32)
        generic.batch_values(fixed.reshape(1, -1), ranking.params, wild, out)
        totals[int(out[0])] += 1
        return totals
    idx = np.arange(k, dtype=np.int64)
    out = np.empty(CHUNK, np.int32)
    while idx[0] >= 0:
        done = _next_chunk(cards, idx, k, fixed, ranking.params, wild, out)
        vals, counts = np.unique(out[:done], return_counts=True)
        for v, c in zip(vals.tolist(), counts.tolist(), strict=True):
            totals[v] += c
    return totals


def _natural_counts(ranking: Ranking, cards: np.ndarray, k: int) -> Counter:
    """Counter of value -> hands for a deck none of whose cards is wild."""
    if ranking.table_friendly and 5 <= k <= 7 and cards.max() < 52:
        return _table_counts(ranking, cards, k)
    return _generic_counts(ranking, cards, k, np.zeros(0, np.uint8))


def _as_ranking(counts: Counter, plain: Ranking, ranking: Ranking) -> Counter:
    """Values of the wild-free ranking ``plain`` rewritten as values of ``ranking``
    (same hands, no wild card used: only the category's position can differ)."""
    if ranking.kind != KIND_HIGH or plain.order == ranking.order:
        return counts
    moved: Counter = Counter()
    low_bits = (1 << 23) - 1
    for value, n in counts.items():
        pos = ranking.order.index(plain.order[value >> 23])
        moved[(pos << 23) | (value & low_bits)] += n
    return moved


def _value_counts(ranking: Ranking, cards: np.ndarray, k: int) -> Counter:
    """Counter of value -> number of k-card hands (split by wild-card count)."""
    is_wild = np.array([(ranking.wild_mask >> int(c)) & 1 for c in cards], dtype=bool)
    if not is_wild.any():
        return _natural_counts(ranking, cards, k)
    wilds, natural = cards[is_wild], cards[~is_wild]
    plain = dataclasses.replace(ranking, wild=())
    totals: Counter = Counter()
    for w in range(min(k, wilds.size) + 1):
        if k - w > natural.size:
            continue
        if w == 0:
            part = _as_ranking(_natural_counts(plain, natural, k), plain, ranking)
        else:
            part = _generic_counts(ranking, natural, k - w, wilds[:w].copy())
        weight = comb(int(wilds.size), w)
        for v, c in part.items():
            totals[v] += c * weight
    return totals


def census7_split(parts: int, deck_name: str = "standard") -> list[tuple[int, int]]:
    """The 7-card census cut into at most ``parts`` ranges of first-card indices with
    about equal numbers of hands (the first card at index ``a`` of an ``n``-card deck
    starts ``C(n - 1 - a, 6)`` hands), for :func:`census7_part`."""
    n = int(deck(deck_name).size)
    weights = [comb(n - 1 - a, 6) for a in range(n - 6)]
    total = sum(weights)
    cuts: list[tuple[int, int]] = []
    acc = start = 0
    for a, w in enumerate(weights):
        acc += w
        if acc * parts >= total * (len(cuts) + 1) or a == len(weights) - 1:
            cuts.append((start, a + 1))
            start = a + 1
    return cuts


def census7_part(first: tuple[int, int], deck_name: str = "standard",
                 ranking: Ranking | None = None) -> dict[str, int]:
    """Hands by category among the 7-card hands of a deck whose first card has an index
    in ``first`` (half-open): the parts of :func:`census7_split` add up to
    ``census(7, ...)["counts"]``. Table-friendly rankings without wild cards only (the
    split is of the table kernel's outer loop)."""
    from pokerarena.evaluator.rankings import HIGH

    ranking = ranking or HIGH
    cards = deck(deck_name)
    if ranking.wild_mask or not ranking.table_friendly or cards.max() >= 52:
        raise CardError("a split census needs a table-friendly ranking without wild cards")
    counts: Counter = Counter()
    for value, n in _table_counts(ranking, cards, 7, first).items():
        counts[category(value, ranking)] += n
    return dict(counts)


def census(k: int, deck_name: str = "standard", ranking: Ranking | None = None) -> dict:
    """Counts of every k-card hand of a deck: ``{"hands", "counts", "distinct", ...}``."""
    from pokerarena.evaluator.rankings import HIGH

    ranking = ranking or HIGH
    cards = deck(deck_name)
    if not 1 <= k <= min(9, cards.size):
        raise CardError(f"--cards must be between 1 and {min(9, cards.size)} for this deck")
    loose = [c for c in cards.tolist() if c >= 52 and not (ranking.wild_mask >> c) & 1]
    if loose:
        raise CardError(f"the {deck_name} deck has jokers, but they are not wild in this "
                        "ranking")
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
