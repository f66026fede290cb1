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
Hands are ranked by the evaluator's own kernels (:mod:`pokerarena.evaluator.kernels`:
one copy of the lookup, the lows, Omaha and badugi for the evaluator and the bots).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from pokerarena.evaluator import generic, ranking
from pokerarena.evaluator.fast import tables_for
from pokerarena.evaluator.kernels import (
    SUIT_BIAS,
    U32,
    Tables,
    badugi_bits,
    badugi_fast,
    bits_high,
    bits_word,
    card_bit,
    flush_suit,
    hash_slot,
    low8_value,
    low_rank_bit,
    omaha_board,
    omaha_hole_value,
    omaha_low8,
    sized_value,
    suit_ranks,
    table_value,
)

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
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> U32
    return x, np.int64((r * np.uint64(m)) >> U32)


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
            for k in range(nsub):
                key = pk + subkeys[k]
                su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                if su >= 0:
                    v = np.int64(flush[subsm[k, su] | (1 << (ca >> 2)) | (1 << (cb >> 2))])
                else:
                    v = np.int64(val5[hash_slot(key, sh5, off5)])
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


@njit(cache=True)
def a5_wild_value(hand, n, ck, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                  fewer):  # pragma: no cover - jit
    """Ace-to-five low with jokers of 5..7 cards in the ``a5_low`` tables: naturals
    keep their ranks, each joker takes the lowest rank missing (their keys summed at
    once); with ``fewer`` a hand with fewer jokers wins ties."""
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
    v = sized_value(key, n, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7)
    return v * 8 + (7 - jokers if fewer else 7)


@njit(cache=True)
def _value(hand, n, mode, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
           ranks_only, xtab, fewer):  # pragma: no cover - jit
    """Value of ``hand[:n]`` (higher is better) in a ranking ``mode``: the fast tables
    (5..7 cards), standard highs by bit masks (any size), a direct table of every two-
    or three-card hand (``xtab``), deuce-to-seven lows, badugi, or ace-to-five lows
    with jokers (:func:`a5_wild_value`)."""
    if mode == HI_TABLE:
        return table_value(hand, n, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                           val7, ranks_only)
    if mode == HI_BITS:
        return bits_high(hand, n, True)
    if mode == HI_SMALL:
        if n == 2:
            return np.int64(xtab[np.int64(hand[0]) * 52 + hand[1]])
        return np.int64(xtab[2704 + (np.int64(hand[0]) * 52 + hand[1]) * 52 + hand[2]])
    if mode == HI_27:
        return -bits_high(hand, n, False)
    if mode == HI_BADUGI:
        return badugi_fast(hand, n) if n <= 6 else badugi_bits(hand, n)
    return a5_wild_value(hand, n, ck, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                         fewer)


# --------------------------------------------------------------------------- kernel
class Work(NamedTuple):
    """The Monte-Carlo kernel's scratch, carved from one byte workspace (:data:`_WS`)
    so that a call allocates nothing; per player unless said otherwise. A kernel
    unpacks it into locals once: an array read out of a tuple inside a loop costs a
    reference count each time (measured: see :mod:`pokerarena.evaluator.kernels`)."""

    need: np.ndarray  # cards still to deal to the hand
    start: np.ndarray  # where its dealt cards start in ``buf``
    pkey: np.ndarray  # summed keys of its known cards (uint64)
    size: np.ndarray  # its final hand size, board included
    pw: np.ndarray  # HI_BITS: its known cards as one bit word
    hv: np.ndarray  # this deal's high values
    lv: np.ndarray  # this deal's low values
    cut: np.ndarray  # narrowing: the score it must reach (float64)
    psm: np.ndarray  # per-suit rank masks of its known cards [players, 4]
    bsm0: np.ndarray  # the known board's per-suit rank masks [4]
    bsm: np.ndarray  # this deal's board's [4]
    tris: np.ndarray  # Omaha: rank masks of each three flush-suit board cards [10]
    ranks: np.ndarray  # scratch of omaha_board [13]
    thresholds: np.ndarray  # the decision's thresholds [4] (float64)
    cards: np.ndarray  # the rows of pack(): [players + 2, width], count first
    seen: np.ndarray  # cards somebody is known to hold [64]
    buf: np.ndarray  # the live deck, shuffled in place: a deal's cards are buf[:k]
    hand: np.ndarray  # the hand being valued [16]
    narrowed: np.ndarray  # 1 for a narrowed opponent
    board: np.ndarray  # the known board
    subkeys: np.ndarray  # an incomplete Omaha board's threes: keys [4] (uint64)
    subsm: np.ndarray  # and per-suit rank masks [4, 4]
    scores: np.ndarray  # the pilot's scores [pilot] (float64)


class Shape(NamedTuple):
    """What a call deals, fixed once its rows are read (:func:`_setup`); numbers only,
    so reading them costs nothing."""

    nb: int  # known board cards
    need_board: int  # board cards to deal
    bstart: int  # where the dealt board cards start in ``buf``
    k: int  # cards dealt per deal
    n: int  # live cards (k > n: the deck is too short)
    words: bool  # HI_BITS: hands ORed from bit words
    build: bool  # each hand is copied into ``hand`` to be valued
    bkey0: np.uint64  # the known board's summed keys
    bw0: np.int64  # its bit word


@njit(cache=True, inline="always")
def _carve(flat, players, deck_size, pilot, ws):  # pragma: no cover - jit
    """The :class:`Work` of a call from the byte workspace ``ws`` (a fresh one when it
    is too small): the int64 and float64 parts first (8-byte aligned), then bytes."""
    width = 1
    pos = 0
    for _ in range(players + 2):
        width = max(width, np.int64(flat[pos]) + 1)
        pos += np.int64(flat[pos]) + 1
    pilot = max(pilot, 0)
    ni = 12 * players + 55 + pilot
    nbytes = 8 * ni + (players + 2) * width + 64 + deck_size + 16 + players + 64
    if ws.size < nbytes:
        ws = np.empty(nbytes, dtype=np.uint8)
    wi = ws[:8 * ni].view(np.int64)
    o = 12 * players
    pos = 8 * ni
    cards = ws[pos:pos + (players + 2) * width].reshape((players + 2, width))
    pos += (players + 2) * width
    seen = ws[pos:pos + 64]
    pos += 64
    buf = ws[pos:pos + deck_size]
    pos += deck_size
    hand = ws[pos:pos + 16]
    pos += 16
    narrowed = ws[pos:pos + players]
    pos += players
    return Work(wi[0:players], wi[players:2 * players],
                wi[2 * players:3 * players].view(np.uint64), wi[3 * players:4 * players],
                wi[4 * players:5 * players], wi[5 * players:6 * players],
                wi[6 * players:7 * players], wi[7 * players:8 * players].view(np.float64),
                wi[8 * players:12 * players].reshape((players, 4)), wi[o:o + 4],
                wi[o + 4:o + 8], wi[o + 8:o + 18], wi[o + 18:o + 31],
                wi[o + 31:o + 35].view(np.float64), cards, seen, buf, hand,
                narrowed, ws[pos:pos + 64], wi[o + 35:o + 39].view(np.uint64),
                wi[o + 39:o + 55].reshape((4, 4)),
                wi[o + 55:o + 55 + pilot].view(np.float64))


@njit(cache=True, inline="always")
def _read_rows(flat, players, cards, board, thresholds, t0, t1, t2,
               t3):  # pragma: no cover - jit
    """The rows of :func:`pack` into ``cards`` (and the board's cards into ``board``),
    the thresholds into ``thresholds``; how many board cards are known."""
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
    for j in range(nb):
        board[j] = cards[players, 1 + j]
    return nb


@njit(cache=True, inline="always")
def _live_deck(cards, players, deck, seen, buf):  # pragma: no cover - jit
    """Copy into ``buf`` the cards of ``deck`` nobody is known to hold (every row:
    players, board, dead cards); how many."""
    seen[:] = 0
    for p in range(players + 2):
        for j in range(np.int64(cards[p, 0])):
            seen[cards[p, 1 + j]] = 1
    n = 0
    for j in range(deck.size):
        if not seen[deck[j]]:
            buf[n] = deck[j]
            n += 1
    return n


@njit(cache=True, inline="always")
def _known_sums(cards, players, board, nb, words, ck, pkey, psm, pw,
                bsm0):  # pragma: no cover - jit
    """Each player's and the board's known cards summed once: keys and per-suit rank
    masks (and bit words for HI_BITS); (the board's key, the board's word)."""
    pkey[:] = 0
    psm[:] = 0
    pw[:] = 0
    for p in range(players):
        for j in range(np.int64(cards[p, 0])):
            c = cards[p, 1 + j]
            pkey[p] += ck[c]
            psm[p, c & 3] |= 1 << (c >> 2)
            if words:
                pw[p] |= card_bit(c)
    bkey0 = np.uint64(0)
    bw0 = np.int64(0)
    bsm0[:] = 0
    for j in range(nb):
        c = board[j]
        bkey0 += ck[c]
        bsm0[c & 3] |= 1 << (c >> 2)
        if words:
            bw0 |= card_bit(c)
    return bkey0, bw0


@njit(cache=True, inline="always")
def _setup(flat, players, hole_final, board_final, t0, t1, t2, t3, hi_mode, lo_mode,
           deck, ck, w):  # pragma: no cover - jit
    """Read the rows of :func:`pack` into ``w`` and lay out a deal: the live deck, the
    cards each row still needs and where they fall in ``row`` (player 0's, the
    board's, then each opponent's), the known cards' sums; the call's :class:`Shape`."""
    cards, need, start, size = w.cards, w.need, w.start, w.size
    nb = _read_rows(flat, players, cards, w.board, w.thresholds, t0, t1, t2, t3)
    need_board = max(0, board_final - nb)
    k = need_board
    for p in range(players):
        need[p] = max(0, hole_final - np.int64(cards[p, 0]))
        k += need[p]
    n = _live_deck(cards, players, deck, w.seen, w.buf)
    start[0] = 0
    pos = need[0] + need_board
    for p in range(1, players):
        start[p] = pos
        pos += need[p]
    for p in range(players):
        size[p] = np.int64(cards[p, 0]) + need[p] + nb + need_board
    words = hi_mode == HI_BITS
    bkey0, bw0 = _known_sums(cards, players, w.board, nb, words, ck, w.pkey, w.psm, w.pw,
                             w.bsm0)
    w.bsm[:] = w.bsm0
    build = lo_mode != LO_NONE or hi_mode == HI_OMAHA or (hi_mode >= HI_BITS and not words)
    w.hv[:] = 0
    w.lv[:] = 0
    w.tris[:] = 0
    w.ranks[:] = 0
    return Shape(nb, need_board, np.int64(need[0]), k, n, words, build, bkey0, bw0)


@njit(cache=True, inline="always")
def _narrow(frac, players, score_mode, max_total, narrowed):  # pragma: no cover - jit
    """Mark the narrowed opponents in ``narrowed``; (the deals to attempt: more when
    deals will be rejected, ``max_total / prod(frac)``, four times ``max_total`` at
    most; whether any opponent is narrowed)."""
    narrowed[:] = 0
    keep = 1.0
    narrowing = False
    if score_mode != SCORE_NONE:
        for p in range(1, players):
            if frac[p] < 0.999:
                narrowed[p] = 1
                narrowing = True
                keep *= frac[p]
    if not narrowing:
        return max_total, False
    return int(min(max_total / max(keep, 1e-9), 4.0 * max_total)), True


@njit(cache=True)
def _score(hand, m, board, score_mode, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
           val6, sh7, off7, val7, ranks_only, xtab, fewer, base, fsuit, tris, ntri, om,
           om_values, pair_idx, subkeys, subsm, nsub):  # pragma: no cover - jit
    """Current strength of a holding ``hand[:m]`` for range narrowing (an Omaha river
    board comes classified: ``base``, ``fsuit``, ``tris[:ntri]`` of
    :func:`~pokerarena.evaluator.kernels.omaha_board`; an earlier one as its threes:
    ``subkeys``, ``subsm``, ``nsub`` of :func:`_board_threes`). The tables come one
    array a parameter: it runs once per narrowed holding."""
    if score_mode == SCORE_PREFLOP:
        return _preflop_score(hand[0], hand[1])
    nb = board.size
    if hi_mode == HI_OMAHA and nb == 5:
        return float(omaha_hole_value(hand, 0, m, base, fsuit, tris, ntri, flush, om,
                                      om_values, pair_idx))
    for j in range(nb):
        hand[m + j] = board[j]
    if hi_mode >= HI_BITS:
        return float(_value(hand, m + nb, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
                            val6, sh7, off7, val7, ranks_only, xtab, fewer))
    if hi_mode == HI_OMAHA:
        return float(_omaha_partial(hand, m, subkeys, subsm, nsub, ck, flush, sh5, off5,
                                    val5, ranks_only))
    return float(table_value(hand, m + nb, ck, flush, sh5, off5, val5, sh6, off6, val6, sh7,
                             off7, val7, ranks_only))


@njit(cache=True, inline="always")
def _kth(a, k):  # pragma: no cover - jit
    """The ``k``-th smallest of ``a`` (from 0), moved to ``a[k]`` with no larger one
    before it and no smaller one after (Hoare's selection)."""
    lo = 0
    hi = a.size - 1
    while lo < hi:
        pivot = a[(lo + hi) >> 1]
        i = lo
        j = hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                tmp = a[i]
                a[i] = a[j]
                a[j] = tmp
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return a[k]


@njit(cache=True, inline="always")
def _quantile(sc, q):  # pragma: no cover - jit
    """``np.quantile(sc, q)`` as numba computes it (the same floats: linear
    interpolation between the two closest order statistics), by selection instead of
    its copies and partitions; reorders ``sc``. Finite scores only (every score is)."""
    n = sc.size
    if not 0.0 <= q <= 1.0:
        raise ValueError("Quantiles must be in the range [0, 1]")
    if n < 2:  # (numba's np.quantile, whose compile alone took 10 s, gives these)
        return sc[0] if n else np.nan
    pct = q * 100.0
    if pct == 100.0:
        return sc.max()
    if pct == 0.0:
        return sc.min()
    rank = 1 + (n - 1) * (pct / 100.0)
    f = np.floor(rank)
    m = rank - f
    k = int(f - 1)
    lower = _kth(sc, k)
    upper = sc[k + 1]
    for j in range(k + 2, n):
        if sc[j] < upper:
            upper = sc[j]
    return lower * (1 - m) + upper * m


@njit(cache=True, inline="always")
def _pilot_cuts(w, sh, state, frac, score_mode, hi_mode, pilot, t, xtab, fewer, base,
                fsuit, ntri, nsub):  # pragma: no cover - jit
    """Narrowing: the score each narrowed opponent must reach (``w.cut``), the
    quantile of its top fraction among ``pilot`` random holdings; the next state.
    Pre-flop scores and hold'em's made hands are ranked here, the rest by
    :func:`_score`."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om, om_values, om_board,
     pair_idx, ranks_only) = t
    buf, hand, cards, need, narrowed, cut = w.buf, w.hand, w.cards, w.need, w.narrowed, w.cut
    subkeys, subsm, sc = w.subkeys, w.subsm, w.scores
    nb = sh.nb
    board = w.board[:nb]
    tris = w.tris
    made_keys = score_mode == SCORE_MADE and hi_mode == HI_TABLE
    pkey, psm, bsm0 = w.pkey, w.psm, w.bsm0
    for p in range(1, need.size):
        if not narrowed[p]:
            continue
        msize = np.int64(cards[p, 0]) + need[p] + nb
        for s in range(pilot):
            for j in range(need[p]):
                state, r = _below(state, sh.n - j)
                r += j
                tmp = buf[j]
                buf[j] = buf[r]
                buf[r] = tmp
            if made_keys:  # (as the deal loop scores them)
                key = pkey[p] + sh.bkey0
                for j in range(need[p]):
                    key += ck[buf[j]]
                su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                if su >= 0:
                    v = np.int64(flush[psm[p, su] | bsm0[su] | suit_ranks(buf, 0, need[p], su)])
                else:
                    v = sized_value(key, msize, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                                    val7)
                sc[s] = float(v)
                continue
            m = 0
            for j in range(np.int64(cards[p, 0])):
                hand[m] = cards[p, 1 + j]
                m += 1
            for j in range(need[p]):
                hand[m] = buf[j]
                m += 1
            if score_mode == SCORE_PREFLOP:
                sc[s] = _preflop_score(hand[0], hand[1])
            else:
                sc[s] = _score(hand, np.int64(m), board, score_mode, hi_mode, ck, flush,
                               sh5, off5, val5, sh6, off6, val6, sh7, off7, val7,
                               ranks_only, xtab, fewer, base, fsuit, tris, np.int64(ntri),
                               om, om_values, pair_idx, subkeys, subsm, nsub)
        cut[p] = _quantile(sc, 1.0 - frac[p])
    return state


@njit(cache=True)
def _with_board(hand, h, board, dealt, bstart, need_board):  # pragma: no cover - jit
    """Append the known ``board`` and this deal's board cards (``dealt[bstart:]``) to
    ``hand[:h]``; the new length (a call only where a full evaluation follows)."""
    for j in range(board.size):
        hand[h] = board[j]
        h += 1
    for j in range(need_board):
        hand[h] = dealt[bstart + j]
        h += 1
    return h


@njit(cache=True, inline="always")
def _clear(total, used, thresholds, nth, z):  # pragma: no cover - jit
    """True when the mean share lies ``z`` standard errors from every threshold."""
    mean = total / used
    var = max(mean * (1.0 - mean), 0.01) / used
    for t in range(nth):
        d = mean - thresholds[t]
        if d * d <= z * z * var:
            return False
    return True


@njit(cache=True)
def _mc_core(flat, players, hole_final, board_final, seed, max_total, min_total, batch,
             z, nth, t0, t1, t2, t3, hi_mode, lo_mode, frac, score_mode, pilot, deck, t,
             xtab, fewer, ws):  # pragma: no cover - jit
    """(sum of the seat's pot shares, deals counted, deals dealt); see :func:`mc_equity`
    (``flat``: the card rows of :func:`pack`; up to four thresholds ``t0..t3``, the
    first ``nth`` of them in use; ``t``: the plan's
    :class:`~pokerarena.evaluator.kernels.Tables`; ``xtab``, ``fewer``: its extras;
    ``ws``: :data:`_WS`).

    High hands are ranked from summed card keys: each player's known cards and the
    board are summed once (the board once per deal), so a deal only adds the cards it
    dealt; an Omaha board is classified once per deal for every player. Inlined into
    :func:`mc_kernel` (and its setup helpers into it): passing the tables' and the
    workspace's tuples across a call cost 2 us a call, 0.6 us inlined.

    A long kernel, on purpose: the setup is in :func:`_carve`, :func:`_setup`,
    :func:`_narrow` and :func:`_pilot_cuts`, but the deal loop stays here, written out,
    with the workspace and the tables unpacked into locals. Measured (hold'em heads-up
    on the flop, per deal): the loop's parts as helpers taking the :class:`Work` and
    :class:`~pokerarena.evaluator.kernels.Tables` tuples, 260 ns against 53 (each read
    of an array out of a tuple is a reference-count increment and decrement); as
    ``inline="always"`` helpers taking the arrays, still 61 against 53 for the lookup
    with six table arrays, and 20 ns more for the shuffle and the share: each array
    argument of a helper called per deal costs its count. Helpers taking numbers only
    (``flush_suit``, ``hash_slot`` of one array) cost nothing.

    With narrowed ranges most deals are redealt (a pre-flop range of a few opponents
    keeps one deal in four), so a deal's narrowed opponents are judged first, before
    its board is summed, and their pre-flop and hold'em made-hand scores are ranked in
    the loop: through :func:`_score` (29 arguments, not inlined) the equity bot's
    multi-way pre-flop calls took 160 us, 35 now; its heads-up made-hand calls 58, 20;
    the pilot inlined took 1.2 us off each narrowed call and its cut is numba's
    ``np.quantile`` by selection (:func:`_quantile`). Every result stays bit for bit
    what it was: ``tests/bots/test_fastmc_identity.py`` replays thousands of recorded calls."""
    (ck, flush, sh5, off5, val5, sh6, off6, val6, sh7, off7, val7, om, om_values, om_board,
     pair_idx, ranks_only) = t
    w = _carve(flat, players, deck.size, pilot, ws)
    sh = _setup(flat, players, hole_final, board_final, t0, t1, t2, t3, hi_mode, lo_mode,
                deck, ck, w)
    if sh.k > sh.n:
        return 0.0, 0, 0
    (need, start, pkey, size, pw, hv, lv, cut, psm, bsm0, bsm, tris, ranks, thresholds,
     cards, _, buf, hand, narrowed, board_ws, subkeys, subsm, _) = w
    nb, need_board, bstart, k, n = sh.nb, sh.need_board, sh.bstart, sh.k, sh.n
    words, build = sh.words, sh.build
    board = board_ws[:nb]
    state = _seed_state(seed)
    attempts, narrowing = _narrow(frac, players, score_mode, max_total, narrowed)
    base, fsuit, ntri = np.int64(0), -1, 0
    if hi_mode == HI_OMAHA and nb == 5:  # a complete board: classified once
        base, fsuit, ntri = omaha_board(sh.bkey0, bsm0, om_board, sh5, off5, ranks_only,
                                        ranks, tris)
    nsub = 0  # an incomplete board's threes (narrowing)
    if hi_mode == HI_OMAHA and 3 <= nb <= 4 and narrowing:
        nsub = _board_threes(board, ck, subkeys, subsm)
    cut[:] = -np.inf
    if narrowing:
        state = _pilot_cuts(w, sh, state, frac, score_mode, hi_mode, pilot, t, xtab, fewer,
                            base, fsuit, ntri, nsub)
    # the seat's hand is fixed when nothing is still to come for it
    mine_fixed = need[0] == 0 and need_board == 0
    # with the board complete, a made-hand score of a high-only game is the final value
    score_final = (need_board == 0 and score_mode == SCORE_MADE and lo_mode == LO_NONE
                   and (hi_mode == HI_TABLE or hi_mode >= HI_BITS
                        or (hi_mode == HI_OMAHA and nb == 5)))
    # hold'em's made-hand scores: the opponent's cards and the known board, from keys
    made_keys = score_mode == SCORE_MADE and hi_mode == HI_TABLE
    evaluated = False
    board_ready = False  # this deal's board summed (once for all when none is dealt)
    bkey, bw, blm = sh.bkey0, sh.bw0, 0
    total = 0.0
    used = 0
    dealt = 0
    while dealt < attempts and used < max_total:
        dealt += 1
        for j in range(k):  # a partial Fisher-Yates shuffle deals buf[:k]
            state, r = _below(state, n - j)
            r += j
            tmp = buf[j]
            buf[j] = buf[r]
            buf[r] = tmp
        rejected = False
        if narrowing:  # opponents first, before anything else: most deals are redealt
            for p in range(players - 1, 0, -1):
                if not narrowed[p]:
                    continue
                sp = start[p]
                if made_keys:
                    key = pkey[p] + sh.bkey0
                    for j in range(need[p]):
                        key += ck[buf[sp + j]]
                    su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                    m = size[p] - need_board
                    if su >= 0:
                        v = np.int64(flush[psm[p, su] | bsm0[su]
                                           | suit_ranks(buf, sp, need[p], su)])
                    elif m == 7:
                        v = np.int64(val7[hash_slot(key, sh7, off7)])
                    elif m == 6:
                        v = np.int64(val6[hash_slot(key, sh6, off6)])
                    else:
                        v = np.int64(val5[hash_slot(key, sh5, off5)])
                    sc_p = float(v)
                else:
                    h = 0
                    for j in range(np.int64(cards[p, 0])):
                        hand[h] = cards[p, 1 + j]
                        h += 1
                    for j in range(need[p]):
                        hand[h] = buf[sp + j]
                        h += 1
                    if score_mode == SCORE_PREFLOP:
                        sc_p = _preflop_score(hand[0], hand[1])
                    else:
                        sc_p = _score(hand, np.int64(h), board, score_mode, hi_mode, ck,
                                      flush, sh5, off5, val5, sh6, off6, val6, sh7, off7,
                                      val7, ranks_only, xtab, fewer, base, fsuit, tris,
                                      np.int64(ntri), om, om_values, pair_idx, subkeys,
                                      subsm, nsub)
                if sc_p < cut[p]:
                    rejected = True
                    break
                if score_final:  # the score was the final hand's value
                    hv[p] = np.int64(sc_p)
            if rejected:
                continue
        if hi_mode != HI_NONE and (need_board or not board_ready):
            board_ready = True
            bkey = sh.bkey0
            bw = sh.bw0
            for s in range(4):
                bsm[s] = bsm0[s]
            for j in range(need_board):
                c = buf[bstart + j]
                bkey += ck[c]
                bsm[c & 3] |= 1 << (c >> 2)
                if words:
                    bw |= card_bit(c)
            if hi_mode == HI_OMAHA:
                base, fsuit, ntri = omaha_board(bkey, bsm, om_board, sh5, off5, ranks_only,
                                                ranks, tris)
                if lo_mode == LO_EIGHT:
                    blm = 0
                    for j in range(nb):
                        blm |= low_rank_bit(board[j])
                    for j in range(need_board):
                        blm |= low_rank_bit(buf[bstart + j])
        for p in range(players - 1, -1, -1):
            if p == 0 and mine_fixed and evaluated:
                continue
            if score_final and narrowed[p]:  # valued by its score
                continue
            sp = start[p]
            h = 0
            if build:  # (written out: see the docstring)
                for j in range(np.int64(cards[p, 0])):
                    hand[h] = cards[p, 1 + j]
                    h += 1
                for j in range(need[p]):
                    hand[h] = buf[sp + j]
                    h += 1
            if hi_mode == HI_TABLE:
                key = pkey[p] + bkey
                for j in range(need[p]):
                    key += ck[buf[sp + j]]
                su = -1 if ranks_only else flush_suit(key, SUIT_BIAS)
                if su >= 0:
                    hv[p] = np.int64(flush[psm[p, su] | bsm[su]
                                           | suit_ranks(buf, sp, need[p], su)])
                elif size[p] == 7:  # (sized_value written out: fewer array arguments)
                    hv[p] = np.int64(val7[hash_slot(key, sh7, off7)])
                elif size[p] == 6:
                    hv[p] = np.int64(val6[hash_slot(key, sh6, off6)])
                else:
                    hv[p] = np.int64(val5[hash_slot(key, sh5, off5)])
            elif words:
                wd = pw[p] | bw
                for j in range(need[p]):
                    wd |= card_bit(buf[sp + j])
                hv[p] = bits_word(wd, size[p], True)
            elif hi_mode >= HI_BITS:
                m = _with_board(hand, h, board, buf, bstart, need_board)
                hv[p] = _value(hand, m, hi_mode, ck, flush, sh5, off5, val5, sh6, off6,
                               val6, sh7, off7, val7, ranks_only, xtab, fewer)
            elif hi_mode == HI_OMAHA:
                hv[p] = omaha_hole_value(hand, 0, h, base, fsuit, tris, ntri, flush, om,
                                         om_values, pair_idx)
            if lo_mode == LO_EIGHT and hi_mode == HI_OMAHA:
                lv[p] = omaha_low8(hand, 0, h, blm)
            elif lo_mode == LO_EIGHT:
                lv[p] = low8_value(hand, _with_board(hand, h, board, buf, bstart,
                                                     need_board), h, False)
        evaluated = True
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
                and (used - min_total) % batch == 0
                and _clear(total, used, thresholds, nth, z)):
            break
    return total, used, dealt


_XTABS: dict[Any, np.ndarray] = {}  # by ranking (1.2 MB each), the oldest forgotten
XTABS_LIMIT = 8


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
        while len(_XTABS) >= XTABS_LIMIT:
            _XTABS.pop(next(iter(_XTABS)))
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


def _pack_tables(tables: Tables, extra: tuple, hi_mode: int,
                 lo_mode: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A plan's tables as three arrays (a call's arguments are typed one by one by
    numba's dispatcher: three arrays cost less than sixteen fields): int32 ``T`` (a
    header of shifts, flags, modes and offsets, then the int32 tables), int64 ``A``
    (card keys, pair index, two/three-card values) and the uint16 Omaha classes."""
    xtab, fewer = extra
    t = tables
    parts = [t.flush, t.offsets5, t.values5, t.offsets6, t.values6, t.offsets7, t.values7,
             t.omaha_values, t.omaha_board]
    head = [t.shift5, t.shift6, t.shift7, int(t.ranks_only), int(fewer), hi_mode, lo_mode]
    pos = _HEAD
    for a in parts:
        head.append(pos)
        pos += a.size
    head.append(pos)  # head[16]: the end
    head += [t.card_keys.size, t.card_keys.size + t.pair_index.size, 0]
    if any(np.asarray(a).dtype.itemsize > 4 and a.size
           and (a.max() > 2**31 - 1 or a.min() < -2**31) for a in parts):
        raise ValueError("table values beyond int32")
    packed = np.concatenate([np.asarray(head, dtype=np.int32)]
                            + [np.asarray(a, dtype=np.int32) for a in parts])
    a64 = np.concatenate([t.card_keys.view(np.int64), np.asarray(t.pair_index, dtype=np.int64),
                          np.asarray(xtab, dtype=np.int64)])
    return packed, a64, np.ascontiguousarray(t.omaha)


@njit(cache=True, inline="always")
def _unpack(T, A, om):  # pragma: no cover - jit
    """The tables of :func:`_pack_tables` as views: (the
    :class:`~pokerarena.evaluator.kernels.Tables`, ``xtab``, ``fewer``)."""
    t = Tables(A[0:T[17]].view(np.uint64), T[T[7]:T[8]], np.int64(T[0]), T[T[8]:T[9]],
               T[T[9]:T[10]], np.int64(T[1]), T[T[10]:T[11]], T[T[11]:T[12]],
               np.int64(T[2]), T[T[12]:T[13]], T[T[13]:T[14]], om, T[T[14]:T[15]],
               T[T[15]:T[16]], A[T[17]:T[18]], T[3] != 0)
    return t, A[T[18]:], T[4] != 0


@njit(cache=True)
def mc_kernel(flat, players, hole_final, board_final, seed, max_total, min_total, batch,
               z, nth, t0, t1, t2, t3, frac, score_mode, pilot, deck, T, A, om,
               ws):  # pragma: no cover - jit
    """:func:`_mc_core` with the plan's tables packed (:attr:`Plan.packed`) and its
    modes in their header: 22 arguments, nearly all arrays or numbers (what numba's
    dispatcher types fastest)."""
    t, xtab, fewer = _unpack(T, A, om)
    return _mc_core(flat, players, hole_final, board_final, seed, max_total, min_total,
                    batch, z, nth, t0, t1, t2, t3, np.int64(T[5]), np.int64(T[6]), frac,
                    score_mode, pilot, deck, t, xtab, fewer, ws)


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
        self.tables: Tables = tables_for(rk)
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
        total, used, _ = mc_kernel(*args, _NO_NARROW, SCORE_NONE, 0, plan.deck,
                                    *plan.packed, _WS)
        return total, used
    total, used, dealt = mc_kernel(*args, frac, score_mode, pilot, plan.deck, *plan.packed,
                                    _WS)
    if used < 8 and dealt:
        total, used, _ = mc_kernel(*args, _NO_NARROW, SCORE_NONE, 0, plan.deck,
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
