"""One-call Monte-Carlo kernels for the strength bots.

:func:`mc_equity` deals the unseen cards of every live player and of the board, ranks
each final hand in the evaluator's fast tables (:func:`pokerarena.evaluator.fast.
tables_for`: five to seven cards, or Omaha's two-plus-three) and, in high-low games,
with the eight-or-better low, and returns the seat's mean share of the pot - all in a
single numba call. It can stop early: given the equity thresholds the caller's decision
turns on, it samples in batches and stops once the estimate lies ``z`` standard errors
away from each of them. With range narrowing, an opponent keeps only the sampled
holdings whose current strength (hold'em pre-flop: a rank/suit score; with a board: the
hand made so far) lies in its top fraction.

Cards are drawn by a partial Fisher-Yates shuffle driven by a seeded xorshift generator
(:func:`sample_rows` draws the same rows for the general numpy path). The draw games'
discard kernels, built on the same rankings, are in :mod:`pokerarena.bots.strength.drawmc`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from pokerarena.evaluator import generic, ranking
from pokerarena.evaluator.fast import tables_for

_SUIT_BIAS = np.uint64(0x3333)
_SUIT_FLAGS = np.uint64(0x8888)
_LOW_WORD = np.uint64(0xFFFFFFFF)
_U32 = np.uint64(32)

HI_NONE, HI_TABLE, HI_OMAHA, HI_BITS, HI_SMALL, HI_27, HI_BADUGI, HI_A5_WILD = range(8)
LO_NONE, LO_EIGHT = 0, 1
SCORE_NONE, SCORE_PREFLOP, SCORE_MADE = 0, 1, 2
PILOT = 48  # random holdings scored to find a narrowed range's cut


# --------------------------------------------------------------------------- random
@njit(cache=True, inline="always")
def _seed_state(seed):  # pragma: no cover - jit
    """A non-zero xorshift state from a seed (one splitmix64 step)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z if z != np.uint64(0) else np.uint64(1)


@njit(cache=True, inline="always")
def _below(state, m):  # pragma: no cover - jit
    """(next state, a number in ``[0, m)``): xorshift64* and a multiply-shift."""
    x = state
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> _U32
    return x, np.int64((r * np.uint64(m)) >> _U32)


@njit(cache=True)
def _sample_rows(remaining, k, seed, out):  # pragma: no cover - jit
    """Rows of ``k`` distinct cards of ``remaining`` (partial Fisher-Yates per row)."""
    state = _seed_state(seed)
    buf = remaining.copy()
    n = buf.size
    for s in range(out.shape[0]):
        for j in range(k):
            state, r = _below(state, n - j)
            r += j
            tmp = buf[j]
            buf[j] = buf[r]
            buf[r] = tmp
            out[s, j] = buf[j]


def sample_rows(remaining: np.ndarray, rows: int, k: int, seed: int) -> np.ndarray:
    """``rows`` rows of ``k`` distinct cards drawn uniformly from ``remaining``."""
    out = np.empty((rows, k), dtype=np.uint8)
    if k and rows:
        _sample_rows(np.ascontiguousarray(remaining, dtype=np.uint8), k, seed, out)
    return out


# --------------------------------------------------------------------------- ranking
@njit(cache=True, inline="always")
def _table_value(hand, m, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                 ranks_only):  # pragma: no cover - jit
    """High value of the first ``m`` (5..7) cards of ``hand``."""
    key = np.uint64(0)
    for j in range(m):
        key += ck[hand[j]]
    flags = ((key >> _U32) + _SUIT_BIAS) & _SUIT_FLAGS
    if flags and not ranks_only:
        su = 0
        while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
            su += 1
        fm = 0
        for j in range(m):
            c = hand[j]
            if (c & 3) == su:
                fm |= 1 << (c >> 2)
        return np.int64(flush[fm])
    rk = np.int64(key & _LOW_WORD)
    if m == 7:
        return np.int64(val7[off7[rk >> sh7] + (rk & ((1 << sh7) - 1))])
    if m == 6:
        return np.int64(val6[off6[rk >> sh6] + (rk & ((1 << sh6) - 1))])
    return np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])


@njit(cache=True, inline="always")
def _omaha_partial(hand, h, subkeys, subsm, nsub, ck, flush, sh5, off5, val5,
                   ranks_only):  # pragma: no cover - jit
    """Best five-card high of two of the hole ``hand[:h]`` with three cards of an
    incomplete board, given as the summed keys ``subkeys[:nsub]`` and per-suit rank
    masks ``subsm[:nsub]`` of each three of its cards (:func:`_board_threes`)."""
    best = np.int64(-1)
    for a in range(h):
        ca = hand[a]
        for b in range(a + 1, h):
            cb = hand[b]
            pk = ck[ca] + ck[cb]
            for t in range(nsub):
                key = pk + subkeys[t]
                flags = ((key >> _U32) + _SUIT_BIAS) & _SUIT_FLAGS
                if flags and not ranks_only:
                    su = 0
                    while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
                        su += 1
                    v = np.int64(flush[subsm[t, su] | (1 << (ca >> 2)) | (1 << (cb >> 2))])
                else:
                    rk = np.int64(key & _LOW_WORD)
                    v = np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])
                if v > best:
                    best = v
    return best


@njit(cache=True)
def _board_threes(board, ck, subkeys, subsm):  # pragma: no cover - jit
    """For each three of the (three or four) ``board`` cards: their summed keys and
    per-suit rank masks, for :func:`_omaha_partial`; how many threes there are."""
    nb = board.size
    t = 0
    for x in range(nb):
        for y in range(x + 1, nb):
            for z in range(y + 1, nb):
                subkeys[t] = ck[board[x]] + ck[board[y]] + ck[board[z]]
                for su in range(4):
                    subsm[t, su] = 0
                for c in (board[x], board[y], board[z]):
                    subsm[t, c & 3] |= 1 << (c >> 2)
                t += 1
    return t


@njit(cache=True, inline="always")
def _low_rank_bit(c):  # pragma: no cover - jit
    """Bit of a card's rank for ace-to-five lows (ace = bit 0), 0 above eight."""
    r = ((c >> 2) + 1) % 13
    return (1 << r) if r <= 7 else 0


@njit(cache=True)
def _low8_value(hand, m, h, omaha):  # pragma: no cover - jit
    """Eight-or-better low of ``hand[:m]`` (higher is better, -1: none); with ``omaha``
    exactly two of the hole ``hand[:h]`` and three of the board ``hand[h:m]``."""
    best = 256
    if not omaha:
        mask = 0
        for j in range(m):
            mask |= _low_rank_bit(hand[j])
        low = 0
        taken = 0
        while taken < 5 and mask != 0:
            bit = mask & -mask
            low |= bit
            mask ^= bit
            taken += 1
        if taken == 5:
            best = low
    else:
        bm = 0
        for j in range(h, m):
            bm |= _low_rank_bit(hand[j])
        for i in range(h):
            bi = _low_rank_bit(hand[i])
            if bi == 0:
                continue
            for k in range(i + 1, h):
                bk = _low_rank_bit(hand[k])
                if bk == 0 or bk == bi:
                    continue
                pm = bi | bk
                rest = bm & ~pm
                low = 0
                taken = 0
                while taken < 3 and rest != 0:
                    bit = rest & -rest
                    low |= bit
                    rest ^= bit
                    taken += 1
                if taken == 3 and (pm | low) < best:
                    best = pm | low
    return 255 - best if best < 256 else -1


@njit(cache=True, inline="always")
def _preflop_score(a, b):  # pragma: no cover - jit
    """A rank/suit score of a two-card holding (higher: more likely to be raised)."""
    ra = np.int64(a >> 2)
    rb = np.int64(b >> 2)
    hi = max(ra, rb)
    lo = min(ra, rb)
    s = hi * 2 + lo - min(hi - lo, 5)
    if hi == lo:
        s += 14
    if (a & 3) == (b & 3):
        s += 3
    return float(s)


# ------------------------------------------------------------- table-free rankings
_TOP = np.zeros(1 << 14, dtype=np.int8)  # highest set bit of a rank mask
_POP = np.zeros(1 << 14, dtype=np.int8)  # set bits of a rank mask
for _m in range(1, 1 << 14):
    _TOP[_m] = _m.bit_length() - 1
    _POP[_m] = bin(_m).count("1")


@njit(cache=True, inline="always")
def _keep_top(mask, k):  # pragma: no cover - jit
    """The ``k`` highest set bits of the rank ``mask``."""
    n = _POP[mask]
    while n > k:
        mask &= mask - 1
        n -= 1
    return mask


@njit(cache=True, inline="always")
def _straight_top(mask, wheel):  # pragma: no cover - jit
    """Top rank (0 = deuce; 3 for the wheel) of the best five-rank straight in the rank
    ``mask``, -1 when none; ``wheel``: the ace also plays low."""
    ext = mask << 1
    if wheel:
        ext |= (mask >> 12) & 1
    s = ext & (ext >> 1) & (ext >> 2) & (ext >> 3) & (ext >> 4)
    return np.int64(_TOP[s]) + 3 if s else -1


@njit(cache=True, inline="always")
def _suit_flush(sm, wheel, sf, flush):  # pragma: no cover - jit
    """(straight flush top, flush ranks) updated with one suit's rank mask ``sm``."""
    if _POP[sm] >= 5:
        sf = max(sf, _straight_top(sm, wheel))
        flush = max(flush, _keep_top(sm, 5))
    return sf, flush


@njit(cache=True, inline="always")
def _card_bit(c):  # pragma: no cover - jit
    """A card's bit in a :func:`_bits_word` word (suits 16 bits apart)."""
    c = np.int64(c)
    return np.int64(1) << (((c & 3) << 4) + (c >> 2))


@njit(cache=True)
def _bits_high(hand, n, wheel):  # pragma: no cover - jit
    """Standard high of the best five of ``hand[:n]`` (any number of cards) from rank
    bit masks, as an int64 ordered like the evaluator's (category, then ranks);
    ``wheel``: A-2-3-4-5 is a straight (not in deuce-to-seven)."""
    w = np.int64(0)  # the four suits' rank masks, 16 bits apart
    for j in range(n):
        w |= _card_bit(hand[j])
    return _bits_word(w, n, wheel)


@njit(cache=True)
def _bits_word(w, n, wheel):  # pragma: no cover - jit
    """:func:`_bits_high` of the ``n`` distinct cards whose :func:`_card_bit` bits are
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
            q = np.int64(_TOP[m4])
            return np.int64((7 << 40) | (q << 32) | _keep_top(ranks & ~(1 << q), 1))
        if m3:
            t = np.int64(_TOP[m3])
            rest = m2 & ~(1 << t)
            if rest:
                return np.int64((6 << 40) | (t << 32) | (np.int64(_TOP[rest]) << 24))
    if flush >= 0:
        return np.int64((5 << 40) | flush)
    st = _straight_top(ranks, wheel) if n >= 5 else -1
    if st >= 0:
        return np.int64((4 << 40) | st)
    if m3:
        t = np.int64(_TOP[m3])
        return np.int64((3 << 40) | (t << 32) | _keep_top(ranks & ~(1 << t), 2))
    if m2:
        p = np.int64(_TOP[m2])
        rest = m2 & ~(1 << p)
        if rest:
            p2 = np.int64(_TOP[rest])
            return np.int64((2 << 40) | (p << 32) | (p2 << 24)
                            | _keep_top(ranks & ~(1 << p) & ~(1 << p2), 1))
        return np.int64((1 << 40) | (p << 32) | _keep_top(ranks & ~(1 << p), 3))
    return np.int64(_keep_top(ranks, 5))


_SUB_PAIRS = np.zeros(64, dtype=np.int64)  # the pairs (bit i * 6 + j) in a subset of 6
for _m in range(64):
    for _i in range(6):
        for _j in range(_i + 1, 6):
            if (_m >> _i) & 1 and (_m >> _j) & 1:
                _SUB_PAIRS[_m] |= 1 << (_i * 6 + _j)


@njit(cache=True)
def _badugi_fast(hand, n):  # pragma: no cover - jit
    """:func:`_badugi_bits` of at most six cards: the clashing pairs (same rank or suit)
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
        size = np.int64(_POP[sel])
        if _SUB_PAIRS[sel] & clash or size > 4:
            continue
        rm = 0
        t = sel
        while t:
            low = t & -t
            rm |= 1 << (((hand[np.int64(_TOP[low])] >> 2) + 1) % 13)
            t ^= low
        v = np.int64(size * 8192 + 8191 - rm)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _badugi_bits(hand, n):  # pragma: no cover - jit
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
def _value(hand, n, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
           ranks_only, xtab, fewer):  # pragma: no cover - jit
    """Value of ``hand[:n]`` (higher is better) in a ranking ``mode``: the fast tables
    (5..7 cards), standard highs by bit masks (any size), a direct table of every
    two- or three-card hand (``xtab``), deuce-to-seven lows, badugi, or ace-to-five
    lows with jokers (a joker takes the lowest rank missing; with ``fewer`` a hand
    with fewer jokers wins ties)."""
    if mode == HI_TABLE:
        return _table_value(hand, n, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
                            off7, val7, ranks_only)
    if mode == HI_BITS:
        return _bits_high(hand, n, True)
    if mode == HI_SMALL:
        if n == 2:
            return np.int64(xtab[np.int64(hand[0]) * 52 + hand[1]])
        return np.int64(xtab[2704 + (np.int64(hand[0]) * 52 + hand[1]) * 52 + hand[2]])
    if mode == HI_27:
        return -_bits_high(hand, n, False)
    if mode == HI_BADUGI:
        return _badugi_fast(hand, n) if n <= 6 else _badugi_bits(hand, n)
    # ace-to-five with jokers: naturals keep their ranks, jokers fill the lowest gaps
    present = 0
    jokers = 0
    tmp = np.empty(n, dtype=np.uint8)
    m = 0
    for j in range(n):
        c = hand[j]
        if c >= 52:
            jokers += 1
        else:
            present |= 1 << (((c >> 2) + 1) % 13)
            tmp[m] = c
            m += 1
    r = 0
    for _ in range(jokers):
        while (present >> r) & 1:
            r += 1
        present |= 1 << r
        tmp[m] = ((r + 12) % 13) * 4
        m += 1
    v = _table_value(tmp, n, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                     val7, True)
    return v * 8 + (7 - jokers if fewer else 7)


# --------------------------------------------------------------------------- kernel
@njit(cache=True, inline="always")
def _omaha_board(bkey, bsm, om_board, off5, sh5, ranks, tris,
                 ranks_only):  # pragma: no cover - jit
    """Classify a five-card Omaha board from its summed key ``bkey`` and per-suit rank
    masks ``bsm``: (its class offset in ``om``, the suit with three or more cards or
    -1, how many rank masks of three of that suit's cards went into ``tris``)."""
    rk = np.int64(bkey & _LOW_WORD)
    base = np.int64(om_board[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))]) * 91
    fsuit = -1
    ntri = 0
    bflags = ((bkey >> _U32) + np.uint64(0x5555)) & _SUIT_FLAGS
    for s in range(4):
        if ranks_only or not (bflags >> np.uint64(4 * s + 3)) & np.uint64(1):
            continue
        bm = bsm[s]
        cnt = 0
        for x in range(13):
            if (bm >> x) & 1:
                ranks[cnt] = x
                cnt += 1
        if cnt >= 3:
            fsuit = s
            for x in range(cnt):
                for y in range(x + 1, cnt):
                    for w in range(y + 1, cnt):
                        tris[ntri] = (1 << ranks[x]) | (1 << ranks[y]) | (1 << ranks[w])
                        ntri += 1
    return base, fsuit, ntri


@njit(cache=True, inline="always")
def _omaha_hole_value(hand, h, base, fsuit, tris, ntri, flush, om, om_values, pair_idx,
                      ranks_only):  # pragma: no cover - jit
    """Omaha high of the hole ``hand[:h]`` on a board given by its class offset ``base``
    (``om_board`` class times 91) and, when three or more board cards share the suit
    ``fsuit`` (else -1), the rank masks ``tris[:ntri]`` of each three of them."""
    cls = 0
    for a in range(h):
        ra = (hand[a] >> 2) * 13
        for b in range(a + 1, h):
            v = om[base + pair_idx[ra + (hand[b] >> 2)]]
            if v > cls:
                cls = v
    best = np.int64(om_values[cls])
    if fsuit >= 0 and not ranks_only:
        for a in range(h):
            ca = hand[a]
            if (ca & 3) != fsuit:
                continue
            for b in range(a + 1, h):
                cb = hand[b]
                if (cb & 3) != fsuit:
                    continue
                pm = (1 << (ca >> 2)) | (1 << (cb >> 2))
                for t in range(ntri):
                    v = np.int64(flush[pm | tris[t]])
                    if v > best:
                        best = v
    return best


@njit(cache=True, inline="always")
def _omaha_low8(hand, h, blm):  # pragma: no cover - jit
    """Eight-or-better Omaha low of the hole ``hand[:h]`` with a board whose low ranks
    are the bits of ``blm`` (as :func:`_low8_value`)."""
    best = 256
    for i in range(h):
        bi = _low_rank_bit(hand[i])
        if bi == 0:
            continue
        for k in range(i + 1, h):
            bk = _low_rank_bit(hand[k])
            if bk == 0 or bk == bi:
                continue
            pm = bi | bk
            rest = blm & ~pm
            b1 = rest & -rest
            rest ^= b1
            b2 = rest & -rest
            rest ^= b2
            b3 = rest & -rest
            if b3 and (pm | b1 | b2 | b3) < best:
                best = pm | b1 | b2 | b3
    return 255 - best if best < 256 else -1


@njit(cache=True)
def _mc_core(flat, players, hole_final, board_final, seed, max_total, min_total, batch,
               z, nth, t0, t1, t2, t3, hi_mode, lo_mode, frac, score_mode, pilot, deck,
               ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
               om, om_values, om_board, pair_idx, ranks_only, xtab,
               fewer, ws):  # pragma: no cover - jit
    """(sum of the seat's pot shares, deals counted, deals dealt); see :func:`mc_equity`
    (``flat``: the card rows of :func:`pack`; up to four thresholds ``t0..t3``, the
    first ``nth`` of them in use).

    High hands are ranked from summed card keys: each player's known cards and the
    board are summed once (the board once per deal), so a deal only adds the cards it
    dealt; an Omaha board is classified once per deal for every player. The small
    arrays are carved from the byte workspace ``ws`` (:data:`_WS`; a fresh one when it
    is too small), so a call allocates nothing but the narrowing pilot's scores."""
    # the rows: players (the seat first), the board, the dead cards
    width = 1
    pos = 0
    for _ in range(players + 2):
        width = max(width, np.int64(flat[pos]) + 1)
        pos += np.int64(flat[pos]) + 1
    # the workspace: the int64 and float64 parts (8-byte aligned), then the bytes
    ni = 12 * players + 35
    nbytes = 8 * ni + (players + 2) * width + 64 + 2 * deck.size + 16 + players + 64 + 1
    if ws.size < nbytes:
        ws = np.empty(nbytes, dtype=np.uint8)
    wi = ws[:8 * ni].view(np.int64)
    need = wi[0:players]
    start = wi[players:2 * players]
    pkey = wi[2 * players:3 * players].view(np.uint64)
    size = wi[3 * players:4 * players]
    pw = wi[4 * players:5 * players]
    hv = wi[5 * players:6 * players]
    lv = wi[6 * players:7 * players]
    cut = wi[7 * players:8 * players].view(np.float64)
    psm = wi[8 * players:12 * players].reshape((players, 4))
    o = 12 * players
    bsm0 = wi[o:o + 4]
    bsm = wi[o + 4:o + 8]
    tris = wi[o + 8:o + 18]
    ranks = wi[o + 18:o + 31]
    thresholds = wi[o + 31:o + 35].view(np.float64)
    pos = 8 * ni
    cards = ws[pos:pos + (players + 2) * width].reshape((players + 2, width))
    pos += (players + 2) * width
    seen = ws[pos:pos + 64]
    pos += 64
    buf = ws[pos:pos + deck.size]
    pos += deck.size
    row = ws[pos:pos + deck.size + 1]
    pos += deck.size + 1
    hand = ws[pos:pos + 16]
    pos += 16
    narrowed = ws[pos:pos + players]
    pos += players
    board_ws = ws[pos:pos + 64]
    cards[:] = 0
    pos = 0
    for p in range(players + 2):
        c = np.int64(flat[pos])
        for j in range(c + 1):
            cards[p, j] = flat[pos + j]
        pos += c + 1
    thresholds[0] = t0
    thresholds[1] = t1
    thresholds[2] = t2
    thresholds[3] = t3
    nb = np.int64(cards[players, 0])
    board = board_ws[:nb]
    for j in range(nb):
        board[j] = cards[players, 1 + j]
    need_board = max(0, board_final - nb)
    for p in range(players):
        need[p] = max(0, hole_final - np.int64(cards[p, 0]))
    # the cards nobody is known to hold (every row: players, board, dead cards)
    seen[:] = 0
    for p in range(players + 2):
        for j in range(np.int64(cards[p, 0])):
            seen[cards[p, 1 + j]] = 1
    n = 0
    for j in range(deck.size):
        if not seen[deck[j]]:
            buf[n] = deck[j]
            n += 1
    # drawn cards per row: player 0's, the board's, then each opponent's
    k = need_board
    for p in range(players):
        k += need[p]
    if k > n:
        return 0.0, 0, 0
    start[0] = 0
    pos = need[0] + need_board
    for p in range(1, players):
        start[p] = pos
        pos += need[p]
    bstart = need[0]
    # summed keys and per-suit rank masks of each player's known cards and the board
    pkey[:] = 0
    psm[:] = 0
    for p in range(players):
        for j in range(np.int64(cards[p, 0])):
            c = cards[p, 1 + j]
            pkey[p] += ck[c]
            psm[p, c & 3] |= 1 << (c >> 2)
        size[p] = np.int64(cards[p, 0]) + need[p] + nb + need_board
    bkey0 = np.uint64(0)
    bsm0[:] = 0
    for j in range(nb):
        c = board[j]
        bkey0 += ck[c]
        bsm0[c & 3] |= 1 << (c >> 2)
    bsm[:] = bsm0
    bkey = bkey0
    # HI_BITS: each player's known cards and the board as one word, ORed once
    words = hi_mode == HI_BITS
    pw[:] = 0
    bw0 = np.int64(0)
    if words:
        for p in range(players):
            for j in range(np.int64(cards[p, 0])):
                pw[p] |= _card_bit(cards[p, 1 + j])
        for j in range(nb):
            bw0 |= _card_bit(board[j])
    bw = bw0
    narrowed[:] = 0
    narrowing = False
    if score_mode != SCORE_NONE:
        for p in range(1, players):
            if frac[p] < 0.999:
                narrowed[p] = 1
                narrowing = True
    build = lo_mode != LO_NONE or hi_mode == HI_OMAHA or (hi_mode >= HI_BITS and not words)
    hv[:] = 0
    lv[:] = 0
    state = _seed_state(seed)
    base = np.int64(0)
    fsuit = -1
    ntri = 0
    tris[:] = 0
    ranks[:] = 0
    if hi_mode == HI_OMAHA and nb == 5:  # a complete board: classified once
        base, fsuit, ntri = _omaha_board(bkey0, bsm0, om_board, off5, sh5, ranks, tris,
                                         ranks_only)
    subkeys = np.zeros(4, dtype=np.uint64)  # an incomplete board's threes (narrowing)
    subsm = np.zeros((4, 4), dtype=np.int64)
    nsub = 0
    if hi_mode == HI_OMAHA and 3 <= nb <= 4 and narrowing:
        nsub = _board_threes(board, ck, subkeys, subsm)
    # narrowing: the score each narrowed opponent must reach, from a pilot sample
    cut[:] = -np.inf
    attempts = max_total
    if narrowing:
        keep = 1.0
        for p in range(1, players):
            if narrowed[p]:
                keep *= frac[p]
        attempts = int(min(max_total / max(keep, 1e-9), 4.0 * max_total))
        sc = np.empty(pilot, dtype=np.float64)
        for p in range(1, players):
            if not narrowed[p]:
                continue
            for s in range(pilot):
                for j in range(need[p]):
                    state, r = _below(state, n - j)
                    r += j
                    tmp = buf[j]
                    buf[j] = buf[r]
                    buf[r] = tmp
                m = 0
                for j in range(np.int64(cards[p, 0])):
                    hand[m] = cards[p, 1 + j]
                    m += 1
                for j in range(need[p]):
                    hand[m] = buf[j]
                    m += 1
                sc[s] = _score(hand, m, board, score_mode, hi_mode, ck, flush, sh5, off5,
                               val5, sh6, off6, val6, sh7, off7, val7, ranks_only, xtab,
                               fewer, base, fsuit, tris, ntri, om, om_values, pair_idx,
                               subkeys, subsm, nsub)
            cut[p] = np.quantile(sc, 1.0 - frac[p])
    # the seat's hand is fixed when nothing is still to come for it
    mine_fixed = need[0] == 0 and need_board == 0
    # with the board complete, a made-hand score of a high-only game is the final value
    score_final = (need_board == 0 and score_mode == SCORE_MADE and lo_mode == LO_NONE
                   and (hi_mode == HI_TABLE or hi_mode >= HI_BITS
                        or (hi_mode == HI_OMAHA and nb == 5)))
    evaluated = False
    blm = 0
    total = 0.0
    used = 0
    dealt = 0
    while dealt < attempts and used < max_total:
        dealt += 1
        for j in range(k):
            state, r = _below(state, n - j)
            r += j
            tmp = buf[j]
            buf[j] = buf[r]
            buf[r] = tmp
            row[j] = buf[j]
        if hi_mode != HI_NONE and (need_board or dealt == 1):
            bkey = bkey0
            for s in range(4):
                bsm[s] = bsm0[s]
            for j in range(need_board):
                c = row[bstart + j]
                bkey += ck[c]
                bsm[c & 3] |= 1 << (c >> 2)
            if words:
                bw = bw0
                for j in range(need_board):
                    bw |= _card_bit(row[bstart + j])
            if hi_mode == HI_OMAHA:
                base, fsuit, ntri = _omaha_board(bkey, bsm, om_board, off5, sh5, ranks,
                                                 tris, ranks_only)
                if lo_mode == LO_EIGHT:
                    blm = 0
                    for j in range(nb):
                        blm |= _low_rank_bit(board[j])
                    for j in range(need_board):
                        blm |= _low_rank_bit(row[bstart + j])
        rejected = False
        for p in range(players - 1, -1, -1):  # opponents first: rejections come early
            if p == 0 and mine_fixed and evaluated:
                continue
            sp = start[p]
            h = 0
            if build or narrowed[p]:
                for j in range(np.int64(cards[p, 0])):
                    hand[h] = cards[p, 1 + j]
                    h += 1
                for j in range(need[p]):
                    hand[h] = row[sp + j]
                    h += 1
                if narrowed[p]:
                    sc_p = _score(hand, h, board, score_mode, hi_mode, ck, flush, sh5, off5,
                                  val5, sh6, off6, val6, sh7, off7, val7, ranks_only, xtab,
                                  fewer, base, fsuit, tris, ntri, om, om_values, pair_idx,
                               subkeys, subsm, nsub)
                    if sc_p < cut[p]:
                        rejected = True
                        break
                    if score_final:  # the score was the final hand's value
                        hv[p] = np.int64(sc_p)
                        continue
            if hi_mode == HI_TABLE:
                key = pkey[p] + bkey
                for j in range(need[p]):
                    key += ck[row[sp + j]]
                flags = ((key >> _U32) + _SUIT_BIAS) & _SUIT_FLAGS
                if flags and not ranks_only:
                    su = 0
                    while not (flags >> np.uint64(4 * su + 3)) & np.uint64(1):
                        su += 1
                    fm = psm[p, su] | bsm[su]
                    for j in range(need[p]):
                        c = row[sp + j]
                        if (c & 3) == su:
                            fm |= 1 << (c >> 2)
                    hv[p] = np.int64(flush[fm])
                else:
                    rk = np.int64(key & _LOW_WORD)
                    m = size[p]
                    if m == 7:
                        hv[p] = np.int64(val7[off7[rk >> sh7] + (rk & ((1 << sh7) - 1))])
                    elif m == 6:
                        hv[p] = np.int64(val6[off6[rk >> sh6] + (rk & ((1 << sh6) - 1))])
                    else:
                        hv[p] = np.int64(val5[off5[rk >> sh5] + (rk & ((1 << sh5) - 1))])
            elif words:
                w = pw[p] | bw
                for j in range(need[p]):
                    w |= _card_bit(row[sp + j])
                hv[p] = _bits_word(w, size[p], True)
            elif hi_mode >= HI_BITS:
                m = h
                for j in range(nb):
                    hand[m] = board[j]
                    m += 1
                for j in range(need_board):
                    hand[m] = row[bstart + j]
                    m += 1
                hv[p] = _value(hand, m, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
                               val6, sh7, off7, val7, ranks_only, xtab, fewer)
            elif hi_mode == HI_OMAHA:
                hv[p] = _omaha_hole_value(hand, h, base, fsuit, tris, ntri, flush, om,
                                          om_values, pair_idx, ranks_only)
            if lo_mode == LO_EIGHT and hi_mode == HI_OMAHA:
                lv[p] = _omaha_low8(hand, h, blm)
            elif lo_mode == LO_EIGHT:
                m = h
                for j in range(nb):
                    hand[m] = board[j]
                    m += 1
                for j in range(need_board):
                    hand[m] = row[bstart + j]
                    m += 1
                lv[p] = _low8_value(hand, m, h, hi_mode == HI_OMAHA)
            if p == 0:
                evaluated = True
        if rejected:
            continue
        # the seat's share: the high half, and the low half when anyone has a low
        best_lo = np.int64(-1)
        if lo_mode != LO_NONE:
            for p in range(players):
                if lv[p] > best_lo:
                    best_lo = lv[p]
        hi_part = 0.0
        if hi_mode != HI_NONE:
            best = hv[0]
            ties = 1
            for p in range(1, players):
                if hv[p] > best:
                    best = hv[p]
                    ties = 1
                elif hv[p] == best:
                    ties += 1
            if hv[0] == best:
                hi_part = 1.0 / ties
        if best_lo >= 0:
            lo_part = 0.0
            if lv[0] == best_lo:
                ties = 0
                for p in range(players):
                    if lv[p] == best_lo:
                        ties += 1
                lo_part = 1.0 / ties
            total += 0.5 * hi_part + 0.5 * lo_part
        else:
            total += hi_part
        used += 1
        if (used >= min_total and used < max_total and nth
                and (used - min_total) % batch == 0):
            mean = total / used
            var = max(mean * (1.0 - mean), 0.01) / used
            clear = True
            for t in range(nth):
                d = mean - thresholds[t]
                if d * d <= z * z * var:
                    clear = False
                    break
            if clear:
                break
    return total, used, dealt


@njit(cache=True)
def _score(hand, m, board, score_mode, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
           val6, sh7, off7, val7, ranks_only, xtab, fewer, base, fsuit, tris, ntri, om,
           om_values, pair_idx, subkeys, subsm, nsub):  # pragma: no cover - jit
    """Current strength of a holding ``hand[:m]`` for range narrowing (an Omaha river
    board comes classified: ``base``, ``fsuit``, ``tris[:ntri]`` of :func:`_omaha_board`;
    an earlier one as its threes: ``subkeys``, ``subsm``, ``nsub`` of
    :func:`_board_threes`)."""
    if score_mode == SCORE_PREFLOP:
        return _preflop_score(hand[0], hand[1])
    nb = board.size
    if hi_mode == HI_OMAHA and nb == 5:
        return float(_omaha_hole_value(hand, m, base, fsuit, tris, ntri, flush, om,
                                       om_values, pair_idx, ranks_only))
    for j in range(nb):
        hand[m + j] = board[j]
    if hi_mode >= HI_BITS:
        return float(_value(hand, m + nb, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
                            val6, sh7, off7, val7, ranks_only, xtab, fewer))
    if hi_mode == HI_OMAHA:
        return float(_omaha_partial(hand, m, subkeys, subsm, nsub, ck, flush, sh5, off5,
                                    val5, ranks_only))
    return float(_table_value(hand, m + nb, ck, flush, sh5, off5, val5, sh6, off6, val6,
                              sh7, off7, val7, ranks_only))


_XTABS: dict[Any, np.ndarray] = {}


def _small_table(rk: Any) -> np.ndarray:
    """Values of every ordered two-card hand (first 52**2 cells) and three-card hand
    (the next 52**3) under ``rk``, from the general evaluator, built once per ranking
    (its parameters and wild cards: what the values depend on)."""
    key = (rk.params.tobytes(), int(rk.wild_mask))
    found = _XTABS.get(key)
    if found is None:
        c = np.arange(52, dtype=np.uint8)
        two = np.stack(np.meshgrid(c, c, indexing="ij"), -1).reshape(-1, 2)
        three = np.stack(np.meshgrid(c, c, c, indexing="ij"), -1).reshape(-1, 3)
        wild = np.uint64(rk.wild_mask)
        v2 = np.empty(two.shape[0], dtype=np.int64)
        v3 = np.empty(three.shape[0], dtype=np.int64)
        generic.batch_values(np.ascontiguousarray(two), rk.params, wild, v2)
        generic.batch_values(np.ascontiguousarray(three), rk.params, wild, v3)
        found = _XTABS[key] = np.concatenate([v2, v3])
    return found


def mode_for(rk: Any, sizes: Any) -> int | None:
    """The kernel ranking mode that values hands of every size in ``sizes`` under
    ``rk`` (see :func:`_value`), None when no kernel does."""
    sizes = set(sizes)
    if rk is None or not sizes:
        return None
    if rk.table_friendly and sizes <= {5, 6, 7}:
        return HI_TABLE
    if rk == ranking("high"):
        return HI_BITS
    if rk.wild:
        if (rk.name == "a5_low" and set(rk.wild) <= {52, 53} and rk.deck.startswith("standard")
                and sizes <= {5, 6, 7}):
            return HI_A5_WILD
        return None
    if rk.name in ("three_card", "three_card_casino", "two_card") and sizes <= {2, 3} \
            and rk.deck == "standard":
        return HI_SMALL
    if rk == ranking("27_low") and sizes == {5}:
        return HI_27
    if rk == ranking("badugi") and max(sizes) <= 6:
        return HI_BADUGI
    return None


_HEAD = 20  # header cells of a plan's int32 table pack (see _pack_tables)


def _pack_tables(tables: tuple, extra: tuple, hi_mode: int,
                 lo_mode: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A plan's tables as three arrays (fewer kernel arguments): int32 ``T`` (a header
    of shifts, flags, modes and offsets, then the int32 tables), int64 ``A`` (card keys,
    pair index, two/three-card values) and the uint16 Omaha classes."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om, om_values,
     om_board, pair_idx, ranks_only) = tables
    xtab, fewer = extra
    parts = [flush, off5, val5, off6, val6, off7, val7, om_values, om_board]
    head = [sh5, sh6, sh7, int(ranks_only), int(fewer), hi_mode, lo_mode]
    pos = _HEAD
    for a in parts:
        head.append(pos)
        pos += a.size
    head.append(pos)  # head[16]: the end
    head += [ck.size, ck.size + pair_idx.size, 0]
    if any(np.asarray(a).dtype.itemsize > 4 and a.size
           and (a.max() > 2**31 - 1 or a.min() < -2**31) for a in parts):
        raise ValueError("table values beyond int32")
    t = np.concatenate([np.asarray(head, dtype=np.int32)]
                       + [np.asarray(a, dtype=np.int32) for a in parts])
    a64 = np.concatenate([ck.view(np.int64), np.asarray(pair_idx, dtype=np.int64),
                          np.asarray(xtab, dtype=np.int64)])
    return t, a64, np.ascontiguousarray(om)


@njit(cache=True, inline="always")
def _unpack(T, A):  # pragma: no cover - jit
    """The tables of :func:`_pack_tables` as views, in the kernels' argument order
    (``ck`` to ``val7``, then ``om_values, om_board, pair_idx, ranks_only, xtab,
    fewer``)."""
    ck = A[0:T[17]].view(np.uint64)
    return (ck, T[T[7]:T[8]], np.int64(T[0]), T[T[8]:T[9]], T[T[9]:T[10]], np.int64(T[1]),
            T[T[10]:T[11]], T[T[11]:T[12]], np.int64(T[2]), T[T[12]:T[13]],
            T[T[13]:T[14]], T[T[14]:T[15]], T[T[15]:T[16]], A[T[17]:T[18]], T[3] != 0,
            A[T[18]:], T[4] != 0)


@njit(cache=True)
def _mc_kernel(flat, players, hole_final, board_final, seed, max_total, min_total, batch,
               z, nth, t0, t1, t2, t3, frac, score_mode, pilot, deck, T, A, om,
               ws):  # pragma: no cover - jit
    """:func:`_mc_core` with the plan's tables packed (:attr:`Plan.packed`) and its
    modes in their header: 22 arguments instead of 39."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om_values, om_board,
     pair_idx, ranks_only, xtab, fewer) = _unpack(T, A)
    return _mc_core(flat, players, hole_final, board_final, seed, max_total, min_total,
                    batch, z, nth, t0, t1, t2, t3, np.int64(T[5]), np.int64(T[6]), frac,
                    score_mode, pilot, deck, ck, flush, sh5, off5, val5, sh6, off6, val6,
                    sh7, off7, val7, om, om_values, om_board, pair_idx, ranks_only, xtab,
                    fewer, ws)


class Plan:
    """The per-game constants of :func:`mc_equity`: deck, modes and tables; ``mode``
    (:func:`mode_for`) ranks the highs - or a low-only game's lows - without the fast
    tables."""

    __slots__ = ("deck", "hi_mode", "lo_mode", "tables", "memo", "extra", "packed")

    def __init__(self, deck: np.ndarray, high: Any, low8: bool, omaha: bool,
                 low_ranking: Any = None, mode: int | None = None) -> None:
        self.deck = np.ascontiguousarray(deck, dtype=np.uint8)
        self.hi_mode = HI_NONE if high is None else (HI_OMAHA if omaha else HI_TABLE)
        if mode is not None:
            self.hi_mode = mode
        self.lo_mode = LO_EIGHT if low8 else LO_NONE
        rk = high if high is not None else low_ranking
        xtab = _small_table(rk) if mode == HI_SMALL else _EMPTY_I
        self.extra = (xtab, bool(getattr(rk, "fewer_wilds_win", True)))
        if mode == HI_A5_WILD:
            rk = ranking("a5_low")
        elif mode is not None and mode != HI_TABLE:
            rk = ranking("high")
        t = tables_for(rk)
        self.tables = (t.card_keys, t.flush, t.shift5, t.offsets5, t.values5, t.shift6,
                       t.offsets6, t.values6, t.shift7, t.offsets7, t.values7, t.omaha,
                       t.omaha_values, t.omaha_board, t.pair_index.reshape(-1),
                       t.ranks_only)
        self.memo: dict = {}  # per-game derived data (pre-flop tables)
        self.packed = _pack_tables(self.tables, self.extra, self.hi_mode, self.lo_mode)


_EMPTY_F = np.empty(0, dtype=np.float64)
_EMPTY_I = np.empty(0, dtype=np.int64)
_EMPTY_U8 = np.empty(0, dtype=np.uint8)
_NO_NARROW = np.ones(16, dtype=np.float64)
# the kernels' scratch bytes, reused by every call (a call holds the GIL throughout)
_WS = np.zeros(8192, dtype=np.uint8)


def pack(rows: list[Any], board: Any = (), dead: Any = ()) -> bytes:
    """The kernel's card rows, flat bytes: ``count, cards...`` for each player (the
    seat first), then for the board, then for dead cards (the kernel reads ``bytes``
    as they are: no array to build per call)."""
    cells: list[int] = []
    for r in (*rows, board, dead):
        cells.append(len(r))
        cells += r
    return bytes(cells)


def run_packed(plan: Plan, cards: bytes, players: int, hole_final: int,
               board_final: int, seed: int, max_total: int, min_total: int,
               thresholds: tuple[float, ...] = (), frac: np.ndarray | None = None,
               score_mode: int = SCORE_NONE, batch: int = 16, z: float = 2.5,
               pilot: int = PILOT) -> tuple[float, int]:
    """:func:`mc_equity` on the rows of :func:`pack` (at most four thresholds)."""
    nth = len(thresholds)
    if nth > 4:
        raise ValueError("at most four thresholds")
    t = (*thresholds, 0.0, 0.0, 0.0, 0.0)
    args = (cards, players, hole_final, board_final, seed, max_total, min_total, batch, z,
            nth, t[0], t[1], t[2], t[3])
    if frac is None:
        total, used, _ = _mc_kernel(*args, _NO_NARROW, SCORE_NONE, 0, plan.deck,
                                    *plan.packed, _WS)
        return total, used
    total, used, dealt = _mc_kernel(*args, frac, score_mode, pilot, plan.deck, *plan.packed,
                                    _WS)
    if used < 8 and dealt:
        total, used, _ = _mc_kernel(*args, _NO_NARROW, SCORE_NONE, 0, plan.deck,
                                    *plan.packed, _WS)
    return total, used


def mc_equity(plan: Plan, fixed: np.ndarray, fixed_len: np.ndarray, hole_final: int,
              board_final: int, seed: int, max_total: int, dead: np.ndarray = _EMPTY_U8,
              min_total: int | None = None, thresholds: np.ndarray = _EMPTY_F,
              frac: np.ndarray | None = None, score_mode: int = SCORE_NONE,
              batch: int = 16, z: float = 2.5, pilot: int = PILOT) -> tuple[float, int]:
    """``(sum of shares, deals counted)`` for player 0; ``(0.0, 0)`` when the deck is
    too short. Row ``p`` of ``fixed`` (uint8[players + 1, w]) holds player ``p``'s
    ``fixed_len[p]`` known cards, the last row the board's; each player's hand is dealt
    up to ``hole_final`` cards, the board up to ``board_final``.

    Sampling stops after ``min_total`` deals (and each ``batch`` more) once the mean is
    ``z`` standard errors from every one of ``thresholds`` (at most four). ``frac[p] < 1``
    narrows opponent ``p`` to its top fraction by ``score_mode``: the score's quantile
    over ``pilot`` random holdings is the cut, and deals where the opponent holds less
    are redealt (at most ``max_total / prod(frac)`` deals, four times ``max_total`` at
    most; fewer than 8 kept deals fall back to no narrowing)."""
    lo = max_total if min_total is None else min(min_total, max_total)
    players = fixed.shape[0] - 1
    rows = [fixed[p, :int(fixed_len[p])].tolist() for p in range(players + 1)]
    cards = pack(rows[:players], rows[players], np.asarray(dead, dtype=np.uint8).tolist())
    return run_packed(plan, cards, players, hole_final, board_final, seed, max_total, lo,
                      tuple(float(x) for x in thresholds), frac, score_mode, batch, z,
                      pilot)


def supported(rk: Any, hand_cards: int, omaha: bool) -> bool:
    """True when :func:`mc_equity` ranks final highs of ``hand_cards`` cards (Omaha:
    the hole cards with a five-card board) with the fast tables."""
    if rk is None or not rk.table_friendly:
        return False
    return omaha or 5 <= hand_cards <= 7
