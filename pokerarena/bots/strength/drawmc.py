"""The draw games' kernels: every discard of a hand scored on common replacement cards,
and the percentile of a hand among random hands of its ranking.

:func:`_best_discard_fast` (through :class:`DrawTables`) is the one the bots call;
:func:`_discard_core` is the first, plainer version of the same scoring, kept as the
reference the fast one is tested against (the same rows, the same answers). Both rank
hands with :mod:`pokerarena.bots.strength.fastmc`'s tables and table-free rankings.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerarena.bots.strength.fastmc import (
    _LOW_WORD,
    _SUIT_BIAS,
    _SUIT_FLAGS,
    _U32,
    HI_27,
    HI_A5_WILD,
    HI_BADUGI,
    HI_BITS,
    HI_TABLE,
    Plan,
    _below,
    _bits_word,
    _card_bit,
    _seed_state,
    _unpack,
    _value,
)


# --------------------------------------------------------------------------- draws
@njit(cache=True, inline="always")
def _lower_bound(ref, v):  # pragma: no cover - jit
    """How many of the sorted, non-empty ``ref`` lie below ``v`` (branch-free halving,
    as ``np.searchsorted(ref, v)``)."""
    base = 0
    size = ref.size
    while size > 1:
        half = size >> 1
        base = base + half if ref[base + half] < v else base
        size -= half
    return base + 1 if ref[base] < v else base


@njit(cache=True)
def _discard_core(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, ck,
                    flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om, om_values,
                    om_board, pair_idx, ranks_only, xtab, fewer,
                    scores):  # pragma: no cover - jit
    """Mean ``percentile ** expo`` of the hand after each candidate discard.

    ``cand[c]`` is a bit mask of hole positions to throw away. Every candidate is scored
    on the same ``samples`` rows of replacement cards (common random numbers: the
    comparison between candidates is much less noisy than with separate draws); the
    percentile is the share of the sorted ``ref`` values below the hand's value. After
    ``first`` rows only the ``keep`` best candidates (and their ties) go on; the others
    keep their early means. The replacements come from the cards of ``deck`` whose bit
    is not set in ``dead`` (in deck order). Bit-mask highs (``HI_BITS``, ``HI_27``) OR
    each candidate's kept cards, built once, with the row's first drawn cards; the
    fast tables (``HI_TABLE``) likewise add their summed keys and OR their suits'
    rank masks."""
    n = hole.size
    kmax = 0
    for c in range(cand.size):
        d = 0
        for j in range(n):
            if (cand[c] >> j) & 1:
                d += 1
        kmax = max(kmax, d)
    buf = np.empty(deck.size, dtype=np.uint8)
    nr = 0
    for c in deck:
        if not (dead >> np.int64(c)) & 1:
            buf[nr] = c
            nr += 1
    kmax = min(kmax, nr)
    state = _seed_state(seed)
    hand = np.empty(n, dtype=np.uint8)
    scores[:] = 0.0
    rows = np.zeros(cand.size, dtype=np.int64)
    active = np.ones(cand.size, dtype=np.bool_)
    words = mode in (HI_BITS, HI_27)
    keep_w = np.zeros(cand.size, dtype=np.int64)
    ndisc = np.zeros(cand.size, dtype=np.int64)
    pre = np.zeros(kmax + 1, dtype=np.int64)
    keyed = mode == HI_TABLE and 5 <= n <= 7
    keep_k = np.zeros(cand.size, dtype=np.uint64)
    keep_sm = np.zeros((cand.size, 4), dtype=np.int64)
    pre_k = np.zeros(kmax + 1, dtype=np.uint64)
    pre_sm = np.zeros((kmax + 1, 4), dtype=np.int64)
    if words or keyed:
        for c in range(cand.size):
            for j in range(n):
                if (cand[c] >> j) & 1:
                    ndisc[c] += 1
                else:
                    h = hole[j]
                    keep_w[c] |= _card_bit(h)
                    keep_k[c] += ck[h]
                    keep_sm[c, h & 3] |= 1 << (h >> 2)
    for s in range(samples):
        if s == first and keep < cand.size:
            means = np.empty(cand.size)
            for c in range(cand.size):
                means[c] = scores[c] / rows[c] if rows[c] else -1.0
            cut = np.sort(means)[cand.size - keep]
            for c in range(cand.size):
                active[c] = means[c] >= cut
        for j in range(kmax):
            state, r = _below(state, nr - j)
            r += j
            tmp = buf[j]
            buf[j] = buf[r]
            buf[r] = tmp
            if words:
                pre[j + 1] = pre[j] | _card_bit(buf[j])
            elif keyed:
                b = buf[j]
                pre_k[j + 1] = pre_k[j] + ck[b]
                for su in range(4):
                    pre_sm[j + 1, su] = pre_sm[j, su]
                pre_sm[j + 1, b & 3] |= 1 << (b >> 2)
        for c in range(cand.size):
            mask = cand[c]
            if (mask == 0 and s > 0) or not active[c]:
                continue
            if words:
                if ndisc[c] > kmax:
                    continue
                v = _bits_word(keep_w[c] | pre[ndisc[c]], n, mode == HI_BITS)
                if mode == HI_27:
                    v = -v
                pct = _lower_bound(ref, v) / ref.size
                scores[c] += pct if expo == 1.0 else pct ** expo
                rows[c] += 1
                continue
            if keyed:
                d = ndisc[c]
                if d > kmax:
                    continue
                key = keep_k[c] + pre_k[d]
                flags = ((key >> _U32) + _SUIT_BIAS) & _SUIT_FLAGS
                if flags and not ranks_only:
                    su = 0
                    while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
                        su += 1
                    v = np.int64(flush[keep_sm[c, su] | pre_sm[d, su]])
                else:
                    rk = np.int64(key & _LOW_WORD)
                    if n == 7:
                        v = np.int64(val7[off7[rk >> sh7] + (rk & ((1 << sh7) - 1))])
                    elif n == 6:
                        v = np.int64(val6[off6[rk >> sh6] + (rk & ((1 << sh6) - 1))])
                    else:
                        v = np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])
                pct = _lower_bound(ref, v) / ref.size
                scores[c] += pct if expo == 1.0 else pct ** expo
                rows[c] += 1
                continue
            d = 0
            for j in range(n):
                if (mask >> j) & 1:
                    hand[j] = buf[d]
                    d += 1
                else:
                    hand[j] = hole[j]
            if d > kmax:
                continue
            v = _value(hand, n, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
                       off7, val7, ranks_only, xtab, fewer)
            pct = _lower_bound(ref, v) / ref.size
            scores[c] += pct if expo == 1.0 else pct ** expo
            rows[c] += 1
    for c in range(cand.size):
        scores[c] = scores[c] / rows[c] if rows[c] else -1.0


@njit(cache=True)
def _discard_kernel(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, T,
                    A, om, scores):  # pragma: no cover - jit
    """:func:`_discard_core` with the plan's tables packed (:attr:`Plan.packed`)."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om_values, om_board,
     pair_idx, ranks_only, xtab, fewer) = _unpack(T, A)
    _discard_core(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, ck,
                  flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om, om_values,
                  om_board, pair_idx, ranks_only, xtab, fewer, scores)


def discard_scores(plan: Plan, hole: np.ndarray, remaining: np.ndarray, cand: np.ndarray,
                   samples: int, seed: int, ref: np.ndarray, expo: float, first: int = 6,
                   keep: int = 6, mode: int | None = None) -> np.ndarray:
    """Expected ``percentile ** expo`` after each discard of ``cand`` (bit masks of hole
    positions; -1 where the deck is too short); after ``first`` rows only the ``keep``
    best go on (see :func:`_discard_kernel`)."""
    out = np.empty(cand.size, dtype=np.float64)
    _discard_kernel(hole, np.ascontiguousarray(remaining, dtype=np.uint8), 0, cand, samples,
                    seed, ref, expo, first, keep, plan.hi_mode if mode is None else mode,
                    *plan.packed, out)
    return out


@njit(cache=True)
def _best_discard_kernel(hole, deck, dead, cand, penalty, samples, seed, ref, expo, mode, T,
                         A, om):  # pragma: no cover - jit
    """(index, score) of the best of ``cand`` by :func:`_discard_kernel`'s scores less
    ``penalty`` (the first of equals, as ``np.argmax``)."""
    scores = np.empty(cand.size, dtype=np.float64)
    _discard_kernel(hole, deck, dead, cand, samples, seed, ref, expo, 6, 6, mode, T, A, om,
                    scores)
    best = 0
    top = scores[0] - penalty[0]
    for c in range(1, cand.size):
        v = scores[c] - penalty[c]
        if v > top:
            top = v
            best = c
    return best, top


def best_discard_dead(plan: Plan, hole: np.ndarray, dead: int, cand: np.ndarray,
                      penalty: np.ndarray, samples: int, seed: int, ref: np.ndarray,
                      expo: float) -> tuple[int, float]:
    """``(i, score)``: the best candidate by :func:`discard_scores_dead` less
    ``penalty`` (as ``np.argmax``), in one kernel call."""
    return _best_discard_kernel(hole, plan.deck, dead, cand, penalty, samples, seed, ref,
                                expo, plan.hi_mode, *plan.packed)


def discard_scores_dead(plan: Plan, hole: np.ndarray, dead: int, cand: np.ndarray,
                        samples: int, seed: int, ref: np.ndarray, expo: float) -> np.ndarray:
    """:func:`discard_scores` drawing from the plan's deck less the cards whose bit is
    set in ``dead`` (the same scores as ``remaining_cards(plan.deck, dead cards)``)."""
    out = np.empty(cand.size, dtype=np.float64)
    _discard_kernel(hole, plan.deck, dead, cand, samples, seed, ref, expo, 6, 6,
                    plan.hi_mode, *plan.packed, out)
    return out


@njit(cache=True)
def _hand_percentile(hand, ref, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
                     off7, val7, om, om_values, om_board, pair_idx, ranks_only, xtab,
                     fewer):  # pragma: no cover
    """Share of the sorted ``ref`` values below the value of ``hand``."""
    v = _value(hand, hand.size, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
               off7, val7, ranks_only, xtab, fewer)
    return np.searchsorted(ref, v) / ref.size


def hand_percentile(plan: Plan, hand: Any, ref: np.ndarray, mode: int | None = None) -> float:
    """The percentile of one hand among the sorted reference values ``ref`` (as
    ``np.searchsorted(ref, value) / ref.size``), valued in ``mode`` (the plan's)."""
    return _hand_percentile(np.frombuffer(bytes(hand), dtype=np.uint8), ref,
                            plan.hi_mode if mode is None else mode, *plan.tables,
                            *plan.extra)


@njit(cache=True)
def _values(hands, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om,
            om_values, om_board, pair_idx, ranks_only, xtab, fewer, out):  # pragma: no cover
    for i in range(hands.shape[0]):
        out[i] = _value(hands[i], hands.shape[1], mode, ck, flush, sh5, off5, val5, sh6,
                        off6, val6, sh7, off7, val7, ranks_only, xtab, fewer)


def values(plan: Plan, hands: np.ndarray, mode: int | None = None) -> np.ndarray:
    """:func:`_value` of every row of ``hands`` (uint8[N, k]) in ``mode`` (the plan's)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    _values(np.ascontiguousarray(hands, dtype=np.uint8),
            plan.hi_mode if mode is None else mode, *plan.tables, *plan.extra, out)
    return out


@njit(cache=True)
def _without(deck, dead):  # pragma: no cover - jit
    """The cards of ``deck`` (in order) whose bit is not set in ``dead``."""
    out = np.empty(deck.size, dtype=np.uint8)
    n = 0
    for c in deck:
        if not (dead >> np.int64(c)) & 1:
            out[n] = c
            n += 1
    return out[:n]


def remaining_cards(deck: np.ndarray, dead: Any) -> np.ndarray:
    """``deck`` without the cards of ``dead``, in deck order."""
    mask = 0
    for c in dead:
        mask |= 1 << c
    return _without(deck, mask)


# ------------------------------------------------------------ draws: the fast path
def _badugi4_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pattern of clashing pairs among four cards (bit ``k`` for the ``k``-th
    pair 01, 02, 03, 12, 13, 23): the size of the largest clash-free subsets, how many
    there are, and their masks (up to six)."""
    pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    size = np.zeros(64, dtype=np.int64)
    count = np.zeros(64, dtype=np.int64)
    subs = np.zeros((64, 6), dtype=np.int64)
    for p in range(64):
        free = [m for m in range(1, 16)
                if not any((p >> k) & 1 and (m >> i) & 1 and (m >> j) & 1
                           for k, (i, j) in enumerate(pairs))]
        best = max(bin(m).count("1") for m in free)
        top = [m for m in free if bin(m).count("1") == best]
        size[p] = best
        count[p] = len(top)
        subs[p, :len(top)] = top
    return size, count, subs


_B4_SIZE, _B4_COUNT, _B4_SUBS = _badugi4_tables()
# a card's badugi word: its rank bit (ace low, as in _badugi_bits), its suit bit above
_B4_WORD = np.asarray([(1 << (((c >> 2) + 1) % 13)) | (1 << (13 + (c & 3)))
                       for c in range(64)], dtype=np.int64)


@njit(cache=True, inline="always")
def _badugi4(w0, w1, w2, w3):  # pragma: no cover - jit
    """:func:`_badugi_bits` of four distinct cards given by their :data:`_B4_WORD`
    words: the pattern of clashing pairs names the largest clash-free subsets, the
    lowest of them wins."""
    p = (np.int64((w0 & w1) != 0) | (np.int64((w0 & w2) != 0) << 1)
         | (np.int64((w0 & w3) != 0) << 2) | (np.int64((w1 & w2) != 0) << 3)
         | (np.int64((w1 & w3) != 0) << 4) | (np.int64((w2 & w3) != 0) << 5))
    r0 = w0 & 0x1FFF
    r1 = w1 & 0x1FFF
    r2 = w2 & 0x1FFF
    r3 = w3 & 0x1FFF
    best = np.int64(8191)
    for k in range(_B4_COUNT[p]):
        m = _B4_SUBS[p, k]
        rm = ((r0 & -(m & 1)) | (r1 & -((m >> 1) & 1)) | (r2 & -((m >> 2) & 1))
              | (r3 & -((m >> 3) & 1)))
        best = min(best, rm)
    return np.int64(_B4_SIZE[p] * 8192 + 8191 - best)


@njit(cache=True)
def _badugi4_values(hands, out):  # pragma: no cover - jit
    """:func:`_badugi4` of every row of ``hands`` (uint8[N, 4]); for the tests."""
    for i in range(hands.shape[0]):
        out[i] = _badugi4(_B4_WORD[hands[i, 0]], _B4_WORD[hands[i, 1]],
                          _B4_WORD[hands[i, 2]], _B4_WORD[hands[i, 3]])


@njit(cache=True)
def _a5_wild_value(hand, n, ck, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                   fewer):  # pragma: no cover - jit
    """:func:`_value`'s ace-to-five low with jokers (5..7 cards) without its scratch
    array: the naturals' keys and each joker's filled rank summed at once."""
    present = 0
    jokers = 0
    key = np.uint64(0)
    for j in range(n):
        c = hand[j]
        if c >= 52:
            jokers += 1
        else:
            present |= 1 << (((c >> 2) + 1) % 13)
            key += ck[c]
    r = 0
    for _ in range(jokers):
        while (present >> r) & 1:
            r += 1
        present |= 1 << r
        key += ck[((r + 12) % 13) * 4]
    rk = np.int64(key & _LOW_WORD)
    if n == 7:
        v = np.int64(val7[off7[rk >> sh7] + (rk & ((1 << sh7) - 1))])
    elif n == 6:
        v = np.int64(val6[off6[rk >> sh6] + (rk & ((1 << sh6) - 1))])
    else:
        v = np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])
    return v * 8 + (7 - jokers if fewer else 7)


@njit(cache=True)
def _a5_wild_values(hands, T, A, out):  # pragma: no cover - jit
    """:func:`_a5_wild_value` of every row of ``hands``; for the tests."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om_values, om_board,
     pair_idx, ranks_only, xtab, fewer) = _unpack(T, A)
    for i in range(hands.shape[0]):
        out[i] = _a5_wild_value(hands[i], hands.shape[1], ck, sh5, off5, val5, sh6, off6,
                                val6, sh7, off7, val7, fewer)


@njit(cache=True)
def _score_table(ref, expo, out):  # pragma: no cover - jit
    """``out[k]``: the score of a hand beating ``k`` of the sorted ``ref`` values,
    ``(k / ref.size) ** expo`` exactly as :func:`_discard_core` computes it."""
    for k in range(ref.size + 1):
        pct = k / ref.size
        out[k] = pct if expo == 1.0 else pct ** expo


@njit(cache=True)
def _count_table(ref, out):  # pragma: no cover - jit
    """``out[v]``: how many of the sorted ``ref`` values lie below ``v``
    (:func:`_lower_bound` for every ``v`` below ``out.size``)."""
    k = 0
    for v in range(out.size):
        while k < ref.size and ref[k] < v:
            k += 1
        out[v] = k


@njit(cache=True)
def _rank_index(hand, ck, sh5, off5):  # pragma: no cover - jit
    """The index into ``val5`` of a five-card hand's ranks (the fast tables' key)."""
    key = np.uint64(0)
    for j in range(5):
        key += ck[hand[j]]
    rk = np.int64(key & _LOW_WORD)
    return off5[rk >> sh5] + (rk & ((1 << sh5) - 1))


def _five_card_counts(plan: Plan, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reference values below each five-card rank class, by its ``val5`` index (-1
    where none); below each five-card flush, by its rank mask), the hands valued by
    :func:`_value` in the plan's mode (jokers aside)."""
    ck, _, sh5, off5, val5 = plan.tables[:5]
    hands = []
    for combo in _multisets(5):
        hands.append([r * 4 + (i % 4) for i, r in enumerate(combo)])  # never a flush
    hands_a = np.asarray(hands, dtype=np.uint8)
    idx = np.asarray([_rank_index(h, ck, sh5, off5) for h in hands_a], dtype=np.int64)
    counts = np.full(val5.size, -1, dtype=np.int16)
    counts[idx] = np.searchsorted(ref, values(plan, hands_a))
    flushes = np.full(8192, -1, dtype=np.int16)
    masks = [m for m in range(8192) if bin(m).count("1") == 5]
    suited = np.asarray([[r * 4 for r in range(13) if (m >> r) & 1] for m in masks],
                        dtype=np.uint8)
    flushes[masks] = np.searchsorted(ref, values(plan, suited))
    return counts, flushes


def _multisets(k: int) -> list[tuple[int, ...]]:
    """Every multiset of ``k`` ranks (at most four of each)."""
    out = []

    def grow(prefix: list[int], low: int) -> None:
        if len(prefix) == k:
            out.append(tuple(prefix))
            return
        for r in range(low, 13):
            if prefix[-4:] != [r] * 4:
                grow(prefix + [r], r)

    grow([], 0)
    return out


_EMPTY_I16 = np.empty(0, dtype=np.int16)
# the draw kernel's scratch bytes (a fresh array when a call needs more)
_DRAW_WS = np.zeros(16384, dtype=np.uint8)


class DrawTables:
    """What :func:`best_discard_fast` needs of a draw game's hands of one size: the
    plan, the sorted reference values, their counts by value (badugi's four cards), by
    five-card rank class and flush, and the score tables by exponent."""

    __slots__ = ("plan", "n", "ref", "counts", "flushes", "_scores", "tail")

    def __init__(self, plan: Plan, n: int, ref: np.ndarray) -> None:
        self.plan = plan
        self.n = n
        self.ref = np.ascontiguousarray(ref, dtype=np.int64)
        self.counts = self.flushes = _EMPTY_I16
        mode = plan.hi_mode
        if not 0 < self.ref.size < 1 << 15:  # counts in int16 (small tables)
            pass
        elif mode == HI_BADUGI and n == 4:
            self.counts = np.empty(5 * 8192, dtype=np.int16)
            _count_table(self.ref, self.counts)
        elif mode in (HI_TABLE, HI_27, HI_BITS, HI_A5_WILD) and n == 5:
            self.counts, self.flushes = _five_card_counts(plan, self.ref)
        self._scores: dict[float, np.ndarray] = {}
        self.tail = (self.ref, self.counts, self.flushes, mode, *plan.packed, _DRAW_WS)

    def scores(self, expo: float) -> np.ndarray:
        """The score of a hand by how many reference values lie below it."""
        out = self._scores.get(expo)
        if out is None:
            out = np.empty(self.ref.size + 1, dtype=np.float64)
            _score_table(self.ref, expo, out)
            self._scores[expo] = out
        return out


@njit(cache=True)
def _best_discard_fast(hole, deck, dead, cand, penalty, samples, seed, table, ref, counts,
                       flushes, mode, T, A, om, ws):  # pragma: no cover - jit
    """:func:`_best_discard_kernel` (the same candidates, rows and scores) with its
    scratch carved from ``ws`` and a score ``table`` indexed by how many reference
    values lie below the hand (no power per hand). Four-card badugi values come from
    :func:`_badugi4` and their counts from ``counts``; five-card hands sum their kept
    and drawn cards' keys and read their counts from ``counts`` by rank class or from
    ``flushes`` (no evaluation, no search; jokers take the general path)."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om_values, om_board,
     pair_idx, ranks_only, xtab, fewer) = _unpack(T, A)
    n = len(hole)
    nc = cand.size
    kmax = 0
    for c in range(nc):
        d = 0
        for j in range(n):
            if (cand[c] >> j) & 1:
                d += 1
        kmax = max(kmax, d)
    b4 = mode == HI_BADUGI and n == 4 and counts.size > 0
    five = n == 5 and counts.size > 0
    words = not five and mode in (HI_BITS, HI_27)
    keyed = five or (mode == HI_TABLE and 5 <= n <= 7)
    suited = keyed and not (ranks_only or mode == HI_A5_WILD)
    # scratch: int64 rows of nc (scores, means, rows, active, kept word or key, cards
    # drawn, kept jokers, 4 kept suit masks), kmax + 1 prefixes (word or key, jokers,
    # 4 suit masks); then the bytes (the live deck, one hand)
    ni = 11 * nc + 6 * (kmax + 1)
    nbytes = 8 * ni + deck.size + n
    if ws.size < nbytes:
        ws = np.empty(nbytes, dtype=np.uint8)
    wi = ws[:8 * ni].view(np.int64)
    scores = wi[0:nc].view(np.float64)
    means = wi[nc:2 * nc].view(np.float64)
    rows = wi[2 * nc:3 * nc]
    active = wi[3 * nc:4 * nc]
    keep_w = wi[4 * nc:5 * nc]
    ndisc = wi[5 * nc:6 * nc]
    keep_j = wi[6 * nc:7 * nc]
    keep_sm = wi[7 * nc:11 * nc].reshape((nc, 4))  # badugi: the kept cards' words
    o = 11 * nc
    pre = wi[o:o + kmax + 1]
    pre_j = wi[o + kmax + 1:o + 2 * kmax + 2]
    pre_sm = wi[o + 2 * kmax + 2:o + 6 * kmax + 6].reshape((kmax + 1, 4))
    keep_k = keep_w.view(np.uint64)
    pre_k = pre.view(np.uint64)
    buf = ws[8 * ni:8 * ni + deck.size]
    hand = ws[8 * ni + deck.size:8 * ni + deck.size + n]
    nr = 0
    for c in deck:
        if not (dead >> np.int64(c)) & 1:
            buf[nr] = c
            nr += 1
    kmax = min(kmax, nr)
    for c in range(nc):
        scores[c] = 0.0
        rows[c] = 0
        active[c] = 1
        keep_w[c] = 0
        ndisc[c] = 0
        keep_j[c] = 0
        k = 0
        for su in range(4):
            keep_sm[c, su] = 0
        for j in range(n):
            if (cand[c] >> j) & 1:
                ndisc[c] += 1
                continue
            h = hole[j]
            if b4:
                keep_sm[c, k] = _B4_WORD[h]
            elif words:
                keep_w[c] |= _card_bit(h)
            elif keyed and h >= 52:
                keep_j[c] += 1
            elif keyed:
                keep_k[c] += ck[h]
                keep_sm[c, h & 3] |= 1 << (h >> 2)
            k += 1
    pre[0] = 0
    pre_j[0] = 0
    for su in range(4):
        pre_sm[0, su] = 0
    state = _seed_state(seed)
    for s in range(samples):
        if s == 6 and nc > 6:
            # only the six best so far (and their ties) go on
            for c in range(nc):
                means[c] = scores[c] / rows[c] if rows[c] else -1.0
            cut = -np.inf
            for c in range(nc):  # the sixth highest mean, as np.sort(means)[nc - 6]
                above = 0
                same = 0
                for e in range(nc):
                    if means[e] > means[c]:
                        above += 1
                    elif means[e] == means[c]:
                        same += 1
                if above < 6 <= above + same:
                    cut = means[c]
                    break
            for c in range(nc):
                active[c] = means[c] >= cut
        for j in range(kmax):
            state, r = _below(state, nr - j)
            r += j
            b = buf[r]
            buf[r] = buf[j]
            buf[j] = b
            if b4:
                pre[j] = _B4_WORD[b]
            elif words:
                pre[j + 1] = pre[j] | _card_bit(b)
            elif keyed:
                pre_k[j + 1] = pre_k[j]
                pre_j[j + 1] = pre_j[j]
                for su in range(4):
                    pre_sm[j + 1, su] = pre_sm[j, su]
                if b >= 52:
                    pre_j[j + 1] += 1
                else:
                    pre_k[j + 1] += ck[b]
                    pre_sm[j + 1, b & 3] |= 1 << (b >> 2)
        for c in range(nc):
            mask = cand[c]
            if (mask == 0 and s > 0) or not active[c]:
                continue
            d = ndisc[c]
            if d > kmax:
                continue
            rows[c] += 1
            if b4:
                k = 4 - d
                w0 = keep_sm[c, 0] if k > 0 else pre[0]
                w1 = keep_sm[c, 1] if k > 1 else pre[1 - k]
                w2 = keep_sm[c, 2] if k > 2 else pre[2 - k]
                w3 = keep_sm[c, 3] if k > 3 else pre[3 - k]
                scores[c] += table[counts[_badugi4(w0, w1, w2, w3)]]
                continue
            if words:
                v = _bits_word(keep_w[c] | pre[d], n, mode == HI_BITS)
                scores[c] += table[_lower_bound(ref, -v if mode == HI_27 else v)]
                continue
            if keyed and keep_j[c] + pre_j[d] == 0:
                key = keep_k[c] + pre_k[d]
                flags = ((key >> _U32) + _SUIT_BIAS) & _SUIT_FLAGS
                if flags and suited:
                    su = 0
                    while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
                        su += 1
                    fm = keep_sm[c, su] | pre_sm[d, su]
                    if five:
                        scores[c] += table[flushes[fm]]
                        continue
                    v = np.int64(flush[fm])
                else:
                    rk = np.int64(key & _LOW_WORD)
                    if five:
                        scores[c] += table[counts[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))]]
                        continue
                    if n == 7:
                        v = np.int64(val7[off7[rk >> sh7] + (rk & ((1 << sh7) - 1))])
                    elif n == 6:
                        v = np.int64(val6[off6[rk >> sh6] + (rk & ((1 << sh6) - 1))])
                    else:
                        v = np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])
                scores[c] += table[_lower_bound(ref, v)]
                continue
            d = 0
            for j in range(n):
                if (mask >> j) & 1:
                    hand[j] = buf[d]
                    d += 1
                else:
                    hand[j] = hole[j]
            if mode == HI_A5_WILD and 5 <= n <= 7:
                v = _a5_wild_value(hand, n, ck, sh5, off5, val5, sh6, off6, val6, sh7,
                                   off7, val7, fewer)
            else:
                v = _value(hand, n, mode, ck, flush, sh5, off5, val5, sh6, off6, val6,
                           sh7, off7, val7, ranks_only, xtab, fewer)
            scores[c] += table[_lower_bound(ref, v)]
    best = 0
    top = -np.inf
    for c in range(nc):
        v = (scores[c] / rows[c] if rows[c] else -1.0) - penalty[c]
        if c == 0 or v > top:
            top = v
            best = c
    return best, top


def best_discard_fast(tables: DrawTables, hole: np.ndarray, dead: int, cand: np.ndarray,
                      penalty: np.ndarray, samples: int, seed: int,
                      expo: float) -> tuple[int, float]:
    """:func:`best_discard_dead` (the same answer) by :func:`_best_discard_fast`, the
    reference and its tables prepared once in ``tables``."""
    return _best_discard_fast(hole, tables.plan.deck, dead, cand, penalty, samples, seed,
                              tables.scores(expo), *tables.tail)
