"""The draw games' kernels: every discard of a hand scored on common replacement cards,
and the percentile of a hand among random hands of its ranking.

:func:`fast_discard_kernel` (through :class:`DrawTables`) is the one the bots call;
:func:`_discard_core` is the first, plainer version of the same scoring, kept as the
reference the fast one is tested against (the same rows, the same answers). Both rank
hands with :mod:`pokerarena.bots.strength.fastmc`'s plans and
:mod:`pokerarena.evaluator.kernels`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from pokerarena.bots.strength.fastmc import (
    HI_27,
    HI_A5_WILD,
    HI_BADUGI,
    HI_BITS,
    HI_TABLE,
    Plan,
    _below,
    _seed_state,
    _unpack,
    _value,
    a5_wild_value,
)
from pokerarena.evaluator.kernels import (
    B4_WORD,
    SUIT_BIAS,
    badugi4,
    bits_word,
    card_bit,
    flush_suit,
    hash_slot,
    sized_value,
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
def _discard_kept(hole, cand, ck, sums):  # pragma: no cover - jit
    """Each candidate's discarded count and (with ``sums``) its kept cards: as one bit
    word, as summed keys and as per-suit rank masks (for :func:`_discard_core`)."""
    n = hole.size
    ndisc = np.zeros(cand.size, dtype=np.int64)
    keep_w = np.zeros(cand.size, dtype=np.int64)
    keep_k = np.zeros(cand.size, dtype=np.uint64)
    keep_sm = np.zeros((cand.size, 4), dtype=np.int64)
    for c in range(cand.size):
        for j in range(n):
            if (cand[c] >> j) & 1:
                ndisc[c] += 1
            elif sums:
                h = hole[j]
                keep_w[c] |= card_bit(h)
                keep_k[c] += ck[h]
                keep_sm[c, h & 3] |= 1 << (h >> 2)
    return ndisc, keep_w, keep_k, keep_sm


@njit(cache=True, inline="always")
def _live(deck, dead, buf):  # pragma: no cover - jit
    """Copy into ``buf`` the cards of ``deck`` whose bit is not set in ``dead``; how
    many."""
    nr = 0
    for c in deck:
        if not (dead >> np.int64(c)) & 1:
            buf[nr] = c
            nr += 1
    return nr


@njit(cache=True)
def _discard_core(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, t,
                  xtab, fewer, scores):  # pragma: no cover - jit
    """Mean ``percentile ** expo`` of the hand after each candidate discard.

    ``cand[c]`` is a bit mask of hole positions to throw away. Every candidate is scored
    on the same ``samples`` rows of replacement cards (common random numbers: the
    comparison between candidates is much less noisy than with separate draws); the
    percentile is the share of the sorted ``ref`` values below the hand's value. After
    ``first`` rows only the ``keep`` best candidates (and their ties) go on; the others
    keep their early means. The replacements come from the cards of ``deck`` whose bit
    is not set in ``dead`` (in deck order). Bit-mask highs (``HI_BITS``, ``HI_27``) OR
    each candidate's kept cards (:func:`_discard_kept`) with the row's first drawn
    cards; the fast tables (``HI_TABLE``) likewise add their summed keys and OR their
    suits' rank masks; other modes value the whole hand (:func:`_value`)."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, _, _, _, _,
     ranks_only) = t
    n = hole.size
    words = mode in (HI_BITS, HI_27)
    keyed = mode == HI_TABLE and 5 <= n <= 7
    ndisc, keep_w, keep_k, keep_sm = _discard_kept(hole, cand, ck, words or keyed)
    buf = np.empty(deck.size, dtype=np.uint8)
    nr = _live(deck, dead, buf)
    kmax = min(ndisc.max() if cand.size else 0, nr)
    state = _seed_state(seed)
    scores[:] = 0.0
    rows = np.zeros(cand.size, dtype=np.int64)
    active = np.ones(cand.size, dtype=np.bool_)
    pre = np.zeros(kmax + 1, dtype=np.int64)
    pre_k = np.zeros(kmax + 1, dtype=np.uint64)
    pre_sm = np.zeros((kmax + 1, 4), dtype=np.int64)
    hand = np.empty(n, dtype=np.uint8)
    for s in range(samples):
        if s == first and keep < cand.size:
            means = np.empty(cand.size)
            for c in range(cand.size):
                means[c] = scores[c] / rows[c] if rows[c] else -1.0
            cut = np.sort(means)[cand.size - keep]
            for c in range(cand.size):
                active[c] = means[c] >= cut
        state = _discard_prefix(buf, nr, kmax, state, words, keyed, pre, pre_k, pre_sm, ck)
        for c in range(cand.size):
            d = ndisc[c]
            if (cand[c] == 0 and s > 0) or not active[c] or d > kmax:
                continue
            if words:
                v = bits_word(keep_w[c] | pre[d], n, mode == HI_BITS)
                v = -v if mode == HI_27 else v
            elif keyed:
                key = keep_k[c] + pre_k[d]
                su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                if su >= 0:
                    v = np.int64(flush[keep_sm[c, su] | pre_sm[d, su]])
                else:
                    v = sized_value(key, n, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7)
            else:
                v = _value(_with_drawn(hole, cand[c], buf, hand), n, mode, ck, flush, sh5,
                           off5, val5, sh6, off6, val6, sh7, off7, val7, ranks_only, xtab,
                           fewer)
            pct = _lower_bound(ref, v) / ref.size
            scores[c] += pct if expo == 1.0 else pct ** expo
            rows[c] += 1
    for c in range(cand.size):
        scores[c] = scores[c] / rows[c] if rows[c] else -1.0


@njit(cache=True, inline="always")
def _discard_prefix(buf, nr, kmax, state, words, keyed, pre, pre_k, pre_sm,
                    ck):  # pragma: no cover - jit
    """Draw this row's ``kmax`` cards to the front of ``buf`` and sum them as they come
    (``pre[d]``: the first ``d`` as a bit word, or summed keys and suit masks); the
    next state."""
    for j in range(kmax):
        state, r = _below(state, nr - j)
        r += j
        tmp = buf[j]
        buf[j] = buf[r]
        buf[r] = tmp
        if words:
            pre[j + 1] = pre[j] | card_bit(buf[j])
        elif keyed:
            b = buf[j]
            pre_k[j + 1] = pre_k[j] + ck[b]
            for su in range(4):
                pre_sm[j + 1, su] = pre_sm[j, su]
            pre_sm[j + 1, b & 3] |= 1 << (b >> 2)
    return state


@njit(cache=True, inline="always")
def _with_drawn(hole, mask, buf, hand):  # pragma: no cover - jit
    """``hand``: the hole with the positions of ``mask`` replaced by the drawn cards
    at the front of ``buf``, in order."""
    d = 0
    for j in range(len(hole)):
        if (mask >> j) & 1:
            hand[j] = buf[d]
            d += 1
        else:
            hand[j] = hole[j]
    return hand


@njit(cache=True)
def _discard_kernel(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, T,
                    A, om, scores):  # pragma: no cover - jit
    """:func:`_discard_core` with the plan's tables packed (:attr:`Plan.packed`)."""
    t, xtab, fewer = _unpack(T, A, om)
    _discard_core(hole, deck, dead, cand, samples, seed, ref, expo, first, keep, mode, t,
                  xtab, fewer, scores)


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
def _hand_percentile(hand, ref, mode, T, A, om):  # pragma: no cover - jit
    """Share of the sorted ``ref`` values below the value of ``hand``."""
    t, xtab, fewer = _unpack(T, A, om)
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, _, _, _, _,
     ranks_only) = t
    v = _value(hand, hand.size, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
               off7, val7, ranks_only, xtab, fewer)
    return np.searchsorted(ref, v) / ref.size


def hand_percentile(plan: Plan, hand: Any, ref: np.ndarray, mode: int | None = None) -> float:
    """The percentile of one hand among the sorted reference values ``ref`` (as
    ``np.searchsorted(ref, value) / ref.size``), valued in ``mode`` (the plan's). The
    hand goes in writable, as every other kernel passes one: a read-only array would
    compile the valuation a second time (4 s here)."""
    return _hand_percentile(np.frombuffer(bytearray(hand), dtype=np.uint8), ref,
                            plan.hi_mode if mode is None else mode, *plan.packed)


@njit(cache=True)
def _values(hands, mode, T, A, om, out):  # pragma: no cover - jit
    t, xtab, fewer = _unpack(T, A, om)
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, _, _, _, _,
     ranks_only) = t
    for i in range(hands.shape[0]):
        out[i] = _value(hands[i], hands.shape[1], mode, ck, flush, sh5, off5, val5, sh6,
                        off6, val6, sh7, off7, val7, ranks_only, xtab, fewer)


def values(plan: Plan, hands: np.ndarray, mode: int | None = None) -> np.ndarray:
    """:func:`_value` of every row of ``hands`` (uint8[N, k]) in ``mode`` (the plan's)."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    _values(np.ascontiguousarray(hands, dtype=np.uint8),
            plan.hi_mode if mode is None else mode, *plan.packed, out)
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
@njit(cache=True)
def _badugi4_values(hands, out):  # pragma: no cover - jit
    """:func:`~pokerarena.evaluator.kernels.badugi4` of every row of ``hands``
    (uint8[N, 4]); for the tests."""
    for i in range(hands.shape[0]):
        out[i] = badugi4(B4_WORD[hands[i, 0]], B4_WORD[hands[i, 1]], B4_WORD[hands[i, 2]],
                         B4_WORD[hands[i, 3]])


@njit(cache=True)
def _a5_wild_values(hands, T, A, om, out):  # pragma: no cover - jit
    """:func:`~pokerarena.bots.strength.fastmc.a5_wild_value` of every row of
    ``hands``; for the tests."""
    t, _, fewer = _unpack(T, A, om)
    (ck, _, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, _, _, _, _, _) = t
    for i in range(hands.shape[0]):
        out[i] = a5_wild_value(hands[i], hands.shape[1], ck, sh5, off5, val5, sh6, off6,
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
    return hash_slot(key, sh5, off5)


def _five_card_counts(plan: Plan, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(reference values below each five-card rank class, by its ``val5`` index (-1
    where none); below each five-card flush, by its rank mask), the hands valued by
    :func:`_value` in the plan's mode (jokers aside)."""
    t = plan.tables
    ck, sh5, off5, val5 = t.card_keys, t.shift5, t.offsets5, t.values5
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


class DrawWork(NamedTuple):
    """:func:`fast_discard_kernel`'s scratch, carved from one byte workspace; per
    candidate, then per prefix of the drawn cards (``kmax + 1``)."""

    scores: np.ndarray  # float64: sum of the candidate's scores
    means: np.ndarray  # float64: its mean after six rows
    rows: np.ndarray  # rows it was scored on
    active: np.ndarray  # 1 while it goes on
    keep_w: np.ndarray  # its kept cards as a bit word; viewed as keep_k: their keys
    ndisc: np.ndarray  # cards it draws
    keep_j: np.ndarray  # jokers it keeps
    keep_sm: np.ndarray  # [nc, 4] its kept cards' suit masks (badugi: their words)
    keep_k: np.ndarray  # uint64 view of keep_w
    pre: np.ndarray  # the first d drawn cards as a bit word (badugi: card d's word)
    pre_j: np.ndarray  # jokers among them
    pre_sm: np.ndarray  # [kmax + 1, 4] their suit masks
    pre_k: np.ndarray  # uint64 view of pre: their keys
    buf: np.ndarray  # the live deck
    hand: np.ndarray  # one hand


class DrawShape(NamedTuple):
    """How :func:`fast_discard_kernel` values the hands of one call."""

    n: int  # hole cards
    nc: int  # candidates
    kmax: int  # most cards drawn
    nr: int  # live cards
    mode: int
    b4: bool  # four-card badugi from the clash pattern and the counts table
    five: bool  # five cards: counts by rank class or flush, no evaluation
    words: bool  # bit-word highs
    keyed: bool  # summed keys into the tables
    suited: bool  # flushes count


@njit(cache=True, inline="always")
def _draw_carve(ws, nc, kmax, deck_size, n):  # pragma: no cover - jit
    """The :class:`DrawWork` of a call from ``ws`` (a fresh one when too small)."""
    ni = 11 * nc + 6 * (kmax + 1)
    nbytes = 8 * ni + deck_size + n
    if ws.size < nbytes:
        ws = np.empty(nbytes, dtype=np.uint8)
    wi = ws[:8 * ni].view(np.int64)
    o = 11 * nc
    pre = wi[o:o + kmax + 1]
    return DrawWork(wi[0:nc].view(np.float64), wi[nc:2 * nc].view(np.float64),
                    wi[2 * nc:3 * nc], wi[3 * nc:4 * nc], wi[4 * nc:5 * nc],
                    wi[5 * nc:6 * nc], wi[6 * nc:7 * nc],
                    wi[7 * nc:11 * nc].reshape((nc, 4)), wi[4 * nc:5 * nc].view(np.uint64),
                    pre, wi[o + kmax + 1:o + 2 * kmax + 2],
                    wi[o + 2 * kmax + 2:o + 6 * kmax + 6].reshape((kmax + 1, 4)),
                    pre.view(np.uint64), ws[8 * ni:8 * ni + deck_size],
                    ws[8 * ni + deck_size:8 * ni + deck_size + n])


@njit(cache=True, inline="always")
def _draw_setup(hole, deck, dead, cand, mode, counts, ranks_only, ws):  # pragma: no cover
    """The call's :class:`DrawWork` (the live deck copied in) and :class:`DrawShape`."""
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
    w = _draw_carve(ws, nc, kmax, deck.size, n)
    nr = _live(deck, dead, w.buf)
    return w, DrawShape(n, nc, min(kmax, nr), nr, mode, b4, five, words, keyed, suited)


@njit(cache=True, inline="always")
def _draw_kept(w, sh, hole, cand, ck):  # pragma: no cover - jit
    """Each candidate's kept cards, summed once in the form its mode reads."""
    scores, rows, active, keep_w, ndisc = w.scores, w.rows, w.active, w.keep_w, w.ndisc
    keep_j, keep_sm, keep_k = w.keep_j, w.keep_sm, w.keep_k
    for c in range(sh.nc):
        scores[c] = 0.0
        rows[c] = 0
        active[c] = 1
        keep_w[c] = 0
        ndisc[c] = 0
        keep_j[c] = 0
        k = 0
        for su in range(4):
            keep_sm[c, su] = 0
        for j in range(sh.n):
            if (cand[c] >> j) & 1:
                ndisc[c] += 1
                continue
            h = hole[j]
            if sh.b4:
                keep_sm[c, k] = B4_WORD[h]
            elif sh.words:
                keep_w[c] |= card_bit(h)
            elif sh.keyed and h >= 52:
                keep_j[c] += 1
            elif sh.keyed:
                keep_k[c] += ck[h]
                keep_sm[c, h & 3] |= 1 << (h >> 2)
            k += 1
    w.pre[0] = 0
    w.pre_j[0] = 0
    w.pre_sm[0, :] = 0


@njit(cache=True, inline="always")
def _six_best(means, scores, rows, active, nc):  # pragma: no cover - jit
    """Only the six best candidates so far (and their ties) go on."""
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


@njit(cache=True)
def fast_discard_kernel(hole, deck, dead, cand, penalty, samples, seed, table, ref, counts,
                       flushes, mode, T, A, om, ws):  # pragma: no cover - jit
    """:func:`_best_discard_kernel` (the same candidates, rows and scores) with its
    scratch carved from ``ws`` (:class:`DrawWork`) and a score ``table`` indexed by how
    many reference values lie below the hand (no power per hand). Four-card badugi
    values come from :func:`~pokerarena.evaluator.kernels.badugi4` and their counts
    from ``counts``; five-card hands sum their kept and drawn cards' keys and read their
    counts from ``counts`` by rank class or from ``flushes`` (no evaluation, no search;
    jokers take the general path).

    A long kernel, on purpose: the candidate loop keeps the workspace's and the tables'
    arrays in locals and is written out (an array read out of a tuple, or passed to a
    helper, once per candidate costs a reference count each time: see
    :func:`pokerarena.bots.strength.fastmc._mc_core`)."""
    t, xtab, fewer = _unpack(T, A, om)
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, _, _, _, _,
     ranks_only) = t
    w, sh = _draw_setup(hole, deck, dead, cand, mode, counts, ranks_only, ws)
    _draw_kept(w, sh, hole, cand, ck)
    (scores, means, rows, active, keep_w, ndisc, keep_j, keep_sm, keep_k, pre, pre_j,
     pre_sm, pre_k, buf, hand) = w
    n, nc, kmax, nr = sh.n, sh.nc, sh.kmax, sh.nr
    b4, five, words, keyed, suited = sh.b4, sh.five, sh.words, sh.keyed, sh.suited
    state = _seed_state(seed)
    for s in range(samples):
        if s == 6 and nc > 6:
            _six_best(means, scores, rows, active, nc)
        for j in range(kmax):  # this row's cards, summed as they come (written out)
            state, r = _below(state, nr - j)
            r += j
            b = buf[r]
            buf[r] = buf[j]
            buf[j] = b
            if b4:
                pre[j] = B4_WORD[b]
            elif words:
                pre[j + 1] = pre[j] | card_bit(b)
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
            d = ndisc[c]
            if (mask == 0 and s > 0) or not active[c] or d > kmax:
                continue
            rows[c] += 1
            if b4:  # (written out: an array argument per candidate costs its count)
                k = 4 - d
                w0 = keep_sm[c, 0] if k > 0 else pre[0]
                w1 = keep_sm[c, 1] if k > 1 else pre[1 - k]
                w2 = keep_sm[c, 2] if k > 2 else pre[2 - k]
                w3 = keep_sm[c, 3] if k > 3 else pre[3 - k]
                scores[c] += table[counts[badugi4(w0, w1, w2, w3)]]
                continue
            if words:
                v = bits_word(keep_w[c] | pre[d], n, mode == HI_BITS)
                scores[c] += table[_lower_bound(ref, -v if mode == HI_27 else v)]
                continue
            if keyed and keep_j[c] + pre_j[d] == 0:
                key = keep_k[c] + pre_k[d]
                su = flush_suit(key, SUIT_BIAS) if suited else -1
                if su >= 0:
                    fm = keep_sm[c, su] | pre_sm[d, su]
                    scores[c] += table[flushes[fm] if five
                                       else _lower_bound(ref, np.int64(flush[fm]))]
                elif five:
                    scores[c] += table[counts[hash_slot(key, sh5, off5)]]
                elif n == 7:
                    scores[c] += table[_lower_bound(ref, np.int64(val7[hash_slot(key, sh7,
                                                                                  off7)]))]
                elif n == 6:
                    scores[c] += table[_lower_bound(ref, np.int64(val6[hash_slot(key, sh6,
                                                                                  off6)]))]
                else:
                    scores[c] += table[_lower_bound(ref, np.int64(val5[hash_slot(key, sh5,
                                                                                  off5)]))]
                continue
            _with_drawn(hole, mask, buf, hand)
            if mode == HI_A5_WILD and 5 <= n <= 7:
                v = a5_wild_value(hand, n, ck, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                                  val7, fewer)
            else:
                v = _value(hand, n, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
                           off7, val7, ranks_only, xtab, fewer)
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
    """:func:`best_discard_dead` (the same answer) by :func:`fast_discard_kernel`, the
    reference and its tables prepared once in ``tables``."""
    return fast_discard_kernel(hole, tables.plan.deck, dead, cand, penalty, samples, seed,
                              tables.scores(expo), *tables.tail)
