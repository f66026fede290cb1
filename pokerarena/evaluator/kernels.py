"""The numba kernels that rank hands, one copy of each, for every caller: the
evaluator's batch calls (:mod:`.fast`), the census (:mod:`.census`) and the bots' Monte
Carlo (``bots/strength/fastmc.py``, ``drawmc.py``).

- the lookup tables (5 to 7 cards): :func:`flush_suit` tells whether a summed key
  holds five cards of a suit, :func:`suit_ranks` gives that suit's ranks (the flush
  table's index), :func:`hash_slot` / :func:`sized_value` the perfect-hash lookup of
  the rank multiset; :func:`table_value` puts them together for one hand;
- Omaha: :func:`omaha_board` classifies a five-card board once (its class, its flush
  suit and the rank masks of each three of that suit's cards), :func:`omaha_hole_value`
  then ranks any hole on it;
- lows: :func:`low8_value` (eight or better, also Omaha's two-plus-three) and
  :func:`lowest_bits`; deuce-to-seven and standard highs of any size from rank bit
  masks (:func:`bits_high`, :func:`bits_word`);
- badugi: :func:`badugi_bits` (any size), :func:`badugi_fast` (up to six cards),
  :func:`badugi4` (four cards, from the clash pattern).

A card is ``rank * 4 + suit`` (rank 0 = deuce). A hand's 64-bit key is the sum of its
cards' keys (:func:`pokerarena.evaluator.tables.card_keys`): the low word identifies the
rank multiset, the high word counts suits in nibbles biased by 3, so a nibble reaching
8 means five cards of that suit.

How to call them, settled by measurement. The two comments that disagreed ("factored
into an inlined helper, numba's code ran five times slower" in ``fast.py``, and the
``inline="always"`` helpers all over the bots' kernels) were both half right: what
costs is not the call but every array that crosses it.

- a helper whose arguments are numbers costs nothing, inlined or not. The 7-card batch
  over 200,000 random hands, best of 25 interleaved rounds: the lookup written out in
  the loop 137.7 M evaluations/s; calling plain ``@njit`` helpers of another module,
  compiled in an earlier process and loaded from numba's cache, 135.1; calling
  ``inline="always"`` helpers 136.3. (Helpers taking one array, as :func:`hash_slot`,
  the same.)
- reading an array out of a tuple costs a reference-count increment and decrement each
  time, which numba does not prune: the same loop reading ``t.flush`` / ``t.values7``
  of one :class:`Tables` inside the loop, 26.8 M/s against 239.8 with the fields
  unpacked into locals before it (best of 15); a helper taking ``t`` and a row slice per
  hand, 2.9 M/s. So :class:`Tables` is how the tables travel (the evaluator's batch
  calls, the bots' plans) and every kernel unpacks it once, at its top.
- so does every array argument of a helper called per hand, inlined or not. The bots'
  Monte Carlo, hold'em heads-up on the flop, per deal: 53 ns before; 260 ns with its
  loop split into helpers taking the workspace and tables tuples; 61 ns with the loop
  written out but the lookup through :func:`sized_value` (six table arrays), 20 ns more
  with the shuffle and the share as helpers of four arrays; 53 ns again with those
  written out. The evaluator's Omaha batch through :func:`omaha_board` and
  :func:`omaha_hole_value` (a dozen arrays per hand): 1.2 M hands/s against 6.7 M
  written out, so the Omaha batch (now ``batch._omaha``) keeps its own loop. And
  branch-free beats a loop here: :func:`omaha_low8` taking its three lowest bits with
  a ``while`` loop cost the Omaha eight-or-better Monte Carlo a third of its speed.

The rule the kernels follow, then: one copy of each ranking piece here; helpers that
take numbers (and an array or two) are called from anywhere; a kernel's hot loop keeps
its arrays in locals and writes out what would take many of them per iteration (the
long kernels say so in their docstrings).

Before and after this module replaced the copies (the same hands and seeds give the
same results), base and new alternating on this project's shared 2-core machine, best
of three runs (single runs move by up to 40% with the machine's load):

====================================================  ===========  ===========
                                                       before       after
====================================================  ===========  ===========
7-card batch, M hands/s (high / a5_low)                246.9/447.2  250.9/445.4
Omaha batch, M hands/s (high / a5_low)                 21.9/52.3    22.3/45.7
Monte Carlo, M deals/s: hold'em heads-up, flop         20.85        21.54
  hold'em 6 players, pre-flop                          9.08         9.72
  Omaha eight-or-better, 3 players, flop               3.86         3.18
  seven-card stud eight-or-better, heads-up            6.65         7.20
  razz, 3 players                                      9.71         10.38
discards, k calls/s: triple draw / badugi / draw five  168/140/179  157/127/166
one Monte-Carlo call's fixed cost (us)                 3.6          4.2
====================================================  ===========  ===========

The batches: ``evaluate_batch`` / ``evaluate_omaha_batch``-style calls of
``fast.high_batch`` / ``fast.omaha_batch`` (since replaced by :mod:`.batch`'s, faster:
docs/evaluator.md) on 200,000 random hands, best of 15; the
Monte Carlo: ``fastmc.run_packed`` (2,000 deals a call, 50 calls) and
``drawmc.best_discard_fast`` (200 hands, 24 rows), best of 5; whole decisions:
``pokerarena bench bots --variant V --json`` (too noisy on this machine to tell a few
percent) and ``pokerarena bench evaluator --no-peers --json``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

SUIT_BIAS = np.uint64(0x3333)  # a suit nibble reaches 8 at five cards of that suit
BOARD_BIAS = np.uint64(0x5555)  # ... at three cards (an Omaha board's flush suit)
SUIT_FLAGS = np.uint64(0x8888)
LOW_WORD = np.uint64(0xFFFFFFFF)
U32 = np.uint64(32)
U64 = np.uint64
# a card's bit in a word of four 16-bit rank masks, one per suit (summed over a hand:
# suit ``s``'s ranks in bits 16 s .. 16 s + 12); the flush kernels' second key
CARD_MASKS = np.array([(1 << (16 * (c & 3) + (c >> 2))) if c < 52 else 0 for c in range(64)],
                      dtype=np.uint64)


class Tables(NamedTuple):
    """Everything a table kernel reads, as numba-friendly arrays (one type for the
    evaluator's batches and the bots' plans, so one kernel serves both)."""

    card_keys: np.ndarray
    flush: np.ndarray
    shift5: int
    offsets5: np.ndarray
    values5: np.ndarray
    shift6: int
    offsets6: np.ndarray
    values6: np.ndarray
    shift7: int
    offsets7: np.ndarray
    values7: np.ndarray
    omaha: np.ndarray
    omaha_values: np.ndarray
    omaha_board: np.ndarray
    pair_index: np.ndarray  # flat, 13 * 13
    ranks_only: bool  # suits never matter (ace-to-five lows): no flush test


# ------------------------------------------------------------------ lookup tables
@njit(cache=True, inline="always")
def flush_suit(key, bias):  # pragma: no cover - jit
    """The lowest suit whose nibble in ``key``'s high word reaches 8 with ``bias``
    (:data:`SUIT_BIAS`: five cards of it; :data:`BOARD_BIAS`: three), -1 when none."""
    flags = ((key >> U32) + bias) & SUIT_FLAGS
    if not flags:
        return -1
    s = 0
    while not (flags >> np.uint64(4 * s + 3)) & np.uint64(1):
        s += 1
    return s


@njit(cache=True, inline="always")
def flush_shift(key):  # pragma: no cover - jit
    """Where the ranks of the suit with five or more cards in ``key`` sit in a sum of
    :data:`CARD_MASKS` (16 x the suit; 0 when none), without a branch: up to nine
    cards, one suit at most can hold five."""
    flags = ((key >> U32) + SUIT_BIAS) & SUIT_FLAGS
    return (((flags >> U64(7)) & U64(1)) * U64(16) + ((flags >> U64(11)) & U64(1)) * U64(32)
            + ((flags >> U64(15)) & U64(1)) * U64(48))


@njit(cache=True, inline="always")
def suit_ranks(cards, start, k, s):  # pragma: no cover - jit
    """Rank mask of the cards of suit ``s`` among ``cards[start:start + k]``."""
    m = 0
    for j in range(start, start + k):
        c = cards[j]
        if (c & 3) == s:
            m |= 1 << (c >> 2)
    return m


@njit(cache=True, inline="always")
def hash_slot(key, shift, offsets):  # pragma: no cover - jit
    """Index into a values table of the rank multiset of ``key`` (the perfect hash)."""
    rk = np.int64(key & LOW_WORD)
    return offsets[rk >> shift] + (rk & ((1 << shift) - 1))


@njit(cache=True, inline="always")
def sized_value(key, m, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                val7):  # pragma: no cover - jit
    """Value of a non-flush hand of ``m`` (5..7) cards from its key."""
    if m == 7:
        return np.int64(val7[hash_slot(key, sh7, off7)])
    if m == 6:
        return np.int64(val6[hash_slot(key, sh6, off6)])
    return np.int64(val5[hash_slot(key, sh5, off5)])


@njit(cache=True, inline="always")
def table_value(hand, m, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                ranks_only):  # pragma: no cover - jit
    """High value of the first ``m`` (5..7) cards of ``hand`` in the tables (the
    fields of :class:`Tables`, one by one: see the module docstring)."""
    key = np.uint64(0)
    for j in range(m):
        key += ck[hand[j]]
    su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
    if su >= 0:
        return np.int64(flush[suit_ranks(hand, 0, m, su)])
    return sized_value(key, m, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7)


# ------------------------------------------------------------------------- Omaha
@njit(cache=True, inline="always")
def omaha_board(bkey, bsm, om_board, sh5, off5, ranks_only, ranks,
                tris):  # pragma: no cover - jit
    """Classify a five-card Omaha board from its summed key ``bkey`` and per-suit rank
    masks ``bsm``: (its class offset in the Omaha table, the suit with three or more
    cards or -1, how many rank masks of three of that suit's cards went into ``tris``;
    ``ranks``: 13 cells of scratch)."""
    base = np.int64(om_board[hash_slot(bkey, sh5, off5)]) * 91
    fsuit = -1 if ranks_only else flush_suit(bkey, BOARD_BIAS)  # one suit at most
    ntri = 0
    if fsuit >= 0:
        bm = bsm[fsuit]
        cnt = 0
        for x in range(13):
            if (bm >> x) & 1:
                ranks[cnt] = x
                cnt += 1
        for x in range(cnt):
            for y in range(x + 1, cnt):
                for w in range(y + 1, cnt):
                    tris[ntri] = (1 << ranks[x]) | (1 << ranks[y]) | (1 << ranks[w])
                    ntri += 1
    return base, fsuit, ntri


@njit(cache=True, inline="always")
def omaha_hole_value(hole, hb, h, base, fsuit, tris, ntri, flush, om, om_values,
                     pair_idx):  # pragma: no cover - jit
    """Omaha high of the hole ``hole[hb:hb + h]`` on a board classified by
    :func:`omaha_board` (``base``, ``fsuit``, ``tris[:ntri]``)."""
    cls = 0
    for a in range(hb, hb + h):
        ra = (hole[a] >> 2) * 13
        for b in range(a + 1, hb + h):
            v = om[base + pair_idx[ra + (hole[b] >> 2)]]
            if v > cls:
                cls = v
    best = np.int64(om_values[cls])
    if fsuit >= 0:
        for a in range(hb, hb + h):
            ca = hole[a]
            if (ca & 3) != fsuit:
                continue
            for b in range(a + 1, hb + h):
                cb = hole[b]
                if (cb & 3) != fsuit:
                    continue
                pm = (1 << (ca >> 2)) | (1 << (cb >> 2))
                for k in range(ntri):
                    v = np.int64(flush[pm | tris[k]])
                    if v > best:
                        best = v
    return best


# -------------------------------------------------------------------------- lows
@njit(cache=True, inline="always")
def lowest_bits(mask, k):  # pragma: no cover - jit
    """(the ``k`` lowest set bits of ``mask``, how many there were, at most ``k``)."""
    low = 0
    taken = 0
    while taken < k and mask != 0:
        bit = mask & -mask
        low |= bit
        mask ^= bit
        taken += 1
    return low, taken


@njit(cache=True, inline="always")
def low_rank_bit(c):  # pragma: no cover - jit
    """Bit of a card's rank for ace-to-five lows (ace = bit 0), 0 above eight."""
    r = ((c >> 2) + 1) % 13
    return (1 << r) if r <= 7 else 0


@njit(cache=True, inline="always")
def low8_of_mask(mask):  # pragma: no cover - jit
    """Eight-or-better low of the low ranks ``mask`` (:func:`low_rank_bit` bits):
    ``255 - `` its five lowest, -1 with fewer than five."""
    low, taken = lowest_bits(mask, 5)
    return 255 - low if taken == 5 else -1


@njit(cache=True, inline="always")
def omaha_low8(hole, hb, h, blm):  # pragma: no cover - jit
    """Eight-or-better Omaha low (as :func:`low8_of_mask`) of two of the hole
    ``hole[hb:hb + h]`` and three of a board whose low ranks are the bits of ``blm``."""
    best = 256
    for i in range(hb, hb + h):
        bi = low_rank_bit(hole[i])
        if bi == 0:
            continue
        for k in range(i + 1, hb + h):
            bk = low_rank_bit(hole[k])
            if bk == 0 or bk == bi:
                continue
            pm = bi | bk
            rest = blm & ~pm  # its three lowest bits, branch-free (a loop costs 50%)
            b1 = rest & -rest
            rest ^= b1
            b2 = rest & -rest
            rest ^= b2
            b3 = rest & -rest
            if b3 and (pm | b1 | b2 | b3) < best:
                best = pm | b1 | b2 | b3
    return 255 - best if best < 256 else -1


@njit(cache=True)
def low8_value(hand, m, h, omaha):  # pragma: no cover - jit
    """Eight-or-better low of ``hand[:m]`` (higher is better, -1: none); with ``omaha``
    exactly two of the hole ``hand[:h]`` and three of the board ``hand[h:m]``."""
    if not omaha:
        mask = 0
        for j in range(m):
            mask |= low_rank_bit(hand[j])
        return low8_of_mask(mask)
    bm = 0
    for j in range(h, m):
        bm |= low_rank_bit(hand[j])
    return omaha_low8(hand, 0, h, bm)


# ------------------------------------------------------------- rank bit masks
TOP = np.zeros(1 << 14, dtype=np.int8)  # highest set bit of a rank mask
POP = np.zeros(1 << 14, dtype=np.int8)  # set bits of a rank mask
for _m in range(1, 1 << 14):
    TOP[_m] = _m.bit_length() - 1
    POP[_m] = bin(_m).count("1")


@njit(cache=True, inline="always")
def keep_top(mask, k):  # pragma: no cover - jit
    """The ``k`` highest set bits of the rank ``mask``."""
    n = POP[mask]
    while n > k:
        mask &= mask - 1
        n -= 1
    return mask


@njit(cache=True, inline="always")
def straight_top(mask, wheel):  # pragma: no cover - jit
    """Top rank (0 = deuce; 3 for the wheel) of the best five-rank straight in the rank
    ``mask``, -1 when none; ``wheel``: the ace also plays low."""
    ext = mask << 1
    if wheel:
        ext |= (mask >> 12) & 1
    s = ext & (ext >> 1) & (ext >> 2) & (ext >> 3) & (ext >> 4)
    return np.int64(TOP[s]) + 3 if s else -1


@njit(cache=True, inline="always")
def _suit_flush(sm, wheel, sf, flush):  # pragma: no cover - jit
    """(straight flush top, flush ranks) updated with one suit's rank mask ``sm``."""
    if POP[sm] >= 5:
        sf = max(sf, straight_top(sm, wheel))
        flush = max(flush, keep_top(sm, 5))
    return sf, flush


@njit(cache=True, inline="always")
def card_bit(c):  # pragma: no cover - jit
    """A card's bit in a :func:`bits_word` word (suits 16 bits apart)."""
    c = np.int64(c)
    return np.int64(1) << (((c & 3) << 4) + (c >> 2))


@njit(cache=True)
def bits_high(hand, n, wheel):  # pragma: no cover - jit
    """Standard high of the best five of ``hand[:n]`` (any number of cards) from rank
    bit masks, as an int64 ordered like the evaluator's (category, then ranks);
    ``wheel``: A-2-3-4-5 is a straight (not in deuce-to-seven, whose low is the
    negated high without it)."""
    w = np.int64(0)  # the four suits' rank masks, 16 bits apart
    for j in range(n):
        w |= card_bit(hand[j])
    return bits_word(w, n, wheel)


@njit(cache=True)
def bits_word(w, n, wheel):  # pragma: no cover - jit
    """:func:`bits_high` of the ``n`` distinct cards whose :func:`card_bit` bits are
    set in ``w`` (so a kernel can OR known cards in once and dealt ones per deal)."""
    s0 = w & 0x1FFF
    s1 = (w >> 16) & 0x1FFF
    s2 = (w >> 32) & 0x1FFF
    s3 = (w >> 48) & 0x1FFF
    ranks = s0 | s1 | s2 | s3
    m2 = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    flush = -1
    sf = -1
    if n >= 5:
        sf, flush = _suit_flush(s0, wheel, sf, flush)
        sf, flush = _suit_flush(s1, wheel, sf, flush)
        sf, flush = _suit_flush(s2, wheel, sf, flush)
        sf, flush = _suit_flush(s3, wheel, sf, flush)
        if sf >= 0:
            return np.int64((8 << 40) | sf)
    m3 = 0
    if m2:
        m3 = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
        m4 = s0 & s1 & s2 & s3
        if m4:
            q = np.int64(TOP[m4])
            return np.int64((7 << 40) | (q << 32) | keep_top(ranks & ~(1 << q), 1))
        if m3:
            t = np.int64(TOP[m3])
            rest = m2 & ~(1 << t)
            if rest:
                return np.int64((6 << 40) | (t << 32) | (np.int64(TOP[rest]) << 24))
    if flush >= 0:
        return np.int64((5 << 40) | flush)
    st = straight_top(ranks, wheel) if n >= 5 else -1
    if st >= 0:
        return np.int64((4 << 40) | st)
    if m3:
        t = np.int64(TOP[m3])
        return np.int64((3 << 40) | (t << 32) | keep_top(ranks & ~(1 << t), 2))
    if m2:
        p = np.int64(TOP[m2])
        rest = m2 & ~(1 << p)
        if rest:
            p2 = np.int64(TOP[rest])
            return np.int64((2 << 40) | (p << 32) | (p2 << 24)
                            | keep_top(ranks & ~(1 << p) & ~(1 << p2), 1))
        return np.int64((1 << 40) | (p << 32) | keep_top(ranks & ~(1 << p), 3))
    return np.int64(keep_top(ranks, 5))


# ------------------------------------------------------------------------- badugi
# (the evaluator's general badugi_value in generic.py handles wild cards and its int32
# layout; these rank natural cards on the bots' scale: size * 8192 + 8191 - rank mask)
_SUB_PAIRS = np.zeros(64, dtype=np.int64)  # the pairs (bit i * 6 + j) in a subset of 6
for _m in range(64):
    for _i in range(6):
        for _j in range(_i + 1, 6):
            if (_m >> _i) & 1 and (_m >> _j) & 1:
                _SUB_PAIRS[_m] |= 1 << (_i * 6 + _j)


@njit(cache=True)
def badugi_bits(hand, n):  # pragma: no cover - jit
    """Badugi of ``hand[:n]`` (no wild cards): the most cards of distinct ranks and
    suits, then the lowest (ace low), as ``size * 8192 + 8191 - rank mask``."""
    best = np.int64(-1)
    for sel in range(1, 1 << n):
        rm = 0
        sm = 0
        size = 0
        ok = True
        for i in range(n):
            if (sel >> i) & 1:
                c = hand[i]
                r = 1 << (((c >> 2) + 1) % 13)
                s = 1 << (c & 3)
                if (rm & r) or (sm & s):
                    ok = False
                    break
                rm |= r
                sm |= s
                size += 1
        if ok and size <= 4:
            v = np.int64(size * 8192 + 8191 - rm)
            if v > best:
                best = v
    return best


@njit(cache=True)
def badugi_fast(hand, n):  # pragma: no cover - jit
    """:func:`badugi_bits` of at most six cards: the clashing pairs (same rank or suit)
    found once, then only the subsets free of them are ranked."""
    clash = 0
    for i in range(n):
        ci = hand[i]
        for j in range(i + 1, n):
            cj = hand[j]
            if (ci >> 2) == (cj >> 2) or (ci & 3) == (cj & 3):
                clash |= 1 << (i * 6 + j)
    best = np.int64(-1)
    for sel in range(1, 1 << n):
        size = np.int64(POP[sel])
        if _SUB_PAIRS[sel] & clash or size > 4:
            continue
        rm = 0
        t = sel
        while t:
            low = t & -t
            rm |= 1 << (((hand[np.int64(TOP[low])] >> 2) + 1) % 13)
            t ^= low
        v = np.int64(size * 8192 + 8191 - rm)
        if v > best:
            best = v
    return best


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
# a card's badugi word: its rank bit (ace low, as in badugi_bits), its suit bit above
B4_WORD = np.asarray([(1 << (((c >> 2) + 1) % 13)) | (1 << (13 + (c & 3)))
                      for c in range(64)], dtype=np.int64)


@njit(cache=True, inline="always")
def badugi4(w0, w1, w2, w3):  # pragma: no cover - jit
    """:func:`badugi_bits` of four distinct cards given by their :data:`B4_WORD`
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
